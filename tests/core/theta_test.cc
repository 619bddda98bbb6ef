// Theta* (Algorithm::kTheta): on seeded random maps of every policy, uniform
// and of mixed costs, its answers are checked against brute force and an
// independent segment check: a path whenever one exists; cells legal, ending
// at the goal, their cost reported; every waypoint segment clear under the
// policy's corner rule; smoothed_cost the true any-angle cost; and never above
// the optimal grid path's cost. Its cost against A* + smooth is measured
// (printed) with FindPath's grid check off (Theta* alone) and checked never
// to be above it with the check on. Edge cases by name; the trace of every
// algorithm.
#include "engines/theta/theta.h"

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <memory>
#include <random>
#include <string>
#include <vector>

#include "absl/strings/str_cat.h"
#include "gridstar/engines/alt.h"
#include "gridstar/engines/hpa.h"
#include "gridstar/engines/jps.h"
#include "gridstar/find_path.h"
#include "gridstar/grid_map.h"
#include "gridstar/search_context.h"
#include "gtest/gtest.h"
#include "testing/drawn_maps.h"
#include "testing/reference.h"
#include "testing/status_matchers.h"

namespace gridstar {
namespace {

using testing::MakeRandomMap;
using testing::RandomMapSpec;
using testing::ReferenceSegmentCost;

// What is wrong with a Theta* answer from start to goal, or "".
std::string CheckAnyAngle(const GridMap& map, const PathResult& r, Cell start,
                          Cell goal, DiagonalPolicy policy, bool expect_goal) {
  std::string cells = testing::CheckPath(map, r, start, goal, policy,
                                         expect_goal);
  if (!cells.empty()) return "cells: " + cells;
  if (r.waypoints.empty()) return "no waypoints";
  if (r.waypoints.front() != start) return "waypoints do not begin at start";
  if (r.waypoints.back() != r.cells.back()) {
    return "waypoints do not end where the cells do";
  }
  double total = 0;
  for (size_t i = 1; i < r.waypoints.size(); ++i) {
    const double c =
        ReferenceSegmentCost(map, r.waypoints[i - 1], r.waypoints[i], policy);
    if (c < 0) {
      return absl::StrCat("segment ", i, " (", r.waypoints[i - 1].x, ",",
                          r.waypoints[i - 1].y, ")->(", r.waypoints[i].x, ",",
                          r.waypoints[i].y, ") is blocked");
    }
    total += c;
  }
  if (std::fabs(total - r.smoothed_cost) > 1e-9 * (1 + total)) {
    return absl::StrCat("smoothed_cost ", r.smoothed_cost,
                        " but the segments cost ", total);
  }
  return "";
}

struct MapCase {
  const char* name;
  RandomMapSpec spec;
};

const MapCase kMaps[] = {
    {"open 48x40", {48, 40, 0.1, 1, false, 1}},
    {"cluttered 40x40", {40, 40, 0.3, 1, false, 1}},
    {"maze 31x33", {31, 33, 0.0, 1, true, 1}},
    {"terrain 40x36", {40, 36, 0.15, 9, false, 1}},
    {"terrain from 3 30x30", {30, 30, 0.2, 7, false, 3}},
    {"thin 70x2", {70, 2, 0.1, 1, false, 1}},
};

// Runs the rest of a test with FindPath's check of Theta* against the
// string-pulled grid path off, to measure Theta* alone.
class ThetaAlone {
 public:
  ThetaAlone() { internal::SetThetaGridCheckForTesting(false); }
  ~ThetaAlone() { internal::SetThetaGridCheckForTesting(true); }
};

TEST(ThetaTest, PathsAreClearCompleteAndNoCostlierThanOptimalGridPaths) {
  SearchContext context;
  for (const bool alone : {true, false}) {
  std::unique_ptr<ThetaAlone> theta_alone;
  if (alone) theta_alone = std::make_unique<ThetaAlone>();
  for (const MapCase& m : kMaps) {
    for (DiagonalPolicy policy : kAllDiagonalPolicies) {
      double ratio_sum = 0, ratio_max = 0;
      int paths = 0, above_smoothed = 0;
      for (uint32_t seed = 1; seed <= 4; ++seed) {
        SCOPED_TRACE(absl::StrCat(m.name, " ", DiagonalPolicyName(policy),
                                  " seed ", seed));
        const GridMap map = MakeRandomMap(m.spec, seed);
        std::mt19937 rng(seed * 104729);
        for (int q = 0; q < 20; ++q) {
          const Cell start{static_cast<int32_t>(rng() % m.spec.width),
                           static_cast<int32_t>(rng() % m.spec.height)};
          const Cell goal{static_cast<int32_t>(rng() % m.spec.width),
                          static_cast<int32_t>(rng() % m.spec.height)};
          if (!map.Passable(start) || !map.Passable(goal)) continue;
          SCOPED_TRACE(absl::StrCat("(", start.x, ",", start.y, ")->(", goal.x,
                                    ",", goal.y, ")"));
          const double optimal = testing::Distance(
              testing::ReferenceDistances(map, start, policy), map, goal);
          PathQuery query;
          query.start = start;
          query.goal = goal;
          query.algorithm = Algorithm::kTheta;
          query.movement.diagonal = policy;
          absl::StatusOr<PathResult> r = FindPath(map, query, context);
          if (optimal == testing::kUnreachable) {
            EXPECT_TRUE(testing::StatusIs(r, absl::StatusCode::kNotFound,
                                          "no path"));
            continue;
          }
          ASSERT_OK(r);
          EXPECT_EQ(r->algorithm, Algorithm::kTheta);
          EXPECT_FALSE(r->partial);
          EXPECT_EQ(CheckAnyAngle(map, *r, start, goal, policy, true), "");
          EXPECT_LE(r->smoothed_cost, optimal + 1e-9 * (1 + optimal));
          // A* + smooth, for the comparison.
          query.algorithm = Algorithm::kAStar;
          query.smooth = true;
          absl::StatusOr<PathResult> smoothed = FindPath(map, query, context);
          ASSERT_OK(smoothed);
          if (smoothed->smoothed_cost > 0) {
            const double ratio = r->smoothed_cost / smoothed->smoothed_cost;
            ratio_sum += ratio;
            ratio_max = std::max(ratio_max, ratio);
            ++paths;
            if (r->smoothed_cost >
                smoothed->smoothed_cost + 1e-9 * (1 + r->smoothed_cost)) {
              ++above_smoothed;
            }
          }
        }
      }
      std::printf("[%s] %-22s %-21s theta/(astar+smooth) mean %.4f max "
                  "%.4f above %d of %d\n",
                  alone ? "theta alone" : "theta", m.name,
                  std::string(DiagonalPolicyName(policy)).c_str(),
                  paths ? ratio_sum / paths : 0.0, ratio_max, above_smoothed,
                  paths);
      // With the check (the product), never above A* + smooth.
      if (!alone) {
        EXPECT_EQ(above_smoothed, 0) << m.name << " "
                                     << DiagonalPolicyName(policy);
      }
    }
  }
  }
}

TEST(ThetaTest, OpenMapGivesOneStraightSegment) {
  const GridMap map = testing::Draw({
      "..........",
      "..........",
      "..........",
      "..........",
  });
  SearchContext context;
  PathQuery query;
  query.start = {0, 0};
  query.goal = {9, 3};
  query.algorithm = Algorithm::kTheta;
  absl::StatusOr<PathResult> r = FindPath(map, query, context);
  ASSERT_OK(r);
  ASSERT_EQ(r->waypoints.size(), 2u);
  EXPECT_NEAR(r->smoothed_cost, std::hypot(9.0, 3.0), 1e-9);
  EXPECT_EQ(CheckAnyAngle(map, *r, query.start, query.goal,
                          query.movement.diagonal, true),
            "");
}

TEST(ThetaTest, StartEqualsGoal) {
  const GridMap map = testing::Draw({"...", "..."});
  SearchContext context;
  PathQuery query;
  query.start = query.goal = {1, 1};
  query.algorithm = Algorithm::kTheta;
  query.trace = true;
  absl::StatusOr<PathResult> r = FindPath(map, query, context);
  ASSERT_OK(r);
  EXPECT_EQ(r->cells, (std::vector<Cell>{Cell{1, 1}}));
  EXPECT_EQ(r->waypoints, (std::vector<Cell>{Cell{1, 1}}));
  EXPECT_EQ(r->smoothed_cost, 0);
  EXPECT_TRUE(r->trace.empty());
}

// A segment through the corner between two diagonal walls: allowed only when
// corners may be cut; the cells of a segment through a corner get a side cell
// under kNever (whose cells move straight only).
TEST(ThetaTest, CornerRulesPerPolicy) {
  const GridMap squeeze = testing::Draw({
      "...",
      ".#.",
      "...",
  });
  SearchContext context;
  for (DiagonalPolicy policy : kAllDiagonalPolicies) {
    SCOPED_TRACE(DiagonalPolicyName(policy));
    PathQuery query;
    query.start = {0, 0};
    query.goal = {2, 2};
    query.algorithm = Algorithm::kTheta;
    query.movement.diagonal = policy;
    absl::StatusOr<PathResult> r = FindPath(squeeze, query, context);
    ASSERT_OK(r);
    EXPECT_EQ(CheckAnyAngle(squeeze, *r, query.start, query.goal, policy, true),
              "");
    // Round the wall: along two sides (4), or cutting its corners past the
    // wall (1 + sqrt 2 + 1).
    const bool cut = policy == DiagonalPolicy::kAllowCornerCutting;
    EXPECT_NEAR(r->smoothed_cost, cut ? 2 + std::sqrt(2.0) : 4.0, 1e-9);
  }
  const GridMap open = testing::Draw({"....", "....", "....", "...."});
  for (DiagonalPolicy policy : kAllDiagonalPolicies) {
    SCOPED_TRACE(DiagonalPolicyName(policy));
    PathQuery query;
    query.start = {0, 0};
    query.goal = {3, 3};
    query.algorithm = Algorithm::kTheta;
    query.movement.diagonal = policy;
    absl::StatusOr<PathResult> r = FindPath(open, query, context);
    ASSERT_OK(r);
    EXPECT_EQ(r->waypoints.size(), 2u);
    EXPECT_NEAR(r->smoothed_cost, 3 * std::sqrt(2.0), 1e-9);
    EXPECT_EQ(CheckAnyAngle(open, *r, query.start, query.goal, policy, true),
              "");
    // Three corners crossed: under kNever each gets a side cell.
    EXPECT_EQ(r->cells.size(), policy == DiagonalPolicy::kNever ? 7u : 4u);
  }
}

TEST(ThetaTest, DiagonalWallsBlockUnlessCornersMayBeCut) {
  const GridMap map = testing::Draw({
      ".#",
      "#.",
  });
  SearchContext context;
  PathQuery query;
  query.start = {0, 0};
  query.goal = {1, 1};
  query.algorithm = Algorithm::kTheta;
  for (DiagonalPolicy policy : kAllDiagonalPolicies) {
    SCOPED_TRACE(DiagonalPolicyName(policy));
    query.movement.diagonal = policy;
    // Both sides blocked: no policy passes.
    EXPECT_TRUE(testing::StatusIs(FindPath(map, query, context),
                                  absl::StatusCode::kNotFound, "no path"));
  }
  const GridMap one_side = testing::Draw({
      "..#",
      "#..",
  });
  query.goal = {2, 1};
  query.movement.diagonal = DiagonalPolicy::kAllowCornerCutting;
  absl::StatusOr<PathResult> r = FindPath(one_side, query, context);
  ASSERT_OK(r);
  EXPECT_EQ(CheckAnyAngle(one_side, *r, query.start, query.goal,
                          query.movement.diagonal, true),
            "");
  EXPECT_NEAR(r->smoothed_cost, std::hypot(2.0, 1.0), 1e-9);
  query.movement.diagonal = DiagonalPolicy::kNoCornerCutting;
  r = FindPath(one_side, query, context);
  ASSERT_OK(r);
  EXPECT_EQ(CheckAnyAngle(one_side, *r, query.start, query.goal,
                          query.movement.diagonal, true),
            "");
  EXPECT_GT(r->smoothed_cost, std::hypot(2.0, 1.0) + 0.1);
}

// An expensive band is crossed where that is cheaper than going round and
// avoided where it is not: the any-angle cost counts each cell's stretch.
TEST(ThetaTest, TerrainCostsCountPerCellStretch) {
  std::vector<uint8_t> costs(20 * 9, 1);
  for (int y = 0; y < 8; ++y) costs[y * 20 + 10] = 50;  // A costly column.
  const GridMap map = *GridMap::FromCosts(20, 9, costs);
  SearchContext context;
  PathQuery query;
  query.start = {2, 2};
  query.goal = {17, 2};
  query.algorithm = Algorithm::kTheta;
  absl::StatusOr<PathResult> r = FindPath(map, query, context);
  ASSERT_OK(r);
  EXPECT_EQ(CheckAnyAngle(map, *r, query.start, query.goal,
                          query.movement.diagonal, true),
            "");
  // Through the band costs 49 more than the straight line; round its end
  // (row 8) costs far less.
  for (const Cell& c : r->cells) EXPECT_NE(map.cost(c), 50) << c.x << "," << c.y;
}

TEST(ThetaTest, OutOfBudgetReturnsAPartialClearPath) {
  const GridMap map = MakeRandomMap({60, 60, 0.25, 1, false, 1}, 7);
  const auto [start, goal] = testing::FarConnectedPair(map);
  SearchContext context;
  PathQuery query;
  query.start = start;
  query.goal = goal;
  query.algorithm = Algorithm::kTheta;
  query.budget.max_expansions = 40;
  absl::StatusOr<PathResult> r = FindPath(map, query, context);
  ASSERT_OK(r);
  EXPECT_TRUE(r->partial);
  EXPECT_EQ(r->partial_reason, PartialReason::kMaxExpansions);
  EXPECT_EQ(r->expanded, 40u);
  EXPECT_EQ(CheckAnyAngle(map, *r, start, goal, query.movement.diagonal, false),
            "");
}

// Trace: off, nothing; on, the expanded cells in order (as many as
// `expanded`, where each expansion is one cell), starting at the start and,
// for the searches that stop on expanding the goal, ending at it; the path
// the same as untraced.
TEST(TraceTest, EveryAlgorithmTracesItsExpansions) {
  GridMap map = MakeRandomMap({50, 40, 0.2, 1, false, 1}, 3);
  ASSERT_OK(BuildJumpTable(&map));
  ASSERT_OK(BuildLandmarks(&map, 4, DiagonalPolicy::kNoCornerCutting));
  ASSERT_OK(BuildHpa(&map, DiagonalPolicy::kNoCornerCutting));
  const auto [start, goal] = testing::FarConnectedPair(map);
  SearchContext context;
  for (Algorithm a : kAllAlgorithms) {
    SCOPED_TRACE(AlgorithmName(a));
    PathQuery query;
    query.start = start;
    query.goal = goal;
    query.algorithm = a;
    absl::StatusOr<PathResult> plain = FindPath(map, query, context);
    ASSERT_OK(plain);
    EXPECT_TRUE(plain->trace.empty());
    query.trace = true;
    absl::StatusOr<PathResult> traced = FindPath(map, query, context);
    ASSERT_OK(traced);
    EXPECT_EQ(traced->cells, plain->cells);
    ASSERT_FALSE(traced->trace.empty());
    for (const Cell& c : traced->trace) EXPECT_TRUE(map.Passable(c));
    EXPECT_EQ(traced->trace.front(), start);
    if (traced->algorithm == Algorithm::kHpa ||
        traced->algorithm == Algorithm::kBidirectional) {
      continue;  // Entrances; or two searches meeting in the middle.
    }
    EXPECT_EQ(traced->trace.back(), goal);
    if (a == Algorithm::kTheta) {
      // `expanded` also counts the A* search of FindPath's grid check.
      EXPECT_LT(traced->trace.size(), traced->expanded);
    } else {
      EXPECT_EQ(traced->trace.size(), traced->expanded);
    }
  }
}

}  // namespace
}  // namespace gridstar
