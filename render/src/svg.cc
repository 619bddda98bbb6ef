// The vector picture: render.h's layers as SVG, one user unit a cell. Runs of
// equal background colour along a row become one rectangle, so a map of
// open ground is a few shapes a row.

#include <cmath>
#include <cstdint>
#include <string>

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

}  // namespace

absl::StatusOr<std::string> RenderSvg(const Scene& scene,
                                      const RenderOptions& options) {
  if (absl::Status s = internal::ValidateScene(scene, options); !s.ok()) {
    return s;
  }
  const GridMap& map = *scene.map;
  const int k = *CellPixels(map, options);
  std::string out;
  absl::StrAppend(&out,
                  "<svg xmlns=\"http://www.w3.org/2000/svg\" width=\"",
                  int64_t{map.width()} * k, "\" height=\"",
                  int64_t{map.height()} * k, "\" viewBox=\"0 0 ", map.width(),
                  " ", map.height(), "\" shape-rendering=\"crispEdges\">\n");
  absl::StrAppend(&out, "<g id=\"cells\">\n");
  for (int32_t y = 0; y < map.height(); ++y) {
    int32_t run_start = 0;
    Rgb run = internal::BackgroundColour(map, {0, y});
    for (int32_t x = 1; x <= map.width(); ++x) {
      const Rgb c = x < map.width() ? internal::BackgroundColour(map, {x, y})
                                    : Rgb{};
      if (x < map.width() && c == run) continue;
      Rect(&out, run_start, y, x - run_start, 1, run);
      run_start = x;
      run = c;
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
  return out;
}

}  // namespace gridstar::render
