// Agent maps (agents.h): one named test per edge case and per malformed
// class or area, and Moving AI terrain read as areas. The property tests
// against the footprint oracle are in agents_test.cc.
#include <cmath>
#include <string>
#include <vector>

#include "gridstar/agents.h"
#include "gridstar/find_path.h"
#include "gridstar/map_io.h"
#include "gridstar/search_context.h"
#include "gtest/gtest.h"
#include "testing/drawn_maps.h"
#include "testing/status_matchers.h"

namespace gridstar {
namespace {

using ::gridstar::testing::StatusIs;

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
