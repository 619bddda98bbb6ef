// Server: a whole gridstar-server, built from its options and started in
// this process: the map registry and its store, the schedulers, the
// service, metrics, the gRPC port and the HTTP/JSON port. `main`
// (server/main.cc) builds one from its flags and owns signals; tests build one
// in-process on a port gRPC picks.
//
// BuildAndStart checks the settings, opens the store and loads its maps,
// registers the --preload files, and starts serving; an error stops the
// start with nothing left running. Shutdown drains: it stops accepting
// calls, gives those running `grace` to finish, then cancels the rest and
// stops every thread.
//
// Thread-safety: every method may be called from any thread; Shutdown once
// (the destructor calls it with no grace when it was not).
#ifndef GRIDSTAR_SERVER_RUNTIME_SERVER_H_
#define GRIDSTAR_SERVER_RUNTIME_SERVER_H_

#include <cstdint>
#include <memory>
#include <string>
#include <vector>

#include "absl/status/status.h"
#include "absl/status/statusor.h"
#include "absl/time/time.h"
#include "auth/tls.h"
#include "maps/map_registry.h"
#include "maps/world_registry.h"
#include "rpc/service.h"
#include "store/store_setup.h"

namespace gridstar::server {

// Everything a server is started with; each field is the flag of the same
// name (server/runtime/server_flags.cc says what each does).
struct ServerOptions {
  std::string host = "0.0.0.0";
  int port = 50051;  // 0 = a free one (Server::port says which).
  int metrics_port = 9464;  // 0 = off; -1 = a free one.
  // HTTP/JSON (http/http_gateway.h): 0 = off; -1 = a free one.
  int http_port = 0;
  std::string http_cors_origins;
  bool http_console = false;  // The web console on the HTTP port.
  TlsFiles tls;
  std::string admin_token_file;
  std::string query_token_file;
  StoreSettings store;
  // id=path pairs, and what they are registered with.
  std::vector<std::string> preload;
  bool preload_replace = false;
  int preload_landmarks = 8;
  int workers = 0;  // 0 = hardware threads.
  int search_nice = 10;
  // Map and link updates (UpdateCells, UpdateLinks) run on their own thread,
  // at SCHED_FIFO when this is set and the process may (CAP_SYS_NICE);
  // Server::update_thread_realtime() says whether it got it.
  bool update_thread_realtime = true;
  int queue_capacity = 4096;
  int64_t inline_expansions = 128;
  int inline_contexts = 0;
  int64_t max_search_nodes = 0;
  int64_t context_release_bytes = int64_t{64} << 20;
  int64_t flow_field_cache_bytes = int64_t{256} << 20;
  MapLimits map_limits;  // max_map_side, max_map_cells.
  MapRegistry::Limits registry;  // max_maps, ..., auto measurement.
  WorldRegistry::Limits worlds;  // max_worlds, ..., max_map_link_ends.
  // max_batch, max_group, max_stream_inflight, max_search_time,
  // max_message_bytes, watch_*; map_limits, access, inline_searches and
  // finisher are the server's own.
  ServiceOptions service;
};

class Server {
 public:
  // InvalidArgument for settings that cannot work (a bad TLS pair, key
  // file, store password file, --preload spec or range); another code when
  // what they name cannot be used (the store unreachable, the port taken).
  // The message names the flag.
  static absl::StatusOr<std::unique_ptr<Server>> BuildAndStart(
      ServerOptions options);
  ~Server();
  Server(const Server&) = delete;
  Server& operator=(const Server&) = delete;

  // The gRPC port, the metrics port and the HTTP/JSON port (0 when off).
  int port() const;
  int metrics_port() const;
  int http_port() const;
  // Whether map and link updates got real-time priority
  // (ServerOptions::update_thread_realtime and CAP_SYS_NICE).
  bool update_thread_realtime() const;
  // "serving on HOST:PORT (plaintext) with N workers, M maps, metrics on
  // :P/metrics, HTTP/JSON on :Q": what main logs once started.
  std::string Describe() const;
  MapRegistry& registry();
  WorldRegistry& worlds();
  // The watched agents (tests: their stats).
  WatchHub& watch();

  // Re-reads the key files and the store's password file (SIGHUP): a bad
  // key file keeps the old keys (its error returned); each outcome logged.
  absl::Status ReloadKeys();
  // Stops serving as described above. Idempotent.
  void Shutdown(absl::Duration grace);

 private:
  struct Parts;
  explicit Server(std::unique_ptr<Parts> parts);
  std::unique_ptr<Parts> parts_;
};

}  // namespace gridstar::server

#endif  // GRIDSTAR_SERVER_RUNTIME_SERVER_H_
