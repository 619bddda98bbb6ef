// FlowField: the cost to one goal and the first move towards it, for every
// cell that can reach the goal, from one Dijkstra search outward from the
// goal. Moves cost the same both ways (find_path.h), so distances from the
// goal are distances to it, and each cell's parent in the search tree is its
// optimal next step: any number of units then follow optimal paths without
// searching. Exact under every DiagonalPolicy and on terrain costs.
//
// Thread-safety: a FlowField is immutable once computed; any number of
// threads may read one. ComputeFlowField uses the context like FindPath.
//
// Invariants: Direction(c) is a legal move under the field's policy from c to
// a cell whose CostToGoal is CostToGoal(c) minus that move's cost; the goal
// has kAtGoal; cells not reached have kUnreached and an infinite cost.

#ifndef GRIDSTAR_FLOW_FIELD_H_
#define GRIDSTAR_FLOW_FIELD_H_

#include <cstdint>
#include <vector>

#include "absl/status/status.h"
#include "absl/status/statusor.h"
#include "gridstar/grid_map.h"
#include "gridstar/path_query.h"
#include "gridstar/query.h"
#include "gridstar/search_context.h"
#include "gridstar/types.h"

namespace gridstar {

struct FlowFieldQuery {
  Cell goal;
  MovementModel movement;
  // Cells whose cost to the goal exceeds this are left out (a local field
  // around the goal); 0 means the goal's whole component.
  double max_cost = 0;
  // When the budget stops the search (max_expansions counts cells reached),
  // the field holds the cells reached so far (all exact: Dijkstra reaches
  // cells in order of cost) and complete() is false.
  SearchBudget budget;
};

class FlowField {
 public:
  static constexpr uint8_t kAtGoal = 8;
  static constexpr uint8_t kUnreached = 255;

  int32_t width() const { return width_; }
  int32_t height() const { return height_; }
  Cell goal() const { return goal_; }
  DiagonalPolicy diagonal() const { return diagonal_; }
  // False when the budget stopped the search early.
  bool complete() const { return complete_; }
  PartialReason stop_reason() const { return stop_reason_; }
  // Cells reached, the goal included.
  int64_t reached() const { return reached_; }

  // The cost of the cheapest path from c to the goal; +infinity when c was
  // not reached or lies off the map.
  double CostToGoal(Cell c) const;
  // kMoveDx[d], kMoveDy[d] is the first move from c; kAtGoal at the goal;
  // kUnreached when c was not reached or lies off the map.
  uint8_t Direction(Cell c) const;

  // The optimal path from `start` to the goal, both included, by following
  // the directions, and its cost. InvalidArgument naming "start" when start
  // is off the map; NotFound when the field does not reach it (blocked cells
  // are never reached).
  absl::Status PathFrom(Cell start, std::vector<Cell>* cells,
                        double* cost) const;

  // Row-major, as GridMap::FromCosts takes cells.
  const std::vector<double>& costs() const { return costs_; }
  const std::vector<uint8_t>& directions() const { return directions_; }

  size_t MemoryBytes() const;

 private:
  friend absl::StatusOr<FlowField> ComputeFlowField(const GridMap&,
                                                    const FlowFieldQuery&,
                                                    SearchContext&);
  size_t Index(Cell c) const {
    return static_cast<size_t>(c.y) * static_cast<size_t>(width_) +
           static_cast<size_t>(c.x);
  }
  bool InBounds(Cell c) const {
    return c.x >= 0 && c.y >= 0 && c.x < width_ && c.y < height_;
  }

  int32_t width_ = 0;
  int32_t height_ = 0;
  Cell goal_;
  DiagonalPolicy diagonal_ = DiagonalPolicy::kNoCornerCutting;
  bool complete_ = true;
  PartialReason stop_reason_ = PartialReason::kNone;
  int64_t reached_ = 0;
  std::vector<double> costs_;
  std::vector<uint8_t> directions_;
};

// Computes the field of query.goal on `map`. InvalidArgument naming the field
// for a blocked or off-map goal or a negative or non-finite max_cost;
// ResourceExhausted when the map exceeds the context's capacity.
absl::StatusOr<FlowField> ComputeFlowField(const GridMap& map,
                                           const FlowFieldQuery& query,
                                           SearchContext& context);

}  // namespace gridstar

#endif  // GRIDSTAR_FLOW_FIELD_H_
