// String-pulling by line of sight.
//
// A segment runs between cell centres. Its true cost is the sum, over the
// cells it crosses, of the length inside the cell times the cell's cost; for
// one grid move that equals the move's cost. Where a segment passes exactly
// through a cell corner it moves diagonally there, and the two cells beside
// that corner must satisfy the query's policy (kNever is treated as
// kNoCornerCutting, since a smoothed path is for free movement). Crossings are
// found in exact integer arithmetic, so corners are never missed by rounding.
//
// Greedy: from each anchor the path is pulled as far along the grid path as a
// visible segment reaches whose cost is no more than the grid path's between
// the same cells; hence the smoothed cost never exceeds the grid cost.

#include <cmath>
#include <cstdint>
#include <cstdlib>

#include "path_tools.h"

namespace gridstar::internal {
namespace {

// Cost of the straight segment between the centres of a and b, or -1 when it
// crosses a blocked cell or a corner the policy forbids.
double SegmentCost(const GridMap& map, DiagonalPolicy policy, Cell a, Cell b) {
  const int64_t dx = b.x - a.x, dy = b.y - a.y;
  const int32_t sx = dx > 0 ? 1 : -1, sy = dy > 0 ? 1 : -1;
  const int64_t adx = std::llabs(dx), ady = std::llabs(dy);
  const double length = std::sqrt(static_cast<double>(dx * dx + dy * dy));
  const bool need_both = policy != DiagonalPolicy::kAllowCornerCutting;
  Cell cur = a;
  int64_t k = 0, j = 0;  // Vertical and horizontal grid lines crossed.
  double t_prev = 0, total = 0;
  while (k < adx || j < ady) {
    // The k-th vertical line is crossed at t = (2k+1) / (2 adx), the j-th
    // horizontal one at (2j+1) / (2 ady); compare them cross-multiplied.
    const int64_t lhs = (2 * k + 1) * ady, rhs = (2 * j + 1) * adx;
    const bool x_next = k < adx && (j >= ady || lhs < rhs);
    const bool y_next = j < ady && (k >= adx || rhs < lhs);
    const double t = x_next || !y_next
                         ? static_cast<double>(2 * k + 1) / (2.0 * adx)
                         : static_cast<double>(2 * j + 1) / (2.0 * ady);
    total += (t - t_prev) * length * map.cost(cur);
    t_prev = t;
    if (x_next) {
      cur.x += sx;
      ++k;
    } else if (y_next) {
      cur.y += sy;
      ++j;
    } else {  // Through a corner.
      const bool side_x = map.Passable({cur.x + sx, cur.y});
      const bool side_y = map.Passable({cur.x, cur.y + sy});
      if (need_both ? !(side_x && side_y) : !(side_x || side_y)) return -1;
      cur.x += sx;
      cur.y += sy;
      ++k;
      ++j;
    }
    if (!map.Passable(cur)) return -1;
  }
  total += (1.0 - t_prev) * length * map.cost(cur);
  return total;
}

}  // namespace

void SmoothPath(const GridMap& map, DiagonalPolicy policy, SearchState& state,
                PathResult* result) {
  const std::vector<Cell>& cells = result->cells;
  std::vector<Cell>& out = result->waypoints;
  out.clear();
  result->smoothed_cost = 0;
  if (cells.empty()) return;
  out.push_back(cells[0]);
  if (cells.size() == 1) return;

  std::vector<double>& prefix = state.prefix_cost;
  prefix.resize(cells.size());
  prefix[0] = 0;
  for (size_t i = 1; i < cells.size(); ++i) {
    prefix[i] = prefix[i - 1] + MoveCost(map, cells[i - 1], cells[i], policy);
  }
  // Segments are accepted up to a hair over the grid cost, to absorb the
  // rounding of two sums of the same lengths taken in different orders.
  constexpr double kSlack = 1e-9;
  size_t anchor = 0, reach = 1;
  double reach_cost = prefix[1] - prefix[0];
  while (reach + 1 < cells.size()) {
    const double c = SegmentCost(map, policy, cells[anchor], cells[reach + 1]);
    const double grid = prefix[reach + 1] - prefix[anchor];
    if (c >= 0 && c <= grid + kSlack * (1 + grid)) {
      ++reach;
      reach_cost = c;
      continue;
    }
    out.push_back(cells[reach]);
    result->smoothed_cost += reach_cost;
    anchor = reach;
    ++reach;
    reach_cost = prefix[reach] - prefix[anchor];
  }
  out.push_back(cells.back());
  result->smoothed_cost += reach_cost;
}

}  // namespace gridstar::internal
