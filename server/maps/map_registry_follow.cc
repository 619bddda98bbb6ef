// MapRegistry::Follow: a replica keeping its maps at the shared store's
// versions (map_registry.h).

#include <string>
#include <utility>

#include "absl/strings/str_cat.h"
#include "absl/time/clock.h"
#include "absl/time/time.h"
#include "maps/map_registry.h"
#include "maps/map_registry_internal.h"

namespace gridstar::server {

absl::StatusOr<MapRegistry::Followed> MapRegistry::Follow(
    MapStoreFollower& follower, const std::string& id) {
  if (absl::Status s = ValidateMapId(id, "id"); !s.ok()) return s;
  WriteLock write(this, id);
  std::shared_ptr<const MapSnapshot> held = Find(id);
  const absl::Time start = absl::Now();
  absl::StatusOr<StoreCatchUp> catch_up =
      follower.CatchUp(id, held == nullptr ? 0 : held->version);
  if (!catch_up.ok()) return catch_up.status();
  Followed followed;
  if (!catch_up->stored) {
    if (held == nullptr) return followed;
    Drop(id);
    followed.kind = Followed::Kind::kDropped;
    return followed;
  }
  if (catch_up->has_content) {
    absl::StatusOr<std::shared_ptr<MapSnapshot>> next =
        SnapshotOfStored(catch_up->content);
    if (!next.ok()) return next.status();
    if (loader_ != nullptr) {
      EvictFor(id, (*next)->map.cell_count() -
                       (held == nullptr ? 0 : held->map.cell_count()));
    }
    followed.kind = Followed::Kind::kContent;
    followed.load_seconds = absl::ToDoubleSeconds(absl::Now() - start);
    if (held != nullptr && catch_up->content.version > held->version) {
      followed.versions_behind = catch_up->content.version - held->version;
    }
    Swap(id, *std::move(next));
    return followed;
  }
  for (const StoredUpdate& u : catch_up->updates) {
    if (held == nullptr || u.version != held->version + 1) {
      return absl::DataLossError(absl::StrCat(
          "map '", id, "': stored update ", u.version, " does not follow ",
          held == nullptr ? 0 : held->version));
    }
    if (absl::Status s = ValidateChanges(
            held->map.width(), held->map.height(), u.changes,
            [](size_t i) { return absl::StrCat("change ", i); });
        !s.ok()) {
      return absl::DataLossError(absl::StrCat("map '", id, "': stored update ",
                                              u.version, ": ", s.message()));
    }
    if (absl::Status s = ValidateAreaChanges(
            held->map.width(), held->map.height(), u.area_changes,
            [](size_t i) { return absl::StrCat("area change ", i); });
        !s.ok()) {
      return absl::DataLossError(absl::StrCat("map '", id, "': stored update ",
                                              u.version, ": ", s.message()));
    }
    absl::StatusOr<std::shared_ptr<MapSnapshot>> next =
        NextVersion(held, u.changes, u.area_changes);
    if (!next.ok()) return next.status();
    Swap(id, *next);
    held = *std::move(next);
    followed.kind = Followed::Kind::kUpdates;
    ++followed.versions_behind;
  }
  return followed;
}

void MapRegistry::SetStoreLoader(
    std::unique_ptr<MapStoreFollower> loader,
    std::function<void(const std::string&, const Followed&)> loaded) {
  loader_ = std::move(loader);
  loaded_ = std::move(loaded);
}

absl::StatusOr<std::shared_ptr<const MapSnapshot>> MapRegistry::FindOrLoad(
    const std::string& id) {
  {
    std::lock_guard<std::mutex> lock(mu_);
    auto it = maps_.find(id);
    if (it != maps_.end() || loader_ == nullptr) {
      if (it == maps_.end()) return nullptr;
      last_used_[id] = ++uses_;
      return it->second;
    }
  }
  if (!ValidateMapId(id, "id").ok()) return nullptr;
  // Under the map's write lock: a second first call waits, then finds it.
  absl::StatusOr<Followed> followed = Follow(*loader_, id);
  if (!followed.ok()) {
    // Redis away (or the stored map corrupt): not "no such map".
    return absl::Status(followed.status().code(),
                        absl::StrCat("loading map '", id, "' from the store: ",
                                     followed.status().message()));
  }
  if (followed->kind != Followed::Kind::kNothing && loaded_) {
    loaded_(id, *followed);
  }
  std::lock_guard<std::mutex> lock(mu_);
  auto it = maps_.find(id);
  if (it == maps_.end()) return nullptr;
  last_used_[id] = ++uses_;
  return it->second;
}

absl::StatusOr<std::vector<std::pair<std::string, uint64_t>>>
MapRegistry::StoredVersions() {
  if (loader_ == nullptr) {
    return std::vector<std::pair<std::string, uint64_t>>();
  }
  return loader_->StoredVersions();
}

void MapRegistry::EvictFor(const std::string& keep, int64_t cells) {
  std::vector<std::shared_ptr<const MapSnapshot>> dropped;  // Freed unlocked.
  std::lock_guard<std::mutex> lock(mu_);
  while (TotalCellsLocked() + reserved_cells_ + cells >
         limits_.max_total_cells) {
    auto victim = maps_.end();
    uint64_t oldest = UINT64_MAX;
    for (auto it = maps_.begin(); it != maps_.end(); ++it) {
      if (it->first == keep) continue;
      const auto used = last_used_.find(it->first);
      const uint64_t when = used == last_used_.end() ? 0 : used->second;
      if (when < oldest) {
        oldest = when;
        victim = it;
      }
    }
    if (victim == maps_.end()) return;
    dropped.push_back(std::move(victim->second));
    last_used_.erase(victim->first);
    maps_.erase(victim);
  }
}

}  // namespace gridstar::server
