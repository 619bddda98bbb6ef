// MapRegistry's background rebuild of structures an update left out
// (map_registry.h: ClaimRebuild, RebuildPending): landmarks that are no
// longer lower bounds, a subgoal graph after changed cells, and what agent
// maps wait for, built here off the update's path for the newest version.

#include <memory>
#include <string>
#include <vector>

#include "map_registry.h"
#include "map_registry_internal.h"

namespace gridstar::server {

bool MapRegistry::ClaimRebuild(const std::string& id) {
  std::shared_ptr<const MapSnapshot> s = Find(id);
  return Claim(
      &rebuild_claims_, id,
      s != nullptr && (s->RebuildPending() || s->agent_maps->Pending()));
}

void MapRegistry::DropRebuildClaim(const std::string& id) {
  DropClaim(&rebuild_claims_, id);
}

absl::Status MapRegistry::RebuildPending(const std::string& id) {
  // From here on a newer version may claim a rebuild of its own.
  DropRebuildClaim(id);
  std::shared_ptr<const MapSnapshot> base = Find(id);
  if (base == nullptr) return absl::OkStatus();
  // The agent maps' own, installed in their cache (same version).
  if (absl::Status s = base->agent_maps->FinishPending(); !s.ok()) return s;
  const std::vector<std::string> names = base->PendingRebuilds();
  if (names.empty()) return absl::OkStatus();
  GridMap map = base->map;  // Shares every tile and structure.
  std::vector<DerivedReport> built;
  if (absl::Status s =
          BuildDerivedNamed(base->options.derived(), names, &map, &built);
      !s.ok()) {
    return s;
  }
  InstallRebuilt(id, base, std::move(map), built);
  return absl::OkStatus();
}

void MapRegistry::InstallRebuilt(const std::string& id,
                                 const std::shared_ptr<const MapSnapshot>& base,
                                 GridMap map,
                                 const std::vector<DerivedReport>& built) {
  WriteLock write(this, id);
  if (Find(id) != base) return;  // Superseded meanwhile.
  auto next = std::make_shared<MapSnapshot>(*base);
  next->map = std::move(map);
  for (DerivedReport& r : next->derived) {
    for (const DerivedReport& b : built) {
      if (r.name != b.name) continue;
      r.outcome = b.outcome;
      r.micros = b.micros;
    }
  }
  Swap(id, next);
}

}  // namespace gridstar::server
