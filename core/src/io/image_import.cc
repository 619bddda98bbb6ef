// Images as maps: PNG through libpng's simplified API, PGM through
// ReadPgmPixels, each pixel through an ImageMapping.

#include <png.h>

#include <cmath>
#include <cstdint>
#include <cstring>
#include <utility>
#include <vector>

#include "absl/container/flat_hash_map.h"
#include "absl/status/status.h"
#include "absl/strings/str_cat.h"
#include "absl/strings/str_format.h"
#include "gridstar/agents.h"
#include "gridstar/map_import.h"
#include "io/pgm_pixels.h"

namespace gridstar {
namespace {

std::string ColourName(uint32_t rgb) { return absl::StrFormat("#%06x", rgb); }

uint8_t Luma(uint32_t r, uint32_t g, uint32_t b) {
  return static_cast<uint8_t>(std::lround(0.299 * static_cast<double>(r) +
                                          0.587 * static_cast<double>(g) +
                                          0.114 * static_cast<double>(b)));
}

// Reads cells through `mapping` from a pixel source: rgb_at(i) gives pixel
// i's colour (0xRRGGBB), level_at(i) its 0-255 level, value_at(i) the level
// kValue uses (at most value_max, which invert maps to 0).
template <typename Rgb, typename Level, typename Value>
absl::StatusOr<MapWithAreas> MapPixels(int64_t width, int64_t height,
                                       int value_max,
                                       const ImageMapping& mapping,
                                       const MapLimits& limits, Rgb rgb_at,
                                       Level level_at, Value value_at) {
  const size_t n = static_cast<size_t>(width * height);
  std::vector<uint8_t> costs(n);
  std::vector<uint8_t> areas;
  switch (mapping.mode) {
    case ImageMapping::Mode::kValue:
      for (size_t i = 0; i < n; ++i) {
        const uint8_t v = value_at(i);
        costs[i] = mapping.invert ? static_cast<uint8_t>(value_max - v) : v;
      }
      break;
    case ImageMapping::Mode::kThreshold:
      for (size_t i = 0; i < n; ++i) {
        const bool light = level_at(i) >= mapping.threshold;
        costs[i] = light != mapping.invert
                       ? static_cast<uint8_t>(mapping.floor_cost)
                       : 0;
      }
      break;
    case ImageMapping::Mode::kPalette: {
      absl::flat_hash_map<uint32_t, ImageMapping::Colour> by_rgb;
      bool any_area = false;
      for (const ImageMapping::Colour& c : mapping.palette) {
        by_rgb.emplace(c.rgb, c);
        any_area = any_area || c.area != 0;
      }
      if (any_area) areas.resize(n);
      for (size_t i = 0; i < n; ++i) {
        const uint32_t rgb = rgb_at(i);
        auto it = by_rgb.find(rgb);
        if (it == by_rgb.end()) {
          return absl::InvalidArgumentError(absl::StrCat(
              "pixel (", i % width, ", ", i / width, "): colour ",
              ColourName(rgb), " is not in image_mapping.palette"));
        }
        costs[i] = it->second.cost;
        if (any_area) areas[i] = it->second.area;
      }
      break;
    }
  }
  absl::StatusOr<GridMap> map =
      GridMap::FromCosts(width, height, costs, limits);
  if (!map.ok()) return map.status();
  return MapWithAreas{*std::move(map), std::move(areas), kAllAreas};
}

}  // namespace

absl::Status ValidateImageMapping(const ImageMapping& mapping) {
  if (mapping.threshold < 1 || mapping.threshold > 255) {
    return absl::InvalidArgumentError(
        absl::StrCat("threshold: ", mapping.threshold, " is outside [1, 255]"));
  }
  if (mapping.floor_cost < 1 || mapping.floor_cost > 255) {
    return absl::InvalidArgumentError(absl::StrCat(
        "floor_cost: ", mapping.floor_cost, " is outside [1, 255]"));
  }
  if (mapping.mode == ImageMapping::Mode::kPalette && mapping.palette.empty()) {
    return absl::InvalidArgumentError(
        "palette: empty, but the mode is PALETTE (give each colour its cost)");
  }
  absl::flat_hash_map<uint32_t, size_t> seen;
  for (size_t i = 0; i < mapping.palette.size(); ++i) {
    const ImageMapping::Colour& c = mapping.palette[i];
    if (c.rgb > 0xffffff) {
      return absl::InvalidArgumentError(absl::StrCat(
          "palette[", i, "].rgb: ", c.rgb, " is over 0xffffff (0xRRGGBB)"));
    }
    if (c.area >= kMaxAreas) {
      return absl::InvalidArgumentError(
          absl::StrCat("palette[", i, "].area: ", c.area, " is outside [0, ",
                       kMaxAreas - 1, "]"));
    }
    if (auto [it, added] = seen.emplace(c.rgb, i); !added) {
      return absl::InvalidArgumentError(
          absl::StrCat("palette[", i, "].rgb: colour ", ColourName(c.rgb),
                       " is also palette[", it->second, "]"));
    }
  }
  return absl::OkStatus();
}

absl::StatusOr<MapWithAreas> ParsePngMap(absl::string_view png,
                                         const ImageMapping& mapping,
                                         const MapLimits& limits) {
  if (absl::Status s = ValidateImageMapping(mapping); !s.ok()) return s;
  png_image image;
  std::memset(&image, 0, sizeof(image));
  image.version = PNG_IMAGE_VERSION;
  if (!png_image_begin_read_from_memory(&image, png.data(), png.size())) {
    const std::string message = image.message;
    png_image_free(&image);
    return absl::InvalidArgumentError(absl::StrCat("png: ", message));
  }
  if (absl::Status s =
          GridMap::CheckDimensions(image.width, image.height, limits);
      !s.ok()) {
    png_image_free(&image);
    return absl::Status(s.code(), absl::StrCat("png: ", s.message()));
  }
  // Alpha is composited on white by libpng (the background below).
  image.format = PNG_FORMAT_RGB;
  const int64_t width = image.width, height = image.height;
  std::vector<uint8_t> rgb(PNG_IMAGE_SIZE(image));
  png_color white{255, 255, 255};
  if (!png_image_finish_read(&image, &white, rgb.data(), 0, nullptr)) {
    const std::string message = image.message;
    png_image_free(&image);
    return absl::InvalidArgumentError(absl::StrCat("png: ", message));
  }
  png_image_free(&image);
  auto rgb_at = [&](size_t i) {
    const uint8_t* p = &rgb[3 * i];
    return (uint32_t{p[0]} << 16) | (uint32_t{p[1]} << 8) | p[2];
  };
  auto level_at = [&](size_t i) {
    const uint8_t* p = &rgb[3 * i];
    return Luma(p[0], p[1], p[2]);
  };
  return MapPixels(width, height, 255, mapping, limits, rgb_at, level_at,
                   level_at);
}

absl::StatusOr<MapWithAreas> ParsePgmMap(absl::string_view pgm,
                                         const ImageMapping& mapping,
                                         const MapLimits& limits) {
  if (absl::Status s = ValidateImageMapping(mapping); !s.ok()) return s;
  absl::StatusOr<internal::PgmPixels> pixels =
      internal::ReadPgmPixels(pgm, limits, 65535);
  if (!pixels.ok()) return pixels.status();
  const std::vector<uint16_t>& values = pixels->values;
  const int maxval = pixels->maxval;
  auto level_at = [&](size_t i) {
    return static_cast<uint8_t>((values[i] * 255 + maxval / 2) / maxval);
  };
  auto rgb_at = [&](size_t i) {
    const uint32_t l = level_at(i);
    return (l << 16) | (l << 8) | l;
  };
  // VALUE reads the pixel value as the cost: a 16-bit image's levels
  // instead, 0-255 (invert from 255).
  const bool wide = maxval > 255;
  auto value_at = [&](size_t i) {
    return wide ? level_at(i) : static_cast<uint8_t>(values[i]);
  };
  return MapPixels(pixels->width, pixels->height, wide ? 255 : maxval, mapping,
                   limits, rgb_at, level_at, value_at);
}

}  // namespace gridstar
