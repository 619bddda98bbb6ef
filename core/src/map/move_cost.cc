#include "gridstar/move_cost.h"

#include <cstdint>
#include <cstdlib>
#include <vector>

#include "base/geometry.h"

namespace gridstar {

double MoveCost(const GridMap& map, Cell a, Cell b, DiagonalPolicy policy) {
  if (!map.Passable(a) || !map.Passable(b)) return -1;
  const int64_t dx = int64_t{b.x} - a.x, dy = int64_t{b.y} - a.y;
  if (std::llabs(dx) > 1 || std::llabs(dy) > 1 || (dx == 0 && dy == 0)) {
    return -1;
  }
  const double sum = map.cost(a) + map.cost(b);
  if (dx == 0 || dy == 0) return 0.5 * sum;
  if (policy == DiagonalPolicy::kNever) return -1;
  const bool side_x = map.Passable({b.x, a.y});
  const bool side_y = map.Passable({a.x, b.y});
  const bool ok = policy == DiagonalPolicy::kNoCornerCutting
                      ? (side_x && side_y)
                      : (side_x || side_y);
  return ok ? 0.5 * internal::kSqrt2 * sum : -1;
}

double PathCost(const GridMap& map, const std::vector<Cell>& cells,
                DiagonalPolicy policy) {
  if (cells.empty()) return -1;
  if (!map.Passable(cells[0])) return -1;
  double total = 0;
  for (size_t i = 1; i < cells.size(); ++i) {
    const double c = MoveCost(map, cells[i - 1], cells[i], policy);
    if (c < 0) return -1;
    total += c;
  }
  return total;
}

}  // namespace gridstar
