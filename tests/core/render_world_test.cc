// The world picture (render::RenderWorldPng): panels side by side at one
// scale under their titles, every cell where its panel puts it; links drawn
// between their ends' cell centres, the path's red, open ones navy, closed
// ones grey and dashed; bad panels and links refused naming the field.

#include <cstdint>
#include <string>
#include <vector>

#include "gridstar/grid_map.h"
#include "gridstar/render.h"
#include "gtest/gtest.h"
#include "testing/status_matchers.h"

namespace gridstar::render {
namespace {

using testing::StatusIs;

constexpr int kK = 8;       // Pixels a cell.
constexpr int kTitle = 16;  // world_png.cc's title strip.
constexpr int kGap = 24;    // ... and the gap between panels.

Rgb PixelAt(const Image& image, int x, int y) {
  const uint8_t* p = &image.rgb[(static_cast<size_t>(y) * image.width + x) * 3];
  return Rgb{p[0], p[1], p[2]};
}

GridMap Room(int w, int h) {
  std::vector<uint8_t> costs(static_cast<size_t>(w) * h, 1);
  costs[0] = 0;  // A wall in the top-left corner, to find the panel by.
  return *GridMap::FromCosts(w, h, costs);
}

TEST(RenderWorldTest, PanelsSitSideBySideAndLinksJoinCellCentres) {
  const GridMap a = Room(10, 6), b = Room(12, 12);
  WorldScene world;
  world.panels.push_back({Scene{&a}, "a"});
  world.panels.push_back({Scene{&b}, "b"});
  // Taken: a (9, 0) -> b (0, 11); closed: a (0, 5) -> b (11, 0), crossing
  // the gap at other heights.
  world.links.push_back({0, {9, 0}, 1, {0, 11}, true, true, true});
  world.links.push_back({0, {0, 5}, 1, {11, 0}, false, true, false});
  RenderOptions options;
  options.cell_pixels = kK;
  absl::StatusOr<std::string> png = RenderWorldPng(world, options);
  ASSERT_OK(png.status());
  absl::StatusOr<Image> image = DecodePng(*png);
  ASSERT_OK(image.status());
  EXPECT_EQ(image->width, (10 + 12) * kK + kGap);
  // Each panel's wall cell where its panel starts; a floor cell beside it.
  EXPECT_EQ(PixelAt(*image, 1, kTitle + 1), kWallColour);
  EXPECT_EQ(PixelAt(*image, 10 * kK + kGap + 1, kTitle + 1), kWallColour);
  EXPECT_NE(PixelAt(*image, 10 * kK + kGap + kK + 1, kTitle + 1), kWallColour);
  // The taken link's midpoint is red, in the gap between the panels.
  auto centre = [&](int panel, Cell c) {
    return std::pair<double, double>{
        (panel == 0 ? 0 : 10 * kK + kGap) + (c.x + 0.5) * kK,
        kTitle + (c.y + 0.5) * kK};
  };
  const auto [ax, ay] = centre(0, {9, 0});
  const auto [bx, by] = centre(1, {0, 11});
  const Rgb mid = PixelAt(*image, static_cast<int>((ax + bx) / 2),
                          static_cast<int>((ay + by) / 2));
  EXPECT_EQ(mid, (Rgb{215, 35, 35}));
  // The closed link is grey along its dashes and has gaps between them.
  const auto [cx, cy] = centre(0, {0, 5});
  const auto [dx, dy] = centre(1, {11, 0});
  int grey = 0, other = 0;
  for (int i = 10; i < 90; ++i) {
    const double t = i / 100.0;
    const Rgb p = PixelAt(*image, static_cast<int>(cx + (dx - cx) * t + 0.5),
                          static_cast<int>(cy + (dy - cy) * t + 0.5));
    (p == Rgb{150, 150, 150} ? grey : other) += 1;
  }
  EXPECT_GT(grey, 20);
  EXPECT_GT(other, 10);
}

TEST(RenderWorldTest, BadPanelsAndLinksAreRefusedNamingTheField) {
  const GridMap a = Room(4, 4);
  WorldScene empty;
  EXPECT_TRUE(StatusIs(RenderWorldPng(empty, {}),
                       absl::StatusCode::kInvalidArgument,
                       "panels: a world picture needs a map"));
  WorldScene world;
  world.panels.push_back({Scene{&a}, "a"});
  world.panels[0].scene.path = {{9, 9}};
  EXPECT_TRUE(StatusIs(RenderWorldPng(world, {}),
                       absl::StatusCode::kInvalidArgument, "panels[0].path"));
  world.panels[0].scene.path.clear();
  world.links.push_back({0, {1, 1}, 3, {0, 0}, true, true, false});
  EXPECT_TRUE(StatusIs(RenderWorldPng(world, {}),
                       absl::StatusCode::kInvalidArgument, "links[0]"));
  world.links[0].to_panel = 0;
  world.links[0].to = {4, 0};
  EXPECT_TRUE(StatusIs(RenderWorldPng(world, {}),
                       absl::StatusCode::kInvalidArgument, "links[0]"));
  world.links[0].to = {3, 3};
  EXPECT_OK(RenderWorldPng(world, {}).status());
}

}  // namespace
}  // namespace gridstar::render
