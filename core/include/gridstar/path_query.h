// PathQuery and PathResult: what one path search is asked and what it
// answers, apart from the search itself (find_path.h), so that engines and
// planners can name them without the entry point above them.
//
// Thread-safety: plain values (a query's budget may point at a cancellation
// flag another thread sets: query.h).

#ifndef GRIDSTAR_PATH_QUERY_H_
#define GRIDSTAR_PATH_QUERY_H_

#include <cstdint>
#include <vector>

#include "gridstar/query.h"
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
  // or what kJpsPlus would; kContraction as kContraction or what kSubgoal
  // would (and kSubgoal when its budget runs out: its partial answer);
  // kHpa as kHpa or what kAuto would; kAuto as the measured choice where it
  // still applies (kJpsPlus, kJps, kAlt, kSubgoal, kContraction, kAStar or
  // kBidirectional), else as its rule (kJpsPlus, kJps, kAlt or kAStar).
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

}  // namespace gridstar

#endif  // GRIDSTAR_PATH_QUERY_H_
