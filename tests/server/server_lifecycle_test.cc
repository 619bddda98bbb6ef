// The server process itself: kill -9 with a data directory, SIGTERM drain.
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

TEST(ServerLifecycleTest, KillNineLosesNothingAcknowledged) {
  const std::string dir = absl::StrCat(::testing::TempDir(), "/gsdata.", getpid());
  ASSERT_EQ(std::system(absl::StrCat("rm -rf ", dir, " && mkdir -p ", dir).c_str()), 0);
  const std::string dungeon = ReadSample("dungeon.map");
  uint64_t version = 0;
  {
    ServerProcess server({absl::StrCat("--data_dir=", dir)});
    ASSERT_TRUE(server.started());
    v1::MapInfo info;
    ASSERT_TRUE(Register(server.stub(), "kept", dungeon, &info).ok());
    ASSERT_TRUE(Register(server.stub(), "gone", dungeon, &info).ok());
    // Its jump_table option must survive too, and rebuild its table.
    ASSERT_TRUE(Register(server.stub(), "fast", dungeon, &info, false, true).ok());
    v1::UpdateCellsRequest u;
    u.set_id("kept");
    v1::RectUpdate* rect = u.add_rects();
    rect->mutable_rect()->mutable_max()->set_x(3);
    rect->mutable_rect()->mutable_max()->set_y(3);
    rect->set_cost(7);
    grpc::ClientContext ctx;
    ASSERT_TRUE(server.stub().UpdateCells(&ctx, u, &info).ok());
    version = info.version();
    grpc::ClientContext ctx2;
    v1::DeleteMapRequest d;
    d.set_id("gone");
    v1::DeleteMapResponse dr;
    ASSERT_TRUE(server.stub().DeleteMap(&ctx2, d, &dr).ok());
    server.Kill9();
  }
  // A corrupt file is reported and skipped, not fatal.
  std::ofstream(absl::StrCat(dir, "/junk.gsmap")) << "not a map";
  ServerProcess server({absl::StrCat("--data_dir=", dir)});
  ASSERT_TRUE(server.started());
  grpc::ClientContext ctx;
  v1::ListMapsResponse list;
  ASSERT_TRUE(server.stub().ListMaps(&ctx, {}, &list).ok());
  ASSERT_EQ(list.maps_size(), 2);
  EXPECT_EQ(list.maps(0).id(), "fast");
  EXPECT_TRUE(list.maps(0).jump_table());
  EXPECT_GT(list.maps(0).jump_table_bytes(), 0u);
  EXPECT_EQ(list.maps(1).id(), "kept");
  EXPECT_EQ(list.maps(1).version(), version);
  EXPECT_FALSE(list.maps(1).jump_table());
  grpc::ClientContext ctx2;
  v1::GetMapRequest g;
  g.set_id("kept");
  g.set_include_cells(true);
  v1::GetMapResponse got;
  ASSERT_TRUE(server.stub().GetMap(&ctx2, g, &got).ok());
  EXPECT_EQ(static_cast<uint8_t>(got.raw()[0]), 7);
}

// A second server on a port another process holds must not start and share
// it (gRPC's default SO_REUSEPORT would let it): it exits non-zero saying so.
TEST(ServerLifecycleTest, PortInUseIsRefused) {
  ServerProcess first;
  ASSERT_TRUE(first.started());
  int code = -1;
  const std::string out = testing::RunAndCapture(
      absl::StrCat(GRIDSTAR_SERVER_BINARY, " --host=127.0.0.1 --port=",
                   first.port(), " --metrics_port=0 2>&1"),
      &code);
  EXPECT_NE(code, 0) << out;
  EXPECT_NE(out.find("cannot listen on 127.0.0.1:"), std::string::npos) << out;
  // The first server still answers.
  grpc::ClientContext ctx;
  SetDeadline(&ctx);
  v1::ListMapsResponse list;
  EXPECT_TRUE(first.stub().ListMaps(&ctx, {}, &list).ok());
}

// The test harness itself: a server that cannot listen (its port held by
// another) exits, and ServerProcess notices the exit instead of waiting out
// its start-up bound (before commit 6a92bbc a port lost to a parallel test hung
// ScaleOutTest until CTest's timeout); it tries a few times, then reports
// not started, and signalling it is harmless.
TEST(ServerLifecycleTest, HarnessNoticesAServerThatExitsBeforeListening) {
  ServerProcess first;
  ASSERT_TRUE(first.started());
  ServerProcess second({absl::StrCat("--port=", first.port())});
  EXPECT_FALSE(second.started());
  EXPECT_EQ(second.SignalAndWait(SIGTERM), -1);
  second.Kill9();
  // The first server still answers.
  grpc::ClientContext ctx;
  SetDeadline(&ctx);
  v1::ListMapsResponse list;
  EXPECT_TRUE(first.stub().ListMaps(&ctx, {}, &list).ok());
}

// An update storm killed -9 at random moments, many times over: after each
// restart the map is at the last acknowledged version, or one past it when
// the update in flight had been made durable but not yet answered, and its
// cells are exactly those versions' (nothing half-applied). The update log
// and its replay are what is under test.
TEST(ServerLifecycleTest, UpdateStormKilledNineTimesLosesNothingAcknowledged) {
  const std::string dir =
      absl::StrCat(::testing::TempDir(), "/gsstorm.", getpid());
  ASSERT_EQ(std::system(absl::StrCat("rm -rf ", dir, " && mkdir -p ", dir).c_str()), 0);
  const std::vector<std::string> flags = {absl::StrCat("--data_dir=", dir)};
  constexpr int kSide = 48;
  // Versions the test knows: content after each acknowledged update, and
  // after the one in flight.
  std::vector<uint8_t> acked(kSide * kSide, 1);
  uint64_t acked_version = 1;
  {
    ServerProcess server(flags);
    ASSERT_TRUE(server.started());
    v1::RegisterMapRequest reg;
    reg.set_id("storm");
    reg.set_raw(std::string(acked.begin(), acked.end()));
    reg.set_width(kSide);
    reg.set_height(kSide);
    reg.set_jump_table(true);
    grpc::ClientContext ctx;
    SetDeadline(&ctx);
    v1::MapInfo info;
    ASSERT_TRUE(server.stub().RegisterMap(&ctx, reg, &info).ok());
  }
  std::mt19937 rng(20261203);
  for (int round = 0; round < 10; ++round) {
    SCOPED_TRACE(absl::StrCat("round ", round));
    ServerProcess server(flags);
    ASSERT_TRUE(server.started());
    // What the restarted server holds must be what was acknowledged.
    {
      v1::GetMapResponse got;
      ASSERT_TRUE(GetMapWithCells(server.stub(), "storm", &got).ok());
      ASSERT_EQ(got.info().version(), acked_version);
      ASSERT_EQ(got.raw(), std::string(acked.begin(), acked.end()));
    }
    std::mutex mu;
    std::vector<uint8_t> in_flight;
    std::atomic<int> answered{0};
    std::atomic<bool> stop{false};
    std::thread storm([&] {
      std::mt19937 local(static_cast<uint32_t>(round) * 7919 + 1);
      while (!stop.load()) {
        v1::UpdateCellsRequest u;
        u.set_id("storm");
        std::vector<uint8_t> next;
        {
          std::lock_guard<std::mutex> lock(mu);
          u.set_expected_version(acked_version);
          next = acked;
        }
        for (int k = 1 + static_cast<int>(local() % 4); k > 0; --k) {
          v1::RectUpdate* r = u.add_rects();
          const int x = static_cast<int>(local() % kSide);
          const int y = static_cast<int>(local() % kSide);
          const int w = 1 + static_cast<int>(local() % 5);
          const int h = 1 + static_cast<int>(local() % 5);
          const uint32_t cost = local() % 3;  // Blocked, 1 or 2.
          r->mutable_rect()->mutable_min()->set_x(x);
          r->mutable_rect()->mutable_min()->set_y(y);
          r->mutable_rect()->mutable_max()->set_x(std::min(kSide, x + w));
          r->mutable_rect()->mutable_max()->set_y(std::min(kSide, y + h));
          r->set_cost(cost);
          for (int yy = y; yy < std::min(kSide, y + h); ++yy) {
            for (int xx = x; xx < std::min(kSide, x + w); ++xx) {
              next[static_cast<size_t>(yy) * kSide + xx] = static_cast<uint8_t>(cost);
            }
          }
        }
        {
          std::lock_guard<std::mutex> lock(mu);
          in_flight = next;
        }
        grpc::ClientContext ctx;
        SetDeadline(&ctx);
        v1::MapInfo info;
        if (!server.stub().UpdateCells(&ctx, u, &info).ok()) return;  // Killed.
        std::lock_guard<std::mutex> lock(mu);
        acked_version = info.version();
        acked = std::move(next);
        in_flight.clear();
        answered.fetch_add(1);
      }
    });
    // Kill after a random number of acknowledged updates: the kill lands
    // wherever the next update happens to be.
    const int after = 1 + static_cast<int>(rng() % 40);
    ASSERT_TRUE(testing::WaitFor([&] { return answered.load() >= after; }));
    server.Kill9();
    stop = true;
    storm.join();
    // The restarted server is at acked_version, or one past it with the
    // in-flight update whole; adopt that as the known state.
    ServerProcess check(flags);
    ASSERT_TRUE(check.started());
    v1::GetMapResponse got;
    ASSERT_TRUE(GetMapWithCells(check.stub(), "storm", &got).ok());
    const std::lock_guard<std::mutex> lock(mu);
    if (got.info().version() == acked_version + 1) {
      ASSERT_FALSE(in_flight.empty());
      ASSERT_EQ(got.raw(), std::string(in_flight.begin(), in_flight.end()));
      acked = in_flight;
      acked_version += 1;
    } else {
      ASSERT_EQ(got.info().version(), acked_version);
      ASSERT_EQ(got.raw(), std::string(acked.begin(), acked.end()));
    }
    // The table follows the content: present exactly while costs are uniform.
    std::set<uint8_t> costs(acked.begin(), acked.end());
    costs.erase(0);
    EXPECT_EQ(got.info().jump_table_bytes() > 0, costs.size() == 1);
  }
}

TEST(ServerLifecycleTest, SigtermDrainsAndExitsZero) {
  // One worker and searches long enough that four batches are all in flight
  // together for a while: the test waits until the server itself counts
  // them (gridstar_requests_in_flight), then signals.
  ServerProcess server({"--shutdown_grace=300s", "--workers=1"});
  ASSERT_TRUE(server.started());
  const int side = 1000;
  v1::RegisterMapRequest reg;
  reg.set_id("open");
  reg.set_raw(std::string(static_cast<size_t>(side) * side, '\1'));
  reg.set_width(side);
  reg.set_height(side);
  {
    grpc::ClientContext ctx;
    SetDeadline(&ctx);
    v1::MapInfo info;
    ASSERT_TRUE(server.stub().RegisterMap(&ctx, reg, &info).ok());
  }
  // Calls in flight when the signal arrives still get their answers.
  std::vector<std::thread> clients;
  std::atomic<int> ok{0};
  for (int i = 0; i < 4; ++i) {
    clients.emplace_back([&] {
      v1::FindPathsRequest batch;
      batch.set_map_id("open");
      for (int k = 0; k < 2; ++k) {
        v1::PathRequest* r = batch.add_items();
        *r = Path("", 0, 0, side - 1, side - 1 - k);
        r->set_algorithm(v1::ALGORITHM_DIJKSTRA);
      }
      grpc::ClientContext ctx;
      SetDeadline(&ctx);
      v1::FindPathsResponse out;
      if (!server.stub().FindPaths(&ctx, batch, &out).ok()) return;
      for (const v1::PathItemResult& item : out.results()) {
        if (item.code() != 0) return;
      }
      ok.fetch_add(1);
    });
  }
  ASSERT_TRUE(testing::WaitFor([&] {
    return testing::MetricValue(testing::Scrape(server.metrics_port()),
                                "gridstar_requests_in_flight ") >= 4;
  })) << "the four batches never were in flight together";
  EXPECT_EQ(server.SignalAndWait(SIGTERM), 0);
  for (std::thread& t : clients) t.join();
  EXPECT_EQ(ok.load(), 4);
}

}  // namespace
}  // namespace gridstar
