// Agents: which cells a unit may occupy and what they cost it, as a map of
// its own (the "agent map") on which every search engine runs unchanged.
//
// Areas. Besides its cost, every cell of a map has an area id, 0 to
// kMaxAreas - 1, one byte per cell, row-major (kept beside the GridMap by
// its owner; an empty span means every cell is in area 0). Moving AI maps
// read with ParseMovingAiMapWithAreas (map_io.h) have ground (0), swamp
// (1), water (2) and trees (3).
//
// An AgentClass is what a query asks for: the areas the agent may enter (a
// bit mask), a cost multiplier per area (>= 1, so that heuristics scaled by
// the map's cheapest cost stay admissible), and its size k (1 to
// kMaxAgentSize): the agent occupies the k x k square whose top-left cell is
// its position.
//
// The agent map of (map, areas, class) has, for each cell c,
//   cost 0 (blocked) when some cell of the square at c is off the map,
//     blocked, or in an area outside the mask;
//   else the highest over the square's cells d of
//     round(cost(d) * area_costs[area(d)])  (halves rounded up),
//   which must not exceed 255 (InvalidArgument naming area_costs[i]).
// A search on the agent map under AgentPolicy(policy, k) is the search for
// the agent: a straight move needs the target square free; a diagonal move
// follows the query's policy on the filtered passability for k = 1, and for
// k >= 2 also keeps the squares of its two orthogonal neighbours free
// (a square sliding diagonally sweeps over both), so corner cutting runs as
// kNoCornerCutting. Move costs are find_path.h's on the agent map's costs;
// components of the agent map make the "no path" precheck exact for the
// class. Jump point search stays exact wherever the agent map is
// uniform-cost (any size).
//
// Building is O(cells x k): a maximum over k cells along each row, then
// over k of those along each column, a blocked cell counting above every
// cost, so the square's clearance and its dearest cell come out of the same
// two passes; rows are streamed, k at a time, so the build holds O(k x
// width) bytes besides the map. RepairAgentMap recomputes only the cells whose square meets
// a changed rectangle and applies them through ApplyChanges, which repairs
// components and bit lines locally.
//
// Thread-safety: pure functions of their arguments; the maps they return
// are immutable like any GridMap.

#ifndef GRIDSTAR_AGENTS_H_
#define GRIDSTAR_AGENTS_H_

#include <array>
#include <cstddef>
#include <cstdint>
#include <string>
#include <vector>

#include "absl/functional/function_ref.h"
#include "absl/status/status.h"
#include "absl/status/statusor.h"
#include "absl/strings/string_view.h"
#include "absl/types/span.h"
#include "gridstar/grid_map.h"
#include "gridstar/map_update.h"
#include "gridstar/types.h"

namespace gridstar {

inline constexpr int kMaxAreas = 64;
inline constexpr int32_t kMaxAgentSize = 8;
inline constexpr uint64_t kAllAreas = ~uint64_t{0};

// The areas of Moving AI maps (HOG2's terrain types), and the default filter
// under which such a map searches exactly as ParseMovingAiMap reads it.
inline constexpr uint8_t kGroundArea = 0;
inline constexpr uint8_t kSwampArea = 1;
inline constexpr uint8_t kWaterArea = 2;
inline constexpr uint8_t kTreesArea = 3;
inline constexpr uint64_t kMovingAiDefaultAreas =
    (uint64_t{1} << kGroundArea) | (uint64_t{1} << kSwampArea);

struct AgentClass {
  // Bit i set: the agent may enter area i.
  uint64_t areas = kAllAreas;
  // Cost multiplier per area, each >= 1 and finite.
  std::array<double, kMaxAreas> area_costs = UnitAreaCosts();
  // Side of the square the agent occupies, 1 to kMaxAgentSize.
  int32_t size = 1;

  static constexpr std::array<double, kMaxAreas> UnitAreaCosts() {
    std::array<double, kMaxAreas> costs{};
    for (double& c : costs) c = 1;
    return costs;
  }
  friend bool operator==(const AgentClass& a, const AgentClass& b) {
    return a.areas == b.areas && a.area_costs == b.area_costs &&
           a.size == b.size;
  }
  friend bool operator!=(const AgentClass& a, const AgentClass& b) {
    return !(a == b);
  }
};

// OkStatus when size and area_costs are in range; else InvalidArgument
// naming "<field>.agent_size" or "<field>.area_costs[i]" (field may be
// empty: then "agent_size", "area_costs[i]").
absl::Status ValidateAgentClass(const AgentClass& agent,
                                absl::string_view field = "");

// OkStatus when `areas` is empty or holds width * height ids below
// kMaxAreas; else InvalidArgument naming `field` (and the first bad cell).
absl::Status ValidateAreas(int32_t width, int32_t height,
                           absl::Span<const uint8_t> areas,
                           absl::string_view field);

// Bit i set when some passable cell is in area i.
uint64_t AreasPresent(const GridMap& map, absl::Span<const uint8_t> areas);

// True when the agent map would equal `map` itself: size 1, every area of
// `present` (AreasPresent) allowed and at multiplier 1. Owners then search
// the map as it is.
bool AgentSeesMapAsIs(const AgentClass& agent, uint64_t present);

// The class that sees the map as `agent` does, written one way only: areas
// not in `present` dropped from the mask, multipliers of areas the class
// cannot enter (or the map does not have) set to 1. Two classes of equal
// canonical form have equal agent maps; use it as a cache key.
AgentClass CanonicalAgentClass(const AgentClass& agent, uint64_t present);

// The policy a search for an agent of `size` runs under (see the top).
DiagonalPolicy AgentPolicy(DiagonalPolicy policy, int32_t size);

// The agent map's costs, row-major. REQUIRES: ValidateAgentClass and
// ValidateAreas passed. InvalidArgument naming area_costs[i] when a cost
// times its multiplier exceeds 255.
absl::StatusOr<std::vector<uint8_t>> AgentCosts(
    const GridMap& map, absl::Span<const uint8_t> areas,
    const AgentClass& agent);

// Every cell of [min.x, max.x) x [min.y, max.y) gets area `area`.
struct AreaChange {
  Cell min;
  Cell max;
  uint8_t area = 0;

  friend bool operator==(const AreaChange& a, const AreaChange& b) {
    return a.min == b.min && a.max == b.max && a.area == b.area;
  }
};

// OkStatus when every change is a non-empty rectangle inside the map with
// an area below kMaxAreas; else InvalidArgument naming field_of(index).
absl::Status ValidateAreaChanges(
    int32_t width, int32_t height, absl::Span<const AreaChange> changes,
    absl::FunctionRef<std::string(size_t)> field_of);

// Applies `changes` in order to row-major areas of a map `width` wide.
// REQUIRES: ValidateAreaChanges passed; areas.size() is the map's cells.
void ApplyAreaChanges(int32_t width, absl::Span<const AreaChange> changes,
                      absl::Span<uint8_t> areas);

// The agent map (components and bit lines as any GridMap; no opt-in
// structure). Same REQUIRES and errors as AgentCosts.
absl::StatusOr<GridMap> BuildAgentMap(const GridMap& map,
                                      absl::Span<const uint8_t> areas,
                                      const AgentClass& agent);

// The agent map of (map, areas, agent) from `previous`, the agent map of an
// earlier version of the same size (FailedPrecondition otherwise), when the cells whose cost or area
// changed since are all inside `rects`. Costs what the rectangles (grown by
// size - 1 up and left) cover, not what the map holds; *summary (optional)
// says what changed in the agent map. Same REQUIRES and errors as
// AgentCosts, and ApplyChanges's.
absl::StatusOr<GridMap> RepairAgentMap(const GridMap& previous,
                                       const GridMap& map,
                                       absl::Span<const uint8_t> areas,
                                       const AgentClass& agent,
                                       absl::Span<const CellRect> rects,
                                       ChangeSummary* summary = nullptr);

}  // namespace gridstar

#endif  // GRIDSTAR_AGENTS_H_
