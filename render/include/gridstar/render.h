// Pictures of a map and of what a search did on it: PNG (through libpng) and
// SVG. The `gridstar render` command and `gridstar-bench --render` draw with
// it; the colours are public so that legends and tests can name them.
//
// A picture shows, bottom to top: every cell shaded by its cost (white for
// the map's cheapest, darker brown for dearer, near-black for walls); the
// cells a search expanded, coloured by expansion order from blue (first) to
// orange (last); the path's cells (a green square inside each cell); its
// waypoints joined by red segments; a flow field's first moves as arrows on a
// sampled grid of cells; and the start (cyan) and goal (magenta) cells.
//
// Coordinates: cell (x, y) is the square of pixels [x * k, (x + 1) * k) x
// [y * k, (y + 1) * k) for k = CellPixels(); y grows downwards, as in the
// map's rows. In SVG one user unit is one cell (the image is scaled by k).
//
// Thread-safety: pure functions of their arguments.

#ifndef GRIDSTAR_RENDER_H_
#define GRIDSTAR_RENDER_H_

#include <cstdint>
#include <optional>
#include <string>
#include <vector>

#include "absl/status/statusor.h"
#include "absl/strings/string_view.h"
#include "gridstar/grid_map.h"
#include "gridstar/types.h"

namespace gridstar::render {

struct Rgb {
  uint8_t r = 0, g = 0, b = 0;
  friend bool operator==(Rgb a, Rgb b) {
    return a.r == b.r && a.g == b.g && a.b == b.b;
  }
  friend bool operator!=(Rgb a, Rgb b) { return !(a == b); }
};

// What to draw. Every cell named must lie on the map.
struct Scene {
  const GridMap* map = nullptr;  // REQUIRED.
  // A path's cells (PathResult::cells), drawn as squares.
  std::vector<Cell> path;
  // Its waypoints (PathResult::waypoints), joined by segments.
  std::vector<Cell> waypoints;
  // The cells a search expanded, in order (PathResult::trace). In PNGs of
  // fewer than 5 pixels a cell, a sparse trace (under one passable cell in
  // 20, as jump points are) is drawn as 5-pixel markers centred on its
  // cells, so that it shows.
  std::vector<Cell> trace;
  std::optional<Cell> start;
  std::optional<Cell> goal;
  // A flow field's first moves, one byte per cell, row-major, as
  // FlowField::directions and FlowFieldResponse.directions (0..7 a move of
  // kMoveDx / kMoveDy, 8 the goal, 255 not reached); empty for none.
  std::vector<uint8_t> flow_directions;
};

struct RenderOptions {
  // Pixels per cell side, 1..64; 0 picks the largest that keeps the image's
  // longer side within 2048 pixels (at least 1).
  int cell_pixels = 0;
  // A flow arrow every this many cells in each direction, 1..4096; 0 picks
  // about one per 16 pixels (at least one per cell).
  int arrow_spacing = 0;
};

// Images larger than this many pixels are refused (InvalidArgument naming
// cell_pixels): draw a smaller scale.
inline constexpr int64_t kMaxPixels = int64_t{1} << 26;

// The colours.
inline constexpr Rgb kWallColour{32, 32, 32};
inline constexpr Rgb kPathColour{40, 170, 60};
inline constexpr Rgb kWaypointColour{215, 35, 35};
inline constexpr Rgb kStartColour{0, 200, 230};
inline constexpr Rgb kGoalColour{220, 0, 200};
inline constexpr Rgb kArrowColour{70, 70, 160};
// A passable cell of `cost` on a map whose costs run from min_cost to
// max_cost: white for min_cost, towards brown (150, 110, 70) for max_cost.
Rgb CostColour(uint8_t cost, uint8_t min_cost, uint8_t max_cost);
// The i-th of n expanded cells (0 <= i < n): blue (40, 90, 230) to orange
// (250, 160, 30), linearly.
Rgb TraceColour(size_t i, size_t n);

// The pixels per cell side the options give for `map`; InvalidArgument
// naming cell_pixels (out of range, or an image over kMaxPixels).
absl::StatusOr<int> CellPixels(const GridMap& map, const RenderOptions& options);

// InvalidArgument naming the field (map, path[i], waypoints[i], trace[i],
// start, goal, flow_directions, cell_pixels, arrow_spacing) when the scene
// or options are malformed.
absl::StatusOr<std::string> RenderPng(const Scene& scene,
                                      const RenderOptions& options);
absl::StatusOr<std::string> RenderSvg(const Scene& scene,
                                      const RenderOptions& options);

// An 8-bit RGB image, row-major, three bytes a pixel.
struct Image {
  int width = 0;
  int height = 0;
  std::vector<uint8_t> rgb;
  Rgb At(int x, int y) const {
    const size_t i = (static_cast<size_t>(y) * width + x) * 3;
    return Rgb{rgb[i], rgb[i + 1], rgb[i + 2]};
  }
};

// Decodes a PNG (any colour type libpng reads, converted to 8-bit RGB), for
// tools and tests. InvalidArgument when it is not a readable PNG.
absl::StatusOr<Image> DecodePng(absl::string_view png);

}  // namespace gridstar::render

#endif  // GRIDSTAR_RENDER_H_
