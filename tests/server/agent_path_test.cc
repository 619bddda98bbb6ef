// AgentPath (server/watch/agent_path.h) against the plain cell list it
// compresses: indices, positions, touched cells, tiles and remaining costs,
// on seeded random walks and random maps.
#include "watch/agent_path.h"

#include <algorithm>
#include <random>
#include <set>
#include <utility>
#include <vector>

#include "absl/strings/str_cat.h"
#include "gridstar/find_path.h"
#include "gtest/gtest.h"
#include "testing/reference.h"

namespace gridstar::server {
namespace {

// A random king-move walk of `n` cells that keeps a direction for a while.
std::vector<Cell> RandomWalk(std::mt19937& rng, size_t n) {
  std::vector<Cell> cells = {{static_cast<int32_t>(rng() % 64),
                              static_cast<int32_t>(rng() % 64)}};
  int dx = 1, dy = 0;
  while (cells.size() < n) {
    if (rng() % 4 == 0) {
      do {
        dx = static_cast<int>(rng() % 3) - 1;
        dy = static_cast<int>(rng() % 3) - 1;
      } while (dx == 0 && dy == 0);
    }
    cells.push_back({cells.back().x + dx, cells.back().y + dy});
  }
  return cells;
}

std::set<std::pair<int32_t, int32_t>> TouchedByHand(
    const std::vector<Cell>& cells, size_t from) {
  std::set<std::pair<int32_t, int32_t>> out;
  for (size_t i = from; i < cells.size(); ++i) {
    out.insert({cells[i].x, cells[i].y});
    if (i + 1 < cells.size()) {
      const int dx = cells[i + 1].x - cells[i].x;
      const int dy = cells[i + 1].y - cells[i].y;
      if (dx != 0 && dy != 0) {
        out.insert({cells[i].x + dx, cells[i].y});
        out.insert({cells[i].x, cells[i].y + dy});
      }
    }
  }
  return out;
}

TEST(AgentPathTest, MatchesTheCellListOnRandomWalks) {
  for (uint32_t seed = 1; seed <= 200; ++seed) {
    SCOPED_TRACE(absl::StrCat("seed ", seed));
    std::mt19937 rng(seed);
    const std::vector<Cell> cells = RandomWalk(rng, 1 + rng() % 120);
    const AgentPath path(cells);
    ASSERT_EQ(path.cell_count(), cells.size());
    std::vector<Cell> walked;
    path.ForEachCell(0, [&](Cell c) { walked.push_back(c); });
    ASSERT_EQ(walked, cells);
    for (size_t i = 0; i < cells.size(); ++i) {
      ASSERT_EQ(path.CellAt(i), cells[i]) << i;
      // Locate finds the first index at or after the hint, else the first.
      const size_t hint = rng() % cells.size();
      size_t expected = cells.size();
      for (size_t j = hint; j < cells.size() && expected == cells.size(); ++j) {
        if (cells[j] == cells[i]) expected = j;
      }
      for (size_t j = 0; j < hint && expected == cells.size(); ++j) {
        if (cells[j] == cells[i]) expected = j;
      }
      ASSERT_EQ(path.Locate(cells[i], hint).value_or(9999), expected);
    }
    const size_t from = rng() % cells.size();
    std::set<std::pair<int32_t, int32_t>> touched;
    path.ForEachTouchedCell(from, [&](Cell c) { touched.insert({c.x, c.y}); });
    EXPECT_EQ(touched, TouchedByHand(cells, from));
    // Tiles of 8 on a map 256 wide (the walk may leave it: skip those).
    std::set<uint32_t> tiles;
    for (const auto& [x, y] : TouchedByHand(cells, 0)) {
      if (x >= 0 && y >= 0) tiles.insert(uint32_t(y / 8) * 32 + uint32_t(x / 8));
    }
    const std::vector<uint32_t> got = path.Tiles(256, 8);
    EXPECT_EQ(std::set<uint32_t>(got.begin(), got.end()), tiles);
    EXPECT_TRUE(std::is_sorted(got.begin(), got.end()));
  }
}

TEST(AgentPathTest, CellsOffThePathAreNotLocated) {
  const AgentPath path({{0, 0}, {1, 1}, {2, 2}, {3, 2}, {4, 2}});
  EXPECT_FALSE(path.Locate({1, 0}, 0).has_value());
  EXPECT_FALSE(path.Locate({5, 2}, 0).has_value());
  EXPECT_FALSE(path.Locate({-1, -1}, 0).has_value());
  EXPECT_EQ(path.Locate({3, 2}, 4).value(), 3u);  // Behind the hint.
}

TEST(AgentPathTest, EmptyAndSingleCellPaths) {
  const AgentPath empty(std::vector<Cell>{});
  EXPECT_TRUE(empty.empty());
  EXPECT_FALSE(empty.Locate({0, 0}, 0).has_value());
  const AgentPath one({{3, 4}});
  EXPECT_EQ(one.cell_count(), 1u);
  EXPECT_EQ(one.Locate({3, 4}, 0).value(), 0u);
  EXPECT_EQ(one.last(), (Cell{3, 4}));
  // Repeated cells are one.
  EXPECT_EQ(AgentPath({{3, 4}, {3, 4}, {4, 4}}).cell_count(), 2u);
}

TEST(AgentPathTest, RemainingCostIsPathCostOfTheSuffix) {
  testing::RandomMapSpec spec;
  spec.width = 40;
  spec.height = 30;
  spec.max_cost = 5;
  const DiagonalPolicy policies[] = {DiagonalPolicy::kNever,
                                     DiagonalPolicy::kNoCornerCutting,
                                     DiagonalPolicy::kAllowCornerCutting};
  for (uint32_t seed = 1; seed <= 40; ++seed) {
    for (DiagonalPolicy policy : policies) {
      SCOPED_TRACE(absl::StrCat("seed ", seed, " policy ",
                                DiagonalPolicyName(policy)));
      GridMap map = testing::MakeRandomMap(spec, seed);
      auto [start, goal] = testing::FarConnectedPair(map);
      PathQuery q;
      q.start = start;
      q.goal = goal;
      q.movement.diagonal = policy;
      SearchContext context;
      absl::StatusOr<PathResult> r = FindPath(map, q, context);
      if (!r.ok()) continue;  // Not joined under this policy.
      const AgentPath path(r->cells);
      std::mt19937 rng(seed);
      const size_t from = rng() % r->cells.size();
      const std::vector<Cell> suffix(r->cells.begin() + from, r->cells.end());
      EXPECT_NEAR(RemainingCost(map, path, from, policy),
                  PathCost(map, suffix, policy), 1e-9);
      // Block one cell the suffix's moves depend on: illegal from there.
      std::vector<Cell> touched;
      path.ForEachTouchedCell(from, [&](Cell c) { touched.push_back(c); });
      const Cell blocked = touched[rng() % touched.size()];
      std::vector<uint8_t> costs = map.CopyCosts();
      costs[size_t(blocked.y) * map.width() + blocked.x] = 0;
      GridMap changed =
          *GridMap::FromCosts(map.width(), map.height(), costs);
      const double expected = PathCost(changed, suffix, policy);
      EXPECT_EQ(RemainingCost(changed, path, from, policy) < 0, expected < 0);
      // A corner cell matters under NO_CORNER_CUTTING only; the path's own
      // cells always.
      bool on_path = false;
      for (Cell c : suffix) on_path |= c == blocked;
      if (on_path || policy == DiagonalPolicy::kNoCornerCutting) {
        EXPECT_LT(RemainingCost(changed, path, from, policy), 0);
      }
    }
  }
}

}  // namespace
}  // namespace gridstar::server
