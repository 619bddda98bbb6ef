// FlowFieldCache: complete flow fields by (map id, version, goal, policy,
// max_cost), least recently used first out beyond a byte capacity.
//
// A key holds the map version, so a field of an older version is never
// served; DropMap frees a changed or deleted map's fields at once instead of
// waiting for them to age out.
//
// Thread-safety: every method may be called from any thread (one mutex, held
// only to look up, insert or evict; fields are shared, never copied).
#ifndef GRIDSTAR_SERVER_FLOW_FIELD_CACHE_H_
#define GRIDSTAR_SERVER_FLOW_FIELD_CACHE_H_

#include <cstddef>
#include <cstdint>
#include <list>
#include <map>
#include <memory>
#include <mutex>  // std::mutex: TSan sees it (Debian's Abseil is not instrumented).
#include <string>
#include <tuple>

#include "absl/base/thread_annotations.h"
#include "gridstar/agents.h"
#include "gridstar/flow_field.h"
#include "gridstar/query.h"
#include "gridstar/types.h"

namespace gridstar::server {

struct FlowFieldKey {
  std::string map_id;
  uint64_t version = 0;
  Cell goal;
  // Every part of the movement model and the agent class (canonical:
  // agents.h) is part of the key.
  MovementModel movement;
  double max_cost = 0;
  AgentClass agent;

  friend bool operator<(const FlowFieldKey& a, const FlowFieldKey& b) {
    return std::tie(a.map_id, a.version, a.goal.x, a.goal.y,
                    a.movement.diagonal, a.max_cost, a.agent.size,
                    a.agent.areas, a.agent.area_costs) <
           std::tie(b.map_id, b.version, b.goal.x, b.goal.y,
                    b.movement.diagonal, b.max_cost, b.agent.size,
                    b.agent.areas, b.agent.area_costs);
  }
};

class FlowFieldCache {
 public:
  explicit FlowFieldCache(size_t capacity_bytes) : capacity_(capacity_bytes) {}

  // The cached field, or null.
  std::shared_ptr<const FlowField> Find(const FlowFieldKey& key);
  // Keeps a complete field, evicting the least recently used beyond the
  // capacity. A field larger than the whole capacity is not kept.
  void Insert(const FlowFieldKey& key, std::shared_ptr<const FlowField> field);
  // Forgets every field of the map, whatever its version.
  void DropMap(const std::string& map_id);

  size_t bytes() const;
  size_t size() const;

 private:
  using Lru =
      std::list<std::pair<FlowFieldKey, std::shared_ptr<const FlowField>>>;
  void EraseLocked(Lru::iterator it) ABSL_EXCLUSIVE_LOCKS_REQUIRED(mu_);

  const size_t capacity_;
  mutable std::mutex mu_;
  Lru lru_ ABSL_GUARDED_BY(mu_);  // Most recently used first.
  std::map<FlowFieldKey, Lru::iterator> index_ ABSL_GUARDED_BY(mu_);
  size_t bytes_ ABSL_GUARDED_BY(mu_) = 0;
};

}  // namespace gridstar::server

#endif  // GRIDSTAR_SERVER_FLOW_FIELD_CACHE_H_
