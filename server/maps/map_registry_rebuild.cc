// MapRegistry's background job that finishes what updates left pending
// (map_registry.h: ClaimRebuild, RebuildPending): each pending structure of
// the newest version, repaired from its base or built again through its
// DerivedStructure, and what the version's agent maps wait for, off the
// update's path.

#include <algorithm>
#include <memory>
#include <string>
#include <vector>

#include "maps/map_registry.h"
#include "maps/map_registry_internal.h"

namespace gridstar::server {

bool MapRegistry::ClaimRebuild(const std::string& id) {
  std::shared_ptr<const MapSnapshot> s = Find(id);
  return Claim(
      &rebuild_claims_, id,
      s != nullptr && (!s->pending.empty() || s->agent_maps->Pending()));
}

void MapRegistry::DropRebuildClaim(const std::string& id) {
  DropClaim(&rebuild_claims_, id);
}

absl::StatusOr<bool> MapRegistry::RebuildPending(const std::string& id) {
  // From here on a newer version may claim a job of its own.
  DropRebuildClaim(id);
  std::shared_ptr<const MapSnapshot> target = Find(id);
  if (target == nullptr) return false;
  // The agent maps' own, installed in their cache (same version).
  if (absl::Status s = target->agent_maps->FinishPending(); !s.ok()) return s;
  DerivedOptions options = target->options.derived();  // Nothing deferred.
  auto newer_version_came = [this, &id, version = target->version] {
    std::shared_ptr<const MapSnapshot> newest = Find(id);
    return newest != nullptr && newest->version != version;
  };
  // A slow build gives up once a newer version came (the next job builds
  // for that one).
  options.abandon = [this, &newer_version_came] {
    if (on_abandon_poll_) on_abandon_poll_();
    return newer_version_came();
  };
  bool again = false;
  // In build order, each installed as soon as it is done: a jump table
  // repaired in milliseconds does not wait for a subgoal graph.
  for (const auto& structure : DerivedStructuresFor(options)) {
    const std::string name(structure->name());
    auto it = target->pending.find(name);
    if (it == target->pending.end()) continue;
    // Newer versions came while this job ran: what is left is finished for
    // the newest instead (by the next job, from the same bases), so that a
    // newer version's quick repairs (the jump table) never wait behind a
    // slow build (a subgoal graph, a contraction hierarchy) of a version
    // no query asks for any more.
    if (newer_version_came()) return true;
    GridMap map = target->map;  // Shares every tile and structure.
    absl::StatusOr<DerivedReport> report =
        FinishPendingStructure(options, name, it->second, &map);
    if (absl::IsCancelled(report.status())) return true;  // options.abandon
    if (!report.ok()) return report.status();
    if (before_install_) before_install_();
    again = InstallFinished(id, *target, it->second.base, std::move(map),
                            *report) ||
            again;
  }
  return again;
}

bool MapRegistry::InstallFinished(const std::string& id,
                                  const MapSnapshot& target,
                                  const std::shared_ptr<const GridMap>& base,
                                  GridMap map, const DerivedReport& report) {
  const DerivedOptions options = target.options.derived();
  WriteLock write(this, id);
  std::shared_ptr<const MapSnapshot> current = Find(id);
  if (current == nullptr) return false;
  auto it = current->pending.find(report.name);
  // Deleted, replaced, or finished meanwhile: nothing of ours.
  if (it == current->pending.end() || it->second.base != base) return false;
  auto next = std::make_shared<MapSnapshot>(*current);
  if (current->version == target.version) {
    // `current` is `target`, or a copy of it with other structures
    // installed.
    ShareDerivedNamed(options, {report.name}, map, &next->map);
    next->pending.erase(report.name);
    for (DerivedReport& r : next->derived) {
      if (r.name == report.name) r = report;
    }
    Swap(id, next);
    return false;
  }
  // Newer versions came: the newest repairs from this one, and only its own
  // changes since.
  PendingDerived& entry = next->pending[report.name];
  entry.base = std::make_shared<const GridMap>(std::move(map));
  auto& changes = entry.changes;
  changes.erase(
      std::remove_if(changes.begin(), changes.end(),
                     [&](const auto& c) { return c.first <= target.version; }),
      changes.end());
  Swap(id, next);
  return true;
}

}  // namespace gridstar::server
