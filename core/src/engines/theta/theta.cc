// Theta*: any-angle paths (Nash, Daniel, Koenig & Felner 2007), in its lazy
// form (Lazy Theta*, Nash, Koenig & Tovey 2010), with a repair that keeps
// its cost bounded on terrain.
//
// Best-first over cells like A*, but a cell's parent may be any cell it sees
// (segment.h: a straight segment between centres through passable cells,
// past corners as the policy allows), not only a neighbour. Relaxing a
// neighbour n of the expanded cell c assumes that c's parent p sees n, with
// g(n) = g(p) + |p n| * min_cost (a lower bound of the segment's cost, exact
// on uniform maps). When a cell is taken off the open list that assumption is
// checked once: the segment from its parent is walked for its true cost, and
// where it is blocked or costlier than a grid move from an expanded
// neighbour, the cheapest such move becomes the parent. A cell whose g rose
// in that check goes back on the open list with its true g instead of being
// expanded (the repair; Lazy Theta* as published expands it at once).
//
// What that buys: h = Euclidean distance * min_cost never overestimates, and
// every key on the open list is at most the cost of the best grid path
// through its cell, so (by the A* argument, with the repair keeping every
// expanded cell's g at most its optimal grid distance) the returned
// any-angle cost is never above the optimal grid path's cost, on every map
// and policy. It is not the optimal any-angle path in general.
//
// FindPath then string-pulls A*'s optimal grid path too and answers with
// whichever any-angle path is cheaper (find_path.cc), so that kTheta is never
// above A* + smooth: Theta*'s corners are cell centres its own search reached,
// and now and then (a few percent of queries on cluttered maps, by about 1%
// in cost) it misses a line that string-pulling finds.
//
// The result: `waypoints` are the any-angle path's corners (start and goal
// included) and `smoothed_cost` its true cost; `cells` are the cells its
// segments cross, in order (each a legal move under the query's policy: a
// corner that a segment passes diagonally gets a side cell under kNever),
// and `cost` their grid cost.

#include <algorithm>
#include <cassert>
#include <cmath>
#include <cstdint>
#include <limits>

#include "engines/theta/theta.h"
#include "search/search_loop.h"
#include "search/segment.h"

namespace gridstar::internal {
namespace {

class ThetaSearch {
 public:
  ThetaSearch(const GridMap& map, DiagonalPolicy policy, const SearchParams& p,
              SearchState& s)
      : map_(map),
        policy_(policy),
        p_(p),
        s_(s),
        costs_(map.padded_costs()),
        pw_(map.padded_width()),
        h_scale_(map.min_cost()) {}

  void Run(PathResult* result) {
    s_.PrepareIndexedOpenList(map_);
    OpenList& open = s_.open;
    Node* nodes = s_.nodes.data();
    const uint32_t open_mark = s_.open_mark, closed_mark = s_.closed_mark;
    const bool budgeted = Budgeted(p_);
    const int moves = policy_ == DiagonalPolicy::kNever ? 4 : 8;
    const int32_t goal_x = p_.goal_x, goal_y = p_.goal_y;

    nodes[p_.start] = Node{0.0, p_.start, open_mark};
    {
      const double h = Heuristic(p_.start);
      open.Push(p_.start, h, h);
    }
    uint64_t expanded = 0, generated = 1;
    BestSoFar best{p_.start, 1e300, 0.0};
    PartialReason stop = PartialReason::kNone;

    while (!open.empty()) {
      double f;
      const uint32_t cur = open.PopMin(&f);
      Node& cn = nodes[cur];
      const int32_t cx = static_cast<int32_t>(cur % static_cast<uint32_t>(pw_));
      const int32_t cy = static_cast<int32_t>(cur / static_cast<uint32_t>(pw_));
      if (cur != p_.start && !Verify(cur, cx, cy, nodes, closed_mark)) {
        // Its g rose: back on the open list at its true key.
        const double h = Heuristic(cur);
        open.Push(cur, cn.g + h, h);
        continue;
      }
      cn.stamp = closed_mark;
      ++expanded;
      if (p_.trace != nullptr) p_.trace->push_back(cur);
      if (cur == p_.goal) break;
      if (budgeted) {
        best.Offer(cur, SegmentLength(cx, cy, goal_x, goal_y), cn.g);
        stop = BudgetExhausted(p_, expanded, generated);
        if (stop != PartialReason::kNone) break;
      }
      // Path 2 assumed: from the expanded cell's parent (the cell itself for
      // the start), at the lower bound of the segment's cost.
      const uint32_t from = cn.parent;
      const double from_g = nodes[from].g;
      const int32_t fx = static_cast<int32_t>(from % static_cast<uint32_t>(pw_));
      const int32_t fy = static_cast<int32_t>(from / static_cast<uint32_t>(pw_));
      for (int d = 0; d < moves; ++d) {
        const int32_t nx = cx + kMoveDx[d], ny = cy + kMoveDy[d];
        const uint32_t nb = static_cast<uint32_t>(ny * pw_ + nx);
        if (costs_[nb] == 0) continue;
        if (d >= 4 && !DiagonalLegal(cx, cy, nx, ny)) continue;
        Node& n = nodes[nb];
        if (n.stamp == closed_mark) continue;
        const double ng = from_g + h_scale_ * SegmentLength(fx, fy, nx, ny);
        if (n.stamp == open_mark) {
          if (!(ng < n.g)) continue;
          n.g = ng;
          n.parent = from;
          const double h = Heuristic(nb);
          open.Decrease(nb, ng + h, h);
        } else {
          n = Node{ng, from, open_mark};
          ++generated;
          const double h = Heuristic(nb);
          open.Push(nb, ng + h, h);
        }
      }
    }

    FinishSearch(s_, p_, best, stop, expanded, generated, result,
                 [&](uint32_t start, uint32_t last) {
                   Reconstruct(start, last, result);
                 });
  }

 private:
  double Heuristic(uint32_t cell) const {
    const int32_t x = static_cast<int32_t>(cell % static_cast<uint32_t>(pw_));
    const int32_t y = static_cast<int32_t>(cell / static_cast<uint32_t>(pw_));
    return h_scale_ * SegmentLength(x, y, p_.goal_x, p_.goal_y);
  }

  // Whether the diagonal move (ax, ay) -> (bx, by) is legal under the policy.
  bool DiagonalLegal(int32_t ax, int32_t ay, int32_t bx, int32_t by) const {
    const bool side_x = costs_[ay * pw_ + bx] != 0;
    const bool side_y = costs_[by * pw_ + ax] != 0;
    return policy_ == DiagonalPolicy::kAllowCornerCutting ? (side_x || side_y)
                                                          : (side_x && side_y);
  }

  // The grid move's cost from neighbour (ax, ay) into (bx, by), or -1.
  double MoveCostPadded(int32_t ax, int32_t ay, int32_t bx, int32_t by) const {
    const uint8_t ca = costs_[ay * pw_ + ax], cb = costs_[by * pw_ + bx];
    if (ca == 0 || cb == 0) return -1;
    if (ax == bx || ay == by) return 0.5 * (ca + cb);
    if (policy_ == DiagonalPolicy::kNever || !DiagonalLegal(ax, ay, bx, by)) {
      return -1;
    }
    return 0.5 * kSqrt2 * (ca + cb);
  }

  // Lazy Theta*'s check of the cell taken off the open list: its g and
  // parent become the true cost of the segment from its parent, or the
  // cheapest grid move from an expanded neighbour when that is cheaper (or
  // the segment is blocked). False when g rose by more than rounding.
  bool Verify(uint32_t cur, int32_t cx, int32_t cy, Node* nodes,
              uint32_t closed_mark) {
    Node& cn = nodes[cur];
    const uint32_t parent = cn.parent;
    const int32_t px = static_cast<int32_t>(parent % static_cast<uint32_t>(pw_));
    const int32_t py = static_cast<int32_t>(parent / static_cast<uint32_t>(pw_));
    const double segment = SegmentCost(map_, policy_, px, py, cx, cy);
    const double assumed = cn.g;
    const double slack = 1e-9 * (1.0 + assumed);
    double best_g = std::numeric_limits<double>::infinity();
    uint32_t best_parent = parent;
    if (segment >= 0) {
      best_g = nodes[parent].g + segment;
      if (best_g <= assumed + slack) {
        cn.g = best_g;
        return true;
      }
    }
    // Each expanded neighbour offers its own parent's segment (when that
    // one sees the cell) and, failing that, its grid move.
    const int moves = policy_ == DiagonalPolicy::kNever ? 4 : 8;
    for (int d = 0; d < moves; ++d) {
      const int32_t nx = cx + kMoveDx[d], ny = cy + kMoveDy[d];
      const uint32_t nb = static_cast<uint32_t>(ny * pw_ + nx);
      if (nodes[nb].stamp != closed_mark) continue;
      const double step = MoveCostPadded(nx, ny, cx, cy);
      if (step < 0) continue;
      double g = nodes[nb].g + step;
      uint32_t via = nb;
      const uint32_t np = nodes[nb].parent;
      if (np != nb && np != parent) {
        const double seg =
            SegmentCost(map_, policy_, static_cast<int32_t>(np % pw_),
                        static_cast<int32_t>(np / pw_), cx, cy);
        if (seg >= 0 && nodes[np].g + seg < g) {
          g = nodes[np].g + seg;
          via = np;
        }
      }
      if (g < best_g) {
        best_g = g;
        best_parent = via;
      }
    }
    // Some expanded neighbour always reaches the cell: the one that put it on
    // the open list last relaxed it from its own parent, and is expanded.
    assert(best_g < std::numeric_limits<double>::infinity());
    cn.parent = best_parent;
    const bool kept = best_g <= assumed + slack;
    cn.g = best_g;
    return kept;
  }

  // Waypoints from the parents; cells by walking each segment.
  void Reconstruct(uint32_t start, uint32_t last, PathResult* r) const {
    std::vector<Cell>& corners = r->waypoints;
    corners.clear();
    for (uint32_t i = last;; i = s_.nodes[i].parent) {
      corners.push_back(map_.CellOfPaddedIndex(i));
      if (i == start) break;
    }
    std::reverse(corners.begin(), corners.end());
    r->cells.clear();
    r->cells.push_back(corners[0]);
    r->smoothed_cost = s_.nodes[last].g;
    double cost = 0;
    for (size_t k = 1; k < corners.size(); ++k) {
      const Cell a = corners[k - 1], b = corners[k];
      WalkSegment(costs_, pw_, policy_, a.x + 1, a.y + 1, b.x + 1, b.y + 1,
                  [&](uint32_t cell, double, double, uint32_t side) {
                    const Cell c = map_.CellOfPaddedIndex(cell);
                    if (c == r->cells.back()) return;  // The segment's start.
                    if (side != kNoSide && policy_ == DiagonalPolicy::kNever) {
                      const Cell via = map_.CellOfPaddedIndex(side);
                      cost += 0.5 * (map_.cost(r->cells.back()) + map_.cost(via));
                      r->cells.push_back(via);
                    }
                    const Cell prev = r->cells.back();
                    const bool diagonal = prev.x != c.x && prev.y != c.y;
                    cost += (diagonal ? 0.5 * kSqrt2 : 0.5) *
                            (map_.cost(prev) + map_.cost(c));
                    r->cells.push_back(c);
                  });
    }
    r->cost = cost;
  }

  const GridMap& map_;
  const DiagonalPolicy policy_;
  const SearchParams& p_;
  SearchState& s_;
  const uint8_t* const costs_;
  const int32_t pw_;
  const double h_scale_;
};

}  // namespace

void RunTheta(const GridMap& map, DiagonalPolicy policy,
              const SearchParams& params, SearchState& state,
              PathResult* result) {
  ThetaSearch(map, policy, params, state).Run(result);
}

}  // namespace gridstar::internal
