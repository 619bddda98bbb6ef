// The precomputed structure of one engine, jps+'s jump table, as code outside
// the engine (the registry, the server, tools, tests) may use it: build, repair
// for a new version, share between versions, and ask what a map holds. It
// lives in the engine's folder (core/src/engines/jps/) and is attached to the
// map in the engine's slot (core/src/map/attachment.h); derived_data.h drives
// it as a DerivedStructure by its name below, which most callers want.
//
// Thread-safety: the queries read an immutable map and may run anywhere.
// Build, Repair and Share write the map they are given, which must not yet
// be shared between threads. A structure that does not apply (a jump table
// on a map of mixed costs) is refused with FailedPrecondition naming it.

#ifndef GRIDSTAR_ENGINES_JPS_H_
#define GRIDSTAR_ENGINES_JPS_H_

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
inline constexpr absl::string_view kJumpTableName = "jump_table";

// --- jps+: jump distances (8 bytes a padded cell, in copy-on-write tiles).
// Precomputes them; FailedPrecondition unless map->uniform_cost().
absl::Status BuildJumpTable(GridMap* map);
// The table of `previous` (same size, with a table; any earlier version)
// repaired into *next for the cells of `rects` changed since: only the
// lines the changes reach are recomputed, only the tiles written are
// copied. FailedPrecondition unless both maps are uniform-cost (their costs
// may differ: the table depends only on which cells are passable);
// ResourceExhausted when tiles cannot be had.
absl::Status RepairJumpTable(const GridMap& previous,
                             absl::Span<const CellRect> rects, GridMap* next);
// *to takes from's table (shared). REQUIRES: from has one and the same
// passable cells.
void ShareJumpTable(const GridMap& from, GridMap* to);
bool HasJumpTable(const GridMap& map);
size_t JumpTableBytes(const GridMap& map);
// Bytes a table of a width x height map takes (whole blocks of tiles).
size_t JumpTableBytesFor(int32_t width, int32_t height);
// Both without a table, or both with equal tables.
bool JumpTableEquals(const GridMap& a, const GridMap& b);

}  // namespace gridstar

#endif  // GRIDSTAR_ENGINES_JPS_H_
