// The precomputed structure of one engine, hpa's abstraction (HPA*), as code
// outside the engine (the registry, the server, tools, tests) may use it:
// build, repair for a new version, share between versions, and ask what a map
// holds. It lives in the engine's folder (core/src/engines/hpa/) and is
// attached to the map in the engine's slot (core/src/map/attachment.h);
// derived_data.h drives it as a DerivedStructure by its name below, which most
// callers want.
//
// Thread-safety: the queries read an immutable map and may run anywhere.
// Build, Repair and Share write the map they are given, which must not yet
// be shared between threads. A structure that does not apply (a jump table
// on a map of mixed costs) is refused with FailedPrecondition naming it.

#ifndef GRIDSTAR_ENGINES_HPA_H_
#define GRIDSTAR_ENGINES_HPA_H_

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
inline constexpr absl::string_view kHpaName = "hpa";

// --- hpa: the HPA* abstraction for one policy, on any map.
// InvalidArgument for an unknown policy.
absl::Status BuildHpa(GridMap* map, DiagonalPolicy policy);
// previous's abstraction with the clusters `rects` reach rebuilt.
// REQUIRES: HasHpa(previous), same size.
void RepairHpa(const GridMap& previous, absl::Span<const CellRect> rects,
               GridMap* next);
bool HasHpa(const GridMap& map);
DiagonalPolicy HpaPolicy(const GridMap& map);  // REQUIRES: HasHpa(map).
size_t HpaBytes(const GridMap& map);
// At least the bytes BuildHpa would take on `map`.
size_t HpaBytesFor(const GridMap& map);
bool HpaEquals(const GridMap& a, const GridMap& b);

}  // namespace gridstar

#endif  // GRIDSTAR_ENGINES_HPA_H_
