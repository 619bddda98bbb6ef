#include "store/timed_store.h"

#include <chrono>
#include <utility>

namespace gridstar::server {

const char* StoreWriteName(StoreWrite write) {
  switch (write) {
    case StoreWrite::kMap:
      return "map";
    case StoreWrite::kUpdate:
      return "update";
    case StoreWrite::kWorld:
      return "world";
    case StoreWrite::kDelete:
      return "delete";
    case StoreWrite::kCompact:
      return "compact";
  }
  return "unknown";
}

TimedStore::TimedStore(std::unique_ptr<MapStore> inner, Report report)
    : inner_(std::move(inner)), report_(std::move(report)) {}

template <typename Write>
absl::Status TimedStore::Timed(StoreWrite kind, Write write) {
  const auto started = std::chrono::steady_clock::now();
  absl::Status s = write();
  report_(kind, std::chrono::duration<double>(std::chrono::steady_clock::now() -
                                              started)
                    .count());
  return s;
}

absl::Status TimedStore::Put(const StoredMap& map) {
  return Timed(StoreWrite::kMap, [&] { return inner_->Put(map); });
}

absl::Status TimedStore::Delete(const std::string& id) {
  return Timed(StoreWrite::kDelete, [&] { return inner_->Delete(id); });
}

absl::Status TimedStore::AppendUpdate(const StoredUpdate& update) {
  return Timed(StoreWrite::kUpdate,
               [&] { return inner_->AppendUpdate(update); });
}

absl::Status TimedStore::Compact(const StoredMap& map) {
  return Timed(StoreWrite::kCompact, [&] { return inner_->Compact(map); });
}

absl::Status TimedStore::PutWorld(const StoredWorld& world) {
  return Timed(StoreWrite::kWorld, [&] { return inner_->PutWorld(world); });
}

absl::Status TimedStore::CompactWorld(const StoredWorld& world) {
  // Called after every world write, most often to find nothing to fold:
  // not timed (the rewrites it makes are rare and after the answer).
  return inner_->CompactWorld(world);
}

absl::Status TimedStore::DeleteWorld(const std::string& id) {
  return Timed(StoreWrite::kDelete, [&] { return inner_->DeleteWorld(id); });
}

}  // namespace gridstar::server
