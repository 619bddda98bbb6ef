// Map updates: rectangles of cells set to a new cost, validated before
// anything changes, and the next version of a map built from the one before.
//
// A version is a new immutable GridMap: searches on the version before keep
// reading it. ApplyChanges builds the next version sharing every storage
// tile the changes do not write, and repairs its intrinsic derived data in
// place of rebuilding it: the bit lines of the changed cells, the component
// labels of the touched component tiles. The opt-in structures (jump table,
// landmarks) are repaired through derived_data.h.
//
// Thread-safety: pure functions of their arguments.

#ifndef GRIDSTAR_MAP_UPDATE_H_
#define GRIDSTAR_MAP_UPDATE_H_

#include <cstddef>
#include <cstdint>
#include <string>
#include <vector>

#include "absl/functional/function_ref.h"
#include "absl/status/status.h"
#include "absl/status/statusor.h"
#include "absl/strings/string_view.h"
#include "absl/types/span.h"
#include "gridstar/grid_map.h"
#include "gridstar/types.h"

namespace gridstar {

// Every cell of [min.x, max.x) x [min.y, max.y) gets `cost` (0 = blocked).
// A single cell c is {c, {c.x + 1, c.y + 1}, cost}.
struct CellChange {
  Cell min;
  Cell max;
  uint8_t cost = 0;

  friend bool operator==(const CellChange& a, const CellChange& b) {
    return a.min == b.min && a.max == b.max && a.cost == b.cost;
  }
};

// What a list of changes does to a map, as the derived structures need to
// know it to repair themselves.
struct ChangeSummary {
  // True when no cell got cheaper and none became passable (every changed
  // cell was raised or blocked, or kept its cost): distances only grow.
  bool only_raised = true;
  // Cells whose cost differs from the version before.
  int64_t cells_changed = 0;
  // Rectangles whose union is exactly the cells of the changes that changed
  // at least one cell (adjacent ones merged: a square sent as single cells
  // comes out as one rectangle); in no particular order. Filled by
  // ApplyChanges (ApplyChangesToCosts leaves it empty).
  std::vector<CellRect> rects;
};

// OkStatus when [min.x, max.x) x [min.y, max.y) is a non-empty rectangle
// inside a width x height map; else InvalidArgument "<field>: [x0, x1) x
// [y0, y1) is empty or not inside the W x H map".
absl::Status CheckRectInside(int32_t width, int32_t height, Cell min, Cell max,
                             absl::string_view field);

// OkStatus when every change is a non-empty rectangle inside a width x
// height map; else InvalidArgument naming the first bad change by
// field_of(index): "<field>: [x0, x1) x [y0, y1) is empty or not inside the
// W x H map". The caller names the fields as its request does ("cells[3]").
absl::Status ValidateChanges(int32_t width, int32_t height,
                             absl::Span<const CellChange> changes,
                             absl::FunctionRef<std::string(size_t)> field_of);

// Applies `changes` in order to row-major costs of a map `width` wide, and
// returns what they did. REQUIRES: ValidateChanges passed for that map.
ChangeSummary ApplyChangesToCosts(int32_t width,
                                  absl::Span<const CellChange> changes,
                                  absl::Span<uint8_t> costs);

// The next version of `previous`: its costs with `changes` applied, with
// components and bit lines, and no opt-in structure (derived_data.h repairs
// those). Costs what the changes touch, not what the map holds. *summary
// says what changed. ResourceExhausted when tiles cannot be had (the
// previous version is untouched). REQUIRES: ValidateChanges passed.
absl::StatusOr<GridMap> ApplyChanges(const GridMap& previous,
                                     absl::Span<const CellChange> changes,
                                     ChangeSummary* summary);

}  // namespace gridstar

#endif  // GRIDSTAR_MAP_UPDATE_H_
