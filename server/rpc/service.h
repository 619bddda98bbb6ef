// PathfindingService: the gridstar.v1.Pathfinding service on gRPC's callback
// API. Handlers only translate (convert/convert.h) and validate: every search
// becomes a task on the search Scheduler (but FindPath first tries a capped
// search on the calling gRPC thread, inline_searches.h), every map write a
// task on the admin Scheduler (updates of cells and links on the updates
// Scheduler, which nothing slow holds up), so no gRPC thread runs an
// uncapped search or writes a file. Core statuses
// become the RPC's through search_jobs.h's one translation. The handlers live
// by concern in service_maps.cc, service_search.cc and service_stream.cc.
//
// Keys: every handler first asks ServiceOptions::access whether the call's
// token admits it (admin RPCs: RegisterMap, UpdateCells, DeleteMap; all
// others need a query or an admin token); a refusal is answered at once and
// counted in gridstar_requests_total with its code.
//
// Thread-safety: gRPC calls the handlers from any thread; all shared state
// lives in the MapRegistry, the Schedulers, the FlowFieldCache and Metrics,
// which are safe.
#ifndef GRIDSTAR_SERVER_SERVICE_H_
#define GRIDSTAR_SERVER_SERVICE_H_

#include <cstddef>
#include <cstdint>
#include <functional>

#include "absl/time/time.h"
#include "auth/access_control.h"
#include "gridstar/grid_map.h"
#include "gridstar/v1/gridstar.grpc.pb.h"
#include "maps/flow_field_cache.h"
#include "maps/map_registry.h"
#include "maps/world_registry.h"
#include "rpc/arena_allocator.h"
#include "rpc/calls.h"
#include "rpc/finisher.h"
#include "rpc/inline_searches.h"
#include "runtime/metrics.h"
#include "runtime/scheduler.h"
#include "watch/watch_hub.h"

namespace gridstar::server {

struct ServiceOptions {
  size_t max_batch = 1024;
  size_t max_group = 1024;
  size_t max_stream_inflight = 256;
  size_t max_updates = 1 << 20;
  MapLimits map_limits;
  // Budget of a call that sets no deadline (and the cap of one that does not
  // end sooner).
  absl::Duration max_search_time = absl::Seconds(30);
  // Largest message the server sends; flow fields beyond it are refused.
  size_t max_message_bytes = 80 << 20;
  // Who may call what (not owned; must outlive the service). Null admits
  // every call, as does an AccessControl without token files.
  const AccessControl* access = nullptr;
  // The fast path of FindPath (not owned; null = every search goes to a
  // worker).
  InlineSearches* inline_searches = nullptr;
  // Ends batches off the workers (not owned; null = the worker that ran a
  // batch's last item ends the call).
  Finisher* finisher = nullptr;
  // The worlds of linked maps (not owned; null: the world RPCs answer
  // FAILED_PRECONDITION).
  WorldRegistry* worlds = nullptr;
  // WatchPaths: agents one stream may watch, and events it may leave
  // unread before it is closed.
  size_t watch_max_agents = 100000;
  size_t watch_max_pending = 4096;
  // Memory of the watched agents' D* Lite planners (0 = fresh searches).
  size_t watch_dstar_bytes = size_t{256} << 20;
};

class PathfindingService final : public v1::Pathfinding::CallbackService {
 public:
  // `updates` runs UpdateLinks and UpdateCells of at most
  // kRealtimeUpdateCells cells (one thread, maybe at real-time priority:
  // only small, bounded work goes there), `admin` the other writes
  // (registrations, deletions, compactions, larger updates).
  PathfindingService(MapRegistry* registry, Scheduler* search, Scheduler* admin,
                     Scheduler* updates, Metrics* metrics,
                     FlowFieldCache* flow_fields, ServiceOptions options);
  // Stops hearing of world changes (the registry may outlive the service).
  ~PathfindingService() override;

  grpc::ServerUnaryReactor* RegisterMap(grpc::CallbackServerContext* ctx,
                                        const v1::RegisterMapRequest* request,
                                        v1::MapInfo* response) override;
  grpc::ServerUnaryReactor* UpdateCells(grpc::CallbackServerContext* ctx,
                                        const v1::UpdateCellsRequest* request,
                                        v1::MapInfo* response) override;
  grpc::ServerUnaryReactor* GetMap(grpc::CallbackServerContext* ctx,
                                   const v1::GetMapRequest* request,
                                   v1::GetMapResponse* response) override;
  grpc::ServerUnaryReactor* ListMaps(grpc::CallbackServerContext* ctx,
                                     const v1::ListMapsRequest* request,
                                     v1::ListMapsResponse* response) override;
  grpc::ServerUnaryReactor* DeleteMap(grpc::CallbackServerContext* ctx,
                                      const v1::DeleteMapRequest* request,
                                      v1::DeleteMapResponse* response) override;
  grpc::ServerUnaryReactor* FindPath(grpc::CallbackServerContext* ctx,
                                     const v1::PathRequest* request,
                                     v1::PathResponse* response) override;
  grpc::ServerUnaryReactor* FindPaths(grpc::CallbackServerContext* ctx,
                                      const v1::FindPathsRequest* request,
                                      v1::FindPathsResponse* response) override;
  grpc::ServerUnaryReactor* FindGroupPaths(
      grpc::CallbackServerContext* ctx, const v1::GroupPathsRequest* request,
      v1::GroupPathsResponse* response) override;
  grpc::ServerBidiReactor<v1::StreamPathRequest, v1::StreamPathResponse>*
  FindPathsStream(grpc::CallbackServerContext* ctx) override;
  grpc::ServerUnaryReactor* ComputeFlowField(
      grpc::CallbackServerContext* ctx, const v1::FlowFieldRequest* request,
      v1::FlowFieldResponse* response) override;
  grpc::ServerBidiReactor<v1::WatchRequest, v1::WatchEvent>* WatchPaths(
      grpc::CallbackServerContext* ctx) override;
  grpc::ServerUnaryReactor* RegisterWorld(
      grpc::CallbackServerContext* ctx, const v1::RegisterWorldRequest* request,
      v1::WorldInfo* response) override;
  grpc::ServerUnaryReactor* UpdateLinks(grpc::CallbackServerContext* ctx,
                                        const v1::UpdateLinksRequest* request,
                                        v1::WorldInfo* response) override;
  grpc::ServerUnaryReactor* GetWorld(grpc::CallbackServerContext* ctx,
                                     const v1::GetWorldRequest* request,
                                     v1::WorldInfo* response) override;
  grpc::ServerUnaryReactor* ListWorlds(
      grpc::CallbackServerContext* ctx, const v1::ListWorldsRequest* request,
      v1::ListWorldsResponse* response) override;
  grpc::ServerUnaryReactor* DeleteWorld(
      grpc::CallbackServerContext* ctx, const v1::DeleteWorldRequest* request,
      v1::DeleteWorldResponse* response) override;
  grpc::ServerUnaryReactor* FindWorldPath(
      grpc::CallbackServerContext* ctx, const v1::WorldPathRequest* request,
      v1::WorldPathResponse* response) override;
  grpc::ServerUnaryReactor* FindWorldPaths(
      grpc::CallbackServerContext* ctx,
      const v1::FindWorldPathsRequest* request,
      v1::FindWorldPathsResponse* response) override;

  // Shared with the call objects in service.cc.
  MapRegistry* registry() const { return registry_; }
  Scheduler* search() const { return search_; }
  Scheduler* admin() const { return admin_; }
  Metrics* metrics() const { return metrics_; }
  const ServiceOptions& options() const { return options_; }
  WatchHub* watch() { return &watch_; }

  // The unary handlers, whatever carried the call (the gRPC methods above
  // wrap each in a UnaryCall; the HTTP/JSON port calls them through
  // ServeUnary). Each finishes `call` once, maybe on another thread, and
  // reads `request` and writes `response` until then. REQUIRES: both
  // outlive the call's Done.
  void ServeRegisterMap(Call* call, const v1::RegisterMapRequest* request,
                        v1::MapInfo* response);
  void ServeUpdateCells(Call* call, const v1::UpdateCellsRequest* request,
                        v1::MapInfo* response);
  void ServeGetMap(Call* call, const v1::GetMapRequest* request,
                   v1::GetMapResponse* response);
  void ServeListMaps(Call* call, const v1::ListMapsRequest* request,
                     v1::ListMapsResponse* response);
  void ServeDeleteMap(Call* call, const v1::DeleteMapRequest* request,
                      v1::DeleteMapResponse* response);
  void ServeFindPath(Call* call, const v1::PathRequest* request,
                     v1::PathResponse* response);
  void ServeFindPaths(Call* call, const v1::FindPathsRequest* request,
                      v1::FindPathsResponse* response);
  void ServeFindGroupPaths(Call* call, const v1::GroupPathsRequest* request,
                           v1::GroupPathsResponse* response);
  void ServeComputeFlowField(Call* call, const v1::FlowFieldRequest* request,
                             v1::FlowFieldResponse* response);
  // Worlds (service_worlds.cc).
  void ServeRegisterWorld(Call* call, const v1::RegisterWorldRequest* request,
                          v1::WorldInfo* response);
  void ServeUpdateLinks(Call* call, const v1::UpdateLinksRequest* request,
                        v1::WorldInfo* response);
  void ServeGetWorld(Call* call, const v1::GetWorldRequest* request,
                     v1::WorldInfo* response);
  void ServeListWorlds(Call* call, const v1::ListWorldsRequest* request,
                       v1::ListWorldsResponse* response);
  void ServeDeleteWorld(Call* call, const v1::DeleteWorldRequest* request,
                        v1::DeleteWorldResponse* response);
  void ServeFindWorldPath(Call* call, const v1::WorldPathRequest* request,
                          v1::WorldPathResponse* response);
  void ServeFindWorldPaths(Call* call, const v1::FindWorldPathsRequest* request,
                           v1::FindWorldPathsResponse* response);
  // The handler of unary method `name` ("FindPath") given its messages as
  // the method's types; false (nothing done) when the service has no unary
  // method of that name. REQUIRES: request and response are of the types
  // `name` takes and answers.
  bool ServeUnary(absl::string_view name, Call* call,
                  const google::protobuf::Message& request,
                  google::protobuf::Message* response);

  // A world path request read and checked now against its world (the
  // query's errors, naming "<prefix>field"), as a job a worker runs: it
  // reads the member maps, searches and writes the answer.
  using WorldJob =
      std::function<absl::Status(SearchContext&, WorldPathAnswer*)>;
  // Runs `job`, its answer written into *out as the API's.
  static absl::Status RunWorldJob(const WorldJob& job, SearchContext& context,
                                  v1::WorldPathResponse* out);
  absl::StatusOr<WorldJob> MakeWorldJob(const v1::WorldPathRequest& request,
                                        absl::string_view prefix,
                                        absl::Time deadline,
                                        CancelFlag cancelled) const;

  // Map `id` changed through another replica (StoreFollower): its cached
  // flow fields go, and its pending derived data is claimed for the
  // background thread as after an update here.
  void MapChangedElsewhere(const std::string& id);

  // OK when the call's token admits a call that needs `need`.
  absl::Status Authorize(const grpc::CallbackServerContext* ctx,
                         AccessLevel need, absl::string_view method) const;

 private:
  // Authorize, finishing `call` with the refusal; false when refused.
  // Also tells the caller that this server is on a shared store
  // (kStoreHeader: clients then never re-register).
  bool Admit(Call* call, AccessLevel need) const;
  // A gRPC unary method: its call, served by `serve`.
  template <typename Request, typename Response>
  grpc::ServerUnaryReactor* Unary(
      grpc::CallbackServerContext* ctx, absl::string_view method,
      void (PathfindingService::*serve)(Call*, const Request*, Response*),
      const Request* request, Response* response) {
    auto* call = new UnaryCall(metrics_, method, ctx);
    (this->*serve)(call, request, response);
    return call;
  }
  // Cells an UpdateCells call may change (its rects' areas, cost and area
  // changes together) and still run on the update thread; larger ones run on
  // the admin thread, so that real-time priority never holds a core long.
  static constexpr int64_t kRealtimeUpdateCells = 4096;
  // How many levels the background thread runs below the rest of the server
  // (searches run --search_nice, 10 by default).
  static constexpr int kBackgroundNice = 5;
  // Tells the watch hub of an update that made version `s` (`changes` as
  // asked, on the terrain).
  void NotifyWatchers(const MapSnapshot& s,
                      const std::vector<CellChange>& changes,
                      bool areas_changed);
  // Claims the background job of map id (MapRegistry::ClaimRebuild: its
  // pending structures, its agent maps') and queues it on background_.
  void ClaimBackgroundWork(const std::string& id);
  // After a world write was answered: its stored history folded in when
  // the store wants it (a failure counted, the history kept).
  void CompactWorldAfterAnswer(WorldRegistry& worlds, const std::string& id);
  // Queues the claimed job (and, when newer versions came while it ran,
  // the next one) on background_.
  void RebuildLater(const std::string& id);
  // False after finishing `call` with RESOURCE_EXHAUSTED when a batch of
  // n items is over --max_batch.
  bool BatchFits(Call* call, size_t n) const;
  // The world registry, or null after finishing `call` with
  // FAILED_PRECONDITION (a service built without one).
  WorldRegistry* WorldsOrFinish(Call* call) const;

  MapRegistry* const registry_;
  Scheduler* const search_;
  Scheduler* const admin_;
  Scheduler* const updates_;
  Metrics* const metrics_;
  FlowFieldCache* const flow_fields_;
  // One thread for work no caller waits for and no update should wait
  // behind: landmark rebuilds and jump-table repairs
  // (MapRegistry::RebuildPending, RepairPendingJumpTable).
  Scheduler background_;
  const ServiceOptions options_;
  // The agents of WatchPaths streams; told of every change of a map here.
  // Its searches are tasks on search_: shut that down before the service
  // goes.
  WatchHub watch_;
  // The searches' requests and responses live on one arena per call.
  ArenaAllocator<v1::PathRequest, v1::PathResponse> find_path_messages_;
  ArenaAllocator<v1::FindPathsRequest, v1::FindPathsResponse>
      find_paths_messages_;
  ArenaAllocator<v1::GroupPathsRequest, v1::GroupPathsResponse>
      group_paths_messages_;
};

}  // namespace gridstar::server

#endif  // GRIDSTAR_SERVER_SERVICE_H_
