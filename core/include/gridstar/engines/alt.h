// The precomputed structure of one engine, alt's landmarks, as code outside the
// engine (the registry, the server, tools, tests) may use it: build, repair
// for a new version, share between versions, and ask what a map holds. It
// lives in the engine's folder (core/src/engines/alt/) and is attached to the
// map in the engine's slot (core/src/map/attachment.h); derived_data.h drives
// it as a DerivedStructure by its name below, which most callers want.
//
// Thread-safety: the queries read an immutable map and may run anywhere.
// Build, Repair and Share write the map they are given, which must not yet
// be shared between threads. A structure that does not apply (a jump table
// on a map of mixed costs) is refused with FailedPrecondition naming it.

#ifndef GRIDSTAR_ENGINES_ALT_H_
#define GRIDSTAR_ENGINES_ALT_H_

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
inline constexpr absl::string_view kLandmarksName = "landmarks";

// --- alt: landmarks for the differential heuristic (8 bytes a padded cell
// per landmark), h(n) = max(octile * min_cost, max over landmarks L of
// |d(L, goal) - d(L, n)|), for one policy. Chosen by farthest-point
// selection in the largest component.
inline constexpr int kMaxLandmarks = 32;
// How many a request for landmarks with no count gets.
inline constexpr int kDefaultLandmarks = 8;
// InvalidArgument for count outside [1, kMaxLandmarks] or an unknown
// policy; FailedPrecondition when nothing is passable.
absl::Status BuildLandmarks(GridMap* map, int count, DiagonalPolicy policy);
// *to takes from's landmarks (shared): right while to's costs are no lower
// than from's anywhere (distances only grow). REQUIRES: same size.
void ShareLandmarks(const GridMap& from, GridMap* to);
int LandmarkCount(const GridMap& map);  // 0 without landmarks.
// REQUIRES: LandmarkCount(map) > 0.
DiagonalPolicy LandmarkPolicy(const GridMap& map);
// The landmark cells; empty without landmarks.
const std::vector<Cell>& LandmarkCells(const GridMap& map);
size_t LandmarkBytes(const GridMap& map);
// Both without landmarks, or both with the same cells and distances.
bool LandmarksEqual(const GridMap& a, const GridMap& b);

}  // namespace gridstar

#endif  // GRIDSTAR_ENGINES_ALT_H_
