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

namespace v1 = ::gridstar::v1;
using testing::Field;
using testing::FreePort;
using testing::Path;
using testing::ReadSample;
using testing::Register;
using testing::Scrape;
using testing::ScrapeUntil;
using testing::ServerProcess;
using testing::ServerTest;
using testing::SetDeadline;
using testing::Unpack;

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
