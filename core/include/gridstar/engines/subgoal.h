// The precomputed structures of the subgoal engines, the subgoal graph and
// the contraction hierarchy over it (the contraction engine's), as code
// outside the engines (the registry, the server, tools, tests) may use them:
// build, repair for a new version, share between versions, and ask what a
// map holds. They live in the engines' folder (core/src/engines/subgoal/) and
// are attached to the map in each engine's slot (core/src/map/attachment.h);
// derived_data.h drives them as DerivedStructures by their names below,
// which most callers want.
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

// --- contraction: the contraction hierarchy over the subgoal graph
// (Algorithm::kContraction, the contraction tier), on uniform-cost maps.
inline constexpr absl::string_view kContractionName = "contraction_hierarchy";
// Builds it over the map's subgoal graph when the map has one (shared),
// else over one of its own. FailedPrecondition unless map->uniform_cost();
// ResourceExhausted, nothing attached, when the subgoal graph has more
// than kMaxContractionEdgePairs pairs of edges at a shared corner (the sum
// of its corners' squared edge counts: what contracting it visits at the
// least; the shared Moving AI maps reach 6e7, Berlin_0_1024, built in
// about 35 s; the 8192 x 8192 world 4.9e9).
absl::Status BuildContraction(GridMap* map);
inline constexpr double kMaxContractionEdgePairs = 268435456;  // 2^28.
// *to takes from's hierarchy (shared). REQUIRES: same passable cells.
void ShareContraction(const GridMap& from, GridMap* to);
bool HasContraction(const GridMap& map);
// Its bytes: the upward arcs, and the subgoal graph when it is its own.
size_t ContractionBytes(const GridMap& map);
// Upward arcs, of which shortcuts; 0 without a hierarchy.
size_t ContractionArcs(const GridMap& map);
size_t ContractionShortcuts(const GridMap& map);
// An estimate of ContractionBytes after BuildContraction: the subgoal
// graph's estimate (SubgoalGraphBytesFor) and 32 upward arcs of 16 bytes a
// subgoal (the shared maps keep 1.8 to 14). 0 on maps of mixed costs.
size_t ContractionBytesFor(const GridMap& map);
bool ContractionEquals(const GridMap& a, const GridMap& b);

}  // namespace gridstar

#endif  // GRIDSTAR_ENGINES_SUBGOAL_H_
