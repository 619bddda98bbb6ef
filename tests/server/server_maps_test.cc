// Map administration through the real server: registration, reads and
// deletes, versioned updates, paths on their versions, limits and metrics
// (the precomputed structures: server_derived_test.cc).
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
  InProcessServer server({"--max_message_bytes=40000"});
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

}  // namespace
}  // namespace gridstar
