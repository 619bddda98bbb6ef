#include "gridstar/find_path.h"

#include <atomic>
#include <chrono>
#include <cmath>
#include <utility>
#include <vector>

#include "absl/status/status.h"
#include "absl/strings/str_cat.h"
#include "checks.h"
#include "search_loop.h"
#include "geometry.h"
#include "engines/hpa/hpa.h"
#include "engines/jps/jps.h"
#include "path_tools.h"
#include "engines/subgoal/subgoal_graph.h"

namespace gridstar {

absl::Status ValidateAlgorithm(Algorithm algorithm, double weight) {
  switch (algorithm) {
    case Algorithm::kAStar:
    case Algorithm::kWeighted:
    case Algorithm::kDijkstra:
    case Algorithm::kBaseline:
    case Algorithm::kJps:
    case Algorithm::kJpsPlus:
    case Algorithm::kAuto:
    case Algorithm::kAlt:
    case Algorithm::kBidirectional:
    case Algorithm::kHpa:
    case Algorithm::kTheta:
    case Algorithm::kSubgoal:
      break;
    default:
      return absl::InvalidArgumentError(absl::StrCat(
          "algorithm: unknown value ", static_cast<int>(algorithm)));
  }
  if (algorithm == Algorithm::kWeighted &&
      !(weight >= 1.0 && weight <= kMaxWeight)) {
    return absl::InvalidArgumentError(absl::StrCat(
        "weight: ", weight, " is out of range [1, ", kMaxWeight, "]"));
  }
  return absl::OkStatus();
}

absl::Status ValidatePathQuery(const PathQuery& q) {
  if (absl::Status s = ValidateAlgorithm(q.algorithm, q.weight); !s.ok()) {
    return s;
  }
  if (q.snap_radius < 0 || q.snap_radius > kMaxSnapRadius) {
    return absl::InvalidArgumentError(
        absl::StrCat("snap_radius: ", q.snap_radius, " is out of range [0, ",
                     kMaxSnapRadius, "]"));
  }
  return ValidateMovement(q.movement);
}

namespace internal {

absl::Status NoPathError(Cell start, Cell goal) {
  return absl::NotFoundError(absl::StrCat("no path: start (", start.x, ", ",
                                          start.y, ") and goal (", goal.x, ", ",
                                          goal.y,
                                          ") lie in different components"));
}

absl::Status CheckCapacity(const GridMap& map, const SearchContext& context) {
  if (static_cast<int64_t>(map.padded_size()) <= context.max_cells()) {
    return absl::OkStatus();
  }
  return absl::ResourceExhaustedError(absl::StrCat(
      "map: ", map.width(), " x ", map.height(),
      " (with border) is larger than the search context's capacity of ",
      context.max_cells(), " cells"));
}

}  // namespace internal

namespace {

// Whether the map's landmarks serve a search to `goal` under `policy`.
bool LandmarksServe(const GridMap& map, DiagonalPolicy policy, Cell goal) {
  return map.landmark_count() > 0 && map.landmark_policy() == policy &&
         map.Passable(goal) &&
         map.landmark_distances(map.PaddedIndex(goal))[0] >= 0;
}

// Whether the map's subgoal graph serves a query under `policy`.
bool SubgoalGraphServes(const GridMap& map, DiagonalPolicy policy) {
  return map.has_subgoal_graph() && map.uniform_cost() &&
         policy == DiagonalPolicy::kNoCornerCutting;
}

}  // namespace

Algorithm ResolveAlgorithm(const GridMap& map, const PathQuery& q) {
  switch (q.algorithm) {
    case Algorithm::kSubgoal:
      if (SubgoalGraphServes(map, q.movement.diagonal)) {
        return Algorithm::kSubgoal;
      }
      {
        PathQuery as_jps_plus = q;
        as_jps_plus.algorithm = Algorithm::kJpsPlus;
        return ResolveAlgorithm(map, as_jps_plus);
      }
    case Algorithm::kHpa:
      if (map.has_hpa() && map.hpa_policy() == q.movement.diagonal) {
        return Algorithm::kHpa;
      }
      {
        PathQuery as_auto = q;
        as_auto.algorithm = Algorithm::kAuto;
        return ResolveAlgorithm(map, as_auto);
      }
    case Algorithm::kAuto:
      if (const AutoChoice* choice = map.auto_choice();
          choice != nullptr && choice->policy == q.movement.diagonal) {
        const bool jump = map.uniform_cost() &&
                          q.movement.diagonal == DiagonalPolicy::kNoCornerCutting;
        switch (choice->algorithm) {
          case Algorithm::kJpsPlus:
            if (jump && map.has_jump_table()) return Algorithm::kJpsPlus;
            break;
          case Algorithm::kJps:
            if (jump) return Algorithm::kJps;
            break;
          case Algorithm::kAlt:
            if (LandmarksServe(map, q.movement.diagonal, q.goal)) {
              return Algorithm::kAlt;
            }
            break;
          case Algorithm::kSubgoal:
            if (SubgoalGraphServes(map, q.movement.diagonal)) {
              return Algorithm::kSubgoal;
            }
            break;
          case Algorithm::kAStar:
          case Algorithm::kBidirectional:
            return choice->algorithm;
          default:
            break;
        }
      }
      [[fallthrough]];
    case Algorithm::kJps:
    case Algorithm::kJpsPlus:
      // Jump point search prunes by symmetry of equal-cost moves under no
      // corner cutting; elsewhere only A* is exact.
      if (map.uniform_cost() &&
          q.movement.diagonal == DiagonalPolicy::kNoCornerCutting) {
        if (map.has_jump_table() && q.algorithm != Algorithm::kJps) {
          return Algorithm::kJpsPlus;
        }
        return Algorithm::kJps;
      }
      if (q.algorithm == Algorithm::kAuto &&
          LandmarksServe(map, q.movement.diagonal, q.goal)) {
        return Algorithm::kAlt;
      }
      return Algorithm::kAStar;
    case Algorithm::kAlt:
      return LandmarksServe(map, q.movement.diagonal, q.goal) ? Algorithm::kAlt
                                                      : Algorithm::kAStar;
    default:
      return q.algorithm;
  }
}

namespace {

using internal::SearchState;

// Resolves one end of the query: the cell itself when passable, else a
// snapped cell. InvalidArgument naming `field` when neither works.
absl::Status ResolveEnd(const GridMap& map, absl::string_view field, Cell asked,
                        int32_t snap_radius, uint32_t prefer, Cell* used,
                        bool* snapped) {
  *snapped = false;
  if (map.Passable(asked)) {
    *used = asked;
    return absl::OkStatus();
  }
  if (snap_radius > 0 &&
      internal::SnapToPassable(map, asked, snap_radius, prefer, used)) {
    *snapped = true;
    return absl::OkStatus();
  }
  const absl::Status s = map.CheckPassable(field, asked);
  if (snap_radius == 0) return s;
  return absl::InvalidArgumentError(
      absl::StrCat(s.message(), " and no passable cell lies within snap_radius ",
                   snap_radius));
}

// The parameters of `algorithm`'s search for q between r's ends.
internal::SearchParams MakeParams(const GridMap& map, const PathQuery& q,
                                  Algorithm algorithm, const PathResult& r,
                                  uint64_t max_nodes) {
  internal::SearchParams p;
  p.start = map.PaddedIndex(r.start);
  p.goal = map.PaddedIndex(r.goal);
  p.goal_x = r.goal.x + 1;
  p.goal_y = r.goal.y + 1;
  p.budget = q.budget;
  p.max_nodes = max_nodes;
  p.consistent = algorithm != Algorithm::kWeighted;
  switch (algorithm) {
    case Algorithm::kDijkstra:
      p.h_scale = 0;
      break;
    case Algorithm::kWeighted:
      p.h_scale = map.min_cost() * q.weight;
      break;
    default:
      p.h_scale = map.min_cost();
      break;
  }
  if (algorithm == Algorithm::kAlt) {
    p.landmarks = map.landmark_distances(0);
    p.goal_landmarks = map.landmark_distances(p.goal);
    p.landmark_count = map.landmark_count();
  }
  return p;
}

// Runs the engine of a resolved algorithm (not kTheta).
void RunEngine(const GridMap& map, DiagonalPolicy policy, Algorithm algorithm,
               const internal::SearchParams& p, SearchState& state,
               PathResult* r) {
  switch (algorithm) {
    case Algorithm::kBaseline:
      internal::RunBaseline(map, policy, p, state, r);
      break;
    case Algorithm::kBidirectional:
      internal::RunBidirectional(map, policy, p, state, r);
      break;
    case Algorithm::kHpa:
      internal::RunHpa(map, *map.hpa(), p, state, r);
      break;
    case Algorithm::kJps:
      internal::RunJps(map, p, state, r);
      break;
    case Algorithm::kSubgoal:
      internal::RunSubgoal(map, *map.subgoal_graph(), p, state, r);
      break;
    case Algorithm::kJpsPlus:
      internal::RunJpsPlus(map, p, state, r);
      break;
    default:
      internal::RunBestFirst(map, policy, p, state, r);
      break;
  }
}

std::atomic<bool> theta_grid_check{true};

// Theta*, then A*'s optimal grid path string-pulled (A* + smooth): where
// that is the cheaper any-angle path, it is the answer. Theta*'s
// corners are cell centres it reached by its own search, which now and then
// (a few percent of queries on cluttered maps, by under 2% in cost) misses a
// line that string-pulling finds; with the check, kTheta is never above
// A* + smooth. Both searches' work counts in expanded and generated, and
// both share max_expansions (the check runs on what Theta* left); the
// trace is Theta*'s. An out-of-budget Theta* answers as it is; an
// out-of-budget grid search leaves Theta*'s answer.
void RunThetaWithGridCheck(const GridMap& map, const PathQuery& q,
                           const internal::SearchParams& p, SearchState& state,
                           PathResult* r) {
  const DiagonalPolicy policy = q.movement.diagonal;
  internal::RunTheta(map, policy, p, state, r);
  if (r->partial || !theta_grid_check.load(std::memory_order_relaxed)) return;
  // Both searches share max_expansions: the check gets what Theta* left.
  const uint64_t limit = q.budget.max_expansions;
  if (limit != 0 && r->expanded >= limit) return;
  PathQuery exact_query = q;
  exact_query.algorithm = Algorithm::kAStar;
  if (limit != 0) exact_query.budget.max_expansions = limit - r->expanded;
  exact_query.goal = r->goal;
  const Algorithm exact = Algorithm::kAStar;
  // Theta*'s answer waits in the state's spare vectors.
  std::swap(r->cells, state.held_cells);
  std::swap(r->waypoints, state.held_waypoints);
  const double cost = r->cost, smoothed_cost = r->smoothed_cost;
  const uint64_t expanded = r->expanded, generated = r->generated;
  state.BeginSearch(map);
  internal::SearchParams grid = MakeParams(map, exact_query, exact, *r, p.max_nodes);
  RunEngine(map, policy, exact, grid, state, r);
  bool grid_wins = false;
  if (!r->partial) {
    internal::SmoothPath(map, policy, state, r);
    grid_wins = r->smoothed_cost < smoothed_cost;
  }
  r->expanded += expanded;
  r->generated += generated;
  r->partial = false;
  r->partial_reason = PartialReason::kNone;
  if (grid_wins) return;
  std::swap(r->cells, state.held_cells);
  std::swap(r->waypoints, state.held_waypoints);
  r->cost = cost;
  r->smoothed_cost = smoothed_cost;
}

absl::Status Search(const GridMap& map, const PathQuery& q,
                    SearchContext& context, PathResult* r) {
  if (absl::Status s = ValidatePathQuery(q); !s.ok()) return s;
  if (absl::Status s = internal::CheckCapacity(map, context); !s.ok()) {
    return s;
  }
  // Each end prefers to snap into the other end's component, when that one
  // is already valid, so a snapped query is reachable where possible.
  const uint32_t goal_comp = map.Passable(q.goal) ? map.component(q.goal) : 0;
  if (absl::Status s = ResolveEnd(map, "start", q.start, q.snap_radius,
                                  goal_comp, &r->start, &r->start_snapped);
      !s.ok()) {
    return s;
  }
  if (absl::Status s =
          ResolveEnd(map, "goal", q.goal, q.snap_radius,
                     map.component(r->start), &r->goal, &r->goal_snapped);
      !s.ok()) {
    return s;
  }
  if (map.component(r->start) != map.component(r->goal)) {
    return internal::NoPathError(r->start, r->goal);
  }

  SearchState& state = context.state();
  // Resolved for the goal actually searched (it may have been snapped).
  PathQuery resolved = q;
  resolved.goal = r->goal;
  const Algorithm algorithm = ResolveAlgorithm(map, resolved);
  r->algorithm = algorithm;
  state.trace.clear();
  if (r->start == r->goal) {
    r->cells.push_back(r->start);
  } else {
    state.BeginSearch(map);
    internal::SearchParams p =
        MakeParams(map, q, algorithm, *r, context.options().max_search_nodes);
    if (q.trace) p.trace = &state.trace;
    if (algorithm == Algorithm::kTheta) {
      RunThetaWithGridCheck(map, q, p, state, r);
    } else {
      RunEngine(map, q.movement.diagonal, algorithm, p, state, r);
    }
  }
  if (q.trace) {
    for (uint32_t cell : state.trace) {
      r->trace.push_back(map.CellOfPaddedIndex(cell));
    }
  }
  if (algorithm == Algorithm::kTheta) {
    if (r->waypoints.empty()) {  // The start is the goal.
      r->waypoints = r->cells;
    }
  } else if (q.smooth) {
    internal::SmoothPath(map, q.movement.diagonal, state, r);
  }
  return absl::OkStatus();
}

}  // namespace

absl::Status FindPath(const GridMap& map, const PathQuery& query,
                      SearchContext& context, PathResult* result) {
  const auto t0 = std::chrono::steady_clock::now();
  result->cells.clear();
  result->waypoints.clear();
  result->trace.clear();
  result->cost = 0;
  result->smoothed_cost = 0;
  result->expanded = 0;
  result->generated = 0;
  result->partial = false;
  result->partial_reason = PartialReason::kNone;
  result->algorithm = query.algorithm;
  result->start_snapped = false;
  result->goal_snapped = false;
  absl::Status status = Search(map, query, context, result);
  context.AfterSearch(result->generated);
  result->micros = std::chrono::duration<double, std::micro>(
                       std::chrono::steady_clock::now() - t0)
                       .count();
  return status;
}

absl::StatusOr<PathResult> FindPath(const GridMap& map, const PathQuery& query,
                                    SearchContext& context) {
  PathResult result;
  if (absl::Status s = FindPath(map, query, context, &result); !s.ok()) {
    return s;
  }
  return result;
}

namespace internal {

void SetThetaGridCheckForTesting(bool enabled) {
  theta_grid_check.store(enabled);
}

}  // namespace internal

}  // namespace gridstar
