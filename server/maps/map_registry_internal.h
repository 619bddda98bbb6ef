// MapRegistry's per-id write lock, shared by the files that implement the
// registry (map_registry.cc, map_registry_follow.cc, map_registry_rebuild.cc).
// Not for other users.
#ifndef GRIDSTAR_SERVER_MAP_REGISTRY_INTERNAL_H_
#define GRIDSTAR_SERVER_MAP_REGISTRY_INTERNAL_H_

#include <memory>
#include <mutex>
#include <string>

#include "maps/map_registry.h"

namespace gridstar::server {

// Holds one map id's write lock for its lifetime.
class MapRegistry::WriteLock {
 public:
  WriteLock(MapRegistry* registry, const std::string& id)
      : registry_(registry), id_(id) {
    {
      std::lock_guard<std::mutex> lock(registry_->mu_);
      std::shared_ptr<WriteEntry>& e = registry_->writers_[id];
      if (e == nullptr) e = std::make_shared<WriteEntry>();
      ++e->users;
      entry_ = e;
    }
    entry_->mu.lock();
  }
  ~WriteLock() {
    entry_->mu.unlock();
    std::lock_guard<std::mutex> lock(registry_->mu_);
    if (--entry_->users == 0) registry_->writers_.erase(id_);
  }
  WriteLock(const WriteLock&) = delete;
  WriteLock& operator=(const WriteLock&) = delete;

 private:
  MapRegistry* const registry_;
  const std::string id_;
  std::shared_ptr<WriteEntry> entry_;
};

}  // namespace gridstar::server

#endif  // GRIDSTAR_SERVER_MAP_REGISTRY_INTERNAL_H_
