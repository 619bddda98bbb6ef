// Small value types shared by the whole core API: cells, diagonal policies and
// algorithm names.
//
// Thread-safety: plain values; the functions here are pure and thread-safe.

#ifndef GRIDSTAR_TYPES_H_
#define GRIDSTAR_TYPES_H_

#include <cstdint>
#include <string>

#include "absl/status/statusor.h"
#include "absl/strings/string_view.h"

namespace gridstar {

// A cell of a grid: x is the column (0 = left), y the row (0 = first row).
struct Cell {
  int32_t x = 0;
  int32_t y = 0;

  friend bool operator==(Cell a, Cell b) { return a.x == b.x && a.y == b.y; }
  friend bool operator!=(Cell a, Cell b) { return !(a == b); }
};

// The cells [min.x, max.x) x [min.y, max.y).
struct CellRect {
  Cell min;
  Cell max;

  friend bool operator==(const CellRect& a, const CellRect& b) {
    return a.min == b.min && a.max == b.max;
  }
};

// Which of the four diagonal moves a search may take. Straight moves need
// only the target cell passable.
enum class DiagonalPolicy : uint8_t {
  // 4-connected: no diagonal moves at all.
  kNever = 0,
  // A diagonal needs both orthogonal cells it passes passable (the Moving AI
  // benchmark rule). The default.
  kNoCornerCutting = 1,
  // A diagonal needs at least one of the two orthogonal cells passable.
  kAllowCornerCutting = 2,
};

// The eight moves, numbered as flow fields report them: E, W, S, N, SE, SW,
// NE, NW (straight moves first).
inline constexpr int32_t kMoveDx[8] = {1, -1, 0, 0, 1, -1, 1, -1};
inline constexpr int32_t kMoveDy[8] = {0, 0, 1, -1, 1, 1, -1, -1};

inline constexpr DiagonalPolicy kAllDiagonalPolicies[] = {
    DiagonalPolicy::kNever, DiagonalPolicy::kNoCornerCutting,
    DiagonalPolicy::kAllowCornerCutting};

enum class Algorithm : uint8_t {
  // A* with the octile (8-connected) or Manhattan (4-connected) heuristic,
  // scaled by the map's cheapest cost. Optimal.
  kAStar = 0,
  // f = g + w * h with w >= 1: cost within w times the optimum.
  kWeighted = 1,
  // Uniform-cost search (no heuristic). Optimal.
  kDijkstra = 2,
  // The textbook design kept as the benchmark yardstick: std::priority_queue
  // with duplicates and lazy deletion. Optimal, deliberately plain.
  kBaseline = 3,
  // Jump point search: A* over jump points, scanning the map's bit lines a
  // word at a time. Exact on uniform-cost maps under kNoCornerCutting; any
  // other map or policy runs kAStar (PathResult::algorithm says which ran).
  kJps = 4,
  // Jump point search over the map's precomputed jump distances
  // (GridMap::BuildJumpTable); kJps when the map has none.
  kJpsPlus = 5,
  // The fastest exact algorithm for the map and query: the engine measured
  // fastest on the map (GridMap::auto_choice, auto_choice.h) when the query
  // is under the measured policy and the engine applies to it; else, by
  // rule, kJpsPlus, else kJps, else kAlt, else kAStar.
  kAuto = 6,
  // A* with the differential heuristic of the map's landmarks
  // (GridMap::BuildLandmarks) when they were built for the query's policy
  // and reach its goal; kAStar otherwise.
  kAlt = 7,
  // Bidirectional A*: A* from the start and from the goal at once, each
  // step on the side with fewer open cells, until no path left unseen can
  // beat the best meeting found. Optimal, on every map and policy.
  kBidirectional = 8,
  // HPA* (hierarchical A*) on the map's abstraction (GridMap::BuildHpa) for
  // the query's policy: bounded-suboptimal, not exact (see core/src/engines/hpa/hpa.h and
  // docs/performance.md for how far from optimal it runs); what kAuto runs when the map
  // has no abstraction for the policy. Never chosen by kAuto.
  kHpa = 9,
  // Theta* (lazy, theta.cc): any-angle paths whose segments keep to passable
  // cells under the policy's corner rule. PathResult::waypoints and
  // smoothed_cost are the any-angle path and its true cost (never above the
  // optimal grid path's cost, nor above A* + smooth's: FindPath answers with
  // the string-pulled A* path where that one is cheaper); cells are the cells
  // its segments cross. Not exact (as a grid path or as an any-angle path);
  // never chosen by kAuto.
  kTheta = 10,
  // Subgoal graph search (Uras, Koenig & Hernandez 2013) with landmarks
  // over the graph, on the map's subgoal graph (GridMap::
  // BuildSubgoalGraph; core/src/engines/subgoal/subgoal_graph.h): optimal, for
  // huge uniform-cost maps under kNoCornerCutting. Without a graph (another
  // policy, a map of mixed costs, or a version whose graph is still being
  // rebuilt after an update) it runs what kJpsPlus would (PathResult::
  // algorithm says which ran).
  kSubgoal = 11,
};

inline constexpr Algorithm kAllAlgorithms[] = {
    Algorithm::kAStar,    Algorithm::kWeighted, Algorithm::kDijkstra,
    Algorithm::kBaseline, Algorithm::kJps,      Algorithm::kJpsPlus,
    Algorithm::kAuto,     Algorithm::kAlt,      Algorithm::kBidirectional,
    Algorithm::kHpa,      Algorithm::kTheta,    Algorithm::kSubgoal};

// True for algorithms that promise optimal paths.
constexpr bool IsOptimal(Algorithm a) {
  return a != Algorithm::kWeighted && a != Algorithm::kHpa &&
         a != Algorithm::kTheta;
}

// The one vocabulary of every enum of the API (algorithms, diagonal
// policies, group methods, watch actions and reasons), in the CLI, the C++
// and Python clients and the server's messages alike.
//
// Printed: the canonical name, the proto enum value's name without its
// prefix, lower case, words joined by '-', a trailing PLUS as '+':
// "jps+", "no-corner-cutting", "flow-field", "off-path".
// Read: any case; words joined by '-', '_' or ' '; "+" or "_plus"; with or
// without the proto prefix. "jps+", "jps_plus", "JPS_PLUS" and
// "ALGORITHM_JPS_PLUS" are one value.
//
// NormalizeEnumName: the reading rule, as lower snake case without `prefix`
// ("ALGORITHM_JPS_PLUS", "algorithm_" -> "jps_plus"). CanonicalEnumName: the
// printed form of any accepted spelling ("JPS_PLUS" -> "jps+").
std::string NormalizeEnumName(absl::string_view text, absl::string_view prefix);
std::string CanonicalEnumName(absl::string_view text, absl::string_view prefix);

// Canonical names: "astar", "weighted", "dijkstra", "baseline", "jps",
// "jps+", "auto", "alt", "bidirectional", "hpa", "theta", "subgoal";
// "never", "no-corner-cutting", "allow-corner-cutting".
absl::string_view AlgorithmName(Algorithm a);
absl::string_view DiagonalPolicyName(DiagonalPolicy p);

// Parses every spelling above; InvalidArgument (listing the canonical
// names) otherwise.
absl::StatusOr<Algorithm> ParseAlgorithm(absl::string_view name);
absl::StatusOr<DiagonalPolicy> ParseDiagonalPolicy(absl::string_view name);

}  // namespace gridstar

#endif  // GRIDSTAR_TYPES_H_
