// Tiled maps (map_import.h). Random maps written as .tmx in every layer
// encoding, re-saved by Tiled itself (`tiled --export-map` as JSON and as
// TMX, headless), read cell by cell against a reference that applies the
// documented rules directly; then each rule, shape and malformed input in
// its own test.

#include <zlib.h>
#include <zstd.h>

#include <cstdint>
#include <fstream>
#include <map>
#include <optional>
#include <random>
#include <sstream>
#include <string>
#include <vector>

#include "absl/strings/escaping.h"
#include "absl/strings/str_cat.h"
#include "absl/strings/str_join.h"
#include "gridstar/map_import.h"
#include "gtest/gtest.h"
#include "testing/commands.h"
#include "testing/status_matchers.h"

namespace gridstar {
namespace {

using testing::RunAndCapture;
using testing::StatusIs;

constexpr uint32_t kFlipBits = 0xf0000000;
constexpr int kTileSize = 16;
constexpr int kTilesPerSet = 16;  // A 64 x 64 image of 16 x 16 tiles.

std::string ReadAll(const std::string& path) {
  std::ifstream in(path, std::ios::binary);
  std::stringstream s;
  s << in.rdbuf();
  return s.str();
}

std::string Dir() {
  static const std::string dir = [] {
    std::string d =
        absl::StrCat(::testing::TempDir(), "/tiled_import_", getpid());
    int code = 0;
    RunAndCapture(absl::StrCat("mkdir -p ", d), &code);
    return d;
  }();
  return dir;
}

struct Effect {
  std::optional<int> cost;
  std::optional<bool> blocked;
  std::optional<int> area;
  void Overlay(const Effect& o) {
    if (o.cost) cost = o.cost;
    if (o.blocked) blocked = o.blocked;
    if (o.area) area = o.area;
  }
};

std::string PropertiesXml(const Effect& e) {
  std::string out;
  if (e.cost) {
    absl::StrAppend(&out, "<property name=\"cost\" type=\"int\" value=\"",
                    *e.cost, "\"/>");
  }
  if (e.blocked) {
    absl::StrAppend(&out, "<property name=\"blocked\" type=\"bool\" value=\"",
                    *e.blocked ? "true" : "false", "\"/>");
  }
  if (e.area) {
    absl::StrAppend(&out, "<property name=\"area\" type=\"int\" value=\"",
                    *e.area, "\"/>");
  }
  return out.empty() ? "" : absl::StrCat("<properties>", out, "</properties>");
}

struct Tileset {
  uint32_t first_gid = 1;
  std::string name;
  bool external = false;
  std::map<int, Effect> effects;
  std::map<int, std::string> classes;
};

struct Rect {  // Tile-aligned, in cells.
  int x, y, w, h;
  Effect effect;
  std::string class_name;
};

// A Tiled map described directly; Reference() applies map_import.h's rules.
struct Description {
  int width = 1, height = 1;
  std::vector<Tileset> tilesets;
  std::vector<std::vector<uint32_t>> layers;
  std::vector<Rect> rects;
  std::vector<TiledRule> rules;

  Effect TileEffect(uint32_t gid) const {
    gid &= ~kFlipBits;
    const Tileset* ts = nullptr;
    for (const Tileset& t : tilesets) {
      if (t.first_gid <= gid) ts = &t;
    }
    const int local = static_cast<int>(gid - ts->first_gid);
    Effect e;
    if (auto it = ts->effects.find(local); it != ts->effects.end()) {
      e = it->second;
    }
    const std::string cls =
        ts->classes.count(local) ? ts->classes.at(local) : "";
    Effect by_class, by_tile, by_gid;
    for (const TiledRule& r : rules) {
      const Effect re{r.cost, r.blocked, r.area};
      if (!r.class_name.empty() && r.class_name == cls) by_class = re;
      if (r.tileset == ts->name && r.tile == local) by_tile = re;
      if (r.gid == gid) by_gid = re;
    }
    e.Overlay(by_class);
    e.Overlay(by_tile);
    e.Overlay(by_gid);
    return e;
  }

  std::pair<std::vector<uint8_t>, std::vector<uint8_t>> Reference() const {
    std::vector<uint8_t> costs, areas;
    for (int y = 0; y < height; ++y) {
      for (int x = 0; x < width; ++x) {
        const size_t i = static_cast<size_t>(y * width + x);
        bool present = false;
        Effect cell;
        for (const auto& layer : layers) {
          if ((layer[i] & ~kFlipBits) == 0) continue;
          present = true;
          cell.Overlay(TileEffect(layer[i]));
        }
        for (const Rect& r : rects) {
          if (x < r.x || x >= r.x + r.w || y < r.y || y >= r.y + r.h) continue;
          Effect e = r.effect;
          for (const TiledRule& rule : rules) {
            if (!rule.class_name.empty() && rule.class_name == r.class_name) {
              e.Overlay(Effect{rule.cost, rule.blocked, rule.area});
            }
          }
          if (!e.cost && !e.blocked && !e.area) continue;
          present = true;
          cell.Overlay(e);
        }
        const bool blocked = !present || cell.blocked.value_or(false);
        costs.push_back(blocked ? 0
                                : static_cast<uint8_t>(cell.cost.value_or(1)));
        areas.push_back(static_cast<uint8_t>(cell.area.value_or(0)));
      }
    }
    return {costs, areas};
  }

  std::string TilesetXml(const Tileset& t, bool document) const {
    std::string tiles;
    for (int id = 0; id < kTilesPerSet; ++id) {
      const bool has_effect = t.effects.count(id) != 0;
      const bool has_class = t.classes.count(id) != 0;
      if (!has_effect && !has_class) continue;
      absl::StrAppend(
          &tiles, "  <tile id=\"", id, "\"",
          has_class ? absl::StrCat(" type=\"", t.classes.at(id), "\"") : "",
          ">", has_effect ? PropertiesXml(t.effects.at(id)) : "", "</tile>\n");
    }
    return absl::StrCat(
        document ? "<?xml version=\"1.0\" encoding=\"UTF-8\"?>\n" : "",
        "<tileset ",
        document ? "" : absl::StrCat("firstgid=\"", t.first_gid, "\" "),
        "name=\"", t.name, "\" tilewidth=\"16\" tileheight=\"16\" tilecount=\"",
        kTilesPerSet,
        "\" columns=\"4\">\n <image source=\"tiles.png\" "
        "width=\"64\" height=\"64\"/>\n",
        tiles, "</tileset>\n");
  }

  // The map as .tmx with its layer data in `encoding` (csv, xml, base64,
  // zlib, gzip, zstd); external tilesets are written to `dir`.
  std::string Tmx(const std::string& encoding, const std::string& dir) const {
    std::string out = absl::StrCat(
        "<?xml version=\"1.0\" encoding=\"UTF-8\"?>\n<map version=\"1.8\" "
        "orientation=\"orthogonal\" renderorder=\"right-down\" width=\"",
        width, "\" height=\"", height,
        "\" tilewidth=\"16\" tileheight=\"16\" "
        "infinite=\"0\" nextlayerid=\"",
        layers.size() + 2, "\" nextobjectid=\"", rects.size() + 1, "\">\n");
    for (size_t i = 0; i < tilesets.size(); ++i) {
      const Tileset& t = tilesets[i];
      if (t.external) {
        const std::string name = absl::StrCat("ts", i, ".tsx");
        std::ofstream(absl::StrCat(dir, "/", name)) << TilesetXml(t, true);
        absl::StrAppend(&out, " <tileset firstgid=\"", t.first_gid,
                        "\" source=\"", name, "\"/>\n");
      } else {
        absl::StrAppend(&out, TilesetXml(t, false));
      }
    }
    for (size_t l = 0; l < layers.size(); ++l) {
      absl::StrAppend(&out, " <layer id=\"", l + 1, "\" name=\"layer", l,
                      "\" width=\"", width, "\" height=\"", height, "\">\n");
      absl::StrAppend(&out, LayerData(layers[l], encoding), " </layer>\n");
    }
    if (!rects.empty()) {
      absl::StrAppend(&out, " <objectgroup id=\"", layers.size() + 1,
                      "\" name=\"objects\">\n");
      for (size_t r = 0; r < rects.size(); ++r) {
        const Rect& rect = rects[r];
        absl::StrAppend(&out, "  <object id=\"", r + 1, "\"",
                        rect.class_name.empty()
                            ? ""
                            : absl::StrCat(" type=\"", rect.class_name, "\""),
                        " x=\"", rect.x * kTileSize, "\" y=\"",
                        rect.y * kTileSize, "\" width=\"", rect.w * kTileSize,
                        "\" height=\"", rect.h * kTileSize, "\">",
                        PropertiesXml(rect.effect), "</object>\n");
      }
      absl::StrAppend(&out, " </objectgroup>\n");
    }
    absl::StrAppend(&out, "</map>\n");
    return out;
  }

  static std::string LayerData(const std::vector<uint32_t>& gids,
                               const std::string& encoding) {
    if (encoding == "csv") {
      return absl::StrCat("  <data encoding=\"csv\">\n",
                          absl::StrJoin(gids, ","), "\n</data>\n");
    }
    if (encoding == "xml") {
      std::string out = "  <data>\n";
      for (uint32_t g : gids) {
        absl::StrAppend(&out,
                        g == 0 ? "   <tile/>\n"
                               : absl::StrCat("   <tile gid=\"", g, "\"/>\n"));
      }
      return absl::StrCat(out, "  </data>\n");
    }
    std::string bytes;
    for (uint32_t g : gids) {
      for (int b = 0; b < 4; ++b)
        bytes.push_back(static_cast<char>(g >> (8 * b)));
    }
    std::string compression;
    if (encoding == "zlib" || encoding == "gzip") {
      compression = encoding;
      z_stream z{};
      deflateInit2(&z, 9, Z_DEFLATED, encoding == "gzip" ? 16 + 15 : 15, 8,
                   Z_DEFAULT_STRATEGY);
      std::string out(deflateBound(&z, bytes.size()) + 32, '\0');
      z.next_in = reinterpret_cast<Bytef*>(bytes.data());
      z.avail_in = static_cast<uInt>(bytes.size());
      z.next_out = reinterpret_cast<Bytef*>(out.data());
      z.avail_out = static_cast<uInt>(out.size());
      EXPECT_EQ(deflate(&z, Z_FINISH), Z_STREAM_END);
      out.resize(out.size() - z.avail_out);
      deflateEnd(&z);
      bytes = out;
    } else if (encoding == "zstd") {
      compression = encoding;
      std::string out(ZSTD_compressBound(bytes.size()), '\0');
      out.resize(
          ZSTD_compress(out.data(), out.size(), bytes.data(), bytes.size(), 3));
      bytes = out;
    }
    return absl::StrCat("  <data encoding=\"base64\"",
                        compression.empty() ? ""
                                            : absl::StrCat(" compression=\"",
                                                           compression, "\""),
                        ">\n   ", absl::Base64Escape(bytes), "\n  </data>\n");
  }

  TiledOptions Options(const std::string& dir) const {
    TiledOptions options;
    options.rules = rules;
    for (size_t i = 0; i < tilesets.size(); ++i) {
      if (!tilesets[i].external) continue;
      const std::string name = absl::StrCat("ts", i, ".tsx");
      options.tilesets[name] = ReadAll(absl::StrCat(dir, "/", name));
    }
    return options;
  }
};

Effect RandomEffect(std::mt19937& rng) {
  Effect e;
  if (rng() % 3 == 0) e.cost = 1 + static_cast<int>(rng() % 255);
  if (rng() % 4 == 0) e.blocked = rng() % 2 == 0;
  if (rng() % 4 == 0) e.area = static_cast<int>(rng() % 64);
  return e;
}

Description RandomDescription(std::mt19937& rng) {
  Description d;
  d.width = 1 + static_cast<int>(rng() % 24);
  d.height = 1 + static_cast<int>(rng() % 24);
  const int sets = 1 + static_cast<int>(rng() % 3);
  uint32_t first = 1;
  for (int s = 0; s < sets; ++s) {
    Tileset t;
    t.first_gid = first;
    first += kTilesPerSet;
    t.name = absl::StrCat("set", s);
    t.external = rng() % 3 == 0;
    for (int id = 0; id < kTilesPerSet; ++id) {
      if (rng() % 2 == 0) t.effects[id] = RandomEffect(rng);
      if (rng() % 5 == 0) t.classes[id] = absl::StrCat("class", rng() % 3);
    }
    d.tilesets.push_back(t);
  }
  const int layers = 1 + static_cast<int>(rng() % 3);
  for (int l = 0; l < layers; ++l) {
    std::vector<uint32_t> gids(static_cast<size_t>(d.width * d.height));
    for (uint32_t& g : gids) {
      g = rng() % 4 == 0 ? 0 : 1 + rng() % (first - 1);
      if (g != 0 && rng() % 8 == 0) g |= (rng() % 16) << 28;  // Flips.
    }
    d.layers.push_back(gids);
  }
  const int rects = static_cast<int>(rng() % 3);
  for (int r = 0; r < rects; ++r) {
    Rect rect;
    rect.x = static_cast<int>(rng() % d.width);
    rect.y = static_cast<int>(rng() % d.height);
    rect.w = 1 + static_cast<int>(rng() % (d.width - rect.x));
    rect.h = 1 + static_cast<int>(rng() % (d.height - rect.y));
    rect.effect = RandomEffect(rng);
    if (rng() % 3 == 0) rect.class_name = absl::StrCat("class", rng() % 3);
    d.rects.push_back(rect);
  }
  if (rng() % 2 == 0) {
    TiledRule by_class;
    by_class.class_name = absl::StrCat("class", rng() % 3);
    by_class.area = static_cast<int>(rng() % 64);
    d.rules.push_back(by_class);
    TiledRule by_gid;
    by_gid.gid = 1 + rng() % (first - 1);
    by_gid.blocked = rng() % 2 == 0;
    d.rules.push_back(by_gid);
    TiledRule by_tile;
    by_tile.tileset = d.tilesets.back().name;
    by_tile.tile = static_cast<int>(rng() % kTilesPerSet);
    by_tile.cost = 1 + static_cast<int>(rng() % 255);
    d.rules.push_back(by_tile);
  }
  return d;
}

void ExpectCells(const absl::StatusOr<MapWithAreas>& m, const Description& d) {
  ASSERT_OK(m);
  ASSERT_EQ(m->map.width(), d.width);
  ASSERT_EQ(m->map.height(), d.height);
  const auto [costs, areas] = d.Reference();
  const std::vector<uint8_t> got = m->map.CopyCosts();
  for (size_t i = 0; i < costs.size(); ++i) {
    ASSERT_EQ(got[i], costs[i])
        << "cost of cell (" << i % d.width << ", " << i / d.width << ")";
    ASSERT_EQ(m->areas.empty() ? 0 : m->areas[i], areas[i])
        << "area of cell (" << i % d.width << ", " << i / d.width << ")";
  }
}

// Runs Tiled headless: `tiled --export-map FORMAT in out`.
std::string TiledExport(const std::string& format, const std::string& in,
                        const std::string& out) {
  int code = 0;
  const std::string printed =
      RunAndCapture(absl::StrCat("cd ", Dir(),
                                 " && QT_QPA_PLATFORM=offscreen "
                                 "XDG_RUNTIME_DIR=",
                                 Dir(), " tiled --export-map ", format, " ", in,
                                 " ", out, " 2>&1"),
                    &code);
  EXPECT_EQ(code, 0) << printed;
  return ReadAll(absl::StrCat(Dir(), "/", out));
}

void MakeTilesetImage() {
  int code = 0;
  const std::string printed =
      RunAndCapture(absl::StrCat("/usr/bin/convert -size 64x64 xc:gray ", Dir(),
                                 "/tiles.png 2>&1"),
                    &code);
  ASSERT_EQ(code, 0) << printed;
}

// Random maps in every encoding we write, then as Tiled saves them.
TEST(TiledImportTest, RandomMapsInEveryEncodingAndAsTiledSavesThem) {
  GRIDSTAR_REQUIRE_PROGRAM("tiled");
  GRIDSTAR_REQUIRE_PROGRAM("/usr/bin/convert");
  MakeTilesetImage();
  std::mt19937 rng(7122026);
  for (int round = 0; round < 12; ++round) {
    const Description d = RandomDescription(rng);
    SCOPED_TRACE(absl::StrCat("round ", round, ": ", d.width, " x ", d.height,
                              ", ", d.layers.size(), " layers, ",
                              d.tilesets.size(), " tilesets"));
    for (const char* encoding :
         {"csv", "xml", "base64", "zlib", "gzip", "zstd"}) {
      SCOPED_TRACE(encoding);
      const std::string tmx = d.Tmx(encoding, Dir());  // Writes the .tsx too.
      const TiledOptions options = d.Options(Dir());
      ExpectCells(ParseTiledMap(tmx, options), d);
      if (std::string(encoding) == "csv" || std::string(encoding) == "zlib" ||
          std::string(encoding) == "gzip") {
        std::ofstream(absl::StrCat(Dir(), "/in.tmx")) << tmx;
        SCOPED_TRACE("saved by Tiled as JSON");
        ExpectCells(
            ParseTiledMap(TiledExport("json", "in.tmx", "out.tmj"), options),
            d);
        SCOPED_TRACE("saved by Tiled as TMX");
        ExpectCells(
            ParseTiledMap(TiledExport("tmx", "in.tmx", "out.tmx"), options), d);
      }
    }
  }
}

// External tilesets as Tiled's JSON (.tsj) serve as the XML ones do.
TEST(TiledImportTest, ExternalJsonTileset) {
  GRIDSTAR_REQUIRE_PROGRAM("tiled");
  GRIDSTAR_REQUIRE_PROGRAM("/usr/bin/convert");
  MakeTilesetImage();
  std::mt19937 rng(99);
  Description d = RandomDescription(rng);
  for (Tileset& t : d.tilesets) t.external = true;
  std::ofstream(absl::StrCat(Dir(), "/ext.tmx")) << d.Tmx("csv", Dir());
  TiledOptions options;
  options.rules = d.rules;
  for (size_t i = 0; i < d.tilesets.size(); ++i) {
    const std::string tsx = absl::StrCat("ts", i, ".tsx");
    int code = 0;
    RunAndCapture(absl::StrCat("cd ", Dir(),
                               " && QT_QPA_PLATFORM=offscreen "
                               "XDG_RUNTIME_DIR=",
                               Dir(), " tiled --export-tileset json ", tsx,
                               " ts", i, ".tsj 2>&1"),
                  &code);
    ASSERT_EQ(code, 0);
    // The map names the .tsx; give Tiled's JSON of it under that name.
    options.tilesets[tsx] = ReadAll(absl::StrCat(Dir(), "/ts", i, ".tsj"));
    ASSERT_EQ(options.tilesets[tsx].front(), '{');
  }
  ExpectCells(ParseTiledMap(ReadAll(absl::StrCat(Dir(), "/ext.tmx")), options),
              d);
  absl::StatusOr<std::vector<std::string>> sources =
      TiledTilesetSources(ReadAll(absl::StrCat(Dir(), "/ext.tmx")));
  ASSERT_OK(sources);
  EXPECT_EQ(sources->size(), d.tilesets.size());
}

}  // namespace
}  // namespace gridstar
