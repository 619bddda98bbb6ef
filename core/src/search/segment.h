// The straight segment between two cell centres, walked cell by cell: what
// smoothing (smoothing.cc) and Theta* (theta.cc) both need.
//
// A segment runs between cell centres. It crosses the cells it passes in
// order; where it passes exactly through a cell corner it moves diagonally
// there, and the two cells beside that corner must satisfy the policy
// (kNever counts as kNoCornerCutting: a segment is free movement, it only
// must not squeeze past a wall's corner). Crossings are found in exact integer
// arithmetic, so corners are never missed by rounding. The segment's true
// cost is the sum, over the cells it crosses, of the length inside the cell
// times the cell's cost; for one grid move that equals the move's cost.
//
// Pure functions over the map's padded costs (GridMap::padded_costs, blocked
// border included, so a walk never leaves the array); thread-safe.

#ifndef GRIDSTAR_SRC_SEARCH_SEGMENT_H_
#define GRIDSTAR_SRC_SEARCH_SEGMENT_H_

#include <cmath>
#include <cstdint>
#include <cstdlib>

#include "gridstar/grid_map.h"
#include "gridstar/types.h"

namespace gridstar::internal {

inline constexpr uint32_t kNoSide = UINT32_MAX;

// Walks the segment from padded cell a = (ax, ay) to b = (bx, by), calling
// visit(index, t0, t1, side) for each cell it crosses, a first and b last:
// the cell's padded index, the segment's parameters (0 at a, 1 at b) where it
// enters and leaves the cell, and, when it entered the cell through a corner,
// the padded index of one passable cell beside that corner (else kNoSide).
// Stops and returns false at the first blocked cell or forbidden corner
// (cells visited so far stay visited); true when b was reached.
template <typename Visit>
inline bool WalkSegment(const uint8_t* costs, int32_t pw, DiagonalPolicy policy,
                        int32_t ax, int32_t ay, int32_t bx, int32_t by,
                        Visit&& visit) {
  const int64_t dx = bx - ax, dy = by - ay;
  const int32_t sx = dx > 0 ? 1 : -1, sy = dy > 0 ? 1 : -1;
  const int64_t step_x = sx, step_y = int64_t{sy} * pw;
  const int64_t adx = std::llabs(dx), ady = std::llabs(dy);
  const bool need_both = policy != DiagonalPolicy::kAllowCornerCutting;
  int64_t cur = int64_t{ay} * pw + ax;
  int64_t k = 0, j = 0;  // Vertical and horizontal grid lines crossed.
  // The k-th vertical line is crossed at t = (2k+1) / (2 adx), the j-th
  // horizontal one at (2j+1) / (2 ady); they are compared cross-multiplied,
  // as lhs = (2k+1) ady and rhs = (2j+1) adx, kept up to date by additions.
  int64_t lhs = ady, rhs = adx;
  const double inv_x = adx > 0 ? 1.0 / (2.0 * adx) : 0;
  const double inv_y = ady > 0 ? 1.0 / (2.0 * ady) : 0;
  double t_prev = 0;
  uint32_t side = kNoSide;
  while (k < adx || j < ady) {
    const bool x_next = k < adx && (j >= ady || lhs < rhs);
    const bool y_next = j < ady && (k >= adx || rhs < lhs);
    const double t = x_next || !y_next ? static_cast<double>(2 * k + 1) * inv_x
                                       : static_cast<double>(2 * j + 1) * inv_y;
    visit(static_cast<uint32_t>(cur), t_prev, t, side);
    t_prev = t;
    side = kNoSide;
    if (x_next) {
      cur += step_x;
      ++k;
      lhs += 2 * ady;
    } else if (y_next) {
      cur += step_y;
      ++j;
      rhs += 2 * adx;
    } else {  // Through a corner.
      const bool side_x = costs[cur + step_x] != 0;
      const bool side_y = costs[cur + step_y] != 0;
      if (need_both ? !(side_x && side_y) : !(side_x || side_y)) return false;
      side = static_cast<uint32_t>(side_x ? cur + step_x : cur + step_y);
      cur += step_x + step_y;
      ++k;
      ++j;
      lhs += 2 * ady;
      rhs += 2 * adx;
    }
    if (costs[cur] == 0) return false;
  }
  visit(static_cast<uint32_t>(cur), t_prev, 1.0, side);
  return true;
}

// Whether the segment from padded cell a to b is clear (WalkSegment's rule),
// without its cost: integers only, for maps whose passable cells all cost
// the same (the cost is then the length times that cost).
inline bool SegmentClear(const uint8_t* costs, int32_t pw, DiagonalPolicy policy,
                         int32_t ax, int32_t ay, int32_t bx, int32_t by) {
  const int64_t dx = bx - ax, dy = by - ay;
  const int64_t step_x = dx > 0 ? 1 : -1;
  const int64_t step_y = dy > 0 ? int64_t{pw} : -int64_t{pw};
  const int64_t adx = std::llabs(dx), ady = std::llabs(dy);
  const bool need_both = policy != DiagonalPolicy::kAllowCornerCutting;
  int64_t cur = int64_t{ay} * pw + ax;
  int64_t k = 0, j = 0, lhs = ady, rhs = adx;
  while (k < adx || j < ady) {
    if (k < adx && (j >= ady || lhs < rhs)) {
      cur += step_x;
      ++k;
      lhs += 2 * ady;
    } else if (j < ady && (k >= adx || rhs < lhs)) {
      cur += step_y;
      ++j;
      rhs += 2 * adx;
    } else {
      const bool side_x = costs[cur + step_x] != 0;
      const bool side_y = costs[cur + step_y] != 0;
      if (need_both ? !(side_x && side_y) : !(side_x || side_y)) return false;
      cur += step_x + step_y;
      ++k;
      ++j;
      lhs += 2 * ady;
      rhs += 2 * adx;
    }
    if (costs[cur] == 0) return false;
  }
  return true;
}

// Euclidean length of the segment between two cells' centres.
inline double SegmentLength(int32_t ax, int32_t ay, int32_t bx, int32_t by) {
  const double dx = bx - ax, dy = by - ay;
  return std::sqrt(dx * dx + dy * dy);
}

// The segment's true cost (see above), or -1 when it crosses a blocked cell
// or a corner the policy forbids. Coordinates are padded.
inline double SegmentCost(const GridMap& map, DiagonalPolicy policy, int32_t ax,
                          int32_t ay, int32_t bx, int32_t by) {
  const uint8_t* costs = map.padded_costs();
  const double length = SegmentLength(ax, ay, bx, by);
  if (map.uniform_cost()) {
    return SegmentClear(costs, map.padded_width(), policy, ax, ay, bx, by)
               ? length * map.min_cost()
               : -1;
  }
  double total = 0;
  const bool clear = WalkSegment(
      costs, map.padded_width(), policy, ax, ay, bx, by,
      [&](uint32_t cell, double t0, double t1, uint32_t) {
        total += (t1 - t0) * costs[cell];
      });
  return clear ? total * length : -1;
}

}  // namespace gridstar::internal

#endif  // GRIDSTAR_SRC_SEARCH_SEGMENT_H_
