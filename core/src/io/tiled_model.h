// Internal: what the Tiled readers (tiled_tmx.cc for XML, tiled_json.cc for
// JSON) hand over, and the builder that turns it into cells by the rules of
// map_import.h. A reader walks its document once: the map's header, every
// tileset, then the layers in document order, each tile layer's data decoded
// and applied before the next is read (so a map of many layers never holds
// more than one layer's tiles).
//
// Thread-safety: a TiledBuilder is used by one thread.

#ifndef GRIDSTAR_SRC_IO_TILED_MODEL_H_
#define GRIDSTAR_SRC_IO_TILED_MODEL_H_

#include <cstdint>
#include <map>
#include <optional>
#include <string>
#include <utility>
#include <vector>

#include "absl/container/flat_hash_map.h"
#include "absl/container/flat_hash_set.h"
#include "absl/status/status.h"
#include "absl/status/statusor.h"
#include "absl/strings/str_cat.h"
#include "absl/strings/string_view.h"
#include "absl/types/span.h"
#include "gridstar/map_import.h"

namespace gridstar::internal {

// What a tile, object or rule says of a cell; unset fields leave it as the
// layers below made it.
struct TiledEffect {
  std::optional<int> cost;
  std::optional<bool> blocked;
  std::optional<int> area;
  bool any() const { return cost || blocked || area; }
  // The fields `over` sets replace this one's.
  void Overlay(const TiledEffect& over);
};

// InvalidArgument "<where>: <what>", the readers' error.
inline absl::Status Invalid(absl::string_view where, absl::string_view what) {
  return absl::InvalidArgumentError(absl::StrCat(where, ": ", what));
}

// Reads one of the three properties (other names are ignored) from its Tiled
// type and value as text ("int" 3, "bool" true; a string property holding
// the same text is read too). InvalidArgument naming `where` and the
// property for a value out of range or of another type.
absl::Status ReadTiledProperty(absl::string_view name, absl::string_view type,
                               absl::string_view value, absl::string_view where,
                               TiledEffect* effect);

struct TiledTileset {
  uint32_t first_gid = 0;
  std::string name;
  std::string where;       // "line 4" or "tilesets[0]", for messages.
  int64_t tile_count = 0;  // 0 = not said; else local ids below it.
  struct Tile {
    TiledEffect effect;
    std::string class_name;
  };
  absl::flat_hash_map<int64_t, Tile> tiles;  // By local id.
};

struct TiledObject {
  enum class Shape { kRectangle, kEllipse, kPolygon, kTile, kNoArea };
  Shape shape = Shape::kRectangle;
  std::string where;         // "object 7 'lake' (line 30)".
  std::string no_area_kind;  // For kNoArea: "point", "polyline", "text".
  double x = 0, y = 0, width = 0, height = 0, rotation_degrees = 0;
  std::vector<std::pair<double, double>> points;  // kPolygon, relative.
  uint32_t gid = 0;  // kTile: the tile (flip bits kept).
  TiledEffect effect;
  std::string class_name;
};

// Layer data as the formats store it: `encoding` "csv" or "base64" (XML's
// child <tile> elements and JSON's arrays are read by their readers),
// `compression` "", "zlib", "gzip" or "zstd". Exactly `count` global ids.
absl::StatusOr<std::vector<uint32_t>> DecodeTiledLayerData(
    absl::string_view encoding, absl::string_view compression,
    absl::string_view text, size_t count, absl::string_view where);

class TiledBuilder {
 public:
  TiledBuilder(const TiledOptions& options, const MapLimits& limits)
      : options_(options), limits_(limits) {}

  // The map element's header. InvalidArgument for a map gridstar cannot
  // read (not orthogonal, infinite, tile sizes not positive), naming
  // `where`; the size as GridMap::CheckDimensions.
  absl::Status Begin(int64_t width, int64_t height, double tile_width,
                     double tile_height, absl::string_view orientation,
                     bool infinite, absl::string_view where);
  int64_t width() const { return width_; }
  int64_t height() const { return height_; }

  // Every tileset, before the first layer. InvalidArgument for a first gid
  // used twice.
  absl::Status AddTileset(TiledTileset tileset);

  // Whether a layer (tile, object or group) named `name` inside a group that
  // is used (`parent_used`) is used, by TiledOptions::layers.
  bool UsesLayer(absl::string_view name, bool parent_used);

  // A tile layer's global ids, row-major, width() * height() of them.
  absl::Status AddTileLayer(absl::Span<const uint32_t> gids,
                            absl::string_view where);
  absl::Status AddObject(const TiledObject& object);

  // The cells. InvalidArgument when TiledOptions::layers names a layer the
  // map does not have, or a rule names a tileset it does not have.
  absl::StatusOr<MapWithAreas> Finish();

 private:
  absl::StatusOr<TiledEffect> EffectOfGid(uint32_t gid);
  void Apply(size_t cell, const TiledEffect& effect);

  // Charges `work` cell visits against the budget of 64 passes over the
  // map (at least 2^26 visits): many full layers, or objects and polygons
  // covering the map many times over, are refused instead of keeping a
  // server thread for minutes. InvalidArgument naming `where`.
  absl::Status Charge(double work, absl::string_view where);

  const TiledOptions& options_;
  const MapLimits limits_;
  double work_left_ = 0;
  int64_t width_ = 0, height_ = 0;
  double tile_width_ = 1, tile_height_ = 1;
  std::map<uint32_t, TiledTileset> tilesets_;  // By first gid.
  absl::flat_hash_map<uint32_t, TiledEffect> gid_effects_;
  absl::flat_hash_set<std::string> layer_names_;
  // Per cell: bit 0 a tile or object put it in the map, bit 1 blocked known,
  // bit 2 blocked; cost 0 and area 0xff = unset.
  std::vector<uint8_t> flags_, costs_, areas_;
};

// The readers of each format. Read* walk the whole map into `builder`;
// *TilesetSources list its external tilesets' sources; Read*Tileset read a
// tileset document (.tsx, .tsj) or element.
absl::Status ReadTmx(absl::string_view data, const TiledOptions& options,
                     TiledBuilder* builder);
absl::StatusOr<std::vector<std::string>> TmxTilesetSources(
    absl::string_view data);
absl::StatusOr<TiledTileset> ReadTsx(absl::string_view data, uint32_t first_gid,
                                     absl::string_view where);
absl::Status ReadTiledJson(absl::string_view data, const TiledOptions& options,
                           TiledBuilder* builder);
absl::StatusOr<std::vector<std::string>> TiledJsonTilesetSources(
    absl::string_view data);
absl::StatusOr<TiledTileset> ReadTsj(absl::string_view data, uint32_t first_gid,
                                     absl::string_view where);

// An external tileset from TiledOptions::tilesets by its source, XML or JSON
// by content. InvalidArgument naming `where` and the source when it was not
// given.
absl::StatusOr<TiledTileset> ReadExternalTileset(const TiledOptions& options,
                                                 absl::string_view source,
                                                 uint32_t first_gid,
                                                 absl::string_view where);

// Whether `data` starts (after blanks and a byte order mark) with `c`.
bool StartsWithChar(absl::string_view data, char c);

}  // namespace gridstar::internal

#endif  // GRIDSTAR_SRC_IO_TILED_MODEL_H_
