// String-pulling by line of sight, over segment.h's segments (kNever is
// treated as kNoCornerCutting, since a smoothed path is for free movement).
//
// Greedy: from each anchor the path is pulled as far along the grid path as a
// visible segment reaches whose cost is no more than the grid path's between
// the same cells; hence the smoothed cost never exceeds the grid cost.

#include <cstdint>

#include "gridstar/move_cost.h"
#include "search/path_tools.h"
#include "search/segment.h"

namespace gridstar::internal {
namespace {

// SegmentCost (segment.h) between two unpadded cells.
double CellSegmentCost(const GridMap& map, DiagonalPolicy policy, Cell a,
                       Cell b) {
  return SegmentCost(map, policy, a.x + 1, a.y + 1, b.x + 1, b.y + 1);
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
    const double c =
        CellSegmentCost(map, policy, cells[anchor], cells[reach + 1]);
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
