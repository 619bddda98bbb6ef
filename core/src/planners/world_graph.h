// What the world's search (world_search.cc), its reference
// (world_reference.cc) and its checks (world_links.cc) share.
//
// Thread-safety: pure functions.

#ifndef GRIDSTAR_SRC_PLANNERS_WORLD_GRAPH_H_
#define GRIDSTAR_SRC_PLANNERS_WORLD_GRAPH_H_

#include <cstdint>
#include <vector>

#include "absl/types/span.h"
#include "gridstar/agents.h"
#include "gridstar/world.h"

namespace gridstar::internal {

struct UsableLink {
  // Index into the world's links.
  int32_t index = 0;
};

// The links `agent` may use now (LinkAdmits) whose both ends are passable
// on the views' maps, in the order of `links`. REQUIRES: every link's ends
// lie on the maps (ValidateWorldLinks).
std::vector<UsableLink> UsableLinks(absl::Span<const WorldMapView> maps,
                                    absl::Span<const WorldLink> links,
                                    const AgentClass& agent);

}  // namespace gridstar::internal

#endif  // GRIDSTAR_SRC_PLANNERS_WORLD_GRAPH_H_
