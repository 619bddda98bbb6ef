// Tiled maps (map_import.h), each rule, shape and malformed input in its own
// test, on small maps written inline.

#include <zlib.h>

#include <cmath>
#include <string>
#include <vector>

#include "absl/strings/escaping.h"
#include "absl/strings/str_cat.h"
#include "gridstar/map_import.h"
#include "gtest/gtest.h"
#include "testing/status_matchers.h"

namespace gridstar {
namespace {

using testing::StatusIs;

// Tileset "t": tile 1 blocked, tile 2 cost 5 area 2, tile 3 open
// (blocked=false), tile 4 of class "water", tile 5 cost 0.5 as a string.
const char* const kTileset =
    R"(<tileset firstgid="1" name="t" tilewidth="16" tileheight="16" tilecount="16" columns="4">
  <tile id="1"><properties><property name="blocked" type="bool" value="true"/></properties></tile>
  <tile id="2"><properties><property name="cost" type="int" value="5"/><property name="area" type="int" value="2"/></properties></tile>
  <tile id="3"><properties><property name="blocked" type="bool" value="false"/></properties></tile>
  <tile id="4" type="water"/>
 </tileset>
)";

// A 4 x 3 map with the tileset and `body` (layers), 16-pixel tiles.
std::string Map(const std::string& body, int width = 4, int height = 3) {
  return absl::StrCat(
      R"(<?xml version="1.0" encoding="UTF-8"?>
<map version="1.8" orientation="orthogonal" width=")",
      width, R"(" height=")", height,
      R"(" tilewidth="16" tileheight="16" infinite="0">
 )",
      kTileset, body, "</map>\n");
}

std::string Layer(const std::string& name, const std::string& csv) {
  return absl::StrCat(R"( <layer name=")", name,
                      R"(" width="4" height="3"><data encoding="csv">)", csv,
                      "</data></layer>\n");
}

const std::string kFloor = Layer("floor", "1,1,1,1,1,1,1,1,1,1,1,1");

std::vector<uint8_t> Costs(const absl::StatusOr<MapWithAreas>& m) {
  EXPECT_OK(m);
  return m.ok() ? m->map.CopyCosts() : std::vector<uint8_t>{};
}

TEST(TiledRulesTest, PropertiesSetCostBlockedAndArea) {
  absl::StatusOr<MapWithAreas> m =
      ParseTiledMap(Map(Layer("ground", "1,2,3,1, 1,1,1,1, 1,1,1,3")));
  EXPECT_EQ(Costs(m),
            (std::vector<uint8_t>{1, 0, 5, 1, 1, 1, 1, 1, 1, 1, 1, 5}));
  ASSERT_EQ(m->areas.size(), 12u);
  EXPECT_EQ(m->areas[2], 2);
  EXPECT_EQ(m->areas[0], 0);
}

TEST(TiledRulesTest, CellsWithNoTileAreBlocked) {
  EXPECT_EQ(Costs(ParseTiledMap(Map(Layer("g", "0,1,0,1,1,1,1,1,1,1,1,0")))),
            (std::vector<uint8_t>{0, 1, 0, 1, 1, 1, 1, 1, 1, 1, 1, 0}));
}

// A higher layer overrides only what its tile names: a bridge
// (blocked=false) opens a wall, a plain tile leaves the cost below.
TEST(TiledRulesTest, UpperLayerOverridesWhatItNames) {
  const std::string walls = Layer("walls", "2,2,2,2,0,0,0,0,0,0,0,0");
  const std::string top = Layer("top", "1,1,1,1,0,0,0,0,0,0,0,0");
  EXPECT_EQ(Costs(ParseTiledMap(Map(kFloor + walls + top))),
            (std::vector<uint8_t>{0, 0, 0, 0, 1, 1, 1, 1, 1, 1, 1, 1}));
  const std::string bridge = Layer("bridge", "4,0,0,0,0,0,0,0,0,0,0,0");
  EXPECT_EQ(Costs(ParseTiledMap(Map(kFloor + walls + bridge))),
            (std::vector<uint8_t>{1, 0, 0, 0, 1, 1, 1, 1, 1, 1, 1, 1}));
  const std::string costly = Layer("costly", "3,0,0,0,0,0,0,0,0,0,0,0");
  EXPECT_EQ(Costs(ParseTiledMap(Map(kFloor + costly + top))),
            (std::vector<uint8_t>{5, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1}));
}

TEST(TiledRulesTest, FlipBitsAreIgnored) {
  const uint32_t flipped = 0x80000000u | 0x40000000u | 2;  // Tile 1, blocked.
  EXPECT_EQ(Costs(ParseTiledMap(Map(
                Layer("g", absl::StrCat(flipped, ",1,1,1,1,1,1,1,1,1,1,1"))))),
            (std::vector<uint8_t>{0, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1}));
}

// Rules given at registration win over the tile's properties: by id over
// by class.
TEST(TiledRulesTest, RulesOverrideProperties) {
  const std::string map = Map(Layer("g", "2,3,5,1,1,1,1,1,1,1,1,1"));
  TiledOptions options;
  TiledRule by_gid;
  by_gid.gid = 2;  // Tile 1: blocked by property, opened by the rule.
  by_gid.blocked = false;
  by_gid.cost = 9;
  TiledRule by_tile;
  by_tile.tileset = "t";
  by_tile.tile = 2;  // gid 3: cost 5 by property.
  by_tile.cost = 7;
  TiledRule by_class;
  by_class.class_name = "water";  // gid 5.
  by_class.blocked = true;
  options.rules = {by_gid, by_tile, by_class};
  EXPECT_EQ(Costs(ParseTiledMap(map, options)),
            (std::vector<uint8_t>{9, 7, 0, 1, 1, 1, 1, 1, 1, 1, 1, 1}));
  TiledRule same_tile_by_gid;
  same_tile_by_gid.gid = 5;
  same_tile_by_gid.blocked = false;
  options.rules.push_back(same_tile_by_gid);
  EXPECT_EQ(Costs(ParseTiledMap(map, options)),
            (std::vector<uint8_t>{9, 7, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1}));
}

TEST(TiledRulesTest, LayersChosenByNameAndGroup) {
  const std::string walls = Layer("walls", "2,2,0,0,0,0,0,0,0,0,0,0");
  const std::string group =
      absl::StrCat(R"( <group name="upper">)",
                   Layer("more", "0,0,2,0,0,0,0,0,0,0,0,0"), " </group>\n");
  const std::string map = Map(kFloor + walls + group);
  EXPECT_EQ(Costs(ParseTiledMap(map)),
            (std::vector<uint8_t>{0, 0, 0, 1, 1, 1, 1, 1, 1, 1, 1, 1}));
  TiledOptions options;
  options.layers = {"floor", "upper"};
  EXPECT_EQ(Costs(ParseTiledMap(map, options)),
            (std::vector<uint8_t>{1, 1, 0, 1, 1, 1, 1, 1, 1, 1, 1, 1}));
  options.layers = {"floor", "walls"};
  EXPECT_EQ(Costs(ParseTiledMap(map, options)),
            (std::vector<uint8_t>{0, 0, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1}));
  options.layers = {"floor", "roof"};
  EXPECT_TRUE(StatusIs(ParseTiledMap(map, options),
                       absl::StatusCode::kInvalidArgument,
                       "layers: the map has no layer named 'roof'"));
}

std::string Objects(const std::string& objects) {
  return absl::StrCat(R"( <objectgroup name="shapes">)", objects,
                      "</objectgroup>\n");
}
const char* const kBlock =
    R"(<properties><property name="blocked" type="bool" value="true"/></properties>)";

TEST(TiledRulesTest, RectangleBlocksCellsWhoseCentreItCovers) {
  // x 8..40 covers the centres 8 and 24 (40 is on its open edge); y 0..20
  // covers 8 only.
  const std::string map =
      Map(kFloor + Objects(absl::StrCat(
                       R"(<object id="1" x="8" y="0" width="32" height="20">)",
                       kBlock, "</object>")));
  EXPECT_EQ(Costs(ParseTiledMap(map)),
            (std::vector<uint8_t>{0, 0, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1}));
}

TEST(TiledRulesTest, RotatedRectangle) {
  // 32 x 16 at (32, 0) turned 90 degrees clockwise: x 16..32, y 0..32.
  const std::string map = Map(
      kFloor +
      Objects(absl::StrCat(
          R"(<object id="1" x="32" y="0" width="32" height="16" rotation="90">)",
          kBlock, "</object>")));
  EXPECT_EQ(Costs(ParseTiledMap(map)),
            (std::vector<uint8_t>{1, 0, 1, 1, 1, 0, 1, 1, 1, 1, 1, 1}));
}

TEST(TiledRulesTest, EllipseCoversCentresInsideIt) {
  // A circle of radius 32 at (32, 32) on a 4 x 4 map: all but the corners.
  const std::string map =
      Map(absl::StrCat(
              R"( <layer name="g" width="4" height="4"><data encoding="csv">)",
              "1,1,1,1,1,1,1,1,1,1,1,1,1,1,1,1</data></layer>\n",
              Objects(absl::StrCat(
                  R"(<object id="1" x="0" y="0" width="64" height="64">)",
                  kBlock, "<ellipse/></object>"))),
          4, 4);
  EXPECT_EQ(
      Costs(ParseTiledMap(map)),
      (std::vector<uint8_t>{1, 0, 0, 1, 0, 0, 0, 0, 0, 0, 0, 0, 1, 0, 0, 1}));
}

TEST(TiledRulesTest, PolygonCoversCentresInsideIt) {
  // The triangle (0,0) (60,0) (0,60): centres with x + y < 60.
  const std::string map =
      Map(kFloor + Objects(absl::StrCat(
                       R"(<object id="1" x="0" y="0">)", kBlock,
                       R"(<polygon points="0,0 60,0 0,60"/></object>)")));
  EXPECT_EQ(Costs(ParseTiledMap(map)),
            (std::vector<uint8_t>{0, 0, 0, 1, 0, 0, 1, 1, 0, 1, 1, 1}));
}

TEST(TiledRulesTest, TileObjectUsesItsTileAndBottomEdge) {
  // gid 2 (blocked) at x 16, bottom y 32: the cell (1, 1).
  const std::string map = Map(
      kFloor +
      Objects(
          R"(<object id="1" gid="2" x="16" y="32" width="16" height="16"/>)"));
  EXPECT_EQ(Costs(ParseTiledMap(map)),
            (std::vector<uint8_t>{1, 1, 1, 1, 1, 0, 1, 1, 1, 1, 1, 1}));
}

TEST(TiledRulesTest, ObjectsSetAreasAndClassRulesApply) {
  const std::string map = Map(
      kFloor +
      Objects(
          R"(<object id="1" type="lake" x="0" y="32" width="64" height="16"/>)"));
  TiledOptions options;
  TiledRule lake;
  lake.class_name = "lake";
  lake.area = 2;
  lake.cost = 3;
  options.rules = {lake};
  absl::StatusOr<MapWithAreas> m = ParseTiledMap(map, options);
  EXPECT_EQ(Costs(m),
            (std::vector<uint8_t>{1, 1, 1, 1, 1, 1, 1, 1, 3, 3, 3, 3}));
  ASSERT_EQ(m->areas.size(), 12u);
  EXPECT_EQ(m->areas[8], 2);
  EXPECT_EQ(m->areas[4], 0);
  // Without the rule the object says nothing and changes nothing.
  EXPECT_EQ(Costs(ParseTiledMap(map)), std::vector<uint8_t>(12, 1));
}

TEST(TiledRulesTest, ObjectOpensEmptyCells) {
  const std::string map = Map(Objects(absl::StrCat(
      R"(<object id="1" x="0" y="0" width="16" height="16">)",
      R"(<properties><property name="blocked" type="bool" value="false"/></properties>)",
      "</object>")));
  EXPECT_EQ(Costs(ParseTiledMap(map)),
            (std::vector<uint8_t>{1, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0}));
}

TEST(TiledRulesTest, JsonMapReadsAsItsXml) {
  const std::string json = R"({"width":3,"height":1,"tilewidth":16,
    "tileheight":16,"orientation":"orthogonal","infinite":false,
    "tilesets":[{"firstgid":1,"name":"t","tiles":[{"id":1,"properties":[
      {"name":"cost","type":"int","value":4},
      {"name":"area","type":"int","value":3}]},
      {"id":2,"properties":[{"name":"blocked","type":"bool","value":true}]}]}],
    "layers":[{"type":"group","name":"g","layers":[
      {"type":"tilelayer","name":"a","width":3,"height":1,"data":[1,2,3]}]},
      {"type":"objectgroup","name":"o","objects":[{"id":1,"x":0,"y":0,
       "width":16,"height":16,"properties":[
       {"name":"blocked","type":"bool","value":true}]}]}]})";
  absl::StatusOr<MapWithAreas> m = ParseTiledMap(json);
  EXPECT_EQ(Costs(m), (std::vector<uint8_t>{0, 4, 0}));
  ASSERT_EQ(m->areas.size(), 3u);
  EXPECT_EQ(m->areas[1], 3);
}

TEST(TiledRulesTest, MalformedInputNamesWhere) {
  const struct {
    const char* name;
    std::string data;
    const char* fragment;
  } cases[] = {
      {"not XML", "<map", "line 1: not well-formed XML"},
      {"no map element", "<tileset/>", "no <map> element"},
      {"neither format", "P5 1 1", "neither a .tmx"},
      {"isometric",
       R"(<map orientation="isometric" width="1" height="1" tilewidth="1" tileheight="1"/>)",
       "orientation 'isometric'"},
      {"infinite",
       R"(<map orientation="orthogonal" infinite="1" width="1" height="1" tilewidth="1" tileheight="1"/>)",
       "infinite maps are not read"},
      {"width missing",
       R"(<map orientation="orthogonal" height="1" tilewidth="1" tileheight="1"/>)",
       "attribute width is missing"},
      {"width not a number",
       R"(<map orientation="orthogonal" width="x" height="1" tilewidth="1" tileheight="1"/>)",
       "attribute width='x' is not a whole number"},
      {"too few tiles", Map(Layer("g", "1,1,1")), "3 tiles, expected 12"},
      {"too many tiles", Map(Layer("g", "1,1,1,1,1,1,1,1,1,1,1,1,1")),
       "more than the layer's 12 tiles"},
      {"not a tile id", Map(Layer("g", "1,1,x,1,1,1,1,1,1,1,1,1")),
       "tile 2: 'x' is not a tile id"},
      {"gid of no tileset", Map(Layer("g", "1,1,1,1,1,1,1,1,1,1,1,99")),
       "cell (3, 2): tile id 99 belongs to no tileset"},
      {"layer of another size",
       Map(R"( <layer name="g" width="2" height="3"><data encoding="csv">1,1,1,1,1,1</data></layer>)"),
       "2 x 3 is not the map's size"},
      {"bad base64",
       Map(R"( <layer name="g" width="4" height="3"><data encoding="base64">@@@@</data></layer>)"),
       "not valid base64"},
      {"corrupt zlib",
       Map(R"( <layer name="g" width="4" height="3"><data encoding="base64" compression="zlib">AAAAAAAA</data></layer>)"),
       "zlib stream"},
      {"unknown compression",
       Map(R"( <layer name="g" width="4" height="3"><data encoding="base64" compression="lzma">AAAA</data></layer>)"),
       "compression 'lzma'"},
      {"unknown encoding",
       Map(R"( <layer name="g" width="4" height="3"><data encoding="hex">00</data></layer>)"),
       "encoding 'hex'"},
      {"external tileset not given",
       R"(<map orientation="orthogonal" width="1" height="1" tilewidth="1" tileheight="1">
<tileset firstgid="1" source="walls.tsx"/></map>)",
       "line 2: <tileset>: external tileset 'walls.tsx' was not given"},
      {"cost 0",
       R"(<map orientation="orthogonal" width="1" height="1" tilewidth="1" tileheight="1">
<tileset firstgid="1" name="t"><tile id="0"><properties>
<property name="cost" type="int" value="0"/></properties></tile></tileset></map>)",
       "line 3: <property>: property cost: 0 is outside [1, 255]"},
      {"area 64",
       R"(<map orientation="orthogonal" width="1" height="1" tilewidth="1" tileheight="1">
<tileset firstgid="1" name="t"><tile id="0"><properties>
<property name="area" type="int" value="64"/></properties></tile></tileset></map>)",
       "property area: 64 is outside [0, 63]"},
      {"blocked not a bool",
       R"(<map orientation="orthogonal" width="1" height="1" tilewidth="1" tileheight="1">
<tileset firstgid="1" name="t"><tile id="0"><properties>
<property name="blocked" type="int" value="1"/></properties></tile></tileset></map>)",
       "property blocked: has type int; expected bool"},
      {"polyline that blocks",
       Map(kFloor + Objects(absl::StrCat(
                        R"(<object id="3" name="fence" x="0" y="0">)", kBlock,
                        R"(<polyline points="0,0 5,5"/></object>)"))),
       "3 'fence': a polyline has no area"},
      {"polygon of two points",
       Map(kFloor +
           Objects(absl::StrCat(R"(<object id="1" x="0" y="0">)", kBlock,
                                R"(<polygon points="0,0 5,5"/></object>)"))),
       "a polygon needs at least 3 points"},
      {"object template",
       Map(kFloor +
           Objects(R"(<object id="4" template="wall.tx" x="0" y="0"/>)")),
       "uses the object template 'wall.tx', which is not read"},
      {"JSON object template",
       R"({"width":1,"height":1,"tilewidth":1,"tileheight":1,"orientation":"orthogonal",
           "layers":[{"type":"objectgroup","name":"o","objects":[{"id":1,"template":"w.tj","x":0,"y":0}]}]})",
       "objects[0] '': uses the object template 'w.tj'"},
      {"JSON not valid", "{\"width\": 3,\n \"height\": }",
       "line 2: not valid JSON"},
      {"JSON number out of range", R"({"width":31e1111})", "not valid JSON"},
      {"JSON width a string",
       R"({"width":"3","height":1,"tilewidth":1,"tileheight":1,"orientation":"orthogonal"})",
       "width: \"3\" is not a whole number"},
      {"JSON data of wrong length",
       R"({"width":2,"height":1,"tilewidth":1,"tileheight":1,"orientation":"orthogonal",
           "layers":[{"type":"tilelayer","name":"a","width":2,"height":1,"data":[0]}]})",
       "layers[0] 'a': data: 1 tiles, expected 2"},
      {"JSON negative tile id",
       R"({"width":1,"height":1,"tilewidth":1,"tileheight":1,"orientation":"orthogonal",
           "layers":[{"type":"tilelayer","name":"a","width":1,"height":1,"data":[-1]}]})",
       "data[0]: -1 is not a tile id"},
  };
  for (const auto& c : cases) {
    SCOPED_TRACE(c.name);
    EXPECT_TRUE(StatusIs(ParseTiledMap(c.data),
                         absl::StatusCode::kInvalidArgument, c.fragment));
  }
}

// Layers and objects that would take a thread for minutes are refused: 100
// full layers of a 1024 x 1024 map, or a polygon of 5,000 points over it.
TEST(TiledRulesTest, WorkBeyondSixtyFourPassesIsRefused) {
  const std::string tileset =
      R"(<tileset firstgid="1" name="t" tilewidth="16" tileheight="16" tilecount="1"/>)";
  const auto map = [&](const std::string& body) {
    return absl::StrCat(
        R"(<map orientation="orthogonal" width="1024" height="1024" tilewidth="16" tileheight="16">)",
        tileset, body, "</map>");
  };
  // One layer of 2^20 empty tiles, zlib in base64 (5 KB): written once,
  // used 100 times (each a pass over the map).
  const std::string zeros(size_t{4} << 20, '\0');
  std::string packed(compressBound(zeros.size()), '\0');
  uLongf packed_size = packed.size();
  ASSERT_EQ(
      compress2(reinterpret_cast<Bytef*>(packed.data()), &packed_size,
                reinterpret_cast<const Bytef*>(zeros.data()), zeros.size(), 9),
      Z_OK);
  packed.resize(packed_size);
  const std::string data = absl::Base64Escape(packed);
  std::string layers;
  for (int i = 0; i < 100; ++i) {
    absl::StrAppend(
        &layers, R"(<layer name="l)", i,
        R"(" width="1024" height="1024"><data encoding="base64" compression="zlib">)",
        data, "</data></layer>");
  }
  EXPECT_TRUE(StatusIs(ParseTiledMap(map(layers)),
                       absl::StatusCode::kInvalidArgument,
                       "more than 64 passes over its cells"));
  std::string points;
  for (int i = 0; i < 5000; ++i) {
    const double a = 6.283185307179586 * i / 5000;
    absl::StrAppend(&points, i ? " " : "", 8192 + 8192 * std::cos(a), ",",
                    8192 + 8192 * std::sin(a));
  }
  EXPECT_TRUE(StatusIs(
      ParseTiledMap(map(absl::StrCat(
          R"(<objectgroup name="o"><object id="1" x="0" y="0"><properties><property name="blocked" type="bool" value="true"/></properties><polygon points=")",
          points, R"("/></object></objectgroup>)"))),
      absl::StatusCode::kInvalidArgument,
      "more than 64 passes over its cells"));
}

TEST(TiledRulesTest, SizeOverTheLimitsIsResourceExhausted) {
  MapLimits limits;
  limits.max_width = 3;
  EXPECT_TRUE(StatusIs(ParseTiledMap(Map(kFloor), {}, limits),
                       absl::StatusCode::kResourceExhausted, "width"));
}

// A zlib layer that inflates past its declared size stops there.
TEST(TiledRulesTest, CompressedDataIsNotInflatedPastTheLayer) {
  // 64 KiB of zeros through zlib: far more than a 4 x 3 layer's 48 bytes.
  const std::string map = Map(
      R"( <layer name="g" width="4" height="3"><data encoding="base64" compression="zlib">eJztwQEBAAAAgJD+r+4ICgAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAGoADwAB</data></layer>)");
  EXPECT_TRUE(StatusIs(ParseTiledMap(map), absl::StatusCode::kInvalidArgument,
                       "inflates to more than the layer's 12 tiles"));
}

TEST(TiledRulesTest, InvalidRulesNameTheRule) {
  const auto rule = [](auto set) {
    TiledRule r;
    set(r);
    return r;
  };
  const struct {
    const char* name;
    TiledRule rule;
    const char* fragment;
  } cases[] = {
      {"no selector", rule([](TiledRule& r) { r.cost = 2; }), "none given"},
      {"two selectors", rule([](TiledRule& r) {
         r.gid = 3;
         r.class_name = "x";
         r.cost = 2;
       }),
       "more than one given"},
      {"tileset without tile", rule([](TiledRule& r) {
         r.tileset = "t";
         r.cost = 2;
       }),
       ".tile: required"},
      {"sets nothing", rule([](TiledRule& r) { r.gid = 3; }),
       "sets none of cost, blocked and area"},
      {"cost 0", rule([](TiledRule& r) {
         r.gid = 3;
         r.cost = 0;
       }),
       "rules[0].cost: 0"},
      {"area 64", rule([](TiledRule& r) {
         r.gid = 3;
         r.area = 64;
       }),
       "rules[0].area: 64"},
  };
  for (const auto& c : cases) {
    SCOPED_TRACE(c.name);
    TiledOptions options;
    options.rules = {c.rule};
    EXPECT_TRUE(StatusIs(ParseTiledMap(Map(kFloor), options),
                         absl::StatusCode::kInvalidArgument, c.fragment));
  }
  TiledOptions twice;
  TiledRule r;
  r.class_name = "water";
  r.cost = 2;
  twice.rules = {r, r};
  EXPECT_TRUE(StatusIs(ParseTiledMap(Map(kFloor), twice),
                       absl::StatusCode::kInvalidArgument,
                       "rules[1]: selects what rules[0] selects"));
  TiledOptions unknown_tileset;
  TiledRule u;
  u.tileset = "walls";
  u.tile = 0;
  u.cost = 2;
  unknown_tileset.rules = {u};
  EXPECT_TRUE(StatusIs(ParseTiledMap(Map(kFloor), unknown_tileset),
                       absl::StatusCode::kInvalidArgument,
                       "rules[0].tileset: the map has no tileset named"));
}

}  // namespace
}  // namespace gridstar
