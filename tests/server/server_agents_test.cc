// Agent classes through the real server: areas read from Moving AI terrain
// and given raw, query filters, area costs and agent sizes on FindPath,
// FindPaths, FindGroupPaths and ComputeFlowField, area updates, the agent
// maps MapInfo reports, durability of areas through kill -9, and the
// errors naming their fields. Answers are compared with core's search on
// core's agent map (itself checked against a brute-force footprint search
// in tests/core/agents_test.cc): these tests check the wiring.
#include <algorithm>
#include <optional>
#include <string>
#include <vector>

#include "absl/strings/str_cat.h"
#include "gridstar/agents.h"
#include "gridstar/find_path.h"
#include "gridstar/map_io.h"
#include "gridstar/search_context.h"
#include "gtest/gtest.h"
#include "server/server_test_util.h"

namespace gridstar {
namespace {

using namespace testing::server_suite;  // NOLINT(build/namespaces)

// Ground around a lake with an island of trees, a swamp strip, a wall.
constexpr char kLake[] =
    "type octile\n"
    "height 10\n"
    "width 14\n"
    "map\n"
    "..............\n"
    "..WWWWWWWWW...\n"
    "..WWWWWWWWW.@.\n"
    "..WWWTTTWWW.@.\n"
    "..WWWTTTWWW.@.\n"
    "..WWWWWWWWW.@.\n"
    "..WWWWWWWWW...\n"
    ".SSSSSSSSSSS..\n"
    "..............\n"
    "..............\n";

constexpr uint64_t kWater = uint64_t{1} << kWaterArea;

v1::PathRequest AgentPath(const std::string& map, Cell s, Cell g,
                          uint64_t areas, int32_t size) {
  v1::PathRequest r = Path(map, s.x, s.y, g.x, g.y);
  r.set_areas(areas);
  r.set_agent_size(size);
  return r;
}

grpc::Status Find(v1::Pathfinding::Stub& stub, const v1::PathRequest& r,
                  v1::PathResponse* out) {
  grpc::ClientContext ctx;
  SetDeadline(&ctx);
  return stub.FindPath(&ctx, r, out);
}

// Core's answer for the class on the map read with areas.
double CoreCost(const MapWithAreas& m, const AgentClass& agent, Cell s,
                Cell g) {
  absl::StatusOr<GridMap> agent_map = BuildAgentMap(m.map, m.areas, agent);
  EXPECT_TRUE(agent_map.ok());
  SearchContext context;
  PathQuery q;
  q.start = s;
  q.goal = g;
  q.movement.diagonal =
      AgentPolicy(DiagonalPolicy::kNoCornerCutting, agent.size);
  absl::StatusOr<PathResult> r = FindPath(*agent_map, q, context);
  EXPECT_TRUE(r.ok()) << r.status();
  return r.ok() ? r->cost : -1;
}

class ServerAgentsTest : public ::testing::Test {
 protected:
  void SetUp() override {
    server_ = std::make_unique<InProcessServer>();
    ASSERT_TRUE(server_->started());
    v1::RegisterMapRequest r;
    r.set_id("lake");
    r.set_movingai(kLake);
    r.set_max_agent_size(2);
    grpc::ClientContext ctx;
    SetDeadline(&ctx);
    ASSERT_TRUE(server_->stub().RegisterMap(&ctx, r, &info_).ok());
    lake_ = *ParseMovingAiMapWithAreas(kLake);
  }
  v1::Pathfinding::Stub& stub() { return server_->stub(); }

  std::unique_ptr<InProcessServer> server_;
  v1::MapInfo info_;
  std::optional<MapWithAreas> lake_;
};

TEST_F(ServerAgentsTest, MovingAiTerrainIsReadAsAreasAndBlockedByDefault) {
  EXPECT_TRUE(info_.has_areas());
  EXPECT_EQ(info_.default_areas(), kMovingAiDefaultAreas);
  EXPECT_EQ(info_.max_agent_size(), 2);
  // Water and trees are not passable under the default areas.
  EXPECT_EQ(info_.passable_cells(), ParseMovingAiMap(kLake)->passable_count());
  EXPECT_EQ(info_.agent_maps(), 1u);  // Size 2, pinned at registration.
  EXPECT_GT(info_.agent_map_bytes(), 0u);
  v1::PathResponse out;
  grpc::Status s = Find(stub(), Path("lake", 3, 1, 0, 9), &out);
  EXPECT_EQ(s.error_code(), grpc::StatusCode::INVALID_ARGUMENT);
  EXPECT_NE(s.error_message().find("start: (3, 1) is blocked"),
            std::string::npos)
      << s.error_message();
  // GetMap gives the terrain (water costs 1) and the areas.
  v1::GetMapResponse got;
  ASSERT_TRUE(GetMapWithCells(stub(), "lake", &got).ok());
  const std::vector<uint8_t> costs = lake_->map.CopyCosts();
  EXPECT_EQ(got.raw(), std::string(costs.begin(), costs.end()));
  EXPECT_EQ(got.areas(),
            std::string(lake_->areas.begin(), lake_->areas.end()));
}

TEST_F(ServerAgentsTest, AWaterOnlyFilterSailsOverWater) {
  v1::PathResponse out;
  const Cell s{2, 1}, g{10, 6};
  ASSERT_TRUE(Find(stub(), AgentPath("lake", s, g, kWater, 1), &out).ok());
  for (const Cell& c : Unpack(out.cells())) {
    EXPECT_EQ(lake_->areas[static_cast<size_t>(c.y) * 14 + c.x], kWaterArea)
        << c.x << "," << c.y;
  }
  AgentClass boat;
  boat.areas = kWater;
  EXPECT_NEAR(out.cost(), CoreCost(*lake_, boat, s, g), 1e-9);
  // A boat cannot start on ground; the message says for which agent.
  grpc::Status bad = Find(stub(), AgentPath("lake", {0, 0}, g, kWater, 1), &out);
  EXPECT_EQ(bad.error_code(), grpc::StatusCode::INVALID_ARGUMENT);
  EXPECT_NE(bad.error_message().find("start: (0, 0) is blocked for an agent "
                                     "of size 1 in areas 0x4"),
            std::string::npos)
      << bad.error_message();
  v1::GetMapResponse got;
  ASSERT_TRUE(GetMapWithCells(stub(), "lake", &got).ok());
  EXPECT_EQ(got.info().agent_maps(), 2u);  // The boat's map is kept.
}

TEST_F(ServerAgentsTest, AgentMapsGetJumpTablesWhenTheMapHasOne) {
  v1::RegisterMapRequest r;
  r.set_id("tabled");
  r.set_movingai(kLake);
  r.set_jump_table(true);
  v1::MapInfo info;
  {
    grpc::ClientContext ctx;
    ASSERT_TRUE(stub().RegisterMap(&ctx, r, &info).ok());
  }
  const Cell s{2, 1}, g{10, 6};
  for (const v1::Algorithm algo :
       {v1::ALGORITHM_JPS_PLUS, v1::ALGORITHM_AUTO}) {
    v1::PathRequest boat = AgentPath("tabled", s, g, kWater, 1);
    boat.set_algorithm(algo);
    v1::PathResponse out;
    ASSERT_TRUE(Find(stub(), boat, &out).ok());
    EXPECT_EQ(out.algorithm(), v1::ALGORITHM_JPS_PLUS);
    AgentClass sailor;
    sailor.areas = kWater;
    EXPECT_NEAR(out.cost(), CoreCost(*lake_, sailor, s, g), 1e-9);
  }
  // Without the option, jps+ runs as jps there.
  v1::PathRequest plain = AgentPath("lake", s, g, kWater, 1);
  plain.set_algorithm(v1::ALGORITHM_JPS_PLUS);
  v1::PathResponse out;
  ASSERT_TRUE(Find(stub(), plain, &out).ok());
  EXPECT_EQ(out.algorithm(), v1::ALGORITHM_JPS);
}

TEST_F(ServerAgentsTest, AgentMapsGetTheHpaAbstractionAndTheSubgoalGraph) {
  v1::RegisterMapRequest r;
  r.set_id("abstracted");
  r.set_movingai(kLake);
  r.set_hpa(true);
  r.set_subgoal_graph(true);
  v1::MapInfo info;
  {
    grpc::ClientContext ctx;
    ASSERT_TRUE(stub().RegisterMap(&ctx, r, &info).ok());
  }
  const Cell s{2, 1}, g{10, 6};
  AgentClass sailor;
  sailor.areas = kWater;
  // A boat's map (water only: uniform) carries both: each runs as asked.
  for (const v1::Algorithm algo : {v1::ALGORITHM_HPA, v1::ALGORITHM_SUBGOAL}) {
    SCOPED_TRACE(v1::Algorithm_Name(algo));
    v1::PathRequest boat = AgentPath("abstracted", s, g, kWater, 1);
    boat.set_algorithm(algo);
    v1::PathResponse out;
    ASSERT_TRUE(Find(stub(), boat, &out).ok());
    EXPECT_EQ(out.algorithm(), algo) << out.note();
    EXPECT_TRUE(out.note().empty()) << out.note();
    if (algo == v1::ALGORITHM_SUBGOAL) {  // Exact; HPA* is near-optimal.
      EXPECT_NEAR(out.cost(), CoreCost(*lake_, sailor, s, g), 1e-9);
    } else {
      EXPECT_GE(out.cost(), CoreCost(*lake_, sailor, s, g) - 1e-9);
    }
  }
  // Without the options, hpa runs what auto would there.
  v1::PathRequest plain = AgentPath("lake", s, g, kWater, 1);
  plain.set_algorithm(v1::ALGORITHM_HPA);
  v1::PathResponse out;
  ASSERT_TRUE(Find(stub(), plain, &out).ok());
  EXPECT_NE(out.algorithm(), v1::ALGORITHM_HPA);
}

TEST_F(ServerAgentsTest, AreaCostsSteerAroundTheSwamp) {
  const Cell s{0, 7}, g{13, 7};
  v1::PathResponse through, around;
  ASSERT_TRUE(Find(stub(), Path("lake", s.x, s.y, g.x, g.y), &through).ok());
  v1::PathRequest r = Path("lake", s.x, s.y, g.x, g.y);
  r.add_area_costs(0);  // Ground: the default, 1.
  r.add_area_costs(5);  // Swamp costs five times as much.
  ASSERT_TRUE(Find(stub(), r, &around).ok());
  EXPECT_GT(around.cost(), through.cost());
  AgentClass wary;
  wary.areas = kMovingAiDefaultAreas;
  wary.area_costs[kSwampArea] = 5;
  EXPECT_NEAR(around.cost(), CoreCost(*lake_, wary, s, g), 1e-9);
  for (const Cell& c : Unpack(around.cells())) {
    EXPECT_NE(lake_->areas[static_cast<size_t>(c.y) * 14 + c.x], kSwampArea);
  }
}

TEST_F(ServerAgentsTest, BigAgentsGetPathsTheirSquaresFitAlong) {
  const Cell s{0, 7}, g{11, 7};
  for (int32_t size : {1, 2, 3}) {
    SCOPED_TRACE(size);
    v1::PathResponse out;
    ASSERT_TRUE(
        Find(stub(), AgentPath("lake", s, g, 0, size), &out).ok());
    AgentClass agent;
    agent.areas = kMovingAiDefaultAreas;
    agent.size = size;
    EXPECT_NEAR(out.cost(), CoreCost(*lake_, agent, s, g), 1e-9);
    const absl::StatusOr<GridMap> seen =
        BuildAgentMap(lake_->map, lake_->areas, agent);
    for (const Cell& c : Unpack(out.cells())) EXPECT_TRUE(seen->Passable(c));
  }
  // Snapping finds a cell free for the agent's whole square: (11, 2)'s
  // square holds the wall at (12, 2). (The ground above the wall is cut
  // off from the south for a 2 x 2 agent: the goal is up there.)
  v1::PathRequest snapped = AgentPath("lake", {11, 2}, {12, 0}, 0, 2);
  snapped.set_snap_radius(3);
  v1::PathResponse out;
  ASSERT_TRUE(Find(stub(), snapped, &out).ok());
  AgentClass two;
  two.areas = kMovingAiDefaultAreas;
  two.size = 2;
  const Cell start = convert::CellFromProto(out.start());
  EXPECT_NE(start, (Cell{11, 2}));
  EXPECT_TRUE(BuildAgentMap(lake_->map, lake_->areas, two)->Passable(start));
  // Size 3 was not pinned: it is built on first use and kept.
  v1::GetMapResponse got;
  ASSERT_TRUE(GetMapWithCells(stub(), "lake", &got).ok());
  EXPECT_EQ(got.info().agent_maps(), 2u);
}

TEST_F(ServerAgentsTest, BadAgentFieldsAreNamed) {
  struct Case {
    const char* name;
    v1::PathRequest request;
    const char* message;
  };
  std::vector<Case> cases;
  cases.push_back({"size", AgentPath("lake", {0, 0}, {1, 1}, 0, 9),
                   "agent_size: 9 is outside [1, 8]"});
  v1::PathRequest low = Path("lake", 0, 0, 1, 1);
  low.add_area_costs(0.5);
  cases.push_back({"multiplier", low, "area_costs[0]: 0.5"});
  v1::PathRequest many = Path("lake", 0, 0, 1, 1);
  for (int i = 0; i < 65; ++i) many.add_area_costs(1);
  cases.push_back({"entries", many, "area_costs: 65 entries"});
  v1::PathRequest dear = Path("lake", 0, 0, 1, 1);
  dear.add_area_costs(300);
  cases.push_back({"overflow", dear, "area_costs[0]: cost 1 at"});
  for (const Case& c : cases) {
    SCOPED_TRACE(c.name);
    v1::PathResponse out;
    grpc::Status s = Find(stub(), c.request, &out);
    EXPECT_EQ(s.error_code(), grpc::StatusCode::INVALID_ARGUMENT);
    EXPECT_NE(s.error_message().find(c.message), std::string::npos)
        << s.error_message();
  }
  // In a batch, the item is named.
  v1::FindPathsRequest batch;
  batch.set_map_id("lake");
  *batch.add_items() = AgentPath("lake", {0, 0}, {1, 1}, 0, 1);
  *batch.add_items() = AgentPath("lake", {0, 0}, {1, 1}, 0, 9);
  v1::FindPathsResponse answers;
  grpc::ClientContext ctx;
  SetDeadline(&ctx);
  ASSERT_TRUE(stub().FindPaths(&ctx, batch, &answers).ok());
  EXPECT_EQ(answers.results(0).code(), 0);
  EXPECT_EQ(answers.results(1).code(), grpc::StatusCode::INVALID_ARGUMENT);
  EXPECT_NE(answers.results(1).message().find("items[1].agent_size"),
            std::string::npos)
      << answers.results(1).message();
}

TEST_F(ServerAgentsTest, RawAreasAreValidated) {
  v1::RegisterMapRequest r;
  r.set_id("raw");
  r.set_raw(std::string(4, '\1'));
  r.set_width(2);
  r.set_height(2);
  r.set_areas(std::string("\0\0\0", 3));
  v1::MapInfo info;
  {
    grpc::ClientContext ctx;
    grpc::Status s = stub().RegisterMap(&ctx, r, &info);
    EXPECT_EQ(s.error_code(), grpc::StatusCode::INVALID_ARGUMENT);
    EXPECT_NE(s.error_message().find("areas: 3 bytes"), std::string::npos);
  }
  r.set_areas(std::string("\0\0\0\x40", 4));
  {
    grpc::ClientContext ctx;
    grpc::Status s = stub().RegisterMap(&ctx, r, &info);
    EXPECT_EQ(s.error_code(), grpc::StatusCode::INVALID_ARGUMENT);
    EXPECT_NE(s.error_message().find("areas: area 64 of cell (1, 1)"),
              std::string::npos)
        << s.error_message();
  }
  r.set_max_agent_size(9);
  r.set_areas(std::string("\0\0\0\1", 4));
  {
    grpc::ClientContext ctx;
    grpc::Status s = stub().RegisterMap(&ctx, r, &info);
    EXPECT_EQ(s.error_code(), grpc::StatusCode::INVALID_ARGUMENT);
    EXPECT_NE(s.error_message().find("max_agent_size: 9"), std::string::npos);
  }
  // Raw maps allow every area by default.
  r.set_max_agent_size(0);
  grpc::ClientContext ctx;
  ASSERT_TRUE(stub().RegisterMap(&ctx, r, &info).ok());
  EXPECT_EQ(info.default_areas(), kAllAreas);
  EXPECT_EQ(info.passable_cells(), 4);
}

TEST_F(ServerAgentsTest, AreaUpdatesChangeWhoMayPass) {
  // The shore cell (11, 1) becomes water: ground walkers lose it, boats get
  // it, and its cost changes with it.
  v1::UpdateCellsRequest u;
  u.set_id("lake");
  v1::CellUpdate* c = u.add_cells();
  c->mutable_cell()->set_x(11);
  c->mutable_cell()->set_y(1);
  c->set_cost(1);
  c->set_area(kWaterArea);
  v1::MapInfo info;
  {
    grpc::ClientContext ctx;
    ASSERT_TRUE(stub().UpdateCells(&ctx, u, &info).ok());
  }
  EXPECT_EQ(info.version(), 2u);
  EXPECT_EQ(info.passable_cells(), info_.passable_cells() - 1);
  EXPECT_EQ(info.agent_maps(), 1u);  // The pinned size 2, repaired.
  v1::PathResponse out;
  EXPECT_EQ(Find(stub(), Path("lake", 11, 1, 0, 0), &out).error_code(),
            grpc::StatusCode::INVALID_ARGUMENT);
  ASSERT_TRUE(Find(stub(), AgentPath("lake", {11, 1}, {2, 1}, kWater, 1), &out)
                  .ok());
  // A bad area is named; nothing changes.
  c->set_area(64);
  grpc::ClientContext ctx;
  grpc::Status s = stub().UpdateCells(&ctx, u, &info);
  EXPECT_EQ(s.error_code(), grpc::StatusCode::INVALID_ARGUMENT);
  EXPECT_NE(s.error_message().find("cells[0].area: 64"), std::string::npos)
      << s.error_message();
  // Every version's agent maps equal a fresh build on its content.
  v1::GetMapResponse got;
  ASSERT_TRUE(GetMapWithCells(stub(), "lake", &got).ok());
  EXPECT_EQ(got.info().version(), 2u);
  std::vector<uint8_t> areas(got.areas().begin(), got.areas().end());
  EXPECT_EQ(areas[1 * 14 + 11], kWaterArea);
  const GridMap terrain = *GridMap::FromCosts(
      14, 10, std::vector<uint8_t>(got.raw().begin(), got.raw().end()));
  AgentClass big;
  big.areas = kMovingAiDefaultAreas;
  big.size = 2;
  const Cell from{0, 7}, to{12, 8};
  v1::PathResponse two;
  ASSERT_TRUE(Find(stub(), AgentPath("lake", from, to, 0, 2), &two).ok());
  MapWithAreas now{terrain, areas, kMovingAiDefaultAreas};
  EXPECT_NEAR(two.cost(), CoreCost(now, big, from, to), 1e-9);
}

TEST_F(ServerAgentsTest, FlowFieldsAndGroupsHonourTheClass) {
  v1::FlowFieldRequest f;
  f.set_map_id("lake");
  f.mutable_goal()->set_x(10);
  f.mutable_goal()->set_y(6);
  f.set_areas(kWater);
  v1::FlowFieldResponse field;
  {
    grpc::ClientContext ctx;
    SetDeadline(&ctx);
    ASSERT_TRUE(stub().ComputeFlowField(&ctx, f, &field).ok());
  }
  EXPECT_FALSE(field.cached());
  int64_t water = 0;
  for (uint8_t a : lake_->areas) water += a == kWaterArea;
  EXPECT_EQ(field.reached_cells(), water);
  for (int i = 0; i < 140; ++i) {
    EXPECT_EQ(field.costs(i) >= 0, lake_->areas[i] == kWaterArea) << i;
  }
  // The same goal for ground walkers is another field, cached apart.
  v1::FlowFieldResponse ground;
  {
    grpc::ClientContext ctx;
    SetDeadline(&ctx);
    v1::FlowFieldRequest g = f;
    g.set_areas(0);
    g.mutable_goal()->set_x(13);
    EXPECT_EQ(stub().ComputeFlowField(&ctx, g, &ground).error_code(),
              grpc::StatusCode::OK);
  }
  {
    grpc::ClientContext ctx;
    SetDeadline(&ctx);
    ASSERT_TRUE(stub().ComputeFlowField(&ctx, f, &field).ok());
    EXPECT_TRUE(field.cached());
  }
  // A fleet of boats.
  v1::GroupPathsRequest g;
  g.set_map_id("lake");
  for (int x : {2, 4, 9}) {
    v1::Cell* start = g.add_starts();
    start->set_x(x);
    start->set_y(1);
  }
  v1::Cell* goal = g.add_goals();
  goal->set_x(10);
  goal->set_y(6);
  g.set_areas(kWater);
  g.set_method(v1::GROUP_METHOD_FLOW_FIELD);
  v1::GroupPathsResponse group;
  grpc::ClientContext ctx;
  SetDeadline(&ctx);
  ASSERT_TRUE(stub().FindGroupPaths(&ctx, g, &group).ok());
  EXPECT_TRUE(group.flow_field_cached());  // The boats' field from above.
  for (const v1::UnitPath& unit : group.units()) {
    ASSERT_EQ(unit.code(), 0) << unit.message();
    for (const Cell& c : Unpack(unit.path().cells())) {
      EXPECT_EQ(lake_->areas[static_cast<size_t>(c.y) * 14 + c.x], kWaterArea);
    }
  }
}

TEST_F(ServerAgentsTest, WatchedBigAgentsAreReplannedOnTheirClassMap) {
  grpc::ClientContext ctx;
  SetDeadline(&ctx);
  auto stream = stub().WatchPaths(&ctx);
  v1::WatchRequest add;
  add.set_request_id(1);
  add.set_agent_id(7);
  add.set_action(v1::WATCH_ACTION_ADD);
  const Cell s{0, 7}, g{12, 8};
  *add.mutable_path() = AgentPath("lake", s, g, 0, 2);
  ASSERT_TRUE(stream->Write(add));
  v1::WatchEvent e;
  ASSERT_TRUE(stream->Read(&e));
  ASSERT_EQ(e.code(), 0) << e.message();
  EXPECT_EQ(e.reason(), v1::WATCH_REASON_ADDED);
  const std::vector<Cell> first = Unpack(e.path().cells());
  // Block a cell under the agent's square but off its top-left cells: only
  // the class's map sees that the path broke.
  Cell under{-1, -1};
  for (const Cell& c : first) {
    const Cell below{c.x, c.y + 1};
    if (std::find(first.begin(), first.end(), below) == first.end() &&
        c.x > 2 && c.x < 10) {
      under = below;
      break;
    }
  }
  ASSERT_NE(under.x, -1);
  v1::UpdateCellsRequest u;
  u.set_id("lake");
  v1::CellUpdate* cu = u.add_cells();
  cu->mutable_cell()->set_x(under.x);
  cu->mutable_cell()->set_y(under.y);
  cu->set_cost(0);
  v1::MapInfo info;
  {
    grpc::ClientContext uctx;
    ASSERT_TRUE(stub().UpdateCells(&uctx, u, &info).ok());
  }
  ASSERT_TRUE(stream->Read(&e));
  ASSERT_EQ(e.code(), 0) << e.message();
  EXPECT_EQ(e.request_id(), 0u);
  EXPECT_EQ(e.reason(), v1::WATCH_REASON_BLOCKED);
  EXPECT_EQ(e.map_version(), 2u);
  EXPECT_FALSE(e.incremental());
  // The new path is legal for the 2 x 2 agent on version 2.
  v1::GetMapResponse got;
  ASSERT_TRUE(GetMapWithCells(stub(), "lake", &got).ok());
  const GridMap terrain = *GridMap::FromCosts(
      14, 10, std::vector<uint8_t>(got.raw().begin(), got.raw().end()));
  AgentClass big;
  big.areas = kMovingAiDefaultAreas;
  big.size = 2;
  const GridMap seen = *BuildAgentMap(terrain, lake_->areas, big);
  const std::vector<Cell> replanned = Unpack(e.path().cells());
  ASSERT_FALSE(replanned.empty());
  EXPECT_GE(PathCost(seen, replanned, DiagonalPolicy::kNoCornerCutting), 0);
  EXPECT_NEAR(e.path().cost(),
              CoreCost(MapWithAreas{terrain, lake_->areas,
                                    kMovingAiDefaultAreas},
                       big, s, g),
              1e-9);
  stream->WritesDone();
  while (stream->Read(&e)) {
  }
  EXPECT_TRUE(stream->Finish().ok());
}

TEST(ServerAgentsDurabilityTest, AreasAndAreaUpdatesSurviveKillNine) {
  const std::string dir =
      absl::StrCat(::testing::TempDir(), "/gsagents.", getpid());
  ASSERT_EQ(
      std::system(absl::StrCat("rm -rf ", dir, " && mkdir -p ", dir).c_str()),
      0);
  v1::PathResponse before;
  {
    ServerProcess server({absl::StrCat("--data_dir=", dir)});
    ASSERT_TRUE(server.started());
    v1::RegisterMapRequest r;
    r.set_id("lake");
    r.set_movingai(kLake);
    r.set_max_agent_size(3);
    v1::MapInfo info;
    {
      grpc::ClientContext ctx;
      ASSERT_TRUE(server.stub().RegisterMap(&ctx, r, &info).ok());
    }
    v1::UpdateCellsRequest u;
    u.set_id("lake");
    v1::RectUpdate* rect = u.add_rects();
    rect->mutable_rect()->mutable_min()->set_x(11);
    rect->mutable_rect()->mutable_max()->set_x(12);
    rect->mutable_rect()->mutable_max()->set_y(7);
    rect->set_cost(1);
    rect->set_area(kWaterArea);
    {
      grpc::ClientContext ctx;
      ASSERT_TRUE(server.stub().UpdateCells(&ctx, u, &info).ok());
    }
    ASSERT_TRUE(
        Find(server.stub(), AgentPath("lake", {11, 0}, {2, 6}, kWater, 1), &before)
            .ok());
    server.Kill9();
  }
  ServerProcess server({absl::StrCat("--data_dir=", dir)});
  ASSERT_TRUE(server.started());
  v1::GetMapResponse got;
  ASSERT_TRUE(GetMapWithCells(server.stub(), "lake", &got).ok());
  EXPECT_EQ(got.info().version(), 2u);
  EXPECT_EQ(got.info().max_agent_size(), 3);
  EXPECT_EQ(got.info().default_areas(), kMovingAiDefaultAreas);
  EXPECT_EQ(got.info().agent_maps(), 2u);  // Sizes 2 and 3, pinned again.
  EXPECT_EQ(static_cast<uint8_t>(got.areas()[0 * 14 + 11]), kWaterArea);
  v1::PathResponse after;
  ASSERT_TRUE(
      Find(server.stub(), AgentPath("lake", {11, 0}, {2, 6}, kWater, 1), &after)
          .ok());
  EXPECT_EQ(after.cost(), before.cost());
  EXPECT_EQ(Unpack(after.cells()), Unpack(before.cells()));
}

}  // namespace
}  // namespace gridstar
