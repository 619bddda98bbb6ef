// TimedStore: a MapStore that forwards every call to another and reports how
// long each write took to be made durable (acknowledged by the store: a
// directory's fdatasync, Redis's answer after its own fsync and replicas),
// so that an operator can tell a slow disk from a slow server
// (gridstar_store_write_seconds). CompactWorld is forwarded untimed: it is
// called after every world write and most calls only look at a size.
//
// Thread-safety: as the store it wraps; `report` is called from the writing
// thread and must be safe to call from any thread.

#ifndef GRIDSTAR_SERVER_STORE_TIMED_STORE_H_
#define GRIDSTAR_SERVER_STORE_TIMED_STORE_H_

#include <functional>
#include <memory>
#include <string>
#include <vector>

#include "store/map_store.h"

namespace gridstar::server {

// What a timed write was.
enum class StoreWrite {
  kMap,      // Put: a map registered or replaced whole.
  kUpdate,   // AppendUpdate: one UpdateCells.
  kWorld,    // PutWorld: a world registered, replaced or its links changed.
  kDelete,   // Delete or DeleteWorld.
  kCompact,  // Compact: a map's updates folded in (after the answer).
};
// Every kind, in the enum's order.
inline constexpr StoreWrite kStoreWrites[] = {
    StoreWrite::kMap, StoreWrite::kUpdate, StoreWrite::kWorld,
    StoreWrite::kDelete, StoreWrite::kCompact};

// The label value of each kind ("map", "update", "world", "delete",
// "compact").
const char* StoreWriteName(StoreWrite write);

class TimedStore final : public MapStore {
 public:
  // Called after each write, failed or not, with its wall time in seconds.
  using Report = std::function<void(StoreWrite, double seconds)>;

  // REQUIRES: inner is not null.
  TimedStore(std::unique_ptr<MapStore> inner, Report report);

  absl::StatusOr<std::unique_ptr<MapStoreFollower>> NewFollower() override {
    return inner_->NewFollower();
  }
  absl::Status LoadAll(std::vector<StoredMap>* maps,
                       std::vector<std::string>* errors) override {
    return inner_->LoadAll(maps, errors);
  }
  absl::Status Put(const StoredMap& map) override;
  absl::Status Delete(const std::string& id) override;
  absl::Status AppendUpdate(const StoredUpdate& update) override;
  bool WantsCompaction(const std::string& id) const override {
    return inner_->WantsCompaction(id);
  }
  absl::Status Compact(const StoredMap& map) override;
  absl::Status LoadWorlds(std::vector<StoredWorld>* worlds,
                          std::vector<std::string>* errors) override {
    return inner_->LoadWorlds(worlds, errors);
  }
  absl::Status PutWorld(const StoredWorld& world) override;
  absl::Status CompactWorld(const StoredWorld& world) override;
  absl::Status DeleteWorld(const std::string& id) override;

 private:
  // Runs `write` and reports its time as `kind`.
  template <typename Write>
  absl::Status Timed(StoreWrite kind, Write write);

  std::unique_ptr<MapStore> inner_;
  Report report_;
};

}  // namespace gridstar::server

#endif  // GRIDSTAR_SERVER_STORE_TIMED_STORE_H_
