// gridstar-server: the gridstar.v1.Pathfinding gRPC service.
#include <signal.h>
#include <sys/resource.h>

#include <algorithm>
#include <cstdio>
#include <fstream>
#include <functional>
#include <memory>
#include <string>
#include <thread>
#include <vector>

#include "absl/flags/flag.h"
#include "absl/strings/numbers.h"
#include "absl/strings/str_cat.h"
#include "absl/strings/str_split.h"
#include "absl/synchronization/mutex.h"
#include "absl/time/clock.h"
#include "auth/access_control.h"
#include "auth/tls.h"
#include "gridstar/engines/alt.h"
#include "gridstar/engines/jps.h"
#include "gridstar/map_io.h"
#include "grpcpp/ext/proto_server_reflection_plugin.h"
#include "grpcpp/grpcpp.h"
#include "grpcpp/health_check_service_interface.h"
#include "map_registry.h"
#include "metrics.h"
#include "program_flags.h"
#include "prometheus/exposer.h"
#include "scheduler.h"
#include "service.h"
#include "store/redis_connection.h"
#include "store_follower.h"
#include "store_setup.h"

ABSL_FLAG(std::string, host, "0.0.0.0", "Address to listen on for gRPC");
ABSL_FLAG(int, port, 50051, "gRPC port; 0 picks a free one (see --port_file)");
ABSL_FLAG(int, metrics_port, 9464,
          "Port of the Prometheus /metrics endpoint; 0 turns it off");
ABSL_FLAG(std::string, port_file, "",
          "If set, the chosen gRPC port is written here once serving");
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
ABSL_FLAG(std::vector<std::string>, preload, {},
          "Maps to register at start, as id=path pairs (Moving AI .map or PGM), "
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
namespace {

bool IsLoopback(const std::string& host) {
  return host == "localhost" || host == "::1" || host == "[::1]" ||
         host.rfind("127.", 0) == 0;
}

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

  absl::StatusOr<std::shared_ptr<grpc::ServerCredentials>> credentials =
      ServerCredentialsOf({absl::GetFlag(FLAGS_tls_cert), absl::GetFlag(FLAGS_tls_key),
                           absl::GetFlag(FLAGS_tls_client_ca)});
  if (!credentials.ok()) {
    std::fprintf(stderr, "gridstar-server: %s\n",
                 std::string(credentials.status().message()).c_str());
    return 2;
  }
  absl::StatusOr<std::unique_ptr<AccessControl>> access = AccessControl::Create(
      absl::GetFlag(FLAGS_admin_token_file), absl::GetFlag(FLAGS_query_token_file));
  if (!access.ok()) {
    std::fprintf(stderr, "gridstar-server: %s\n",
                 std::string(access.status().message()).c_str());
    return 2;
  }
  if ((*access)->enabled()) {
    std::fprintf(stderr, "gridstar-server: keys: %zu admin, %zu query tokens\n",
                 (*access)->admin_tokens(), (*access)->query_tokens());
  } else if (!IsLoopback(absl::GetFlag(FLAGS_host))) {
    std::fprintf(stderr,
                 "gridstar-server: warning: no --admin_token_file or "
                 "--query_token_file: anyone who reaches %s may register, "
                 "change and delete every map\n",
                 absl::GetFlag(FLAGS_host).c_str());
  }

  MapLimits limits;
  limits.max_width = limits.max_height = absl::GetFlag(FLAGS_max_map_side);
  limits.max_cells = absl::GetFlag(FLAGS_max_map_cells);
  MapRegistry::Limits registry_limits;
  registry_limits.max_maps = static_cast<size_t>(absl::GetFlag(FLAGS_max_maps));
  registry_limits.max_total_cells = absl::GetFlag(FLAGS_max_total_cells);
  registry_limits.max_agent_maps = static_cast<size_t>(
      std::max<int32_t>(0, absl::GetFlag(FLAGS_max_agent_maps)));
  registry_limits.auto_measure_queries =
      std::clamp(absl::GetFlag(FLAGS_auto_measure_queries), 0, 1000);
  registry_limits.auto_measure_micros =
      1000.0 * std::max(1, absl::GetFlag(FLAGS_auto_measure_ms));
  registry_limits.max_derived_bytes = static_cast<size_t>(
      std::max<int64_t>(0, absl::GetFlag(FLAGS_max_derived_bytes)));
  const std::string store_url = absl::GetFlag(FLAGS_store);
  StoreSettings store_settings;
  store_settings.data_dir = absl::GetFlag(FLAGS_data_dir);
  store_settings.url = store_url;
  store_settings.password_file = absl::GetFlag(FLAGS_store_password_file);
  store_settings.min_replicas = absl::GetFlag(FLAGS_store_min_replicas);
  store_settings.replica_timeout = absl::GetFlag(FLAGS_store_replica_timeout);
  store_settings.connect_timeout = absl::GetFlag(FLAGS_store_connect_timeout);
  std::unique_ptr<MapStore> store;
  std::shared_ptr<RedisCredentials> store_credentials;
  if (const int code = OpenStore(store_settings, &store, &store_credentials); code != 0) {
    return code;
  }
  // Made before the load, so that no write after it is missed; a second
  // one loads maps on first use.
  std::unique_ptr<MapStoreFollower> follower, loader;
  if (store != nullptr) {
    for (auto* f : {&follower, &loader}) {
      absl::StatusOr<std::unique_ptr<MapStoreFollower>> made =
          store->NewFollower();
      if (!made.ok()) {
        std::fprintf(stderr, "gridstar-server: --store: %s\n",
                     std::string(made.status().message()).c_str());
        return 1;
      }
      *f = *std::move(made);
    }
  }
  MapRegistry registry(std::move(store), registry_limits);
  // Set once the service exists; loads before that (none: no call is
  // served yet) are not counted.
  std::function<void(const std::string&, const MapRegistry::Followed&)>
      on_store_change;
  if (loader != nullptr) {
    registry.SetStoreLoader(
        std::move(loader),
        [&on_store_change](const std::string& id,
                           const MapRegistry::Followed& what) {
          if (on_store_change) on_store_change(id, what);
        });
  }
  std::vector<std::string> errors;
  if (absl::Status s = registry.LoadAll(&errors); !s.ok()) {
    std::fprintf(stderr, "gridstar-server: %s\n", s.ToString().c_str());
    return 1;
  }
  for (const std::string& e : errors) {
    std::fprintf(stderr, "gridstar-server: skipped corrupt map: %s\n", e.c_str());
  }
  if (!absl::GetFlag(FLAGS_data_dir).empty() || !store_url.empty()) {
    std::fprintf(stderr, "gridstar-server: loaded %zu maps from %s\n",
                 registry.map_count(),
                 store_url.empty() ? absl::GetFlag(FLAGS_data_dir).c_str()
                                   : store_url.c_str());
  }
  const bool has_store =
      !absl::GetFlag(FLAGS_data_dir).empty() || !store_url.empty();
  for (const std::string& spec : absl::GetFlag(FLAGS_preload)) {
    std::vector<std::string> parts = absl::StrSplit(spec, absl::MaxSplits('=', 1));
    if (parts.size() != 2) {
      std::fprintf(stderr, "gridstar-server: --preload %s: want id=path\n",
                   spec.c_str());
      return 2;
    }
    if (absl::Status s = ValidateMapId(parts[0], "--preload"); !s.ok()) {
      std::fprintf(stderr, "gridstar-server: --preload %s: %s\n", spec.c_str(),
                   std::string(s.message()).c_str());
      return 2;
    }
    // A stored map wins over the file: the file is where a map starts, the
    // store is where it lives on, updates included.
    if (has_store) {
      absl::StatusOr<std::shared_ptr<const MapSnapshot>> stored =
          registry.FindOrLoad(parts[0]);
      if (!stored.ok()) {
        std::fprintf(stderr, "gridstar-server: --preload %s: cannot ask the store: %s\n",
                     spec.c_str(), stored.status().ToString().c_str());
        return 1;
      }
      if (*stored != nullptr && !absl::GetFlag(FLAGS_preload_replace)) {
        std::fprintf(stderr,
                     "gridstar-server: --preload %s: skipped, the store holds map "
                     "'%s' at version %llu (updates kept); --preload_replace "
                     "would register the file over it\n",
                     spec.c_str(), parts[0].c_str(),
                     static_cast<unsigned long long>((*stored)->version));
        continue;
      }
      if (*stored != nullptr) {
        std::fprintf(stderr,
                     "gridstar-server: --preload %s: --preload_replace: the file "
                     "replaces stored map '%s' at version %llu\n",
                     spec.c_str(), parts[0].c_str(),
                     static_cast<unsigned long long>((*stored)->version));
      }
    }
    // Moving AI text keeps its terrain as areas (water and trees blocked
    // under the default areas, as RegisterMap does).
    absl::StatusOr<std::string> text = ReadFile(parts[1]);
    absl::StatusOr<MapWithAreas> read =
        text.ok() ? ParseMapAutoWithAreas(*text, limits)
                  : absl::StatusOr<MapWithAreas>(text.status());
    absl::Status s = read.status();
    if (read.ok()) {
      GridMap* map = &read->map;
      MapOptions options;
      options.default_areas = read->default_areas;
      options.structures[std::string(kJumpTableName)] = 1;
      // Landmarks serve terrain; on uniform maps auto runs jump point search.
      if (const int landmarks = std::clamp(
              absl::GetFlag(FLAGS_preload_landmarks), 0, kMaxLandmarks);
          !map->uniform_cost() && landmarks > 0) {
        options.structures[std::string(kLandmarksName)] = landmarks;
      }
      s = registry
              .Register(parts[0], std::move(read->map), options, true,
                        std::move(read->areas))
              .status();
    }
    if (!s.ok()) {
      std::fprintf(stderr, "gridstar-server: --preload %s: %s\n", spec.c_str(),
                   s.ToString().c_str());
      return 2;
    }
  }

  int workers = absl::GetFlag(FLAGS_workers);
  if (workers <= 0) workers = static_cast<int>(std::thread::hardware_concurrency());
  if (workers <= 0) workers = 1;
  SearchContextOptions context_options;
  context_options.max_cells = (limits.max_width + 2) * (limits.max_height + 2);
  context_options.max_search_nodes =
      static_cast<uint64_t>(std::max<int64_t>(0, absl::GetFlag(FLAGS_max_search_nodes)));
  context_options.release_bytes = static_cast<size_t>(
      std::max<int64_t>(0, absl::GetFlag(FLAGS_context_release_bytes)));
  const int search_nice = absl::GetFlag(FLAGS_search_nice);
  if (search_nice < 0 || search_nice > 19) {
    std::fprintf(stderr, "gridstar-server: --search_nice: %d is out of range [0, 19]\n",
                 search_nice);
    return 2;
  }
  Scheduler search(workers, static_cast<size_t>(absl::GetFlag(FLAGS_queue_capacity)),
                   context_options, search_nice);
  SearchContextOptions admin_options;
  admin_options.max_cells = 1;
  Scheduler admin(1, 256, admin_options);
  Metrics metrics;
  metrics.SetQueueCapacity(static_cast<double>(search.capacity()));
  std::unique_ptr<prometheus::Exposer> exposer;
  if (absl::GetFlag(FLAGS_metrics_port) != 0) {
    exposer = std::make_unique<prometheus::Exposer>(
        absl::StrCat(absl::GetFlag(FLAGS_host), ":", absl::GetFlag(FLAGS_metrics_port)));
    exposer->RegisterCollectable(metrics.registry());
  }

  ServiceOptions options;
  options.max_batch = static_cast<size_t>(absl::GetFlag(FLAGS_max_batch));
  options.max_group = static_cast<size_t>(absl::GetFlag(FLAGS_max_group));
  options.max_stream_inflight =
      static_cast<size_t>(absl::GetFlag(FLAGS_max_stream_inflight));
  options.watch_max_agents = static_cast<size_t>(
      std::max(1, absl::GetFlag(FLAGS_watch_max_agents)));
  options.watch_max_pending = static_cast<size_t>(
      std::max(1, absl::GetFlag(FLAGS_watch_max_pending)));
  options.watch_dstar_bytes = static_cast<size_t>(
      std::max<int64_t>(0, absl::GetFlag(FLAGS_watch_dstar_bytes)));
  options.map_limits = limits;
  options.max_search_time = absl::GetFlag(FLAGS_max_search_time);
  options.max_message_bytes =
      static_cast<size_t>(absl::GetFlag(FLAGS_max_message_bytes));
  options.access = access->get();
  if (absl::GetFlag(FLAGS_inline_expansions) < 0 ||
      absl::GetFlag(FLAGS_inline_contexts) < 0) {
    std::fprintf(
        stderr,
        "gridstar-server: --inline_expansions and --inline_contexts must "
        "not be negative\n");
    return 2;
  }
  InlineOptions inline_options;
  inline_options.max_expansions =
      static_cast<uint64_t>(absl::GetFlag(FLAGS_inline_expansions));
  inline_options.contexts = inline_options.max_expansions == 0 ? 0
                            : absl::GetFlag(FLAGS_inline_contexts) > 0
                                ? absl::GetFlag(FLAGS_inline_contexts)
                                : workers;
  inline_options.context_options = context_options;
  InlineSearches inline_searches(inline_options);
  if (inline_options.contexts > 0) options.inline_searches = &inline_searches;
  Finisher finisher;
  options.finisher = &finisher;
  FlowFieldCache flow_fields(static_cast<size_t>(
      std::max<int64_t>(0, absl::GetFlag(FLAGS_flow_field_cache_bytes))));
  PathfindingService service(&registry, &search, &admin, &metrics, &flow_fields,
                             options);
  // With a shared store, the maps follow what other replicas write.
  std::unique_ptr<StoreFollower> store_follower;
  if (follower != nullptr) {
    on_store_change = [&service, &metrics](const std::string& id,
                                           const MapRegistry::Followed& what) {
      service.MapChangedElsewhere(id);
      metrics.StoreFollowed(what);
    };
    store_follower = std::make_unique<StoreFollower>(
        &registry, std::move(follower), on_store_change,
        [&metrics] { metrics.StoreError("follow"); },
        [&metrics](const std::vector<std::pair<std::string, uint64_t>>& lags) {
          metrics.SetStoreLags(lags);
        });
  }

  grpc::EnableDefaultHealthCheckService(true);
  grpc::reflection::InitProtoReflectionServerBuilderPlugin();
  grpc::ServerBuilder builder;
  int port = 0;
  builder.AddListeningPort(
      absl::StrCat(absl::GetFlag(FLAGS_host), ":", absl::GetFlag(FLAGS_port)),
      *credentials, &port);
  // gRPC sets SO_REUSEPORT by default: a second server on a port in use
  // would then start and share it. Refuse a port another process holds.
  builder.AddChannelArgument(GRPC_ARG_ALLOW_REUSEPORT, 0);
  builder.SetMaxReceiveMessageSize(absl::GetFlag(FLAGS_max_message_bytes));
  builder.SetMaxSendMessageSize(absl::GetFlag(FLAGS_max_message_bytes));
  builder.RegisterService(&service);
  std::unique_ptr<grpc::Server> server = builder.BuildAndStart();
  if (server == nullptr || port == 0) {
    std::fprintf(stderr,
                 "gridstar-server: cannot listen on %s:%d (is another process "
                 "using the port? are the TLS files a valid pair?)\n",
                 absl::GetFlag(FLAGS_host).c_str(), absl::GetFlag(FLAGS_port));
    return 1;
  }
  server->GetHealthCheckService()->SetServingStatus(true);
  if (!absl::GetFlag(FLAGS_port_file).empty()) {
    const std::string tmp = absl::GetFlag(FLAGS_port_file) + ".tmp";
    std::ofstream(tmp) << port << "\n";
    std::rename(tmp.c_str(), absl::GetFlag(FLAGS_port_file).c_str());
  }
  std::fprintf(stderr,
               "gridstar-server: serving on %s:%d (%s) with %d workers, %zu maps, "
               "metrics %s\n",
               absl::GetFlag(FLAGS_host).c_str(), port,
               absl::GetFlag(FLAGS_tls_cert).empty()          ? "plaintext"
               : absl::GetFlag(FLAGS_tls_client_ca).empty() ? "TLS"
                                                              : "mutual TLS",
               workers,
               registry.map_count(),
               exposer ? absl::StrCat("on :", absl::GetFlag(FLAGS_metrics_port),
                                      "/metrics").c_str()
                       : "off");

  // Gauges are sampled twice a second.
  std::atomic<bool> stopping{false};
  std::thread sampler([&] {
    while (!stopping.load()) {
      metrics.SetState(static_cast<double>(registry.map_count()),
                       static_cast<double>(registry.total_cells()),
                       static_cast<double>(registry.memory_bytes()),
                       static_cast<double>(search.depth()),
                       search.busy_workers(),
                       static_cast<double>(search.context_memory_bytes() +
                                           inline_searches.memory_bytes()),
                       static_cast<double>(flow_fields.bytes()));
      absl::SleepFor(absl::Milliseconds(500));
    }
  });

  // SIGHUP re-reads the token files (a bad file keeps the old keys).
  int signal = 0;
  while (sigwait(&signals, &signal) == 0 && signal == SIGHUP) {
    if (store_credentials != nullptr) {
      if (absl::Status c = store_credentials->Reload(); !c.ok()) {
        std::fprintf(stderr, "gridstar-server: SIGHUP: store password kept: %s\n",
                     std::string(c.message()).c_str());
      } else if (store_credentials->has_password()) {
        std::fprintf(stderr,
                     "gridstar-server: SIGHUP: store password re-read (used from the "
                     "next connection)\n");
      }
    }
    const absl::Status s = (*access)->Reload();
    metrics.KeyReload(s.ok());
    if (!s.ok()) {
      std::fprintf(stderr, "gridstar-server: SIGHUP: keys kept: %s\n",
                   std::string(s.message()).c_str());
    } else if ((*access)->enabled()) {
      std::fprintf(stderr, "gridstar-server: SIGHUP: keys: %zu admin, %zu query tokens\n",
                   (*access)->admin_tokens(), (*access)->query_tokens());
    }
  }
  std::fprintf(stderr, "gridstar-server: %s, draining (grace %s)\n",
               signal == SIGTERM ? "SIGTERM" : "SIGINT",
               absl::FormatDuration(absl::GetFlag(FLAGS_shutdown_grace)).c_str());
  server->GetHealthCheckService()->SetServingStatus(false);
  // Stops accepting calls; calls still running after the grace are cancelled
  // (their searches see the flag and stop).
  server->Shutdown(absl::ToChronoTime(absl::Now() + absl::GetFlag(FLAGS_shutdown_grace)));
  store_follower.reset();
  search.Shutdown();
  admin.Shutdown();
  finisher.Shutdown();  // After the workers: their last batches end here.
  stopping.store(true);
  sampler.join();
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
      "(gridstar.v1.Pathfinding).\n"
      "Example: gridstar-server --data_dir /var/lib/gridstar --preload "
      "dungeon=data/sample/dungeon.map\n"
      "Without --data_dir or --store, maps live in memory only and are lost "
      "on exit.";
  info.groups = {
      {"Listening", {"host", "port", "port_file", "metrics_port", "max_message_bytes"}},
      {"Maps kept and loaded",
       {"data_dir", "store", "store_password_file", "store_min_replicas",
        "store_replica_timeout", "store_connect_timeout", "preload", "preload_replace",
        "preload_landmarks"}},
      {"Security", {"tls_cert", "tls_key", "tls_client_ca", "admin_token_file",
                    "query_token_file"}},
      {"Searching",
       {"workers", "search_nice", "queue_capacity", "max_search_time",
        "max_search_nodes", "inline_expansions", "inline_contexts",
        "context_release_bytes", "auto_measure_queries", "auto_measure_ms"}},
      {"Limits of one call", {"max_batch", "max_group", "max_stream_inflight"}},
      {"Limits of the maps held",
       {"max_map_side", "max_map_cells", "max_maps", "max_total_cells",
        "max_derived_bytes", "max_agent_maps", "flow_field_cache_bytes"}},
      {"Watched agents (WatchPaths)",
       {"watch_max_agents", "watch_max_pending", "watch_dstar_bytes"}},
      {"Lifecycle", {"shutdown_grace", "show_config"}}};
  info.sources = {"server/main.cc"};
  info.environment = true;
  gridstar::ParseProgramFlags(argc, argv, info);
  return gridstar::server::Run();
}
