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

// The algorithms, each described in algorithms.inc.
enum class Algorithm : uint8_t {
#define GRIDSTAR_ALGORITHM(enumerator, value, name, optimal, any_angle) enumerator = value,
#include "gridstar/algorithms.inc"
#undef GRIDSTAR_ALGORITHM
};

inline constexpr Algorithm kAllAlgorithms[] = {
#define GRIDSTAR_ALGORITHM(enumerator, value, name, optimal, any_angle) Algorithm::enumerator,
#include "gridstar/algorithms.inc"
#undef GRIDSTAR_ALGORITHM
};

// True for algorithms that promise optimal paths.
constexpr bool IsOptimal(Algorithm a) {
  switch (a) {
#define GRIDSTAR_ALGORITHM(enumerator, value, name, optimal, any_angle) \
  case Algorithm::enumerator:                               \
    return optimal;
#include "gridstar/algorithms.inc"
#undef GRIDSTAR_ALGORITHM
  }
  return false;
}

// True for algorithms whose answer is an any-angle path (PathResult::
// waypoints and smoothed_cost, whether or not the query asked to smooth).
constexpr bool IsAnyAngle(Algorithm a) {
  switch (a) {
#define GRIDSTAR_ALGORITHM(enumerator, value, name, optimal, any_angle) \
  case Algorithm::enumerator:                                          \
    return any_angle;
#include "gridstar/algorithms.inc"
#undef GRIDSTAR_ALGORITHM
  }
  return false;
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
