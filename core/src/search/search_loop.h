// The search loop every best-first engine shares, written once.
//
// RunSearchLoop is A* (or Dijkstra, or weighted A*) over whatever successors
// an Expander yields: best-first over cells (best_first.cc) yields the eight
// neighbours, jump point search (jps.cc) yields jump points. The loop owns
// everything else: the start's set-up, taking the least f (and, for engines
// that want it, the cells whose f ties it, from a stack), stale entries of a
// lazy queue, the closed marks, the goal test, the budget (max_expansions,
// deadline, cancellation), the best cell so far for partial results, the
// relaxation of each successor with its stamps, and the finish. Its users
// are best_first.cc and engines/jps/jps.cc; HPA*'s abstract search
// (engines/hpa/hpa_search.cc) and the incremental search (incremental.cc)
// keep loops of their own.
//
// An Expander provides:
//   static constexpr bool kTies;      // f-ties go on the tie stack
//   static constexpr bool kDiagonal;  // octile (else Manhattan) distances for
//                                     // the partial result's best cell
//   static constexpr bool kDivideByMultiply;  // a cell's row by a multiply
//                                     // (cheaper where the expansion is short)
//   double Heuristic(int32_t x, int32_t y, uint32_t cell) const;
//   template <typename Relax>
//   void Expand(uint32_t cell, int32_t x, int32_t y, double g,
//               uint32_t parent, Relax& relax);
//       calls relax(successor, g_of_successor, sx, sy) for each successor;
//   void Reconstruct(const SearchState&, Nodes records, uint32_t start,
//                    uint32_t last, PathResult*) const;
// (Nodes: where the records are, DenseNodes or SparseNodesRef.)
// Coordinates are padded (GridMap::PaddedIndex's layout).
//
// Not thread-safe beyond FindPath's promise: one SearchState per thread.

#ifndef GRIDSTAR_SRC_SEARCH_SEARCH_LOOP_H_
#define GRIDSTAR_SRC_SEARCH_SEARCH_LOOP_H_

#include <algorithm>
#include <cassert>
#include <cstdint>
#include <limits>
#include <type_traits>
#include <vector>

#include "absl/time/clock.h"
#include "base/geometry.h"
#include "gridstar/grid_map.h"
#include "gridstar/path_query.h"
#include "gridstar/query.h"
#include "search/search_state.h"

namespace gridstar::internal {

inline constexpr uint32_t kNoGoal = UINT32_MAX;

// The loop's per-successor work must be inlined into each engine's
// expansion, or every relaxation reads the loop's state through memory.
#define GRIDSTAR_ALWAYS_INLINE inline __attribute__((always_inline))

// Parameters of one best-first search, prepared by FindPath.
struct SearchParams {
  uint32_t start;
  uint32_t goal;   // kNoGoal for an exhaustive search.
  int32_t goal_x;  // Padded coordinates.
  int32_t goal_y;
  double h_scale;  // 0 for Dijkstra.
  // True when the heuristic is consistent (astar, dijkstra): keys then never
  // fall below the last minimum, which lets the engine use a RadixQueue.
  bool consistent;
  SearchBudget budget;
  // Node records the search may create (the context's max_search_nodes);
  // 0 = no limit.
  uint64_t max_nodes = 0;
  // Differential heuristic (best-first engine only): landmark_count
  // distances per padded cell, and the goal's. Null when the query has none.
  const double* landmarks = nullptr;
  const double* goal_landmarks = nullptr;
  int landmark_count = 0;
  // Exhaustive searches (distance fields) set goal to kNoGoal, h_scale to 0
  // and may stop once g exceeds max_g; the cells closed are then exact.
  double max_g = std::numeric_limits<double>::infinity();
  // When non-null, every engine appends the padded index of each cell it
  // expands, in order (FindPath's PathQuery::trace). Null costs one
  // well-predicted branch per expansion.
  std::vector<uint32_t>* trace = nullptr;
};

// Keeps the expanded cell closest to the goal, for partial results.
struct BestSoFar {
  uint32_t cell;
  double distance;
  double g;
  void Offer(uint32_t c, double d, double cost) {
    if (d < distance || (d == distance && cost < g)) {
      cell = c;
      distance = d;
      g = cost;
    }
  }
};

// Whether the search must stop now for its budget or its memory, with
// `expanded` cells taken off the open list and `generated` node records made.
// The clock and the flag are read every 256 expansions only, starting with
// the first.
inline PartialReason BudgetExhausted(const SearchParams& p, uint64_t expanded,
                                     uint64_t generated) {
  const SearchBudget& b = p.budget;
  if (b.max_expansions != 0 && expanded >= b.max_expansions) {
    return PartialReason::kMaxExpansions;
  }
  if (p.max_nodes != 0 && generated > p.max_nodes)
    return PartialReason::kMemory;
  if (b.timed() && (expanded & 255) == 1) return b.CheckNow();
  return PartialReason::kNone;
}

// Whether a search under `p` checks BudgetExhausted at each expansion.
inline bool Budgeted(const SearchParams& p) {
  return p.budget.max_expansions != 0 || p.budget.timed() || p.max_nodes != 0;
}

// Writes the path ending at `last` (following parents back to `start`) into
// result->cells, start first.
inline void ReconstructPath(const GridMap& map, const SearchState& s,
                            uint32_t start, uint32_t last, PathResult* result) {
  result->cells.clear();
  for (uint32_t i = last;; i = s.nodes[i].parent) {
    result->cells.push_back(map.CellOfPaddedIndex(i));
    if (i == start) break;
  }
  std::reverse(result->cells.begin(), result->cells.end());
  result->cost = s.nodes[last].g;
}

// Writes the outcome of a search: the path to the goal when it was expanded,
// else the path to `best` flagged partial. `reconstruct(start, last)` writes
// a path.
// `goal_closed`: whether the goal's record is closed.
template <typename Reconstruct>
void FinishSearchWith(bool goal_closed, const SearchParams& p,
                      const BestSoFar& best, PartialReason stop,
                      uint64_t expanded, uint64_t generated,
                      PathResult* result, const Reconstruct& reconstruct) {
  result->expanded = expanded;
  result->generated = generated;
  if (p.goal == kNoGoal) {
    // An exhaustive search: the caller reads the node records.
    result->partial = stop != PartialReason::kNone;
    result->partial_reason = stop;
    return;
  }
  if (stop == PartialReason::kNone && goal_closed) {
    reconstruct(p.start, p.goal);
    return;
  }
  // Out of budget. (An open list running dry cannot happen, since FindPath
  // has checked that start and goal share a component; were it to, the
  // result would still be a valid partial path.)
  assert(stop != PartialReason::kNone);
  result->partial = true;
  result->partial_reason = stop;
  reconstruct(p.start, best.cell);
}

// FinishSearchWith for searches whose records are s.nodes.
template <typename Reconstruct>
void FinishSearch(const SearchState& s, const SearchParams& p,
                  const BestSoFar& best, PartialReason stop, uint64_t expanded,
                  uint64_t generated, PathResult* result,
                  const Reconstruct& reconstruct) {
  const bool goal_closed =
      p.goal != kNoGoal && s.nodes[p.goal].stamp == s.closed_mark;
  FinishSearchWith(goal_closed, p, best, stop, expanded, generated, result,
                   reconstruct);
}

// Where RunSearchLoop keeps its node records: s.nodes (a plain array), or
// a SparseNodes table (sparse_nodes.h) for searches of huge maps.
struct DenseNodes {
  Node* data;
  GRIDSTAR_ALWAYS_INLINE Node& operator[](uint32_t cell) const {
    return data[cell];
  }
};
struct SparseNodesRef {
  SparseNodes<Node>* table;
  GRIDSTAR_ALWAYS_INLINE Node& operator[](uint32_t cell) const {
    return table->At(cell);
  }
};

template <typename Expander, typename Queue, typename Nodes = DenseNodes>
void RunSearchLoop(const GridMap& map, const SearchParams& p, SearchState& s,
                   Queue& open, const Expander& ex, PathResult* result,
                   Nodes nodes = Nodes{nullptr}) {
  if constexpr (std::is_same_v<Nodes, DenseNodes>) nodes.data = s.nodes.data();
  // Local copies of what the loop reads per expansion: the node stores
  // cannot alias them, so they stay in registers.
  const uint32_t goal = p.goal;
  const int32_t goal_x = p.goal_x, goal_y = p.goal_y;
  const double max_g = p.max_g;
  const int32_t pw = map.padded_width();
  const uint32_t open_mark = s.open_mark;
  const uint32_t closed_mark = s.closed_mark;
  const bool budgeted = Budgeted(p);
  const double inv_pw = 1.0 / pw;
  std::vector<uint32_t>* const trace = p.trace;

  uint64_t expanded = 0, generated = 1;
  nodes[p.start] = Node{0.0, p.start, open_mark};
  {
    const Cell c = map.CellOfPaddedIndex(p.start);
    const double h = ex.Heuristic(c.x + 1, c.y + 1, p.start);
    open.Push(p.start, h, h);
  }
  BestSoFar best{p.start, 1e300, 0.0};
  PartialReason stop = PartialReason::kNone;

  std::vector<uint32_t>& ties = s.ties;
  uint32_t* heap_pos = s.heap_pos.data();
  constexpr uint32_t kInTies = UINT32_MAX;
  double tie_limit = -1;

  while ((Expander::kTies && !ties.empty()) || !open.empty()) {
    uint32_t cur;
    if (Expander::kTies && !ties.empty()) {
      cur = ties.back();
      ties.pop_back();
    } else {
      double f;
      cur = open.PopMin(&f);
      if constexpr (Expander::kTies) tie_limit = f + 1e-9 * (1.0 + f);
    }
    Node& cn = nodes[cur];
    if (cn.stamp == closed_mark) continue;  // A stale duplicate (lazy queue).
    // A bounded exhaustive search (h = 0) is done: every cell left costs more.
    if (cn.g > max_g) break;
    cn.stamp = closed_mark;
    ++expanded;
    if (trace != nullptr) trace->push_back(cur);
    if (cur == goal) break;
    int32_t cx, cy;
    if constexpr (Expander::kDivideByMultiply) {
      // cur / pw by a multiply: exact after one correction, since
      // cur < 2^27.
      cy = static_cast<int32_t>(cur * inv_pw);
      cx = static_cast<int32_t>(cur) - cy * pw;
      if (cx >= pw) {
        cx -= pw;
        ++cy;
      } else if (cx < 0) {
        cx += pw;
        --cy;
      }
    } else {
      cx = static_cast<int32_t>(cur % static_cast<uint32_t>(pw));
      cy = static_cast<int32_t>(cur / static_cast<uint32_t>(pw));
    }
    const double g = cn.g;
    if (budgeted) {
      best.Offer(
          cur, GridDistance(cx - goal_x, cy - goal_y, Expander::kDiagonal), g);
      stop = BudgetExhausted(p, expanded, generated);
      if (stop != PartialReason::kNone) break;
    }

    auto enqueue = [&](uint32_t nb, double f, double h)
        __attribute__((always_inline)) {
      if (Expander::kTies && f <= tie_limit) {
        ties.push_back(nb);
        if constexpr (!Queue::kLazy) heap_pos[nb] = kInTies;
      } else {
        open.Push(nb, f, h);
      }
    };
    auto relax = [&](uint32_t nb, double ng, int32_t nx, int32_t ny)
        __attribute__((always_inline)) {
      Node& n = nodes[nb];
      if (n.stamp == closed_mark) return;
      if (n.stamp == open_mark) {
        if (!(ng < n.g)) return;
        n.g = ng;
        n.parent = cur;
        if constexpr (!Queue::kLazy) {
          // Decrease-key in place; a cell on the tie stack is expanded with
          // its new g anyway.
          if (heap_pos[nb] != kInTies) {
            const double h = ex.Heuristic(nx, ny, nb);
            open.Decrease(nb, ng + h, h);
          }
          return;
        }
        // A lazy queue takes a second entry; the old one is skipped when
        // popped.
      } else {
        n = Node{ng, cur, open_mark};
        ++generated;
      }
      const double h = ex.Heuristic(nx, ny, nb);
      enqueue(nb, ng + h, h);
    };
    // (Read before expanding: a sparse table may move cn's record.)
    const uint32_t parent = cn.parent;
    ex.Expand(cur, cx, cy, g, parent, relax);
  }

  const bool goal_closed =
      goal != kNoGoal && nodes[goal].stamp == closed_mark;
  FinishSearchWith(goal_closed, p, best, stop, expanded, generated, result,
                   [&](uint32_t start, uint32_t last) {
                     ex.Reconstruct(s, nodes, start, last, result);
                   });
}

// The engines. Each fills cells, cost, expanded, generated and the partial
// fields of *result.
void RunBestFirst(const GridMap& map, DiagonalPolicy policy,
                  const SearchParams& params, SearchState& state,
                  PathResult* result);
void RunBaseline(const GridMap& map, DiagonalPolicy policy,
                 const SearchParams& params, SearchState& state,
                 PathResult* result);
void RunBidirectional(const GridMap& map, DiagonalPolicy policy,
                      const SearchParams& params, SearchState& state,
                      PathResult* result);
// Dijkstra from `source` over its component under `policy`, stopping once g
// exceeds max_g, for the budget, or past max_nodes node records (0 = none).
// Afterwards a cell was reached, with its exact distance in
// state.nodes[padded].g and its parent (one move closer to the source), iff its
// stamp is state.closed_mark. Returns why it stopped early (kNone: it
// finished). REQUIRES: source passable and the map within the context's
// capacity.
PartialReason RunDistanceSearch(const GridMap& map, Cell source,
                                DiagonalPolicy policy, double max_g,
                                const SearchBudget& budget, uint64_t max_nodes,
                                SearchState& state, uint64_t* expanded);

}  // namespace gridstar::internal

#endif  // GRIDSTAR_SRC_SEARCH_SEARCH_LOOP_H_
