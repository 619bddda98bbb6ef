// Flow fields and the exhaustive Dijkstra they (and landmarks) stand on: the
// best-first engine with no heuristic and no goal, so it reaches cells in
// order of cost with the same open lists and node records as every search.

#include "gridstar/flow_field.h"

#include <cmath>
#include <limits>

#include "absl/strings/str_cat.h"
#include "search/checks.h"
#include "search/search_loop.h"

namespace gridstar {
namespace internal {

PartialReason RunDistanceSearch(const GridMap& map, Cell source,
                                DiagonalPolicy policy, double max_g,
                                const SearchBudget& budget, uint64_t max_nodes,
                                SearchState& state, uint64_t* expanded) {
  state.BeginSearch(map);
  SearchParams p;
  p.start = map.PaddedIndex(source);
  p.goal = kNoGoal;
  p.goal_x = source.x + 1;  // Unused: h_scale is 0.
  p.goal_y = source.y + 1;
  p.h_scale = 0;
  p.consistent = true;
  p.budget = budget;
  p.max_nodes = max_nodes;
  p.max_g = max_g;
  PathResult counters;  // Only its counters are written: nothing allocates.
  RunBestFirst(map, policy, p, state, &counters);
  *expanded = counters.expanded;
  return counters.partial_reason;
}

}  // namespace internal

double FlowField::CostToGoal(Cell c) const {
  return InBounds(c) ? costs_[Index(c)]
                     : std::numeric_limits<double>::infinity();
}

uint8_t FlowField::Direction(Cell c) const {
  return InBounds(c) ? directions_[Index(c)] : kUnreached;
}

absl::Status FlowField::PathFrom(Cell start, std::vector<Cell>* cells,
                                 double* cost) const {
  cells->clear();
  if (!InBounds(start)) {
    return absl::InvalidArgumentError(
        absl::StrCat("start: (", start.x, ", ", start.y, ") is outside the ",
                     width_, " x ", height_, " map"));
  }
  if (Direction(start) == kUnreached) {
    return absl::NotFoundError(absl::StrCat(
        "no path: the flow field of goal (", goal_.x, ", ", goal_.y,
        ") does not reach start (", start.x, ", ", start.y, ")"));
  }
  Cell c = start;
  cells->push_back(c);
  // Each step lowers the cost, so the walk ends at the goal; the bound only
  // guards the invariant.
  for (int64_t steps = 0; c != goal_ && steps < reached_; ++steps) {
    const uint8_t d = directions_[Index(c)];
    assert(d < 8);
    c = {c.x + kMoveDx[d], c.y + kMoveDy[d]};
    cells->push_back(c);
  }
  *cost = costs_[Index(start)];
  return absl::OkStatus();
}

size_t FlowField::MemoryBytes() const {
  return sizeof(*this) + costs_.capacity() * sizeof(double) +
         directions_.capacity();
}

absl::StatusOr<FlowField> ComputeFlowField(const GridMap& map,
                                           const FlowFieldQuery& q,
                                           SearchContext& context) {
  if (!(q.max_cost >= 0) || !std::isfinite(q.max_cost)) {
    return absl::InvalidArgumentError(absl::StrCat(
        "max_cost: ", q.max_cost, " must be 0 (no bound) or positive"));
  }
  if (absl::Status s = ValidateMovement(q.movement); !s.ok()) return s;
  if (absl::Status s = internal::CheckCapacity(map, context); !s.ok()) {
    return s;
  }
  if (absl::Status s = map.CheckPassable("goal", q.goal); !s.ok()) return s;

  internal::SearchState& state = context.state();
  uint64_t expanded = 0;
  const PartialReason stop = internal::RunDistanceSearch(
      map, q.goal, q.movement.diagonal,
      q.max_cost > 0 ? q.max_cost : std::numeric_limits<double>::infinity(),
      q.budget, context.options().max_search_nodes, state, &expanded);

  FlowField f;
  f.width_ = map.width();
  f.height_ = map.height();
  f.goal_ = q.goal;
  f.diagonal_ = q.movement.diagonal;
  f.complete_ = stop == PartialReason::kNone;
  f.stop_reason_ = stop;
  const size_t n = static_cast<size_t>(map.cell_count());
  f.costs_.assign(n, std::numeric_limits<double>::infinity());
  f.directions_.assign(n, FlowField::kUnreached);
  const int64_t pw = map.padded_width();
  // The move to the parent by its padded offset: offset + pw + 1 is
  // (dy + 1) * pw + (dx + 1), read from a 3 x 3 table.
  uint8_t by_offset[3][3];
  for (uint8_t d = 0; d < 8; ++d) by_offset[kMoveDy[d] + 1][kMoveDx[d] + 1] = d;
  const uint32_t source = map.PaddedIndex(q.goal);
  const uint32_t closed = state.closed_mark;
  const internal::Node* nodes = state.nodes.data();
  for (int32_t y = 0; y < map.height(); ++y) {
    const uint32_t row = map.PaddedIndex({0, y});
    double* costs = f.costs_.data() + static_cast<size_t>(y) * map.width();
    uint8_t* directions =
        f.directions_.data() + static_cast<size_t>(y) * map.width();
    for (int32_t x = 0; x < map.width(); ++x) {
      const internal::Node& node = nodes[row + static_cast<uint32_t>(x)];
      if (node.stamp != closed) continue;
      costs[x] = node.g;
      const int64_t code =
          int64_t{node.parent} - (row + x) + pw + 1;  // In [0, 2 * pw + 2].
      const int64_t dy = code >= 2 * pw ? 2 : code >= pw ? 1 : 0;
      directions[x] = row + static_cast<uint32_t>(x) == source
                          ? FlowField::kAtGoal
                          : by_offset[dy][code - dy * pw];
      ++f.reached_;
    }
  }
  // Only now, with the records read: this may hand their pages back.
  context.AfterSearch(expanded);
  return f;
}

}  // namespace gridstar
