// The service's construction. Its handlers live by concern in
// service_maps.cc (map administration), service_search.cc (the searching
// RPCs) and service_stream.cc (the bidirectional stream).

#include "service.h"

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
      background_(1, 64, [] {
        SearchContextOptions o;
        o.max_cells = 1;  // Rebuilds bring their own contexts.
        return o;
      }()),
      options_(options) {}

}  // namespace gridstar::server
