// AgentMaps: the agent maps (core/include/gridstar/agents.h) one version of
// a registered map holds, one per class of agent its queries asked for.
//
// A map version's searches under its default areas at size 1 run on the
// snapshot's own map; every other class (other areas, area costs, a size
// above 1) runs on an agent map built from the version's terrain and areas.
// Agent maps are built on first use and kept: up to `max_classes` per map
// version besides the pinned ones (the default areas at sizes 2 to
// max_agent_size, built at registration), the least recently used dropped
// beyond. The next version (an update) gets every kept map repaired for the
// changed rectangles (RepairInto), so a class stays ready through updates at
// the cost of the change, not of the map.
//
// Thread-safety: every method may be called from any thread. Get builds
// outside the lock: two first queries of one class may both build, and one
// result is kept.
#ifndef GRIDSTAR_SERVER_AGENTS_AGENT_MAPS_H_
#define GRIDSTAR_SERVER_AGENTS_AGENT_MAPS_H_

#include <cstddef>
#include <cstdint>
#include <memory>
#include <mutex>
#include <vector>

#include "absl/status/statusor.h"
#include "absl/types/span.h"
#include "gridstar/agents.h"
#include "gridstar/grid_map.h"

namespace gridstar::server {

class AgentMaps {
 public:
  explicit AgentMaps(size_t max_classes) : max_classes_(max_classes) {}

  // The agent map of `agent` (REQUIRES: canonical for `present` and
  // validated) over `terrain` and `areas`, built now when not held.
  // AgentCosts's errors (a multiplied cost over 255). `built_micros`
  // (optional) gets the build time, 0 when it was held.
  absl::StatusOr<std::shared_ptr<const GridMap>> Get(
      const AgentClass& agent, const GridMap& terrain,
      absl::Span<const uint8_t> areas, double* built_micros = nullptr);

  // Builds and pins `agent`'s map (kept whatever max_classes says).
  absl::Status Pin(const AgentClass& agent, const GridMap& terrain,
                   absl::Span<const uint8_t> areas);

  // Every held map repaired for the cells of `rects` (whose costs or areas
  // changed between this version's terrain and `terrain`), into `next`
  // (empty). A class whose repair fails (a multiplied cost over 255 now)
  // is dropped from `next`; its next query answers the error.
  void RepairInto(const GridMap& terrain, absl::Span<const uint8_t> areas,
                  absl::Span<const CellRect> rects, AgentMaps* next) const;

  size_t count() const;
  size_t bytes() const;
  // Time spent building (Get, Pin) or repairing (RepairInto) maps held.
  double build_micros() const;

 private:
  struct Entry {
    AgentClass agent;
    std::shared_ptr<const GridMap> map;
    bool pinned = false;
    uint64_t last_used = 0;
  };
  // REQUIRES: mu_ held.
  Entry* FindLocked(const AgentClass& agent);
  void InsertLocked(Entry entry);

  const size_t max_classes_;
  mutable std::mutex mu_;
  std::vector<Entry> entries_;  // Few: a linear scan finds a class.
  uint64_t uses_ = 0;
  double build_micros_ = 0;
};

}  // namespace gridstar::server

#endif  // GRIDSTAR_SERVER_AGENTS_AGENT_MAPS_H_
