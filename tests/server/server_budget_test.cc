// What a search may spend, through the real server: FindPath's fast path on
// the gRPC thread (capped expansions), deadlines (DEADLINE_EXCEEDED or a
// partial answer), cancellation, and --max_search_nodes.
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

// FindPath's fast path (inline_searches.h): near queries are answered on the
// gRPC thread, those needing more than --inline_expansions go to a worker,
// and every answer is the library's; with --inline_expansions=0 nothing is
// tried inline.
TEST_F(ServerTest, CheapPathsAreAnsweredInlineAndTheRestByWorkers) {
  const auto [far_start, far_goal] = FarPair();
  InProcessServer without_fast_path({"--inline_expansions=0"});
  ASSERT_TRUE(without_fast_path.started());
  v1::MapInfo info;
  ASSERT_TRUE(Register(without_fast_path.stub(), "dungeon", dungeon_, &info,
                       false, true)
                  .ok());
  SearchContext context;
  const std::pair<Cell, Cell> pairs[] = {
      {far_start, far_goal}, {far_start, far_start}, {far_goal, far_goal}};
  for (InProcessServer* server : {server_.get(), &without_fast_path}) {
    for (int a = 0; a <= static_cast<int>(std::size(kAllAlgorithms)); ++a) {
      for (const auto& [s, g] : pairs) {
        // A near goal: the first passable neighbour of the start.
        Cell goal = g;
        if (s == g) {
          for (Cell n : {Cell{s.x + 1, s.y}, Cell{s.x - 1, s.y},
                         Cell{s.x, s.y + 1}, Cell{s.x, s.y - 1}}) {
            if (map_->Passable(n)) goal = n;
          }
        }
        SCOPED_TRACE(
            absl::StrCat(server == server_.get() ? "inline" : "workers only",
                         " algorithm ", a, " goal ", goal.x, ",", goal.y));
        v1::PathRequest r = Path("dungeon", s.x, s.y, goal.x, goal.y);
        r.set_algorithm(static_cast<v1::Algorithm>(a));
        grpc::ClientContext ctx;
        SetDeadline(&ctx);
        v1::PathResponse out;
        const grpc::Status st = server->stub().FindPath(&ctx, r, &out);
        ASSERT_TRUE(st.ok()) << st.error_message();
        PathQuery q;
        q.start = s;
        q.goal = goal;
        q.algorithm = *convert::AlgorithmFromProto(a, "algorithm");
        absl::StatusOr<PathResult> want = gridstar::FindPath(*map_, q, context);
        ASSERT_TRUE(want.ok());
        EXPECT_NEAR(out.cost(), want->cost, 1e-9);
        EXPECT_EQ(Unpack(out.cells()), want->cells);
        EXPECT_EQ(out.expanded(), want->expanded);
      }
    }
  }
  const std::string answered =
      "gridstar_inline_searches_total{result=\"answered\"}";
  const std::string handed_on =
      "gridstar_inline_searches_total{result=\"handed_on\"}";
  const std::string with = Scrape(server_->metrics_port());
  EXPECT_GE(testing::MetricValue(with, answered),
            2 * std::size(kAllAlgorithms));
  // A* and the baseline across the map need more than 128 expansions.
  EXPECT_GE(testing::MetricValue(with, handed_on), 2);
  const std::string without = Scrape(without_fast_path.metrics_port());
  EXPECT_NE(without.find(answered), std::string::npos);
  EXPECT_EQ(testing::MetricValue(without, answered), 0);
  EXPECT_EQ(testing::MetricValue(without, handed_on), 0);
}

TEST(ServerLimitsTest, DeadlineGivesDeadlineExceededOrPartial) {
  // A large terrain map (costs 1..9, no wall), so that one Dijkstra search
  // across it (9 M expansions, each through the open list: terrain has no
  // ties to skip it) takes far longer than the 20 ms and 300 ms deadlines
  // below on any machine; on an open uniform map it finished in under
  // 300 ms here. Registering it is not what is tested: its deadline is
  // generous (a sanitized build on a busy machine has taken minutes).
  //
  //
  // The map is preloaded from a file by a server process of its own, not
  // sent: under ThreadSanitizer, gRPC's executor thread writing a 9 MB
  // request that the test's thread serialised has every byte checked
  // against that thread, which took over 300 s (and no server in this
  // process, hence not the ServerTest fixture).
  const int side = 3000;
  const std::string file = WriteTerrainPgm(side, "big");
  ServerProcess server(
      {absl::StrCat("--preload=big=", file), "--preload_landmarks=0"});
  ASSERT_TRUE(server.started());
  std::remove(file.c_str());
  {
    v1::GetMapRequest get;
    get.set_id("big");
    v1::GetMapResponse got;
    grpc::ClientContext ctx;
    SetDeadline(&ctx);
    ASSERT_TRUE(server.stub().GetMap(&ctx, get, &got).ok());
    ASSERT_EQ(got.info().width(), side);
  }
  v1::PathRequest r = Path("big", 0, 0, side - 1, side - 1);
  r.set_algorithm(v1::ALGORITHM_DIJKSTRA);
  {
    grpc::ClientContext ctx;
    SetDeadline(&ctx, 20);
    v1::PathResponse out;
    EXPECT_EQ(server.stub().FindPath(&ctx, r, &out).error_code(),
              grpc::StatusCode::DEADLINE_EXCEEDED);
  }
  {
    // The server answers before the client's own deadline fires only if
    // the budget is enforced; give the client slack beyond the server.
    r.set_allow_partial(true);
    grpc::ClientContext ctx;
    SetDeadline(&ctx, 300);
    v1::PathResponse out;
    grpc::Status st = server.stub().FindPath(&ctx, r, &out);
    // Either the partial answer arrived in time or the client gave up first
    // (on a slow machine the call may even reach the server too late).
    if (st.ok()) {
      EXPECT_TRUE(out.partial());
      EXPECT_EQ(Unpack(out.cells()).front(), (Cell{0, 0}));
      // A partial answer means the deadline reached the search, which
      // counts it as stopped by the deadline.
      const std::string metrics =
          ScrapeUntil(server.metrics_port(), {"outcome=\"deadline\""});
      EXPECT_NE(metrics.find("outcome=\"deadline\""), std::string::npos);
    } else {
      EXPECT_EQ(st.error_code(), grpc::StatusCode::DEADLINE_EXCEEDED);
    }
  }

  // A cancelled call stops its search: CANCELLED long before the 300 s
  // deadline, and the search is counted as cancelled. The call is cancelled
  // once the server holds it (requests_in_flight is live, not sampled), so
  // that neither a slow machine (cancel before the call arrives) nor a fast
  // one (search done before the cancel) decides the verdict.
  const std::string in_flight = "gridstar_requests_in_flight ";
  ASSERT_TRUE(WaitFor([&] {
    return testing::MetricValue(Scrape(server.metrics_port()), in_flight) == 0;
  }));
  r.set_allow_partial(false);
  grpc::ClientContext ctx;
  SetDeadline(&ctx);
  v1::PathResponse out;
  std::thread canceller([&] {
    WaitFor([&] {
      return testing::MetricValue(Scrape(server.metrics_port()), in_flight) >=
             1;
    });
    ctx.TryCancel();
  });
  EXPECT_EQ(server.stub().FindPath(&ctx, r, &out).error_code(),
            grpc::StatusCode::CANCELLED);
  canceller.join();
  const std::string metrics =
      ScrapeUntil(server.metrics_port(), {"outcome=\"cancelled\""});
  EXPECT_NE(metrics.find("outcome=\"cancelled\""), std::string::npos);
}

// --max_search_nodes caps the node records of one search: beyond it the
// search is refused with RESOURCE_EXHAUSTED, or answered partial with
// allow_partial, and counted as outcome "memory".
TEST(ServerLimitsTest, SearchOverMaxSearchNodesIsResourceExhaustedOrPartial) {
  InProcessServer server({"--max_search_nodes=200"});
  ASSERT_TRUE(server.started());
  const std::string dungeon = ReadSample("dungeon.map");
  v1::MapInfo info;
  ASSERT_TRUE(Register(server.stub(), "dungeon", dungeon, &info).ok());
  const GridMap map = *ParseMovingAiMap(dungeon);
  const auto [s, g] = testing::FarConnectedPair(map);
  v1::PathRequest r = Path("dungeon", s.x, s.y, g.x, g.y);
  r.set_algorithm(v1::ALGORITHM_ASTAR);
  {
    grpc::ClientContext ctx;
    SetDeadline(&ctx);
    v1::PathResponse out;
    const grpc::Status st = server.stub().FindPath(&ctx, r, &out);
    EXPECT_EQ(st.error_code(), grpc::StatusCode::RESOURCE_EXHAUSTED);
    EXPECT_NE(st.error_message().find("max_search_nodes"), std::string::npos)
        << st.error_message();
    EXPECT_NE(st.error_message().find("allow_partial"), std::string::npos);
  }
  r.set_allow_partial(true);
  grpc::ClientContext ctx;
  SetDeadline(&ctx);
  v1::PathResponse out;
  ASSERT_TRUE(server.stub().FindPath(&ctx, r, &out).ok());
  EXPECT_TRUE(out.partial());
  const std::vector<Cell> cells = Unpack(out.cells());
  ASSERT_FALSE(cells.empty());
  EXPECT_EQ(cells.front(), s);
  EXPECT_GE(PathCost(map, cells, DiagonalPolicy::kNoCornerCutting), 0);
  const std::string m =
      ScrapeUntil(server.metrics_port(), {"outcome=\"memory\"} 2"});
  EXPECT_NE(m.find("algorithm=\"astar\",outcome=\"memory\"} 2"), std::string::npos);
}

}  // namespace
}  // namespace gridstar
