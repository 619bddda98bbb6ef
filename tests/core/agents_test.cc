// Agent maps (agents.h) against a brute-force footprint search written from
// the contract: every cell of an agent's square checked one by one (in the
// map, passable, in an allowed area), diagonals checked square by square,
// costs the square's dearest cell times its area's multiplier. Property
// tests over seeded random maps, areas, masks, multipliers and sizes 1-4,
// for every policy and every engine FindPath has; repair == build after
// every step of random sequences of cost and area updates; a named test per
// edge case.
#include "gridstar/agents.h"

#include <algorithm>
#include <cmath>
#include <queue>
#include <random>
#include <string>
#include <utility>
#include <vector>

#include "absl/strings/str_cat.h"
#include "gridstar/find_path.h"
#include "gridstar/map_io.h"
#include "gridstar/search_context.h"
#include "gtest/gtest.h"
#include "testing/drawn_maps.h"
#include "testing/reference.h"
#include "testing/status_matchers.h"

namespace gridstar {
namespace {

using ::gridstar::testing::kUnreachable;
using ::gridstar::testing::StatusIs;

// The world as an agent sees it, cell by cell (the oracle).
struct Footprint {
  const GridMap& map;
  const std::vector<uint8_t>& areas;
  const AgentClass& agent;

  uint8_t Area(int64_t x, int64_t y) const {
    return areas.empty() ? 0 : areas[static_cast<size_t>(y) * map.width() + x];
  }
  bool Allowed(int64_t x, int64_t y) const {
    if (x < 0 || y < 0 || x >= map.width() || y >= map.height()) return false;
    const Cell c{static_cast<int32_t>(x), static_cast<int32_t>(y)};
    return map.cost(c) != 0 && ((agent.areas >> Area(x, y)) & 1) != 0;
  }
  bool SquareFree(int64_t x, int64_t y) const {
    for (int dy = 0; dy < agent.size; ++dy) {
      for (int dx = 0; dx < agent.size; ++dx) {
        if (!Allowed(x + dx, y + dy)) return false;
      }
    }
    return true;
  }
  // REQUIRES: SquareFree(x, y).
  double SquareCost(int64_t x, int64_t y) const {
    double worst = 0;
    for (int dy = 0; dy < agent.size; ++dy) {
      for (int dx = 0; dx < agent.size; ++dx) {
        const Cell c{static_cast<int32_t>(x + dx), static_cast<int32_t>(y + dy)};
        worst = std::max(
            worst, std::floor(map.cost(c) * agent.area_costs[Area(c.x, c.y)] +
                              0.5));
      }
    }
    return worst;
  }
  double Move(Cell a, Cell b, DiagonalPolicy policy) const {
    if (!SquareFree(a.x, a.y) || !SquareFree(b.x, b.y)) return -1;
    const int64_t dx = int64_t{b.x} - a.x, dy = int64_t{b.y} - a.y;
    if (dx < -1 || dx > 1 || dy < -1 || dy > 1 || (dx == 0 && dy == 0)) {
      return -1;
    }
    const double avg = (SquareCost(a.x, a.y) + SquareCost(b.x, b.y)) / 2;
    if (dx == 0 || dy == 0) return avg;
    if (policy == DiagonalPolicy::kNever) return -1;
    const bool side1 = SquareFree(b.x, a.y), side2 = SquareFree(a.x, b.y);
    const bool both_needed =
        policy == DiagonalPolicy::kNoCornerCutting || agent.size > 1;
    if (both_needed ? !(side1 && side2) : !(side1 || side2)) return -1;
    return std::sqrt(2.0) * avg;
  }
  std::vector<double> Distances(Cell start, DiagonalPolicy policy) const {
    const int w = map.width(), h = map.height();
    std::vector<double> dist(static_cast<size_t>(w) * h, kUnreachable);
    if (!SquareFree(start.x, start.y)) return dist;
    using Item = std::pair<double, int>;
    std::priority_queue<Item, std::vector<Item>, std::greater<Item>> queue;
    dist[static_cast<size_t>(start.y) * w + start.x] = 0;
    queue.push({0.0, start.y * w + start.x});
    std::vector<bool> done(dist.size(), false);
    while (!queue.empty()) {
      const auto [d, i] = queue.top();
      queue.pop();
      if (done[i]) continue;
      done[i] = true;
      const Cell c{i % w, i / w};
      for (int dy = -1; dy <= 1; ++dy) {
        for (int dx = -1; dx <= 1; ++dx) {
          const Cell n{c.x + dx, c.y + dy};
          const double step = Move(c, n, policy);
          if (step < 0) continue;
          const int j = n.y * w + n.x;
          if (d + step < dist[j]) {
            dist[j] = d + step;
            queue.push({dist[j], j});
          }
        }
      }
    }
    return dist;
  }
  // Empty when every move of r is legal for the agent and the costs add up.
  std::string Check(const PathResult& r, Cell start, Cell goal,
                    DiagonalPolicy policy) const {
    if (r.cells.empty() || r.cells.front() != start) return "bad start";
    if (r.cells.back() != goal) return "bad goal";
    double sum = 0;
    for (size_t i = 1; i < r.cells.size(); ++i) {
      const double c = Move(r.cells[i - 1], r.cells[i], policy);
      if (c < 0) {
        return absl::StrCat("illegal move ", i, ": (", r.cells[i - 1].x, ",",
                            r.cells[i - 1].y, ")->(", r.cells[i].x, ",",
                            r.cells[i].y, ")");
      }
      sum += c;
    }
    if (std::fabs(sum - r.cost) > 1e-9 * (1 + sum)) {
      return absl::StrCat("reported cost ", r.cost, ", moves sum to ", sum);
    }
    return "";
  }
};

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
      ASSERT_OK(agent_map.BuildJumpTable());
    }
    const DiagonalPolicy landmark_policy = kAllDiagonalPolicies[m % 3];
    if (agent_map.passable_count() > 0 && m % 3 != 2) {
      ASSERT_OK(agent_map.BuildLandmarks(2, AgentPolicy(landmark_policy,
                                                        agent.size)));
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

// Component labels of two maps describe the same partition.
bool SamePartition(const GridMap& a, const GridMap& b) {
  std::vector<uint32_t> a_to_b(a.component_count() + 1, 0);
  std::vector<uint32_t> b_to_a(b.component_count() + 1, 0);
  for (int32_t y = 0; y < a.height(); ++y) {
    for (int32_t x = 0; x < a.width(); ++x) {
      const uint32_t ca = a.component({x, y}), cb = b.component({x, y});
      if ((ca == 0) != (cb == 0)) return false;
      if (ca == 0) continue;
      if (a_to_b[ca] == 0) a_to_b[ca] = cb;
      if (b_to_a[cb] == 0) b_to_a[cb] = ca;
      if (a_to_b[ca] != cb || b_to_a[cb] != ca) return false;
    }
  }
  return a.component_count() == b.component_count();
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
      ASSERT_TRUE(SamePartition(*repaired, *built));
      ASSERT_EQ(repaired->uniform_cost(), built->uniform_cost());
      ASSERT_EQ(repaired->passable_count(), built->passable_count());
      agent_map = *std::move(repaired);
    }
  }
}

TEST(AgentMapTest, FilterExcludingTheStartAreaAnswersStartBlocked) {
  const GridMap map = testing::Draw({"....", "...."});
  const std::vector<uint8_t> areas = {1, 0, 0, 0, 0, 0, 0, 0};
  AgentClass agent;
  agent.areas = 1;  // Area 0 only.
  absl::StatusOr<GridMap> agent_map = BuildAgentMap(map, areas, agent);
  ASSERT_OK(agent_map);
  SearchContext context;
  EXPECT_TRUE(StatusIs(
      FindPath(*agent_map,
               testing::Query({0, 0}, {3, 1}, Algorithm::kAStar,
                              DiagonalPolicy::kNoCornerCutting),
               context),
      absl::StatusCode::kInvalidArgument, "start: (0, 0) is blocked"));
}

TEST(AgentMapTest, SizeThatFitsNowhereBlocksEveryCell) {
  const GridMap map = testing::Draw({".....", ".....", "....."});
  AgentClass agent;
  agent.size = 4;  // Taller than the map.
  absl::StatusOr<GridMap> agent_map = BuildAgentMap(map, {}, agent);
  ASSERT_OK(agent_map);
  EXPECT_EQ(agent_map->passable_count(), 0);
}

TEST(AgentMapTest, MapEdgeUnderABigFootprintIsBlocked) {
  const GridMap map = testing::Draw({"....", "....", "....", "...."});
  AgentClass agent;
  agent.size = 3;
  absl::StatusOr<GridMap> agent_map = BuildAgentMap(map, {}, agent);
  ASSERT_OK(agent_map);
  for (int32_t y = 0; y < 4; ++y) {
    for (int32_t x = 0; x < 4; ++x) {
      EXPECT_EQ(agent_map->Passable({x, y}), x <= 1 && y <= 1)
          << x << "," << y;
    }
  }
}

TEST(AgentMapTest, BigAgentNeverCutsACornerEvenWhereThePolicyAllows) {
  // A 2 x 2 agent at (0, 0) to (1, 1): the squares at (1, 0) and (0, 1)
  // are both free except that (2, 0) is a wall, so (1, 0)'s square is not.
  const GridMap map = testing::Draw({"..#", "...", "..."});
  AgentClass agent;
  agent.size = 2;
  absl::StatusOr<GridMap> agent_map = BuildAgentMap(map, {}, agent);
  ASSERT_OK(agent_map);
  const DiagonalPolicy run =
      AgentPolicy(DiagonalPolicy::kAllowCornerCutting, agent.size);
  EXPECT_EQ(run, DiagonalPolicy::kNoCornerCutting);
  EXPECT_LT(MoveCost(*agent_map, {0, 0}, {1, 1}, run), 0);
  EXPECT_EQ(AgentPolicy(DiagonalPolicy::kAllowCornerCutting, 1),
            DiagonalPolicy::kAllowCornerCutting);
}

TEST(AgentMapTest, CostOfABigAgentIsTheDearestCellUnderIt) {
  const GridMap map = testing::Draw({"1119", "1111", "1111"});
  AgentClass agent;
  agent.size = 2;
  absl::StatusOr<GridMap> agent_map = BuildAgentMap(map, {}, agent);
  ASSERT_OK(agent_map);
  EXPECT_EQ(agent_map->cost({1, 0}), 1);
  EXPECT_EQ(agent_map->cost({2, 0}), 9);
  EXPECT_EQ(agent_map->cost({2, 1}), 1);
}

TEST(AgentMapTest, AreaCostMultipliesAndRoundsHalvesUp) {
  const GridMap map = testing::Draw({"35"});
  const std::vector<uint8_t> areas = {0, 1};
  AgentClass agent;
  agent.area_costs[0] = 1.5;  // 4.5 -> 5
  agent.area_costs[1] = 2;    // 10
  absl::StatusOr<GridMap> agent_map = BuildAgentMap(map, areas, agent);
  ASSERT_OK(agent_map);
  EXPECT_EQ(agent_map->cost({0, 0}), 5);
  EXPECT_EQ(agent_map->cost({1, 0}), 10);
}

TEST(AgentMapTest, AreaCostOverflowNamesTheArea) {
  const GridMap map = testing::Draw({"9.", ".."});
  std::vector<uint8_t> costs = map.CopyCosts();
  costs[0] = 200;
  const GridMap dear = *GridMap::FromCosts(2, 2, costs);
  AgentClass agent;
  agent.area_costs[5] = 2;
  const std::vector<uint8_t> areas = {5, 0, 0, 0};
  EXPECT_TRUE(StatusIs(BuildAgentMap(dear, areas, agent),
                       absl::StatusCode::kInvalidArgument,
                       "area_costs[5]: cost 200 at (0, 0) times 2 exceeds 255"));
}

TEST(AgentMapTest, ClassOutOfRangeIsRejectedNamingTheField) {
  AgentClass agent;
  agent.size = 0;
  EXPECT_TRUE(StatusIs(ValidateAgentClass(agent, "path"),
                       absl::StatusCode::kInvalidArgument,
                       "path.agent_size: 0 is outside [1, 8]"));
  agent.size = 9;
  EXPECT_TRUE(StatusIs(ValidateAgentClass(agent),
                       absl::StatusCode::kInvalidArgument, "agent_size: 9"));
  agent.size = 1;
  agent.area_costs[7] = 0.5;
  EXPECT_TRUE(StatusIs(ValidateAgentClass(agent),
                       absl::StatusCode::kInvalidArgument, "area_costs[7]"));
  agent.area_costs[7] = std::nan("");
  EXPECT_TRUE(StatusIs(ValidateAgentClass(agent),
                       absl::StatusCode::kInvalidArgument, "area_costs[7]"));
  agent.area_costs[7] = HUGE_VAL;
  EXPECT_TRUE(StatusIs(ValidateAgentClass(agent),
                       absl::StatusCode::kInvalidArgument, "area_costs[7]"));
}

TEST(AgentMapTest, AreaIdsAtOrAbove64AreRejected) {
  const std::vector<uint8_t> areas = {0, 63, 64, 0};
  EXPECT_TRUE(StatusIs(ValidateAreas(2, 2, areas, "areas"),
                       absl::StatusCode::kInvalidArgument,
                       "areas: area 64 of cell (0, 1) is not below 64"));
  EXPECT_TRUE(StatusIs(ValidateAreas(2, 2, {0, 1, 2}, "areas"),
                       absl::StatusCode::kInvalidArgument, "3 bytes"));
  EXPECT_OK(ValidateAreas(2, 2, {}, "areas"));
}

TEST(AgentMapTest, TheDefaultClassSeesAnAreaFreeMapAsIs) {
  const GridMap map = testing::Draw({"..#", "1.."});
  EXPECT_EQ(AreasPresent(map, {}), 1u);
  EXPECT_TRUE(AgentSeesMapAsIs(AgentClass{}, AreasPresent(map, {})));
  AgentClass big;
  big.size = 2;
  EXPECT_FALSE(AgentSeesMapAsIs(big, 1));
  AgentClass dear;
  dear.area_costs[3] = 2;
  EXPECT_TRUE(AgentSeesMapAsIs(dear, 1));  // Area 3 is not on the map.
  EXPECT_FALSE(AgentSeesMapAsIs(dear, 1 | 8));
  AgentClass ground_only;
  ground_only.areas = 1;
  EXPECT_FALSE(AgentSeesMapAsIs(ground_only, 1 | 4));
}

TEST(AgentMapTest, CanonicalClassesOfEqualMapsAreEqual) {
  AgentClass a;
  a.areas = 0b1011;
  a.area_costs[1] = 2;
  a.area_costs[2] = 5;  // Area 2 is not allowed: its multiplier is moot.
  AgentClass b = a;
  b.areas = 0b0011 | (uint64_t{1} << 40);  // Area 40 is not on the map.
  b.area_costs[2] = 1;
  b.area_costs[3] = 7;  // Area 3 is not on the map.
  const uint64_t present = 0b0111;
  EXPECT_EQ(CanonicalAgentClass(a, present), CanonicalAgentClass(b, present));
  EXPECT_EQ(CanonicalAgentClass(a, present).areas, 0b0011u);
  b.area_costs[1] = 3;
  EXPECT_NE(CanonicalAgentClass(a, present), CanonicalAgentClass(b, present));
}

constexpr char kHarbour[] =
    "type octile\n"
    "height 5\n"
    "width 8\n"
    "map\n"
    "..WWWW..\n"
    "..WWWW..\n"
    ".SWTTW.@\n"
    "..WWWW..\n"
    "..@@@@..\n";

TEST(AgentMapTest, MovingAiTerrainIsReadAsAreas) {
  absl::StatusOr<MapWithAreas> m = ParseMovingAiMapWithAreas(kHarbour);
  ASSERT_OK(m);
  EXPECT_EQ(m->default_areas, kMovingAiDefaultAreas);
  EXPECT_EQ(m->areas[0], kGroundArea);
  EXPECT_EQ(m->areas[2], kWaterArea);
  EXPECT_EQ(m->areas[2 * 8 + 1], kSwampArea);
  EXPECT_EQ(m->areas[2 * 8 + 3], kTreesArea);
  EXPECT_TRUE(m->map.Passable({2, 0}));   // Water: cost 1 in its area.
  EXPECT_FALSE(m->map.Passable({7, 2}));  // '@' stays blocked.
  // Under the default filter it searches as the plain reader reads it.
  AgentClass by_default;
  by_default.areas = m->default_areas;
  absl::StatusOr<GridMap> seen = BuildAgentMap(m->map, m->areas, by_default);
  ASSERT_OK(seen);
  absl::StatusOr<GridMap> plain = ParseMovingAiMap(kHarbour);
  ASSERT_OK(plain);
  EXPECT_EQ(seen->CopyCosts(), plain->CopyCosts());
}

TEST(AgentMapTest, AWaterOnlyFilterSailsOverWater) {
  absl::StatusOr<MapWithAreas> m = ParseMovingAiMapWithAreas(kHarbour);
  ASSERT_OK(m);
  AgentClass boat;
  boat.areas = uint64_t{1} << kWaterArea;
  absl::StatusOr<GridMap> sea = BuildAgentMap(m->map, m->areas, boat);
  ASSERT_OK(sea);
  SearchContext context;
  // From the top-left water cell to the bottom-right one, around the trees.
  absl::StatusOr<PathResult> r = FindPath(
      *sea,
      testing::Query({2, 0}, {5, 3}, Algorithm::kAuto,
                     DiagonalPolicy::kNoCornerCutting),
      context);
  ASSERT_OK(r);
  for (const Cell& c : r->cells) {
    EXPECT_EQ(m->areas[static_cast<size_t>(c.y) * 8 + c.x], kWaterArea)
        << c.x << "," << c.y;
  }
  // A ground cell is no port for the boat.
  EXPECT_TRUE(StatusIs(FindPath(*sea,
                                testing::Query({0, 0}, {5, 3}, Algorithm::kAStar,
                                               DiagonalPolicy::kNoCornerCutting),
                                context),
                       absl::StatusCode::kInvalidArgument, "start"));
}

TEST(AgentMapTest, RepairOfAMapOfAnotherSizeIsRefused) {
  const GridMap small = testing::Draw({"..", ".."});
  const GridMap large = testing::Draw({"...", "..."});
  EXPECT_TRUE(StatusIs(RepairAgentMap(small, large, {}, AgentClass{}, {}),
                       absl::StatusCode::kFailedPrecondition, "2 x 2"));
}

}  // namespace
}  // namespace gridstar
