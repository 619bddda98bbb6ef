#include "scene.h"

#include <algorithm>
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

Rgb BackgroundColour(const GridMap& map, Cell c) {
  const uint8_t cost = map.cost(c);
  if (cost == 0) return kWallColour;
  return CostColour(cost, map.min_cost(), map.max_cost());
}

}  // namespace internal
}  // namespace gridstar::render
