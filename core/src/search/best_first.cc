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
// The loop itself is search_loop.h's RunSearchLoop; this file supplies the cells'
// neighbours and the heuristic.
//
// Correctness: the heuristics are consistent (see FindPath), so an expanded
// cell is final and never reopened; with an inflated heuristic (weighted) not
// reopening keeps the cost within the weight of the optimum.

#include <algorithm>
#include <cmath>
#include <cstdint>

#include "search/search_loop.h"

namespace gridstar::internal {
namespace {

// The eight (or four) neighbours of a cell, with the octile/Manhattan
// heuristic raised by the landmarks' differential bounds when the query has
// them (one well-predicted branch when it has not).
template <DiagonalPolicy kPolicy>
class CellExpander {
 public:
  static constexpr bool kTies = true;
  static constexpr bool kDivideByMultiply = true;
  static constexpr bool kDiagonal = kPolicy != DiagonalPolicy::kNever;

  CellExpander(const GridMap& map, const SearchParams& p)
      : map_(&map),
        costs_(map.padded_costs()),
        pw_(map.padded_width()),
        goal_x_(p.goal_x),
        goal_y_(p.goal_y),
        h_scale_(p.h_scale),
        landmarks_(p.landmarks),
        goal_landmarks_(p.goal_landmarks),
        landmark_count_(p.landmark_count) {}

  GRIDSTAR_ALWAYS_INLINE double Heuristic(int32_t x, int32_t y,
                                          uint32_t cell) const {
    double h = h_scale_ * GridDistance(x - goal_x_, y - goal_y_, kDiagonal);
    if (landmarks_ != nullptr) {
      const double* at = landmarks_ + size_t{cell} * landmark_count_;
      for (int k = 0; k < landmark_count_; ++k) {
        h = std::max(h, std::abs(goal_landmarks_[k] - at[k]));
      }
    }
    return h;
  }

  template <typename Relax>
  GRIDSTAR_ALWAYS_INLINE void Expand(uint32_t cur, int32_t cx, int32_t cy,
                                     double g, uint32_t, Relax& relax) const {
    // Locals, which the stores of relax cannot alias.
    const uint8_t* costs = costs_;
    const int32_t pw = pw_;
    const double ca = costs[cur];
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
      constexpr auto allowed = DiagonalAllowed<kPolicy>;
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

  // (Its records are always s.nodes.)
  void Reconstruct(const SearchState& s, DenseNodes, uint32_t start,
                   uint32_t last, PathResult* result) const {
    ReconstructPath(*map_, s, start, last, result);
  }

 private:
  // Values, not references: the loop keeps its copy in registers.
  const GridMap* map_;
  const uint8_t* costs_;
  int32_t pw_;
  int32_t goal_x_, goal_y_;
  double h_scale_;
  const double* landmarks_;
  const double* goal_landmarks_;
  int landmark_count_;
};

template <DiagonalPolicy kPolicy>
void SearchWithQueue(const GridMap& map, const SearchParams& params,
                     SearchState& state, PathResult* result) {
  CellExpander<kPolicy> expander(map, params);
  if (params.consistent) {
    RunSearchLoop(map, params, state, state.radix, expander, result);
  } else {
    state.PrepareIndexedOpenList(map);
    RunSearchLoop(map, params, state, state.open, expander, result);
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
