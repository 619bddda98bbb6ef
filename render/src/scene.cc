#include "scene.h"

#include <algorithm>
#include <array>
#include <cstdint>
#include <vector>

#include "absl/strings/str_cat.h"

namespace gridstar::render {
namespace {

constexpr int kMaxCellPixels = 64;
constexpr int kAutoImageSide = 2048;
constexpr int kMaxArrowSpacing = 4096;

uint8_t Lerp(uint8_t a, uint8_t b, double t) {
  return static_cast<uint8_t>(a + (b - a) * t + 0.5);
}

Rgb Mix(Rgb a, Rgb b, double t) {
  return Rgb{Lerp(a.r, b.r, t), Lerp(a.g, b.g, t), Lerp(a.b, b.b, t)};
}

absl::Status CheckCells(const GridMap& map, const std::vector<Cell>& cells,
                        absl::string_view field) {
  for (size_t i = 0; i < cells.size(); ++i) {
    const Cell c = cells[i];
    if (c.x < 0 || c.y < 0 || c.x >= map.width() || c.y >= map.height()) {
      return absl::InvalidArgumentError(
          absl::StrCat(field, "[", i, "]: (", c.x, ", ", c.y,
                       ") is off the ", map.width(), " x ", map.height(),
                       " map"));
    }
  }
  return absl::OkStatus();
}

}  // namespace

Rgb CostColour(uint8_t cost, uint8_t min_cost, uint8_t max_cost) {
  if (max_cost <= min_cost) return Rgb{255, 255, 255};
  const double t = std::clamp(
      static_cast<double>(cost - min_cost) / (max_cost - min_cost), 0.0, 1.0);
  return Mix(Rgb{255, 255, 255}, Rgb{150, 110, 70}, t);
}

Rgb AreaColour(uint8_t area, uint8_t cost, uint8_t min_cost, uint8_t max_cost) {
  const double t =
      max_cost <= min_cost
          ? 0.0
          : std::clamp(static_cast<double>(cost - min_cost) / (max_cost - min_cost), 0.0,
                       1.0);
  switch (area) {
    case 0:
      return CostColour(cost, min_cost, max_cost);
    case 1:
      return Mix(kSwampColour, Rgb{110, 100, 60}, t);
    case 2:
      return kWaterColour;
    case 3:
      return kTreeColour;
    default:
      return Mix(kAreaPalette[(area - 4) % 8], Rgb{60, 60, 60}, 0.5 * t);
  }
}

std::string AreaName(uint8_t area) {
  switch (area) {
    case 0:
      return "ground";
    case 1:
      return "swamp";
    case 2:
      return "water";
    case 3:
      return "trees";
    default:
      return absl::StrCat("area ", int{area});
  }
}

Rgb TraceColour(size_t i, size_t n) {
  const double t = n <= 1 ? 0.0 : static_cast<double>(i) / (n - 1);
  return Mix(Rgb{40, 90, 230}, Rgb{250, 160, 30}, t);
}

absl::StatusOr<int> CellPixels(const GridMap& map,
                               const RenderOptions& options) {
  if (options.cell_pixels < 0 || options.cell_pixels > kMaxCellPixels) {
    return absl::InvalidArgumentError(
        absl::StrCat("cell_pixels: ", options.cell_pixels,
                     " is out of range [0, ", kMaxCellPixels, "]"));
  }
  const int side = std::max(map.width(), map.height());
  int k = options.cell_pixels;
  if (k == 0) k = std::clamp(kAutoImageSide / std::max(side, 1), 1, 16);
  const int64_t pixels =
      int64_t{map.width()} * k * (int64_t{map.height()} * k);
  if (pixels > kMaxPixels) {
    return absl::InvalidArgumentError(absl::StrCat(
        "cell_pixels: ", k, " makes a ", int64_t{map.width()} * k, " x ",
        int64_t{map.height()} * k, " image, over ", kMaxPixels, " pixels"));
  }
  return k;
}

namespace internal {

absl::Status ValidateScene(const Scene& scene, const RenderOptions& options) {
  if (scene.map == nullptr) {
    return absl::InvalidArgumentError("map: no map to draw");
  }
  const GridMap& map = *scene.map;
  if (absl::StatusOr<int> k = CellPixels(map, options); !k.ok()) {
    return k.status();
  }
  if (options.arrow_spacing < 0 || options.arrow_spacing > kMaxArrowSpacing) {
    return absl::InvalidArgumentError(
        absl::StrCat("arrow_spacing: ", options.arrow_spacing,
                     " is out of range [0, ", kMaxArrowSpacing, "]"));
  }
  if (absl::Status s = CheckCells(map, scene.path, "path"); !s.ok()) return s;
  if (absl::Status s = CheckCells(map, scene.waypoints, "waypoints"); !s.ok()) {
    return s;
  }
  if (absl::Status s = CheckCells(map, scene.trace, "trace"); !s.ok()) return s;
  if (scene.start.has_value()) {
    if (absl::Status s = CheckCells(map, {*scene.start}, "start"); !s.ok()) {
      return s;
    }
  }
  if (scene.goal.has_value()) {
    if (absl::Status s = CheckCells(map, {*scene.goal}, "goal"); !s.ok()) {
      return s;
    }
  }
  if (!scene.areas.empty()) {
    if (static_cast<int64_t>(scene.areas.size()) != map.cell_count()) {
      return absl::InvalidArgumentError(absl::StrCat(
          "areas: ", scene.areas.size(), " bytes for a map of ", map.cell_count(), " cells"));
    }
    for (size_t i = 0; i < scene.areas.size(); ++i) {
      if (scene.areas[i] >= 64) {
        return absl::InvalidArgumentError(
            absl::StrCat("areas[", i, "]: ", int{scene.areas[i]}, " is not below 64"));
      }
    }
  }
  for (size_t i = 0; i < scene.caption.size(); ++i) {
    const unsigned char ch = static_cast<unsigned char>(scene.caption[i]);
    if (ch < 0x20 || ch > 0x7e) {
      return absl::InvalidArgumentError(
          absl::StrCat("caption[", i, "]: not printable ASCII"));
    }
  }
  if (!scene.flow_directions.empty()) {
    if (static_cast<int64_t>(scene.flow_directions.size()) !=
        map.cell_count()) {
      return absl::InvalidArgumentError(absl::StrCat(
          "flow_directions: ", scene.flow_directions.size(),
          " bytes for a map of ", map.cell_count(), " cells"));
    }
    for (size_t i = 0; i < scene.flow_directions.size(); ++i) {
      const uint8_t d = scene.flow_directions[i];
      if (d > 8 && d != 255) {
        return absl::InvalidArgumentError(
            absl::StrCat("flow_directions[", i, "]: ", int{d},
                         " is not a move (0..7), the goal (8) or 255"));
      }
    }
  }
  return absl::OkStatus();
}

int ArrowSpacing(const RenderOptions& options, int cell_pixels) {
  if (options.arrow_spacing > 0) return options.arrow_spacing;
  return std::max(1, 16 / cell_pixels);
}

CellLook BackgroundLook(const Scene& scene, Cell c) {
  const GridMap& map = *scene.map;
  const uint8_t cost = map.cost(c);
  if (cost == 0) return {kWallColour, false};
  const uint8_t area =
      scene.areas.empty()
          ? 0
          : scene.areas[static_cast<size_t>(c.y) * map.width() + c.x];
  return {AreaColour(area, cost, map.min_cost(), map.max_cost()),
          ((scene.allowed_areas >> area) & 1) == 0};
}

std::vector<LegendEntry> LegendEntries(const Scene& scene) {
  const GridMap& map = *scene.map;
  // Per area present: its cost range.
  std::array<int, 64> lo, hi;
  lo.fill(256);
  hi.fill(-1);
  bool walls = false;
  for (int32_t y = 0; y < map.height(); ++y) {
    for (int32_t x = 0; x < map.width(); ++x) {
      const uint8_t cost = map.cost({x, y});
      if (cost == 0) {
        walls = true;
        continue;
      }
      const uint8_t a =
          scene.areas.empty() ? 0 : scene.areas[static_cast<size_t>(y) * map.width() + x];
      lo[a] = std::min<int>(lo[a], cost);
      hi[a] = std::max<int>(hi[a], cost);
    }
  }
  std::vector<LegendEntry> out;
  if (walls) out.push_back({kWallColour, "wall (cost 0)", false});
  for (int a = 0; a < 64; ++a) {
    if (hi[a] < 0) continue;
    const bool blocked = ((scene.allowed_areas >> a) & 1) == 0;
    const std::string costs = lo[a] == hi[a] ? absl::StrCat("cost ", lo[a])
                                             : absl::StrCat("cost ", lo[a], "-", hi[a]);
    const uint8_t area = static_cast<uint8_t>(a);
    // Shaded areas show their cheapest and dearest colours.
    out.push_back({AreaColour(area, static_cast<uint8_t>(lo[a]), map.min_cost(),
                              map.max_cost()),
                   absl::StrCat(AreaName(area), " ", costs, blocked ? ", blocks agent" : ""),
                   blocked});
    if (lo[a] != hi[a] && (a == 0 || a == 1 || a >= 4)) {
      out.push_back({AreaColour(area, static_cast<uint8_t>(hi[a]), map.min_cost(),
                                map.max_cost()),
                     absl::StrCat(AreaName(area), " cost ", hi[a]), blocked});
    }
  }
  if (!scene.trace.empty()) {
    out.push_back({TraceColour(0, 2), "expanded first", false});
    out.push_back({TraceColour(1, 2), "expanded last", false});
  }
  if (!scene.path.empty()) out.push_back({kPathColour, "path", false});
  if (!scene.waypoints.empty()) out.push_back({kWaypointColour, "waypoints", false});
  if (!scene.flow_directions.empty()) out.push_back({kArrowColour, "flow arrows", false});
  if (scene.start.has_value()) out.push_back({kStartColour, "start", false});
  if (scene.goal.has_value()) out.push_back({kGoalColour, "goal", false});
  return out;
}

}  // namespace internal
}  // namespace gridstar::render
