// DStarLite (incremental.h) against a brute-force Dijkstra: after the first
// plan and after every step of seeded random sequences of agent moves and
// cell changes (on its path, beside it, anywhere; blocking, opening, making
// cheaper than the map ever was), the planner's path is legal and exactly
// optimal, for every policy, on uniform and terrain maps. Named edge cases:
// start = goal, unreachable goal, a blocked end, the node limit.
#include "gridstar/incremental.h"

#include <algorithm>
#include <random>
#include <string>
#include <vector>

#include "absl/strings/str_cat.h"
#include "gtest/gtest.h"
#include "testing/drawn_maps.h"
#include "testing/reference.h"
#include "testing/status_matchers.h"

namespace gridstar {
namespace {

using ::gridstar::testing::StatusIs;

GridMap WithCost(const GridMap& map, Cell c, uint8_t cost) {
  std::vector<uint8_t> costs = map.CopyCosts();
  costs[size_t(c.y) * map.width() + c.x] = cost;
  return *GridMap::FromCosts(map.width(), map.height(), costs);
}

TEST(DStarLiteTest, RandomMovesAndChangesStayOptimal) {
  const DiagonalPolicy policies[] = {DiagonalPolicy::kNever,
                                     DiagonalPolicy::kNoCornerCutting,
                                     DiagonalPolicy::kAllowCornerCutting};
  int replans = 0;
  for (uint32_t seed = 1; seed <= 24; ++seed) {
    for (DiagonalPolicy policy : policies) {
      SCOPED_TRACE(absl::StrCat("seed ", seed, " policy ",
                                DiagonalPolicyName(policy)));
      testing::RandomMapSpec spec;
      spec.width = 24 + seed % 7;
      spec.height = 18 + seed % 5;
      spec.blocked = 0.2;
      spec.max_cost = seed % 2 == 0 ? 1 : 5;
      spec.min_cost = seed % 2 == 0 ? 1 : 2;
      GridMap map = testing::MakeRandomMap(spec, seed);
      auto [start, goal] = testing::FarConnectedPair(map);
      std::mt19937 rng(seed * 7 + static_cast<int>(policy));
      DStarLite planner(start, goal, {policy, 0});
      std::vector<CellChange> changes;
      for (int step = 0; step < 25; ++step) {
        SCOPED_TRACE(absl::StrCat("step ", step));
        PathResult r;
        absl::Status s = planner.Plan(map, changes, &r);
        changes.clear();
        const std::vector<double> dist =
            testing::ReferenceDistances(map, planner.start(), policy);
        const double want = testing::Distance(dist, map, goal);
        if (!map.Passable(planner.start()) || !map.Passable(goal)) {
          EXPECT_TRUE(StatusIs(s, absl::StatusCode::kInvalidArgument, ""));
          break;
        }
        if (want == testing::kUnreachable) {
          EXPECT_TRUE(StatusIs(s, absl::StatusCode::kNotFound, ""));
        } else {
          ASSERT_OK(s);
          ++replans;
          EXPECT_EQ(testing::CheckPath(map, r, planner.start(), goal, policy,
                                       true),
                    "");
          EXPECT_NEAR(r.cost, want, 1e-6);
          // Walk a few cells along it.
          if (r.cells.size() > 2) {
            planner.MoveStart(r.cells[std::min<size_t>(r.cells.size() - 2,
                                                       rng() % 4)]);
          }
        }
        // One to three changes: on the path, beside it, or anywhere.
        const int n = 1 + static_cast<int>(rng() % 3);
        for (int k = 0; k < n; ++k) {
          Cell c{static_cast<int32_t>(rng() % spec.width),
                 static_cast<int32_t>(rng() % spec.height)};
          if (!r.cells.empty() && rng() % 2 == 0) {
            c = r.cells[rng() % r.cells.size()];
            c.x = std::clamp<int32_t>(c.x + int32_t(rng() % 3) - 1, 0,
                                      spec.width - 1);
          }
          if (c == goal || c == planner.start()) continue;
          const int roll = static_cast<int>(rng() % 10);
          // Mostly walls and terrain; sometimes cheaper than the map's
          // cheapest (the plan restarts then).
          const uint8_t cost = roll < 5   ? 0
                               : roll < 9 ? 1 + rng() % spec.max_cost
                                          : 1;
          map = WithCost(map, c, cost);
          changes.push_back({c, {c.x + 1, c.y + 1}, cost});
        }
      }
      EXPECT_GT(planner.memory_bytes(), 0u);
    }
  }
  EXPECT_GT(replans, 500);
}

TEST(DStarLiteTest, StartIsTheGoal) {
  GridMap map = testing::Draw({"...", "..."});
  DStarLite planner({1, 1}, {1, 1}, {});
  PathResult r;
  ASSERT_OK(planner.Plan(map, {}, &r));
  EXPECT_EQ(r.cells, (std::vector<Cell>{{1, 1}}));
  EXPECT_EQ(r.cost, 0);
}

TEST(DStarLiteTest, UnreachableGoalIsNotFoundThenFoundWhenOpened) {
  GridMap map = testing::Draw({"..#..", "..#..", "..#.."});
  DStarLite planner({0, 0}, {4, 0}, {});
  PathResult r;
  EXPECT_TRUE(StatusIs(planner.Plan(map, {}, &r), absl::StatusCode::kNotFound, "no path"));
  map = WithCost(map, {2, 2}, 1);
  ASSERT_OK(planner.Plan(map, {{{2, 2}, {3, 3}, 1}}, &r));
  EXPECT_EQ(r.cells.back(), (Cell{4, 0}));
}

TEST(DStarLiteTest, BlockedEndIsInvalidArgument) {
  GridMap map = testing::Draw({"..#", "..."});
  DStarLite planner({0, 0}, {2, 0}, {});
  PathResult r;
  EXPECT_TRUE(
      StatusIs(planner.Plan(map, {}, &r), absl::StatusCode::kInvalidArgument,
               "goal"));
}

TEST(DStarLiteTest, NodeLimitIsResourceExhaustedAndDropsTheState) {
  GridMap map = testing::Draw(std::vector<std::string>(40, std::string(40, '.')));
  DStarLite planner({0, 0}, {39, 39}, {DiagonalPolicy::kNever, 50});
  PathResult r;
  EXPECT_TRUE(StatusIs(planner.Plan(map, {}, &r),
                       absl::StatusCode::kResourceExhausted, "node records"));
  EXPECT_EQ(planner.nodes(), 0u);
}

// Which of D* Lite and a fresh search is cheaper is measured, not asserted
// (gridstar-bench --replan); here only the answer is checked.
TEST(DStarLiteTest, AWallAheadOnALongPathIsRepairedOptimally) {
  GridMap map =
      testing::Draw(std::vector<std::string>(60, std::string(200, '.')));
  DStarLite planner({0, 30}, {199, 30}, {});
  PathResult first;
  ASSERT_OK(planner.Plan(map, {}, &first));
  planner.MoveStart(first.cells[5]);
  const Cell wall = first.cells[150];
  map = WithCost(map, wall, 0);
  PathResult again;
  ASSERT_OK(planner.Plan(map, {{wall, {wall.x + 1, wall.y + 1}, 0}}, &again));
  EXPECT_EQ(std::find(again.cells.begin(), again.cells.end(), wall),
            again.cells.end());
  EXPECT_NEAR(again.cost,
              testing::Distance(testing::ReferenceDistances(
                                    map, first.cells[5],
                                    DiagonalPolicy::kNoCornerCutting),
                                map, {199, 30}),
              1e-6);
}

}  // namespace
}  // namespace gridstar
