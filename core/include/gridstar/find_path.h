// FindPath: the one entry point of the search library.
//
// FindPath(map, query, context) is a pure function of the map and the query;
// the context only lends it memory (see search_context.h). The algorithm,
// diagonal policy, budgets, snapping and smoothing are all fields of the
// query (PathQuery and PathResult: path_query.h).
//
// Moves: the four straight moves, plus the four diagonals as the query's
// DiagonalPolicy allows. A move from a to b costs step * (cost(a) + cost(b)) /
// 2 with step 1 (straight) or sqrt(2) (diagonal), so a path costs the same in
// both directions and, on maps of cost-1 cells, its cost is its octile length.
//
// Errors, chosen by what the caller should do:
//   InvalidArgument    a malformed query: an end off the map or blocked (and
//                      not snapped), a weight or snap radius out of range.
//   NotFound           the ends are valid but no path joins them (different
//                      components). Decided without searching.
//   ResourceExhausted  the map is larger than the context's capacity.
// Running out of the budget (query.h) is not an error: the result is the
// path to the expanded cell closest to the goal (by the heuristic distance),
// with `partial` set; StopStatus words its reason for callers that want one.
//
// Thread-safety: any number of threads may search one GridMap at once, each
// with its own SearchContext.

#ifndef GRIDSTAR_FIND_PATH_H_
#define GRIDSTAR_FIND_PATH_H_

#include <cstdint>
#include <vector>

#include "absl/status/status.h"
#include "absl/status/statusor.h"
#include "gridstar/grid_map.h"
#include "gridstar/move_cost.h"
#include "gridstar/path_query.h"
#include "gridstar/search_context.h"
#include "gridstar/types.h"

namespace gridstar {

// InvalidArgument naming the field for an algorithm outside the enum, or a
// kWeighted weight outside [1, kMaxWeight]. Shared by every query that names
// an algorithm.
absl::Status ValidateAlgorithm(Algorithm algorithm, double weight);

// The checks FindPath makes of the query's own fields before it looks at the
// map: ValidateAlgorithm, ValidateMovement and the snap radius.
// InvalidArgument naming the field. Callers that validate ahead of a search
// (the server) use it so that their messages are FindPath's.
absl::Status ValidatePathQuery(const PathQuery& query);

// The search FindPath runs for `query` on `map`: the query's algorithm, or
// the one its engine runs in its place where it does not serve the query
// as asked (types.h says, for each algorithm, what it serves and what
// stands in; for the goal as given: FindPath resolves again after
// snapping).
Algorithm ResolveAlgorithm(const GridMap& map, const PathQuery& query);

// What `algorithm` serves as asked, in a few words ("uniform-cost maps
// only"), for messages that say why another ran in its place.
absl::string_view AlgorithmServes(Algorithm algorithm);
// The name of the structure `algorithm`'s engine keeps
// (DerivedStructure::name, derived_structure.h); empty for none.
absl::string_view StructureOf(Algorithm algorithm);

// Searches as described above, writing into *result and reusing its vectors'
// capacity, so that repeated searches allocate nothing.
absl::Status FindPath(const GridMap& map, const PathQuery& query,
                      SearchContext& context, PathResult* result);

// The same, returning a fresh result.
absl::StatusOr<PathResult> FindPath(const GridMap& map, const PathQuery& query,
                                    SearchContext& context);

}  // namespace gridstar

#endif  // GRIDSTAR_FIND_PATH_H_
