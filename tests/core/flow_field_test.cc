// Flow fields against the brute-force Dijkstra on seeded random maps, every
// policy and terrain, plus one named test per edge case.

#include "gridstar/flow_field.h"

#include <cmath>
#include <limits>
#include <random>
#include <string>
#include <vector>

#include "absl/strings/str_cat.h"
#include "absl/time/clock.h"
#include "gridstar/engines/alt.h"
#include "gridstar/find_path.h"
#include "gtest/gtest.h"
#include "testing/reference.h"
#include "testing/status_matchers.h"

namespace gridstar {
namespace {

using testing::CheckPath;
using testing::kUnreachable;
using testing::MakeRandomMap;
using testing::RandomMapSpec;
using testing::ReferenceDistances;
using testing::StatusIs;

// Every cell's cost equals the reference distance to the goal, every
// direction is a legal move down the field, and the path from every reached
// cell is legal with the field's cost.
TEST(FlowFieldTest, MatchesBruteForceOnRandomMaps) {
  std::mt19937 rng(424242);
  SearchContext context;
  int fields = 0, cells_checked = 0, bounded = 0;
  for (int m = 0; m < 150; ++m) {
    RandomMapSpec spec;
    std::uniform_int_distribution<int> side(1, 48);
    spec.width = side(rng);
    spec.height = side(rng);
    const int costs[] = {1, 3, 9, 255};
    spec.max_cost = costs[m % 4];
    spec.blocked = (m % 5) * 0.1;
    spec.corridors = m % 7 == 0;
    const GridMap map = MakeRandomMap(spec, static_cast<uint32_t>(rng()));
    std::uniform_int_distribution<int> rx(0, map.width() - 1);
    std::uniform_int_distribution<int> ry(0, map.height() - 1);
    const Cell goal{rx(rng), ry(rng)};
    if (!map.Passable(goal)) continue;
    for (DiagonalPolicy policy : kAllDiagonalPolicies) {
      const std::vector<double> want = ReferenceDistances(map, goal, policy);
      FlowFieldQuery q;
      q.goal = goal;
      q.movement.diagonal = policy;
      // Every third field is bounded at half its farthest cell.
      double farthest = 0;
      for (double d : want) {
        if (d != kUnreachable) farthest = std::max(farthest, d);
      }
      if (m % 3 == 0 && farthest > 0) {
        q.max_cost = farthest / 2;
        ++bounded;
      }
      SCOPED_TRACE(absl::StrCat("map ", m, " (", map.width(), "x", map.height(),
                                ") ", DiagonalPolicyName(policy), " goal (",
                                goal.x, ",", goal.y, ") max_cost ",
                                q.max_cost));
      absl::StatusOr<FlowField> f = ComputeFlowField(map, q, context);
      ASSERT_OK(f);
      EXPECT_TRUE(f->complete());
      EXPECT_EQ(f->Direction(goal), FlowField::kAtGoal);
      EXPECT_EQ(f->CostToGoal(goal), 0);
      int64_t reached = 0;
      for (int32_t y = 0; y < map.height(); ++y) {
        for (int32_t x = 0; x < map.width(); ++x) {
          const Cell c{x, y};
          const double w = want[static_cast<size_t>(y) * map.width() + x];
          const bool expect_reached =
              w != kUnreachable && (q.max_cost == 0 || w <= q.max_cost);
          // Cells within a hair of the bound may fall either side.
          if (q.max_cost > 0 && w != kUnreachable &&
              std::abs(w - q.max_cost) < 1e-9 * (1 + w)) {
            continue;
          }
          ASSERT_EQ(f->Direction(c) != FlowField::kUnreached, expect_reached)
              << "(" << x << "," << y << ")";
          if (!expect_reached) {
            EXPECT_TRUE(std::isinf(f->CostToGoal(c)));
            continue;
          }
          ++reached;
          EXPECT_NEAR(f->CostToGoal(c), w, 1e-9 * (1 + w));
          if (c == goal) continue;
          const uint8_t d = f->Direction(c);
          ASSERT_LT(d, 8);
          const Cell next{x + kMoveDx[d], y + kMoveDy[d]};
          const double step = MoveCost(map, c, next, policy);
          ASSERT_GT(step, 0) << "illegal move from (" << x << "," << y << ")";
          EXPECT_NEAR(f->CostToGoal(c), step + f->CostToGoal(next),
                      1e-9 * (1 + w));
          std::vector<Cell> cells;
          double cost = 0;
          ASSERT_OK(f->PathFrom(c, &cells, &cost));
          PathResult as_result;
          as_result.cells = cells;
          as_result.cost = cost;
          EXPECT_EQ(CheckPath(map, as_result, c, goal, policy, true), "");
          EXPECT_NEAR(PathCost(map, cells, policy), cost, 1e-9 * (1 + cost));
          ++cells_checked;
        }
      }
      EXPECT_LE(reached, f->reached());
      ++fields;
    }
  }
  EXPECT_GT(fields, 200);
  EXPECT_GT(bounded, 50);
  EXPECT_GT(cells_checked, 20000);
}

TEST(FlowFieldTest, BlockedGoalIsInvalidArgumentNamingGoal) {
  const GridMap map = MakeRandomMap({4, 4, 0, 1, false}, 1);
  std::vector<uint8_t> costs = map.CopyCosts();
  costs[5] = 0;
  const GridMap blocked = *GridMap::FromCosts(4, 4, costs);
  SearchContext context;
  for (DiagonalPolicy p : kAllDiagonalPolicies) {
    FlowFieldQuery q;
    q.goal = {1, 1};
    q.movement.diagonal = p;
    EXPECT_TRUE(StatusIs(ComputeFlowField(blocked, q, context),
                         absl::StatusCode::kInvalidArgument,
                         "goal: (1, 1) is blocked"));
    q.goal = {4, 0};
    EXPECT_TRUE(StatusIs(ComputeFlowField(blocked, q, context),
                         absl::StatusCode::kInvalidArgument,
                         "goal: (4, 0) is outside the 4 x 4 map"));
  }
}

TEST(FlowFieldTest, NegativeOrNanMaxCostIsInvalidArgument) {
  const GridMap map = MakeRandomMap({4, 4, 0, 1, false}, 1);
  SearchContext context;
  for (double bad :
       {-1.0, std::nan(""), std::numeric_limits<double>::infinity()}) {
    FlowFieldQuery q;
    q.max_cost = bad;
    EXPECT_TRUE(StatusIs(ComputeFlowField(map, q, context),
                         absl::StatusCode::kInvalidArgument, "max_cost"));
  }
}

TEST(FlowFieldTest, UnknownPolicyIsInvalidArgument) {
  const GridMap map = MakeRandomMap({4, 4, 0, 1, false}, 1);
  SearchContext context;
  FlowFieldQuery q;
  q.movement.diagonal = static_cast<DiagonalPolicy>(9);
  EXPECT_TRUE(StatusIs(ComputeFlowField(map, q, context),
                       absl::StatusCode::kInvalidArgument, "diagonal"));
}

TEST(FlowFieldTest, OneCellMapHoldsOnlyTheGoal) {
  const GridMap map = MakeRandomMap({1, 1, 0, 1, false}, 1);
  SearchContext context;
  absl::StatusOr<FlowField> f = ComputeFlowField(map, {}, context);
  ASSERT_OK(f);
  EXPECT_EQ(f->reached(), 1);
  std::vector<Cell> cells;
  double cost = -1;
  ASSERT_OK(f->PathFrom({0, 0}, &cells, &cost));
  EXPECT_EQ(cells.size(), 1u);
  EXPECT_EQ(cost, 0);
}

TEST(FlowFieldTest, PathFromOffMapOrUnreachedCell) {
  // Two rooms split by a wall: the right one is never reached.
  std::vector<uint8_t> costs(5 * 3, 1);
  for (int y = 0; y < 3; ++y) costs[static_cast<size_t>(y) * 5 + 2] = 0;
  const GridMap map = *GridMap::FromCosts(5, 3, costs);
  SearchContext context;
  absl::StatusOr<FlowField> f = ComputeFlowField(map, {}, context);
  ASSERT_OK(f);
  std::vector<Cell> cells;
  double cost;
  EXPECT_TRUE(StatusIs(f->PathFrom({-1, 0}, &cells, &cost),
                       absl::StatusCode::kInvalidArgument, "start"));
  EXPECT_TRUE(StatusIs(f->PathFrom({4, 1}, &cells, &cost),
                       absl::StatusCode::kNotFound, "no path"));
  EXPECT_TRUE(StatusIs(f->PathFrom({2, 1}, &cells, &cost),
                       absl::StatusCode::kNotFound, "no path"));
  EXPECT_EQ(f->reached(), 6);
}

TEST(FlowFieldTest, PassedDeadlineGivesAnIncompleteExactField) {
  const GridMap map = MakeRandomMap({200, 200, 0.1, 5, false}, 3);
  SearchContext context;
  FlowFieldQuery q;
  q.goal = {100, 100};
  while (!map.Passable(q.goal)) ++q.goal.x;
  q.budget.deadline = absl::Now() - absl::Seconds(1);
  absl::StatusOr<FlowField> f = ComputeFlowField(map, q, context);
  ASSERT_OK(f);
  EXPECT_FALSE(f->complete());
  EXPECT_EQ(f->stop_reason(), PartialReason::kDeadline);
  EXPECT_GE(f->reached(), 1);
  EXPECT_LT(f->reached(), map.passable_count());
  // What was reached is exact.
  const std::vector<double> want = ReferenceDistances(map, q.goal, q.movement.diagonal);
  for (int32_t y = 0; y < 200; ++y) {
    for (int32_t x = 0; x < 200; ++x) {
      if (f->Direction({x, y}) == FlowField::kUnreached) continue;
      const double w = want[static_cast<size_t>(y) * 200 + x];
      EXPECT_NEAR(f->CostToGoal({x, y}), w, 1e-9 * (1 + w));
    }
  }
}

TEST(FlowFieldTest, MapOverContextCapacityIsResourceExhausted) {
  const GridMap map = MakeRandomMap({30, 30, 0, 1, false}, 1);
  SearchContextOptions small;
  small.max_cells = 100;
  SearchContext context(small);
  EXPECT_TRUE(StatusIs(ComputeFlowField(map, {}, context),
                       absl::StatusCode::kResourceExhausted, "capacity"));
}

TEST(LandmarksTest, CountOutOfRangeIsInvalidArgument) {
  GridMap map = MakeRandomMap({8, 8, 0, 3, false}, 1);
  for (int bad : {0, -1, kMaxLandmarks + 1}) {
    EXPECT_TRUE(StatusIs(BuildLandmarks(&map, bad, DiagonalPolicy::kNever),
                         absl::StatusCode::kInvalidArgument, "landmarks"));
  }
  EXPECT_EQ(LandmarkCount(map), 0);
}

TEST(LandmarksTest, MapWithoutPassableCellsIsFailedPrecondition) {
  GridMap map = *GridMap::FromCosts(3, 3, std::vector<uint8_t>(9, 0));
  EXPECT_TRUE(StatusIs(BuildLandmarks(&map, 2, DiagonalPolicy::kNever),
                       absl::StatusCode::kFailedPrecondition, "landmarks"));
}

TEST(LandmarksTest, LandmarksLieFarApartAndReportMemory) {
  // An open 40 x 10 field: the first two landmarks are its far ends.
  GridMap map = MakeRandomMap({40, 10, 0, 2, false}, 9);
  ASSERT_OK(BuildLandmarks(&map, 2, DiagonalPolicy::kNoCornerCutting));
  ASSERT_EQ(LandmarkCells(map).size(), 2u);
  EXPECT_GE(std::abs(LandmarkCells(map)[0].x - LandmarkCells(map)[1].x), 35);
  EXPECT_EQ(LandmarkBytes(map), map.padded_size() * 2 * sizeof(double));
  EXPECT_GE(map.MemoryBytes(), LandmarkBytes(map));
}

TEST(LandmarksTest, OtherPolicyOrComponentFallsBackToAStar) {
  // Two rooms; landmarks land in the larger (left) one.
  std::vector<uint8_t> costs(9 * 3, 2);
  for (int y = 0; y < 3; ++y) costs[static_cast<size_t>(y) * 9 + 6] = 0;
  GridMap map = *GridMap::FromCosts(9, 3, costs);
  ASSERT_OK(BuildLandmarks(&map, 3, DiagonalPolicy::kNever));
  SearchContext context;
  PathQuery q;
  q.algorithm = Algorithm::kAlt;
  q.start = {0, 0};
  q.goal = {5, 2};
  q.movement.diagonal = DiagonalPolicy::kNever;
  EXPECT_EQ(FindPath(map, q, context)->algorithm, Algorithm::kAlt);
  q.movement.diagonal = DiagonalPolicy::kAllowCornerCutting;
  EXPECT_EQ(FindPath(map, q, context)->algorithm, Algorithm::kAStar);
  q.movement.diagonal = DiagonalPolicy::kNever;
  q.start = {7, 0};
  q.goal = {8, 2};
  absl::StatusOr<PathResult> r = FindPath(map, q, context);
  ASSERT_OK(r);
  EXPECT_EQ(r->algorithm, Algorithm::kAStar);
  EXPECT_EQ(r->cost, 6);
}

}  // namespace
}  // namespace gridstar
