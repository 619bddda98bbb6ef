#include "gridstar/find_path.h"

#include <chrono>
#include <cstddef>
#include <iterator>
#include <vector>

#include "absl/status/status.h"
#include "absl/strings/str_cat.h"
#include "engines/engine.h"
#include "search/checks.h"
#include "search/path_tools.h"
#include "search/search_loop.h"

namespace gridstar {

absl::Status ValidateAlgorithm(Algorithm algorithm, double weight) {
  if (internal::FindEngine(algorithm) == nullptr) {
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

absl::string_view AlgorithmServes(Algorithm algorithm) {
  const internal::Engine* engine = internal::FindEngine(algorithm);
  return engine == nullptr ? absl::string_view() : engine->serves();
}

absl::string_view StructureOf(Algorithm algorithm) {
  const internal::Engine* engine = internal::FindEngine(algorithm);
  return engine == nullptr ? absl::string_view() : engine->structure_name();
}

Algorithm ResolveAlgorithm(const GridMap& map, const PathQuery& q) {
  // Each engine answers with itself or the one that stands in for it; the
  // chains are short (hpa -> auto -> jps+ -> jps at most) and end at an
  // engine that answers with itself. The bound only stops a cycle a
  // mistaken Resolve could make (A* then answers: it serves every query).
  Algorithm algorithm = q.algorithm;
  for (size_t hops = 0; hops < std::size(kAllAlgorithms); ++hops) {
    const internal::Engine* engine = internal::FindEngine(algorithm);
    if (engine == nullptr) return algorithm;
    const Algorithm next = engine->Resolve(map, q);
    if (next == algorithm) return algorithm;
    algorithm = next;
  }
  return Algorithm::kAStar;
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

// The parameters of `engine`'s search for q between r's ends.
internal::SearchParams MakeParams(const GridMap& map, const PathQuery& q,
                                  const internal::Engine& engine,
                                  const PathResult& r, uint64_t max_nodes) {
  internal::SearchParams p;
  p.start = map.PaddedIndex(r.start);
  p.goal = map.PaddedIndex(r.goal);
  p.goal_x = r.goal.x + 1;
  p.goal_y = r.goal.y + 1;
  p.budget = q.budget;
  p.max_nodes = max_nodes;
  p.consistent = true;
  p.h_scale = map.min_cost();
  engine.Prepare(map, q, &p);
  return p;
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
  const internal::Engine& engine = *internal::FindEngine(algorithm);
  r->algorithm = algorithm;
  state.trace.clear();
  if (r->start == r->goal) {
    r->cells.push_back(r->start);
  } else {
    state.BeginSearch(map);
    internal::SearchParams p =
        MakeParams(map, q, engine, *r, context.options().max_search_nodes);
    if (q.trace) p.trace = &state.trace;
    engine.Run(map, q, p, state, r);
  }
  if (q.trace) {
    for (uint32_t cell : state.trace) {
      r->trace.push_back(map.CellOfPaddedIndex(cell));
    }
  }
  if (engine.any_angle()) {
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


}  // namespace gridstar
