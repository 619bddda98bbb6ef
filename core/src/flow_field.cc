// Flow fields and the exhaustive Dijkstra they (and landmarks) stand on: the
// best-first engine with no heuristic and no goal, so it reaches cells in
// order of cost with the same open lists and node records as every search.

#include "gridstar/flow_field.h"

#include <cmath>
#include <limits>

#include "absl/strings/str_cat.h"
#include "search_state.h"

namespace gridstar {
namespace internal {

PartialReason RunDistanceSearch(const GridMap& map, Cell source,
                                DiagonalPolicy policy, double max_g,
                                absl::Time deadline,
                                const std::atomic<bool>* cancelled,
                                SearchState& state, uint64_t* expanded) {
  state.BeginSearch(map);
  SearchParams p;
  p.start = map.PaddedIndex(source);
  p.goal = kNoGoal;
  p.goal_x = source.x + 1;  // Unused: h_scale is 0.
  p.goal_y = source.y + 1;
  p.h_scale = 0;
  p.max_expansions = 0;
  p.consistent = true;
  p.deadline = deadline;
  p.cancelled = cancelled;
  p.has_deadline = deadline != absl::InfiniteFuture() || cancelled != nullptr;
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
  PathQuery as_path;  // Checks the policy value as FindPath would.
  as_path.diagonal = q.diagonal;
  if (absl::Status s = ValidatePathQuery(as_path); !s.ok()) return s;
  if (absl::Status s = internal::CheckCapacity(map, context); !s.ok()) {
    return s;
  }
  if (absl::Status s = map.CheckPassable("goal", q.goal); !s.ok()) return s;

  internal::SearchState& state = context.state();
  uint64_t expanded = 0;
  const PartialReason stop = internal::RunDistanceSearch(
      map, q.goal, q.diagonal,
      q.max_cost > 0 ? q.max_cost : std::numeric_limits<double>::infinity(),
      q.deadline, q.cancelled, state, &expanded);

  FlowField f;
  f.width_ = map.width();
  f.height_ = map.height();
  f.goal_ = q.goal;
  f.diagonal_ = q.diagonal;
  f.complete_ = stop == PartialReason::kNone;
  f.stop_reason_ = stop;
  const size_t n = static_cast<size_t>(map.cell_count());
  f.costs_.assign(n, std::numeric_limits<double>::infinity());
  f.directions_.assign(n, FlowField::kUnreached);
  const int32_t pw = map.padded_width();
  // The move from a cell to its parent, by padded index offset.
  auto direction_of = [pw](int64_t offset) -> uint8_t {
    for (uint8_t d = 0; d < 8; ++d) {
      if (offset == kMoveDy[d] * int64_t{pw} + kMoveDx[d]) return d;
    }
    assert(false);
    return FlowField::kUnreached;
  };
  const uint32_t source = map.PaddedIndex(q.goal);
  for (int32_t y = 0; y < map.height(); ++y) {
    for (int32_t x = 0; x < map.width(); ++x) {
      const uint32_t pi = map.PaddedIndex({x, y});
      const internal::Node& node = state.nodes[pi];
      if (node.stamp != state.closed_mark) continue;
      const size_t i = static_cast<size_t>(y) * map.width() + x;
      f.costs_[i] = node.g;
      f.directions_[i] =
          pi == source ? FlowField::kAtGoal
                       : direction_of(int64_t{node.parent} - int64_t{pi});
      ++f.reached_;
    }
  }
  return f;
}

}  // namespace gridstar
