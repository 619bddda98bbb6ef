#include "maps/store_follower.h"

#include <algorithm>
#include <set>
#include <utility>
#include <vector>

#include "absl/strings/match.h"
#include "absl/time/clock.h"
#include "absl/time/time.h"

namespace gridstar::server {

namespace {
constexpr absl::Duration kWait = absl::Seconds(1);
constexpr absl::Duration kFullSyncEvery = absl::Seconds(30);
constexpr absl::Duration kLagsEvery = absl::Seconds(5);
}  // namespace

StoreFollower::StoreFollower(MapRegistry* registry,
                             std::unique_ptr<MapStoreFollower> follower,
                             Changed changed, std::function<void()> failed,
                             Lags lags, WorldRegistry* worlds)
    : registry_(registry),
      worlds_(worlds),
      follower_(std::move(follower)),
      changed_(std::move(changed)),
      failed_(std::move(failed)),
      lags_(std::move(lags)),
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
  absl::Time next_lags = absl::Now();
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
    std::set<std::string> worlds;
    for (auto it = ids.begin(); it != ids.end();) {
      if (absl::StartsWith(*it, kWorldWritePrefix)) {
        worlds.insert(it->substr(kWorldWritePrefix.size()));
        it = ids.erase(it);
      } else {
        ++it;
      }
    }
    if (full || absl::Now() >= next_full) {
      for (const auto& snapshot : registry_->List()) ids.insert(snapshot->id);
      if (worlds_ != nullptr) {
        for (const auto& w : worlds_->List()) worlds.insert(w->id);
        absl::StatusOr<std::vector<std::string>> stored =
            follower_->StoredWorldIds();
        if (stored.ok()) worlds.insert(stored->begin(), stored->end());
      }
      full = false;
      next_full = absl::Now() + kFullSyncEvery;
    }
    if (!FollowWorlds(worlds)) {
      failed_();
      full = true;
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
    if (absl::Now() >= next_lags) {
      if (!MeasureLags()) {
        failed_();
        full = true;
      }
      next_lags = absl::Now() + kLagsEvery;
    }
  }
}

bool StoreFollower::FollowWorlds(const std::set<std::string>& ids) {
  if (worlds_ == nullptr) return true;
  bool ok = true;
  for (const std::string& id : ids) {
    if (stop_.load()) break;
    if (!worlds_->Follow(*follower_, id).ok()) ok = false;
  }
  return ok;
}

bool StoreFollower::MeasureLags() {
  // Held versions first: a map updated between the two reads then shows
  // behind (by what came meanwhile), never ahead.
  std::vector<std::pair<std::string, uint64_t>> held;
  for (const auto& snapshot : registry_->List()) {
    held.emplace_back(snapshot->id, snapshot->version);
  }
  absl::StatusOr<std::vector<std::pair<std::string, uint64_t>>> stored =
      follower_->StoredVersions();
  if (!stored.ok()) return false;
  std::sort(held.begin(), held.end());
  std::vector<std::pair<std::string, uint64_t>> lags;
  auto s = stored->begin();
  for (const auto& [id, version] : held) {
    while (s != stored->end() && s->first < id) ++s;
    // A held map the store no longer has is about to be dropped: no lag.
    const bool in_store = s != stored->end() && s->first == id;
    lags.emplace_back(
        id, in_store && s->second > version ? s->second - version : 0);
  }
  lags_(lags);
  return true;
}

}  // namespace gridstar::server
