// Octile-shaped paths between two cells (path_tools.h): the refinement of
// abstract edges whose least paths are known to be of that shape (subgoal
// graph edges, HPA* edges on uniform costs).

#include <algorithm>
#include <cstdlib>
#include <vector>

#include "base/geometry.h"
#include "search/path_tools.h"

namespace gridstar::internal {

namespace {

// Walks the two octile shapes from `from` to `to` in turn; `visit(x, y)`
// sees each padded cell after `from` of the shape being walked, `undo()`
// runs when that shape proves illegal. True when a shape is legal.
template <typename Visit, typename Undo>
bool WalkOctile(const uint8_t* costs, int64_t stride, DiagonalPolicy policy,
                Cell from, Cell to, Visit visit, Undo undo) {
  const int sx = to.x > from.x ? 1 : to.x < from.x ? -1 : 0;
  const int sy = to.y > from.y ? 1 : to.y < from.y ? -1 : 0;
  const int ax = std::abs(to.x - from.x), ay = std::abs(to.y - from.y);
  const int d = policy != DiagonalPolicy::kNever ? std::min(ax, ay) : 0;
  struct Run {
    int count, dx, dy;
  };
  // Each shape is up to three runs of one move (under a diagonal policy one
  // of the straight runs is empty).
  const Run shapes[2][3] = {{{d, sx, sy}, {ax - d, sx, 0}, {ay - d, 0, sy}},
                            {{ay - d, 0, sy}, {ax - d, sx, 0}, {d, sx, sy}}};
  for (const auto& shape : shapes) {
    int x = from.x, y = from.y;
    bool legal = true;
    for (const Run& run : shape) {
      for (int i = 0; i < run.count && legal; ++i) {
        const int64_t at = int64_t{y} * stride + x;
        const int64_t next = at + int64_t{run.dy} * stride + run.dx;
        legal = costs[next] != 0;
        if (legal && run.dx != 0 && run.dy != 0) {
          const uint8_t side_x = costs[at + run.dx];
          const uint8_t side_y = costs[at + int64_t{run.dy} * stride];
          legal = policy == DiagonalPolicy::kNoCornerCutting
                      ? DiagonalAllowed<DiagonalPolicy::kNoCornerCutting>(
                            side_x, side_y)
                      : DiagonalAllowed<DiagonalPolicy::kAllowCornerCutting>(
                            side_x, side_y);
        }
        if (!legal) break;
        x += run.dx;
        y += run.dy;
        visit(x, y);
      }
      if (!legal) break;
    }
    if (legal) return true;
    undo();
  }
  return false;
}

}  // namespace

bool AppendOctilePath(const uint8_t* costs, int64_t stride,
                      DiagonalPolicy policy, Cell from, Cell to,
                      std::vector<Cell>* out) {
  const size_t first = out->size();
  return WalkOctile(
      costs, stride, policy, from, to,
      [out](int x, int y) {
        out->push_back(Cell{x - 1, y - 1});
      },
      [out, first] { out->resize(first); });
}

bool OctileShapeLegal(const uint8_t* costs, int64_t stride,
                      DiagonalPolicy policy, Cell from, Cell to) {
  return WalkOctile(
      costs, stride, policy, from, to, [](int, int) {}, [] {});
}

}  // namespace gridstar::internal
