#include "maps/flow_field_cache.h"

#include <utility>

namespace gridstar::server {

std::shared_ptr<const FlowField> FlowFieldCache::Find(const FlowFieldKey& key) {
  std::lock_guard<std::mutex> lock(mu_);
  auto it = index_.find(key);
  if (it == index_.end()) return nullptr;
  lru_.splice(lru_.begin(), lru_, it->second);
  return it->second->second;
}

void FlowFieldCache::Insert(const FlowFieldKey& key,
                            std::shared_ptr<const FlowField> field) {
  const size_t size = field->MemoryBytes();
  if (!field->complete() || size > capacity_) return;
  std::lock_guard<std::mutex> lock(mu_);
  if (auto it = index_.find(key); it != index_.end()) EraseLocked(it->second);
  lru_.emplace_front(key, std::move(field));
  index_[key] = lru_.begin();
  bytes_ += size;
  while (bytes_ > capacity_) EraseLocked(std::prev(lru_.end()));
}

void FlowFieldCache::DropMap(const std::string& map_id) {
  std::lock_guard<std::mutex> lock(mu_);
  FlowFieldKey first;
  first.map_id = map_id;
  first.version = 0;
  first.goal = {INT32_MIN, INT32_MIN};
  first.movement.diagonal = DiagonalPolicy::kNever;
  first.max_cost = -1;
  auto it = index_.lower_bound(first);
  while (it != index_.end() && it->first.map_id == map_id) {
    EraseLocked((it++)->second);
  }
}

void FlowFieldCache::EraseLocked(Lru::iterator it) {
  bytes_ -= it->second->MemoryBytes();
  index_.erase(it->first);
  lru_.erase(it);
}

size_t FlowFieldCache::bytes() const {
  std::lock_guard<std::mutex> lock(mu_);
  return bytes_;
}

size_t FlowFieldCache::size() const {
  std::lock_guard<std::mutex> lock(mu_);
  return index_.size();
}

}  // namespace gridstar::server
