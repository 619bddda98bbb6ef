// The checks and error wordings that FindPath, group paths and flow fields
// share, so that each error is worded once.
//
// Pure functions; thread-safe.

#ifndef GRIDSTAR_SRC_SEARCH_CHECKS_H_
#define GRIDSTAR_SRC_SEARCH_CHECKS_H_

#include "absl/status/status.h"
#include "gridstar/grid_map.h"
#include "gridstar/search_context.h"
#include "gridstar/types.h"

namespace gridstar::internal {

// NotFound "no path: start (x, y) and goal (x, y) lie in different
// components": the one wording of FindPath and of group paths answered from
// a flow field.
absl::Status NoPathError(Cell start, Cell goal);

// ResourceExhausted when `map` does not fit the context's fixed capacity.
absl::Status CheckCapacity(const GridMap& map, const SearchContext& context);

}  // namespace gridstar::internal

#endif  // GRIDSTAR_SRC_SEARCH_CHECKS_H_
