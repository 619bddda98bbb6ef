// Pictures of a map and of what a search did on it: PNG (through libpng) and
// SVG. The `gridstar render` command and `gridstar-bench --render` draw with
// it; the colours are public so that legends and tests can name them.
//
// A picture shows, bottom to top: every cell in the colour of its area
// (Moving AI's: ground shaded by cost from white for the map's cheapest to
// brown for the dearest, swamp khaki, water blue, trees dark green; other
// areas from a palette), walls near-black, and the cells the agent may not
// enter (their area is outside Scene::allowed_areas) hatched with wall-
// coloured diagonals over their area's colour; the
// cells a search expanded, coloured by expansion order from blue (first) to
// orange (last); the path's cells (a green square inside each cell); its
// waypoints joined by red segments; a flow field's first moves as arrows on a
// sampled grid of cells; and the start (cyan) and goal (magenta) markers,
// at least a cell and at least 1/100 of the picture's longer side wide, with
// a dark outline. With RenderOptions::legend a strip below the map names
// every colour drawn (areas with their costs and whether they block the
// agent, walls, the path, the trace, the markers) under Scene::caption.
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
  // Area id of every cell, row-major (each < 64); empty: all area 0.
  std::vector<uint8_t> areas;
  // The areas the agent of the picture may enter (bit i: area i); cells of
  // other areas are drawn hatched, as blocked for it.
  uint64_t allowed_areas = ~uint64_t{0};
  // One line over the legend (the algorithm, the cost); printable ASCII.
  std::string caption;
};

struct RenderOptions {
  // Pixels per cell side, 1..64; 0 picks the largest that keeps the image's
  // longer side within 2048 pixels (at least 1).
  int cell_pixels = 0;
  // A flow arrow every this many cells in each direction, 1..4096; 0 picks
  // about one per 16 pixels (at least one per cell).
  int arrow_spacing = 0;
  // Draw the legend strip (and the caption) below the map.
  bool legend = false;
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
inline constexpr Rgb kMarkerOutline{0, 0, 0};
inline constexpr Rgb kLegendBackground{245, 245, 240};
inline constexpr Rgb kTextColour{20, 20, 20};
// Area colours: Moving AI's swamp (1), water (2) and trees (3); area 0 is the
// cost shading (CostColour); areas from 4 take kAreaPalette[(a - 4) % 8].
inline constexpr Rgb kSwampColour{185, 175, 120};
inline constexpr Rgb kWaterColour{80, 140, 215};
inline constexpr Rgb kTreeColour{40, 95, 50};
inline constexpr Rgb kAreaPalette[8] = {
    {150, 100, 190}, {60, 170, 170}, {230, 150, 180}, {150, 150, 40},
    {120, 130, 160}, {220, 140, 80}, {190, 160, 220}, {200, 190, 150}};
// The colour of a passable cell of `area` and `cost` on a map whose costs
// run from min_cost to max_cost (swamp and palette areas are shaded darker
// with cost as ground is).
Rgb AreaColour(uint8_t area, uint8_t cost, uint8_t min_cost, uint8_t max_cost);
// Whether pixel (px, py) of a cell blocked for the agent is a hatch pixel
// (drawn kWallColour): the diagonals px + py = 0 mod 4.
inline bool HatchPixel(int px, int py) { return (px + py) % 4 == 0; }
// "ground", "swamp", "water", "trees", else "area N".
std::string AreaName(uint8_t area);
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

// A world of linked maps (core's world.h) drawn side by side, left to right
// in the order given, each under its title: each panel is a Scene as
// RenderPng draws it (its map, the legs of a path on it, markers), all at
// one scale; links are lines between their ends' cell centres: the ones a
// path took thick red, open ones navy, closed ones grey and dashed, a
// one-way link with an arrowhead at its `to` end. A strip below gives the
// caption and the key.
struct WorldScene {
  struct Panel {
    Scene scene;
    // Printable ASCII, over the panel.
    std::string title;
  };
  std::vector<Panel> panels;
  struct LinkMark {
    int from_panel = 0;
    Cell from;
    int to_panel = 0;
    Cell to;
    bool open = true;
    bool both_ways = true;
    bool taken = false;
  };
  std::vector<LinkMark> links;
  std::string caption;
};

// cell_pixels 0 picks the largest scale that keeps the picture within 3072
// x 2048 pixels. InvalidArgument naming "panels[i]..." or "links[i]" (a
// panel index or cell off its map) as RenderPng's errors name the scene's.
absl::StatusOr<std::string> RenderWorldPng(const WorldScene& world,
                                           const RenderOptions& options);

// The largest side of a map-view tile, in pixels (RenderTilePng).
inline constexpr int kMaxTilePixels = 1024;

// One square tile of a map view that pans and zooms (a console): the cells
// [x0, x0 + span) x [y0, y0 + span) drawn `pixels` pixels a side as PNG.
// Each cell is its picture's background (walls kWallColour, passable cells
// AreaColour of their area and cost; `areas` row-major or empty for all area
// 0); cells off the map are kLegendBackground. Zoomed in (span <= pixels) a
// pixel shows the cell under its centre; zoomed out, the mean colour of up to
// 4 x 4 cells spread evenly over its block, so that walls thinner than a
// pixel still darken it. Its cost is O(pixels^2 * 16) cell reads whatever
// the map's size. InvalidArgument naming pixels (1 to kMaxTilePixels) or
// span (1 to 2^24), or areas (neither empty nor one per cell).
absl::StatusOr<std::string> RenderTilePng(const GridMap& map,
                                          const std::vector<uint8_t>& areas,
                                          int64_t x0, int64_t y0, int64_t span,
                                          int pixels);

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
