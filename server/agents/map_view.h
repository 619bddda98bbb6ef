// The view of a registered map that its default areas see, made from the
// terrain and areas at registration and carried through updates.
//
// A map registered with areas keeps three things (MapSnapshot): the
// terrain (every cell at its cost, whatever its area), the areas, and the
// view: the agent map of the default class (default areas, size 1), which
// is what queries naming no class search and what the derived structures
// are built on. When the default class takes every cell as it is (no
// areas, or every area allowed at multiplier 1), the view is the terrain
// and nothing is kept twice.
//
// Thread-safety: pure functions of their arguments.
#ifndef GRIDSTAR_SERVER_AGENTS_MAP_VIEW_H_
#define GRIDSTAR_SERVER_AGENTS_MAP_VIEW_H_

#include <cstdint>
#include <memory>
#include <optional>
#include <vector>

#include "absl/status/statusor.h"
#include "gridstar/agents.h"
#include "gridstar/grid_map.h"
#include "gridstar/map_update.h"

namespace gridstar::server {

struct MapSnapshot;

struct MapView {
  std::optional<GridMap> view;  // Always set by the functions below.
  std::shared_ptr<const GridMap> terrain;  // Null: the view is the terrain.
  std::shared_ptr<const std::vector<uint8_t>> areas;  // Null: all area 0.
};

// The view of `terrain` and `areas` (validated; all-zero areas are
// dropped) under `default_areas`.
// The canonical class of a query naming none, on a map whose cells hold
// the areas of `present`, when the map's default areas are
// `default_areas`.
AgentClass DefaultClassOf(uint64_t default_areas, uint64_t present);

absl::StatusOr<MapView> ViewOf(GridMap terrain, std::vector<uint8_t> areas,
                               uint64_t default_areas);

// The next version's view of `old` after `changes` and then
// `area_changes` (validated): the terrain through ApplyChanges, the areas
// copied only when they change, the view repaired for the changed cells.
// *view_summary says what changed in the view (what the derived structures
// repair); *terrain_rects the cells whose cost or area changed (what agent
// maps repair).
absl::StatusOr<MapView> NextViewOf(const MapSnapshot& old,
                                   const std::vector<CellChange>& changes,
                                   const std::vector<AreaChange>& area_changes,
                                   ChangeSummary* view_summary,
                                   std::vector<CellRect>* terrain_rects);

}  // namespace gridstar::server

#endif  // GRIDSTAR_SERVER_AGENTS_MAP_VIEW_H_
