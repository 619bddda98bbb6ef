// What the PNG and SVG writers share: the scene's validation, the scale and
// the arrow grid (scene.cc).
//
// Pure functions; thread-safe.

#ifndef GRIDSTAR_RENDER_SRC_SCENE_H_
#define GRIDSTAR_RENDER_SRC_SCENE_H_

#include <string>
#include <vector>

#include "absl/status/status.h"
#include "gridstar/render.h"

namespace gridstar::render::internal {

// OK, or InvalidArgument naming the first malformed field.
absl::Status ValidateScene(const Scene& scene, const RenderOptions& options);

// Cells between two flow arrows (options.arrow_spacing, or automatic for
// `cell_pixels`).
int ArrowSpacing(const RenderOptions& options, int cell_pixels);

// The colour of cell c's background (its area's colour, or wall) and
// whether its area is outside the scene's allowed areas (drawn hatched).
struct CellLook {
  Rgb colour;
  bool blocked_for_agent = false;
};
CellLook BackgroundLook(const Scene& scene, Cell c);

// One swatch of the legend.
struct LegendEntry {
  Rgb colour;
  std::string label;
  bool hatched = false;
};
// What the picture shows, in legend order: walls, each area present (with
// its cost range and "blocks" when the agent may not enter it), then the
// layers drawn (expanded cells, path, waypoints, flow arrows, start, goal).
std::vector<LegendEntry> LegendEntries(const Scene& scene);

}  // namespace gridstar::render::internal

#endif  // GRIDSTAR_RENDER_SRC_SCENE_H_
