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
#include "gridstar/structures.h"

namespace gridstar::server {

// The map's opt-in structures, which its agent maps get too.
struct AgentMapsDerived {
  // Every uniform-cost agent map gets its jump table (jps+ and auto run
  // on it as on the view), built with the map and repaired with it.
  bool jump_table = false;
  // Landmarks (ALT) of every agent map under AgentPolicy(policy, size):
  // built with the map; kept through updates that only raise costs or
  // block cells; otherwise dropped from the repaired map (alt runs as
  // A* there) until RebuildLandmarks, which the registry runs in the
  // background as it does for the view.
  int landmarks = 0;
  DiagonalPolicy landmark_policy = DiagonalPolicy::kNoCornerCutting;
};

class AgentMaps {
 public:
  explicit AgentMaps(size_t max_classes, AgentMapsDerived derived = {})
      : max_classes_(max_classes), derived_(derived) {}

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
  // changed between this version's terrain and `terrain`), its jump table
  // with it, into `next` (empty). A class whose repair fails (a multiplied cost over 255 now)
  // is dropped from `next`; its next query answers the error.
  void RepairInto(const GridMap& terrain, absl::Span<const uint8_t> areas,
                  absl::Span<const CellRect> rects, AgentMaps* next) const;

  // True when some held map lacks the landmarks asked for.
  bool LandmarksPending() const;
  // Builds the missing landmarks (outside the lock) and installs them in
  // the maps still held.
  absl::Status RebuildLandmarks();

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

  // Builds `map`'s jump table and landmarks when asked for and possible.
  absl::Status AddDerived(const AgentClass& agent, GridMap* map) const;
  absl::Status AddLandmarks(const AgentClass& agent, GridMap* map) const;
  bool WantsLandmarks(const GridMap& map) const {
    return derived_.landmarks > 0 && LandmarkCount(map) == 0 &&
           map.passable_count() > 0;
  }

  const size_t max_classes_;
  const AgentMapsDerived derived_;
  mutable std::mutex mu_;
  std::vector<Entry> entries_;  // Few: a linear scan finds a class.
  uint64_t uses_ = 0;
  double build_micros_ = 0;
};

}  // namespace gridstar::server

#endif  // GRIDSTAR_SERVER_AGENTS_AGENT_MAPS_H_
