// StoreFollower: the thread that keeps the maps a replica holds at the
// shared store's versions (--store=redis://...): it waits for writes made
// through any replica (MapStoreFollower::WaitForWrites) and brings each
// written map it holds here with MapRegistry::Follow (maps it does not hold
// are loaded on first use, MapRegistry::FindOrLoad), then tells the service
// (its caches and background repairs) which maps changed. Every 30 s, and
// after any store error, it also goes through every held id, so that a
// missed event (Redis restarted, the event stream trimmed past it) costs at
// most that delay. Every 5 s, after its pass, it measures how many versions
// each held map is behind the store (the store's version less the held one:
// 0 unless following it failed, e.g. a corrupt record) and reports them.
//
// Thread-safety: construct, then Stop() (or destroy) from one thread.

#ifndef GRIDSTAR_SERVER_STORE_FOLLOWER_H_
#define GRIDSTAR_SERVER_STORE_FOLLOWER_H_

#include <atomic>
#include <functional>
#include <memory>
#include <set>
#include <string>
#include <thread>
#include <utility>
#include <vector>

#include "maps/map_registry.h"
#include "maps/world_registry.h"
#include "store/map_store.h"

namespace gridstar::server {

class StoreFollower {
 public:
  using Changed = std::function<void(const std::string& id,
                                     const MapRegistry::Followed& what)>;
  // Each held map's id and versions behind the store, ordered by id.
  using Lags = std::function<void(
      const std::vector<std::pair<std::string, uint64_t>>& lags)>;
  // `changed` runs on the follower's thread for each map that changed here
  // (updated, installed or dropped); `failed` for each failed store call;
  // `lags` with every measurement of the held maps' lag.
  // `worlds` (null: none followed) is brought to the store's worlds too:
  // each world written elsewhere, and on every full pass each held and
  // each stored world.
  StoreFollower(MapRegistry* registry,
                std::unique_ptr<MapStoreFollower> follower, Changed changed,
                std::function<void()> failed, Lags lags,
                WorldRegistry* worlds = nullptr);
  ~StoreFollower() { Stop(); }
  StoreFollower(const StoreFollower&) = delete;
  StoreFollower& operator=(const StoreFollower&) = delete;

  // Ends the thread (within about a second: the longest wait for writes).
  void Stop();

 private:
  void Loop();
  // Measures and reports the lags; false when the store could not be asked.
  bool MeasureLags();

  // Follows the worlds named in `ids` ("world:<id>"); false on a store
  // error.
  bool FollowWorlds(const std::set<std::string>& ids);

  MapRegistry* const registry_;
  WorldRegistry* const worlds_;
  const std::unique_ptr<MapStoreFollower> follower_;
  const Changed changed_;
  const std::function<void()> failed_;
  const Lags lags_;
  std::atomic<bool> stop_{false};
  std::thread thread_;
};

}  // namespace gridstar::server

#endif  // GRIDSTAR_SERVER_STORE_FOLLOWER_H_
