// Precomputed structures through the real server: MapInfo.derived, the
// jump table and landmarks through updates, auto's measurement, and the
// --max_derived_bytes limit.

#include <atomic>
#include <chrono>
#include <cmath>
#include <cstdlib>
#include <fstream>
#include <map>
#include <mutex>
#include <random>
#include <set>
#include <string>
#include <thread>
#include <vector>

#include "absl/strings/match.h"
#include "absl/strings/str_cat.h"
#include "gridstar/engines/jps.h"
#include "gridstar/find_path.h"
#include "gridstar/map_io.h"
#include "gtest/gtest.h"
#include "server/server_test_util.h"
#include "testing/reference.h"

namespace gridstar {
namespace {

// The suites' shared names (server_test_util.h).
using namespace testing::server_suite;  // NOLINT(build/namespaces)

// MapInfo.derived lists every structure the map was registered with, in
// build order, with the figures of the deprecated per-structure fields of
// the same answer: at registration, and right after an update (whatever the
// background work has done by then: both come from one version).
void ExpectDerivedMatchesItsFields(const v1::MapInfo& info) {
  SCOPED_TRACE(absl::StrCat("version ", info.version()));
  // auto_choice only where the server measures (the tests' servers do not).
  const bool measured = info.auto_measure_queries() > 0;
  ASSERT_EQ(info.derived_size(), measured ? 5 : 4);
  const char* names[] = {"landmarks", "jump_table", "hpa", "subgoal_graph", "auto_choice"};
  for (int i = 0; i < info.derived_size(); ++i) EXPECT_EQ(info.derived(i).name(), names[i]);
  const v1::DerivedInfo& landmarks = info.derived(0);
  EXPECT_EQ(landmarks.bytes(), info.landmark_bytes());
  EXPECT_EQ(landmarks.build_micros(), info.landmark_build_micros());
  EXPECT_EQ(landmarks.current(), info.landmarks_current());
  const v1::DerivedInfo& table = info.derived(1);
  EXPECT_EQ(table.bytes(), info.jump_table_bytes());
  EXPECT_EQ(table.build_micros(), info.jump_table_build_micros());
  EXPECT_EQ(table.current(), info.jump_table_current());
  const v1::DerivedInfo& hpa = info.derived(2);
  EXPECT_EQ(hpa.bytes(), info.hpa_bytes());
  EXPECT_EQ(hpa.build_micros(), info.hpa_build_micros());
  EXPECT_TRUE(hpa.current());
  const v1::DerivedInfo& graph = info.derived(3);
  EXPECT_EQ(graph.bytes(), info.subgoal_graph_bytes());
  EXPECT_EQ(graph.build_micros(), info.subgoal_graph_build_micros());
  EXPECT_EQ(graph.current(), info.subgoal_graph_current());
  if (measured) {
    EXPECT_GT(info.derived(4).bytes(), 0u);
    EXPECT_TRUE(info.derived(4).current());
  }
}

TEST_F(ServerTest, MapInfoDerivedListsEveryStructureWithItsFieldsFigures) {
  v1::RegisterMapRequest r;
  r.set_id("all");
  r.set_movingai(dungeon_);
  r.set_jump_table(true);
  r.set_landmarks(4);
  r.set_hpa(true);
  r.set_subgoal_graph(true);
  v1::MapInfo info;
  {
    grpc::ClientContext ctx;
    ASSERT_TRUE(stub().RegisterMap(&ctx, r, &info).ok());
  }
  ExpectDerivedMatchesItsFields(info);
  for (const v1::DerivedInfo& d : info.derived()) {
    SCOPED_TRACE(d.name());
    EXPECT_TRUE(d.current());
    EXPECT_GT(d.bytes(), 0u);
  }
  // An update that makes a cell cheaper (landmarks rebuilt) and changes
  // passability (table repaired, graph rebuilt, clusters repaired).
  const auto [s, g] = FarPair();
  v1::UpdateCellsRequest u;
  u.set_id("all");
  v1::CellUpdate* cu = u.add_cells();
  cu->mutable_cell()->set_x(s.x);
  cu->mutable_cell()->set_y(s.y);
  cu->set_cost(0);
  {
    grpc::ClientContext ctx;
    ASSERT_TRUE(stub().UpdateCells(&ctx, u, &info).ok());
  }
  ExpectDerivedMatchesItsFields(info);
  v1::GetMapRequest get;
  get.set_id("all");
  v1::GetMapResponse got;
  {
    grpc::ClientContext ctx;
    ASSERT_TRUE(stub().GetMap(&ctx, get, &got).ok());
  }
  ExpectDerivedMatchesItsFields(got.info());
}

// RegisterMapRequest.structures asks by name what the four fields ask for
// (the same content), with a count of 0 meaning the structure's default;
// every bad request names its field.
TEST_F(ServerTest, StructuresAskedForByNameAreTheFieldsEquivalent) {
  v1::RegisterMapRequest r;
  r.set_id("named");
  r.set_movingai(dungeon_);
  v1::StructureRequest* hpa = r.add_structures();
  hpa->set_name("hpa");
  r.add_structures()->set_name("landmarks");  // count 0: 8
  v1::MapInfo info;
  {
    grpc::ClientContext ctx;
    grpc::Status st = stub().RegisterMap(&ctx, r, &info);
    ASSERT_TRUE(st.ok()) << st.error_message();
  }
  EXPECT_TRUE(info.hpa());
  EXPECT_EQ(info.landmarks(), 8);
  EXPECT_FALSE(info.jump_table());
  std::vector<std::string> names;
  for (const v1::DerivedInfo& d : info.derived()) names.push_back(d.name());
  EXPECT_NE(std::find(names.begin(), names.end(), "hpa"), names.end());
  EXPECT_NE(std::find(names.begin(), names.end(), "landmarks"), names.end());
  // The same content asked for by the fields: the same version.
  v1::RegisterMapRequest same;
  same.set_id("named");
  same.set_movingai(dungeon_);
  same.set_hpa(true);
  same.set_landmarks(8);
  v1::MapInfo again;
  {
    grpc::ClientContext ctx;
    ASSERT_TRUE(stub().RegisterMap(&ctx, same, &again).ok());
  }
  EXPECT_EQ(again.version(), info.version());
  struct Case {
    const char* name;
    int count;
    bool also_field;
    const char* says;
  };
  for (const Case& c :
       {Case{"no_such_structure", 0, false,
             "no engine keeps a structure named 'no_such_structure' (known: "},
        Case{"hpa", 2, false, "hpa: 2 is out of range [0, 1]"},
        Case{"landmarks", 33, false, "landmarks: 33 is out of range [0, 32]"},
        Case{"jump_table", 0, true,
             "structures[0]: 'jump_table' is asked for twice"},
        Case{"", 0, false, "structures[0].name: empty"}}) {
    SCOPED_TRACE(c.name);
    v1::RegisterMapRequest bad;
    bad.set_id("bad");
    bad.set_movingai(dungeon_);
    bad.set_jump_table(c.also_field);
    v1::StructureRequest* s = bad.add_structures();
    s->set_name(c.name);
    s->set_count(c.count);
    grpc::ClientContext ctx;
    v1::MapInfo out;
    grpc::Status st = stub().RegisterMap(&ctx, bad, &out);
    EXPECT_EQ(st.error_code(), grpc::StatusCode::INVALID_ARGUMENT);
    EXPECT_TRUE(absl::StrContains(st.error_message(), c.says))
        << st.error_message();
  }
}

// jps+ needs uniform costs: an update that keeps them rebuilds the table;
// one that breaks them drops it, and auto falls back to A*. Every answer is
// the library's on the updated map.
TEST_F(ServerTest, JumpTableFollowsUpdates) {
  const auto [s, g] = FarPair();
  GridMap local = *map_;
  auto search = [&](v1::Algorithm want_algorithm) {
    grpc::ClientContext ctx;
    SetDeadline(&ctx);
    v1::PathResponse out;
    ASSERT_TRUE(stub().FindPath(&ctx, Path("dungeon", s.x, s.y, g.x, g.y), &out).ok());
    EXPECT_EQ(out.algorithm(), want_algorithm);
    SearchContext context;
    PathQuery q;
    q.start = s;
    q.goal = g;
    absl::StatusOr<PathResult> want = gridstar::FindPath(local, q, context);
    ASSERT_TRUE(want.ok());
    EXPECT_NEAR(out.cost(), want->cost, 1e-9);
    EXPECT_NEAR(PathCost(local, Unpack(out.cells()), q.movement.diagonal), out.cost(), 1e-6);
  };
  search(v1::ALGORITHM_JPS_PLUS);
  std::vector<uint8_t> costs = local.CopyCosts();
  auto update = [&](Cell c, uint8_t cost) {
    v1::UpdateCellsRequest u;
    u.set_id("dungeon");
    v1::CellUpdate* cu = u.add_cells();
    cu->mutable_cell()->set_x(c.x);
    cu->mutable_cell()->set_y(c.y);
    cu->set_cost(cost);
    grpc::ClientContext ctx;
    v1::MapInfo info;
    EXPECT_TRUE(stub().UpdateCells(&ctx, u, &info).ok());
    costs[static_cast<size_t>(c.y) * local.width() + c.x] = cost;
    local = *GridMap::FromCosts(local.width(), local.height(), costs);
    return info;
  };
  // Block a cell on the current path: still uniform. The update answers
  // before the table's repair (jump_table_current false, jps meanwhile,
  // searched at once below whichever runs), and the background repair
  // installs the table in that same version.
  grpc::ClientContext ctx0;
  v1::PathResponse before;
  ASSERT_TRUE(stub().FindPath(&ctx0, Path("dungeon", s.x, s.y, g.x, g.y), &before).ok());
  const std::vector<Cell> cells = Unpack(before.cells());
  v1::MapInfo info = update(cells[cells.size() / 3], 0);
  EXPECT_TRUE(info.jump_table());
  EXPECT_FALSE(info.jump_table_current());
  EXPECT_EQ(info.jump_table_bytes(), 0u);
  EXPECT_EQ(info.auto_algorithm(), v1::ALGORITHM_JPS);
  {
    grpc::ClientContext ctx;
    SetDeadline(&ctx);
    v1::PathResponse out;
    ASSERT_TRUE(stub().FindPath(&ctx, Path("dungeon", s.x, s.y, g.x, g.y), &out).ok());
    EXPECT_NEAR(out.cost(), CoreAStarCost(local, s, g), 1e-9);
  }
  v1::MapInfo repaired;
  ASSERT_TRUE(WaitFor([&] {
    v1::GetMapResponse got;
    if (!GetMapWithCells(stub(), "dungeon", &got).ok()) return false;
    repaired = got.info();
    return repaired.jump_table_current();
  }));
  EXPECT_EQ(repaired.version(), info.version());
  EXPECT_EQ(repaired.jump_table_bytes(), JumpTableBytes(*map_));
  // The registration's measurement decides again once the table is back.
  EXPECT_EQ(repaired.auto_algorithm(), MeasuredFastest(repaired));
  ASSERT_TRUE(BuildJumpTable(&local).ok());
  search(v1::ALGORITHM_JPS_PLUS);
  // A cell of cost 5: no longer uniform, no table, A* answers.
  info = update(cells[2 * cells.size() / 3], 5);
  EXPECT_TRUE(info.jump_table());
  EXPECT_TRUE(info.jump_table_current());  // Nothing pending: no table applies.
  EXPECT_EQ(info.jump_table_bytes(), 0u);
  search(v1::ALGORITHM_ASTAR);
}

// Derived data is opt-in and bounded per map: a registration asking for more
// jump table and landmark memory than --max_derived_bytes is refused.
TEST(ServerLimitsTest, DerivedDataOverTheLimitIsResourceExhausted) {
  // The sample dungeon pads to 130 x 130 = 16,900 cells: a jump table (one
  // byte per direction) takes 9 x 5 blocks of 16 x 32 cells, 4 KiB each =
  // 184,320 bytes; a landmark 135,200.
  InProcessServer server({"--max_derived_bytes=200000"});
  ASSERT_TRUE(server.started());
  const std::string dungeon = ReadSample("dungeon.map");
  v1::MapInfo info;
  ASSERT_TRUE(Register(server.stub(), "table", dungeon, &info, false, true).ok());
  EXPECT_EQ(info.jump_table_bytes(), 184320u);
  v1::RegisterMapRequest r;
  r.set_id("both");
  r.set_movingai(dungeon);
  r.set_jump_table(true);
  r.set_landmarks(1);
  grpc::ClientContext ctx;
  grpc::Status st = server.stub().RegisterMap(&ctx, r, &info);
  EXPECT_EQ(st.error_code(), grpc::StatusCode::RESOURCE_EXHAUSTED);
  EXPECT_NE(st.error_message().find("--max_derived_bytes"), std::string::npos)
      << st.error_message();
  EXPECT_NE(st.error_message().find("landmarks"), std::string::npos);
  r.set_jump_table(false);
  r.set_landmarks(1);  // 135,200 bytes: within the limit.
  grpc::ClientContext ctx2;
  ASSERT_TRUE(server.stub().RegisterMap(&ctx2, r, &info).ok());
  EXPECT_EQ(info.landmark_bytes(), 135200u);
}

// Landmarks asked for at registration serve auto on terrain; an update that
// only raises costs keeps them, one that lowers a cost rebuilds them.
TEST_F(ServerTest, LandmarksServeTerrainAndFollowUpdates) {
  v1::RegisterMapRequest r;
  r.set_id("terrain");
  r.set_pgm(ReadSample("terrain.pgm"));
  r.set_landmarks(4);
  v1::MapInfo info;
  {
    grpc::ClientContext ctx;
    ASSERT_TRUE(stub().RegisterMap(&ctx, r, &info).ok());
  }
  EXPECT_EQ(info.landmarks(), 4);
  EXPECT_GT(info.landmark_bytes(), 0u);
  EXPECT_GT(info.landmark_build_micros(), 0);
  ASSERT_EQ(info.auto_candidates_size(), 3);
  EXPECT_EQ(info.auto_candidates(0).algorithm(), v1::ALGORITHM_ALT);
  const GridMap terrain = *ParsePgm(ReadSample("terrain.pgm"));
  const auto [s, g] = testing::FarConnectedPair(terrain);
  auto search = [&](const GridMap& local) {
    grpc::ClientContext ctx;
    v1::PathResponse out;
    ASSERT_TRUE(stub().FindPath(&ctx, Path("terrain", s.x, s.y, g.x, g.y), &out).ok());
    // auto runs what the registration measured fastest among alt,
    // bidirectional and astar (alt by far on this terrain, but measured).
    EXPECT_EQ(out.algorithm(), MeasuredFastest(info));
    EXPECT_NEAR(out.cost(), CoreAStarCost(local, s, g), 1e-9);
  };
  search(terrain);
  std::vector<uint8_t> costs = terrain.CopyCosts();
  // Sets the passable cells of a square to `cost` (blocked ones stay so).
  auto update = [&](uint8_t cost) {
    v1::UpdateCellsRequest u;
    u.set_id("terrain");
    for (int y = 40; y < 60; ++y) {
      for (int x = 40; x < 60; ++x) {
        uint8_t& c = costs[static_cast<size_t>(y) * terrain.width() + x];
        if (c == 0) continue;
        c = cost;
        v1::CellUpdate* cu = u.add_cells();
        cu->mutable_cell()->set_x(x);
        cu->mutable_cell()->set_y(y);
        cu->set_cost(cost);
      }
    }
    grpc::ClientContext ctx;
    v1::MapInfo after;
    EXPECT_TRUE(stub().UpdateCells(&ctx, u, &after).ok());
    return after;
  };
  // Raised to the dearest cost: kept, nothing built.
  v1::MapInfo after = update(255);
  EXPECT_EQ(after.landmark_bytes(), info.landmark_bytes());
  EXPECT_EQ(after.landmark_build_micros(), 0);
  search(*GridMap::FromCosts(terrain.width(), terrain.height(), costs));
  EXPECT_TRUE(after.landmarks_current());
  // Lowered to 1: the new version answers at once without landmarks, and
  // the background rebuild installs new ones in that same version.
  after = update(1);
  EXPECT_FALSE(after.landmarks_current());
  EXPECT_EQ(after.landmark_bytes(), 0u);
  v1::MapInfo rebuilt;
  ASSERT_TRUE(WaitFor([&] {
    v1::GetMapResponse got;
    if (!GetMapWithCells(stub(), "terrain", &got).ok()) return false;
    rebuilt = got.info();
    return rebuilt.landmarks_current();
  }));
  EXPECT_EQ(rebuilt.version(), after.version());
  EXPECT_EQ(rebuilt.landmark_bytes(), info.landmark_bytes());
  EXPECT_GT(rebuilt.landmark_build_micros(), 0);
  search(*GridMap::FromCosts(terrain.width(), terrain.height(), costs));
  r.set_landmarks(33);
  r.set_id("more");
  grpc::ClientContext ctx;
  grpc::Status st = stub().RegisterMap(&ctx, r, &info);
  EXPECT_EQ(st.error_code(), grpc::StatusCode::INVALID_ARGUMENT);
  EXPECT_NE(st.error_message().find("landmarks: 33"), std::string::npos);
}

// What auto runs is measured at registration (every exact engine that
// applies, on random queries of the map), reported in MapInfo, kept by the
// versions after, and turned off by --auto_measure_queries=0 (the rule).
TEST_F(ServerTest, AutoIsMeasuredAtRegistrationAndKept) {
  v1::MapInfo info;
  ASSERT_TRUE(Register(stub(), "measured", dungeon_, &info, false, true).ok());
  ASSERT_EQ(info.auto_candidates_size(), 4);
  const v1::Algorithm listed[] = {v1::ALGORITHM_JPS_PLUS, v1::ALGORITHM_JPS,
                                  v1::ALGORITHM_BIDIRECTIONAL,
                                  v1::ALGORITHM_ASTAR};
  for (int i = 0; i < 4; ++i) {
    SCOPED_TRACE(i);
    const v1::AutoCandidate& c = info.auto_candidates(i);
    EXPECT_EQ(c.algorithm(), listed[i]);
    EXPECT_LE(c.queries(), info.auto_measure_queries());
    EXPECT_EQ(c.dropped(), c.queries() < info.auto_measure_queries());
    if (c.queries() > 0) {
      EXPECT_GT(c.mean_us(), 0);
    }
  }
  EXPECT_GE(info.auto_measure_queries(), 1);
  EXPECT_LE(info.auto_measure_queries(), 96);
  EXPECT_GT(info.auto_measure_micros(), 0);
  EXPECT_GT(info.auto_flow_us_per_cell(), 0);
  const v1::Algorithm fastest = MeasuredFastest(info);
  ASSERT_NE(fastest, v1::ALGORITHM_UNSPECIFIED);
  EXPECT_EQ(info.auto_algorithm(), fastest);
  const auto [s, g] = testing::FarConnectedPair(*map_);
  {
    grpc::ClientContext ctx;
    SetDeadline(&ctx);
    v1::PathResponse out;
    ASSERT_TRUE(stub().FindPath(&ctx, Path("measured", s.x, s.y, g.x, g.y), &out).ok());
    EXPECT_EQ(out.algorithm(), fastest);
  }
  // An update (one cell blocked) keeps the measurement.
  Cell blocked{-1, -1};
  for (int32_t y = 0; y < map_->height() && blocked.x < 0; ++y) {
    for (int32_t x = 0; x < map_->width(); ++x) {
      const Cell c{x, y};
      if (map_->Passable(c) && c != s && c != g) {
        blocked = c;
        break;
      }
    }
  }
  v1::UpdateCellsRequest u;
  u.set_id("measured");
  v1::CellUpdate* cu = u.add_cells();
  cu->mutable_cell()->set_x(blocked.x);
  cu->mutable_cell()->set_y(blocked.y);
  cu->set_cost(0);
  v1::MapInfo after;
  {
    grpc::ClientContext ctx;
    SetDeadline(&ctx);
    ASSERT_TRUE(stub().UpdateCells(&ctx, u, &after).ok());
  }
  EXPECT_EQ(after.version(), info.version() + 1);
  EXPECT_EQ(after.auto_measure_micros(), info.auto_measure_micros());
  ASSERT_EQ(after.auto_candidates_size(), 4);
  for (int i = 0; i < 4; ++i) {
    EXPECT_EQ(after.auto_candidates(i).mean_us(), info.auto_candidates(i).mean_us());
  }
  // Without measurement, auto follows its rule and nothing is reported.
  InProcessServer unmeasured({"--auto_measure_queries=0"});
  ASSERT_TRUE(Register(unmeasured.stub(), "rule", dungeon_, &info, false, true).ok());
  EXPECT_EQ(info.auto_candidates_size(), 0);
  EXPECT_EQ(info.auto_measure_queries(), 0);
  EXPECT_EQ(info.auto_algorithm(), v1::ALGORITHM_JPS_PLUS);
}

}  // namespace
}  // namespace gridstar
