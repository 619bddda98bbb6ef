// MapRegistry::Follow: a replica keeping its maps at the shared store's
// versions (map_registry.h).

#include <string>
#include <utility>

#include "absl/strings/str_cat.h"
#include "map_registry.h"
#include "map_registry_internal.h"

namespace gridstar::server {

absl::StatusOr<MapRegistry::Followed> MapRegistry::Follow(
    MapStoreFollower& follower, const std::string& id) {
  if (absl::Status s = ValidateMapId(id, "id"); !s.ok()) return s;
  WriteLock write(this, id);
  std::shared_ptr<const MapSnapshot> held = Find(id);
  absl::StatusOr<StoreCatchUp> catch_up =
      follower.CatchUp(id, held == nullptr ? 0 : held->version);
  if (!catch_up.ok()) return catch_up.status();
  Followed followed;
  if (!catch_up->stored) {
    if (held == nullptr) return followed;
    std::shared_ptr<const MapSnapshot> old;  // Freed outside the lock.
    std::lock_guard<std::mutex> lock(mu_);
    auto it = maps_.find(id);
    old = std::move(it->second);
    maps_.erase(it);
    followed.kind = Followed::Kind::kDropped;
    return followed;
  }
  if (catch_up->has_content) {
    absl::StatusOr<std::shared_ptr<MapSnapshot>> next =
        SnapshotOfStored(catch_up->content);
    if (!next.ok()) return next.status();
    followed.kind = Followed::Kind::kContent;
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
    absl::StatusOr<std::shared_ptr<MapSnapshot>> next =
        NextVersion(held, u.changes);
    if (!next.ok()) return next.status();
    Swap(id, *next);
    held = *std::move(next);
    followed.kind = Followed::Kind::kUpdates;
    ++followed.versions_behind;
  }
  return followed;
}

}  // namespace gridstar::server
