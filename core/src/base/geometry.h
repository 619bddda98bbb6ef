// Distances on the grid, shared by the engines, group paths and smoothing.
//
// Pure functions; thread-safe.

#ifndef GRIDSTAR_SRC_BASE_GEOMETRY_H_
#define GRIDSTAR_SRC_BASE_GEOMETRY_H_

#include <algorithm>
#include <cstdint>
#include <cstdlib>

#include "gridstar/types.h"

namespace gridstar::internal {

inline constexpr double kSqrt2 = 1.41421356237309504880;

// Whether a diagonal move is legal under kPolicy (not kNever), given the
// costs of the two orthogonal cells it passes (0 = blocked).
template <DiagonalPolicy kPolicy>
constexpr bool DiagonalAllowed(uint8_t side_a, uint8_t side_b) {
  if constexpr (kPolicy == DiagonalPolicy::kNoCornerCutting) {
    return side_a != 0 && side_b != 0;
  } else {
    return side_a != 0 || side_b != 0;
  }
}

// Distance in moves of unit cost: octile with diagonals, Manhattan without.
inline double GridDistance(int32_t dx, int32_t dy, bool diagonal) {
  const double ax = std::abs(dx), ay = std::abs(dy);
  if (!diagonal) return ax + ay;
  return std::max(ax, ay) + (kSqrt2 - 1.0) * std::min(ax, ay);
}

// The same between two cells under `policy` (Manhattan for kNever): a lower
// bound on the number of cost-1 steps between them.
inline double CellDistance(Cell a, Cell b, DiagonalPolicy policy) {
  return GridDistance(a.x - b.x, a.y - b.y, policy != DiagonalPolicy::kNever);
}

}  // namespace gridstar::internal

#endif  // GRIDSTAR_SRC_BASE_GEOMETRY_H_
