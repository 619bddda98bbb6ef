// What FindPath does around a search: snapping a blocked end to a passable
// cell (snap.cc) and string-pulling the grid path (smoothing.cc).
//
// Not thread-safe beyond FindPath's promise: the SearchState is the calling
// thread's.

#ifndef GRIDSTAR_SRC_PATH_TOOLS_H_
#define GRIDSTAR_SRC_PATH_TOOLS_H_

#include <cstdint>

#include "gridstar/find_path.h"
#include "gridstar/grid_map.h"
#include "gridstar/types.h"
#include "search_state.h"

namespace gridstar::internal {

// Moves an invalid end to the nearest passable cell within `radius`,
// preferring cells of component `prefer` (0 = no preference). False if none.
bool SnapToPassable(const GridMap& map, Cell from, int32_t radius,
                    uint32_t prefer, Cell* out);

// String-pulls result->cells into result->waypoints / smoothed_cost.
void SmoothPath(const GridMap& map, DiagonalPolicy policy, SearchState& state,
                PathResult* result);

}  // namespace gridstar::internal

#endif  // GRIDSTAR_SRC_PATH_TOOLS_H_
