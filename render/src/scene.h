// What the PNG and SVG writers share: the scene's validation, the scale and
// the arrow grid (scene.cc).
//
// Pure functions; thread-safe.

#ifndef GRIDSTAR_RENDER_SRC_SCENE_H_
#define GRIDSTAR_RENDER_SRC_SCENE_H_

#include "absl/status/status.h"
#include "gridstar/render.h"

namespace gridstar::render::internal {

// OK, or InvalidArgument naming the first malformed field.
absl::Status ValidateScene(const Scene& scene, const RenderOptions& options);

// Cells between two flow arrows (options.arrow_spacing, or automatic for
// `cell_pixels`).
int ArrowSpacing(const RenderOptions& options, int cell_pixels);

// The colour of cell c's background (cost shading or wall).
Rgb BackgroundColour(const GridMap& map, Cell c);

}  // namespace gridstar::render::internal

#endif  // GRIDSTAR_RENDER_SRC_SCENE_H_
