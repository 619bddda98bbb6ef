// The service's construction. Its handlers live by concern in
// service_maps.cc (map administration), service_search.cc (the searching
// RPCs) and service_stream.cc (the bidirectional stream).

#include "rpc/service.h"

#include <utility>

#include "absl/strings/str_cat.h"
#include "rpc/world_requests.h"

namespace gridstar::server {

PathfindingService::PathfindingService(MapRegistry* registry, Scheduler* search,
                                       Scheduler* admin, Scheduler* updates,
                                       Metrics* metrics,
                                       FlowFieldCache* flow_fields,
                                       ServiceOptions options)
    : registry_(registry),
      search_(search),
      admin_(admin),
      updates_(updates),
      metrics_(metrics),
      flow_fields_(flow_fields),
      background_(
          1, 64,
          [] {
            SearchContextOptions o;
            o.max_cells = 1;  // Rebuilds bring their own contexts.
            return o;
          }(),
          // Below updates (which it would otherwise delay on a busy
          // machine), above searches (which wait for its tables).
          kBackgroundNice),
      options_(options),
      watch_(registry, search, metrics, [&] {
        WatchOptions w;
        w.max_agents_per_stream = options.watch_max_agents;
        w.dstar_budget_bytes = options.watch_dstar_bytes;
        w.max_search_time = options.max_search_time;
        w.max_message_bytes = options.max_message_bytes;
        return w;
      }()) {
  SetMessageAllocatorFor_FindPath(&find_path_messages_);
  SetMessageAllocatorFor_FindPaths(&find_paths_messages_);
  SetMessageAllocatorFor_FindGroupPaths(&group_paths_messages_);
  if (options_.worlds != nullptr) {
    // World agents search as FindWorldPath does, and hear of every change
    // of a world (this replica's writes and those it follows).
    watch_.EnableWorlds(
        options_.worlds,
        [this](const WorldPathAsk& ask, absl::string_view prefix,
               absl::Time deadline,
               CancelFlag cancelled) -> absl::StatusOr<WorldWatch::Search> {
          absl::StatusOr<WorldJob> job = MakeWorldJob(
              WorldPathAskToProto(ask), prefix, deadline, std::move(cancelled));
          if (!job.ok()) return job.status();
          return WorldWatch::Search(*std::move(job));
        });
    options_.worlds->SetListener(
        [this](const std::string& id) { watch_.WorldChanged(id); });
  }
}

PathfindingService::~PathfindingService() {
  if (options_.worlds != nullptr) options_.worlds->SetListener(nullptr);
}

absl::Status PathfindingService::Authorize(
    const grpc::CallbackServerContext* ctx, AccessLevel need,
    absl::string_view method) const {
  if (options_.access == nullptr) return absl::OkStatus();
  return options_.access->Authorize(AuthorizationOf(ctx), need, method);
}

bool PathfindingService::Admit(Call* call, AccessLevel need) const {
  if (registry_->shared_store()) call->SayStoreShared();
  absl::Status s = options_.access == nullptr
                       ? absl::OkStatus()
                       : options_.access->Authorize(call->authorization(), need,
                                                    call->method());
  if (s.ok()) return true;
  call->Done(s);
  return false;
}

bool PathfindingService::BatchFits(Call* call, size_t n) const {
  if (n <= options_.max_batch) return true;
  call->Done(absl::ResourceExhaustedError(
      absl::StrCat("items: ", n, " items, more than the limit of ",
                   options_.max_batch, " (--max_batch)")));
  return false;
}

grpc::ServerUnaryReactor* PathfindingService::RegisterMap(
    grpc::CallbackServerContext* ctx, const v1::RegisterMapRequest* request,
    v1::MapInfo* response) {
  return Unary(ctx, "RegisterMap", &PathfindingService::ServeRegisterMap,
               request, response);
}
grpc::ServerUnaryReactor* PathfindingService::UpdateCells(
    grpc::CallbackServerContext* ctx, const v1::UpdateCellsRequest* request,
    v1::MapInfo* response) {
  return Unary(ctx, "UpdateCells", &PathfindingService::ServeUpdateCells,
               request, response);
}
grpc::ServerUnaryReactor* PathfindingService::GetMap(
    grpc::CallbackServerContext* ctx, const v1::GetMapRequest* request,
    v1::GetMapResponse* response) {
  return Unary(ctx, "GetMap", &PathfindingService::ServeGetMap, request,
               response);
}
grpc::ServerUnaryReactor* PathfindingService::ListMaps(
    grpc::CallbackServerContext* ctx, const v1::ListMapsRequest* request,
    v1::ListMapsResponse* response) {
  return Unary(ctx, "ListMaps", &PathfindingService::ServeListMaps, request,
               response);
}
grpc::ServerUnaryReactor* PathfindingService::DeleteMap(
    grpc::CallbackServerContext* ctx, const v1::DeleteMapRequest* request,
    v1::DeleteMapResponse* response) {
  return Unary(ctx, "DeleteMap", &PathfindingService::ServeDeleteMap, request,
               response);
}
grpc::ServerUnaryReactor* PathfindingService::FindPath(
    grpc::CallbackServerContext* ctx, const v1::PathRequest* request,
    v1::PathResponse* response) {
  return Unary(ctx, "FindPath", &PathfindingService::ServeFindPath, request,
               response);
}
grpc::ServerUnaryReactor* PathfindingService::FindPaths(
    grpc::CallbackServerContext* ctx, const v1::FindPathsRequest* request,
    v1::FindPathsResponse* response) {
  return Unary(ctx, "FindPaths", &PathfindingService::ServeFindPaths, request,
               response);
}
grpc::ServerUnaryReactor* PathfindingService::FindGroupPaths(
    grpc::CallbackServerContext* ctx, const v1::GroupPathsRequest* request,
    v1::GroupPathsResponse* response) {
  return Unary(ctx, "FindGroupPaths", &PathfindingService::ServeFindGroupPaths,
               request, response);
}
grpc::ServerUnaryReactor* PathfindingService::ComputeFlowField(
    grpc::CallbackServerContext* ctx, const v1::FlowFieldRequest* request,
    v1::FlowFieldResponse* response) {
  return Unary(ctx, "ComputeFlowField",
               &PathfindingService::ServeComputeFlowField, request, response);
}

grpc::ServerUnaryReactor* PathfindingService::RegisterWorld(
    grpc::CallbackServerContext* ctx, const v1::RegisterWorldRequest* request,
    v1::WorldInfo* response) {
  return Unary(ctx, "RegisterWorld", &PathfindingService::ServeRegisterWorld,
               request, response);
}
grpc::ServerUnaryReactor* PathfindingService::UpdateLinks(
    grpc::CallbackServerContext* ctx, const v1::UpdateLinksRequest* request,
    v1::WorldInfo* response) {
  return Unary(ctx, "UpdateLinks", &PathfindingService::ServeUpdateLinks,
               request, response);
}
grpc::ServerUnaryReactor* PathfindingService::GetWorld(
    grpc::CallbackServerContext* ctx, const v1::GetWorldRequest* request,
    v1::WorldInfo* response) {
  return Unary(ctx, "GetWorld", &PathfindingService::ServeGetWorld, request,
               response);
}
grpc::ServerUnaryReactor* PathfindingService::ListWorlds(
    grpc::CallbackServerContext* ctx, const v1::ListWorldsRequest* request,
    v1::ListWorldsResponse* response) {
  return Unary(ctx, "ListWorlds", &PathfindingService::ServeListWorlds, request,
               response);
}
grpc::ServerUnaryReactor* PathfindingService::DeleteWorld(
    grpc::CallbackServerContext* ctx, const v1::DeleteWorldRequest* request,
    v1::DeleteWorldResponse* response) {
  return Unary(ctx, "DeleteWorld", &PathfindingService::ServeDeleteWorld,
               request, response);
}
grpc::ServerUnaryReactor* PathfindingService::FindWorldPath(
    grpc::CallbackServerContext* ctx, const v1::WorldPathRequest* request,
    v1::WorldPathResponse* response) {
  return Unary(ctx, "FindWorldPath", &PathfindingService::ServeFindWorldPath,
               request, response);
}
grpc::ServerUnaryReactor* PathfindingService::FindWorldPaths(
    grpc::CallbackServerContext* ctx, const v1::FindWorldPathsRequest* request,
    v1::FindWorldPathsResponse* response) {
  return Unary(ctx, "FindWorldPaths", &PathfindingService::ServeFindWorldPaths,
               request, response);
}

namespace {

// A unary handler with its message types erased (ServeUnary's table).
template <typename Request, typename Response,
          void (PathfindingService::*kServe)(Call*, const Request*, Response*)>
void Erased(PathfindingService* service, Call* call,
            const google::protobuf::Message& request,
            google::protobuf::Message* response) {
  (service->*kServe)(call, static_cast<const Request*>(&request),
                     static_cast<Response*>(response));
}

using ErasedServe = void (*)(PathfindingService*, Call*,
                             const google::protobuf::Message&,
                             google::protobuf::Message*);

}  // namespace

bool PathfindingService::ServeUnary(absl::string_view name, Call* call,
                                    const google::protobuf::Message& request,
                                    google::protobuf::Message* response) {
  using S = PathfindingService;
  static const std::pair<absl::string_view, ErasedServe> kTable[] = {
      {"RegisterMap",
       &Erased<v1::RegisterMapRequest, v1::MapInfo, &S::ServeRegisterMap>},
      {"UpdateCells",
       &Erased<v1::UpdateCellsRequest, v1::MapInfo, &S::ServeUpdateCells>},
      {"GetMap",
       &Erased<v1::GetMapRequest, v1::GetMapResponse, &S::ServeGetMap>},
      {"ListMaps",
       &Erased<v1::ListMapsRequest, v1::ListMapsResponse, &S::ServeListMaps>},
      {"DeleteMap", &Erased<v1::DeleteMapRequest, v1::DeleteMapResponse,
                            &S::ServeDeleteMap>},
      {"FindPath",
       &Erased<v1::PathRequest, v1::PathResponse, &S::ServeFindPath>},
      {"FindPaths", &Erased<v1::FindPathsRequest, v1::FindPathsResponse,
                            &S::ServeFindPaths>},
      {"FindGroupPaths", &Erased<v1::GroupPathsRequest, v1::GroupPathsResponse,
                                 &S::ServeFindGroupPaths>},
      {"ComputeFlowField", &Erased<v1::FlowFieldRequest, v1::FlowFieldResponse,
                                   &S::ServeComputeFlowField>},
      {"RegisterWorld", &Erased<v1::RegisterWorldRequest, v1::WorldInfo,
                                &S::ServeRegisterWorld>},
      {"UpdateLinks",
       &Erased<v1::UpdateLinksRequest, v1::WorldInfo, &S::ServeUpdateLinks>},
      {"GetWorld",
       &Erased<v1::GetWorldRequest, v1::WorldInfo, &S::ServeGetWorld>},
      {"ListWorlds", &Erased<v1::ListWorldsRequest, v1::ListWorldsResponse,
                             &S::ServeListWorlds>},
      {"DeleteWorld", &Erased<v1::DeleteWorldRequest, v1::DeleteWorldResponse,
                              &S::ServeDeleteWorld>},
      {"FindWorldPath", &Erased<v1::WorldPathRequest, v1::WorldPathResponse,
                                &S::ServeFindWorldPath>},
      {"FindWorldPaths",
       &Erased<v1::FindWorldPathsRequest, v1::FindWorldPathsResponse,
               &S::ServeFindWorldPaths>},
  };
  for (const auto& [method, serve] : kTable) {
    if (method == name) {
      serve(this, call, request, response);
      return true;
    }
  }
  return false;
}

}  // namespace gridstar::server
