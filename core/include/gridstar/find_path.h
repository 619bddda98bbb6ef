// FindPath: the one entry point of the search library.
//
// FindPath(map, query, context) is a pure function of the map and the query;
// the context only lends it memory (see search_context.h). The algorithm,
// diagonal policy, budgets, snapping and smoothing are all fields of the
// query.
//
// Moves: the four straight moves, plus the four diagonals as the query's
// DiagonalPolicy allows. A move from a to b costs step * (cost(a) + cost(b)) /
// 2 with step 1 (straight) or sqrt(2) (diagonal), so a path costs the same in
// both directions and, on maps of cost-1 cells, its cost is its octile length.
//
// Errors, chosen by what the caller should do:
//   InvalidArgument    a malformed query: an end off the map or blocked (and
//                      not snapped), a weight or snap radius out of range.
//   NotFound           the ends are valid but no path joins them (different
//                      components). Decided without searching.
//   ResourceExhausted  the map is larger than the context's capacity.
// Running out of the budget (query.h) is not an error: the result is the
// path to the expanded cell closest to the goal (by the heuristic distance),
// with `partial` set; StopStatus words its reason for callers that want one.
//
// Thread-safety: any number of threads may search one GridMap at once, each
// with its own SearchContext.

#ifndef GRIDSTAR_FIND_PATH_H_
#define GRIDSTAR_FIND_PATH_H_

#include <cstdint>
#include <vector>

#include "absl/status/status.h"
#include "absl/status/statusor.h"
#include "gridstar/grid_map.h"
#include "gridstar/query.h"
#include "gridstar/search_context.h"
#include "gridstar/types.h"

namespace gridstar {

// Limits of the query fields.
inline constexpr double kMaxWeight = 100.0;
inline constexpr int32_t kMaxSnapRadius = 256;

struct PathQuery {
  Cell start;
  Cell goal;
  Algorithm algorithm = Algorithm::kAStar;
  // Heuristic weight of kWeighted, in [1, kMaxWeight]; ignored otherwise.
  double weight = 1.5;
  MovementModel movement;
  // Out of budget, the result is the path to the expanded cell closest to
  // the goal, flagged partial (see PathResult::partial_reason).
  SearchBudget budget;
  // A blocked or off-map start or goal moves to the nearest passable cell
  // (Euclidean, preferring cells reachable from the other end) within this
  // Chebyshev radius, in [0, kMaxSnapRadius]; 0 means no snapping.
  int32_t snap_radius = 0;
  // Also string-pull the path into line-of-sight waypoints. (kTheta's
  // waypoints are any-angle already: smooth changes nothing there.)
  bool smooth = false;
  // Also record the cells the search expanded, in order, in
  // PathResult::trace. Off by default; off costs nothing measurable.
  bool trace = false;
};

struct PathResult {
  // Cells from start to goal (or to the best cell reached, when partial),
  // each a legal move from the one before. Both ends included.
  std::vector<Cell> cells;
  // Sum of the move costs along `cells`.
  double cost = 0;
  // With `smooth`: the waypoints (both ends included) of the string-pulled
  // path, and its true cost (each segment's length through each cell times
  // that cell's cost). Never more than `cost`. For kTheta (smooth or not):
  // the any-angle path and its true cost, never more than the optimal grid
  // path's cost.
  std::vector<Cell> waypoints;
  double smoothed_cost = 0;
  // For kTheta, `cells` are the cells the any-angle segments cross, each a
  // legal move from the one before, and `cost` their grid cost.
  // The search that ran: the query's algorithm, or what ResolveAlgorithm
  // made of it for this map, policy and goal: kJps and kJpsPlus run as
  // kJpsPlus, kJps or kAStar; kAlt as kAlt or kAStar; kSubgoal as kSubgoal
  // or what kJpsPlus would; kHpa as kHpa or what kAuto would; kAuto as the
  // measured choice where it still applies (kJpsPlus, kJps, kAlt, kSubgoal,
  // kAStar or kBidirectional), else as its rule (kJpsPlus, kJps, kAlt or
  // kAStar).
  Algorithm algorithm = Algorithm::kAStar;
  // Cells (jump points, for jps; entrances, for hpa) taken off the open
  // list, and put on it. For hpa the cluster-local searches that join the
  // ends to the entrances and refine the path (at most a few cluster-sized
  // searches) are not counted, nor limited by max_expansions.
  uint64_t expanded = 0;
  uint64_t generated = 0;
  bool partial = false;
  PartialReason partial_reason = PartialReason::kNone;
  // The ends actually searched, after snapping.
  Cell start;
  Cell goal;
  bool start_snapped = false;
  bool goal_snapped = false;
  // With `trace`: each cell the search took off its open list, in the order
  // it did (jump points for jps and jps+; entrance cells of the abstract
  // search for hpa, after the cells of its near-ends search when that one
  // ran; both directions interleaved for bidirectional). Empty when the
  // start is the goal.
  std::vector<Cell> trace;
  // Wall time of the whole call, in microseconds.
  double micros = 0;
};

// InvalidArgument naming the field for an algorithm outside the enum, or a
// kWeighted weight outside [1, kMaxWeight]. Shared by every query that names
// an algorithm.
absl::Status ValidateAlgorithm(Algorithm algorithm, double weight);

// The checks FindPath makes of the query's own fields before it looks at the
// map: ValidateAlgorithm, ValidateMovement and the snap radius.
// InvalidArgument naming the field. Callers that validate ahead of a search
// (the server) use it so that their messages are FindPath's.
absl::Status ValidatePathQuery(const PathQuery& query);

// The search FindPath runs for `query` on `map`: the query's algorithm, with
// kJps, kJpsPlus, kAuto and kAlt resolved as types.h describes (for the goal
// as given; FindPath resolves again after snapping).
Algorithm ResolveAlgorithm(const GridMap& map, const PathQuery& query);

// Searches as described above, writing into *result and reusing its vectors'
// capacity, so that repeated searches allocate nothing.
absl::Status FindPath(const GridMap& map, const PathQuery& query,
                      SearchContext& context, PathResult* result);

// The same, returning a fresh result.
absl::StatusOr<PathResult> FindPath(const GridMap& map, const PathQuery& query,
                                    SearchContext& context);

// The cost of one move from a to b under the cost model above, or -1 when
// the move is not legal under `policy` (not adjacent, an end blocked or off
// the map, or a diagonal the policy forbids). Tests and tools use it to check
// paths.
double MoveCost(const GridMap& map, Cell a, Cell b, DiagonalPolicy policy);

// Sum of MoveCost along a path, or -1 if any move is illegal.
double PathCost(const GridMap& map, const std::vector<Cell>& cells,
                DiagonalPolicy policy);

}  // namespace gridstar

#endif  // GRIDSTAR_FIND_PATH_H_
