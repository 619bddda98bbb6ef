// The flags of gridstar-server, and the ServerOptions they make
// (runtime/server.h). Defined here, not in main.cc, so that tests that start
// a server in-process take the same flags and defaults.
#include "runtime/server_flags.h"

#include <algorithm>
#include <cstdint>
#include <string>
#include <vector>

#include "absl/flags/flag.h"
#include "absl/time/time.h"

ABSL_FLAG(std::string, host, "0.0.0.0", "Address to listen on for gRPC");
ABSL_FLAG(int, port, 50051, "gRPC port; 0 picks a free one (see --port_file)");
ABSL_FLAG(int, metrics_port, 9464,
          "Port of the Prometheus /metrics endpoint; 0 turns it off");
ABSL_FLAG(int, http_port, 0,
          "Port of the HTTP/JSON API (POST /gridstar.v1.Pathfinding/<Method>, "
          "docs/http.md); 0 turns it off, -1 picks a free one (the start's "
          "log line names it). Same keys, limits and TLS as the gRPC port");
ABSL_FLAG(std::string, http_cors_origins, "",
          "Origins of browser pages that may call the HTTP/JSON port "
          "(comma separated, or * for any): CORS headers and preflights. "
          "Empty: none");
ABSL_FLAG(bool, http_console, false,
          "Serve the web console at /console on the HTTP/JSON port "
          "(docs/console.md): the maps, a map view, paths of two algorithms, "
          "watched agents and the service's figures; its map tiles and "
          "figures need a query key when keys are on. Needs --http_port");
ABSL_FLAG(int, workers, 0, "Search worker threads; 0 = hardware threads");
ABSL_FLAG(
    int64_t, inline_expansions, 128,
    "FindPath's fast path: a search whose ends are at most 256 cells apart "
    "is first tried on the gRPC thread with at most this many expansions, "
    "and goes to a worker only when that is not enough; 0 = every search "
    "goes to a worker");
ABSL_FLAG(int, inline_contexts, 0,
          "Search contexts of the fast path (inline searches at once); 0 = as "
          "many as --workers");
ABSL_FLAG(int, search_nice, 10,
          "Nice levels the search workers run below the rest of the server "
          "(0..19), so that map updates and the RPC threads never wait "
          "behind searches for a core: a one-cell update of an 8192 x 8192 "
          "world under search load on 2 cores took 34 ms at 0 and 3.8 ms at "
          "10 (docs/performance.md, Big worlds). Searches lose nothing when nothing else "
          "runs.");
ABSL_FLAG(bool, update_thread_realtime, true,
          "Run map and link updates (UpdateLinks, and UpdateCells of at most "
          "4096 cells) on a thread at real-time priority (SCHED_FIFO 1), so "
          "that under search load "
          "an update takes a core the moment it arrives and again the moment "
          "its write is durable: on 2 busy cores a one-cell update's p99 fell "
          "from 4.5-6.8 ms to 1.6-2.2 ms, most of it the disk's "
          "(docs/worlds.md). Needs CAP_SYS_NICE "
          "(root, or "
          "a container given it); without it the server says so at start and "
          "the thread runs at normal priority. false = normal priority");
ABSL_FLAG(std::string, data_dir, "",
          "Directory where maps persist (fsync'd before a change is "
          "acknowledged) and are reloaded at start; empty = memory only, "
          "everything is lost on exit");
ABSL_FLAG(std::string, store, "",
          "redis://[USER@]HOST[:PORT][/DB], or "
          "redis-sentinel://[USER@]HOST[:PORT][,HOST[:PORT]...]/MASTER[/DB] to "
          "find the master through Redis Sentinel and follow its failovers: "
          "keep maps in Redis instead (content and an ordered update stream "
          "per map; an update is acknowledged once Redis applied it, and with "
          "--store_min_replicas once replicas have it; maps are loaded from it "
          "at start). USER is an ACL user; the password comes from "
          "--store_password_file. Exclusive with --data_dir");
ABSL_FLAG(std::string, store_password_file, "",
          "File whose first line (not blank, not a '#' comment) is the "
          "password of --store's user; re-read on SIGHUP (used from the next "
          "connection). Never logged");
ABSL_FLAG(int32_t, store_min_replicas, 0,
          "With --store: acknowledge a write only once this many Redis "
          "replicas have it (WAIT); a write they do not confirm within "
          "--store_replica_timeout answers UNAVAILABLE (it is on the master and "
          "may still survive). 0 = once the master applied it");
ABSL_FLAG(absl::Duration, store_replica_timeout, absl::Seconds(5),
          "How long a write waits for --store_min_replicas");
ABSL_FLAG(absl::Duration, store_connect_timeout, absl::Seconds(120),
          "At start, how long to keep trying to reach --store (backoff from "
          "0.2 s to 5 s, each failure logged) before giving up. Wrong or "
          "missing credentials end the start at once");
ABSL_FLAG(int, queue_capacity, 4096,
          "Search tasks that may wait; beyond that RESOURCE_EXHAUSTED at once");
ABSL_FLAG(int, max_batch, 1024, "Most items of one FindPaths call");
ABSL_FLAG(int, max_group, 1024, "Most units of one FindGroupPaths call");
ABSL_FLAG(int, max_stream_inflight, 256,
          "Most unanswered requests of one FindPathsStream before reading pauses");
ABSL_FLAG(int, watch_max_agents, 100000,
          "Most agents one WatchPaths stream may watch (at least 1)");
ABSL_FLAG(int, watch_max_pending, 4096,
          "Most events a WatchPaths stream may leave unread before it is "
          "closed with RESOURCE_EXHAUSTED (at least 1)");
ABSL_FLAG(int64_t, watch_dstar_bytes, int64_t{256} << 20,
          "Memory the watched agents' D* Lite planners may hold together "
          "(incremental replans); 0 = fresh searches only");
ABSL_FLAG(int, max_map_side, 8192, "Largest map width or height");
ABSL_FLAG(int64_t, max_map_cells, int64_t{8192} * 8192, "Largest map, in cells");
ABSL_FLAG(int, max_maps, 1024, "Most maps held");
ABSL_FLAG(int64_t, max_total_cells, int64_t{1} << 30,
          "Most cells of all maps together");
ABSL_FLAG(int, max_message_bytes, 80 << 20,
          "Largest gRPC message received (a 8192 x 8192 raw map is 64 MiB)");
ABSL_FLAG(int64_t, flow_field_cache_bytes, int64_t{256} << 20,
          "Memory for cached flow fields (ComputeFlowField, FindGroupPaths), "
          "least recently used out first; 0 = no cache");
ABSL_FLAG(int32_t, max_agent_maps, 8,
          "Agent maps (one per class of agent queries asked for: areas, area "
          "costs, size) each map version keeps besides the sizes "
          "RegisterMapRequest.max_agent_size pins; the least recently used "
          "beyond are dropped and rebuilt on their next query");
ABSL_FLAG(int32_t, max_worlds, 256,
          "Most worlds of linked maps held (RegisterWorld)");
ABSL_FLAG(int32_t, max_world_maps, 64, "Most member maps of one world");
ABSL_FLAG(int32_t, max_world_links, 4096,
          "Most links of one world (stairs, portals, doors, ...)");
ABSL_FLAG(int32_t, max_map_link_ends, 1024,
          "Most link ends (distinct cells) on one map of a world: a world "
          "query joins every two ends of a map, and the map's table runs "
          "one Dijkstra from each");
ABSL_FLAG(int32_t, auto_measure_queries, 96,
          "What ALGORITHM_AUTO runs on a map is measured when it is "
          "registered or loaded: every exact engine that applies, timed on "
          "this many random queries of the map (MapInfo.auto_candidates); "
          "0 = no measurement, auto follows its fixed rule. At most 1000");
ABSL_FLAG(int32_t, auto_measure_ms, 500,
          "Wall-time bound of one map's auto measurement (the queries timed "
          "by then decide)");
ABSL_FLAG(int64_t, max_derived_bytes, int64_t{1} << 30,
          "Most bytes of jump table and landmarks one map may ask for "
          "(8 bytes a cell for the table, 8 per landmark); more is refused");
ABSL_FLAG(int64_t, max_search_nodes, 0,
          "Node records (16 bytes each) one search may create; a search that "
          "needs more answers RESOURCE_EXHAUSTED, or its partial path with "
          "allow_partial. 0 = no limit");
ABSL_FLAG(int64_t, context_release_bytes, int64_t{64} << 20,
          "A worker's search context hands its node pages back to the system "
          "once they hold more than this (checked after a search, every "
          "65,536 node records); 0 = never");
ABSL_FLAG(absl::Duration, max_search_time, absl::Seconds(30),
          "Time budget of a call without a deadline (and cap of any deadline)");
ABSL_FLAG(absl::Duration, shutdown_grace, absl::Seconds(10),
          "On SIGTERM/SIGINT, time in-flight calls get to finish");
ABSL_FLAG(
    std::vector<std::string>, preload, {},
    "Maps to register at start, as id=path pairs (Moving AI .map, PGM, PNG, "
    "or a Tiled .tmx/.tmj with its tilesets beside it), "
    "each with a jump table (kept on uniform-cost maps) and, on terrain, "
    "--preload_landmarks landmarks. With --data_dir or --store, a map "
    "the store already holds under that id is kept as stored (with "
    "every update made to it) and the file is not read; see "
    "--preload_replace");
ABSL_FLAG(bool, preload_replace, false,
          "Register every --preload file even over a stored map of the same "
          "id, as a new version of it: updates made since the map was "
          "stored are then replaced by the file's content (logged)");
ABSL_FLAG(std::string, tls_cert, "",
          "PEM certificate (chain) of the gRPC port; with --tls_key turns TLS "
          "on. Empty = plaintext. The metrics port stays plain HTTP");
ABSL_FLAG(std::string, tls_key, "", "PEM private key of --tls_cert");
ABSL_FLAG(std::string, tls_client_ca, "",
          "PEM CA certificates; if set, clients must present a certificate "
          "signed by one of them (mutual TLS)");
ABSL_FLAG(std::string, admin_token_file, "",
          "Tokens (one a line) that may call every RPC; re-read on SIGHUP. "
          "With no token file every call is admitted");
ABSL_FLAG(std::string, query_token_file, "",
          "Tokens (one a line) that may search and read maps but not "
          "register, update or delete them; re-read on SIGHUP");
ABSL_FLAG(bool, show_config, false,
          "Print the value of every flag above as the server would use it "
          "(command line, then FLAGS_<name> from the environment, then the "
          "default) and exit without starting");
ABSL_FLAG(int, preload_landmarks, 8,
          "Landmarks built for each --preload terrain map (0 to 32; 0 = none)");

namespace gridstar::server {

ServerOptions ServerOptionsFromFlags() {
  ServerOptions o;
  o.host = absl::GetFlag(FLAGS_host);
  o.port = absl::GetFlag(FLAGS_port);
  o.metrics_port = absl::GetFlag(FLAGS_metrics_port);
  o.http_port = absl::GetFlag(FLAGS_http_port);
  o.http_cors_origins = absl::GetFlag(FLAGS_http_cors_origins);
  o.http_console = absl::GetFlag(FLAGS_http_console);
  o.tls = {absl::GetFlag(FLAGS_tls_cert), absl::GetFlag(FLAGS_tls_key),
           absl::GetFlag(FLAGS_tls_client_ca)};
  o.admin_token_file = absl::GetFlag(FLAGS_admin_token_file);
  o.query_token_file = absl::GetFlag(FLAGS_query_token_file);
  o.store.data_dir = absl::GetFlag(FLAGS_data_dir);
  o.store.url = absl::GetFlag(FLAGS_store);
  o.store.password_file = absl::GetFlag(FLAGS_store_password_file);
  o.store.min_replicas = absl::GetFlag(FLAGS_store_min_replicas);
  o.store.replica_timeout = absl::GetFlag(FLAGS_store_replica_timeout);
  o.store.connect_timeout = absl::GetFlag(FLAGS_store_connect_timeout);
  o.preload = absl::GetFlag(FLAGS_preload);
  o.preload_replace = absl::GetFlag(FLAGS_preload_replace);
  o.preload_landmarks = absl::GetFlag(FLAGS_preload_landmarks);
  o.workers = absl::GetFlag(FLAGS_workers);
  o.search_nice = absl::GetFlag(FLAGS_search_nice);
  o.update_thread_realtime = absl::GetFlag(FLAGS_update_thread_realtime);
  o.queue_capacity = absl::GetFlag(FLAGS_queue_capacity);
  o.inline_expansions = absl::GetFlag(FLAGS_inline_expansions);
  o.inline_contexts = absl::GetFlag(FLAGS_inline_contexts);
  o.max_search_nodes = absl::GetFlag(FLAGS_max_search_nodes);
  o.context_release_bytes = absl::GetFlag(FLAGS_context_release_bytes);
  o.flow_field_cache_bytes = absl::GetFlag(FLAGS_flow_field_cache_bytes);
  o.map_limits.max_width = o.map_limits.max_height =
      absl::GetFlag(FLAGS_max_map_side);
  o.map_limits.max_cells = absl::GetFlag(FLAGS_max_map_cells);
  o.registry.max_maps = static_cast<size_t>(absl::GetFlag(FLAGS_max_maps));
  o.registry.max_total_cells = absl::GetFlag(FLAGS_max_total_cells);
  o.registry.max_agent_maps = static_cast<size_t>(
      std::max<int32_t>(0, absl::GetFlag(FLAGS_max_agent_maps)));
  o.registry.auto_measure_queries =
      std::clamp(absl::GetFlag(FLAGS_auto_measure_queries), 0, 1000);
  o.registry.auto_measure_micros =
      1000.0 * std::max(1, absl::GetFlag(FLAGS_auto_measure_ms));
  o.registry.max_derived_bytes = static_cast<size_t>(
      std::max<int64_t>(0, absl::GetFlag(FLAGS_max_derived_bytes)));
  o.worlds.max_worlds =
      static_cast<size_t>(std::max(0, absl::GetFlag(FLAGS_max_worlds)));
  o.worlds.max_world_maps =
      static_cast<size_t>(std::max(1, absl::GetFlag(FLAGS_max_world_maps)));
  o.worlds.max_world_links =
      static_cast<size_t>(std::max(0, absl::GetFlag(FLAGS_max_world_links)));
  o.worlds.max_map_link_ends =
      static_cast<size_t>(std::max(1, absl::GetFlag(FLAGS_max_map_link_ends)));
  o.service.max_batch = static_cast<size_t>(absl::GetFlag(FLAGS_max_batch));
  o.service.max_group = static_cast<size_t>(absl::GetFlag(FLAGS_max_group));
  o.service.max_stream_inflight =
      static_cast<size_t>(absl::GetFlag(FLAGS_max_stream_inflight));
  o.service.watch_max_agents = static_cast<size_t>(
      std::max(1, absl::GetFlag(FLAGS_watch_max_agents)));
  o.service.watch_max_pending = static_cast<size_t>(
      std::max(1, absl::GetFlag(FLAGS_watch_max_pending)));
  o.service.watch_dstar_bytes = static_cast<size_t>(
      std::max<int64_t>(0, absl::GetFlag(FLAGS_watch_dstar_bytes)));
  o.service.max_search_time = absl::GetFlag(FLAGS_max_search_time);
  o.service.max_message_bytes =
      static_cast<size_t>(absl::GetFlag(FLAGS_max_message_bytes));
  return o;
}

absl::Duration ShutdownGraceFromFlags() {
  return absl::GetFlag(FLAGS_shutdown_grace);
}

}  // namespace gridstar::server
