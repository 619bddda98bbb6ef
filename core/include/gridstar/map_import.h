// Maps as studios make them: images (PNG, and PGM read through a mapping)
// and Tiled maps (.tmx XML, .tmj/.json JSON). Each reader turns its input
// into a terrain and its areas (MapWithAreas, map_io.h).
//
// Images: one pixel a cell, read through an ImageMapping (a threshold, an
// invert, or a palette from colour to cost and area).
//
// Tiled: orthogonal, finite maps; one tile a cell. What a tile does comes
// from its tileset's tile properties `cost` (int 1-255), `blocked` (bool) and
// `area` (int 0-63), or from TiledRules given with the map, which win over
// the properties. Layers combine bottom to top (document order, group
// members in place, hidden layers included — collision layers are often
// hidden): a cell starts empty; each tile layer's non-empty tile marks the
// cell present and sets the fields its tile names, overriding the layers
// below; then each object layer's rectangles, ellipses and polygons set the
// fields they name (their own properties, or rules by class) on every cell
// whose centre lies inside them. A cell ends blocked when no layer has a tile
// there (unless an object opened it) or when `blocked` is true; otherwise its
// cost is `cost` (default 1) and its area `area` (default 0).
//
// Every reader validates its whole input and returns InvalidArgument whose
// message names the element, line, layer, tile or pixel at fault; sizes read
// from input are checked against MapLimits before anything is allocated
// (ResourceExhausted beyond, as GridMap::CheckDimensions), compressed layer
// data is never inflated past the size its layer declares, and a Tiled map
// whose layers and objects add up to more than 64 passes over its cells
// (at least 2^26 cell visits) is InvalidArgument rather than minutes of
// work. Functions are pure and thread-safe.

#ifndef GRIDSTAR_MAP_IMPORT_H_
#define GRIDSTAR_MAP_IMPORT_H_

#include <cstdint>
#include <map>
#include <optional>
#include <string>
#include <vector>

#include "absl/status/statusor.h"
#include "absl/strings/string_view.h"
#include "gridstar/grid_map.h"
#include "gridstar/map_io.h"

namespace gridstar {

// How image pixels become cells. A pixel's level is its gray value, or for
// colour its luma (0.299 R + 0.587 G + 0.114 B, rounded), scaled to 0-255
// (a PGM's maxval, 16-bit and low-bit PNGs); transparent parts of a PNG are
// seen on white.
struct ImageMapping {
  enum class Mode {
    // cost = the level, 0 blocked (invert: 255 - level). For an 8-bit PGM
    // the pixel value itself, unscaled, as ParsePgm reads it (invert:
    // maxval - value).
    kValue,
    // A level at or above `threshold` is floor of cost `floor_cost`, below
    // is wall (invert: dark floor, light walls).
    kThreshold,
    // Each colour (8-bit RGB) is looked up in `palette`; a colour not in it
    // is InvalidArgument naming the pixel and the colour.
    kPalette,
  };
  struct Colour {
    uint32_t rgb = 0;  // 0xRRGGBB.
    uint8_t cost = 0;  // 0 = blocked.
    uint8_t area = 0;  // Below kMaxAreas.
  };
  Mode mode = Mode::kThreshold;
  int threshold = 128;  // 1 to 255.
  bool invert = false;
  int floor_cost = 1;  // 1 to 255.
  std::vector<Colour> palette;
};

// InvalidArgument naming the field ("threshold", "floor_cost",
// "palette[i].cost", a colour listed twice, ...) of a mapping no image can
// be read through.
absl::Status ValidateImageMapping(const ImageMapping& mapping);

// A PNG (any bit depth and colour type libpng reads) through `mapping`.
absl::StatusOr<MapWithAreas> ParsePngMap(absl::string_view png,
                                         const ImageMapping& mapping,
                                         const MapLimits& limits = {});

// A PGM (P5 or P2, maxval up to 65535) through `mapping`; ParsePgm is the
// unmapped reading (maxval up to 255).
absl::StatusOr<MapWithAreas> ParsePgmMap(absl::string_view pgm,
                                         const ImageMapping& mapping,
                                         const MapLimits& limits = {});

// What a Tiled tile or object does, set at registration. Exactly one way to
// select: `gid` (a global tile id, flip bits ignored), `tileset` + `tile`
// (the tileset's name and the tile's local id), or `class_name` (the Tiled
// class, `type` before 1.9, of tiles and objects). A rule by id wins over
// one by class, which wins over the tile's own properties.
struct TiledRule {
  uint32_t gid = 0;
  std::string tileset;
  int64_t tile = -1;
  std::string class_name;
  std::optional<int> cost;  // 1 to 255.
  std::optional<bool> blocked;
  std::optional<int> area;  // 0 to kMaxAreas - 1.
};

struct TiledOptions {
  // External tilesets (.tsx XML or .tsj/.json JSON) by their `source` as the
  // map writes it.
  std::map<std::string, std::string, std::less<>> tilesets;
  std::vector<TiledRule> rules;
  // The tile and object layers to use, by name; empty = all of them. A name
  // no layer has is InvalidArgument.
  std::vector<std::string> layers;
};

// InvalidArgument naming `rules[i]` for a rule that selects nothing or two
// ways, sets nothing, a value out of range, or repeats another's selection.
absl::Status ValidateTiledOptions(const TiledOptions& options);

// A Tiled map, XML (`<map`) or JSON (`{`) by content. Layer data as CSV,
// XML <tile> elements or base64 (uncompressed, zlib, gzip or zstd).
absl::StatusOr<MapWithAreas> ParseTiledMap(absl::string_view data,
                                           const TiledOptions& options = {},
                                           const MapLimits& limits = {});

// The `source` of every external tileset the map names, in order, so that a
// caller can fetch them (the CLI reads them beside the map). InvalidArgument
// when `data` is not a Tiled map.
absl::StatusOr<std::vector<std::string>> TiledTilesetSources(
    absl::string_view data);

// Every external tileset the Tiled map `data` (read from `map_path`) names,
// read from the map's folder, keyed by its source (TiledOptions::tilesets).
// The readers' errors; a tileset that cannot be read keeps ReadFile's code,
// its message naming the map and (ReadFile's) the tileset's file.
absl::StatusOr<std::map<std::string, std::string, std::less<>>>
ReadTiledTilesetsBeside(const std::string& map_path, absl::string_view data);

// Reads a map file of any format by its extension: .png (the default
// mapping), .tmx/.tmj/.json (Tiled; the external tilesets it names read from
// beside it), else ParseMapAutoWithAreas (Moving AI text, PGM). NotFound
// when a file cannot be opened; the readers' errors otherwise.
absl::StatusOr<MapWithAreas> ReadMapFileOfAnyFormat(
    const std::string& path, const MapLimits& limits = {});

}  // namespace gridstar

#endif  // GRIDSTAR_MAP_IMPORT_H_
