// Map administration through the real server: registration, reads and
// deletes, versioned updates and what they keep, limits and metrics.
#include <signal.h>
#include <sys/wait.h>
#include <unistd.h>

#include <atomic>
#include <chrono>
#include <cmath>
#include <cstdio>
#include <cstdlib>
#include <fstream>
#include <limits>
#include <map>
#include <mutex>
#include <random>
#include <set>
#include <sstream>
#include <string>
#include <thread>
#include <vector>

#include "absl/strings/str_cat.h"
#include "gridstar/find_path.h"
#include "gridstar/flow_field.h"
#include "gridstar/map_io.h"
#include "gtest/gtest.h"
#include "server/server_test_util.h"
#include "testing/reference.h"

namespace gridstar {
namespace {

// The suites' shared names (server_test_util.h).
using namespace testing::server_suite;  // NOLINT(build/namespaces)

TEST_F(ServerTest, RegisterIsIdempotentAndGuardsIds) {
  v1::MapInfo info;
  // The fixture registered the same cells with a jump table: a no-op.
  ASSERT_TRUE(Register(stub(), "dungeon", dungeon_, &info, false, true).ok());
  EXPECT_EQ(info.version(), 1u);
  EXPECT_EQ(info.width(), map_->width());
  EXPECT_EQ(info.passable_cells(), map_->passable_count());
  EXPECT_GT(info.memory_bytes(), info.jump_table_bytes());
  // auto runs what the registration measured fastest (jps+ among them).
  ASSERT_GT(info.auto_candidates_size(), 0);
  EXPECT_EQ(info.auto_candidates(0).algorithm(), v1::ALGORITHM_JPS_PLUS);
  EXPECT_EQ(info.auto_algorithm(), MeasuredFastest(info));
  // The same cells without the table are other content.
  grpc::Status s = Register(stub(), "dungeon", dungeon_, &info);
  EXPECT_EQ(s.error_code(), grpc::StatusCode::ALREADY_EXISTS) << s.error_message();
  std::string other = dungeon_;
  other[other.size() - 2] = other[other.size() - 2] == '.' ? '@' : '.';
  s = Register(stub(), "dungeon", other, &info, false, true);
  EXPECT_EQ(s.error_code(), grpc::StatusCode::ALREADY_EXISTS) << s.error_message();
  ASSERT_TRUE(Register(stub(), "dungeon", other, &info, true).ok());
  EXPECT_EQ(info.version(), 2u);
  EXPECT_FALSE(info.jump_table());
  EXPECT_EQ(info.jump_table_bytes(), 0u);
  s = Register(stub(), "bad id!", dungeon_, &info);
  EXPECT_EQ(s.error_code(), grpc::StatusCode::INVALID_ARGUMENT);
  EXPECT_NE(s.error_message().find("id"), std::string::npos);
  s = Register(stub(), "broken", "type octile\nheight 2\n", &info);
  EXPECT_EQ(s.error_code(), grpc::StatusCode::INVALID_ARGUMENT);
  EXPECT_NE(s.error_message().find("movingai: "), std::string::npos)
      << s.error_message();
  v1::RegisterMapRequest raw;
  raw.set_id("huge");
  raw.set_raw(std::string(16, '\1'));
  raw.set_width(100000);
  raw.set_height(1);
  grpc::ClientContext ctx;
  s = stub().RegisterMap(&ctx, raw, &info);
  EXPECT_EQ(s.error_code(), grpc::StatusCode::RESOURCE_EXHAUSTED) << s.error_message();
}

TEST_F(ServerTest, GetListDelete) {
  v1::MapInfo info;
  ASSERT_TRUE(Register(stub(), "another", dungeon_, &info).ok());
  {
    grpc::ClientContext ctx;
    v1::ListMapsResponse list;
    ASSERT_TRUE(stub().ListMaps(&ctx, {}, &list).ok());
    ASSERT_EQ(list.maps_size(), 2);
    EXPECT_EQ(list.maps(0).id(), "another");
    EXPECT_EQ(list.maps(1).id(), "dungeon");
  }
  {
    grpc::ClientContext ctx;
    v1::GetMapRequest r;
    r.set_id("dungeon");
    r.set_include_cells(true);
    v1::GetMapResponse got;
    ASSERT_TRUE(stub().GetMap(&ctx, r, &got).ok());
    const std::vector<uint8_t> costs = map_->CopyCosts();
    EXPECT_EQ(got.raw(), std::string(costs.begin(), costs.end()));
  }
  {
    grpc::ClientContext ctx;
    v1::DeleteMapRequest r;
    r.set_id("another");
    v1::DeleteMapResponse out;
    ASSERT_TRUE(stub().DeleteMap(&ctx, r, &out).ok());
  }
  for (const char* id : {"another", "never"}) {
    grpc::ClientContext ctx;
    v1::GetMapRequest r;
    r.set_id(id);
    v1::GetMapResponse got;
    EXPECT_EQ(stub().GetMap(&ctx, r, &got).error_code(), grpc::StatusCode::NOT_FOUND);
  }
}

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

// A failed test-and-set is ABORTED (Abseil's guidance: retry the whole
// read-modify-write), naming the version the map is at; nothing changes.
TEST_F(ServerTest, StaleExpectedVersionIsAbortedAndChangesNothing) {
  v1::UpdateCellsRequest u;
  u.set_id("dungeon");
  v1::CellUpdate* cu = u.add_cells();
  cu->mutable_cell()->set_x(1);
  cu->mutable_cell()->set_y(1);
  cu->set_cost(0);
  u.set_expected_version(7);
  v1::MapInfo info;
  grpc::ClientContext ctx;
  const grpc::Status st = stub().UpdateCells(&ctx, u, &info);
  EXPECT_EQ(st.error_code(), grpc::StatusCode::ABORTED);
  EXPECT_NE(st.error_message().find("expected_version: map 'dungeon' is at version 1, not 7"),
            std::string::npos)
      << st.error_message();
  grpc::ClientContext get_ctx;
  v1::GetMapRequest get;
  get.set_id("dungeon");
  v1::GetMapResponse got;
  ASSERT_TRUE(stub().GetMap(&get_ctx, get, &got).ok());
  EXPECT_EQ(got.info().version(), 1u);
}

TEST_F(ServerTest, UpdateCellsIsVersionedAndSeenByLaterSearches) {
  const auto [s, g] = FarPair();
  grpc::ClientContext ctx0;
  v1::PathResponse before;
  ASSERT_TRUE(stub().FindPath(&ctx0, Path("dungeon", s.x, s.y, g.x, g.y), &before).ok());
  const std::vector<Cell> cells = Unpack(before.cells());
  const Cell middle = cells[cells.size() / 2];
  v1::UpdateCellsRequest u;
  u.set_id("dungeon");
  v1::CellUpdate* cu = u.add_cells();
  cu->mutable_cell()->set_x(middle.x);
  cu->mutable_cell()->set_y(middle.y);
  cu->set_cost(0);
  u.set_expected_version(1);
  v1::MapInfo info;
  {
    grpc::ClientContext ctx;
    ASSERT_TRUE(stub().UpdateCells(&ctx, u, &info).ok());
    EXPECT_EQ(info.version(), 2u);
  }
  {
    grpc::ClientContext ctx;
    grpc::Status st = stub().UpdateCells(&ctx, u, &info);
    EXPECT_EQ(st.error_code(), grpc::StatusCode::ABORTED);
    EXPECT_NE(st.error_message().find("expected_version"), std::string::npos);
  }
  {
    v1::UpdateCellsRequest bad;
    bad.set_id("dungeon");
    v1::RectUpdate* rect = bad.add_rects();
    rect->mutable_rect()->mutable_min()->set_x(0);
    rect->mutable_rect()->mutable_max()->set_x(100000);
    rect->mutable_rect()->mutable_max()->set_y(1);
    grpc::ClientContext ctx;
    grpc::Status st = stub().UpdateCells(&ctx, bad, &info);
    EXPECT_EQ(st.error_code(), grpc::StatusCode::INVALID_ARGUMENT);
    EXPECT_NE(st.error_message().find("rects[0]"), std::string::npos) << st.error_message();
  }
  grpc::ClientContext ctx1;
  v1::PathResponse after;
  grpc::Status st = stub().FindPath(&ctx1, Path("dungeon", s.x, s.y, g.x, g.y), &after);
  if (st.ok()) {
    EXPECT_EQ(after.map_version(), 2u);
    for (const Cell& c : Unpack(after.cells())) EXPECT_NE(c, middle);
  } else {
    EXPECT_EQ(st.error_code(), grpc::StatusCode::FAILED_PRECONDITION);
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
    SearchContext context;
    PathQuery q;
    q.start = s;
    q.goal = g;
    EXPECT_NEAR(out.cost(), gridstar::FindPath(local, q, context)->cost, 1e-9);
  }
  v1::MapInfo repaired;
  ASSERT_TRUE(WaitFor([&] {
    v1::GetMapResponse got;
    if (!GetMapWithCells(stub(), "dungeon", &got).ok()) return false;
    repaired = got.info();
    return repaired.jump_table_current();
  }));
  EXPECT_EQ(repaired.version(), info.version());
  EXPECT_EQ(repaired.jump_table_bytes(), map_->JumpTableBytes());
  // The registration's measurement decides again once the table is back.
  EXPECT_EQ(repaired.auto_algorithm(), MeasuredFastest(repaired));
  ASSERT_TRUE(local.BuildJumpTable().ok());
  search(v1::ALGORITHM_JPS_PLUS);
  // A cell of cost 5: no longer uniform, no table, A* answers.
  info = update(cells[2 * cells.size() / 3], 5);
  EXPECT_TRUE(info.jump_table());
  EXPECT_TRUE(info.jump_table_current());  // Nothing pending: no table applies.
  EXPECT_EQ(info.jump_table_bytes(), 0u);
  search(v1::ALGORITHM_ASTAR);
}

TEST_F(ServerTest, PathsStayValidOnTheirVersionWhileUpdatesRun) {
  const auto [s, g] = FarPair();
  // The test applies the same changes locally, so it knows every version.
  std::map<uint64_t, GridMap> versions;
  versions.emplace(1, *map_);
  std::vector<uint8_t> costs = map_->CopyCosts();
  std::mutex mu;
  std::vector<std::pair<uint64_t, std::vector<Cell>>> answers;
  std::set<uint64_t> answered;  // Versions some search ran on.
  std::atomic<bool> done{false};
  std::vector<std::thread> clients;
  for (int t = 0; t < 4; ++t) {
    clients.emplace_back([&, s = s, g = g] {
      while (!done.load()) {
        grpc::ClientContext ctx;
        SetDeadline(&ctx);
        v1::PathResponse out;
        grpc::Status st = stub().FindPath(&ctx, Path("dungeon", s.x, s.y, g.x, g.y), &out);
        if (!st.ok()) {
          // A closed corridor may cut the goal off, never anything else.
          EXPECT_EQ(st.error_code(), grpc::StatusCode::FAILED_PRECONDITION)
              << st.error_message();
          // The message names the version that had no path.
          const size_t at = st.error_message().rfind("version ");
          if (at != std::string::npos) {
            std::lock_guard<std::mutex> lock(mu);
            answered.insert(std::stoull(st.error_message().substr(at + 8)));
          }
          continue;
        }
        std::lock_guard<std::mutex> lock(mu);
        answered.insert(out.map_version());
        answers.emplace_back(out.map_version(), Unpack(out.cells()));
      }
    });
  }
  std::mt19937 rng(11);
  for (int round = 0; round < 30; ++round) {
    v1::UpdateCellsRequest u;
    u.set_id("dungeon");
    for (int k = 0; k < 40; ++k) {
      const Cell c{static_cast<int32_t>(rng() % map_->width()),
                   static_cast<int32_t>(rng() % map_->height())};
      if (c == s || c == g) continue;
      const uint32_t cost = rng() % 3 == 0 ? 0 : 1 + rng() % 4;
      v1::CellUpdate* cu = u.add_cells();
      cu->mutable_cell()->set_x(c.x);
      cu->mutable_cell()->set_y(c.y);
      cu->set_cost(cost);
      costs[static_cast<size_t>(c.y) * map_->width() + c.x] = static_cast<uint8_t>(cost);
    }
    grpc::ClientContext ctx;
    SetDeadline(&ctx);
    v1::MapInfo info;
    ASSERT_TRUE(stub().UpdateCells(&ctx, u, &info).ok());
    absl::StatusOr<GridMap> next = GridMap::FromCosts(map_->width(), map_->height(), costs);
    ASSERT_TRUE(next.ok());
    EXPECT_EQ(info.passable_cells(), next->passable_count());
    versions.emplace(info.version(), *std::move(next));
    // Searches run on every version: wait until one answered on this one
    // (or found the goal cut off), so the verdict does not hang on speed.
    const uint64_t v = info.version();
    ASSERT_TRUE(testing::WaitFor([&] {
      std::lock_guard<std::mutex> lock(mu);
      return answered.count(v) > 0;
    }));
  }
  done.store(true);
  for (std::thread& t : clients) t.join();
  ASSERT_GT(answers.size(), 30u);
  std::set<uint64_t> seen;
  for (const auto& [version, cells] : answers) {
    ASSERT_TRUE(versions.count(version)) << version;
    seen.insert(version);
    EXPECT_EQ(cells.front(), s);
    EXPECT_EQ(cells.back(), g);
    EXPECT_GE(PathCost(versions.at(version), cells, DiagonalPolicy::kNoCornerCutting), 0)
        << "path illegal on version " << version;
  }
  EXPECT_GT(seen.size(), 3u);
}

TEST_F(ServerTest, MetricsScrapeHasTheFamilies) {
  const auto [s, g] = FarPair();
  grpc::ClientContext ctx;
  v1::PathResponse out;
  ASSERT_TRUE(stub().FindPath(&ctx, Path("dungeon", s.x, s.y, g.x, g.y), &out).ok());
  // Gauges are refreshed every half second: wait for them, then check.
  const std::vector<std::string> families = {"gridstar_request_duration_seconds_bucket", "gridstar_requests_total",
        "gridstar_queue_wait_seconds", "gridstar_search_duration_seconds",
        "gridstar_search_expansions", "gridstar_maps 1", "gridstar_map_cells",
        "gridstar_queue_depth", "gridstar_busy_workers",
        "gridstar_map_memory_bytes", "gridstar_search_context_memory_bytes",
        "gridstar_flow_field_cache_bytes", "gridstar_queue_capacity 4096",
        "gridstar_flow_field_cache_lookups_total", "method=\"FindPath\""};
  const std::string m = ScrapeUntil(server_->metrics_port(), families);
  for (const std::string& family : families) {
    EXPECT_NE(m.find(family), std::string::npos) << family;
  }
}

TEST(ServerLimitsTest, FlowFieldOverTheMessageLimitIsResourceExhausted) {
  ServerProcess server({"--max_message_bytes=40000"});
  ASSERT_TRUE(server.started());
  v1::MapInfo info;
  ASSERT_TRUE(Register(server.stub(), "dungeon", ReadSample("dungeon.map"), &info).ok());
  const GridMap map = *ParseMovingAiMap(ReadSample("dungeon.map"));
  v1::FlowFieldResponse out;
  const grpc::Status st =
      Field(server.stub(), "dungeon", testing::FarConnectedPair(map).second, &out);
  EXPECT_EQ(st.error_code(), grpc::StatusCode::RESOURCE_EXHAUSTED);
  EXPECT_NE(st.error_message().find("--max_message_bytes"), std::string::npos);
}

// Derived data is opt-in and bounded per map: a registration asking for more
// jump table and landmark memory than --max_derived_bytes is refused.
TEST(ServerLimitsTest, DerivedDataOverTheLimitIsResourceExhausted) {
  // The sample dungeon pads to 130 x 130 = 16,900 cells: a jump table (one
  // byte per direction) takes 9 x 5 blocks of 16 x 32 cells, 4 KiB each =
  // 184,320 bytes; a landmark 135,200.
  ServerProcess server({"--max_derived_bytes=200000"});
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
    SearchContext context;
    PathQuery q;
    q.start = s;
    q.goal = g;
    EXPECT_NEAR(out.cost(), gridstar::FindPath(local, q, context)->cost, 1e-9);
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
  ServerProcess unmeasured({"--auto_measure_queries=0"});
  ASSERT_TRUE(Register(unmeasured.stub(), "rule", dungeon_, &info, false, true).ok());
  EXPECT_EQ(info.auto_candidates_size(), 0);
  EXPECT_EQ(info.auto_measure_queries(), 0);
  EXPECT_EQ(info.auto_algorithm(), v1::ALGORITHM_JPS_PLUS);
}

}  // namespace
}  // namespace gridstar
