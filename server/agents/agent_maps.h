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
#include <string>
#include <vector>

#include "absl/status/statusor.h"
#include "absl/types/span.h"
#include "gridstar/agents.h"
#include "gridstar/derived_data.h"
#include "gridstar/grid_map.h"

namespace gridstar::server {

class AgentMaps {
 public:
  // `derived`: the map's opt-in structures (MapOptions::derived), which
  // every agent map gets too, each where it applies (derived_data.h), under
  // the class's policy (AgentPolicy: landmarks and the HPA* abstraction of
  // a class of size k >= 2 serve its no-corner-cutting searches). Built
  // with the map; an update repairs them with it as the view's are:
  // what is slow to repair (DerivedOptions::defer_slow_repairs: the jump
  // table, landmarks to rebuild, the subgoal graph) is left out of the
  // repaired map (their engines run what they stand in for there) until
  // FinishPending, which the registry's background job runs as it does for
  // the view, from the newest map that had them. Auto's measurement is the
  // view's alone.
  explicit AgentMaps(size_t max_classes, DerivedOptions derived = {})
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
  // changed between this version's terrain and `terrain`), its structures
  // with it, into `next` (empty). A class whose repair fails (a multiplied cost
  // over 255 now) is dropped from `next`; its next query answers the error.
  void RepairInto(const GridMap& terrain, absl::Span<const uint8_t> areas,
                  absl::Span<const CellRect> rects, AgentMaps* next) const;

  // True when some held map waits for a structure left out of its repair.
  bool Pending() const;
  // Builds what the held maps wait for (outside the lock) and installs it
  // in the maps still held.
  absl::Status FinishPending();

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
    // Structures left out of map's repairs (derived_data.h).
    PendingStructures pending;
  };
  // REQUIRES: mu_ held.
  Entry* FindLocked(const AgentClass& agent);
  void InsertLocked(Entry entry);

  // The structures asked for, under `agent`'s policy; `deferring` leaves
  // what is slow to repair for FinishPending.
  DerivedOptions OptionsFor(const AgentClass& agent, bool deferring) const;

  const size_t max_classes_;
  const DerivedOptions derived_;
  mutable std::mutex mu_;
  std::vector<Entry> entries_;  // Few: a linear scan finds a class.
  uint64_t uses_ = 0;
  double build_micros_ = 0;
};

}  // namespace gridstar::server

#endif  // GRIDSTAR_SERVER_AGENTS_AGENT_MAPS_H_
