// The service's construction. Its handlers live by concern in
// service_maps.cc (map administration), service_search.cc (the searching
// RPCs) and service_stream.cc (the bidirectional stream).

#include "rpc/service.h"

namespace gridstar::server {

PathfindingService::PathfindingService(MapRegistry* registry, Scheduler* search,
                                       Scheduler* admin, Metrics* metrics,
                                       FlowFieldCache* flow_fields,
                                       ServiceOptions options)
    : registry_(registry),
      search_(search),
      admin_(admin),
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
}

absl::Status PathfindingService::Authorize(
    const grpc::CallbackServerContext* ctx, AccessLevel need,
    absl::string_view method) const {
  if (options_.access == nullptr) return absl::OkStatus();
  return options_.access->Authorize(AuthorizationOf(ctx), need, method);
}

bool PathfindingService::Admit(grpc::CallbackServerContext* ctx,
                               AccessLevel need, UnaryCall* call) const {
  if (registry_->shared_store())
    ctx->AddInitialMetadata("x-gridstar-store", "shared");
  absl::Status s = Authorize(ctx, need, call->method());
  if (s.ok()) return true;
  call->Done(s);
  return false;
}

}  // namespace gridstar::server
