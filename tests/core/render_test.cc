// Pictures (render.h): each PNG is decoded and the colours of known cells
// checked (a wall, shaded terrain, the start, the goal, a path cell, an
// expanded cell by its order, a waypoint segment, a flow arrow on its sampled
// grid and none off it); the SVG carries every layer; bad scenes and options
// are refused naming the field; bad PNG input is refused by the decoder.
#include "gridstar/render.h"

#include <algorithm>
#include <string>
#include <vector>

#include "absl/strings/str_cat.h"
#include "gridstar/find_path.h"
#include "gridstar/flow_field.h"
#include "gridstar/grid_map.h"
#include "gridstar/search_context.h"
#include "gtest/gtest.h"
#include "testing/drawn_maps.h"
#include "testing/status_matchers.h"

namespace gridstar::render {
namespace {

// The colour at the centre of cell c in an image of k pixels a cell.
Rgb CentreOf(const Image& image, Cell c, int k) {
  return image.At(c.x * k + k / 2, c.y * k + k / 2);
}

GridMap Walls() {
  return testing::Draw({
      "..........",
      "..#####...",
      "......#...",
      "......#...",
      "..........",
  });
}

TEST(RenderTest, PngShowsWallsStartGoalPathAndTrace) {
  const GridMap map = Walls();
  SearchContext context;
  PathQuery q;
  q.start = {0, 2};
  q.goal = {9, 2};
  q.algorithm = Algorithm::kAStar;
  q.trace = true;
  absl::StatusOr<PathResult> r = FindPath(map, q, context);
  ASSERT_OK(r);
  Scene scene;
  scene.map = &map;
  scene.path = r->cells;
  scene.trace = r->trace;
  scene.start = q.start;
  scene.goal = q.goal;
  RenderOptions options;
  options.cell_pixels = 6;
  absl::StatusOr<std::string> png = RenderPng(scene, options);
  ASSERT_OK(png);
  absl::StatusOr<Image> image = DecodePng(*png);
  ASSERT_OK(image);
  EXPECT_EQ(image->width, 60);
  EXPECT_EQ(image->height, 30);
  EXPECT_EQ(CentreOf(*image, {3, 1}, 6), kWallColour);
  EXPECT_EQ(CentreOf(*image, q.start, 6), kStartColour);
  EXPECT_EQ(CentreOf(*image, q.goal, 6), kGoalColour);
  const Cell mid = r->cells[r->cells.size() / 2];
  EXPECT_EQ(CentreOf(*image, mid, 6), kPathColour);
  // A cell's corner pixel, outside the path's inset square, shows the trace.
  EXPECT_EQ(image->At(mid.x * 6, mid.y * 6),
            TraceColour(static_cast<size_t>(
                            std::find(r->trace.begin(), r->trace.end(), mid) -
                            r->trace.begin()),
                        r->trace.size()));
  // An expanded cell off the path, by its order.
  size_t off_path = r->trace.size();
  for (size_t i = 0; i < r->trace.size(); ++i) {
    if (std::find(r->cells.begin(), r->cells.end(), r->trace[i]) ==
        r->cells.end()) {
      off_path = i;
      break;
    }
  }
  ASSERT_LT(off_path, r->trace.size()) << "every expanded cell on the path";
  EXPECT_EQ(CentreOf(*image, r->trace[off_path], 6),
            TraceColour(off_path, r->trace.size()));
  // A cell neither expanded nor on the path: the cost-1 background.
  for (int32_t x = 0; x < map.width(); ++x) {
    const Cell c{x, 4};
    if (std::find(r->trace.begin(), r->trace.end(), c) != r->trace.end()) {
      continue;
    }
    EXPECT_EQ(CentreOf(*image, c, 6), (Rgb{255, 255, 255}));
  }
}

TEST(RenderTest, ASparseTraceOnSmallCellsIsDrawnAsMarkers) {
  const GridMap map =
      testing::Draw(std::vector<std::string>(40, std::string(40, '.')));
  Scene scene;
  scene.map = &map;
  scene.trace = {{10, 10}, {30, 20}};  // 2 of 1,600 cells.
  RenderOptions options;
  options.cell_pixels = 2;
  absl::StatusOr<Image> image = DecodePng(*RenderPng(scene, options));
  ASSERT_OK(image);
  // Two pixels beyond the cell's own, around its centre.
  EXPECT_EQ(image->At(10 * 2 + 1 + 2, 10 * 2 + 1), TraceColour(0, 2));
  EXPECT_EQ(image->At(30 * 2 + 1 - 2, 20 * 2 + 1 + 2), TraceColour(1, 2));
  EXPECT_EQ(image->At(10 * 2 + 1 + 4, 10 * 2 + 1), (Rgb{255, 255, 255}));
  // A dense trace keeps to its cells.
  for (int32_t x = 0; x < 40; ++x) scene.trace.push_back({x, 0});
  for (int32_t x = 0; x < 40; ++x) scene.trace.push_back({x, 1});
  image = DecodePng(*RenderPng(scene, options));
  ASSERT_OK(image);
  EXPECT_EQ(image->At(10 * 2 + 1 + 2, 10 * 2 + 1), (Rgb{255, 255, 255}));
}

TEST(RenderTest, CostsAreShadedFromWhiteToBrown) {
  const GridMap map = *GridMap::FromCosts(3, 1, {1, 5, 9});
  Scene scene;
  scene.map = &map;
  RenderOptions options;
  options.cell_pixels = 2;
  absl::StatusOr<Image> image = DecodePng(*RenderPng(scene, options));
  ASSERT_OK(image);
  EXPECT_EQ(CentreOf(*image, {0, 0}, 2), (Rgb{255, 255, 255}));
  EXPECT_EQ(CentreOf(*image, {1, 0}, 2), CostColour(5, 1, 9));
  EXPECT_EQ(CentreOf(*image, {2, 0}, 2), (Rgb{150, 110, 70}));
}

TEST(RenderTest, WaypointsAreJoinedBySegments) {
  const GridMap map = Walls();
  SearchContext context;
  PathQuery q;
  q.start = {0, 4};
  q.goal = {9, 0};
  q.algorithm = Algorithm::kTheta;
  absl::StatusOr<PathResult> r = FindPath(map, q, context);
  ASSERT_OK(r);
  ASSERT_GE(r->waypoints.size(), 2u);
  Scene scene;
  scene.map = &map;
  scene.waypoints = r->waypoints;
  RenderOptions options;
  options.cell_pixels = 8;
  absl::StatusOr<Image> image = DecodePng(*RenderPng(scene, options));
  ASSERT_OK(image);
  for (const Cell& w : r->waypoints) {
    EXPECT_EQ(CentreOf(*image, w, 8), kWaypointColour);
  }
  // Halfway along the first segment.
  const Cell a = r->waypoints[0], b = r->waypoints[1];
  const int px = (a.x * 8 + 4 + b.x * 8 + 4) / 2;
  const int py = (a.y * 8 + 4 + b.y * 8 + 4) / 2;
  bool found = false;
  for (int dy = -1; dy <= 1; ++dy) {
    for (int dx = -1; dx <= 1; ++dx) {
      found |= image->At(px + dx, py + dy) == kWaypointColour;
    }
  }
  EXPECT_TRUE(found);
}

TEST(RenderTest, FlowArrowsSitOnTheSampledGrid) {
  const GridMap map = testing::Draw(std::vector<std::string>(12,
                                                             "............"));
  SearchContext context;
  FlowFieldQuery fq;
  fq.goal = {11, 6};
  absl::StatusOr<FlowField> field = ComputeFlowField(map, fq, context);
  ASSERT_OK(field);
  Scene scene;
  scene.map = &map;
  scene.flow_directions = field->directions();
  RenderOptions options;
  options.cell_pixels = 10;
  options.arrow_spacing = 4;
  absl::StatusOr<Image> image = DecodePng(*RenderPng(scene, options));
  ASSERT_OK(image);
  // Sampled cells (2, 6, 10 on each axis) start an arrow at their centre;
  // others are untouched ground.
  EXPECT_EQ(CentreOf(*image, {2, 2}, 10), kArrowColour);
  EXPECT_EQ(CentreOf(*image, {6, 6}, 10), kArrowColour);
  EXPECT_EQ(image->At(0, 0), (Rgb{255, 255, 255}));
  EXPECT_EQ(CentreOf(*image, {0, 0}, 10), (Rgb{255, 255, 255}));
  // East of (2, 6) the arrow points at the goal: its shaft crosses x + 1.
  EXPECT_EQ(image->At(3 * 10 + 2, 6 * 10 + 5), kArrowColour);
}

TEST(RenderTest, SvgCarriesEveryLayer) {
  const GridMap map = Walls();
  SearchContext context;
  PathQuery q;
  q.start = {0, 2};
  q.goal = {9, 2};
  q.algorithm = Algorithm::kJps;
  q.trace = true;
  q.smooth = true;
  absl::StatusOr<PathResult> r = FindPath(map, q, context);
  ASSERT_OK(r);
  Scene scene;
  scene.map = &map;
  scene.path = r->cells;
  scene.waypoints = r->waypoints;
  scene.trace = r->trace;
  scene.start = q.start;
  scene.goal = q.goal;
  absl::StatusOr<std::string> svg = RenderSvg(scene, RenderOptions{});
  ASSERT_OK(svg);
  EXPECT_EQ(svg->rfind("<svg ", 0), 0u);
  EXPECT_NE(svg->find("</svg>"), std::string::npos);
  EXPECT_NE(svg->find("<rect x=\"0\" y=\"2\" width=\"1\" height=\"1\" "
                      "fill=\"#00c8e6\"/>"),
            std::string::npos)
      << "start";
  EXPECT_NE(svg->find("<rect x=\"9\" y=\"2\" width=\"1\" height=\"1\" "
                      "fill=\"#dc00c8\"/>"),
            std::string::npos)
      << "goal";
  // The wall run of row 1: x 2..6.
  EXPECT_NE(svg->find("<rect x=\"2\" y=\"1\" width=\"5\" height=\"1\" "
                      "fill=\"#202020\"/>"),
            std::string::npos)
      << "walls";
  EXPECT_NE(svg->find("<polyline id=\"waypoints\""), std::string::npos);
  EXPECT_NE(svg->find("fill=\"#28aa3c\""), std::string::npos) << "path";
  const Rgb first = TraceColour(0, r->trace.size());
  EXPECT_NE(svg->find(absl::StrCat("<rect x=\"0\" y=\"2\" width=\"1\" "
                                   "height=\"1\" fill=\"#",
                                   absl::Hex(first.r, absl::kZeroPad2),
                                   absl::Hex(first.g, absl::kZeroPad2),
                                   absl::Hex(first.b, absl::kZeroPad2), "\"/>")),
            std::string::npos)
      << "trace";
}

TEST(RenderTest, BadScenesAndOptionsNameTheField) {
  const GridMap map = Walls();
  const GridMap huge = *GridMap::FromCosts(4096, 4096,
                                           std::vector<uint8_t>(4096 * 4096, 1));
  struct Case {
    const char* name;
    Scene scene;
    RenderOptions options;
    const char* field;
  };
  std::vector<Case> cases;
  cases.push_back({"no map", Scene{}, {}, "map"});
  Scene off;
  off.map = &map;
  off.path = {{0, 0}, {10, 0}};
  cases.push_back({"path off the map", off, {}, "path[1]"});
  Scene trace_off;
  trace_off.map = &map;
  trace_off.trace = {{-1, 0}};
  cases.push_back({"trace off the map", trace_off, {}, "trace[0]"});
  Scene start_off;
  start_off.map = &map;
  start_off.start = Cell{0, 5};
  cases.push_back({"start off the map", start_off, {}, "start"});
  Scene flow;
  flow.map = &map;
  flow.flow_directions = {0, 1};
  cases.push_back({"flow of the wrong size", flow, {}, "flow_directions"});
  Scene flow_bad;
  flow_bad.map = &map;
  flow_bad.flow_directions.assign(50, 0);
  flow_bad.flow_directions[7] = 9;
  cases.push_back({"flow byte out of range", flow_bad, {}, "flow_directions[7]"});
  Scene plain;
  plain.map = &map;
  cases.push_back({"cell_pixels too large", plain, {65, 0}, "cell_pixels"});
  cases.push_back({"cell_pixels negative", plain, {-1, 0}, "cell_pixels"});
  cases.push_back({"arrow_spacing negative", plain, {0, -1}, "arrow_spacing"});
  Scene big;
  big.map = &huge;
  cases.push_back({"image too large", big, {3, 0}, "cell_pixels"});
  for (const Case& c : cases) {
    SCOPED_TRACE(c.name);
    EXPECT_TRUE(testing::StatusIs(RenderPng(c.scene, c.options),
                                  absl::StatusCode::kInvalidArgument, c.field));
    EXPECT_TRUE(testing::StatusIs(RenderSvg(c.scene, c.options),
                                  absl::StatusCode::kInvalidArgument, c.field));
  }
}

TEST(RenderTest, DecoderRefusesWhatIsNotAPng) {
  EXPECT_TRUE(testing::StatusIs(DecodePng("not a png at all"),
                                absl::StatusCode::kInvalidArgument, "png"));
  const GridMap map = Walls();
  Scene scene;
  scene.map = &map;
  absl::StatusOr<std::string> png = RenderPng(scene, RenderOptions{});
  ASSERT_OK(png);
  EXPECT_TRUE(testing::StatusIs(DecodePng(png->substr(0, png->size() / 2)),
                                absl::StatusCode::kInvalidArgument, "png"));
  ASSERT_OK(DecodePng(*png));
}

// Each area in its own colour, and the cells of areas the agent may not enter
// hatched over theirs: Moving AI's trees no longer look like floor.
TEST(RenderTest, AreasAndCellsBlockedForTheAgentAreDrawnDistinctly) {
  const GridMap map = testing::Draw({"......#."});
  Scene scene;
  scene.map = &map;
  scene.areas = {0, 1, 2, 3, 4, 5, 0, 0};
  scene.allowed_areas = 0b11;  // Ground and swamp: a walker.
  RenderOptions options;
  options.cell_pixels = 8;
  absl::StatusOr<std::string> png = RenderPng(scene, options);
  ASSERT_OK(png);
  absl::StatusOr<Image> image = DecodePng(*png);
  ASSERT_OK(image);
  std::vector<Rgb> seen;
  for (int32_t x = 0; x < 8; ++x) {
    SCOPED_TRACE(x);
    // A pixel off the hatch's diagonals, and one on them.
    const int px = x * 8 + 1, py = 1;
    ASSERT_FALSE(HatchPixel(px, py));
    const int hx = x * 8 + 2, hy = 2;
    ASSERT_TRUE(HatchPixel(hx, hy));
    if (x == 6) {
      EXPECT_EQ(image->At(px, py), kWallColour);
      continue;
    }
    const uint8_t area = scene.areas[x];
    EXPECT_EQ(image->At(px, py), AreaColour(area, 1, 1, 1));
    const bool blocked = area >= 2;
    EXPECT_EQ(image->At(hx, hy), blocked ? kWallColour : AreaColour(area, 1, 1, 1));
    if (x < 6) seen.push_back(image->At(px, py));
  }
  seen.push_back(kWallColour);
  for (size_t i = 0; i < seen.size(); ++i) {
    for (size_t j = i + 1; j < seen.size(); ++j) EXPECT_NE(seen[i], seen[j]) << i << " " << j;
  }
  EXPECT_EQ(AreaName(2), "water");
  EXPECT_EQ(AreaName(3), "trees");
  EXPECT_EQ(AreaName(9), "area 9");
}

// The legend strip below the map: a swatch of every colour drawn, and text.
TEST(RenderTest, LegendStripShowsASwatchOfEveryColourAndACaption) {
  const GridMap map = testing::Draw({"......#.", "........"});
  Scene scene;
  scene.map = &map;
  scene.areas = {0, 1, 2, 3, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0};
  scene.allowed_areas = 0b11;
  scene.path = {{0, 1}, {1, 1}, {2, 1}};
  scene.start = Cell{0, 1};
  scene.goal = Cell{2, 1};
  scene.caption = "jps+ cost 2.00";
  RenderOptions options;
  options.cell_pixels = 4;
  options.legend = true;
  absl::StatusOr<std::string> png = RenderPng(scene, options);
  ASSERT_OK(png);
  absl::StatusOr<Image> image = DecodePng(*png);
  ASSERT_OK(image);
  const int map_h = 2 * 4;
  ASSERT_GT(image->height, map_h + 20);
  ASSERT_GE(image->width, 360);  // Wide enough for the legend's text.
  auto count = [&](Rgb c) {
    int n = 0;
    for (int y = map_h; y < image->height; ++y) {
      for (int x = 0; x < image->width; ++x) n += image->At(x, y) == c;
    }
    return n;
  };
  for (const Rgb c : {kWallColour, AreaColour(0, 1, 1, 1), kSwampColour, kWaterColour,
                      kTreeColour, kPathColour, kStartColour, kGoalColour}) {
    SCOPED_TRACE(absl::StrCat(int{c.r}, ",", int{c.g}, ",", int{c.b}));
    EXPECT_GE(count(c), 50);  // A 10 x 10 swatch (hatched ones lose a quarter).
  }
  EXPECT_GE(count(kTextColour), 200);  // Outlines and letters.
  EXPECT_EQ(count(kArrowColour), 0);   // No flow field: no arrow swatch.
  // Without the legend the picture is the map alone.
  options.legend = false;
  image = DecodePng(*RenderPng(scene, options));
  ASSERT_OK(image);
  EXPECT_EQ(image->height, map_h);
}

// Start and goal markers grow with the picture: on a big map at one pixel a
// cell they are still a visible square with an outline.
TEST(RenderTest, MarkersAreScaledToThePicture) {
  const GridMap map = *GridMap::FromCosts(400, 300, std::vector<uint8_t>(400 * 300, 1));
  Scene scene;
  scene.map = &map;
  scene.start = Cell{100, 100};
  scene.goal = Cell{300, 200};
  RenderOptions options;
  options.cell_pixels = 1;
  absl::StatusOr<Image> image = DecodePng(*RenderPng(scene, options));
  ASSERT_OK(image);
  // 400 / 100 = 4 pixels a side, centred on the cell, outlined.
  EXPECT_EQ(image->At(101, 100), kStartColour);
  EXPECT_EQ(image->At(100, 101), kStartColour);
  EXPECT_EQ(image->At(98, 100), kStartColour);
  EXPECT_EQ(image->At(97, 100), kMarkerOutline);
  EXPECT_EQ(image->At(301, 201), kGoalColour);
  EXPECT_EQ(image->At(110, 110), AreaColour(0, 1, 1, 1));
}

TEST(RenderTest, SvgHatchesBlockedCellsAndEscapesItsLegend) {
  const GridMap map = testing::Draw({"...."});
  Scene scene;
  scene.map = &map;
  scene.areas = {0, 3, 0, 0};
  scene.allowed_areas = 0b1;
  scene.caption = "map <b>&</b>";
  RenderOptions options;
  options.legend = true;
  absl::StatusOr<std::string> svg = RenderSvg(scene, options);
  ASSERT_OK(svg);
  EXPECT_NE(svg->find("<g id=\"blocked\" fill=\"url(#hatch)\">\n<rect x=\"1\" y=\"0\""),
            std::string::npos)
      << *svg;
  EXPECT_NE(svg->find("map &lt;b&gt;&amp;&lt;/b&gt;"), std::string::npos) << *svg;
  EXPECT_NE(svg->find("trees cost 1, blocks agent"), std::string::npos) << *svg;
  scene.caption = "bad\n";
  EXPECT_FALSE(RenderSvg(scene, options).ok());
  scene.caption = "";
  scene.areas = {0, 64, 0, 0};
  EXPECT_FALSE(RenderPng(scene, options).ok());
}

}  // namespace
}  // namespace gridstar::render
