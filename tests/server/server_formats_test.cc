// Maps as studios make them, through the real server: Tiled maps, PNG and
// mapped PGM images registered over gRPC, the CLI (by file extension, the
// external tileset read from beside the map) and HTTP/JSON; the server holds
// exactly the cells and areas core's readers make, answers paths on them,
// and names the field of every malformed registration.

#include <cstdio>
#include <fstream>
#include <string>
#include <vector>

#include "absl/strings/escaping.h"
#include "absl/strings/str_cat.h"
#include "gridstar/map_import.h"
#include "gtest/gtest.h"
#include "server/server_test_util.h"
#include "testing/commands.h"

namespace gridstar {
namespace {

using namespace testing::server_suite;  // NOLINT(build/namespaces)
using testing::RunAndCapture;

grpc::Status RegisterRequest(v1::Pathfinding::Stub& stub,
                             const v1::RegisterMapRequest& r,
                             v1::MapInfo* info) {
  grpc::ClientContext ctx;
  testing::SetDeadline(&ctx);
  return stub.RegisterMap(&ctx, r, info);
}

v1::RegisterMapRequest TavernRequest(const std::string& id) {
  v1::RegisterMapRequest r;
  r.set_id(id);
  r.mutable_tiled()->set_data(ReadSample("tavern.tmx"));
  v1::TiledFile* tsx = r.mutable_tiled()->add_tilesets();
  tsx->set_source("tavern.tsx");
  tsx->set_data(ReadSample("tavern.tsx"));
  return r;
}

// The server's cells and areas of `id` equal `want`'s, cell by cell.
void ExpectHeld(v1::Pathfinding::Stub& stub, const std::string& id,
                const MapWithAreas& want) {
  v1::GetMapResponse got;
  ASSERT_TRUE(GetMapWithCells(stub, id, &got).ok());
  ASSERT_EQ(got.info().width(), want.map.width());
  ASSERT_EQ(got.info().height(), want.map.height());
  const std::vector<uint8_t> costs = want.map.CopyCosts();
  ASSERT_EQ(got.raw(), std::string(costs.begin(), costs.end()));
  EXPECT_EQ(got.info().has_areas(), !want.areas.empty());
  if (!want.areas.empty()) {
    EXPECT_EQ(got.areas(), std::string(want.areas.begin(), want.areas.end()));
  }
}

TEST_F(ServerTest, TiledMapIsHeldAsCoreReadsItAndAnswersPaths) {
  v1::MapInfo info;
  v1::RegisterMapRequest r = TavernRequest("tavern");
  ASSERT_TRUE(RegisterRequest(stub(), r, &info).ok());
  TiledOptions options;
  options.tilesets["tavern.tsx"] = ReadSample("tavern.tsx");
  absl::StatusOr<MapWithAreas> core =
      ParseTiledMap(ReadSample("tavern.tmx"), options);
  ASSERT_TRUE(core.ok()) << core.status();
  ExpectHeld(stub(), "tavern", *core);
  // Every area may be entered by default: the stream (area 2, cost 3) is
  // water a query may cross, unlike a Moving AI map's water.
  EXPECT_EQ(info.default_areas(), ~uint64_t{0});
  v1::PathResponse path;
  grpc::ClientContext ctx;
  testing::SetDeadline(&ctx);
  ASSERT_TRUE(stub().FindPath(&ctx, Path("tavern", 2, 2, 30, 17), &path).ok());
  EXPECT_NEAR(path.cost(), CoreAStarCost(core->map, Cell{2, 2}, Cell{30, 17}),
              1e-9);
  // The same map with a rule: furniture no longer blocks, water costs 9.
  v1::TiledRule* furniture = r.mutable_tiled()->add_rules();
  furniture->set_class_name("furniture");
  furniture->set_blocked(false);
  v1::TiledRule* water = r.mutable_tiled()->add_rules();
  water->set_class_name("water");
  water->set_cost(9);
  r.set_id("tavern-ruled");
  ASSERT_TRUE(RegisterRequest(stub(), r, &info).ok());
  TiledRule f, w;
  f.class_name = "furniture";
  f.blocked = false;
  w.class_name = "water";
  w.cost = 9;
  options.rules = {f, w};
  core = ParseTiledMap(ReadSample("tavern.tmx"), options);
  ASSERT_TRUE(core.ok()) << core.status();
  ExpectHeld(stub(), "tavern-ruled", *core);
  EXPECT_GT(info.passable_cells(), 0);
}

TEST_F(ServerTest, PngAndMappedPgmAreHeldAsCoreReadsThem) {
  v1::MapInfo info;
  v1::RegisterMapRequest r;
  r.set_id("court");
  r.set_png(ReadSample("courtyard.png"));
  ASSERT_TRUE(RegisterRequest(stub(), r, &info).ok());
  absl::StatusOr<MapWithAreas> core =
      ParsePngMap(ReadSample("courtyard.png"), ImageMapping{});
  ASSERT_TRUE(core.ok()) << core.status();
  ExpectHeld(stub(), "court", *core);
  EXPECT_EQ(core->map.cost(Cell{2, 2}), 1);  // White floor costs 1.

  r.set_id("court-palette");
  v1::ImageMapping* m = r.mutable_image_mapping();
  m->set_mode(v1::IMAGE_MODE_PALETTE);
  for (auto [rgb, cost, area] : {std::tuple{0xffffffu, 1u, 0u},
                                 {0x000000u, 0u, 0u},
                                 {0x2080ffu, 3u, 2u}}) {
    v1::PaletteColour* c = m->add_palette();
    c->set_rgb(rgb);
    c->set_cost(cost);
    c->set_area(area);
  }
  ASSERT_TRUE(RegisterRequest(stub(), r, &info).ok());
  ImageMapping palette;
  palette.mode = ImageMapping::Mode::kPalette;
  palette.palette = {{0xffffff, 1, 0}, {0x000000, 0, 0}, {0x2080ff, 3, 2}};
  core = ParsePngMap(ReadSample("courtyard.png"), palette);
  ASSERT_TRUE(core.ok()) << core.status();
  ExpectHeld(stub(), "court-palette", *core);

  // The sample terrain PGM (costs 1..9 of maxval 9) read as levels.
  v1::RegisterMapRequest pgm;
  pgm.set_id("terrain-threshold");
  pgm.set_pgm(ReadSample("terrain.pgm"));
  pgm.mutable_image_mapping()->set_threshold(100);
  pgm.mutable_image_mapping()->set_floor_cost(2);
  ASSERT_TRUE(RegisterRequest(stub(), pgm, &info).ok());
  ImageMapping threshold;
  threshold.threshold = 100;
  threshold.floor_cost = 2;
  core = ParsePgmMap(ReadSample("terrain.pgm"), threshold);
  ASSERT_TRUE(core.ok()) << core.status();
  ExpectHeld(stub(), "terrain-threshold", *core);
}

TEST_F(ServerTest, MalformedFormatsNameTheField) {
  const auto base = [] {
    v1::RegisterMapRequest r;
    r.set_id("bad");
    return r;
  };
  struct Case {
    const char* name;
    v1::RegisterMapRequest request;
    const char* fragment;
  };
  std::vector<Case> cases;
  {
    v1::RegisterMapRequest r = base();
    r.set_movingai(dungeon_);
    r.mutable_image_mapping()->set_invert(true);
    cases.push_back({"mapping with Moving AI", r,
                     "image_mapping: only with png or pgm cells"});
  }
  {
    v1::RegisterMapRequest r = base();
    r.set_png(ReadSample("courtyard.png"));
    r.mutable_image_mapping()->add_palette()->set_cost(300);
    cases.push_back({"palette cost", r,
                     "image_mapping.palette[0].cost: 300 is outside [0, 255]"});
  }
  {
    v1::RegisterMapRequest r = base();
    r.set_png(ReadSample("courtyard.png"));
    r.mutable_image_mapping()->set_threshold(256);
    cases.push_back({"threshold", r, "image_mapping.threshold: 256"});
  }
  {
    v1::RegisterMapRequest r = base();
    r.set_png(ReadSample("courtyard.png"));
    r.mutable_image_mapping()->set_mode(v1::IMAGE_MODE_PALETTE);
    r.mutable_image_mapping()->add_palette()->set_rgb(0xffffff);
    cases.push_back({"colour not in palette", r,
                     "png: pixel (0, 0): colour #000000 is not in"});
  }
  {
    v1::RegisterMapRequest r = base();
    r.set_png("GIF89a");
    cases.push_back({"not a PNG", r, "png: "});
  }
  {
    v1::RegisterMapRequest r = TavernRequest("bad");
    r.mutable_tiled()->clear_tilesets();
    cases.push_back({"tileset missing", r,
                     "tiled.data: line 3: <tileset>: external tileset "
                     "'tavern.tsx' was not given"});
  }
  {
    v1::RegisterMapRequest r = TavernRequest("bad");
    r.mutable_tiled()->add_rules()->set_gid(3);
    cases.push_back({"rule setting nothing", r,
                     "tiled.rules[0]: sets none of cost, blocked and area"});
  }
  {
    v1::RegisterMapRequest r = TavernRequest("bad");
    r.mutable_tiled()->add_layers("roof");
    cases.push_back({"unknown layer", r,
                     "tiled.layers: the map has no layer named 'roof'"});
  }
  {
    v1::RegisterMapRequest r = TavernRequest("bad");
    r.mutable_tiled()->set_data("<map orientation=\"hexagonal\"");
    cases.push_back(
        {"malformed XML", r, "tiled.data: line 1: not well-formed XML"});
  }
  {
    v1::RegisterMapRequest r = TavernRequest("bad");
    r.mutable_tiled()->add_tilesets()->set_source("tavern.tsx");
    cases.push_back({"tileset twice", r,
                     "tiled.tilesets[1].source: 'tavern.tsx' is given twice"});
  }
  for (const Case& c : cases) {
    SCOPED_TRACE(c.name);
    v1::MapInfo info;
    const grpc::Status s = RegisterRequest(stub(), c.request, &info);
    EXPECT_EQ(s.error_code(), grpc::StatusCode::INVALID_ARGUMENT)
        << s.error_message();
    EXPECT_NE(s.error_message().find(c.fragment), std::string::npos)
        << s.error_message();
  }
  v1::ListMapsResponse maps;
  grpc::ClientContext ctx;
  testing::SetDeadline(&ctx);
  ASSERT_TRUE(stub().ListMaps(&ctx, v1::ListMapsRequest(), &maps).ok());
  EXPECT_EQ(maps.maps_size(), 1);  // Only the fixture's map.
}

// --preload reads each format by extension, as the CLI sends it.
TEST(FormatsPreloadTest, PreloadReadsTiledAndPngFiles) {
  const std::string sample = absl::StrCat(GRIDSTAR_SOURCE_DIR, "/data/sample/");
  InProcessServer server(
      {absl::StrCat("--preload=tavern=", sample, "tavern.tmx,court=", sample,
                    "courtyard.png")});
  ASSERT_TRUE(server.started());
  TiledOptions options;
  options.tilesets["tavern.tsx"] = ReadSample("tavern.tsx");
  absl::StatusOr<MapWithAreas> tavern =
      ParseTiledMap(ReadSample("tavern.tmx"), options);
  ASSERT_TRUE(tavern.ok()) << tavern.status();
  ExpectHeld(server.stub(), "tavern", *tavern);
  absl::StatusOr<MapWithAreas> court =
      ParsePngMap(ReadSample("courtyard.png"), ImageMapping{});
  ASSERT_TRUE(court.ok()) << court.status();
  ExpectHeld(server.stub(), "court", *court);
}

// The CLI picks the format by extension and reads the tileset beside the
// map; its mapping flags reach the server.
TEST(FormatsCliTest, RegistersEachFormatByExtension) {
  InProcessServer server;
  ASSERT_TRUE(server.started());
  const std::string cli =
      absl::StrCat(GRIDSTAR_CLI_BINARY, " --server=127.0.0.1:", server.port());
  const std::string sample = absl::StrCat(GRIDSTAR_SOURCE_DIR, "/data/sample/");
  const struct {
    const char* args;
    const char* want;
  } cases[] = {
      {"register --id tavern data/sample/tavern.tmx",
       "tavern version=1 size=32x20"},
      {"register --id court data/sample/courtyard.png",
       "court version=1 size=48x32"},
      {"register --id pond --palette '#ffffff=1,#000000=0,#2080ff=3:2' "
       "data/sample/courtyard.png",
       "pond version=1 size=48x32"},
      {"register --id ruled --tiled_rules 'class=furniture:blocked=false;"
       "class=water:cost=9,area=5' --tiled_layers ground,decor "
       "data/sample/tavern.tmx",
       "ruled version=1 size=32x20"},
      {"register --id dark --image_mode threshold --invert --floor_cost 4 "
       "data/sample/courtyard.png",
       "dark version=1 size=48x32"},
  };
  for (const auto& c : cases) {
    SCOPED_TRACE(c.args);
    int code = 0;
    const std::string out =
        RunAndCapture(absl::StrCat("cd ", GRIDSTAR_SOURCE_DIR, " && ", cli, " ",
                                   c.args, " 2>&1"),
                      &code);
    EXPECT_EQ(code, 0) << out;
    EXPECT_EQ(out.rfind(c.want, 0), 0u) << out;
  }
  // What the flags asked for is what the server holds.
  v1::GetMapResponse got;
  ASSERT_TRUE(GetMapWithCells(server.stub(), "pond", &got).ok());
  ImageMapping palette;
  palette.mode = ImageMapping::Mode::kPalette;
  palette.palette = {{0xffffff, 1, 0}, {0x000000, 0, 0}, {0x2080ff, 3, 2}};
  absl::StatusOr<MapWithAreas> pond =
      ParsePngMap(ReadSample("courtyard.png"), palette);
  ASSERT_TRUE(pond.ok());
  ExpectHeld(server.stub(), "pond", *pond);
  TiledOptions ruled;
  ruled.tilesets["tavern.tsx"] = ReadSample("tavern.tsx");
  ruled.layers = {"ground", "decor"};
  TiledRule f, w;
  f.class_name = "furniture";
  f.blocked = false;
  w.class_name = "water";
  w.cost = 9;
  w.area = 5;
  ruled.rules = {f, w};
  absl::StatusOr<MapWithAreas> tavern =
      ParseTiledMap(ReadSample("tavern.tmx"), ruled);
  ASSERT_TRUE(tavern.ok()) << tavern.status();
  ExpectHeld(server.stub(), "ruled", *tavern);
  ImageMapping dark;
  dark.invert = true;
  dark.floor_cost = 4;
  absl::StatusOr<MapWithAreas> inverted =
      ParsePngMap(ReadSample("courtyard.png"), dark);
  ASSERT_TRUE(inverted.ok());
  ExpectHeld(server.stub(), "dark", *inverted);

  // A white-floor PGM registered as costs gets a note pointing to the
  // threshold; through the threshold it reads as cost 1 floors.
  const std::string white =
      absl::StrCat(::testing::TempDir(), "/white.", getpid(), ".pgm");
  std::ofstream(white) << "P2\n4 2\n255\n255 255 0 255\n255 0 255 255\n";
  for (const bool mapped : {false, true}) {
    SCOPED_TRACE(mapped);
    int code = 0;
    const std::string out = RunAndCapture(
        absl::StrCat(cli, " register --id white", mapped, " ",
                     mapped ? "--image_mode threshold " : "", white, " 2>&1"),
        &code);
    EXPECT_EQ(code, 0) << out;
    EXPECT_EQ(out.find("note: every passable cell") != std::string::npos,
              !mapped)
        << out;
  }
  v1::GetMapResponse floors;
  ASSERT_TRUE(GetMapWithCells(server.stub(), "white1", &floors).ok());
  EXPECT_EQ(floors.raw(), std::string("\x01\x01\x00\x01\x01\x00\x01\x01", 8));

  // Malformed flags are usage errors (exit 2) naming the flag.
  for (const char* args :
       {"register --id x --palette 'white=1' data/sample/courtyard.png",
        "register --id x --tiled_rules 'kind=water:cost=2' "
        "data/sample/tavern.tmx",
        "register --id x --invert data/sample/tavern.tmx",
        "register --id x --tiled_layers a data/sample/courtyard.png"}) {
    SCOPED_TRACE(args);
    int code = 0;
    const std::string out =
        RunAndCapture(absl::StrCat("cd ", GRIDSTAR_SOURCE_DIR, " && ", cli, " ",
                                   args, " 2>&1"),
                      &code);
    EXPECT_EQ(code, 2) << out;
    EXPECT_NE(out.find("--"), std::string::npos) << out;
  }
}

}  // namespace
}  // namespace gridstar
