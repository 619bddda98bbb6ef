// Tiled object layers: which cells a rectangle, ellipse, polygon or tile
// object (rotation included) covers, and what it sets on them
// (TiledBuilder::AddObject, tiled_model.h).

#include <algorithm>
#include <cmath>
#include <utility>

#include "absl/status/status.h"
#include "absl/strings/str_cat.h"
#include "io/tiled_model.h"

namespace gridstar::internal {
absl::Status TiledBuilder::AddObject(const TiledObject& object) {
  TiledEffect effect;
  if (object.shape == TiledObject::Shape::kTile) {
    absl::StatusOr<TiledEffect> of_tile = EffectOfGid(object.gid);
    if (!of_tile.ok()) return Invalid(object.where, of_tile.status().message());
    effect = *of_tile;
  }
  effect.Overlay(object.effect);
  for (const TiledRule& rule : options_.rules) {
    if (!rule.class_name.empty() && rule.class_name == object.class_name) {
      effect.Overlay(TiledEffect{rule.cost, rule.blocked, rule.area});
    }
  }
  if (!effect.any()) return absl::OkStatus();
  if (object.shape == TiledObject::Shape::kNoArea) {
    return Invalid(object.where,
                   absl::StrCat("a ", object.no_area_kind,
                                " has no area; only rectangles, ellipses, "
                                "polygons and tile objects set cells"));
  }
  for (double v : {object.x, object.y, object.width, object.height,
                   object.rotation_degrees}) {
    if (!std::isfinite(v) || std::fabs(v) > 1e12) {
      return Invalid(object.where, "position or size is not a finite number");
    }
  }
  // The shape in its own frame (origin at x, y before rotation), as a
  // bounding box and an inside test.
  double x0 = 0, y0 = 0, x1 = object.width, y1 = object.height;
  if (object.shape == TiledObject::Shape::kTile) {
    y0 = -object.height;  // A tile object's y is its bottom edge.
    y1 = 0;
  }
  if (object.shape == TiledObject::Shape::kPolygon) {
    if (object.points.size() < 3) {
      return Invalid(object.where, "a polygon needs at least 3 points");
    }
    x0 = x1 = object.points[0].first;
    y0 = y1 = object.points[0].second;
    for (const auto& [px, py] : object.points) {
      if (!std::isfinite(px) || !std::isfinite(py) || std::fabs(px) > 1e12 ||
          std::fabs(py) > 1e12) {
        return Invalid(object.where, "a polygon point is not a finite number");
      }
      x0 = std::min(x0, px);
      x1 = std::max(x1, px);
      y0 = std::min(y0, py);
      y1 = std::max(y1, py);
    }
  }
  auto inside = [&](double lx, double ly) {
    switch (object.shape) {
      case TiledObject::Shape::kEllipse: {
        const double rx = object.width / 2, ry = object.height / 2;
        if (rx <= 0 || ry <= 0) return false;
        const double dx = (lx - rx) / rx, dy = (ly - ry) / ry;
        return dx * dx + dy * dy < 1;
      }
      case TiledObject::Shape::kPolygon: {
        bool in = false;
        const auto& p = object.points;
        for (size_t i = 0, j = p.size() - 1; i < p.size(); j = i++) {
          if ((p[i].second > ly) != (p[j].second > ly) &&
              lx < (p[j].first - p[i].first) * (ly - p[i].second) /
                           (p[j].second - p[i].second) +
                       p[i].first) {
            in = !in;
          }
        }
        return in;
      }
      default:
        return lx >= x0 && lx < x1 && ly >= y0 && ly < y1;
    }
  };
  const double radians = object.rotation_degrees * M_PI / 180;
  const double c = std::cos(radians), s = std::sin(radians);
  // The world bounding box of the rotated local box.
  double wx0 = 1e300, wy0 = 1e300, wx1 = -1e300, wy1 = -1e300;
  for (auto [lx, ly] : {std::pair{x0, y0}, {x1, y0}, {x0, y1}, {x1, y1}}) {
    const double wx = object.x + lx * c - ly * s;
    const double wy = object.y + lx * s + ly * c;
    wx0 = std::min(wx0, wx);
    wx1 = std::max(wx1, wx);
    wy0 = std::min(wy0, wy);
    wy1 = std::max(wy1, wy);
  }
  auto cell_range = [](double lo, double hi, double size, int64_t n) {
    const double first = std::floor(lo / size - 0.5);
    const double last = std::ceil(hi / size - 0.5);
    return std::pair<int64_t, int64_t>(
        static_cast<int64_t>(std::clamp(first, 0.0, static_cast<double>(n))),
        static_cast<int64_t>(
            std::clamp(last, -1.0, static_cast<double>(n - 1))));
  };
  const auto [cx0, cx1] = cell_range(wx0, wx1, tile_width_, width_);
  const auto [cy0, cy1] = cell_range(wy0, wy1, tile_height_, height_);
  // Each cell of the box is tested against the shape: a polygon's test
  // reads every point.
  const double box = std::max<double>(0, static_cast<double>(cx1 - cx0 + 1)) *
                     std::max<double>(0, static_cast<double>(cy1 - cy0 + 1));
  if (absl::Status charged = Charge(
          box * std::max<double>(1, static_cast<double>(object.points.size())),
          object.where);
      !charged.ok()) {
    return charged;
  }
  for (int64_t cy = cy0; cy <= cy1; ++cy) {
    for (int64_t cx = cx0; cx <= cx1; ++cx) {
      const double dx = (cx + 0.5) * tile_width_ - object.x;
      const double dy = (cy + 0.5) * tile_height_ - object.y;
      // Into the object's frame: rotate back by its rotation.
      const double lx = dx * c + dy * s, ly = -dx * s + dy * c;
      if (inside(lx, ly)) Apply(static_cast<size_t>(cy * width_ + cx), effect);
    }
  }
  return absl::OkStatus();
}

}  // namespace gridstar::internal
