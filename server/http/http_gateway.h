// HttpGateway: the service's unary RPCs over HTTP/1.1 with protobuf's JSON
// mapping, on a port of its own (--http_port), served by cpp-httplib. (Not
// civetweb, which serves /metrics: Debian's civetweb 1.15 looks up OpenSSL
// 1.1's SSL_get_peer_certificate in OpenSSL 3 at run time, gets null, and
// crashes on the first HTTPS connection.)
//
//   POST /gridstar.v1.Pathfinding/<Method>   body: the request as JSON
//
// A call goes to the same handler as a gRPC call (PathfindingService::
// ServeUnary, on the gateway's thread), so it meets the same validation,
// limits, keys (the `Authorization: Bearer <token>` header), metrics
// (gridstar_requests_total counts it as its RPC) and deadlines (the
// `X-Server-Timeout` header or the `timeout` query parameter, in seconds;
// else the server's --max_search_time) as a gRPC call. Requests are read
// with field names in lowerCamelCase or as the proto spells them, enums by
// name or number; answers are written in lowerCamelCase with every field,
// 64-bit integers as strings (the proto3 JSON mapping). A failure answers the
// HTTP status Google's API design guide maps its gRPC code to, with a body
// {"error": {"code": <http status>, "message": "...", "status": "<CODE>"}}.
// WatchPaths is served as server-sent events (http_watch.h); FindPathsStream
// is not served here (501, naming FindPaths).
//
// With --tls_cert and --tls_key the port speaks HTTPS with the same
// certificate (and with --tls_client_ca requires client certificates).
//
// Thread-safety: each connection is served on one of the gateway's threads;
// the gateway keeps, besides its metrics, the calls in flight (for
// Shutdown) and the open watch streams, each under its own mutex.
#ifndef GRIDSTAR_SERVER_HTTP_HTTP_GATEWAY_H_
#define GRIDSTAR_SERVER_HTTP_HTTP_GATEWAY_H_

#include <memory>
#include <string>

#include "absl/status/statusor.h"
#include "absl/strings/string_view.h"
#include "absl/time/time.h"
#include "auth/tls.h"
#include "prometheus/registry.h"
#include "rpc/service.h"

namespace gridstar::server {

struct HttpOptions {
  std::string host = "0.0.0.0";
  int port = 0;  // REQUIRES: not 0 (off is the caller's); -1 = a free one.
  TlsFiles tls;
  // The largest request body read; a larger one answers 429
  // RESOURCE_EXHAUSTED (the gRPC port's --max_message_bytes).
  size_t max_body_bytes = 80 << 20;
  // Connections served at once (a connection kept alive holds its thread
  // until it has been idle for 5 s).
  int threads = 16;
  // Browser pages of these origins ("https://tools.example.com", comma
  // separated, or "*" for any) may call the port (CORS: the allow headers,
  // and OPTIONS preflights answered 204). Empty: no CORS headers.
  std::string cors_origins;
  // Serve the web console (console.h) on the port.
  bool console = false;
};

// The body of a failed call: {"error":{"code":<http_status>,"message":
// "...","status":"<gRPC code name>"}}.
std::string HttpErrorBody(int http_status, int grpc_code,
                          absl::string_view message);

class HttpGateway {
 public:
  // Starts serving `service`'s unary methods. Unavailable when the port
  // cannot be opened, InvalidArgument for TLS files OpenSSL cannot use
  // (naming the flag). REQUIRES: `service` outlives the gateway.
  static absl::StatusOr<std::unique_ptr<HttpGateway>> Start(
      const HttpOptions& options, PathfindingService* service,
      prometheus::Registry* metrics);
  // Waits until `deadline` for the calls being served, cancels the rest,
  // and stops (the port closed, every thread joined). Idempotent.
  void Shutdown(absl::Time deadline);
  // Shutdown(now).
  ~HttpGateway();
  HttpGateway(const HttpGateway&) = delete;
  HttpGateway& operator=(const HttpGateway&) = delete;

  int port() const { return port_; }
  bool tls() const { return tls_; }

  // The HTTP status Google's API design guide gives gRPC code `code`.
  static int HttpStatusOf(int grpc_code);

 private:
  struct State;
  explicit HttpGateway(std::unique_ptr<State> state);
  std::unique_ptr<State> state_;
  int port_ = 0;
  bool tls_ = false;
};

}  // namespace gridstar::server

#endif  // GRIDSTAR_SERVER_HTTP_HTTP_GATEWAY_H_
