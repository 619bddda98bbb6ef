// RenderWorldPng (render.h): the panels of a world side by side on one
// canvas, the links drawn over them, the key below.

#include <algorithm>
#include <cmath>
#include <cstdint>
#include <string>
#include <vector>

#include "absl/strings/str_cat.h"
#include "font.h"
#include "gridstar/render.h"
#include "raster.h"
#include "scene.h"

namespace gridstar::render {
namespace {

constexpr int kGap = 24;      // Pixels between panels.
constexpr int kTitle = 16;    // The title strip over each panel.
constexpr int kKeyLines = 3;  // Caption and key below.
constexpr int kLine = 14;
constexpr int kMaxWidth = 3072;
constexpr int kMaxHeight = 2048;
constexpr Rgb kTakenColour{215, 35, 35};
constexpr Rgb kOpenColour{30, 40, 140};
constexpr Rgb kClosedColour{150, 150, 150};

// A line whose pixels are drawn only where `keep(t)` (t from 0 to 1 along
// it) says, `thickness` wide.
template <typename Keep>
void DrawLine(internal::Canvas& canvas, double x0, double y0, double x1,
              double y1, int thickness, Rgb colour, Keep keep) {
  const double length = std::hypot(x1 - x0, y1 - y0);
  const int steps = std::max(1, static_cast<int>(length));
  const int lo = -(thickness - 1) / 2;
  for (int i = 0; i <= steps; ++i) {
    const double t = static_cast<double>(i) / steps;
    if (!keep(t * length)) continue;
    const int x = static_cast<int>(std::lround(x0 + (x1 - x0) * t));
    const int y = static_cast<int>(std::lround(y0 + (y1 - y0) * t));
    canvas.Fill(x + lo, y + lo, thickness, thickness, colour);
  }
}

}  // namespace

absl::StatusOr<std::string> RenderWorldPng(const WorldScene& world,
                                           const RenderOptions& options) {
  if (world.panels.empty()) {
    return absl::InvalidArgumentError("panels: a world picture needs a map");
  }
  int64_t cells_wide = 0, cells_high = 0;
  for (size_t i = 0; i < world.panels.size(); ++i) {
    const GridMap* map = world.panels[i].scene.map;
    if (map == nullptr) {
      return absl::InvalidArgumentError(
          absl::StrCat("panels[", i, "].scene.map: required"));
    }
    cells_wide += map->width();
    cells_high = std::max<int64_t>(cells_high, map->height());
  }
  const int64_t gaps = kGap * static_cast<int64_t>(world.panels.size() - 1);
  int k = options.cell_pixels;
  if (k == 0) {
    k = static_cast<int>(std::clamp<int64_t>(
        std::min((kMaxWidth - gaps) / std::max<int64_t>(1, cells_wide),
                 (kMaxHeight - kTitle) / std::max<int64_t>(1, cells_high)),
        1, 64));
  }
  RenderOptions panel_options = options;
  panel_options.cell_pixels = k;
  for (size_t i = 0; i < world.panels.size(); ++i) {
    if (absl::Status s =
            internal::ValidateScene(world.panels[i].scene, panel_options);
        !s.ok()) {
      return absl::InvalidArgumentError(
          absl::StrCat("panels[", i, "].", s.message()));
    }
  }
  const int64_t width = cells_wide * k + gaps;
  const int64_t height = kTitle + cells_high * k + kKeyLines * kLine + 8;
  if (width * height > kMaxPixels) {
    return absl::InvalidArgumentError(
        absl::StrCat("cell_pixels: ", k, " makes a ", width, " x ", height,
                     " picture, more than ", kMaxPixels, " pixels"));
  }
  // Each panel's left edge.
  std::vector<int> left;
  for (size_t i = 0, x = 0; i < world.panels.size(); ++i) {
    left.push_back(static_cast<int>(x));
    x += static_cast<size_t>(world.panels[i].scene.map->width()) * k + kGap;
  }
  for (size_t i = 0; i < world.links.size(); ++i) {
    const WorldScene::LinkMark& l = world.links[i];
    for (const auto& [panel, cell] : {std::make_pair(l.from_panel, l.from),
                                      std::make_pair(l.to_panel, l.to)}) {
      if (panel < 0 || static_cast<size_t>(panel) >= world.panels.size() ||
          !world.panels[panel].scene.map->InBounds(cell)) {
        return absl::InvalidArgumentError(
            absl::StrCat("links[", i, "]: an end is off the panels' maps"));
      }
    }
  }

  internal::Canvas canvas(static_cast<int>(width), static_cast<int>(height));
  canvas.Fill(0, 0, canvas.width(), canvas.height(), kLegendBackground);
  for (size_t i = 0; i < world.panels.size(); ++i) {
    const WorldScene::Panel& panel = world.panels[i];
    const GridMap& map = *panel.scene.map;
    internal::Canvas drawn(map.width() * k, map.height() * k);
    internal::DrawScene(panel.scene, k,
                        internal::ArrowSpacing(panel_options, k), drawn);
    for (int y = 0; y < drawn.height(); ++y) {
      for (int x = 0; x < drawn.width(); ++x) {
        const uint8_t* p =
            &drawn.rgb()[(static_cast<size_t>(y) * drawn.width() + x) * 3];
        canvas.Set(left[i] + x, kTitle + y, Rgb{p[0], p[1], p[2]});
      }
    }
    internal::DrawText(canvas, left[i], 3, panel.title, kTextColour);
  }
  // Links: closed ones first, the path's last, so that it stays on top.
  std::vector<size_t> order(world.links.size());
  for (size_t i = 0; i < order.size(); ++i) order[i] = i;
  std::stable_sort(order.begin(), order.end(), [&](size_t a, size_t b) {
    auto rank = [&](const WorldScene::LinkMark& l) {
      return l.taken ? 2 : l.open ? 1 : 0;
    };
    return rank(world.links[a]) < rank(world.links[b]);
  });
  const int thin = std::max(1, k / 4);
  for (size_t i : order) {
    const WorldScene::LinkMark& l = world.links[i];
    const double x0 = left[l.from_panel] + (l.from.x + 0.5) * k;
    const double y0 = kTitle + (l.from.y + 0.5) * k;
    const double x1 = left[l.to_panel] + (l.to.x + 0.5) * k;
    const double y1 = kTitle + (l.to.y + 0.5) * k;
    const Rgb colour = l.taken  ? kTakenColour
                       : l.open ? kOpenColour
                                : kClosedColour;
    const int thickness = l.taken ? thin + 2 : thin;
    DrawLine(canvas, x0, y0, x1, y1, thickness, colour, [&](double at) {
      return l.open || std::fmod(at, 10.0) < 6.0;  // Closed: dashed.
    });
    // The ends, and an arrowhead at `to` for a one-way link.
    for (const auto& [x, y] :
         {std::make_pair(x0, y0), std::make_pair(x1, y1)}) {
      const int side = thickness + 4;
      canvas.Fill(static_cast<int>(x) - side / 2,
                  static_cast<int>(y) - side / 2, side, side, colour);
    }
    const double length = std::hypot(x1 - x0, y1 - y0);
    if (!l.both_ways && length > 0) {
      const double ux = (x1 - x0) / length, uy = (y1 - y0) / length;
      const double head = std::max(8.0, 2.5 * k);
      for (const double turn : {2.618, -2.618}) {  // 150 degrees.
        const double hx = std::cos(turn) * ux - std::sin(turn) * uy;
        const double hy = std::sin(turn) * ux + std::cos(turn) * uy;
        DrawLine(canvas, x1, y1, x1 + hx * head, y1 + hy * head, thickness,
                 colour, [](double) { return true; });
      }
    }
  }
  const int key_top = kTitle + static_cast<int>(cells_high) * k + 4;
  internal::DrawText(canvas, 4, key_top, world.caption, kTextColour);
  int x = 4;
  const int y = key_top + kLine;
  for (const auto& [colour, label] :
       {std::make_pair(kTakenColour, "LINK TAKEN"),
        std::make_pair(kOpenColour, "OPEN LINK"),
        std::make_pair(kClosedColour,
                       "CLOSED LINK (DASHED); ONE-WAY: ARROW "
                       "AT ITS END")}) {
    canvas.Fill(x, y + 3, 14, 4, colour);
    internal::DrawText(canvas, x + 18, y, label, kTextColour);
    x += 18 +
         static_cast<int>(std::string(label).size()) * internal::kGlyphAdvance +
         16;
  }
  std::string out;
  if (!internal::EncodePng(canvas, &out)) {
    return absl::InternalError("png: libpng could not encode the picture");
  }
  return out;
}

}  // namespace gridstar::render
