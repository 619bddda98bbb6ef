// gridstar-server: the gridstar.v1.Pathfinding gRPC service.
#include <signal.h>
#include <sys/resource.h>

#include <cstdio>
#include <fstream>
#include <memory>
#include <string>

#include "absl/flags/flag.h"
#include "absl/status/statusor.h"
#include "absl/synchronization/mutex.h"
#include "absl/time/time.h"
#include "program_flags.h"
#include "runtime/server.h"
#include "runtime/server_flags.h"

ABSL_FLAG(std::string, port_file, "",
          "If set, the chosen gRPC port is written here once serving");

namespace gridstar::server {
namespace {

int Run() {
  // Debian builds Abseil without NDEBUG, which leaves absl::Mutex's deadlock
  // detector on: every lock, gRPC's own included, then walks a lock graph
  // (3-4% of a cheap call's CPU, the profile in tests/bench/floor_bench.sh
  // showed). Our lock order is fixed by design and TSan checks it in CI.
  absl::SetMutexDeadlockDetectionMode(absl::OnDeadlockCycle::kIgnore);
  // Each map keeps one memory file per tiled array (cow_buffer.h), up to four
  // descriptors a map: take the hard limit of open files, as servers do.
  rlimit files{};
  if (getrlimit(RLIMIT_NOFILE, &files) == 0 && files.rlim_cur < files.rlim_max) {
    files.rlim_cur = files.rlim_max;
    (void)setrlimit(RLIMIT_NOFILE, &files);
  }
  // Signals are taken by one thread with sigwait, so block them everywhere.
  sigset_t signals;
  sigemptyset(&signals);
  sigaddset(&signals, SIGTERM);
  sigaddset(&signals, SIGINT);
  sigaddset(&signals, SIGHUP);
  pthread_sigmask(SIG_BLOCK, &signals, nullptr);

  const ServerOptions options = ServerOptionsFromFlags();
  absl::StatusOr<std::unique_ptr<Server>> server =
      Server::BuildAndStart(options);
  if (!server.ok()) {
    std::fprintf(stderr, "gridstar-server: %s\n",
                 std::string(server.status().message()).c_str());
    // Settings that cannot work are a usage error, as a bad flag is.
    return server.status().code() == absl::StatusCode::kInvalidArgument ? 2
                                                                         : 1;
  }
  // Logged before the port file appears: who waits for that file finds
  // the other ports (metrics, HTTP) in the log.
  std::fprintf(stderr, "gridstar-server: %s\n", (*server)->Describe().c_str());
  if (!absl::GetFlag(FLAGS_port_file).empty()) {
    const std::string tmp = absl::GetFlag(FLAGS_port_file) + ".tmp";
    std::ofstream(tmp) << (*server)->port() << "\n";
    std::rename(tmp.c_str(), absl::GetFlag(FLAGS_port_file).c_str());
  }

  // SIGHUP re-reads the token files (a bad file keeps the old keys).
  int signal = 0;
  while (sigwait(&signals, &signal) == 0 && signal == SIGHUP) {
    (void)(*server)->ReloadKeys();
  }
  const absl::Duration grace = ShutdownGraceFromFlags();
  std::fprintf(stderr, "gridstar-server: %s, draining (grace %s)\n",
               signal == SIGTERM ? "SIGTERM" : "SIGINT",
               absl::FormatDuration(grace).c_str());
  (*server)->Shutdown(grace);
  std::fprintf(stderr, "gridstar-server: stopped\n");
  return 0;
}

}  // namespace
}  // namespace gridstar::server

int main(int argc, char** argv) {
  gridstar::ProgramInfo info;
  info.name = "gridstar-server";
  info.usage =
      "gridstar-server [flags]: serves grid paths over gRPC "
      "(gridstar.v1.Pathfinding), and over HTTP/JSON with --http_port.\n"
      "Example: gridstar-server --data_dir /var/lib/gridstar --preload "
      "dungeon=data/sample/dungeon.map\n"
      "Without --data_dir or --store, maps live in memory only and are lost "
      "on exit.";
  info.groups = {
      {"Listening",
       {"host", "port", "port_file", "metrics_port", "http_port",
        "http_cors_origins", "http_console", "max_message_bytes"}},
      {"Maps kept and loaded",
       {"data_dir", "store", "store_password_file", "store_min_replicas",
        "store_replica_timeout", "store_connect_timeout", "preload",
        "preload_replace", "preload_landmarks"}},
      {"Security",
       {"tls_cert", "tls_key", "tls_client_ca", "admin_token_file",
        "query_token_file"}},
      {"Searching",
       {"workers", "search_nice", "update_thread_realtime", "queue_capacity",
        "max_search_time", "max_search_nodes", "inline_expansions",
        "inline_contexts", "context_release_bytes", "auto_measure_queries",
        "auto_measure_ms"}},
      {"Limits of one call", {"max_batch", "max_group", "max_stream_inflight"}},
      {"Limits of the maps held",
       {"max_map_side", "max_map_cells", "max_maps", "max_total_cells",
        "max_derived_bytes", "max_agent_maps", "flow_field_cache_bytes"}},
      {"Worlds of linked maps",
       {"max_worlds", "max_world_maps", "max_world_links",
        "max_map_link_ends"}},
      {"Watched agents (WatchPaths)",
       {"watch_max_agents", "watch_max_pending", "watch_dstar_bytes"}},
      {"Lifecycle", {"shutdown_grace", "show_config"}}};
  info.sources = {"server/main.cc", "server/runtime/server_flags.cc"};
  info.environment = true;
  gridstar::ParseProgramFlags(argc, argv, info);
  return gridstar::server::Run();
}
