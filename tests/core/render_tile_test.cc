// Map-view tiles (render::RenderTilePng): zoomed in, every pixel is the
// colour of the cell under it (walls, areas shaded by cost, off the map the
// background), on random maps and windows; zoomed out, a pixel is the mean of
// its block's samples, so thin walls darken it; bad arguments name the field.

#include <cstdint>
#include <random>
#include <string>
#include <vector>

#include "absl/strings/str_cat.h"
#include "gridstar/grid_map.h"
#include "gridstar/render.h"
#include "gtest/gtest.h"
#include "testing/status_matchers.h"

namespace gridstar::render {
namespace {

using testing::StatusIs;

Rgb CellColour(const GridMap& map, const std::vector<uint8_t>& areas, int64_t x,
               int64_t y) {
  if (x < 0 || y < 0 || x >= map.width() || y >= map.height()) {
    return kLegendBackground;
  }
  const Cell c{static_cast<int32_t>(x), static_cast<int32_t>(y)};
  if (map.cost(c) == 0) return kWallColour;
  return AreaColour(areas.empty() ? 0 : areas[y * map.width() + x], map.cost(c),
                    map.min_cost(), map.max_cost());
}

TEST(RenderTileTest, ZoomedInEveryPixelIsItsCell) {
  std::mt19937 rng(20261207);
  for (int round = 0; round < 20; ++round) {
    const int w = 1 + static_cast<int>(rng() % 40);
    const int h = 1 + static_cast<int>(rng() % 40);
    std::vector<uint8_t> costs(static_cast<size_t>(w * h));
    std::vector<uint8_t> areas(costs.size());
    for (size_t i = 0; i < costs.size(); ++i) {
      costs[i] = rng() % 4 == 0 ? 0 : static_cast<uint8_t>(1 + rng() % 9);
      areas[i] = static_cast<uint8_t>(rng() % 6);
    }
    const GridMap map = *GridMap::FromCosts(w, h, costs);
    const std::vector<uint8_t> no_areas;
    const bool with_areas = round % 2 == 0;
    const int64_t x0 = static_cast<int64_t>(rng() % (w + 8)) - 4;
    const int64_t y0 = static_cast<int64_t>(rng() % (h + 8)) - 4;
    const int64_t span = 1 + static_cast<int64_t>(rng() % 48);
    const int pixels = static_cast<int>(span * (1 + rng() % 4));
    SCOPED_TRACE(absl::StrCat("round ", round, ": ", w, " x ", h, " from (", x0,
                              ", ", y0, ") span ", span, " at ", pixels,
                              " px"));
    absl::StatusOr<std::string> png =
        RenderTilePng(map, with_areas ? areas : no_areas, x0, y0, span, pixels);
    ASSERT_OK(png);
    absl::StatusOr<Image> image = DecodePng(*png);
    ASSERT_OK(image);
    ASSERT_EQ(image->width, pixels);
    ASSERT_EQ(image->height, pixels);
    for (int py = 0; py < pixels; ++py) {
      for (int px = 0; px < pixels; ++px) {
        const int64_t cx = x0 + px * span / pixels,
                      cy = y0 + py * span / pixels;
        ASSERT_EQ(image->At(px, py),
                  CellColour(map, with_areas ? areas : no_areas, cx, cy))
            << "pixel (" << px << ", " << py << ") of cell (" << cx << ", "
            << cy << ")";
      }
    }
  }
}

// A 64 x 64 map whose every fourth column is a wall, seen 8 pixels wide:
// each pixel averages walls and floor (none is all floor, none all wall);
// the map's left half walled off entirely reads as wall.
TEST(RenderTileTest, ZoomedOutPixelsAverageTheirBlock) {
  std::vector<uint8_t> costs(64 * 64, 1);
  for (int y = 0; y < 64; ++y) {
    for (int x = 0; x < 64; ++x) {
      if (x % 4 == 1 || (x < 32 && y < 8)) costs[y * 64 + x] = 0;
    }
  }
  const GridMap map = *GridMap::FromCosts(64, 64, costs);
  absl::StatusOr<Image> image = DecodePng(*RenderTilePng(map, {}, 0, 0, 64, 8));
  ASSERT_OK(image);
  const Rgb floor = CellColour(map, {}, 0, 8);
  for (int py = 1; py < 8; ++py) {
    for (int px = 0; px < 8; ++px) {
      const Rgb c = image->At(px, py);
      SCOPED_TRACE(absl::StrCat("pixel (", px, ", ", py, ")"));
      EXPECT_LT(c.r, floor.r);
      EXPECT_GT(c.r, kWallColour.r);
    }
  }
  for (int px = 0; px < 4; ++px) EXPECT_EQ(image->At(px, 0), kWallColour);
}

TEST(RenderTileTest, BadArgumentsNameTheField) {
  const GridMap map = *GridMap::FromCosts(2, 2, std::vector<uint8_t>(4, 1));
  EXPECT_TRUE(StatusIs(RenderTilePng(map, {}, 0, 0, 2, 0),
                       absl::StatusCode::kInvalidArgument, "pixels: 0"));
  EXPECT_TRUE(StatusIs(RenderTilePng(map, {}, 0, 0, 2, kMaxTilePixels + 1),
                       absl::StatusCode::kInvalidArgument, "pixels: 1025"));
  EXPECT_TRUE(StatusIs(RenderTilePng(map, {}, 0, 0, 0, 16),
                       absl::StatusCode::kInvalidArgument, "span: 0"));
  EXPECT_TRUE(StatusIs(RenderTilePng(map, std::vector<uint8_t>(3), 0, 0, 2, 16),
                       absl::StatusCode::kInvalidArgument, "areas: 3 bytes"));
}

}  // namespace
}  // namespace gridstar::render
