#include "agents/map_view.h"

#include <algorithm>
#include <utility>

#include "maps/map_registry.h"

namespace gridstar::server {
namespace {

// Areas any cell holds, passable or not (a cost update cannot change it).
uint64_t AreasHeld(const std::vector<uint8_t>* areas) {
  if (areas == nullptr) return 1;
  uint64_t held = 0;
  for (uint8_t a : *areas) held |= uint64_t{1} << a;
  return held;
}

}  // namespace

AgentClass DefaultClassOf(uint64_t default_areas, uint64_t present) {
  AgentClass agent;
  agent.areas = default_areas;
  return CanonicalAgentClass(agent, present);
}

absl::StatusOr<MapView> ViewOf(GridMap terrain, std::vector<uint8_t> areas,
                               uint64_t default_areas) {
  MapView v;
  if (std::any_of(areas.begin(), areas.end(), [](uint8_t a) { return a; })) {
    v.areas = std::make_shared<const std::vector<uint8_t>>(std::move(areas));
  }
  const uint64_t present = v.areas == nullptr ? 1 : kAllAreas;
  const AgentClass by_default = DefaultClassOf(default_areas, present);
  if (AgentSeesMapAsIs(by_default, AreasHeld(v.areas.get()))) {
    v.view = std::move(terrain);
    return v;
  }
  absl::Span<const uint8_t> area_span;
  if (v.areas != nullptr) area_span = *v.areas;
  absl::StatusOr<GridMap> view = BuildAgentMap(terrain, area_span, by_default);
  if (!view.ok()) return view.status();
  v.view = *std::move(view);
  v.terrain = std::make_shared<const GridMap>(std::move(terrain));
  return v;
}

absl::StatusOr<MapView> NextViewOf(const MapSnapshot& old,
                                   const std::vector<CellChange>& changes,
                                   const std::vector<AreaChange>& area_changes,
                                   ChangeSummary* view_summary,
                                   std::vector<CellRect>* terrain_rects) {
  ChangeSummary terrain_summary;
  absl::StatusOr<GridMap> terrain =
      ApplyChanges(old.Terrain(), changes, &terrain_summary);
  if (!terrain.ok()) return terrain.status();
  *terrain_rects = terrain_summary.rects;
  MapView v;
  v.areas = old.areas;
  if (!area_changes.empty()) {
    std::vector<uint8_t> areas =
        old.areas != nullptr
            ? *old.areas
            : std::vector<uint8_t>(static_cast<size_t>(old.map.cell_count()));
    ApplyAreaChanges(old.map.width(), area_changes, absl::MakeSpan(areas));
    for (const AreaChange& c : area_changes) {
      terrain_rects->push_back(CellRect{c.min, c.max});
    }
    v.areas = std::make_shared<const std::vector<uint8_t>>(std::move(areas));
  }
  const uint64_t present = v.areas == nullptr ? 1 : kAllAreas;
  const AgentClass by_default =
      DefaultClassOf(old.options.default_areas, present);
  const bool was_terrain = old.terrain == nullptr;
  const bool is_terrain =
      area_changes.empty()
          ? was_terrain
          : AgentSeesMapAsIs(by_default, AreasHeld(v.areas.get()));
  const CellRect whole{{0, 0}, {old.map.width(), old.map.height()}};
  if (is_terrain) {
    v.view = *std::move(terrain);
    if (was_terrain) {
      *view_summary = terrain_summary;
    } else {
      // The view was filtered and no longer is: every cell may differ.
      *view_summary = ChangeSummary{};
      view_summary->only_raised = false;
      view_summary->cells_changed = old.map.cell_count();
      view_summary->rects = {whole};
    }
    return v;
  }
  absl::Span<const uint8_t> area_span;
  if (v.areas != nullptr) area_span = *v.areas;
  // A view that was the terrain is repaired everywhere (its class changed).
  const std::vector<CellRect> whole_rects = {whole};
  absl::StatusOr<GridMap> view = RepairAgentMap(
      old.map, *terrain, area_span, by_default,
      was_terrain ? absl::MakeConstSpan(whole_rects)
                  : absl::MakeConstSpan(*terrain_rects),
      view_summary);
  if (!view.ok()) return view.status();
  v.view = *std::move(view);
  v.terrain = std::make_shared<const GridMap>(*std::move(terrain));
  return v;
}

}  // namespace gridstar::server
