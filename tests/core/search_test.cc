// Named edge cases of FindPath, each run over every algorithm and every
// diagonal policy.

#include <algorithm>
#include <atomic>
#include <functional>
#include <string>
#include <vector>

#include "absl/strings/str_cat.h"
#include "absl/strings/str_join.h"
#include "absl/time/clock.h"
#include "gridstar/find_path.h"
#include "gridstar/map_io.h"
#include "gtest/gtest.h"
#include "testing/drawn_maps.h"
#include "testing/reference.h"
#include "testing/status_matchers.h"

namespace gridstar {
namespace {

using testing::CheckPath;
using testing::Draw;
using testing::Query;
using testing::MakeRandomMap;
using testing::StatusIs;

void ForEachAlgorithmAndPolicy(
    const std::function<void(Algorithm, DiagonalPolicy)>& body) {
  for (Algorithm a : kAllAlgorithms) {
    for (DiagonalPolicy p : kAllDiagonalPolicies) {
      SCOPED_TRACE(absl::StrCat(AlgorithmName(a), " ", DiagonalPolicyName(p)));
      body(a, p);
    }
  }
}

TEST(FindPathTest, StartEqualsGoalGivesOneCellPathOfCostZero) {
  const GridMap map = Draw({"...", "...", "..."});
  SearchContext context;
  ForEachAlgorithmAndPolicy([&](Algorithm a, DiagonalPolicy p) {
    absl::StatusOr<PathResult> r =
        FindPath(map, Query({1, 1}, {1, 1}, a, p), context);
    ASSERT_OK(r);
    ASSERT_EQ(r->cells.size(), 1u);
    EXPECT_EQ(r->cells[0], (Cell{1, 1}));
    EXPECT_EQ(r->cost, 0);
    EXPECT_FALSE(r->partial);
  });
}

TEST(FindPathTest, BlockedStartIsInvalidArgumentNamingStart) {
  const GridMap map = Draw({".#.", "...", "..."});
  SearchContext context;
  ForEachAlgorithmAndPolicy([&](Algorithm a, DiagonalPolicy p) {
    EXPECT_TRUE(StatusIs(FindPath(map, Query({1, 0}, {2, 2}, a, p), context),
                         absl::StatusCode::kInvalidArgument,
                         "start: (1, 0) is blocked"));
  });
}

TEST(FindPathTest, BlockedGoalIsInvalidArgumentNamingGoal) {
  const GridMap map = Draw({".#.", "...", "..."});
  SearchContext context;
  ForEachAlgorithmAndPolicy([&](Algorithm a, DiagonalPolicy p) {
    EXPECT_TRUE(StatusIs(FindPath(map, Query({0, 0}, {1, 0}, a, p), context),
                         absl::StatusCode::kInvalidArgument,
                         "goal: (1, 0) is blocked"));
  });
}

TEST(FindPathTest, OffMapEndsAreInvalidArgument) {
  const GridMap map = Draw({"...", "..."});
  SearchContext context;
  ForEachAlgorithmAndPolicy([&](Algorithm a, DiagonalPolicy p) {
    EXPECT_TRUE(StatusIs(FindPath(map, Query({-1, 0}, {1, 1}, a, p), context),
                         absl::StatusCode::kInvalidArgument,
                         "start: (-1, 0) is outside the 3 x 2 map"));
    EXPECT_TRUE(StatusIs(FindPath(map, Query({0, 0}, {3, 0}, a, p), context),
                         absl::StatusCode::kInvalidArgument, "goal: (3, 0)"));
    EXPECT_TRUE(StatusIs(
        FindPath(map, Query({0, 0}, {INT32_MAX, INT32_MIN}, a, p), context),
        absl::StatusCode::kInvalidArgument, "goal"));
  });
}

TEST(FindPathTest, DifferentComponentsIsNotFoundWithoutSearching) {
  const GridMap map = Draw({"..#..", "..#..", "..#.."});
  SearchContext context;
  ForEachAlgorithmAndPolicy([&](Algorithm a, DiagonalPolicy p) {
    PathResult r;
    const absl::Status s =
        FindPath(map, Query({0, 0}, {4, 2}, a, p), context, &r);
    EXPECT_TRUE(
        StatusIs(s, absl::StatusCode::kNotFound, "different components"));
    EXPECT_EQ(r.expanded, 0u);
  });
}

TEST(FindPathTest, DiagonalOnlyContactIsNotAConnection) {
  // Two cells touching at a corner only: no policy lets a path through.
  const GridMap map = Draw({".#", "#."});
  SearchContext context;
  ForEachAlgorithmAndPolicy([&](Algorithm a, DiagonalPolicy p) {
    EXPECT_TRUE(StatusIs(FindPath(map, Query({0, 0}, {1, 1}, a, p), context),
                         absl::StatusCode::kNotFound, "no path"));
  });
}

TEST(FindPathTest, SingleCellMap) {
  const GridMap map = Draw({"."});
  SearchContext context;
  ForEachAlgorithmAndPolicy([&](Algorithm a, DiagonalPolicy p) {
    absl::StatusOr<PathResult> r =
        FindPath(map, Query({0, 0}, {0, 0}, a, p), context);
    ASSERT_OK(r);
    EXPECT_EQ(r->cells.size(), 1u);
  });
}

TEST(FindPathTest, OneByNAndNByOneMaps) {
  const GridMap row = Draw({"........."});
  const GridMap column = Draw({".", ".", ".", ".", "."});
  SearchContext context;
  ForEachAlgorithmAndPolicy([&](Algorithm a, DiagonalPolicy p) {
    absl::StatusOr<PathResult> r =
        FindPath(row, Query({8, 0}, {0, 0}, a, p), context);
    ASSERT_OK(r);
    EXPECT_EQ(r->cost, 8);
    EXPECT_EQ(r->cells.size(), 9u);
    r = FindPath(column, Query({0, 0}, {0, 4}, a, p), context);
    ASSERT_OK(r);
    EXPECT_EQ(r->cost, 4);
  });
}

TEST(FindPathTest, OneCellWideCorridorIsFollowed) {
  const GridMap map = Draw({
      ".#.....",
      ".#.###.",
      ".#.#.#.",
      "...#...",
  });
  SearchContext context;
  ForEachAlgorithmAndPolicy([&](Algorithm a, DiagonalPolicy p) {
    absl::StatusOr<PathResult> r =
        FindPath(map, Query({0, 0}, {4, 3}, a, p), context);
    ASSERT_OK(r);
    EXPECT_EQ(CheckPath(map, *r, {0, 0}, {4, 3}, p, true), "");
    if (IsOptimal(a)) {
      // 17 straight moves; only corner cutting may shorten the corners.
      if (p == DiagonalPolicy::kAllowCornerCutting) {
        EXPECT_LT(r->cost, 17.0);
      } else {
        EXPECT_EQ(r->cost, 17.0);
      }
    }
  });
}

TEST(FindPathTest, DiagonalPolicyDecidesCornerMoves) {
  // From (0,1) to (1,0): the diagonal passes (0,0) (blocked) and (1,1).
  const GridMap map = Draw({"#.", ".."});
  SearchContext context;
  for (Algorithm a : kAllAlgorithms) {
    SCOPED_TRACE(AlgorithmName(a));
    absl::StatusOr<PathResult> never = FindPath(
        map, Query({0, 1}, {1, 0}, a, DiagonalPolicy::kNever), context);
    absl::StatusOr<PathResult> no_cut = FindPath(
        map, Query({0, 1}, {1, 0}, a, DiagonalPolicy::kNoCornerCutting),
        context);
    absl::StatusOr<PathResult> cut = FindPath(
        map, Query({0, 1}, {1, 0}, a, DiagonalPolicy::kAllowCornerCutting),
        context);
    ASSERT_OK(never);
    ASSERT_OK(no_cut);
    ASSERT_OK(cut);
    EXPECT_EQ(never->cost, 2);
    EXPECT_EQ(no_cut->cost, 2);
    EXPECT_NEAR(cut->cost, std::sqrt(2.0), 1e-12);
    EXPECT_EQ(cut->cells.size(), 2u);
  }
}

TEST(FindPathTest, OpenDiagonalCostsSqrtTwoUnderDiagonalPolicies) {
  const GridMap map = Draw({"....", "....", "....", "...."});
  SearchContext context;
  ForEachAlgorithmAndPolicy([&](Algorithm a, DiagonalPolicy p) {
    absl::StatusOr<PathResult> r =
        FindPath(map, Query({0, 0}, {3, 3}, a, p), context);
    ASSERT_OK(r);
    const double want = p == DiagonalPolicy::kNever ? 6 : 3 * std::sqrt(2.0);
    if (IsOptimal(a)) {
      EXPECT_NEAR(r->cost, want, 1e-12);
    }
  });
}

TEST(FindPathTest, TerrainMoveCostIsTheMeanOfBothCells) {
  const GridMap map = Draw({"13", "55"});
  SearchContext context;
  ForEachAlgorithmAndPolicy([&](Algorithm a, DiagonalPolicy p) {
    absl::StatusOr<PathResult> r =
        FindPath(map, Query({0, 0}, {1, 0}, a, p), context);
    ASSERT_OK(r);
    EXPECT_EQ(r->cost, 2.0);
    r = FindPath(map, Query({0, 0}, {1, 1}, a, p), context);
    ASSERT_OK(r);
    if (IsOptimal(a)) {
      // Straight (1+3)/2 + (3+5)/2 = 6 or (1+5)/2 + (5+5)/2 = 8; diagonal
      // sqrt(2) * (1+5)/2 = 4.24.
      EXPECT_NEAR(r->cost,
                  p == DiagonalPolicy::kNever ? 6.0 : 3 * std::sqrt(2.0),
                  1e-12);
    }
  });
}

TEST(FindPathTest, CostIsTheSameBothWays) {
  const GridMap map = MakeRandomMap({24, 17, 0.25, 9, false}, 99);
  SearchContext context;
  ForEachAlgorithmAndPolicy([&](Algorithm a, DiagonalPolicy p) {
    if (!IsOptimal(a)) return;
    int compared = 0;
    for (int i = 0; i < 20; ++i) {
      const Cell s{(i * 7) % 24, (i * 5) % 17},
          g{(i * 11 + 3) % 24, (i * 3 + 1) % 17};
      if (!map.Connected(s, g)) continue;
      ++compared;
      absl::StatusOr<PathResult> ab = FindPath(map, Query(s, g, a, p), context);
      absl::StatusOr<PathResult> ba = FindPath(map, Query(g, s, a, p), context);
      ASSERT_OK(ab);
      ASSERT_OK(ba);
      EXPECT_NEAR(ab->cost, ba->cost, 1e-9);
    }
    EXPECT_GT(compared, 5);
  });
}

TEST(FindPathTest, MaxExpansionsGivesPartialPathTowardTheGoal) {
  // A wall between the ends: jump point search (intermediate jump points
  // pruned) expands the start, the jump point at (5, 0) past the wall's end
  // and the goal; the cell-by-cell engines far more.
  const GridMap map = Draw({
      "..........",
      "....#.....",
      "....#.....",
      "....#.....",
      "....#.....",
      "..........",
  });
  SearchContext context;
  ForEachAlgorithmAndPolicy([&](Algorithm a, DiagonalPolicy p) {
    PathQuery q = Query({0, 2}, {9, 2}, a, p);
    q.budget.max_expansions = 2;
    absl::StatusOr<PathResult> r = FindPath(map, q, context);
    ASSERT_OK(r);
    EXPECT_TRUE(r->partial);
    EXPECT_EQ(r->partial_reason, PartialReason::kMaxExpansions);
    EXPECT_LE(r->expanded, 2u);
    EXPECT_EQ(CheckPath(map, *r, {0, 2}, {9, 2}, p, false), "");
    // The best cell reached lies closer to the goal than the start does
    // (Dijkstra, blind to the goal, may have expanded only cells as far).
    const Cell last = r->cells.back();
    const int distance = std::abs(9 - last.x) + std::abs(2 - last.y);
    if (a == Algorithm::kDijkstra) {
      EXPECT_LE(distance, 9);
    } else {
      EXPECT_LT(distance, 9);
    }
    // A budget that suffices gives a full path, with more than two
    // expansions (so the budget of two above did cut the search short).
    q.budget.max_expansions = 1000;
    r = FindPath(map, q, context);
    ASSERT_OK(r);
    EXPECT_FALSE(r->partial);
    EXPECT_GT(r->expanded, 2u);
    EXPECT_EQ(r->cells.back(), (Cell{9, 2}));
  });
}

TEST(FindPathTest, PassedDeadlineGivesPartialResult) {
  const GridMap map = MakeRandomMap({64, 64, 0.1, 1, false}, 5);
  SearchContext context;
  ForEachAlgorithmAndPolicy([&](Algorithm a, DiagonalPolicy p) {
    const auto [s, g] = testing::FarConnectedPair(map);
    ASSERT_GT(std::abs(s.x - g.x) + std::abs(s.y - g.y), 60);
    PathQuery q = Query(s, g, a, p);
    q.budget.deadline = absl::Now() - absl::Seconds(1);
    absl::StatusOr<PathResult> r = FindPath(map, q, context);
    ASSERT_OK(r);
    EXPECT_TRUE(r->partial);
    EXPECT_EQ(r->partial_reason, PartialReason::kDeadline);
    EXPECT_EQ(CheckPath(map, *r, s, g, p, false), "");
  });
}

TEST(FindPathTest, CancelledFlagGivesPartialResult) {
  const GridMap map = MakeRandomMap({64, 64, 0.1, 1, false}, 5);
  SearchContext context;
  ForEachAlgorithmAndPolicy([&](Algorithm a, DiagonalPolicy p) {
    const auto [s, g] = testing::FarConnectedPair(map);
    PathQuery q = Query(s, g, a, p);
    std::atomic<bool> cancelled{true};
    q.budget.cancelled = &cancelled;
    absl::StatusOr<PathResult> r = FindPath(map, q, context);
    ASSERT_OK(r);
    EXPECT_TRUE(r->partial);
    EXPECT_EQ(r->partial_reason, PartialReason::kCancelled);
    EXPECT_EQ(CheckPath(map, *r, s, g, p, false), "");
    // A flag that stays false changes nothing.
    cancelled = false;
    r = FindPath(map, q, context);
    ASSERT_OK(r);
    EXPECT_FALSE(r->partial);
    EXPECT_EQ(r->cells.back(), g);
  });
}

TEST(FindPathTest, SnapRadiusMovesBlockedOrOffMapEnds) {
  const GridMap map = Draw({
      "....",
      ".##.",
      ".##.",
      "....",
  });
  SearchContext context;
  ForEachAlgorithmAndPolicy([&](Algorithm a, DiagonalPolicy p) {
    PathQuery q = Query({1, 1}, {5, 3}, a, p);
    q.snap_radius = 2;
    absl::StatusOr<PathResult> r = FindPath(map, q, context);
    ASSERT_OK(r);
    EXPECT_TRUE(r->start_snapped);
    EXPECT_TRUE(r->goal_snapped);
    EXPECT_TRUE(map.Passable(r->start));
    EXPECT_EQ(r->goal, (Cell{3, 3}));
    EXPECT_EQ(r->cells.front(), r->start);
    EXPECT_EQ(r->cells.back(), r->goal);
    // Nearest to (1,1) at distance 1: (1,0) then (0,1) in scan order.
    EXPECT_EQ(r->start, (Cell{1, 0}));
  });
}

TEST(FindPathTest, SnapPrefersTheOtherEndsComponent) {
  // The goal (2,1) is blocked; (2,0) is nearer but sealed off from the start.
  const GridMap map = Draw({
      "..#.#",
      "..###",
      ".....",
  });
  SearchContext context;
  PathQuery q = Query({0, 2}, {3, 1}, Algorithm::kAStar,
                      DiagonalPolicy::kNoCornerCutting);
  q.snap_radius = 1;
  absl::StatusOr<PathResult> r = FindPath(map, q, context);
  ASSERT_OK(r);
  EXPECT_EQ(r->goal, (Cell{3, 2}));
}

TEST(FindPathTest, SnapWithNothingInRadiusIsInvalidArgument) {
  const GridMap map = Draw({"#####", "#####", "....."});
  SearchContext context;
  PathQuery q = Query({0, 2}, {2, 0}, Algorithm::kAStar,
                      DiagonalPolicy::kNoCornerCutting);
  q.snap_radius = 1;
  EXPECT_TRUE(
      StatusIs(FindPath(map, q, context), absl::StatusCode::kInvalidArgument,
               "goal: (2, 0) is blocked and no passable cell lies within "
               "snap_radius 1"));
  q.goal = {1000, 1000};
  q.snap_radius = 5;
  EXPECT_TRUE(StatusIs(FindPath(map, q, context),
                       absl::StatusCode::kInvalidArgument, "outside"));
}

TEST(FindPathTest, SnapRadiusOutOfRangeIsInvalidArgument) {
  const GridMap map = Draw({"..."});
  SearchContext context;
  PathQuery q = Query({0, 0}, {2, 0}, Algorithm::kAStar,
                      DiagonalPolicy::kNoCornerCutting);
  q.snap_radius = -1;
  EXPECT_TRUE(StatusIs(FindPath(map, q, context),
                       absl::StatusCode::kInvalidArgument, "snap_radius: -1"));
  q.snap_radius = kMaxSnapRadius + 1;
  EXPECT_TRUE(StatusIs(FindPath(map, q, context),
                       absl::StatusCode::kInvalidArgument, "snap_radius"));
}

TEST(FindPathTest, WeightOutOfRangeIsInvalidArgument) {
  const GridMap map = Draw({"..."});
  SearchContext context;
  for (double w : {0.99, -1.0, kMaxWeight * 2, std::nan("")}) {
    SCOPED_TRACE(w);
    PathQuery q = Query({0, 0}, {2, 0}, Algorithm::kWeighted,
                        DiagonalPolicy::kNoCornerCutting);
    q.weight = w;
    EXPECT_TRUE(StatusIs(FindPath(map, q, context),
                         absl::StatusCode::kInvalidArgument, "weight"));
  }
}

TEST(FindPathTest, UnknownEnumValuesAreInvalidArgument) {
  const GridMap map = Draw({"..."});
  SearchContext context;
  PathQuery q = Query({0, 0}, {2, 0}, static_cast<Algorithm>(77),
                      DiagonalPolicy::kNoCornerCutting);
  EXPECT_TRUE(StatusIs(FindPath(map, q, context),
                       absl::StatusCode::kInvalidArgument, "algorithm"));
  q.algorithm = Algorithm::kAStar;
  q.movement.diagonal = static_cast<DiagonalPolicy>(9);
  EXPECT_TRUE(StatusIs(FindPath(map, q, context),
                       absl::StatusCode::kInvalidArgument, "diagonal"));
}

TEST(FindPathTest, MapLargerThanContextCapacityIsResourceExhausted) {
  const GridMap map = MakeRandomMap({40, 40, 0, 1, false}, 1);
  SearchContext context(SearchContextOptions{.max_cells = 100});
  ForEachAlgorithmAndPolicy([&](Algorithm a, DiagonalPolicy p) {
    EXPECT_TRUE(StatusIs(FindPath(map, Query({0, 0}, {39, 39}, a, p), context),
                         absl::StatusCode::kResourceExhausted, "capacity"));
  });
  EXPECT_EQ(context.allocated_cells(), 0);
}

TEST(FindPathTest, GenerationWrapKeepsResultsExact) {
  const GridMap map = MakeRandomMap({30, 30, 0.3, 5, false}, 3);
  SearchContext context;
  ForEachAlgorithmAndPolicy([&](Algorithm a, DiagonalPolicy p) {
    // Fill the stamps with values of a "previous" generation near the wrap.
    context.SetGenerationForTesting(UINT32_MAX - 7);
    int searched = 0;
    for (int i = 0; i < 12; ++i) {
      const Cell s{i % 30, (i * 7) % 30}, g{29 - i, (i * 13) % 30};
      if (!map.Connected(s, g)) continue;
      ++searched;
      const std::vector<double> dist = testing::ReferenceDistances(map, s, p);
      absl::StatusOr<PathResult> r = FindPath(map, Query(s, g, a, p), context);
      ASSERT_OK(r);
      EXPECT_EQ(CheckPath(map, *r, s, g, p, true), "");
      const double want = testing::Distance(dist, map, g);
      if (IsOptimal(a)) {
        EXPECT_NEAR(r->cost, want, 1e-9);
      }
    }
    EXPECT_GT(searched, 3);
  });
}

TEST(FindPathTest, ContextIsReusedAcrossMapsOfDifferentSizes) {
  const GridMap big = MakeRandomMap({50, 50, 0.2, 1, false}, 11);
  const GridMap small = MakeRandomMap({7, 9, 0.2, 3, false}, 12);
  SearchContext context;
  ForEachAlgorithmAndPolicy([&](Algorithm a, DiagonalPolicy p) {
    for (const GridMap* map : {&big, &small, &big}) {
      const auto [s, g] = testing::FarConnectedPair(*map);
      ASSERT_TRUE(map->Connected(s, g));
      const std::vector<double> dist = testing::ReferenceDistances(*map, s, p);
      absl::StatusOr<PathResult> r = FindPath(*map, Query(s, g, a, p), context);
      ASSERT_OK(r);
      if (IsOptimal(a)) {
        EXPECT_NEAR(r->cost, testing::Distance(dist, *map, g), 1e-9);
      }
    }
  });
  EXPECT_EQ(context.allocated_cells(), 52 * 52);
  EXPECT_GT(context.MemoryBytes(), 52u * 52u * 16u);
}

TEST(FindPathTest, ResultReportsCounts) {
  const GridMap map = MakeRandomMap({20, 20, 0.1, 1, false}, 21);
  SearchContext context;
  ForEachAlgorithmAndPolicy([&](Algorithm a, DiagonalPolicy p) {
    const auto [s, g] = testing::FarConnectedPair(map);
    absl::StatusOr<PathResult> r = FindPath(map, Query(s, g, a, p), context);
    ASSERT_OK(r);
    EXPECT_GT(r->expanded, 0u);
    EXPECT_GE(r->generated, r->expanded);
    EXPECT_GE(r->micros, 0);
    EXPECT_EQ(r->start, s);
    EXPECT_EQ(r->goal, g);
  });
}

TEST(SmoothingTest, OpenMapSmoothsToOneSegment) {
  const GridMap map = MakeRandomMap({30, 20, 0, 1, false}, 1);
  SearchContext context;
  ForEachAlgorithmAndPolicy([&](Algorithm a, DiagonalPolicy p) {
    PathQuery q = Query({0, 0}, {29, 7}, a, p);
    q.smooth = true;
    absl::StatusOr<PathResult> r = FindPath(map, q, context);
    ASSERT_OK(r);
    ASSERT_EQ(r->waypoints.size(), 2u);
    EXPECT_NEAR(r->smoothed_cost, std::sqrt(29.0 * 29 + 7 * 7), 1e-9);
    EXPECT_LT(r->smoothed_cost, r->cost);
  });
}

TEST(SmoothingTest, SegmentsDoNotCutBlockedCorners) {
  // A 45-degree line from (0,0) to (2,2) passes the corners of (1,0)/(0,1)
  // and (2,1)/(1,2); with (1,0) blocked only corner cutting may take it.
  const GridMap map = Draw({".#.", "...", "..."});
  SearchContext context;
  for (DiagonalPolicy p : kAllDiagonalPolicies) {
    SCOPED_TRACE(DiagonalPolicyName(p));
    PathQuery q = Query({0, 0}, {2, 2}, Algorithm::kAStar, p);
    q.smooth = true;
    absl::StatusOr<PathResult> r = FindPath(map, q, context);
    ASSERT_OK(r);
    if (p == DiagonalPolicy::kAllowCornerCutting) {
      EXPECT_EQ(r->waypoints.size(), 2u);
    } else {
      EXPECT_GT(r->waypoints.size(), 2u);
    }
  }
}

TEST(SmoothingTest, DearTerrainIsNotShortcutThrough) {
  // A straight line through the 9s would be shorter but dearer than going
  // round on 1s.
  const GridMap map = Draw({
      "1111111",
      "1999991",
      "1999991",
      "1111111",
  });
  SearchContext context;
  PathQuery q = Query({0, 1}, {6, 2}, Algorithm::kAStar,
                      DiagonalPolicy::kNoCornerCutting);
  q.smooth = true;
  absl::StatusOr<PathResult> r = FindPath(map, q, context);
  ASSERT_OK(r);
  EXPECT_LE(r->smoothed_cost, r->cost + 1e-9);
  EXPECT_GT(r->waypoints.size(), 2u);
}

TEST(MoveCostTest, MatchesTheReference) {
  const GridMap map = MakeRandomMap({12, 12, 0.3, 9, false}, 4);
  for (DiagonalPolicy p : kAllDiagonalPolicies) {
    for (int y = -1; y <= 12; ++y) {
      for (int x = -1; x <= 12; ++x) {
        for (int dy = -2; dy <= 2; ++dy) {
          for (int dx = -2; dx <= 2; ++dx) {
            const Cell a{x, y}, b{x + dx, y + dy};
            EXPECT_DOUBLE_EQ(MoveCost(map, a, b, p),
                             testing::ReferenceMoveCost(map, a, b, p));
          }
        }
      }
    }
  }
}

}  // namespace
}  // namespace gridstar
