// What FindPath does around a search: snapping a blocked end to a passable
// cell (snap.cc) and string-pulling the grid path (smoothing.cc); and the
// octile-shaped paths that HPA* and subgoal graphs refine edges into
// (octile_path.cc).
//
// Not thread-safe beyond FindPath's promise: the SearchState is the calling
// thread's.

#ifndef GRIDSTAR_SRC_SEARCH_PATH_TOOLS_H_
#define GRIDSTAR_SRC_SEARCH_PATH_TOOLS_H_

#include <cstdint>
#include <vector>

#include "gridstar/grid_map.h"
#include "gridstar/path_query.h"
#include "gridstar/types.h"
#include "search/search_state.h"

namespace gridstar::internal {

// Moves an invalid end to the nearest passable cell within `radius`,
// preferring cells of component `prefer` (0 = no preference). False if none.
bool SnapToPassable(const GridMap& map, Cell from, int32_t radius,
                    uint32_t prefer, Cell* out);

// Appends to *out the cells after `from` of an octile-shaped path from
// `from` to `to` (padded coordinates on `costs`, a padded cost array of row
// stride `stride`; the cells appended unpadded): its diagonal moves, then
// its straight ones (under kNever: x moves, then y), else the same runs in
// the reverse order, whichever is first legal under `policy`. False, *out
// unchanged, when neither is. On uniform costs such a path is a least one.
bool AppendOctilePath(const uint8_t* costs, int64_t stride,
                      DiagonalPolicy policy, Cell from, Cell to,
                      std::vector<Cell>* out);

// Whether AppendOctilePath would find a legal shape, without the cells.
bool OctileShapeLegal(const uint8_t* costs, int64_t stride,
                      DiagonalPolicy policy, Cell from, Cell to);

// String-pulls result->cells into result->waypoints / smoothed_cost.
void SmoothPath(const GridMap& map, DiagonalPolicy policy, SearchState& state,
                PathResult* result);

}  // namespace gridstar::internal

#endif  // GRIDSTAR_SRC_SEARCH_PATH_TOOLS_H_
