// Agent maps (agents.h) against a brute-force footprint search written from
// the contract: every cell of an agent's square checked one by one (in the
// map, passable, in an allowed area), diagonals checked square by square,
// costs the square's dearest cell times its area's multiplier. Property
// tests over seeded random maps, areas, masks, multipliers and sizes 1-4,
// for every policy and every engine FindPath has; snapping and smoothing;
// repair == build after every step of random sequences of cost and area
// updates. The named edge cases are in agents_edges_test.cc.
#include "gridstar/agents.h"

#include <algorithm>
#include <cmath>
#include <random>
#include <string>
#include <utility>
#include <vector>

#include "absl/strings/str_cat.h"
#include "gridstar/engines/alt.h"
#include "gridstar/engines/jps.h"
#include "gridstar/find_path.h"
#include "gridstar/search_context.h"
#include "gtest/gtest.h"
#include "testing/drawn_maps.h"
#include "testing/footprint.h"
#include "testing/reference.h"
#include "testing/status_matchers.h"

namespace gridstar {
namespace {

using ::gridstar::testing::Footprint;
using ::gridstar::testing::kUnreachable;
using ::gridstar::testing::StatusIs;

std::vector<uint8_t> RandomAreas(const GridMap& map, int area_count,
                                 std::mt19937& rng) {
  // Blobs: each cell takes the area of its left or upper neighbour most of
  // the time, so that areas form regions as on real maps.
  std::vector<uint8_t> areas(static_cast<size_t>(map.cell_count()));
  for (int32_t y = 0; y < map.height(); ++y) {
    for (int32_t x = 0; x < map.width(); ++x) {
      const size_t i = static_cast<size_t>(y) * map.width() + x;
      const int r = static_cast<int>(rng() % 10);
      if (r < 4 && x > 0) {
        areas[i] = areas[i - 1];
      } else if (r < 8 && y > 0) {
        areas[i] = areas[i - map.width()];
      } else {
        areas[i] = static_cast<uint8_t>(rng() % area_count);
      }
    }
  }
  return areas;
}

AgentClass RandomClass(int area_count, int32_t size, std::mt19937& rng) {
  AgentClass agent;
  agent.size = size;
  agent.areas = 0;
  for (int a = 0; a < area_count; ++a) {
    if (a == 0 || rng() % 4 != 0) agent.areas |= uint64_t{1} << a;
    const int m = static_cast<int>(rng() % 4);
    agent.area_costs[a] = m == 0 ? 1 : m == 1 ? 2 : m == 2 ? 1.5 : 3;
  }
  return agent;
}

struct EngineCase {
  Algorithm algorithm;
  double weight;
};

constexpr EngineCase kEngines[] = {
    {Algorithm::kAStar, 1},  {Algorithm::kDijkstra, 1},
    {Algorithm::kBaseline, 1}, {Algorithm::kJps, 1},
    {Algorithm::kJpsPlus, 1}, {Algorithm::kAuto, 1},
    {Algorithm::kAlt, 1},    {Algorithm::kBidirectional, 1},
    {Algorithm::kWeighted, 1.5},
};

TEST(AgentMapTest, CostsFollowTheFootprintRuleCellByCell) {
  std::mt19937 rng(20261205);
  for (int m = 0; m < 40; ++m) {
    testing::RandomMapSpec spec;
    spec.width = 5 + static_cast<int>(rng() % 20);
    spec.height = 5 + static_cast<int>(rng() % 20);
    spec.blocked = 0.05 * (rng() % 5);
    spec.max_cost = m % 2 == 0 ? 1 : 40;
    GridMap map = testing::MakeRandomMap(spec, static_cast<uint32_t>(rng()));
    const std::vector<uint8_t> areas =
        m % 5 == 0 ? std::vector<uint8_t>{} : RandomAreas(map, 4, rng);
    const AgentClass agent =
        RandomClass(4, 1 + static_cast<int32_t>(rng() % kMaxAgentSize), rng);
    SCOPED_TRACE(absl::StrCat("map ", m, " size ", agent.size));
    absl::StatusOr<GridMap> agent_map = BuildAgentMap(map, areas, agent);
    ASSERT_OK(agent_map);
    const Footprint f{map, areas, agent};
    for (int32_t y = 0; y < map.height(); ++y) {
      for (int32_t x = 0; x < map.width(); ++x) {
        const double want = f.SquareFree(x, y) ? f.SquareCost(x, y) : 0;
        ASSERT_EQ(agent_map->cost({x, y}), want) << "(" << x << "," << y << ")";
      }
    }
  }
}

TEST(AgentMapTest, EveryEngineMatchesBruteForceFootprintSearch) {
  std::mt19937 rng(5122026);
  SearchContext context;
  int searched = 0, unreachable = 0, invalid = 0;
  for (int m = 0; m < 48; ++m) {
    testing::RandomMapSpec spec;
    spec.width = 12 + static_cast<int>(rng() % 20);
    spec.height = 12 + static_cast<int>(rng() % 16);
    spec.blocked = 0.04 * (rng() % 4);
    spec.max_cost = m % 3 == 0 ? 4 : 1;
    GridMap map = testing::MakeRandomMap(spec, static_cast<uint32_t>(rng()));
    const std::vector<uint8_t> areas = RandomAreas(map, 3, rng);
    // Half the classes keep every multiplier at 1: on uniform maps their
    // agent maps are uniform too, where jump point search runs.
    AgentClass agent = RandomClass(3, 1 + m % 4, rng);
    if (m % 2 == 0) agent.area_costs = AgentClass::UnitAreaCosts();
    absl::StatusOr<GridMap> built = BuildAgentMap(map, areas, agent);
    ASSERT_OK(built);
    GridMap agent_map = *std::move(built);
    if (agent_map.uniform_cost()) {
      ASSERT_OK(BuildJumpTable(&agent_map));
    }
    const DiagonalPolicy landmark_policy = kAllDiagonalPolicies[m % 3];
    if (agent_map.passable_count() > 0 && m % 3 != 2) {
      ASSERT_OK(BuildLandmarks(&agent_map, 2,
                               AgentPolicy(landmark_policy, agent.size)));
    }
    const Footprint f{map, areas, agent};
    for (DiagonalPolicy policy : kAllDiagonalPolicies) {
      const DiagonalPolicy run = AgentPolicy(policy, agent.size);
      for (int pair = 0; pair < 3; ++pair) {
        // Prefer free squares, so that most queries search.
        Cell start{}, goal{};
        for (int tries = 0; tries < 20; ++tries) {
          start = {static_cast<int32_t>(rng() % map.width()),
                   static_cast<int32_t>(rng() % map.height())};
          goal = {static_cast<int32_t>(rng() % map.width()),
                  static_cast<int32_t>(rng() % map.height())};
          if (f.SquareFree(start.x, start.y) && f.SquareFree(goal.x, goal.y)) {
            break;
          }
        }
        const std::vector<double> dist = f.Distances(start, policy);
        const bool ends_free =
            f.SquareFree(start.x, start.y) && f.SquareFree(goal.x, goal.y);
        const double want =
            ends_free ? dist[static_cast<size_t>(goal.y) * map.width() + goal.x]
                      : -1;
        for (const EngineCase& e : kEngines) {
          SCOPED_TRACE(absl::StrCat(
              "map ", m, " (", map.width(), "x", map.height(), ") size ",
              agent.size, " mask ", agent.areas, " ", AlgorithmName(e.algorithm),
              " ", DiagonalPolicyName(policy), " (", start.x, ",", start.y,
              ")->(", goal.x, ",", goal.y, ")"));
          PathQuery q = testing::Query(start, goal, e.algorithm, run);
          q.weight = e.weight;
          absl::StatusOr<PathResult> r = FindPath(agent_map, q, context);
          if (want < 0) {
            EXPECT_TRUE(StatusIs(r, absl::StatusCode::kInvalidArgument, ""));
            ++invalid;
            continue;
          }
          if (want == kUnreachable) {
            EXPECT_TRUE(StatusIs(r, absl::StatusCode::kNotFound, ""));
            ++unreachable;
            continue;
          }
          ASSERT_OK(r);
          EXPECT_EQ(f.Check(*r, start, goal, policy), "");
          if (e.algorithm == Algorithm::kWeighted) {
            EXPECT_LE(r->cost, want * e.weight + 1e-6);
          } else {
            EXPECT_NEAR(r->cost, want, 1e-6 * (1 + want));
          }
          ++searched;
        }
      }
    }
  }
  // The seeds must exercise all three outcomes.
  EXPECT_GT(searched, 1000);
  EXPECT_GT(unreachable, 10);
  EXPECT_GT(invalid, 10);
}

TEST(AgentMapTest, SnappingAndSmoothingKeepToCellsFreeForTheAgent) {
  std::mt19937 rng(3141);
  SearchContext context;
  int smoothed = 0, snapped = 0;
  for (int m = 0; m < 30; ++m) {
    testing::RandomMapSpec spec;
    spec.width = 16 + static_cast<int>(rng() % 16);
    spec.height = 16 + static_cast<int>(rng() % 16);
    spec.blocked = 0.08;
    spec.max_cost = m % 2 == 0 ? 1 : 5;
    const GridMap map = testing::MakeRandomMap(spec, static_cast<uint32_t>(rng()));
    const std::vector<uint8_t> areas = RandomAreas(map, 3, rng);
    const AgentClass agent = RandomClass(3, 1 + m % 3, rng);
    absl::StatusOr<GridMap> agent_map = BuildAgentMap(map, areas, agent);
    ASSERT_OK(agent_map);
    const Footprint f{map, areas, agent};
    for (DiagonalPolicy policy : kAllDiagonalPolicies) {
      const DiagonalPolicy run = AgentPolicy(policy, agent.size);
      for (int pair = 0; pair < 4; ++pair) {
        SCOPED_TRACE(absl::StrCat("map ", m, " size ", agent.size, " ",
                                  DiagonalPolicyName(policy), " pair ", pair));
        // Any ends: snapping moves them to cells free for the agent.
        PathQuery q = testing::Query(
            {static_cast<int32_t>(rng() % map.width()),
             static_cast<int32_t>(rng() % map.height())},
            {static_cast<int32_t>(rng() % map.width()),
             static_cast<int32_t>(rng() % map.height())},
            Algorithm::kAStar, run);
        q.snap_radius = 4;
        q.smooth = true;
        absl::StatusOr<PathResult> r = FindPath(*agent_map, q, context);
        if (!r.ok()) continue;  // Nothing free near, or no path.
        EXPECT_TRUE(f.SquareFree(r->start.x, r->start.y));
        EXPECT_TRUE(f.SquareFree(r->goal.x, r->goal.y));
        snapped += r->start != q.start || r->goal != q.goal;
        EXPECT_EQ(f.Check(*r, r->start, r->goal, policy), "");
        // Each waypoint segment crosses only cells whose squares are free.
        double sum = 0;
        for (size_t i = 1; i < r->waypoints.size(); ++i) {
          const double c = testing::ReferenceSegmentCost(
              *agent_map, r->waypoints[i - 1], r->waypoints[i], run);
          ASSERT_GE(c, 0) << "segment " << i;
          sum += c;
        }
        EXPECT_NEAR(r->smoothed_cost, sum, 1e-6 * (1 + sum));
        EXPECT_LE(r->smoothed_cost, r->cost + 1e-9 * (1 + r->cost));
        ++smoothed;
      }
    }
  }
  EXPECT_GT(smoothed, 100);
  EXPECT_GT(snapped, 20);
}

TEST(AgentMapTest, RepairEqualsBuildAfterEveryStepOfRandomUpdates) {
  std::mt19937 rng(777);
  for (int run = 0; run < 24; ++run) {
    testing::RandomMapSpec spec;
    spec.width = 20 + static_cast<int>(rng() % 60);
    spec.height = 20 + static_cast<int>(rng() % 60);
    spec.blocked = 0.1;
    spec.max_cost = run % 2 == 0 ? 1 : 9;
    GridMap map = testing::MakeRandomMap(spec, static_cast<uint32_t>(rng()));
    std::vector<uint8_t> areas = RandomAreas(map, 4, rng);
    AgentClass agent = RandomClass(4, 1 + run % kMaxAgentSize, rng);
    absl::StatusOr<GridMap> agent_map = BuildAgentMap(map, areas, agent);
    ASSERT_OK(agent_map);
    for (int step = 0; step < 30; ++step) {
      SCOPED_TRACE(absl::StrCat("run ", run, " size ", agent.size, " step ",
                                step));
      // One to three rectangles: costs, areas, or both.
      std::vector<CellChange> changes;
      std::vector<CellRect> rects;
      const int n = 1 + static_cast<int>(rng() % 3);
      for (int i = 0; i < n; ++i) {
        const int32_t x0 = static_cast<int32_t>(rng() % map.width());
        const int32_t y0 = static_cast<int32_t>(rng() % map.height());
        const int32_t side = rng() % 4 == 0 ? 6 : 1;
        const CellRect r{{x0, y0},
                         {std::min(map.width(), x0 + 1 + static_cast<int32_t>(
                                                             rng() % side)),
                          std::min(map.height(),
                                   y0 + 1 + static_cast<int32_t>(rng() % side))}};
        rects.push_back(r);
        const int kind = static_cast<int>(rng() % 3);
        if (kind != 1) {
          const uint8_t cost =
              rng() % 3 == 0 ? 0
                             : static_cast<uint8_t>(1 + rng() % spec.max_cost);
          changes.push_back(CellChange{r.min, r.max, cost});
        }
        if (kind != 0) {
          const uint8_t area = static_cast<uint8_t>(rng() % 4);
          for (int32_t y = r.min.y; y < r.max.y; ++y) {
            for (int32_t x = r.min.x; x < r.max.x; ++x) {
              areas[static_cast<size_t>(y) * map.width() + x] = area;
            }
          }
        }
      }
      if (!changes.empty()) {
        ChangeSummary summary;
        absl::StatusOr<GridMap> next = ApplyChanges(map, changes, &summary);
        ASSERT_OK(next);
        map = *std::move(next);
      }
      absl::StatusOr<GridMap> repaired =
          RepairAgentMap(*agent_map, map, areas, agent, rects);
      ASSERT_OK(repaired);
      absl::StatusOr<GridMap> built = BuildAgentMap(map, areas, agent);
      ASSERT_OK(built);
      ASSERT_EQ(repaired->CopyCosts(), built->CopyCosts());
      ASSERT_TRUE(testing::SamePartition(*repaired, *built));
      ASSERT_EQ(repaired->uniform_cost(), built->uniform_cost());
      ASSERT_EQ(repaired->passable_count(), built->passable_count());
      agent_map = *std::move(repaired);
    }
  }
}

}  // namespace
}  // namespace gridstar
