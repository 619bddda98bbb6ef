// The precomputed structure of one engine, the subgoal engine's subgoal graph,
// as code outside the engine (the registry, the server, tools, tests) may use
// it: build, repair for a new version, share between versions, and ask what a
// map holds. It lives in the engine's folder (core/src/engines/subgoal/) and is
// attached to the map in the engine's slot (core/src/map/attachment.h);
// derived_data.h drives it as a DerivedStructure by its name below, which most
// callers want.
//
// Thread-safety: the queries read an immutable map and may run anywhere.
// Build, Repair and Share write the map they are given, which must not yet
// be shared between threads. A structure that does not apply (a jump table
// on a map of mixed costs) is refused with FailedPrecondition naming it.

#ifndef GRIDSTAR_ENGINES_SUBGOAL_H_
#define GRIDSTAR_ENGINES_SUBGOAL_H_

#include <cstddef>
#include <cstdint>
#include <vector>

#include "absl/status/status.h"
#include "absl/strings/string_view.h"
#include "absl/types/span.h"
#include "gridstar/grid_map.h"
#include "gridstar/types.h"

namespace gridstar {

// Its name: how DerivedOptions and RegisterMapRequest.structures ask for
// it, and how MapInfo.derived and the derived reports name it.
inline constexpr absl::string_view kSubgoalGraphName = "subgoal_graph";

// --- subgoal: the subgoal graph, on uniform-cost maps.
// FailedPrecondition unless map->uniform_cost().
absl::Status BuildSubgoalGraph(GridMap* map);
// *to takes from's graph (shared). REQUIRES: same passable cells.
void ShareSubgoalGraph(const GridMap& from, GridMap* to);
bool HasSubgoalGraph(const GridMap& map);
size_t SubgoalGraphBytes(const GridMap& map);
// Its subgoals and (directed) edges; 0 without a graph.
size_t SubgoalGraphNodes(const GridMap& map);
size_t SubgoalGraphEdges(const GridMap& map);
// An estimate of SubgoalGraphBytes after BuildSubgoalGraph, from a count of
// the subgoals (one pass): the bit lines, and per subgoal its records, its
// landmark distances and 80 edges (the shared maps average 3 to 20 edges a
// subgoal, the 8192 x 8192 world 68). 0 on maps of mixed costs.
size_t SubgoalGraphBytesFor(const GridMap& map);
bool SubgoalGraphEquals(const GridMap& a, const GridMap& b);

}  // namespace gridstar

#endif  // GRIDSTAR_ENGINES_SUBGOAL_H_
