// The optimised best-first engine behind astar, weighted and dijkstra.
//
// Why it is fast: the padded grid lets every neighbour be read without bounds
// checks; 16-byte node records stamped by generation; one-integer keys whose
// ties on f go to the deeper node, which on open maps expands far fewer cells;
// a cell whose f ties the current minimum (most cells on the way to the goal,
// on open maps) skips the open list altogether: it goes on a stack that is
// expanded first. Taking a tie first is a legal A* order; the tie test allows
// a relative 1e-9, measured against the f last taken from the open list so
// that it cannot add up. The open list is a RadixQueue (lazy deletion) when
// the heuristic is consistent, else the indexed 4-ary OpenList with
// decrease-key (keys of weighted search may fall below the last minimum).
//
// Correctness: the heuristics are consistent (see FindPath), so an expanded
// cell is final and never reopened; with an inflated heuristic (weighted) not
// reopening keeps the cost within the weight of the optimum.

#include <cstdint>

#include "search_state.h"

namespace gridstar::internal {
namespace {

template <DiagonalPolicy kPolicy, typename Queue>
void Search(const GridMap& map, const SearchParams& p, SearchState& s,
            Queue& open, PathResult* result) {
  constexpr bool kDiagonal = kPolicy != DiagonalPolicy::kNever;
  const uint8_t* costs = map.padded_costs();
  const int32_t pw = map.padded_width();
  Node* nodes = s.nodes.data();
  const uint32_t open_mark = s.open_mark;
  const uint32_t closed_mark = s.closed_mark;
  const bool budgeted = p.max_expansions != 0 || p.has_deadline;
  const double inv_pw = 1.0 / pw;

  // Octile/Manhattan, raised by the landmarks' differential bounds when the
  // query has them (one well-predicted branch when it has not).
  auto heuristic = [&](int32_t x, int32_t y, uint32_t cell) {
    double h = p.h_scale * GridDistance(x - p.goal_x, y - p.goal_y, kDiagonal);
    if (p.landmarks != nullptr) {
      const double* at = p.landmarks + size_t{cell} * p.landmark_count;
      for (int k = 0; k < p.landmark_count; ++k) {
        h = std::max(h, std::abs(p.goal_landmarks[k] - at[k]));
      }
    }
    return h;
  };

  uint64_t expanded = 0, generated = 1;
  nodes[p.start] = Node{0.0, p.start, open_mark};
  {
    const Cell c = map.CellOfPaddedIndex(p.start);
    const double h = heuristic(c.x + 1, c.y + 1, p.start);
    open.Push(p.start, h, h);
  }
  BestSoFar best{p.start, 1e300, 0.0};
  PartialReason stop = PartialReason::kNone;

  std::vector<uint32_t>& ties = s.ties;
  uint32_t* heap_pos = s.heap_pos.data();
  constexpr uint32_t kInTies = UINT32_MAX;
  double tie_limit = -1;

  while (!ties.empty() || !open.empty()) {
    uint32_t cur;
    if (!ties.empty()) {
      cur = ties.back();
      ties.pop_back();
    } else {
      double f;
      cur = open.PopMin(&f);
      tie_limit = f + 1e-9 * (1.0 + f);
    }
    Node& cn = nodes[cur];
    if (cn.stamp == closed_mark) continue;  // A stale duplicate (lazy queue).
    // A bounded exhaustive search (h = 0) is done: every cell left costs more.
    if (cn.g > p.max_g) break;
    cn.stamp = closed_mark;
    ++expanded;
    if (cur == p.goal) break;
    // cur / pw by a multiply: exact after one correction, since cur < 2^27.
    int32_t cy = static_cast<int32_t>(cur * inv_pw);
    int32_t cx = static_cast<int32_t>(cur) - cy * pw;
    if (cx >= pw) {
      cx -= pw;
      ++cy;
    } else if (cx < 0) {
      cx += pw;
      --cy;
    }
    const double g = cn.g;
    if (budgeted) {
      best.Offer(cur, GridDistance(cx - p.goal_x, cy - p.goal_y, kDiagonal), g);
      stop = BudgetExhausted(p, expanded);
      if (stop != PartialReason::kNone) break;
    }
    const double ca = costs[cur];

    auto enqueue = [&](uint32_t nb, double f, double h) {
      if (f <= tie_limit) {
        ties.push_back(nb);
        if constexpr (!Queue::kLazy) heap_pos[nb] = kInTies;
      } else {
        open.Push(nb, f, h);
      }
    };
    auto relax = [&](uint32_t nb, double ng, int32_t nx, int32_t ny) {
      Node& n = nodes[nb];
      if (n.stamp == open_mark) {
        if (!(ng < n.g)) return;
        n.g = ng;
        n.parent = cur;
        const double h = heuristic(nx, ny, nb);
        if constexpr (Queue::kLazy) {
          enqueue(nb, ng + h, h);  // The old entry is skipped when popped.
        } else if (heap_pos[nb] != kInTies) {
          open.Decrease(nb, ng + h, h);
        }
      } else if (n.stamp != closed_mark) {
        n = Node{ng, cur, open_mark};
        const double h = heuristic(nx, ny, nb);
        enqueue(nb, ng + h, h);
        ++generated;
      }
    };

    // Straight moves: west, east, north, south.
    const uint32_t west = cur - 1, east = cur + 1;
    const uint32_t north = cur - static_cast<uint32_t>(pw);
    const uint32_t south = cur + static_cast<uint32_t>(pw);
    const uint8_t cw = costs[west], ce = costs[east];
    const uint8_t cnn = costs[north], cs = costs[south];
    if (cw) relax(west, g + 0.5 * (ca + cw), cx - 1, cy);
    if (ce) relax(east, g + 0.5 * (ca + ce), cx + 1, cy);
    if (cnn) relax(north, g + 0.5 * (ca + cnn), cx, cy - 1);
    if (cs) relax(south, g + 0.5 * (ca + cs), cx, cy + 1);
    if constexpr (kDiagonal) {
      constexpr double kHalfDiag = 0.5 * kSqrt2;
      auto allowed = [](uint8_t side_a, uint8_t side_b) {
        if constexpr (kPolicy == DiagonalPolicy::kNoCornerCutting) {
          return side_a != 0 && side_b != 0;
        } else {
          return side_a != 0 || side_b != 0;
        }
      };
      const uint32_t nw = north - 1, ne = north + 1;
      const uint32_t sw = south - 1, se = south + 1;
      uint8_t c;
      if (allowed(cnn, cw) && (c = costs[nw]) != 0) {
        relax(nw, g + kHalfDiag * (ca + c), cx - 1, cy - 1);
      }
      if (allowed(cnn, ce) && (c = costs[ne]) != 0) {
        relax(ne, g + kHalfDiag * (ca + c), cx + 1, cy - 1);
      }
      if (allowed(cs, cw) && (c = costs[sw]) != 0) {
        relax(sw, g + kHalfDiag * (ca + c), cx - 1, cy + 1);
      }
      if (allowed(cs, ce) && (c = costs[se]) != 0) {
        relax(se, g + kHalfDiag * (ca + c), cx + 1, cy + 1);
      }
    }
  }

  FinishSearch(map, s, p, best, stop, expanded, generated, result);
}

template <DiagonalPolicy kPolicy>
void SearchWithQueue(const GridMap& map, const SearchParams& params,
                     SearchState& state, PathResult* result) {
  if (params.consistent) {
    Search<kPolicy>(map, params, state, state.radix, result);
  } else {
    state.PrepareIndexedOpenList(map);
    Search<kPolicy>(map, params, state, state.open, result);
  }
}

}  // namespace

void RunBestFirst(const GridMap& map, DiagonalPolicy policy,
                  const SearchParams& params, SearchState& state,
                  PathResult* result) {
  switch (policy) {
    case DiagonalPolicy::kNever:
      return SearchWithQueue<DiagonalPolicy::kNever>(map, params, state,
                                                     result);
    case DiagonalPolicy::kNoCornerCutting:
      return SearchWithQueue<DiagonalPolicy::kNoCornerCutting>(map, params,
                                                               state, result);
    case DiagonalPolicy::kAllowCornerCutting:
      return SearchWithQueue<DiagonalPolicy::kAllowCornerCutting>(
          map, params, state, result);
  }
}

}  // namespace gridstar::internal
