#include "store_follower.h"

#include <set>
#include <utility>
#include <vector>

#include "absl/time/clock.h"
#include "absl/time/time.h"

namespace gridstar::server {

namespace {
constexpr absl::Duration kWait = absl::Seconds(1);
constexpr absl::Duration kFullSyncEvery = absl::Seconds(30);
}  // namespace

StoreFollower::StoreFollower(MapRegistry* registry,
                             std::unique_ptr<MapStoreFollower> follower,
                             Changed changed, std::function<void()> failed)
    : registry_(registry),
      follower_(std::move(follower)),
      changed_(std::move(changed)),
      failed_(std::move(failed)),
      thread_([this] { Loop(); }) {}

void StoreFollower::Stop() {
  stop_.store(true);
  if (thread_.joinable()) thread_.join();
}

void StoreFollower::Loop() {
  // The first pass goes through everything: writes between the follower's
  // creation and the registry's load are caught up (harmlessly twice).
  bool full = true;
  absl::Time next_full = absl::Now();
  while (!stop_.load()) {
    std::set<std::string> ids;
    absl::StatusOr<std::vector<std::string>> written =
        follower_->WaitForWrites(kWait);
    if (!written.ok()) {
      failed_();
      full = true;
      // Redis away: try again a little later (stopping meanwhile).
      for (int i = 0; i < 10 && !stop_.load(); ++i) {
        absl::SleepFor(absl::Milliseconds(100));
      }
      continue;
    }
    ids.insert(written->begin(), written->end());
    if (full || absl::Now() >= next_full) {
      for (const auto& snapshot : registry_->List()) ids.insert(snapshot->id);
      full = false;
      next_full = absl::Now() + kFullSyncEvery;
    }
    for (const std::string& id : ids) {
      if (stop_.load()) return;
      // Maps not held here are loaded on first use (FindOrLoad), not
      // followed.
      if (registry_->Find(id) == nullptr) continue;
      absl::StatusOr<MapRegistry::Followed> followed =
          registry_->Follow(*follower_, id);
      if (!followed.ok()) {
        failed_();
        if (absl::IsUnavailable(followed.status())) full = true;
        continue;
      }
      if (followed->kind != MapRegistry::Followed::Kind::kNothing) {
        changed_(id, *followed);
      }
    }
  }
}

}  // namespace gridstar::server
