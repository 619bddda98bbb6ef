// Property tests: every algorithm x every diagonal policy against a
// brute-force Dijkstra, on 1,200 seeded random maps of mixed size, density
// and terrain, including unreachable pairs, start == goal, blocked ends,
// one-cell-wide corridors and 1 x N maps.

#include <random>
#include <string>
#include <vector>

#include "absl/strings/str_cat.h"
#include "engines/alt/landmarks.h"
#include "gridstar/engines/alt.h"
#include "gridstar/engines/jps.h"
#include "gridstar/find_path.h"
#include "gtest/gtest.h"
#include "testing/reference.h"
#include "testing/status_matchers.h"

namespace gridstar {
namespace {

using testing::CheckPath;
using testing::Distance;
using testing::kUnreachable;
using testing::MakeRandomMap;
using testing::RandomMapSpec;
using testing::ReferenceDistances;

constexpr int kMaps = 1200;

RandomMapSpec SpecForSeed(std::mt19937& rng, int index) {
  RandomMapSpec spec;
  const int shape = index % 10;
  std::uniform_int_distribution<int> side(1, 40);
  spec.width = side(rng);
  spec.height = side(rng);
  if (shape == 0) spec.height = 1;  // 1 x N
  if (shape == 1) spec.width = 1;   // N x 1
  const double densities[] = {0.0, 0.1, 0.25, 0.35, 0.45};
  spec.blocked = densities[rng() % 5];
  const int costs[] = {1, 1, 3, 9, 255};
  spec.max_cost = costs[rng() % 5];
  spec.corridors = shape == 2 || shape == 3;
  return spec;
}

struct AlgorithmCase {
  Algorithm algorithm;
  double weight;
};

constexpr AlgorithmCase kAlgorithms[] = {
    {Algorithm::kAStar, 1},    {Algorithm::kWeighted, 1.5},
    {Algorithm::kWeighted, 4}, {Algorithm::kDijkstra, 1},
    {Algorithm::kBaseline, 1}, {Algorithm::kJps, 1},
    {Algorithm::kJpsPlus, 1},  {Algorithm::kAuto, 1},
    {Algorithm::kAlt, 1},      {Algorithm::kBidirectional, 1},
};

// The engine FindPath must run, written from the documented rules: jump
// point search only on uniform-cost maps under no corner cutting, jps+ only
// with a jump table.
Algorithm ExpectedEngine(const GridMap& map, Algorithm asked,
                         DiagonalPolicy policy) {
  // Landmarks serve when built for this policy; the tests ask only for goals
  // in the landmarks' component.
  const bool landmarks =
      LandmarkCount(map) > 0 && LandmarkPolicy(map) == policy;
  switch (asked) {
    case Algorithm::kJps:
    case Algorithm::kJpsPlus:
    case Algorithm::kAuto:
      if (map.uniform_cost() && policy == DiagonalPolicy::kNoCornerCutting) {
        return asked != Algorithm::kJps && HasJumpTable(map)
                   ? Algorithm::kJpsPlus
                   : Algorithm::kJps;
      }
      if (asked == Algorithm::kAuto && landmarks) return Algorithm::kAlt;
      return Algorithm::kAStar;
    case Algorithm::kAlt:
      return landmarks ? Algorithm::kAlt : Algorithm::kAStar;
    default:
      return asked;
  }
}

TEST(PropertyTest, EveryAlgorithmMatchesBruteForceDijkstra) {
  std::mt19937 rng(20261202);
  SearchContext context;  // One context for all: exercises reuse across maps.
  int searched = 0, unreachable = 0, invalid = 0, same = 0;
  for (int m = 0; m < kMaps; ++m) {
    const RandomMapSpec spec = SpecForSeed(rng, m);
    GridMap map = MakeRandomMap(spec, static_cast<uint32_t>(rng()));
    // Every other uniform map gets a jump table, so that jps+ and auto run
    // both with and without one.
    if (map.uniform_cost() && m % 2 == 0) {
      ASSERT_OK(BuildJumpTable(&map));
    }
    // Two maps in three get 1 to 4 landmarks for one of the policies.
    const bool with_landmarks = m % 3 != 0 && map.passable_count() > 0;
    if (with_landmarks) {
      ASSERT_OK(
          BuildLandmarks(&map, 1 + m % 4, kAllDiagonalPolicies[(m / 3) % 3]));
    }
    std::uniform_int_distribution<int> rx(0, map.width() - 1);
    std::uniform_int_distribution<int> ry(0, map.height() - 1);
    for (DiagonalPolicy policy : kAllDiagonalPolicies) {
      for (int pair = 0; pair < 4; ++pair) {
        // Any cell, passable or not; pair 3 asks start == goal.
        const Cell start{rx(rng), ry(rng)};
        const Cell goal = pair == 3 ? start : Cell{rx(rng), ry(rng)};
        const std::vector<double> dist = ReferenceDistances(map, start, policy);
        const double want = map.Passable(start) && map.Passable(goal)
                                ? Distance(dist, map, goal)
                                : -1;
        for (const AlgorithmCase& a : kAlgorithms) {
          SCOPED_TRACE(absl::StrCat(
              "map ", m, " (", map.width(), "x", map.height(), ", blocked ",
              spec.blocked, ", max cost ", spec.max_cost, ", corridors ",
              spec.corridors, ") ", AlgorithmName(a.algorithm), " w=", a.weight,
              " ", DiagonalPolicyName(policy), " (", start.x, ",", start.y,
              ")->(", goal.x, ",", goal.y, ")"));
          PathQuery q;
          q.start = start;
          q.goal = goal;
          q.algorithm = a.algorithm;
          q.weight = a.weight;
          q.movement.diagonal = policy;
          absl::StatusOr<PathResult> r = FindPath(map, q, context);
          if (want < 0) {
            EXPECT_TRUE(
                testing::StatusIs(r, absl::StatusCode::kInvalidArgument,
                                  map.Passable(start) ? "goal" : "start"));
            ++invalid;
            continue;
          }
          if (want == kUnreachable) {
            EXPECT_TRUE(
                testing::StatusIs(r, absl::StatusCode::kNotFound, "no path"));
            ++unreachable;
            continue;
          }
          ASSERT_OK(r);
          EXPECT_FALSE(r->partial);
          // Landmarks cover only their component: elsewhere A* runs.
          if (!with_landmarks || internal::LandmarksOf(map)->distances(
                                     map.PaddedIndex(goal))[0] >= 0) {
            EXPECT_EQ(r->algorithm, ExpectedEngine(map, a.algorithm, policy));
          }
          EXPECT_EQ(CheckPath(map, *r, start, goal, policy, true), "");
          if (IsOptimal(a.algorithm)) {
            EXPECT_NEAR(r->cost, want, 1e-9 * (1 + want));
          } else {
            EXPECT_GE(r->cost, want - 1e-9 * (1 + want));
            EXPECT_LE(r->cost, a.weight * want + 1e-9 * (1 + want));
          }
          if (start == goal) {
            EXPECT_EQ(r->cells.size(), 1u);
            ++same;
          }
          ++searched;
        }
      }
    }
  }
  // The generator must really produce every kind of case.
  EXPECT_GT(searched, 20000);
  EXPECT_GT(unreachable, 1000);
  EXPECT_GT(invalid, 1000);
  EXPECT_GT(same, 1000);
}

// Jump point search on the maps it is exact on, larger than the maps above so
// that jumps scan across several 64-bit words (and the table's entries grow
// long): uniform costs 1, 2, 7 and 255, open, cluttered and maze-like maps,
// every search against the brute-force Dijkstra and checked move by move.
TEST(PropertyTest, JumpPointSearchMatchesBruteForceOnUniformMaps) {
  std::mt19937 rng(20261203);
  SearchContext context;
  const int uniform_costs[] = {1, 2, 7, 255};
  const double densities[] = {0.0, 0.05, 0.2, 0.35};
  int searched = 0, jumped = 0;
  for (int m = 0; m < 200; ++m) {
    RandomMapSpec spec;
    std::uniform_int_distribution<int> side(1, 200);
    spec.width = side(rng);
    spec.height = m % 7 == 0 ? 1 : side(rng);
    spec.min_cost = spec.max_cost = uniform_costs[m % 4];
    spec.blocked = densities[rng() % 4];
    spec.corridors = m % 5 == 0;
    GridMap map = MakeRandomMap(spec, static_cast<uint32_t>(rng()));
    if (!map.uniform_cost()) continue;  // All blocked.
    ASSERT_OK(BuildJumpTable(&map));
    std::uniform_int_distribution<int> rx(0, map.width() - 1);
    std::uniform_int_distribution<int> ry(0, map.height() - 1);
    for (int pair = 0; pair < 12; ++pair) {
      Cell start{rx(rng)}, goal{rx(rng)};
      start.y = ry(rng);
      goal.y = ry(rng);
      if (!map.Connected(start, goal)) continue;
      const std::vector<double> dist =
          ReferenceDistances(map, start, DiagonalPolicy::kNoCornerCutting);
      const double want = Distance(dist, map, goal);
      for (Algorithm a : {Algorithm::kJps, Algorithm::kJpsPlus}) {
        SCOPED_TRACE(absl::StrCat("map ", m, " (", map.width(), "x",
                                  map.height(), ", blocked ", spec.blocked,
                                  ", cost ", spec.max_cost, ") ",
                                  AlgorithmName(a), " (", start.x, ",",
                                  start.y, ")->(", goal.x, ",", goal.y, ")"));
        PathQuery q;
        q.start = start;
        q.goal = goal;
        q.algorithm = a;
        absl::StatusOr<PathResult> r = FindPath(map, q, context);
        ASSERT_OK(r);
        EXPECT_EQ(r->algorithm, a);
        EXPECT_FALSE(r->partial);
        EXPECT_EQ(CheckPath(map, *r, start, goal,
                            DiagonalPolicy::kNoCornerCutting, true),
                  "");
        EXPECT_NEAR(r->cost, want, 1e-9 * (1 + want));
        ++searched;
        if (r->cells.size() > 64) ++jumped;
      }
    }
  }
  EXPECT_GT(searched, 2500);
  EXPECT_GT(jumped, 500);  // Paths long enough to cross words.
}

// jps+ on wide, open maps, where lines run past the table's one-byte reach
// (127 cells) and jumps follow its continue markers: every path optimal
// (against A*) and legal, on maps up to 900 cells wide and tall.
TEST(PropertyTest, JumpTableContinuesLinesLongerThanItsReach) {
  std::mt19937 rng(77);
  SearchContext context;
  int searched = 0, long_jumps = 0;
  for (int m = 0; m < 24; ++m) {
    RandomMapSpec spec;
    std::uniform_int_distribution<int> side(130, 900);
    spec.width = side(rng);
    spec.height = m % 4 == 0 ? 1 + static_cast<int>(rng() % 3) : side(rng) / 3;
    spec.blocked = m % 3 == 0 ? 0.0 : 0.002 * (1 + m % 5);
    GridMap map = MakeRandomMap(spec, static_cast<uint32_t>(rng()));
    if (!map.uniform_cost()) continue;
    ASSERT_OK(BuildJumpTable(&map));
    std::uniform_int_distribution<int> rx(0, map.width() - 1);
    std::uniform_int_distribution<int> ry(0, map.height() - 1);
    for (int pair = 0; pair < 10; ++pair) {
      const Cell start{rx(rng), ry(rng)}, goal{rx(rng), ry(rng)};
      if (!map.Connected(start, goal)) continue;
      SCOPED_TRACE(absl::StrCat("map ", m, " (", map.width(), "x", map.height(),
                                ") (", start.x, ",", start.y, ")->(", goal.x,
                                ",", goal.y, ")"));
      PathQuery q;
      q.start = start;
      q.goal = goal;
      q.algorithm = Algorithm::kAStar;
      absl::StatusOr<PathResult> want = FindPath(map, q, context);
      ASSERT_OK(want);
      q.algorithm = Algorithm::kJpsPlus;
      absl::StatusOr<PathResult> r = FindPath(map, q, context);
      ASSERT_OK(r);
      EXPECT_EQ(r->algorithm, Algorithm::kJpsPlus);
      EXPECT_EQ(CheckPath(map, *r, start, goal, DiagonalPolicy::kNoCornerCutting,
                          true),
                "");
      EXPECT_NEAR(r->cost, want->cost, 1e-9 * (1 + want->cost));
      ++searched;
      if (std::abs(goal.x - start.x) > 127) ++long_jumps;
    }
  }
  EXPECT_GT(searched, 150);
  EXPECT_GT(long_jumps, 50);
}

// A* with landmarks on terrain (costs 1..9, up to 120 x 120, 1 to 8
// landmarks) under every policy: optimal like plain A*, never expanding more
// cells than plain A* does by more than ties allow, and its bounds hold after
// costs are raised (ShareLandmarks).
TEST(PropertyTest, LandmarkSearchMatchesBruteForceOnTerrain) {
  std::mt19937 rng(51);
  SearchContext context;
  int searched = 0;
  uint64_t alt_expanded = 0, astar_expanded = 0;
  for (int m = 0; m < 90; ++m) {
    RandomMapSpec spec;
    std::uniform_int_distribution<int> side(2, 120);
    spec.width = side(rng);
    spec.height = side(rng);
    spec.max_cost = 9;
    spec.blocked = (m % 4) * 0.1;
    spec.corridors = m % 9 == 0;
    const DiagonalPolicy policy = kAllDiagonalPolicies[m % 3];
    GridMap map = MakeRandomMap(spec, static_cast<uint32_t>(rng()));
    if (map.passable_count() == 0) continue;
    ASSERT_OK(BuildLandmarks(&map, 1 + m % 8, policy));
    // The same map with some costs raised and cells blocked, keeping the
    // old landmarks.
    std::vector<uint8_t> raised = map.CopyCosts();
    for (uint8_t& c : raised) {
      if (c != 0 && rng() % 5 == 0) c = rng() % 3 == 0 ? 0 : 9;
    }
    GridMap harder = *GridMap::FromCosts(map.width(), map.height(), raised);
    ShareLandmarks(map, &harder);
    std::uniform_int_distribution<int> rx(0, map.width() - 1);
    std::uniform_int_distribution<int> ry(0, map.height() - 1);
    for (const GridMap* on : {&map, &harder}) {
      for (int pair = 0; pair < 6; ++pair) {
        Cell start{rx(rng)}, goal{rx(rng)};
        start.y = ry(rng);
        goal.y = ry(rng);
        if (!on->Connected(start, goal) ||
            internal::LandmarksOf(*on)->distances(on->PaddedIndex(goal))[0] <
                0) {
          continue;
        }
        SCOPED_TRACE(absl::StrCat("map ", m, " (", on->width(), "x",
                                  on->height(), ") ", on == &harder ? "raised " : "",
                                  DiagonalPolicyName(policy), " (", start.x,
                                  ",", start.y, ")->(", goal.x, ",", goal.y,
                                  ")"));
        const double want =
            Distance(ReferenceDistances(*on, start, policy), *on, goal);
        PathQuery q;
        q.start = start;
        q.goal = goal;
        q.movement.diagonal = policy;
        q.algorithm = Algorithm::kAStar;
        absl::StatusOr<PathResult> plain = FindPath(*on, q, context);
        ASSERT_OK(plain);
        q.algorithm = Algorithm::kAlt;
        absl::StatusOr<PathResult> r = FindPath(*on, q, context);
        ASSERT_OK(r);
        EXPECT_EQ(r->algorithm, Algorithm::kAlt);
        EXPECT_EQ(CheckPath(*on, *r, start, goal, policy, true), "");
        EXPECT_NEAR(r->cost, want, 1e-9 * (1 + want));
        alt_expanded += r->expanded;
        astar_expanded += plain->expanded;
        ++searched;
      }
    }
  }
  EXPECT_GT(searched, 400);
  // Landmark bounds dominate octile ones: far fewer cells in all.
  EXPECT_LT(alt_expanded, astar_expanded);
}

// Smoothing keeps to free cells and the policy, and never costs more than the
// grid path, on terrain maps too.
TEST(PropertyTest, SmoothedPathsAreLegalAndNoDearer) {
  std::mt19937 rng(7);
  SearchContext context;
  for (int m = 0; m < 300; ++m) {
    RandomMapSpec spec = SpecForSeed(rng, m);
    const GridMap map = MakeRandomMap(spec, static_cast<uint32_t>(rng()));
    std::uniform_int_distribution<int> rx(0, map.width() - 1);
    std::uniform_int_distribution<int> ry(0, map.height() - 1);
    for (DiagonalPolicy policy : kAllDiagonalPolicies) {
      const Cell start{rx(rng), ry(rng)}, goal{rx(rng), ry(rng)};
      if (!map.Connected(start, goal)) continue;
      SCOPED_TRACE(absl::StrCat("map ", m, " ", DiagonalPolicyName(policy)));
      PathQuery q;
      q.start = start;
      q.goal = goal;
      q.movement.diagonal = policy;
      q.smooth = true;
      absl::StatusOr<PathResult> r = FindPath(map, q, context);
      ASSERT_OK(r);
      ASSERT_GE(r->waypoints.size(), 1u);
      EXPECT_EQ(r->waypoints.front(), start);
      EXPECT_EQ(r->waypoints.back(), goal);
      EXPECT_LE(r->smoothed_cost, r->cost + 1e-9 * (1 + r->cost));
      EXPECT_LE(r->waypoints.size(), r->cells.size());
      // Every segment, sampled densely, stays on passable cells.
      for (size_t i = 1; i < r->waypoints.size(); ++i) {
        const Cell a = r->waypoints[i - 1], b = r->waypoints[i];
        for (int k = 0; k <= 400; ++k) {
          const double t = k / 400.0;
          const double x = a.x + 0.5 + t * (b.x - a.x);
          const double y = a.y + 0.5 + t * (b.y - a.y);
          // Points exactly on a cell border belong to either side.
          const Cell c{static_cast<int32_t>(x), static_cast<int32_t>(y)};
          const bool on_border =
              x == static_cast<int32_t>(x) || y == static_cast<int32_t>(y);
          if (!on_border) {
            EXPECT_TRUE(map.Passable(c))
                << "segment " << i << " crosses blocked (" << c.x << "," << c.y
                << ")";
          }
        }
      }
    }
  }
}

}  // namespace
}  // namespace gridstar
