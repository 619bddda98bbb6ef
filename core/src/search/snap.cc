#include <algorithm>
#include <cstdint>

#include "search/path_tools.h"

namespace gridstar::internal {

bool SnapToPassable(const GridMap& map, Cell from, int32_t radius,
                    uint32_t prefer, Cell* out) {
  // 64-bit arithmetic: `from` may be anywhere in int32, far off the map.
  const int64_t x0 = std::max<int64_t>(0, int64_t{from.x} - radius);
  const int64_t x1 =
      std::min<int64_t>(map.width() - 1, int64_t{from.x} + radius);
  const int64_t y0 = std::max<int64_t>(0, int64_t{from.y} - radius);
  const int64_t y1 =
      std::min<int64_t>(map.height() - 1, int64_t{from.y} + radius);
  // Rank: cells in the preferred component first, then by squared distance;
  // scan order (row, then column) breaks the remaining ties.
  bool found = false;
  bool found_preferred = false;
  int64_t best_d2 = 0;
  for (int64_t y = y0; y <= y1; ++y) {
    for (int64_t x = x0; x <= x1; ++x) {
      const Cell c{static_cast<int32_t>(x), static_cast<int32_t>(y)};
      if (map.cost(c) == 0) continue;
      const bool preferred = prefer != 0 && map.component(c) == prefer;
      const int64_t d2 =
          (x - from.x) * (x - from.x) + (y - from.y) * (y - from.y);
      const bool better = !found || (preferred && !found_preferred) ||
                          (preferred == found_preferred && d2 < best_d2);
      if (better) {
        found = true;
        found_preferred = preferred;
        best_d2 = d2;
        *out = c;
      }
    }
  }
  return found;
}

}  // namespace gridstar::internal
