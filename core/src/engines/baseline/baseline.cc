// The benchmark yardstick: A* as common optimisation write-ups end with it.
// A std::priority_queue-style binary heap of (f, cell) pairs that accepts
// duplicates and skips stale ones when popped (lazy deletion), per-cell g and
// search-id closed marks, and neighbours found by (x, y) with bounds checks.
//
// It stays correct where those write-ups go wrong: g of a cell already in the
// queue is never rewritten in place (that breaks the heap order and returns
// longer paths); a better g pushes a new entry instead.
//
// It uses std::push_heap/std::pop_heap on a vector the context keeps, which is
// exactly what std::priority_queue does, so its capacity survives searches.

#include <algorithm>
#include <functional>
#include <utility>

#include "search/search_loop.h"

namespace gridstar::internal {

void RunBaseline(const GridMap& map, DiagonalPolicy policy,
                 const SearchParams& p, SearchState& s, PathResult* result) {
  using QueueEntry = std::pair<double, uint32_t>;  // (f, cell)
  std::vector<QueueEntry>& queue = s.baseline_queue;
  queue.clear();
  const std::greater<QueueEntry> later;
  const bool diagonal = policy != DiagonalPolicy::kNever;
  const Cell goal = map.CellOfPaddedIndex(p.goal);
  auto h = [&](Cell c) {
    return p.h_scale * GridDistance(c.x - goal.x, c.y - goal.y, diagonal);
  };
  static constexpr int kDx[8] = {1, -1, 0, 0, 1, 1, -1, -1};
  static constexpr int kDy[8] = {0, 0, 1, -1, 1, -1, 1, -1};
  const bool budgeted = Budgeted(p);

  const uint32_t open_mark = s.open_mark, closed_mark = s.closed_mark;
  s.nodes[p.start] = Node{0.0, p.start, open_mark};
  queue.push_back({h(map.CellOfPaddedIndex(p.start)), p.start});
  uint64_t expanded = 0, generated = 1;
  BestSoFar best{p.start, 1e300, 0.0};
  PartialReason stop = PartialReason::kNone;

  while (!queue.empty()) {
    std::pop_heap(queue.begin(), queue.end(), later);
    const uint32_t cur = queue.back().second;
    queue.pop_back();
    if (s.nodes[cur].stamp == closed_mark) continue;  // A stale duplicate.
    s.nodes[cur].stamp = closed_mark;
    ++expanded;
    if (p.trace != nullptr) p.trace->push_back(cur);
    if (cur == p.goal) break;
    const Cell c = map.CellOfPaddedIndex(cur);
    const double g = s.nodes[cur].g;
    if (budgeted) {
      best.Offer(cur, GridDistance(c.x - goal.x, c.y - goal.y, diagonal), g);
      stop = BudgetExhausted(p, expanded, generated);
      if (stop != PartialReason::kNone) break;
    }
    const double ca = map.cost(c);
    for (int d = 0; d < (diagonal ? 8 : 4); ++d) {
      const Cell n{c.x + kDx[d], c.y + kDy[d]};
      if (!map.Passable(n)) continue;
      double step = 1.0;
      if (d >= 4) {
        const bool side_x = map.Passable({n.x, c.y});
        const bool side_y = map.Passable({c.x, n.y});
        const bool ok = policy == DiagonalPolicy::kNoCornerCutting
                            ? (side_x && side_y)
                            : (side_x || side_y);
        if (!ok) continue;
        step = kSqrt2;
      }
      const double ng = g + step * 0.5 * (ca + map.cost(n));
      const uint32_t ni = map.PaddedIndex(n);
      Node& node = s.nodes[ni];
      const bool seen = node.stamp == open_mark || node.stamp == closed_mark;
      if (node.stamp == closed_mark || (seen && ng >= node.g)) continue;
      node = Node{ng, cur, open_mark};
      queue.push_back({ng + h(n), ni});
      std::push_heap(queue.begin(), queue.end(), later);
      ++generated;
    }
  }

  FinishSearch(s, p, best, stop, expanded, generated, result,
               [&](uint32_t start, uint32_t last) {
                 ReconstructPath(map, s, start, last, result);
               });
}

}  // namespace gridstar::internal
