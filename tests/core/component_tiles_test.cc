// ComponentTiles (core/src/map/component_tiles.h): the three-level labelling
// (tiles, regions of tiles, the map) equals a brute-force flood fill as a
// partition, and a repaired labelling equals one built from scratch label for
// label, after every step of random update sequences, for every region size
// (one tile per region up to one region for the whole map), on maps whose
// sides are not multiples of a tile or a region.
#include "map/component_tiles.h"

#include <algorithm>
#include <cstdint>
#include <map>
#include <random>
#include <vector>

#include "absl/strings/str_cat.h"
#include "gtest/gtest.h"

namespace gridstar::internal {
namespace {

constexpr int32_t kTile = ComponentTiles::kTile;

// Row-major costs of a w x h map as the padded layout ComponentTiles reads:
// one blocked cell of border on every side.
class PaddedMap {
 public:
  PaddedMap(int32_t w, int32_t h)
      : w_(w), h_(h), cells_(static_cast<size_t>(w + 2) * (h + 2), 0) {}
  void Set(int32_t x, int32_t y, uint8_t cost) { cells_[Index(x, y)] = cost; }
  bool Passable(int32_t x, int32_t y) const {
    return cells_[Index(x, y)] != 0;
  }
  const uint8_t* data() const { return cells_.data(); }
  int32_t w() const { return w_; }
  int32_t h() const { return h_; }

 private:
  size_t Index(int32_t x, int32_t y) const {
    return static_cast<size_t>(y + 1) * (w_ + 2) + static_cast<size_t>(x + 1);
  }
  int32_t w_, h_;
  std::vector<uint8_t> cells_;
};

PaddedMap RandomMap(int32_t w, int32_t h, double blocked, std::mt19937& rng) {
  PaddedMap map(w, h);
  std::bernoulli_distribution wall(blocked);
  for (int32_t y = 0; y < h; ++y) {
    for (int32_t x = 0; x < w; ++x) map.Set(x, y, wall(rng) ? 0 : 1);
  }
  return map;
}

// 4-connected components by flood fill: 0 for blocked cells, else 1.. in
// scan order of each component's first cell.
std::vector<uint32_t> FloodLabels(const PaddedMap& map, uint32_t* count) {
  const int32_t w = map.w(), h = map.h();
  std::vector<uint32_t> label(static_cast<size_t>(w) * h, 0);
  std::vector<Cell> stack;
  *count = 0;
  for (int32_t y = 0; y < h; ++y) {
    for (int32_t x = 0; x < w; ++x) {
      if (!map.Passable(x, y) || label[static_cast<size_t>(y) * w + x] != 0) {
        continue;
      }
      ++*count;
      label[static_cast<size_t>(y) * w + x] = *count;
      stack.push_back({x, y});
      while (!stack.empty()) {
        const Cell c = stack.back();
        stack.pop_back();
        const Cell next[] = {
            {c.x + 1, c.y}, {c.x - 1, c.y}, {c.x, c.y + 1}, {c.x, c.y - 1}};
        for (const Cell n : next) {
          if (n.x < 0 || n.y < 0 || n.x >= w || n.y >= h) continue;
          uint32_t& l = label[static_cast<size_t>(n.y) * w + n.x];
          if (!map.Passable(n.x, n.y) || l != 0) continue;
          l = *count;
          stack.push_back(n);
        }
      }
    }
  }
  return label;
}

// The labelling is the flood fill's partition: blocked cells 0, and two
// cells share a label exactly when they share a flood component.
void ExpectSamePartition(const ComponentTiles& tiles, const PaddedMap& map) {
  uint32_t count = 0;
  const std::vector<uint32_t> flood = FloodLabels(map, &count);
  ASSERT_EQ(tiles.count(), count);
  std::map<uint32_t, uint32_t> flood_to_tiles, tiles_to_flood;
  for (int32_t y = 0; y < map.h(); ++y) {
    for (int32_t x = 0; x < map.w(); ++x) {
      const uint32_t want = flood[static_cast<size_t>(y) * map.w() + x];
      const uint32_t got = tiles.label({x, y});
      ASSERT_EQ(got == 0, want == 0) << "(" << x << ", " << y << ")";
      if (want == 0) continue;
      ASSERT_LE(got, count);
      const auto a = flood_to_tiles.emplace(want, got).first;
      const auto b = tiles_to_flood.emplace(got, want).first;
      ASSERT_EQ(a->second, got) << "(" << x << ", " << y << ")";
      ASSERT_EQ(b->second, want) << "(" << x << ", " << y << ")";
    }
  }
  // Sizes agree with the flood fill's component sizes.
  std::vector<int64_t> flood_sizes(count + 1, 0);
  for (uint32_t l : flood) {
    if (l != 0) ++flood_sizes[l];
  }
  const std::vector<int64_t> sizes = tiles.Sizes();
  ASSERT_EQ(sizes.size(), flood_sizes.size());
  for (const auto& [want, got] : flood_to_tiles) {
    ASSERT_EQ(sizes[got], flood_sizes[want]) << "label " << got;
  }
}

void ExpectSameLabels(const ComponentTiles& got, const ComponentTiles& want,
                      int32_t w, int32_t h) {
  ASSERT_EQ(got.count(), want.count());
  for (int32_t y = 0; y < h; ++y) {
    for (int32_t x = 0; x < w; ++x) {
      ASSERT_EQ(got.label({x, y}), want.label({x, y}))
          << "(" << x << ", " << y << ")";
    }
  }
  ASSERT_EQ(got.Sizes(), want.Sizes());
}

// 1-3 rectangles, mostly single cells, some up to 40 cells a side (so that
// some cross tile and region borders); blocking as likely as clearing.
std::vector<CellRect> RandomChange(PaddedMap* map, std::mt19937& rng) {
  std::vector<CellRect> rects;
  for (int k = 1 + static_cast<int>(rng() % 3); k > 0; --k) {
    const int32_t side =
        rng() % 3 == 0 ? 1 + static_cast<int32_t>(rng() % 40) : 1;
    CellRect r;
    r.min = {static_cast<int32_t>(rng() % map->w()),
             static_cast<int32_t>(rng() % map->h())};
    r.max = {std::min(map->w(), r.min.x + side),
             std::min(map->h(), r.min.y + side)};
    const uint8_t cost = static_cast<uint8_t>(rng() % 2);
    for (int32_t y = r.min.y; y < r.max.y; ++y) {
      for (int32_t x = r.min.x; x < r.max.x; ++x) map->Set(x, y, cost);
    }
    rects.push_back(r);
  }
  return rects;
}

TEST(ComponentTilesTest, RepairedEqualsBuiltAndFloodFillAfterEveryStep) {
  struct Case {
    const char* name;
    int32_t w, h;
    double blocked;  // Near 0.4 components split and merge often.
    int region_shift;
    int seeds, steps;
  } cases[] = {
      {"one tile per region", 5 * kTile + 17, 3 * kTile + 5, 0.4, 0, 2, 30},
      {"2 x 2 tiles per region", 7 * kTile + 3, 5 * kTile + 40, 0.4, 1, 2, 30},
      {"4 x 4 tiles per region, partial regions", 9 * kTile + 1,
       6 * kTile + 63, 0.42, 2, 2, 25},
      {"default regions, one region", 3 * kTile + 9, 2 * kTile, 0.4,
       ComponentTiles::kDefaultRegionShift, 2, 25},
      {"long corridors across regions", 6 * kTile, 7, 0.05, 0, 3, 30},
      {"tall corridors across regions", 5, 6 * kTile + 11, 0.05, 1, 3, 30},
      {"open field", 4 * kTile, 4 * kTile, 0.01, 1, 2, 20},
      {"a single cell", 1, 1, 0.0, 0, 2, 10},
  };
  for (const Case& c : cases) {
    for (int seed = 1; seed <= c.seeds; ++seed) {
      SCOPED_TRACE(absl::StrCat(c.name, " seed ", seed));
      std::mt19937 rng(static_cast<uint32_t>(seed * 104729 + c.w * 31 + c.h));
      PaddedMap map = RandomMap(c.w, c.h, c.blocked, rng);
      ComponentTiles tiles =
          ComponentTiles::Build(map.data(), c.w, c.h, c.region_shift);
      ASSERT_NO_FATAL_FAILURE(ExpectSamePartition(tiles, map));
      for (int step = 0; step < c.steps; ++step) {
        SCOPED_TRACE(absl::StrCat("step ", step));
        const std::vector<CellRect> rects = RandomChange(&map, rng);
        ComponentTiles repaired = tiles.Repaired(map.data(), rects);
        const ComponentTiles fresh =
            ComponentTiles::Build(map.data(), c.w, c.h, c.region_shift);
        ASSERT_NO_FATAL_FAILURE(ExpectSameLabels(repaired, fresh, c.w, c.h));
        ASSERT_NO_FATAL_FAILURE(ExpectSamePartition(repaired, map));
        tiles = std::move(repaired);
      }
    }
  }
}

// A wall along a region border splits the map; opening one cell of it joins
// the halves again, though neither half's region has another change.
TEST(ComponentTilesTest, OpeningAWallOnARegionBorderJoinsTheRegions) {
  const int32_t w = 4 * kTile, h = 2 * kTile;
  PaddedMap map(w, h);
  for (int32_t y = 0; y < h; ++y) {
    for (int32_t x = 0; x < w; ++x) map.Set(x, y, x == 2 * kTile ? 0 : 1);
  }
  // Regions of 2 x 2 tiles: the wall is the first column of region 1.
  ComponentTiles tiles = ComponentTiles::Build(map.data(), w, h, 1);
  ASSERT_EQ(tiles.count(), 2u);
  EXPECT_NE(tiles.label({0, 0}), tiles.label({w - 1, h - 1}));
  map.Set(2 * kTile, h - 1, 1);
  const CellRect door{{2 * kTile, h - 1}, {2 * kTile + 1, h}};
  ComponentTiles joined = tiles.Repaired(map.data(), {door});
  EXPECT_EQ(joined.count(), 1u);
  EXPECT_EQ(joined.label({0, 0}), joined.label({w - 1, h - 1}));
  // The old labelling is untouched by the repair (versions share regions).
  EXPECT_EQ(tiles.count(), 2u);
  EXPECT_NE(tiles.label({0, 0}), tiles.label({w - 1, h - 1}));
  map.Set(2 * kTile, h - 1, 0);
  ComponentTiles split = joined.Repaired(map.data(), {door});
  EXPECT_EQ(split.count(), 2u);
  EXPECT_NE(split.label({0, 0}), split.label({w - 1, h - 1}));
}

// An update that leaves every cell as it was yields the same labels.
TEST(ComponentTilesTest, ARepairThatChangesNothingKeepsEveryLabel) {
  std::mt19937 rng(7);
  PaddedMap map = RandomMap(3 * kTile + 5, 2 * kTile + 9, 0.4, rng);
  const ComponentTiles tiles =
      ComponentTiles::Build(map.data(), map.w(), map.h(), 0);
  const ComponentTiles same =
      tiles.Repaired(map.data(), {CellRect{{0, 0}, {map.w(), map.h()}}});
  ExpectSameLabels(same, tiles, map.w(), map.h());
}

}  // namespace
}  // namespace gridstar::internal
