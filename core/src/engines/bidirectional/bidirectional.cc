// Bidirectional A* (kBidirectional): a forward search from the start and a
// backward search from the goal (a move costs the same both ways, so the
// backward search expands cells exactly as a forward search from the goal
// would), with the balanced potentials of Ikeda et al. 1994 and Goldberg &
// Harrelson 2005: with hg(v) and hs(v) the heuristic bounds on the cost from
// v to the goal and to the start, p(v) = (hg(v) - hs(v)) / 2, the forward
// search orders cells by g + p and the backward one by g - p. Both potentials
// are consistent (each is an average of consistent ones), so each side is a
// Dijkstra on one graph of non-negative reduced costs and never reopens a
// cell. Every time a cell's g improves on one side while the other side has
// reached it, the path through it is a candidate; mu is the cheapest.
//
// Stopping rule (bidirectional Dijkstra's, on the reduced costs): along any
// path the two potentials cancel, so a path not yet found costs at least the
// least forward key plus the least backward key; once that is >= mu, the
// candidate mu is optimal. Unlike front-to-end bidirectional A* (stop when
// the larger least f reaches mu), whose frontiers pass each other, the two
// searches meet in the middle: on the 512 x 512 terrain map of
// docs/performance.md they expand two thirds of A*'s cells. Each step expands
// the side with fewer open entries (Pohl's cardinality rule), so the searches
// grow towards each other where the map is narrow.
//
// Open lists: each side's keys never fall below the last one it took (its
// reduced costs are non-negative), so each is a radix heap with lazy
// deletion (open_lists.h), ties to the cell nearer the side's target. A
// cell's stale entry (pushed before a cheaper one) has the larger key and
// comes up only after the cell is closed, when it is dropped.
//
// Memory: the forward records are SearchState::nodes, the backward ones
// SearchState::back_nodes (both stamped with the search's marks); the open
// lists' storage the state keeps, so repeated searches allocate nothing.
//
// Out of budget the result is flagged partial: the path through the best
// meeting when there is one (whole, not yet proven optimal), else the
// forward path to the forward-reached cell closest to the goal.

#include <algorithm>
#include <cmath>
#include <limits>

#include "base/geometry.h"
#include "search/search_loop.h"

namespace gridstar::internal {
namespace {

template <DiagonalPolicy kPolicy>
class Bidirectional {
 public:
  static constexpr bool kDiagonal = kPolicy != DiagonalPolicy::kNever;

  Bidirectional(const GridMap& map, const SearchParams& p, SearchState& s)
      : map_(map),
        p_(p),
        s_(s),
        costs_(map.padded_costs()),
        pw_(map.padded_width()),
        budgeted_(Budgeted(p)),
        best_{p.start, 1e300, 0.0} {
    const Cell start = map.CellOfPaddedIndex(p.start);
    side_[0] = {s.nodes.data(), &s.bidirectional_open[0], p.goal_x, p.goal_y};
    side_[1] = {s.back_nodes.data(), &s.bidirectional_open[1], start.x + 1,
                start.y + 1};
  }

  void Run(PathResult* result) {
    const uint32_t open_mark = s_.open_mark;
    for (int d = 0; d < 2; ++d) side_[d].open->Clear();
    const uint32_t ends[2] = {p_.start, p_.goal};
    for (int d = 0; d < 2; ++d) {
      side_[d].nodes[ends[d]] = Node{0.0, ends[d], open_mark};
      // An end's padded coordinates are what the other side aims at.
      Push(d, ends[d], side_[1 - d].target_x, side_[1 - d].target_y, 0.0);
    }
    PartialReason stop = PartialReason::kNone;
    for (;;) {
      DropClosedTops(0);
      DropClosedTops(1);
      // One side run dry: every cell it could reach is closed, so every
      // path was seen (the ends share a component; FindPath checked).
      if (side_[0].open->empty() || side_[1].open->empty()) break;
      // Every path not yet found costs at least the sum of the two least
      // keys (the potentials cancel along a path: see the header).
      double least[2];
      side_[0].open->Top(&least[0]);
      side_[1].open->Top(&least[1]);
      const double lower = least[0] + least[1];
      if (lower >= mu_ - 1e-9 * (1 + mu_)) break;
      const int d = side_[0].open->size() <= side_[1].open->size() ? 0 : 1;
      const uint32_t cur = Pop(d);
      Node& cn = side_[d].nodes[cur];
      cn.stamp = s_.closed_mark;
      ++expanded_;
      if (p_.trace != nullptr) p_.trace->push_back(cur);
      if (budgeted_) {
        stop = BudgetExhausted(p_, expanded_, generated_);
        if (stop != PartialReason::kNone) break;
      }
      Expand(d, cur, cn.g);
    }
    result->expanded = expanded_;
    result->generated = generated_;
    if (stop != PartialReason::kNone) {
      result->partial = true;
      result->partial_reason = stop;
      if (mu_ == kNoMeeting) {
        // The forward path to the cell reached closest to the goal.
        ReconstructPath(map_, s_, p_.start, best_.cell, result);
        return;
      }
      // A meeting is a whole path, if not yet a proven optimal one: the
      // best partial answer there is.
    }
    // Start .. meet from the forward records, then meet .. goal from the
    // backward ones. (A dry open list cannot leave mu unset: see above.)
    ReconstructPath(map_, s_, p_.start, meet_, result);
    const Node* back = side_[1].nodes;
    for (uint32_t i = meet_; i != p_.goal;) {
      i = back[i].parent;
      result->cells.push_back(map_.CellOfPaddedIndex(i));
    }
    result->cost = side_[0].nodes[meet_].g + back[meet_].g;
  }

 private:
  struct Side {
    Node* nodes;
    RadixQueue* open;
    int32_t target_x, target_y;  // Padded; what the heuristic aims at.
  };

  // The side's potential at padded (x, y): +p for the forward search, -p
  // for the backward one, with p = (distance bound to the goal - distance
  // bound to the start) / 2; *to_target gets the side's own bound.
  double Potential(int d, int32_t x, int32_t y, double* to_target) const {
    *to_target =
        GridDistance(x - side_[d].target_x, y - side_[d].target_y, kDiagonal);
    const double to_source =
        GridDistance(x - side_[1 - d].target_x, y - side_[1 - d].target_y,
                     kDiagonal);
    return 0.5 * p_.h_scale * (*to_target - to_source);
  }
  void Push(int d, uint32_t cell, int32_t x, int32_t y, double g) {
    double to_target;
    const double f = g + Potential(d, x, y, &to_target);
    side_[d].open->Push(cell, f, to_target);
  }
  uint32_t Pop(int d) {
    double f;
    return side_[d].open->PopMin(&f);
  }
  // Removes entries of closed cells from the top, so that Top() is a live
  // minimum.
  void DropClosedTops(int d) {
    RadixQueue& open = *side_[d].open;
    while (!open.empty()) {
      double f;
      if (side_[d].nodes[open.Top(&f)].stamp != s_.closed_mark) return;
      open.DropTop();
    }
  }

  void Relax(int d, uint32_t from, uint32_t to, int32_t x, int32_t y,
             double ng) {
    Node& n = side_[d].nodes[to];
    if (n.stamp == s_.closed_mark) return;
    if (n.stamp == s_.open_mark) {
      if (!(ng < n.g)) return;
      n.g = ng;
      n.parent = from;
    } else {
      n = Node{ng, from, s_.open_mark};
      ++generated_;
    }
    Push(d, to, x, y, ng);
    // Forward cells reached (not only expanded) are partial answers: their
    // parents are expanded, so the path to them is legal.
    if (d == 0 && budgeted_) {
      best_.Offer(to, GridDistance(x - p_.goal_x, y - p_.goal_y, kDiagonal),
                  ng);
    }
    const Node& other = side_[1 - d].nodes[to];
    if ((other.stamp == s_.open_mark || other.stamp == s_.closed_mark) &&
        ng + other.g < mu_) {
      mu_ = ng + other.g;
      meet_ = to;
    }
  }

  void Expand(int d, uint32_t cur, double g) {
    const int32_t cy = static_cast<int32_t>(cur / static_cast<uint32_t>(pw_));
    const int32_t cx = static_cast<int32_t>(cur % static_cast<uint32_t>(pw_));
    const uint8_t* costs = costs_;
    const uint32_t pw = static_cast<uint32_t>(pw_);
    const double ca = costs[cur];
    const uint32_t west = cur - 1, east = cur + 1;
    const uint32_t north = cur - pw, south = cur + pw;
    const uint8_t cw = costs[west], ce = costs[east];
    const uint8_t cn = costs[north], cs = costs[south];
    if (cw) Relax(d, cur, west, cx - 1, cy, g + 0.5 * (ca + cw));
    if (ce) Relax(d, cur, east, cx + 1, cy, g + 0.5 * (ca + ce));
    if (cn) Relax(d, cur, north, cx, cy - 1, g + 0.5 * (ca + cn));
    if (cs) Relax(d, cur, south, cx, cy + 1, g + 0.5 * (ca + cs));
    if constexpr (kDiagonal) {
      constexpr double kHalfDiag = 0.5 * kSqrt2;
      constexpr auto allowed = DiagonalAllowed<kPolicy>;
      const uint32_t diagonals[4] = {north - 1, north + 1, south - 1,
                                     south + 1};
      const bool legal[4] = {allowed(cn, cw), allowed(cn, ce),
                             allowed(cs, cw), allowed(cs, ce)};
      constexpr int32_t kDx[4] = {-1, 1, -1, 1}, kDy[4] = {-1, -1, 1, 1};
      for (int k = 0; k < 4; ++k) {
        const uint8_t c = costs[diagonals[k]];
        if (legal[k] && c != 0) {
          Relax(d, cur, diagonals[k], cx + kDx[k], cy + kDy[k],
                g + kHalfDiag * (ca + c));
        }
      }
    }
  }

  static constexpr double kNoMeeting = std::numeric_limits<double>::infinity();

  const GridMap& map_;
  const SearchParams& p_;
  SearchState& s_;
  const uint8_t* costs_;
  int32_t pw_;
  const bool budgeted_;
  Side side_[2];
  double mu_ = kNoMeeting;  // The cheapest meeting's cost.
  uint32_t meet_ = 0;       // Its cell.
  BestSoFar best_;          // Forward cell closest to the goal.
  uint64_t expanded_ = 0;
  uint64_t generated_ = 2;
};

}  // namespace

void RunBidirectional(const GridMap& map, DiagonalPolicy policy,
                      const SearchParams& params, SearchState& state,
                      PathResult* result) {
  state.PrepareBackward(map);
  switch (policy) {
    case DiagonalPolicy::kNever:
      return Bidirectional<DiagonalPolicy::kNever>(map, params, state)
          .Run(result);
    case DiagonalPolicy::kNoCornerCutting:
      return Bidirectional<DiagonalPolicy::kNoCornerCutting>(map, params,
                                                              state)
          .Run(result);
    case DiagonalPolicy::kAllowCornerCutting:
      return Bidirectional<DiagonalPolicy::kAllowCornerCutting>(map, params,
                                                                 state)
          .Run(result);
  }
}

}  // namespace gridstar::internal
