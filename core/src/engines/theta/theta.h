// Lazy Theta* (theta.cc): any-angle paths whose segments keep to passable
// cells under the policy's corner rule. Its Engine (theta_engine.cc) checks
// each answer against A*'s grid path string-pulled.
//
// Thread-safety: as FindPath; one SearchState per thread.

#ifndef GRIDSTAR_SRC_ENGINES_THETA_THETA_H_
#define GRIDSTAR_SRC_ENGINES_THETA_THETA_H_

#include "gridstar/grid_map.h"
#include "gridstar/path_query.h"
#include "gridstar/types.h"
#include "search/search_loop.h"
#include "search/search_state.h"

namespace gridstar::internal {

// Theta*: also fills waypoints and smoothed_cost. Its engine then checks it
// against the string-pulled grid path; SetThetaGridCheckForTesting(false)
// turns that off to measure Theta* alone.
void SetThetaGridCheckForTesting(bool enabled);
void RunTheta(const GridMap& map, DiagonalPolicy policy,
              const SearchParams& params, SearchState& state,
              PathResult* result);

}  // namespace gridstar::internal

#endif  // GRIDSTAR_SRC_ENGINES_THETA_THETA_H_
