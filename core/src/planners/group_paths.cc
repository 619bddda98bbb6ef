#include "gridstar/group_paths.h"

#include <algorithm>
#include <cmath>
#include <cstdlib>
#include <limits>

#include "absl/container/flat_hash_map.h"
#include "absl/strings/str_cat.h"
#include "absl/time/clock.h"
#include "base/geometry.h"
#include "gridstar/auto_choice.h"
#include "gridstar/find_path.h"
#include "search/checks.h"

namespace gridstar {
namespace {

using internal::CellDistance;

absl::Status ValidateGroup(const GroupQuery& q) {
  if (q.starts.empty()) {
    return absl::InvalidArgumentError("starts: the group has no units");
  }
  if (q.goals.size() != 1 && q.goals.size() != q.starts.size()) {
    return absl::InvalidArgumentError(
        absl::StrCat("goals: ", q.goals.size(), " goals for ", q.starts.size(),
                     " units; give one shared goal or one goal per unit"));
  }
  if (q.algorithm == Algorithm::kBaseline) {
    return absl::InvalidArgumentError(
        "algorithm: baseline is a yardstick and not offered for groups");
  }
  if (absl::Status s = ValidateAlgorithm(q.algorithm, q.weight); !s.ok()) {
    return s;
  }
  if (absl::Status s = ValidateMovement(q.movement); !s.ok()) return s;
  if (q.method != GroupMethod::kAuto && q.method != GroupMethod::kSplice &&
      q.method != GroupMethod::kFlowField) {
    return absl::InvalidArgumentError(absl::StrCat(
        "method: unknown value ", static_cast<int>(q.method)));
  }
  if (q.flow_field_min_units < 1) {
    return absl::InvalidArgumentError(absl::StrCat(
        "flow_field_min_units: ", q.flow_field_min_units, " must be at least 1"));
  }
  if (q.max_splice_distance < 1 || q.max_splice_distance > kMaxSpliceDistance) {
    return absl::InvalidArgumentError(
        absl::StrCat("max_splice_distance: ", q.max_splice_distance,
                     " is out of range [1, ", kMaxSpliceDistance, "]"));
  }
  return absl::OkStatus();
}

// Removes every loop from a path: when a cell comes back, everything since
// its first visit goes. Costs are positive, so this never raises the cost,
// and the move into the repeated cell stays legal from its first visit.
void RemoveLoops(std::vector<Cell>* cells,
                 absl::flat_hash_map<uint64_t, size_t>* seen) {
  seen->clear();
  size_t out = 0;
  for (size_t i = 0; i < cells->size(); ++i) {
    const Cell c = (*cells)[i];
    const uint64_t key =
        (static_cast<uint64_t>(static_cast<uint32_t>(c.y)) << 32) |
        static_cast<uint32_t>(c.x);
    auto [it, inserted] = seen->try_emplace(key, out);
    if (!inserted) {
      // Forget the cells of the loop, then continue from the first visit.
      for (size_t k = it->second + 1; k < out; ++k) {
        const Cell d = (*cells)[k];
        seen->erase((static_cast<uint64_t>(static_cast<uint32_t>(d.y)) << 32) |
                    static_cast<uint32_t>(d.x));
      }
      out = it->second + 1;
      continue;
    }
    (*cells)[out++] = c;
  }
  cells->resize(out);
}

class GroupSolver {
 public:
  GroupSolver(const GridMap& map, const GroupQuery& q, SearchContext& context,
              GroupResult* result)
      : map_(map), q_(q), context_(context), result_(result) {}

  void Solve() {
    const size_t n = q_.starts.size();
    result_->units.assign(n, UnitPath());
    std::vector<size_t> valid;
    for (size_t i = 0; i < n; ++i) {
      UnitPath& u = result_->units[i];
      u.status = CheckEnd("starts", i, q_.starts[i]);
      if (u.status.ok()) {
        u.status = CheckEnd("goals", q_.goals.size() == 1 ? 0 : i, Goal(i));
      }
      if (u.status.ok()) valid.push_back(i);
    }
    if (valid.empty()) return;
    if (UseFlowField(valid.size())) {
      FollowFlowField(valid);
      return;
    }

    const size_t rep = Medoid(valid);
    UnitPath& rep_unit = result_->units[rep];
    if (!Search(q_.starts[rep], Goal(rep), &rep_unit, &leg_)) {
      // The representative has no path (or the budget ran out): every unit
      // searches on its own.
      for (size_t i : valid) {
        if (i != rep) SolveAlone(i);
      }
      return;
    }
    // With the representative's path in hand, the measured model knows how
    // far this goal's paths wind: a field may win after all (the one search
    // made stays counted).
    if (q_.method == GroupMethod::kAuto && q_.goals.size() == 1) {
      const double octile_cost =
          // Octile, as MeasureGroups measured the detour.
          CellDistance(q_.starts[rep], Goal(rep),
                       DiagonalPolicy::kNoCornerCutting) *
          map_.min_cost();
      if (octile_cost > 0 &&
          UseFlowField(valid.size(), leg_.cost / octile_cost)) {
        FollowFlowField(valid);
        return;
      }
    }
    const uint64_t expanded = rep_unit.path.expanded;
    std::swap(rep_unit.path, leg_);
    rep_unit.path.expanded = expanded;
    const PathResult& shared = rep_unit.path;
    PrefixCosts(shared.cells);
    for (size_t i : valid) {
      if (i == rep) continue;
      if (!Splice(i, shared.cells)) SolveAlone(i);
    }
    if (q_.report_overhead) ReportOverhead();
  }

 private:
  Cell Goal(size_t i) const {
    return q_.goals.size() == 1 ? q_.goals[0] : q_.goals[i];
  }

  bool GivenFieldMatches() const {
    const FlowField* f = q_.flow_field;
    return f != nullptr && f->complete() && f->goal() == q_.goals[0] &&
           f->diagonal() == q_.movement.diagonal && f->width() == map_.width() &&
           f->height() == map_.height();
  }

  // `detour`: the representative's path cost over its octile distance's
  // cost, once its path is known (0 before): splicing to a goal whose paths
  // wind more than the measurement's did costs that much more.
  bool UseFlowField(size_t units, double detour = 0) const {
    if (q_.goals.size() != 1) return false;
    switch (q_.method) {
      case GroupMethod::kSplice:
        return false;
      case GroupMethod::kFlowField:
        return true;
      case GroupMethod::kAuto:
        break;
    }
    if (GivenFieldMatches()) return true;
    if (units < static_cast<size_t>(q_.flow_field_min_units)) return false;
    const Algorithm engine =
        ResolveAlgorithm(map_, LegQuery(q_.starts[0], q_.goals[0], q_.algorithm));
    // Measured on this map (auto_choice.h): a field sweeps the passable
    // cells (the goal's component, most of them on most maps) at its time
    // per cell, then each unit follows it; splicing costs its measured
    // time per cell of the units' distance to the goal. The cheaper wins.
    const AutoChoice* choice = AutoChoiceOf(map_);
    if (choice != nullptr && choice->policy == q_.movement.diagonal &&
        choice->flow_us_per_cell > 0) {
      for (const AutoCandidate& c : choice->candidates) {
        if (c.algorithm != engine || c.queries == 0) continue;
        const double n = static_cast<double>(units);
        const double field_us = choice->flow_us_per_cell *
                                    static_cast<double>(map_.passable_count()) +
                                n * choice->follow_us_per_unit;
        // Splicing as timed on the chosen engine's legs per cell of the
        // units' distance to the goal, scaled to this engine's search
        // time; a search per unit when not timed.
        double splice_us = n * c.mean_us;
        if (choice->splice_us_per_cell > 0 && choice->search_us > 0) {
          double distance = 0;
          for (const Cell& s : q_.starts) {
            // Octile, as MeasureGroups priced it.
            distance +=
                CellDistance(s, q_.goals[0], DiagonalPolicy::kNoCornerCutting);
          }
          splice_us = distance * choice->splice_us_per_cell * c.mean_us /
                      choice->search_us;
          if (detour > 0 && choice->splice_detour > 0) {
            splice_us *= detour / choice->splice_detour;
          }
        }
        return field_us < splice_us;
      }
    }
    // Not measured: where jump point search runs, a unit's search costs a
    // few jump points, and splicing beats sweeping the whole component
    // (measured in docs/performance.md).
    return engine != Algorithm::kJps && engine != Algorithm::kJpsPlus;
  }

  // Every valid unit follows the shared goal's field: optimal paths, one
  // search (none with a given field).
  void FollowFlowField(const std::vector<size_t>& valid) {
    result_->used_flow_field = true;
    const FlowField* field = q_.flow_field;
    if (!GivenFieldMatches()) {
      FlowFieldQuery fq;
      fq.goal = q_.goals[0];
      fq.movement = q_.movement;
      fq.budget = CallBudget();
      ++result_->searches;
      absl::StatusOr<FlowField> computed =
          ComputeFlowField(map_, fq, context_);
      if (!computed.ok()) {
        for (size_t i : valid) result_->units[i].status = computed.status();
        return;
      }
      auto shared = std::make_shared<const FlowField>(*std::move(computed));
      field = shared.get();
      if (shared->complete()) {
        result_->computed_flow_field = std::move(shared);
      } else {
        own_field_ = std::move(shared);
      }
    }
    for (size_t i : valid) {
      UnitPath& u = result_->units[i];
      u.path.algorithm = Algorithm::kDijkstra;
      u.path.start = q_.starts[i];
      u.path.goal = q_.goals[0];
      absl::Status s = field->PathFrom(q_.starts[i], &u.path.cells, &u.path.cost);
      if (absl::IsNotFound(s) && !field->complete()) {
        s = StopStatus(field->stop_reason(), q_.budget,
                       static_cast<uint64_t>(field->reached()));
      }
      if (absl::IsNotFound(s)) {
        s = internal::NoPathError(q_.starts[i], q_.goals[0]);
      }
      u.status = s;
      // Field paths are optimal: no overhead to report.
      if (s.ok() && q_.report_overhead) u.independent_cost = u.path.cost;
    }
  }

  absl::Status CheckEnd(absl::string_view field, size_t i, Cell c) const {
    return map_.CheckPassable(absl::StrCat(field, "[", i, "]"), c);
  }

  // The query of one leg of the group from a to b: the group's movement and
  // budget.
  PathQuery LegQuery(Cell a, Cell b, Algorithm algorithm) const {
    PathQuery pq;
    pq.start = a;
    pq.goal = b;
    pq.algorithm = algorithm;
    pq.weight = q_.weight;
    pq.movement = q_.movement;
    pq.budget = q_.budget;
    return pq;
  }

  // The budget of the whole call, without the per-search expansion limit.
  SearchBudget CallBudget() const {
    SearchBudget b = q_.budget;
    b.max_expansions = 0;
    return b;
  }

  static bool BudgetGone(const absl::Status& s) {
    return absl::IsDeadlineExceeded(s) || absl::IsCancelled(s) ||
           absl::IsResourceExhausted(s);
  }

  // The valid unit whose start has the least summed distance to the others.
  // Quadratic, so beyond 256 units only a strided sample is considered.
  size_t Medoid(const std::vector<size_t>& valid) const {
    const size_t stride = std::max<size_t>(1, valid.size() / 256);
    size_t best = valid[0];
    double best_sum = std::numeric_limits<double>::infinity();
    for (size_t a = 0; a < valid.size(); a += stride) {
      double sum = 0;
      for (size_t b = 0; b < valid.size(); b += stride) {
        sum += CellDistance(q_.starts[valid[a]], q_.starts[valid[b]],
                            q_.movement.diagonal);
      }
      if (sum < best_sum) {
        best_sum = sum;
        best = valid[a];
      }
    }
    return best;
  }

  // One search from a to b into *out; counts it and sums its expansions into
  // the unit. False (with the unit's status set) when it gives no full path.
  bool Search(Cell a, Cell b, UnitPath* unit, PathResult* out) {
    if (const PartialReason stop = q_.budget.CheckNow();
        stop != PartialReason::kNone) {
      unit->status = StopStatus(stop, q_.budget, unit->path.expanded);
      return false;
    }
    ++result_->searches;
    const absl::Status s =
        FindPath(map_, LegQuery(a, b, q_.algorithm), context_, out);
    unit->path.expanded += out->expanded;
    if (!s.ok()) {
      unit->status = s;
      return false;
    }
    if (out->partial) {
      unit->status = StopStatus(out->partial_reason, q_.budget, out->expanded);
      return false;
    }
    return true;
  }

  void SolveAlone(size_t i) {
    UnitPath& u = result_->units[i];
    u.spliced = false;
    u.status = absl::OkStatus();
    u.path.cells.clear();
    u.path.cost = 0;
    if (Search(q_.starts[i], Goal(i), &u, &leg_)) {
      const uint64_t expanded = u.path.expanded;
      std::swap(u.path, leg_);
      u.path.expanded = expanded;
    }
    u.path.start = q_.starts[i];
    u.path.goal = Goal(i);
  }

  void PrefixCosts(const std::vector<Cell>& p) {
    prefix_.assign(p.size(), 0.0);
    for (size_t k = 1; k < p.size(); ++k) {
      prefix_[k] =
          prefix_[k - 1] + MoveCost(map_, p[k - 1], p[k], q_.movement.diagonal);
    }
  }

  // Splices unit i onto the shared path p. False when it should search on
  // its own instead (too far from p, another component, or a leg failed for
  // want of budget, which then is its status).
  bool Splice(size_t i, const std::vector<Cell>& p) {
    UnitPath& u = result_->units[i];
    const Cell s = q_.starts[i];
    const Cell g = Goal(i);
    if (!map_.Connected(s, p[0]) || !map_.Connected(g, p[0])) return false;
    const double limit = q_.max_splice_distance;
    const double unit_cost = map_.min_cost();
    const bool shared_goal = g == p.back();
    // est(j) = min over i <= j of (h(s, p[i]) - prefix[i]) + prefix[j] +
    // h(p[j], g); a shared goal always leaves at the end.
    double best_join = std::numeric_limits<double>::infinity();
    size_t join_at = 0, best_i = 0, best_j = 0;
    double best_est = std::numeric_limits<double>::infinity();
    for (size_t k = 0; k < p.size(); ++k) {
      const double d_in = CellDistance(s, p[k], q_.movement.diagonal);
      if (d_in <= limit && d_in * unit_cost - prefix_[k] < best_join) {
        best_join = d_in * unit_cost - prefix_[k];
        join_at = k;
      }
      if (best_join == std::numeric_limits<double>::infinity()) continue;
      if (shared_goal && k + 1 != p.size()) continue;
      const double d_out = CellDistance(p[k], g, q_.movement.diagonal);
      if (d_out > limit) continue;
      const double est = best_join + prefix_[k] + d_out * unit_cost;
      if (est < best_est) {
        best_est = est;
        best_i = join_at;
        best_j = k;
      }
    }
    if (best_est == std::numeric_limits<double>::infinity()) return false;

    std::vector<Cell>& cells = u.path.cells;
    cells.clear();
    // A failed leg ends the unit only when the budget is gone; otherwise it
    // searches on its own.
    if (!Search(s, p[best_i], &u, &leg_)) return BudgetGone(u.status);
    cells.insert(cells.end(), leg_.cells.begin(), leg_.cells.end());
    cells.insert(cells.end(), p.begin() + best_i + 1, p.begin() + best_j + 1);
    if (p[best_j] != g) {
      if (!Search(p[best_j], g, &u, &leg_)) {
        cells.clear();
        return BudgetGone(u.status);
      }
      cells.insert(cells.end(), leg_.cells.begin() + 1, leg_.cells.end());
    }
    RemoveLoops(&cells, &seen_);
    u.path.cost = PathCost(map_, cells, q_.movement.diagonal);
    u.path.start = s;
    u.path.goal = g;
    u.spliced = true;
    ++result_->spliced_units;
    return true;
  }

  void ReportOverhead() {
    double sum = 0;
    uint32_t counted = 0;
    for (size_t i = 0; i < result_->units.size(); ++i) {
      UnitPath& u = result_->units[i];
      if (!u.spliced || !u.status.ok()) continue;
      // The fastest exact search.
      const PathQuery pq = LegQuery(q_.starts[i], Goal(i), Algorithm::kAuto);
      if (!FindPath(map_, pq, context_, &leg_).ok() || leg_.partial) continue;
      u.independent_cost = leg_.cost;
      const double overhead = leg_.cost > 0 ? u.path.cost / leg_.cost - 1 : 0;
      sum += overhead;
      result_->max_cost_overhead = std::max(result_->max_cost_overhead, overhead);
      ++counted;
    }
    result_->mean_cost_overhead = counted > 0 ? sum / counted : 0;
  }

  const GridMap& map_;
  const GroupQuery& q_;
  SearchContext& context_;
  GroupResult* result_;
  PathResult leg_;
  std::shared_ptr<const FlowField> own_field_;  // An incomplete field.
  std::vector<double> prefix_;
  absl::flat_hash_map<uint64_t, size_t> seen_;
};

}  // namespace

absl::string_view GroupMethodName(GroupMethod method) {
  switch (method) {
    case GroupMethod::kAuto:
      return "auto";
    case GroupMethod::kSplice:
      return "splice";
    case GroupMethod::kFlowField:
      return "flow-field";
  }
  return "unknown";
}

absl::StatusOr<GroupMethod> ParseGroupMethod(absl::string_view name) {
  const std::string typed = NormalizeEnumName(name, "group_method_");
  for (GroupMethod m : kAllGroupMethods) {
    if (typed == NormalizeEnumName(GroupMethodName(m), "")) return m;
  }
  return absl::InvalidArgumentError(absl::StrCat(
      "method: unknown name '", name, "' (expected auto, splice or flow-field)"));
}

absl::Status FindGroupPaths(const GridMap& map, const GroupQuery& query,
                            SearchContext& context, GroupResult* result) {
  *result = GroupResult();
  if (absl::Status s = ValidateGroup(query); !s.ok()) return s;
  if (absl::Status s = internal::CheckCapacity(map, context); !s.ok()) {
    return s;
  }
  GroupSolver(map, query, context, result).Solve();
  return absl::OkStatus();
}

}  // namespace gridstar
