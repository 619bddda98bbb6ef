// The vector picture: render.h's layers as SVG, one user unit a cell. Runs of
// equal background colour along a row become one rectangle, so a map of
// open ground is a few shapes a row.

#include <cmath>
#include <cstdint>
#include <algorithm>
#include <string>
#include <vector>

#include "absl/strings/str_cat.h"
#include "absl/strings/str_format.h"
#include "gridstar/render.h"
#include "scene.h"

namespace gridstar::render {
namespace {

std::string Hex(Rgb c) { return absl::StrFormat("#%02x%02x%02x", c.r, c.g, c.b); }

void Rect(std::string* out, double x, double y, double w, double h, Rgb c) {
  absl::StrAppend(out, "<rect x=\"", x, "\" y=\"", y, "\" width=\"", w,
                  "\" height=\"", h, "\" fill=\"", Hex(c), "\"/>\n");
}

std::string Escape(absl::string_view text) {
  std::string out;
  for (char c : text) {
    switch (c) {
      case '<': out += "&lt;"; break;
      case '>': out += "&gt;"; break;
      case '&': out += "&amp;"; break;
      case '"': out += "&quot;"; break;
      default: out += c;
    }
  }
  return out;
}

}  // namespace

absl::StatusOr<std::string> RenderSvg(const Scene& scene,
                                      const RenderOptions& options) {
  if (absl::Status s = internal::ValidateScene(scene, options); !s.ok()) {
    return s;
  }
  const GridMap& map = *scene.map;
  const int k = *CellPixels(map, options);
  std::string out;
  const int64_t map_w = int64_t{map.width()} * k, map_h = int64_t{map.height()} * k;
  std::vector<internal::LegendEntry> entries;
  constexpr int kRow = 16;
  if (options.legend) entries = internal::LegendEntries(scene);
  const int64_t legend_h =
      options.legend ? kRow * (static_cast<int64_t>(entries.size()) + 1) + 8 : 0;
  const int64_t width = options.legend ? std::max<int64_t>(map_w, 360) : map_w;
  if (options.legend) {
    // The map in cell units inside a picture measured in pixels.
    absl::StrAppend(&out, "<svg xmlns=\"http://www.w3.org/2000/svg\" width=\"", width,
                    "\" height=\"", map_h + legend_h, "\">\n<svg width=\"", map_w,
                    "\" height=\"", map_h, "\" ");
  } else {
    absl::StrAppend(&out, "<svg xmlns=\"http://www.w3.org/2000/svg\" width=\"", map_w,
                    "\" height=\"", map_h, "\" ");
  }
  absl::StrAppend(&out, "viewBox=\"0 0 ", map.width(), " ", map.height(),
                  "\" shape-rendering=\"crispEdges\">\n");
  absl::StrAppend(&out,
                  "<defs><pattern id=\"hatch\" width=\"0.5\" height=\"0.5\" "
                  "patternUnits=\"userSpaceOnUse\" patternTransform=\"rotate(45)\">"
                  "<rect width=\"0.12\" height=\"0.5\" fill=\"",
                  Hex(kWallColour), "\"/></pattern></defs>\n");
  absl::StrAppend(&out, "<g id=\"cells\">\n");
  for (int32_t y = 0; y < map.height(); ++y) {
    int32_t run_start = 0;
    Rgb run = internal::BackgroundLook(scene, {0, y}).colour;
    for (int32_t x = 1; x <= map.width(); ++x) {
      const Rgb c = x < map.width() ? internal::BackgroundLook(scene, {x, y}).colour
                                    : Rgb{};
      if (x < map.width() && c == run) continue;
      Rect(&out, run_start, y, x - run_start, 1, run);
      run_start = x;
      run = c;
    }
  }
  absl::StrAppend(&out, "</g>\n<g id=\"blocked\" fill=\"url(#hatch)\">\n");
  // Cells the agent may not enter: the hatch over their area's colour.
  for (int32_t y = 0; y < map.height(); ++y) {
    for (int32_t x = 0; x < map.width(); ++x) {
      if (internal::BackgroundLook(scene, {x, y}).blocked_for_agent) {
        absl::StrAppend(&out, "<rect x=\"", x, "\" y=\"", y, "\" width=\"1\" height=\"1\"/>\n");
      }
    }
  }
  absl::StrAppend(&out, "</g>\n<g id=\"trace\">\n");
  for (size_t i = 0; i < scene.trace.size(); ++i) {
    Rect(&out, scene.trace[i].x, scene.trace[i].y, 1, 1,
         TraceColour(i, scene.trace.size()));
  }
  absl::StrAppend(&out, "</g>\n<g id=\"path\">\n");
  for (const Cell& c : scene.path) {
    Rect(&out, c.x + 0.25, c.y + 0.25, 0.5, 0.5, kPathColour);
  }
  absl::StrAppend(&out, "</g>\n");
  if (!scene.waypoints.empty()) {
    absl::StrAppend(&out, "<polyline id=\"waypoints\" fill=\"none\" stroke=\"",
                    Hex(kWaypointColour),
                    "\" stroke-width=\"0.25\" stroke-linejoin=\"round\" "
                    "points=\"");
    for (size_t i = 0; i < scene.waypoints.size(); ++i) {
      absl::StrAppend(&out, i ? " " : "", scene.waypoints[i].x + 0.5, ",",
                      scene.waypoints[i].y + 0.5);
    }
    absl::StrAppend(&out, "\"/>\n");
  }
  if (!scene.flow_directions.empty()) {
    const int s = internal::ArrowSpacing(options, k);
    const double length = 0.4 * s;
    absl::StrAppend(&out, "<g id=\"flow\" stroke=\"", Hex(kArrowColour),
                    "\" stroke-width=\"", 0.06 * s, "\" fill=\"none\">\n");
    for (int32_t y = s / 2; y < map.height(); y += s) {
      for (int32_t x = s / 2; x < map.width(); x += s) {
        const uint8_t d =
            scene.flow_directions[static_cast<size_t>(y) * map.width() + x];
        if (d >= 8) continue;
        const double norm = (kMoveDx[d] != 0 && kMoveDy[d] != 0) ? std::sqrt(2.0)
                                                                 : 1.0;
        const double ux = kMoveDx[d] / norm, uy = kMoveDy[d] / norm;
        const double cx = x + 0.5, cy = y + 0.5;
        const double tx = cx + ux * length, ty = cy + uy * length;
        const double head = length / 3;
        // Shaft and a head of two strokes at +-150 degrees from the shaft.
        const double c1 = std::cos(2.618), s1 = std::sin(2.618);
        absl::StrAppend(&out, "<path d=\"M", cx, " ", cy, "L", tx, " ", ty, "M",
                        tx + (c1 * ux - s1 * uy) * head, " ",
                        ty + (s1 * ux + c1 * uy) * head, "L", tx, " ", ty, "L",
                        tx + (c1 * ux + s1 * uy) * head, " ",
                        ty + (-s1 * ux + c1 * uy) * head, "\"/>\n");
      }
    }
    absl::StrAppend(&out, "</g>\n");
  }
  if (scene.start.has_value()) {
    absl::StrAppend(&out, "<g id=\"start\">");
    Rect(&out, scene.start->x, scene.start->y, 1, 1, kStartColour);
    absl::StrAppend(&out, "</g>\n");
  }
  if (scene.goal.has_value()) {
    absl::StrAppend(&out, "<g id=\"goal\">");
    Rect(&out, scene.goal->x, scene.goal->y, 1, 1, kGoalColour);
    absl::StrAppend(&out, "</g>\n");
  }
  absl::StrAppend(&out, "</svg>\n");
  if (options.legend) {
    absl::StrAppend(&out, "<g id=\"legend\" font-family=\"monospace\" font-size=\"12\">\n");
    Rect(&out, 0, map_h, width, legend_h, kLegendBackground);
    absl::StrAppend(&out, "<text x=\"6\" y=\"", map_h + 13, "\" fill=\"", Hex(kTextColour),
                    "\">", Escape(scene.caption), "</text>\n");
    for (size_t i = 0; i < entries.size(); ++i) {
      const int64_t y = map_h + kRow * static_cast<int64_t>(i + 1) + 4;
      Rect(&out, 6, y, 10, 10, entries[i].colour);
      if (entries[i].hatched) {
        absl::StrAppend(&out, "<rect x=\"6\" y=\"", y,
                        "\" width=\"10\" height=\"10\" fill=\"none\" stroke=\"",
                        Hex(kWallColour), "\" stroke-dasharray=\"2 2\"/>\n");
      }
      absl::StrAppend(&out, "<text x=\"22\" y=\"", y + 9, "\" fill=\"", Hex(kTextColour),
                      "\">", Escape(entries[i].label), "</text>\n");
    }
    absl::StrAppend(&out, "</g>\n</svg>\n");
  }
  return out;
}

}  // namespace gridstar::render
