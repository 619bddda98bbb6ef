// Jump point search (Harabor & Grastien, AAAI 2011) for uniform-cost maps
// under DiagonalPolicy::kNoCornerCutting, online (jps) and over precomputed
// jump distances (jps+).
//
// The pruning rules under no corner cutting: a diagonal move never has forced
// neighbours (both cells it passes are free), so a diagonal jump stops only
// where a straight jump from it finds something. A straight move east into
// (x, y) has a forced neighbour above when (x, y - 1) is free and (x - 1,
// y - 1) is blocked (the free cell can only be reached optimally through
// (x, y)); likewise below, and rotated for the other directions.
//
// Intermediate jump points are pruned (Harabor & Grastien, ICAPS 2014, as
// their jps2 / jps2+): a diagonal jump never stops to put the cell where a
// straight jump finds something on the open list; the scan goes on, and the
// straight jumps' finds become successors of the node the diagonal left
// from. A successor's way from its parent is therefore a diagonal run then
// a straight one along the longer axis, which the search derives from the
// two cells alone (direction of arrival, path reconstruction).
//
// Directions are numbered 0..7 as kMoveDx / kMoveDy give them: the four
// straight ones first. Not thread-safe beyond what FindPath promises: the
// tables read here belong to an immutable GridMap.

#ifndef GRIDSTAR_SRC_ENGINES_JPS_JPS_H_
#define GRIDSTAR_SRC_ENGINES_JPS_JPS_H_

#include <cstdint>
#include <vector>

#include "engines/jps/jump_table.h"
#include "gridstar/grid_map.h"
#include "search/search_loop.h"

namespace gridstar::internal {

// Jumps go in the eight directions of kMoveDx / kMoveDy (types.h).
inline constexpr const int32_t* kJumpDx = kMoveDx;
inline constexpr const int32_t* kJumpDy = kMoveDy;

// The jps+ table of `map`, one signed byte per padded cell and direction
// (laid out as jump_table.h says): entry JumpTable::Entry(x, y) + direction
// is d in [1, kJumpTableStep] when the next jump point in that direction
// lies d steps away, -d in [-kJumpTableStep, 0] when the direction runs into
// a wall after d free steps, and kJumpContinue when neither lies within
// kJumpTableStep steps: the entry of the cell kJumpTableStep steps on (which
// is free and no jump point) continues the line. Blocked cells hold 0. Eight
// bytes a cell, so an 8192 x 8192 map's table (537 MB) fits the default
// --max_derived_bytes.
// REQUIRES: map.uniform_cost(); `table` holds JumpTable::BytesFor zeros.
inline constexpr int8_t kJumpTableStep = 127;
inline constexpr int8_t kJumpContinue = -128;
void ComputeJumpTable(const GridMap& map, int8_t* table);

// The engines. REQUIRES: map.uniform_cost(), state.BeginSearch(map) done,
// params as FindPath prepares them for astar; RunJpsPlus also
// JumpTableOf(map) != nullptr. Each fills cells, cost, expanded, generated and
// the partial fields of *result.
void RunJps(const GridMap& map, const SearchParams& params, SearchState& state,
            PathResult* result);
void RunJpsPlus(const GridMap& map, const SearchParams& params,
                SearchState& state, PathResult* result);

}  // namespace gridstar::internal

#endif  // GRIDSTAR_SRC_ENGINES_JPS_JPS_H_
