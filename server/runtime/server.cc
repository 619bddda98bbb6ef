#include "runtime/server.h"

#include <netdb.h>
#include <sys/socket.h>
#include <unistd.h>

#include <algorithm>
#include <atomic>
#include <cstdio>
#include <functional>
#include <mutex>
#include <string>
#include <thread>
#include <utility>
#include <vector>

#include "absl/strings/str_cat.h"
#include "absl/strings/str_split.h"
#include "absl/synchronization/notification.h"
#include "absl/time/clock.h"
#include "auth/access_control.h"
#include "gridstar/engines/alt.h"
#include "gridstar/engines/jps.h"
#include "gridstar/map_import.h"
#include "gridstar/map_io.h"
#include "grpcpp/ext/proto_server_reflection_plugin.h"
#include "grpcpp/grpcpp.h"
#include "grpcpp/health_check_service_interface.h"
#include "http/http_gateway.h"
#include "maps/flow_field_cache.h"
#include "maps/store_follower.h"
#include "prometheus/exposer.h"
#include "rpc/finisher.h"
#include "rpc/inline_searches.h"
#include "runtime/metrics.h"
#include "runtime/scheduler.h"
#include "store/redis_connection.h"
#include "store/timed_store.h"

namespace gridstar::server {
namespace {

// The update thread's SCHED_FIFO priority: the lowest, enough to go ahead of
// every ordinary thread (and behind the kernel's own real-time threads).
constexpr int kUpdateRealtimePriority = 1;

// A failure of what the settings name (not of the settings themselves):
// never InvalidArgument, which main turns into the exit code of bad flags.
absl::Status NotSettings(const absl::Status& s, absl::string_view what = "") {
  return absl::Status(s.code() == absl::StatusCode::kInvalidArgument
                          ? absl::StatusCode::kFailedPrecondition
                          : s.code(),
                      absl::StrCat(what, s.message()));
}

// Runs `stop`, which stops a civetweb server listening on host:port (the
// metrics endpoint, the HTTP/JSON port). civetweb 1.15 (Debian's) stops
// when its master thread's poll wakes, which without traffic takes up to
// 2 s (civetweb issue #1163, fixed in 1.16): connecting to the port while it
// stops wakes it at once.
void StopCivetweb(const std::function<void()>& stop, const std::string& host,
                  int port) {
  std::atomic<bool> stopped{false};
  std::thread stopper([&] {
    stop();
    stopped.store(true);
  });
  std::string address = host;
  if (address.empty() || address == "0.0.0.0") address = "127.0.0.1";
  if (address == "::" || address == "[::]") address = "::1";
  if (address.size() > 2 && address.front() == '[') {
    address = address.substr(1, address.size() - 2);
  }
  addrinfo hints{};
  hints.ai_socktype = SOCK_STREAM;
  addrinfo* found = nullptr;
  if (getaddrinfo(address.c_str(), std::to_string(port).c_str(), &hints,
                  &found) != 0) {
    found = nullptr;
  }
  while (!stopped.load()) {
    if (found != nullptr) {
      const int fd = socket(found->ai_family, SOCK_STREAM, 0);
      if (fd >= 0) {
        (void)connect(fd, found->ai_addr, found->ai_addrlen);
        close(fd);
      }
    }
    absl::SleepFor(absl::Milliseconds(5));
  }
  if (found != nullptr) freeaddrinfo(found);
  stopper.join();
}

bool IsLoopback(const std::string& host) {
  return host == "localhost" || host == "::1" || host == "[::1]" ||
         host.rfind("127.", 0) == 0;
}

// Registers the --preload files (a stored map of the same id wins unless
// preload_replace).
absl::Status Preload(const ServerOptions& o, bool has_store,
                     MapRegistry& registry) {
  for (const std::string& spec : o.preload) {
    std::vector<std::string> parts =
        absl::StrSplit(spec, absl::MaxSplits('=', 1));
    if (parts.size() != 2) {
      return absl::InvalidArgumentError(
          absl::StrCat("--preload ", spec, ": want id=path"));
    }
    if (absl::Status s = ValidateMapId(parts[0], "--preload"); !s.ok()) {
      return absl::InvalidArgumentError(
          absl::StrCat("--preload ", spec, ": ", s.message()));
    }
    // A stored map wins over the file: the file is where a map starts, the
    // store is where it lives on, updates included.
    if (has_store) {
      absl::StatusOr<std::shared_ptr<const MapSnapshot>> stored =
          registry.FindOrLoad(parts[0]);
      if (!stored.ok()) {
        return absl::UnavailableError(
            absl::StrCat("--preload ", spec, ": cannot ask the store: ",
                         stored.status().ToString()));
      }
      if (*stored != nullptr && !o.preload_replace) {
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
    // Any format by its extension (.png, Tiled .tmx/.tmj, else Moving AI
    // text or PGM by content). Moving AI text keeps its terrain as areas
    // (water and trees blocked under the default areas, as RegisterMap
    // does).
    absl::StatusOr<MapWithAreas> read =
        ReadMapFileOfAnyFormat(parts[1], o.map_limits);
    absl::Status s = read.status();
    if (read.ok()) {
      const bool uniform = read->map.uniform_cost();
      MapOptions options;
      options.default_areas = read->default_areas;
      options.Set(kJumpTableName, 1);
      // Landmarks serve terrain; on uniform maps auto runs jump point search.
      if (!uniform) {
        options.Set(kLandmarksName,
                    std::clamp(o.preload_landmarks, 0, kMaxLandmarks));
      }
      s = registry
              .Register(parts[0], std::move(read->map), options, true,
                        std::move(read->areas))
              .status();
    }
    if (!s.ok()) {
      return absl::InvalidArgumentError(
          absl::StrCat("--preload ", spec, ": ", s.ToString()));
    }
  }
  return absl::OkStatus();
}

}  // namespace

struct Server::Parts {
  ServerOptions options;
  std::unique_ptr<AccessControl> access;
  std::shared_ptr<RedisCredentials> store_credentials;
  std::unique_ptr<MapStoreFollower> follower;
  // Set once the service exists; loads before that (none: no call is
  // served yet) are not counted.
  std::function<void(const std::string&, const MapRegistry::Followed&)>
      on_store_change;
  std::unique_ptr<MapRegistry> registry;
  std::unique_ptr<WorldRegistry> worlds;
  std::unique_ptr<Scheduler> search;
  std::unique_ptr<Scheduler> admin;
  // UpdateCells and UpdateLinks (ServerOptions::update_thread_realtime).
  std::unique_ptr<Scheduler> updates;
  Metrics metrics;
  std::unique_ptr<prometheus::Exposer> exposer;
  std::unique_ptr<InlineSearches> inline_searches;
  Finisher finisher;
  std::unique_ptr<FlowFieldCache> flow_fields;
  std::unique_ptr<PathfindingService> service;
  std::unique_ptr<StoreFollower> store_follower;
  std::unique_ptr<grpc::Server> server;
  std::unique_ptr<HttpGateway> http;
  int port = 0;
  int metrics_port = 0;
  int workers = 1;
  absl::Notification stopping;
  std::thread sampler;
  std::once_flag shut_down;
};

absl::StatusOr<std::unique_ptr<Server>> Server::BuildAndStart(
    ServerOptions options) {
  auto p = std::make_unique<Parts>();
  p->options = std::move(options);
  const ServerOptions& o = p->options;
  if (o.search_nice < 0 || o.search_nice > 19) {
    return absl::InvalidArgumentError(absl::StrCat(
        "--search_nice: ", o.search_nice, " is out of range [0, 19]"));
  }
  if (o.http_console && o.http_port == 0) {
    return absl::InvalidArgumentError(
        "--http_console: needs --http_port (the console is served there)");
  }
  if (o.inline_expansions < 0 || o.inline_contexts < 0) {
    return absl::InvalidArgumentError(
        "--inline_expansions and --inline_contexts must not be negative");
  }
  absl::StatusOr<std::shared_ptr<grpc::ServerCredentials>> credentials =
      ServerCredentialsOf(o.tls);
  if (!credentials.ok()) {
    return absl::InvalidArgumentError(credentials.status().message());
  }
  absl::StatusOr<std::unique_ptr<AccessControl>> access =
      AccessControl::Create(o.admin_token_file, o.query_token_file);
  if (!access.ok()) return absl::InvalidArgumentError(access.status().message());
  p->access = *std::move(access);
  if (p->access->enabled()) {
    std::fprintf(stderr, "gridstar-server: keys: %zu admin, %zu query tokens\n",
                 p->access->admin_tokens(), p->access->query_tokens());
  } else if (!IsLoopback(o.host)) {
    std::fprintf(stderr,
                 "gridstar-server: warning: no --admin_token_file or "
                 "--query_token_file: anyone who reaches %s may register, "
                 "change and delete every map\n",
                 o.host.c_str());
  }

  std::unique_ptr<MapStore> store;
  if (absl::Status s = OpenStore(o.store, &store, &p->store_credentials);
      !s.ok()) {
    return s;
  }
  // Made before the load, so that no write after it is missed; a second
  // one loads maps on first use.
  std::unique_ptr<MapStoreFollower> loader;
  if (store != nullptr) {
    for (auto* f : {&p->follower, &loader}) {
      absl::StatusOr<std::unique_ptr<MapStoreFollower>> made =
          store->NewFollower();
      if (!made.ok()) {
        return NotSettings(made.status(), "--store: ");
      }
      *f = *std::move(made);
    }
  }
  if (store != nullptr) {
    // Every write timed (gridstar_store_write_seconds): a slow disk told
    // apart from a slow server.
    Metrics* metrics = &p->metrics;
    store = std::make_unique<TimedStore>(
        std::move(store), [metrics](StoreWrite write, double seconds) {
          metrics->StoreWriteTime(write, seconds);
        });
  }
  p->registry = std::make_unique<MapRegistry>(std::move(store), o.registry);
  MapRegistry& registry = *p->registry;
  if (loader != nullptr) {
    Parts* parts = p.get();
    registry.SetStoreLoader(std::move(loader),
                            [parts](const std::string& id,
                                    const MapRegistry::Followed& what) {
                              if (parts->on_store_change) {
                                parts->on_store_change(id, what);
                              }
                            });
  }
  std::vector<std::string> errors;
  if (absl::Status s = registry.LoadAll(&errors); !s.ok()) {
    return NotSettings(s);
  }
  for (const std::string& e : errors) {
    std::fprintf(stderr, "gridstar-server: skipped corrupt map: %s\n",
                 e.c_str());
  }
  const bool has_store = !o.store.data_dir.empty() || !o.store.url.empty();
  if (has_store) {
    std::fprintf(stderr, "gridstar-server: loaded %zu maps from %s\n",
                 registry.map_count(),
                 o.store.url.empty() ? o.store.data_dir.c_str()
                                     : o.store.url.c_str());
  }
  if (absl::Status s = Preload(o, has_store, registry); !s.ok()) return s;
  p->worlds =
      std::make_unique<WorldRegistry>(&registry, registry.store(), o.worlds);
  errors.clear();
  if (absl::Status s = p->worlds->LoadAll(&errors); !s.ok()) {
    return NotSettings(s);
  }
  for (const std::string& e : errors) {
    std::fprintf(stderr, "gridstar-server: skipped corrupt world: %s\n",
                 e.c_str());
  }

  int workers = o.workers;
  if (workers <= 0) workers = static_cast<int>(std::thread::hardware_concurrency());
  p->workers = std::max(1, workers);
  SearchContextOptions context_options;
  context_options.max_cells =
      (o.map_limits.max_width + 2) * (o.map_limits.max_height + 2);
  context_options.max_search_nodes =
      static_cast<uint64_t>(std::max<int64_t>(0, o.max_search_nodes));
  context_options.release_bytes =
      static_cast<size_t>(std::max<int64_t>(0, o.context_release_bytes));
  p->search = std::make_unique<Scheduler>(
      p->workers, static_cast<size_t>(std::max(0, o.queue_capacity)),
      context_options, o.search_nice);
  SearchContextOptions admin_options;
  admin_options.max_cells = 1;
  p->admin = std::make_unique<Scheduler>(1, 256, admin_options);
  p->updates = std::make_unique<Scheduler>(
      1, 256, admin_options, 0,
      o.update_thread_realtime ? kUpdateRealtimePriority : 0);
  if (o.update_thread_realtime && p->updates->realtime_workers() == 0) {
    std::fprintf(stderr,
                 "gridstar-server: warning: --update_thread_realtime: "
                 "real-time priority refused (it needs CAP_SYS_NICE); map "
                 "and link updates run at normal priority\n");
  }
  p->metrics.SetUpdateThreadRealtime(p->updates->realtime_workers() > 0);
  p->metrics.SetQueueCapacity(static_cast<double>(p->search->capacity()));
  if (o.metrics_port != 0) {
    p->exposer = std::make_unique<prometheus::Exposer>(absl::StrCat(
        o.host, ":", o.metrics_port < 0 ? 0 : o.metrics_port));
    p->exposer->RegisterCollectable(p->metrics.registry());
    const std::vector<int> ports = p->exposer->GetListeningPorts();
    p->metrics_port = ports.empty() ? o.metrics_port : ports[0];
  }

  ServiceOptions service_options = o.service;
  service_options.map_limits = o.map_limits;
  service_options.access = p->access.get();
  InlineOptions inline_options;
  inline_options.max_expansions = static_cast<uint64_t>(o.inline_expansions);
  inline_options.contexts = inline_options.max_expansions == 0 ? 0
                            : o.inline_contexts > 0        ? o.inline_contexts
                                                           : p->workers;
  inline_options.context_options = context_options;
  p->inline_searches = std::make_unique<InlineSearches>(inline_options);
  service_options.inline_searches =
      inline_options.contexts > 0 ? p->inline_searches.get() : nullptr;
  service_options.finisher = &p->finisher;
  service_options.worlds = p->worlds.get();
  p->flow_fields = std::make_unique<FlowFieldCache>(
      static_cast<size_t>(std::max<int64_t>(0, o.flow_field_cache_bytes)));
  p->service = std::make_unique<PathfindingService>(
      &registry, p->search.get(), p->admin.get(), p->updates.get(), &p->metrics,
      p->flow_fields.get(), service_options);
  // With a shared store, the maps follow what other replicas write.
  if (p->follower != nullptr) {
    PathfindingService* service = p->service.get();
    Metrics* metrics = &p->metrics;
    p->on_store_change = [service, metrics](const std::string& id,
                                            const MapRegistry::Followed& what) {
      service->MapChangedElsewhere(id);
      metrics->StoreFollowed(what);
    };
    p->store_follower = std::make_unique<StoreFollower>(
        &registry, std::move(p->follower), p->on_store_change,
        [metrics] { metrics->StoreError("follow"); },
        [metrics](const std::vector<std::pair<std::string, uint64_t>>& lags) {
          metrics->SetStoreLags(lags);
        },
        p->worlds.get());
  }

  grpc::EnableDefaultHealthCheckService(true);
  grpc::reflection::InitProtoReflectionServerBuilderPlugin();
  grpc::ServerBuilder builder;
  builder.AddListeningPort(absl::StrCat(o.host, ":", o.port), *credentials,
                           &p->port);
  // gRPC sets SO_REUSEPORT by default: a second server on a port in use
  // would then start and share it. Refuse a port another process holds.
  builder.AddChannelArgument(GRPC_ARG_ALLOW_REUSEPORT, 0);
  builder.SetMaxReceiveMessageSize(static_cast<int>(o.service.max_message_bytes));
  builder.SetMaxSendMessageSize(static_cast<int>(o.service.max_message_bytes));
  builder.RegisterService(p->service.get());
  p->server = builder.BuildAndStart();
  if (p->server == nullptr || p->port == 0) {
    std::unique_ptr<Server> partial(new Server(std::move(p)));
    partial->Shutdown(absl::ZeroDuration());
    return absl::UnavailableError(absl::StrCat(
        "cannot listen on ", o.host, ":", o.port,
        " (is another process using the port? are the TLS files a valid "
        "pair?)"));
  }
  if (o.http_port != 0) {
    HttpOptions http;
    http.host = o.host;
    http.port = o.http_port;
    http.tls = o.tls;
    http.max_body_bytes = o.service.max_message_bytes;
    http.cors_origins = o.http_cors_origins;
    http.console = o.http_console;
    // Each connection holds a thread while its call runs.
    http.threads = std::max(8, 2 * p->workers);
    absl::StatusOr<std::unique_ptr<HttpGateway>> gateway =
        HttpGateway::Start(http, p->service.get(), p->metrics.registry().get());
    if (!gateway.ok()) {
      std::unique_ptr<Server> partial(new Server(std::move(p)));
      partial->Shutdown(absl::ZeroDuration());
      return gateway.status();
    }
    p->http = *std::move(gateway);
  }
  p->server->GetHealthCheckService()->SetServingStatus(true);

  // Gauges are sampled twice a second.
  Parts* parts = p.get();
  p->sampler = std::thread([parts] {
    do {
      parts->metrics.SetState(
          static_cast<double>(parts->registry->map_count()),
          static_cast<double>(parts->registry->total_cells()),
          static_cast<double>(parts->registry->memory_bytes()),
          static_cast<double>(parts->search->depth()),
          parts->search->busy_workers(),
          static_cast<double>(parts->search->context_memory_bytes() +
                              parts->inline_searches->memory_bytes()),
          static_cast<double>(parts->flow_fields->bytes()));
    } while (!parts->stopping.WaitForNotificationWithTimeout(
        absl::Milliseconds(500)));
  });
  return std::unique_ptr<Server>(new Server(std::move(p)));
}

Server::Server(std::unique_ptr<Parts> parts) : parts_(std::move(parts)) {}

Server::~Server() { Shutdown(absl::ZeroDuration()); }

int Server::port() const { return parts_->port; }
int Server::metrics_port() const { return parts_->metrics_port; }
bool Server::update_thread_realtime() const {
  return parts_->updates->realtime_workers() > 0;
}
int Server::http_port() const {
  return parts_->http != nullptr ? parts_->http->port() : 0;
}
MapRegistry& Server::registry() { return *parts_->registry; }
WorldRegistry& Server::worlds() { return *parts_->worlds; }
WatchHub& Server::watch() { return *parts_->service->watch(); }

std::string Server::Describe() const {
  const ServerOptions& o = parts_->options;
  return absl::StrCat(
      "serving on ", o.host, ":", parts_->port, " (",
      o.tls.cert.empty()        ? "plaintext"
      : o.tls.client_ca.empty() ? "TLS"
                                : "mutual TLS",
      ") with ", parts_->workers, " workers, ", parts_->registry->map_count(),
      " maps, metrics ",
      parts_->exposer ? absl::StrCat("on :", parts_->metrics_port, "/metrics")
                      : "off",
      parts_->http != nullptr
          ? absl::StrCat(", HTTP/JSON on :", parts_->http->port(),
                         parts_->http->tls() ? " (HTTPS)" : "")
          : "");
}

absl::Status Server::ReloadKeys() {
  if (parts_->store_credentials != nullptr) {
    if (absl::Status c = parts_->store_credentials->Reload(); !c.ok()) {
      std::fprintf(stderr, "gridstar-server: SIGHUP: store password kept: %s\n",
                   std::string(c.message()).c_str());
    } else if (parts_->store_credentials->has_password()) {
      std::fprintf(stderr,
                   "gridstar-server: SIGHUP: store password re-read (used "
                   "from the next connection)\n");
    }
  }
  const absl::Status s = parts_->access->Reload();
  parts_->metrics.KeyReload(s.ok());
  if (!s.ok()) {
    std::fprintf(stderr, "gridstar-server: SIGHUP: keys kept: %s\n",
                 std::string(s.message()).c_str());
  } else if (parts_->access->enabled()) {
    std::fprintf(stderr,
                 "gridstar-server: SIGHUP: keys: %zu admin, %zu query tokens\n",
                 parts_->access->admin_tokens(), parts_->access->query_tokens());
  }
  return s;
}

void Server::Shutdown(absl::Duration grace) {
  Parts& p = *parts_;
  std::call_once(p.shut_down, [&] {
    const absl::Time deadline = absl::Now() + grace;
    // HTTP calls get the same grace, then are cancelled.
    if (p.http != nullptr) p.http->Shutdown(deadline);
    if (p.server != nullptr) {
      p.server->GetHealthCheckService()->SetServingStatus(false);
      // Stops accepting calls; calls still running after the grace are
      // cancelled (their searches see the flag and stop).
      p.server->Shutdown(absl::ToChronoTime(deadline));
    }
    p.http.reset();
    p.store_follower.reset();
    if (p.search != nullptr) p.search->Shutdown();
    if (p.updates != nullptr) p.updates->Shutdown();
    if (p.admin != nullptr) p.admin->Shutdown();
    p.finisher.Shutdown();  // After the workers: their last batches end here.
    p.stopping.Notify();
    if (p.sampler.joinable()) p.sampler.join();
    if (p.exposer != nullptr) {
      StopCivetweb([&p] { p.exposer.reset(); }, p.options.host, p.metrics_port);
    }
  });
}

}  // namespace gridstar::server
