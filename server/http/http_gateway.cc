#include "http/http_gateway.h"

#include <httplib.h>
#include <openssl/ssl.h>

#include <atomic>
#include <condition_variable>
#include <cstdio>
#include <cstring>
#include <map>
#include <mutex>
#include <string>
#include <thread>
#include <utility>
#include <vector>

#include "absl/container/flat_hash_set.h"
#include "absl/strings/ascii.h"
#include "absl/strings/numbers.h"
#include "absl/strings/str_cat.h"
#include "absl/strings/str_join.h"
#include "absl/strings/str_split.h"
#include "absl/time/clock.h"
#include "convert/convert.h"
#include "convert/json_codec.h"
#include "google/protobuf/descriptor.h"
#include "gridstar/v1/gridstar.grpc.pb.h"
#include "http/console.h"
#include "http/http_request.h"
#include "http/http_watch.h"
#include "prometheus/counter.h"
#include "prometheus/histogram.h"
#include "rpc/calls.h"
#include "rpc/service.h"

namespace gridstar::server {
namespace {

constexpr absl::string_view kPrefix = "/gridstar.v1.Pathfinding/";

// A call of the service made over HTTP: its handler runs on the gateway's
// thread (or hands it to a worker), and Wait blocks until it is done.
class HttpCall final : public Call {
 public:
  HttpCall(Metrics* metrics, absl::string_view method, absl::Time deadline,
           absl::optional<absl::string_view> authorization)
      : Call(metrics, method, deadline, authorization) {}

  void Done(const absl::Status& s) override {
    Record(static_cast<int>(s.code()));
    // Notified under the lock: Wait returns (and the call may end) only
    // after this has let go of it. (A std::mutex, which ThreadSanitizer
    // sees, not Debian's uninstrumented absl::Notification.)
    std::lock_guard<std::mutex> lock(mu_);
    // A status of its own: `s`'s shared text may be released by the
    // handler's thread while this one reads it.
    status_ = absl::Status(s.code(), std::string(s.message()));
    done_ = true;
    changed_.notify_all();
  }
  void SayStoreShared() override { store_shared_.store(true); }

  absl::Status Wait() {
    std::unique_lock<std::mutex> lock(mu_);
    changed_.wait(lock, [this] { return done_; });
    return status_;
  }
  bool store_shared() const { return store_shared_.load(); }

 private:
  std::mutex mu_;
  std::condition_variable changed_;
  bool done_ = false;
  absl::Status status_;
  std::atomic<bool> store_shared_{false};
};

}  // namespace

std::string HttpErrorBody(int http_status, int grpc_code,
                          absl::string_view message) {
  return absl::StrCat(
      "{\"error\":{\"code\":", http_status,
      ",\"message\":", convert::JsonQuote(message), ",\"status\":\"",
      convert::CodeName(static_cast<grpc::StatusCode>(grpc_code)), "\"}}\n");
}

int HttpGateway::HttpStatusOf(int grpc_code) {
  // google.rpc.Code's HTTP mapping (Google's API design guide, "Errors").
  static const int kStatus[] = {200, 499, 500, 400, 504, 404, 409, 403, 429,
                                400, 409, 400, 501, 500, 503, 500, 401};
  return grpc_code >= 0 && grpc_code <= 16 ? kStatus[grpc_code] : 500;
}

struct HttpGateway::State {
  HttpOptions options;
  PathfindingService* service = nullptr;
  std::unique_ptr<HttpWatchStreams> watch_streams;
  // The calls being served (Shutdown cancels what is left after the grace).
  std::mutex mu;
  std::condition_variable idle;
  absl::flat_hash_set<Call*> calls ABSL_GUARDED_BY(mu);
  std::unique_ptr<httplib::Server> http;
  std::thread listener;
  prometheus::Family<prometheus::Counter>* requests = nullptr;
  prometheus::Family<prometheus::Histogram>* durations = nullptr;
  std::string tls_error;  // Set by SetUpTls when the files do not load.

  // One HTTP call's outcome, as written and counted.
  struct Reply {
    int status = 200;
    std::string body;
    bool store_shared = false;  // The kStoreHeader answer header.
  };

  static Reply Error(int http_status, int grpc_code,
                     absl::string_view message) {
    Reply r;
    r.status = http_status;
    r.body = HttpErrorBody(http_status, grpc_code, message);
    return r;
  }
  static Reply Error(int grpc_code, absl::string_view message) {
    return Error(HttpStatusOf(grpc_code), grpc_code, message);
  }

  bool SetUpTls(SSL_CTX& ctx);
  Reply Handle(const httplib::Request& request,
               const google::protobuf::MethodDescriptor* method);
  void Serve(const httplib::Request& request, httplib::Response& response);
  void Count(absl::string_view method, int status, double seconds);
  // The CORS headers for a request from `origin` (none when not allowed).
  void AllowOrigin(const httplib::Request& request,
                   httplib::Response& response) const;
};

void HttpGateway::State::AllowOrigin(const httplib::Request& request,
                                     httplib::Response& response) const {
  if (options.cors_origins.empty() || !request.has_header("Origin")) return;
  const std::string origin = request.get_header_value("Origin");
  bool allowed = options.cors_origins == "*";
  for (absl::string_view o : absl::StrSplit(options.cors_origins, ',')) {
    allowed = allowed || absl::StripAsciiWhitespace(o) == origin;
  }
  if (!allowed) return;
  response.set_header("Access-Control-Allow-Origin",
                      options.cors_origins == "*" ? "*" : origin);
  response.set_header("Vary", "Origin");
  response.set_header("Access-Control-Expose-Headers", kStoreHeader);
}

void HttpGateway::State::Count(absl::string_view method, int status,
                               double seconds) {
  const std::map<std::string, std::string> labels = {
      {"method", std::string(method)}, {"code", absl::StrCat(status)}};
  requests->Add(labels).Increment();
  static const prometheus::Histogram::BucketBoundaries kBuckets = {
      0.0001, 0.00025, 0.0005, 0.001, 0.0025, 0.005, 0.01, 0.025, 0.05,
      0.1,    0.25,    0.5,    1,     2.5,    5,     10,   30};
  durations->Add({{"method", std::string(method)}}, kBuckets).Observe(seconds);
}

HttpGateway::State::Reply HttpGateway::State::Handle(
    const httplib::Request& http_request,
    const google::protobuf::MethodDescriptor* method) {
  absl::string_view body = http_request.body;
  if (absl::StripAsciiWhitespace(body).empty()) body = "{}";
  google::protobuf::MessageFactory* factory =
      google::protobuf::MessageFactory::generated_factory();
  std::unique_ptr<google::protobuf::Message> request(
      factory->GetPrototype(method->input_type())->New());
  std::unique_ptr<google::protobuf::Message> response(
      factory->GetPrototype(method->output_type())->New());
  if (absl::Status s = convert::JsonToMessage(body, request.get()); !s.ok()) {
    return Error(3, absl::StrCat("body: not a ", method->input_type()->name(),
                                 " in JSON: ", s.message()));
  }

  // The deadline: the header, else the query parameter, else none (the
  // handler caps every call at --max_search_time: CallDeadline).
  absl::Time deadline = absl::InfiniteFuture();
  const bool in_header = http_request.has_header("X-Server-Timeout");
  if (in_header || http_request.has_param("timeout")) {
    const char* field = in_header ? "X-Server-Timeout" : "timeout";
    const std::string given = in_header ? http_request.get_header_value(field)
                                        : http_request.get_param_value(field);
    double seconds = 0;
    if (!absl::SimpleAtod(given, &seconds) || !(seconds > 0)) {
      return Error(3, absl::StrCat(field, ": '", given,
                                   "' is not a positive number of seconds"));
    }
    deadline = absl::Now() + absl::Seconds(seconds);
  }

  HttpCall call(service->metrics(), method->name(), deadline,
                AuthorizationOf(http_request));
  {
    std::lock_guard<std::mutex> lock(mu);
    calls.insert(&call);
  }
  service->ServeUnary(method->name(), &call, *request, response.get());
  const absl::Status status = call.Wait();
  {
    std::lock_guard<std::mutex> lock(mu);
    calls.erase(&call);
    if (calls.empty()) idle.notify_all();
  }
  if (!status.ok()) {
    Reply r = Error(static_cast<int>(status.code()), status.message());
    r.store_shared = call.store_shared();
    return r;
  }
  Reply r;
  convert::MessageToJson(*response, &r.body);
  r.body += "\n";
  r.store_shared = call.store_shared();
  return r;
}

void HttpGateway::State::Serve(const httplib::Request& request,
                               httplib::Response& response) {
  const absl::Time begin = absl::Now();
  AllowOrigin(request, response);
  static const google::protobuf::ServiceDescriptor* const api =
      google::protobuf::DescriptorPool::generated_pool()->FindServiceByName(
          v1::Pathfinding::service_full_name());
  const std::string name =
      request.matches.size() > 1 ? request.matches[1].str() : "";
  const google::protobuf::MethodDescriptor* method =
      api->FindMethodByName(name);
  Reply reply;
  if (method == nullptr) {
    std::vector<std::string> unary;
    for (int i = 0; i < api->method_count(); ++i) {
      const auto* m = api->method(i);
      if (!m->client_streaming() && !m->server_streaming()) {
        unary.push_back(m->name());
      }
    }
    reply =
        Error(5, absl::StrCat("no method '", name, "' in ", api->full_name(),
                              " (POST ", kPrefix,
                              "<Method>: ", absl::StrJoin(unary, ", "), ")"));
  } else if (request.method != "POST") {
    reply = Error(405, 12,
                  absl::StrCat(request.method, " ", request.path,
                               ": calls are POST, the request as JSON in the "
                               "body"));
    response.set_header("Allow", "POST");
  } else if (method->name() == "WatchPaths") {
    watch_streams->Serve(request, response);
    Count(method->name(), response.status,
          absl::ToDoubleSeconds(absl::Now() - begin));
    return;
  } else if (method->client_streaming() || method->server_streaming()) {
    reply = Error(
        12, absl::StrCat(method->name(),
                         " is a stream, served on the gRPC port only; over "
                         "HTTP ",
                         "send the queries as one FindPaths batch"));
  } else {
    reply = Handle(request, method);
  }
  response.status = reply.status;
  response.set_header("Cache-Control", "no-store");
  if (reply.store_shared) response.set_header(kStoreHeader, "shared");
  response.set_content(std::move(reply.body), "application/json");
  Count(method != nullptr ? method->name() : "unknown", reply.status,
        absl::ToDoubleSeconds(absl::Now() - begin));
}

bool HttpGateway::State::SetUpTls(SSL_CTX& ctx) {
  const TlsFiles& tls = options.tls;
  if (SSL_CTX_use_certificate_chain_file(&ctx, tls.cert.c_str()) != 1) {
    tls_error = absl::StrCat("--tls_cert: ", tls.cert,
                             " is not a PEM certificate chain");
    return false;
  }
  if (SSL_CTX_use_PrivateKey_file(&ctx, tls.key.c_str(), SSL_FILETYPE_PEM) !=
          1 ||
      SSL_CTX_check_private_key(&ctx) != 1) {
    tls_error = absl::StrCat("--tls_key: ", tls.key,
                             " is not the PEM key of --tls_cert");
    return false;
  }
  if (!tls.client_ca.empty()) {
    if (SSL_CTX_load_verify_locations(&ctx, tls.client_ca.c_str(), nullptr) !=
        1) {
      tls_error = absl::StrCat("--tls_client_ca: ", tls.client_ca,
                               " is not a PEM certificate");
      return false;
    }
    SSL_CTX_set_verify(&ctx, SSL_VERIFY_PEER | SSL_VERIFY_FAIL_IF_NO_PEER_CERT,
                       nullptr);
  }
  return true;
}

absl::StatusOr<std::unique_ptr<HttpGateway>> HttpGateway::Start(
    const HttpOptions& options, PathfindingService* service,
    prometheus::Registry* metrics) {
  auto state = std::make_unique<State>();
  State* st = state.get();
  st->options = options;
  st->service = service;
  // Each open event stream holds one of the threads: at most half of them.
  st->watch_streams = std::make_unique<HttpWatchStreams>(
      service, static_cast<size_t>(std::max(1, options.threads / 2)));
  st->requests = &prometheus::BuildCounter()
                      .Name("gridstar_http_requests_total")
                      .Help(
                          "HTTP/JSON calls by method and HTTP status (each "
                          "also counts as its RPC in "
                          "gridstar_requests_total)")
                      .Register(*metrics);
  st->durations = &prometheus::BuildHistogram()
                       .Name("gridstar_http_request_duration_seconds")
                       .Help(
                           "Wall time of HTTP/JSON calls by method, from "
                           "the request read to the answer made")
                       .Register(*metrics);
  const bool tls = !options.tls.cert.empty();
  if (tls) {
    st->http = std::make_unique<httplib::SSLServer>(
        [st](SSL_CTX& ctx) { return st->SetUpTls(ctx); });
  } else {
    st->http = std::make_unique<httplib::Server>();
  }
  if (!st->http->is_valid()) {
    return absl::InvalidArgumentError(
        st->tls_error.empty() ? "--tls_cert: OpenSSL refused the TLS setup"
                              : st->tls_error);
  }
  const int threads = std::max(2, options.threads);
  st->http->new_task_queue = [threads] {
    return new httplib::ThreadPool(static_cast<size_t>(threads));
  };
  st->http->set_payload_max_length(options.max_body_bytes);
  st->http->set_keep_alive_max_count(100000);
  st->http->set_tcp_nodelay(true);
  const std::string route =
      absl::StrCat("/gridstar\\.v1\\.Pathfinding/([A-Za-z0-9_]*)");
  auto serve = [st](const httplib::Request& q, httplib::Response& r) {
    st->Serve(q, r);
  };
  st->http->Post(route, serve);
  st->http->Get(route, serve);
  st->http->Put(route, serve);
  st->http->Delete(route, serve);
  st->http->Patch(route, serve);
  if (options.console) AddConsoleRoutes(st->http.get(), service, metrics);
  // A browser's preflight: which methods and headers a call may use.
  st->http->Options(
      route, [st](const httplib::Request& q, httplib::Response& r) {
        st->AllowOrigin(q, r);
        if (r.has_header("Access-Control-Allow-Origin")) {
          r.set_header("Access-Control-Allow-Methods", "POST");
          r.set_header("Access-Control-Allow-Headers",
                       "Authorization, Content-Type, X-Server-Timeout");
          r.set_header("Access-Control-Max-Age", "600");
        }
        r.status = 204;
      });
  // What the library answers itself (no route, a body over the limit, a
  // request that does not parse) gets the same JSON error body.
  st->http->set_error_handler([st](const httplib::Request& q,
                                   httplib::Response& r) {
    if (!r.body.empty()) return;
    const int code = r.status == 413   ? 8
                     : r.status == 404 ? 5
                     : r.status >= 500 ? 13
                                       : 3;
    std::string message =
        r.status == 413 ? absl::StrCat("body: more than the server's limit of ",
                                       st->options.max_body_bytes,
                                       " bytes (--max_message_bytes)")
        : r.status == 404
            ? absl::StrCat("no route ", q.path, " (POST ", kPrefix, "<Method>)")
            : absl::StrCat("the request could not be read (HTTP ", r.status,
                           ")");
    const int status = r.status == 413 ? HttpStatusOf(code) : r.status;
    State::Reply reply = State::Error(status, code, message);
    r.status = status;
    r.set_content(std::move(reply.body), "application/json");
  });
  int port = 0;
  if (options.port < 0) {
    port = st->http->bind_to_any_port(options.host);
  } else if (st->http->bind_to_port(options.host, options.port)) {
    port = options.port;
  }
  if (port <= 0) {
    return absl::UnavailableError(
        absl::StrCat("--http_port: cannot listen on ", options.host, ":",
                     options.port, " (is another process using the port?)"));
  }
  httplib::Server* server = st->http.get();
  st->listener = std::thread([server] { server->listen_after_bind(); });
  auto gateway =
      std::unique_ptr<HttpGateway>(new HttpGateway(std::move(state)));
  gateway->port_ = port;
  gateway->tls_ = tls;
  return gateway;
}

HttpGateway::HttpGateway(std::unique_ptr<State> state)
    : state_(std::move(state)) {}

void HttpGateway::Shutdown(absl::Time deadline) {
  State& st = *state_;
  if (st.listener.joinable()) {
    {
      std::unique_lock<std::mutex> lock(st.mu);
      st.idle.wait_until(lock, absl::ToChronoTime(deadline),
                         [&st] { return st.calls.empty(); });
      // What is left after the grace is cancelled (its searches stop).
      for (Call* call : st.calls) call->cancelled()->store(true);
    }
    st.watch_streams->CloseAll();
    st.http->stop();
    st.listener.join();
  }
}

HttpGateway::~HttpGateway() { Shutdown(absl::Now()); }

}  // namespace gridstar::server
