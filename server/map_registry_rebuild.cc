// MapRegistry's installs of derived data rebuilt in the background, and its
// rebuild of subgoal graphs (map_registry.h): an update that changes cells
// installs its version without a graph, and the graph is built here, off
// the update's path, for the newest version.

#include <chrono>
#include <memory>
#include <string>

#include "map_registry.h"
#include "map_registry_internal.h"

namespace gridstar::server {

bool MapRegistry::ClaimSubgoalGraphRebuild(const std::string& id) {
  std::shared_ptr<const MapSnapshot> s = Find(id);
  return Claim(&subgoal_claims_, id,
               s != nullptr && s->subgoal_graph_pending());
}

void MapRegistry::DropSubgoalGraphClaim(const std::string& id) {
  DropClaim(&subgoal_claims_, id);
}

absl::Status MapRegistry::RebuildPendingSubgoalGraph(const std::string& id) {
  // From here on a newer version may claim a rebuild of its own.
  DropSubgoalGraphClaim(id);
  std::shared_ptr<const MapSnapshot> base = Find(id);
  if (base == nullptr || !base->subgoal_graph_pending()) {
    return absl::OkStatus();
  }
  GridMap map = base->map;  // Shares every tile.
  const auto t0 = std::chrono::steady_clock::now();
  if (absl::Status s = BuildSubgoalGraph(&map); !s.ok()) return s;
  const double micros = std::chrono::duration<double, std::micro>(
                            std::chrono::steady_clock::now() - t0)
                            .count();
  InstallRebuilt(id, base, std::move(map), "subgoal_graph", micros);
  return absl::OkStatus();
}

void MapRegistry::InstallRebuilt(const std::string& id,
                                 const std::shared_ptr<const MapSnapshot>& base,
                                 GridMap map, absl::string_view structure,
                                 double micros) {
  WriteLock write(this, id);
  if (Find(id) != base) return;  // Superseded meanwhile.
  auto next = std::make_shared<MapSnapshot>(*base);
  next->map = std::move(map);
  for (DerivedReport& r : next->derived) {
    if (r.name != structure) continue;
    r.outcome = DerivedOutcome::kBuilt;
    r.micros = micros;
  }
  Swap(id, next);
}

}  // namespace gridstar::server
