#include "convert/map_formats.h"

#include <string>
#include <utility>

#include "absl/status/status.h"
#include "absl/strings/str_cat.h"
#include "gridstar/agents.h"

namespace gridstar::convert {
namespace {

absl::Status Prefixed(absl::string_view prefix, const absl::Status& s) {
  return absl::Status(s.code(), absl::StrCat(prefix, s.message()));
}

}  // namespace

absl::StatusOr<ImageMapping> ImageMappingFromProto(const v1::ImageMapping& m) {
  ImageMapping mapping;
  switch (m.mode()) {
    case v1::IMAGE_MODE_UNSPECIFIED:
    case v1::IMAGE_MODE_THRESHOLD:
      mapping.mode = ImageMapping::Mode::kThreshold;
      break;
    case v1::IMAGE_MODE_VALUE:
      mapping.mode = ImageMapping::Mode::kValue;
      break;
    case v1::IMAGE_MODE_PALETTE:
      mapping.mode = ImageMapping::Mode::kPalette;
      break;
    default:
      return absl::InvalidArgumentError(absl::StrCat(
          "image_mapping.mode: unknown value ", static_cast<int>(m.mode())));
  }
  mapping.threshold = m.threshold() == 0 ? 128 : m.threshold();
  mapping.invert = m.invert();
  mapping.floor_cost = m.floor_cost() == 0 ? 1 : m.floor_cost();
  for (int i = 0; i < m.palette_size(); ++i) {
    const v1::PaletteColour& c = m.palette(i);
    const std::string field = absl::StrCat("image_mapping.palette[", i, "]");
    if (c.cost() > 255) {
      return absl::InvalidArgumentError(absl::StrCat(
          field, ".cost: ", c.cost(), " is outside [0, 255] (0 blocks)"));
    }
    if (c.area() >= static_cast<uint32_t>(kMaxAreas)) {
      return absl::InvalidArgumentError(absl::StrCat(
          field, ".area: ", c.area(), " is outside [0, ", kMaxAreas - 1, "]"));
    }
    mapping.palette.push_back(
        ImageMapping::Colour{c.rgb(), static_cast<uint8_t>(c.cost()),
                             static_cast<uint8_t>(c.area())});
  }
  if (absl::Status s = ValidateImageMapping(mapping); !s.ok()) {
    return Prefixed("image_mapping.", s);
  }
  return mapping;
}

absl::StatusOr<TiledOptions> TiledOptionsFromProto(const v1::TiledMap& t) {
  TiledOptions options;
  for (int i = 0; i < t.tilesets_size(); ++i) {
    const v1::TiledFile& f = t.tilesets(i);
    if (f.source().empty()) {
      return absl::InvalidArgumentError(
          absl::StrCat("tiled.tilesets[", i, "].source: empty"));
    }
    if (!options.tilesets.emplace(f.source(), f.data()).second) {
      return absl::InvalidArgumentError(absl::StrCat(
          "tiled.tilesets[", i, "].source: '", f.source(), "' is given twice"));
    }
  }
  for (const v1::TiledRule& r : t.rules()) {
    TiledRule rule;
    rule.gid = r.gid();
    rule.tileset = r.tileset();
    rule.tile = r.has_tile() ? r.tile() : -1;
    rule.class_name = r.class_name();
    if (r.has_cost()) rule.cost = r.cost();
    if (r.has_blocked()) rule.blocked = r.blocked();
    if (r.has_area()) rule.area = r.area();
    options.rules.push_back(std::move(rule));
  }
  options.layers.assign(t.layers().begin(), t.layers().end());
  // A negative tile selects nothing; said here, where `tile` is the field.
  for (int i = 0; i < t.rules_size(); ++i) {
    if (t.rules(i).has_tile() && t.rules(i).tile() < 0) {
      return absl::InvalidArgumentError(absl::StrCat(
          "tiled.rules[", i, "].tile: ", t.rules(i).tile(), " is negative"));
    }
  }
  if (absl::Status s = ValidateTiledOptions(options); !s.ok()) {
    return Prefixed("tiled.", s);
  }
  return options;
}

}  // namespace gridstar::convert
