// The cost model of every search: a move from a to b costs
// step * (cost(a) + cost(b)) / 2, step 1 (straight) or sqrt(2) (diagonal), and
// is legal when both ends are passable and the DiagonalPolicy allows it (a
// diagonal under kNoCornerCutting needs both orthogonal cells passable, under
// kAllowCornerCutting one, under kNever it is not a move). So a path costs the
// same in both directions and, on maps of cost-1 cells, its octile length.
//
// Thread-safety: pure functions of a map, which may be shared.

#ifndef GRIDSTAR_MOVE_COST_H_
#define GRIDSTAR_MOVE_COST_H_

#include <vector>

#include "gridstar/grid_map.h"
#include "gridstar/types.h"

namespace gridstar {

// The cost of one move from a to b under the cost model at the top, or -1 when
// the move is not legal under `policy` (not adjacent, an end blocked or off
// the map, or a diagonal the policy forbids). Tests and tools use it to check
// paths.
double MoveCost(const GridMap& map, Cell a, Cell b, DiagonalPolicy policy);

// Sum of MoveCost along a path, or -1 if any move is illegal.
double PathCost(const GridMap& map, const std::vector<Cell>& cells,
                DiagonalPolicy policy);

}  // namespace gridstar

#endif  // GRIDSTAR_MOVE_COST_H_
