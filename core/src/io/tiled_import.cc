// Tiled maps: what both readers share (properties, layer data, the builder
// that combines layers into cells) and the entry points of map_import.h.

#include <zlib.h>
#include <zstd.h>

#include <algorithm>
#include <cmath>
#include <cstring>
#include <tuple>
#include <utility>

#include "absl/status/status.h"
#include "absl/strings/ascii.h"
#include "absl/strings/escaping.h"
#include "absl/strings/match.h"
#include "absl/strings/numbers.h"
#include "absl/strings/str_cat.h"
#include "absl/strings/str_join.h"
#include "absl/strings/str_split.h"
#include "gridstar/agents.h"
#include "io/text_util.h"
#include "io/tiled_model.h"

namespace gridstar {
namespace internal {
namespace {

constexpr uint32_t kGidMask = 0x0fffffff;  // Without Tiled's flip bits.

// Inflates zlib or gzip data into exactly `size` bytes.
absl::StatusOr<std::string> Inflate(absl::string_view in, bool gzip,
                                    size_t size, absl::string_view where) {
  z_stream z;
  std::memset(&z, 0, sizeof(z));
  if (inflateInit2(&z, gzip ? 16 + MAX_WBITS : MAX_WBITS) != Z_OK) {
    return absl::InternalError("zlib: inflateInit2 failed");
  }
  std::string out(size + 1, '\0');  // One byte more shows too much data.
  z.next_in = reinterpret_cast<Bytef*>(const_cast<char*>(in.data()));
  z.avail_in = static_cast<uInt>(in.size());
  z.next_out = reinterpret_cast<Bytef*>(out.data());
  z.avail_out = static_cast<uInt>(out.size());
  const int rc = inflate(&z, Z_FINISH);
  const size_t produced = out.size() - z.avail_out;
  const std::string message = z.msg != nullptr ? z.msg : "";
  inflateEnd(&z);
  if (produced > size) {
    return Invalid(where, absl::StrCat("layer data: inflates to more than the "
                                       "layer's ",
                                       size / 4, " tiles"));
  }
  if (rc != Z_STREAM_END) {
    return Invalid(
        where, absl::StrCat("layer data: ", gzip ? "gzip" : "zlib", " stream ",
                            rc == Z_BUF_ERROR ? "truncated" : "corrupt",
                            message.empty() ? "" : ": ", message));
  }
  out.resize(produced);
  return out;
}

absl::StatusOr<std::string> Unzstd(absl::string_view in, size_t size,
                                   absl::string_view where) {
  ZSTD_DStream* stream = ZSTD_createDStream();
  if (stream == nullptr) return absl::InternalError("zstd: out of memory");
  ZSTD_initDStream(stream);
  std::string out(size + 1, '\0');
  ZSTD_inBuffer input{in.data(), in.size(), 0};
  ZSTD_outBuffer output{out.data(), out.size(), 0};
  size_t rc = 0;
  while (input.pos < input.size && output.pos < output.size) {
    rc = ZSTD_decompressStream(stream, &output, &input);
    if (ZSTD_isError(rc)) break;
  }
  ZSTD_freeDStream(stream);
  if (ZSTD_isError(rc)) {
    return Invalid(where, absl::StrCat("layer data: zstd stream corrupt: ",
                                       ZSTD_getErrorName(rc)));
  }
  if (output.pos > size) {
    return Invalid(where, absl::StrCat("layer data: inflates to more than the "
                                       "layer's ",
                                       size / 4, " tiles"));
  }
  if (rc != 0) return Invalid(where, "layer data: zstd stream truncated");
  out.resize(output.pos);
  return out;
}

bool ParseGid(absl::string_view s, uint32_t* gid) {
  int64_t v = 0;
  if (!ParseStrictInt(s, &v) || v < 0 || v > 0xffffffffLL) return false;
  *gid = static_cast<uint32_t>(v);
  return true;
}

}  // namespace

void TiledEffect::Overlay(const TiledEffect& over) {
  if (over.cost) cost = over.cost;
  if (over.blocked) blocked = over.blocked;
  if (over.area) area = over.area;
}

bool StartsWithChar(absl::string_view data, char c) {
  if (data.substr(0, 3) == "\xef\xbb\xbf") data.remove_prefix(3);
  data = absl::StripLeadingAsciiWhitespace(data);
  return !data.empty() && data[0] == c;
}

absl::Status ReadTiledProperty(absl::string_view name, absl::string_view type,
                               absl::string_view value, absl::string_view where,
                               TiledEffect* effect) {
  if (name != "cost" && name != "blocked" && name != "area") {
    return absl::OkStatus();
  }
  const std::string at = absl::StrCat(where, ": property ", name);
  value = absl::StripAsciiWhitespace(value);
  if (name == "blocked") {
    if (type != "bool" && type != "string" && !type.empty()) {
      return Invalid(at, absl::StrCat("has type ", type, "; expected bool"));
    }
    if (value == "true") {
      effect->blocked = true;
    } else if (value == "false") {
      effect->blocked = false;
    } else {
      return Invalid(
          at, absl::StrCat(Quote(value), " is not a bool (true or false)"));
    }
    return absl::OkStatus();
  }
  if (type != "int" && type != "float" && type != "string" && !type.empty()) {
    return Invalid(at, absl::StrCat("has type ", type, "; expected int"));
  }
  int64_t v = 0;
  double d = 0;
  if (!ParseStrictInt(value, &v)) {
    // A float property holding a whole number (Tiled writes 3 as "3").
    if (!absl::SimpleAtod(value, &d) || !std::isfinite(d) ||
        d != std::floor(d) || std::fabs(d) > 1e9) {
      return Invalid(at, absl::StrCat(Quote(value), " is not a whole number"));
    }
    v = static_cast<int64_t>(d);
  }
  if (name == "cost") {
    if (v < 1 || v > 255) {
      return Invalid(at, absl::StrCat(v,
                                      " is outside [1, 255] (block a tile "
                                      "with blocked = true)"));
    }
    effect->cost = static_cast<int>(v);
  } else {
    if (v < 0 || v >= kMaxAreas) {
      return Invalid(at,
                     absl::StrCat(v, " is outside [0, ", kMaxAreas - 1, "]"));
    }
    effect->area = static_cast<int>(v);
  }
  return absl::OkStatus();
}

absl::StatusOr<std::vector<uint32_t>> DecodeTiledLayerData(
    absl::string_view encoding, absl::string_view compression,
    absl::string_view text, size_t count, absl::string_view where) {
  std::vector<uint32_t> gids;
  if (encoding == "csv") {
    if (!compression.empty()) {
      return Invalid(where, absl::StrCat("compression ", Quote(compression),
                                         " with csv data"));
    }
    gids.reserve(count);
    for (absl::string_view token : absl::StrSplit(text, ',')) {
      token = absl::StripAsciiWhitespace(token);
      if (gids.size() == count) {
        if (token.empty()) continue;  // A trailing comma.
        return Invalid(where, absl::StrCat("layer data: more than the layer's ",
                                           count, " tiles"));
      }
      uint32_t gid = 0;
      if (!ParseGid(token, &gid)) {
        return Invalid(where,
                       absl::StrCat("layer data: tile ", gids.size(), ": ",
                                    Quote(token), " is not a tile id"));
      }
      gids.push_back(gid);
    }
  } else if (encoding == "base64") {
    std::string compact;
    compact.reserve(text.size());
    for (char c : text) {
      if (!absl::ascii_isspace(static_cast<unsigned char>(c))) {
        compact.push_back(c);
      }
    }
    std::string bytes;
    if (!absl::Base64Unescape(compact, &bytes)) {
      return Invalid(where, "layer data: not valid base64");
    }
    const size_t size = count * 4;
    if (compression == "zlib" || compression == "gzip") {
      absl::StatusOr<std::string> inflated =
          Inflate(bytes, compression == "gzip", size, where);
      if (!inflated.ok()) return inflated.status();
      bytes = *std::move(inflated);
    } else if (compression == "zstd") {
      absl::StatusOr<std::string> inflated = Unzstd(bytes, size, where);
      if (!inflated.ok()) return inflated.status();
      bytes = *std::move(inflated);
    } else if (!compression.empty()) {
      return Invalid(where, absl::StrCat("compression ", Quote(compression),
                                         ": expected zlib, gzip or zstd"));
    }
    if (bytes.size() != size) {
      return Invalid(where,
                     absl::StrCat("layer data: ", bytes.size() / 4, " tiles",
                                  bytes.size() % 4 ? " and a part" : "",
                                  ", expected ", count));
    }
    gids.resize(count);
    for (size_t i = 0; i < count; ++i) {
      const auto* p = reinterpret_cast<const uint8_t*>(&bytes[4 * i]);
      gids[i] = uint32_t{p[0]} | uint32_t{p[1]} << 8 | uint32_t{p[2]} << 16 |
                uint32_t{p[3]} << 24;
    }
  } else {
    return Invalid(where, absl::StrCat("encoding ", Quote(encoding),
                                       ": expected csv or base64"));
  }
  if (gids.size() != count) {
    return Invalid(where, absl::StrCat("layer data: ", gids.size(),
                                       " tiles, expected ", count));
  }
  return gids;
}

absl::StatusOr<TiledTileset> ReadExternalTileset(const TiledOptions& options,
                                                 absl::string_view source,
                                                 uint32_t first_gid,
                                                 absl::string_view where) {
  auto it = options.tilesets.find(source);
  if (it == options.tilesets.end()) {
    return Invalid(where, absl::StrCat("external tileset ", Quote(source),
                                       " was not given with the map (embed "
                                       "it in Tiled, or pass the file)"));
  }
  const std::string at = absl::StrCat(where, ": tileset ", Quote(source));
  if (StartsWithChar(it->second, '<')) {
    return ReadTsx(it->second, first_gid, at);
  }
  if (StartsWithChar(it->second, '{')) {
    return ReadTsj(it->second, first_gid, at);
  }
  return Invalid(at, "neither a .tsx (XML) nor a .tsj (JSON) tileset");
}

absl::Status TiledBuilder::Begin(int64_t width, int64_t height,
                                 double tile_width, double tile_height,
                                 absl::string_view orientation, bool infinite,
                                 absl::string_view where) {
  if (orientation != "orthogonal") {
    return Invalid(where, absl::StrCat("orientation ", Quote(orientation),
                                       ": only orthogonal maps are grids"));
  }
  if (infinite) {
    return Invalid(where,
                   "infinite maps are not read (turn Infinite off in Tiled's "
                   "map properties to give the map its size)");
  }
  if (!(tile_width > 0) || !(tile_height > 0) || !std::isfinite(tile_width) ||
      !std::isfinite(tile_height)) {
    return Invalid(where, "tilewidth, tileheight: must be positive");
  }
  if (absl::Status s = GridMap::CheckDimensions(width, height, limits_);
      !s.ok()) {
    return absl::Status(s.code(), absl::StrCat(where, ": ", s.message()));
  }
  width_ = width;
  height_ = height;
  tile_width_ = tile_width;
  tile_height_ = tile_height;
  const size_t n = static_cast<size_t>(width * height);
  work_left_ = std::max(64.0 * static_cast<double>(n), double{1 << 26});
  flags_.assign(n, 0);
  costs_.assign(n, 0);
  areas_.assign(n, 0xff);
  return absl::OkStatus();
}

absl::Status TiledBuilder::AddTileset(TiledTileset tileset) {
  if (tileset.first_gid == 0 || tileset.first_gid > kGidMask) {
    return Invalid(tileset.where,
                   absl::StrCat("firstgid ", tileset.first_gid,
                                " is outside [1, ", kGidMask, "]"));
  }
  const uint32_t first = tileset.first_gid;
  const std::string where = tileset.where;
  if (!tilesets_.emplace(first, std::move(tileset)).second) {
    return Invalid(
        where, absl::StrCat("firstgid ", first, " is another tileset's too"));
  }
  return absl::OkStatus();
}

bool TiledBuilder::UsesLayer(absl::string_view name, bool parent_used) {
  layer_names_.insert(std::string(name));
  if (options_.layers.empty() || parent_used) return true;
  return std::find(options_.layers.begin(), options_.layers.end(), name) !=
         options_.layers.end();
}

absl::StatusOr<TiledEffect> TiledBuilder::EffectOfGid(uint32_t gid) {
  gid &= kGidMask;
  if (auto it = gid_effects_.find(gid); it != gid_effects_.end()) {
    return it->second;
  }
  auto ts = tilesets_.upper_bound(gid);
  if (ts == tilesets_.begin()) {
    return absl::InvalidArgumentError(
        absl::StrCat("tile id ", gid, " belongs to no tileset"));
  }
  --ts;
  const TiledTileset& tileset = ts->second;
  const int64_t local = gid - tileset.first_gid;
  if (tileset.tile_count > 0 && local >= tileset.tile_count) {
    return absl::InvalidArgumentError(absl::StrCat(
        "tile id ", gid, " belongs to no tileset (", Quote(tileset.name),
        " has ", tileset.tile_count, " tiles from ", tileset.first_gid, ")"));
  }
  TiledEffect effect;
  std::string class_name;
  if (auto tile = tileset.tiles.find(local); tile != tileset.tiles.end()) {
    effect = tile->second.effect;
    class_name = tile->second.class_name;
  }
  const TiledRule* by_class = nullptr;
  const TiledRule* by_tile = nullptr;
  const TiledRule* by_gid = nullptr;
  for (const TiledRule& rule : options_.rules) {
    if (rule.gid != 0 && rule.gid == gid) by_gid = &rule;
    if (!rule.tileset.empty() && rule.tileset == tileset.name &&
        rule.tile == local) {
      by_tile = &rule;
    }
    if (!rule.class_name.empty() && rule.class_name == class_name) {
      by_class = &rule;
    }
  }
  for (const TiledRule* rule : {by_class, by_tile, by_gid}) {
    if (rule != nullptr) {
      effect.Overlay(TiledEffect{rule->cost, rule->blocked, rule->area});
    }
  }
  gid_effects_.emplace(gid, effect);
  return effect;
}

void TiledBuilder::Apply(size_t cell, const TiledEffect& effect) {
  flags_[cell] |= 1;
  if (effect.blocked) {
    flags_[cell] = static_cast<uint8_t>((flags_[cell] & 1) | 2 |
                                        (*effect.blocked ? 4 : 0));
  }
  if (effect.cost) costs_[cell] = static_cast<uint8_t>(*effect.cost);
  if (effect.area) areas_[cell] = static_cast<uint8_t>(*effect.area);
}

absl::Status TiledBuilder::Charge(double work, absl::string_view where) {
  work_left_ -= work;
  if (work_left_ >= 0) return absl::OkStatus();
  return Invalid(where,
                 "the map's layers and objects add up to more than 64 passes "
                 "over its cells (merge layers, or split objects)");
}

absl::Status TiledBuilder::AddTileLayer(absl::Span<const uint32_t> gids,
                                        absl::string_view where) {
  if (absl::Status s = Charge(static_cast<double>(gids.size()), where);
      !s.ok()) {
    return s;
  }
  uint32_t last_gid = 0;
  TiledEffect last;
  for (size_t i = 0; i < gids.size(); ++i) {
    const uint32_t gid = gids[i] & kGidMask;
    if (gid == 0) continue;
    if (gid != last_gid) {
      absl::StatusOr<TiledEffect> effect = EffectOfGid(gid);
      if (!effect.ok()) {
        return Invalid(where,
                       absl::StrCat("cell (", i % width_, ", ", i / width_,
                                    "): ", effect.status().message()));
      }
      last = *effect;
      last_gid = gid;
    }
    Apply(i, last);
  }
  return absl::OkStatus();
}

absl::StatusOr<MapWithAreas> TiledBuilder::Finish() {
  for (const std::string& name : options_.layers) {
    if (!layer_names_.contains(name)) {
      std::vector<std::string> names(layer_names_.begin(), layer_names_.end());
      std::sort(names.begin(), names.end());
      return absl::InvalidArgumentError(
          absl::StrCat("layers: the map has no layer named ", Quote(name),
                       " (it has ", absl::StrJoin(names, ", "), ")"));
    }
  }
  for (size_t i = 0; i < options_.rules.size(); ++i) {
    const TiledRule& rule = options_.rules[i];
    if (rule.tileset.empty()) continue;
    bool found = false;
    for (const auto& [first, tileset] : tilesets_) {
      found = found || tileset.name == rule.tileset;
    }
    if (!found) {
      return absl::InvalidArgumentError(
          absl::StrCat("rules[", i, "].tileset: the map has no tileset named ",
                       Quote(rule.tileset)));
    }
  }
  const size_t n = flags_.size();
  std::vector<uint8_t> costs(n);
  std::vector<uint8_t> areas(n);
  bool any_area = false;
  for (size_t i = 0; i < n; ++i) {
    const bool present = flags_[i] & 1;
    const bool blocked = (flags_[i] & 6) == 6;
    costs[i] = !present || blocked ? 0 : costs_[i] == 0 ? 1 : costs_[i];
    areas[i] = areas_[i] == 0xff ? 0 : areas_[i];
    any_area = any_area || areas[i] != 0;
  }
  if (!any_area) areas.clear();
  absl::StatusOr<GridMap> map =
      GridMap::FromCosts(width_, height_, costs, limits_);
  if (!map.ok()) return map.status();
  return MapWithAreas{*std::move(map), std::move(areas), kAllAreas};
}

}  // namespace internal

absl::Status ValidateTiledOptions(const TiledOptions& options) {
  std::map<std::tuple<uint32_t, std::string, int64_t, std::string>, size_t>
      seen;
  for (size_t i = 0; i < options.rules.size(); ++i) {
    const TiledRule& r = options.rules[i];
    const std::string at = absl::StrCat("rules[", i, "]");
    const int ways = (r.gid != 0) + (!r.tileset.empty() || r.tile >= 0) +
                     !r.class_name.empty();
    if (ways != 1) {
      return absl::InvalidArgumentError(absl::StrCat(
          at, ": select by exactly one of gid, tileset and tile, or class (",
          ways == 0 ? "none" : "more than one", " given)"));
    }
    if (r.gid > internal::kGidMask) {
      return absl::InvalidArgumentError(absl::StrCat(
          at, ".gid: ", r.gid, " is outside [1, ", internal::kGidMask, "]"));
    }
    if (r.tileset.empty() != (r.tile < 0)) {
      return absl::InvalidArgumentError(absl::StrCat(
          at, r.tileset.empty() ? ".tileset: required with tile"
                                : ".tile: required (0 or more) with tileset"));
    }
    if (!r.cost && !r.blocked && !r.area) {
      return absl::InvalidArgumentError(
          absl::StrCat(at, ": sets none of cost, blocked and area"));
    }
    if (r.cost && (*r.cost < 1 || *r.cost > 255)) {
      return absl::InvalidArgumentError(absl::StrCat(
          at, ".cost: ", *r.cost, " is outside [1, 255] (use blocked)"));
    }
    if (r.area && (*r.area < 0 || *r.area >= kMaxAreas)) {
      return absl::InvalidArgumentError(absl::StrCat(
          at, ".area: ", *r.area, " is outside [0, ", kMaxAreas - 1, "]"));
    }
    auto [it, added] =
        seen.emplace(std::tuple(r.gid, r.tileset, r.tile, r.class_name), i);
    if (!added) {
      return absl::InvalidArgumentError(
          absl::StrCat(at, ": selects what rules[", it->second, "] selects"));
    }
  }
  for (size_t i = 0; i < options.layers.size(); ++i) {
    if (options.layers[i].empty()) {
      return absl::InvalidArgumentError(
          absl::StrCat("layers[", i, "]: empty name"));
    }
  }
  return absl::OkStatus();
}

absl::StatusOr<MapWithAreas> ParseTiledMap(absl::string_view data,
                                           const TiledOptions& options,
                                           const MapLimits& limits) {
  if (absl::Status s = ValidateTiledOptions(options); !s.ok()) return s;
  internal::TiledBuilder builder(options, limits);
  absl::Status read;
  if (internal::StartsWithChar(data, '<')) {
    read = internal::ReadTmx(data, options, &builder);
  } else if (internal::StartsWithChar(data, '{')) {
    read = internal::ReadTiledJson(data, options, &builder);
  } else {
    return absl::InvalidArgumentError(
        "tiled: neither a .tmx (XML) nor a .tmj (JSON) map");
  }
  if (!read.ok()) return read;
  return builder.Finish();
}

absl::StatusOr<std::map<std::string, std::string, std::less<>>>
ReadTiledTilesetsBeside(const std::string& map_path, absl::string_view data) {
  absl::StatusOr<std::vector<std::string>> sources = TiledTilesetSources(data);
  if (!sources.ok()) return sources.status();
  const size_t slash = map_path.rfind('/');
  const std::string folder =
      slash == std::string::npos ? "" : map_path.substr(0, slash + 1);
  std::map<std::string, std::string, std::less<>> tilesets;
  for (const std::string& source : *sources) {
    absl::StatusOr<std::string> tileset = ReadFile(folder + source);
    if (!tileset.ok()) {
      return absl::Status(tileset.status().code(),
                          absl::StrCat("a tileset that ", map_path,
                                       " names: ", tileset.status().message()));
    }
    tilesets[source] = *std::move(tileset);
  }
  return tilesets;
}

absl::StatusOr<MapWithAreas> ReadMapFileOfAnyFormat(const std::string& path,
                                                    const MapLimits& limits) {
  absl::StatusOr<std::string> data = ReadFile(path);
  if (!data.ok()) return data.status();
  const std::string name = absl::AsciiStrToLower(path);
  if (absl::EndsWith(name, ".png")) {
    return ParsePngMap(*data, ImageMapping{}, limits);
  }
  if (absl::EndsWith(name, ".tmx") || absl::EndsWith(name, ".tmj") ||
      absl::EndsWith(name, ".json")) {
    TiledOptions options;
    absl::StatusOr<std::map<std::string, std::string, std::less<>>> tilesets =
        ReadTiledTilesetsBeside(path, *data);
    if (!tilesets.ok()) return tilesets.status();
    options.tilesets = *std::move(tilesets);
    return ParseTiledMap(*data, options, limits);
  }
  return ParseMapAutoWithAreas(*data, limits);
}

absl::StatusOr<std::vector<std::string>> TiledTilesetSources(
    absl::string_view data) {
  if (internal::StartsWithChar(data, '<')) {
    return internal::TmxTilesetSources(data);
  }
  if (internal::StartsWithChar(data, '{')) {
    return internal::TiledJsonTilesetSources(data);
  }
  return absl::InvalidArgumentError(
      "tiled: neither a .tmx (XML) nor a .tmj (JSON) map");
}

}  // namespace gridstar
