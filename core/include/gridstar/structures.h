// The precomputed structures a map may carry, one per engine that has one:
// jps+'s jump table, alt's landmarks, hpa's abstraction, the subgoal graph
// and auto's measured choice. Each lives in its engine's folder
// (core/src/engines/<name>/) and is attached to the map in its engine's slot
// (core/src/map/attachment.h); these functions are what code outside the
// engines (the registry, the server, tools, tests) may do with them: build,
// repair for a new version, share between versions, and ask what a map
// holds. derived_data.h drives them as DerivedStructures; most callers want
// that.
//
// Thread-safety: the queries read an immutable map and may run anywhere.
// Build, Repair and Share write the map they are given, which must not yet
// be shared between threads. A structure that does not apply (a jump table
// on a map of mixed costs) is refused with FailedPrecondition naming it.

#ifndef GRIDSTAR_STRUCTURES_H_
#define GRIDSTAR_STRUCTURES_H_

#include <cstddef>
#include <cstdint>
#include <memory>
#include <vector>

#include "absl/status/status.h"
#include "absl/types/span.h"
#include "gridstar/auto_choice.h"
#include "gridstar/grid_map.h"
#include "gridstar/types.h"

namespace gridstar {

// --- jps+: jump distances (8 bytes a padded cell, in copy-on-write tiles).
// Precomputes them; FailedPrecondition unless map->uniform_cost().
absl::Status BuildJumpTable(GridMap* map);
// The table of `previous` (same size, with a table; any earlier version)
// repaired into *next for the cells of `rects` changed since: only the
// lines the changes reach are recomputed, only the tiles written are
// copied. FailedPrecondition unless both maps are uniform-cost (their costs
// may differ: the table depends only on which cells are passable);
// ResourceExhausted when tiles cannot be had.
absl::Status RepairJumpTable(const GridMap& previous,
                             absl::Span<const CellRect> rects, GridMap* next);
// *to takes from's table (shared). REQUIRES: from has one and the same
// passable cells.
void ShareJumpTable(const GridMap& from, GridMap* to);
bool HasJumpTable(const GridMap& map);
size_t JumpTableBytes(const GridMap& map);
// Bytes a table of a width x height map takes (whole blocks of tiles).
size_t JumpTableBytesFor(int32_t width, int32_t height);
// Both without a table, or both with equal tables.
bool JumpTableEquals(const GridMap& a, const GridMap& b);

// --- alt: landmarks for the differential heuristic (8 bytes a padded cell
// per landmark), h(n) = max(octile * min_cost, max over landmarks L of
// |d(L, goal) - d(L, n)|), for one policy. Chosen by farthest-point
// selection in the largest component.
inline constexpr int kMaxLandmarks = 32;
// InvalidArgument for count outside [1, kMaxLandmarks] or an unknown
// policy; FailedPrecondition when nothing is passable.
absl::Status BuildLandmarks(GridMap* map, int count, DiagonalPolicy policy);
// *to takes from's landmarks (shared): right while to's costs are no lower
// than from's anywhere (distances only grow). REQUIRES: same size.
void ShareLandmarks(const GridMap& from, GridMap* to);
int LandmarkCount(const GridMap& map);  // 0 without landmarks.
// REQUIRES: LandmarkCount(map) > 0.
DiagonalPolicy LandmarkPolicy(const GridMap& map);
// The landmark cells; empty without landmarks.
const std::vector<Cell>& LandmarkCells(const GridMap& map);
size_t LandmarkBytes(const GridMap& map);
// Both without landmarks, or both with the same cells and distances.
bool LandmarksEqual(const GridMap& a, const GridMap& b);

// --- hpa: the HPA* abstraction for one policy, on any map.
// InvalidArgument for an unknown policy.
absl::Status BuildHpa(GridMap* map, DiagonalPolicy policy);
// previous's abstraction with the clusters `rects` reach rebuilt.
// REQUIRES: HasHpa(previous), same size.
void RepairHpa(const GridMap& previous, absl::Span<const CellRect> rects,
               GridMap* next);
bool HasHpa(const GridMap& map);
DiagonalPolicy HpaPolicy(const GridMap& map);  // REQUIRES: HasHpa(map).
size_t HpaBytes(const GridMap& map);
// At least the bytes BuildHpa would take on `map`.
size_t HpaBytesFor(const GridMap& map);
bool HpaEquals(const GridMap& a, const GridMap& b);

// --- subgoal: the subgoal graph, on uniform-cost maps.
// FailedPrecondition unless map->uniform_cost().
absl::Status BuildSubgoalGraph(GridMap* map);
// *to takes from's graph (shared). REQUIRES: same passable cells.
void ShareSubgoalGraph(const GridMap& from, GridMap* to);
bool HasSubgoalGraph(const GridMap& map);
size_t SubgoalGraphBytes(const GridMap& map);
// Its subgoals and (directed) edges; 0 without a graph.
size_t SubgoalGraphNodes(const GridMap& map);
size_t SubgoalGraphEdges(const GridMap& map);
// An estimate of SubgoalGraphBytes after BuildSubgoalGraph, from a count of
// the subgoals (one pass): the bit lines, and per subgoal its records, its
// landmark distances and 80 edges (the shared maps average 3 to 20 edges a
// subgoal, the 8192 x 8192 world 68). 0 on maps of mixed costs.
size_t SubgoalGraphBytesFor(const GridMap& map);
bool SubgoalGraphEquals(const GridMap& a, const GridMap& b);

// --- auto: what kAuto runs on the map, measured (auto_choice.h); kept by
// every new version of the map (ApplyChanges carries it).
void SetAutoChoice(GridMap* map, std::shared_ptr<const AutoChoice> choice);
// Null when not measured (kAuto follows its rule).
const AutoChoice* AutoChoiceOf(const GridMap& map);
size_t AutoChoiceBytes(const GridMap& map);

}  // namespace gridstar

#endif  // GRIDSTAR_STRUCTURES_H_
