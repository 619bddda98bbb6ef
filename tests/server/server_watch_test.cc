// WatchPaths through the real server: an agent's path is replaced (a push
// tagged BLOCKED and the new version) when UpdateCells blocks a cell of it;
// moves answer with the position's index; the stream ends OK when the
// client closes its side; a reader that stops reading is closed with
// RESOURCE_EXHAUSTED once more than --watch_max_pending events wait; the
// watch metrics count what happened.
#include <atomic>
#include <memory>
#include <string>
#include <thread>
#include <vector>

#include "absl/strings/str_cat.h"
#include "gridstar/find_path.h"
#include "gtest/gtest.h"
#include "server/server_test_util.h"

namespace gridstar {
namespace {

using namespace testing::server_suite;  // NOLINT(build/namespaces)

v1::WatchRequest AddAgent(uint64_t request_id, uint64_t agent, Cell s,
                          Cell g) {
  v1::WatchRequest r;
  r.set_request_id(request_id);
  r.set_agent_id(agent);
  r.set_action(v1::WATCH_ACTION_ADD);
  *r.mutable_path() = Path("dungeon", s.x, s.y, g.x, g.y);
  r.mutable_path()->set_algorithm(v1::ALGORITHM_ASTAR);
  return r;
}

TEST_F(ServerTest, WatchPathsPushesANewPathWhenAnUpdateBlocksIt) {
  const auto [s, g] = FarPair();
  grpc::ClientContext ctx;
  SetDeadline(&ctx);
  auto stream = stub().WatchPaths(&ctx);
  ASSERT_TRUE(stream->Write(AddAgent(1, 42, s, g)));
  v1::WatchEvent added;
  ASSERT_TRUE(stream->Read(&added));
  ASSERT_EQ(added.code(), 0) << added.message();
  EXPECT_EQ(added.request_id(), 1u);
  EXPECT_EQ(added.reason(), v1::WATCH_REASON_ADDED);
  const std::vector<Cell> cells = Unpack(added.path().cells());
  ASSERT_GT(cells.size(), 4u);

  // The agent walks two cells: answered with its index on the path.
  v1::WatchRequest move;
  move.set_request_id(2);
  move.set_agent_id(42);
  move.set_action(v1::WATCH_ACTION_MOVE);
  move.mutable_position()->set_x(cells[2].x);
  move.mutable_position()->set_y(cells[2].y);
  ASSERT_TRUE(stream->Write(move));
  v1::WatchEvent moved;
  ASSERT_TRUE(stream->Read(&moved));
  EXPECT_EQ(moved.reason(), v1::WATCH_REASON_MOVED);
  EXPECT_EQ(moved.path_index(), 2u);

  // Block a cell ahead of it.
  const Cell wall = cells[cells.size() / 2];
  v1::UpdateCellsRequest u;
  u.set_id("dungeon");
  v1::CellUpdate* cu = u.add_cells();
  cu->mutable_cell()->set_x(wall.x);
  cu->mutable_cell()->set_y(wall.y);
  cu->set_cost(0);
  v1::MapInfo info;
  {
    grpc::ClientContext uctx;
    SetDeadline(&uctx);
    ASSERT_TRUE(stub().UpdateCells(&uctx, u, &info).ok());
  }
  v1::WatchEvent pushed;
  ASSERT_TRUE(stream->Read(&pushed));
  ASSERT_EQ(pushed.code(), 0) << pushed.message();
  EXPECT_EQ(pushed.request_id(), 0u);
  EXPECT_EQ(pushed.agent_id(), 42u);
  EXPECT_EQ(pushed.reason(), v1::WATCH_REASON_BLOCKED);
  EXPECT_EQ(pushed.map_version(), info.version());
  EXPECT_EQ(pushed.path().map_version(), info.version());
  const std::vector<Cell> replanned = Unpack(pushed.path().cells());
  EXPECT_EQ(replanned.front(), cells[2]);  // From where the agent is.
  EXPECT_EQ(replanned.back(), g);
  GridMap changed = *map_;
  std::vector<uint8_t> costs = changed.CopyCosts();
  costs[size_t(wall.y) * changed.width() + wall.x] = 0;
  changed = *GridMap::FromCosts(changed.width(), changed.height(), costs);
  EXPECT_GE(PathCost(changed, replanned, DiagonalPolicy::kNoCornerCutting), 0);

  ASSERT_TRUE(stream->WritesDone());
  v1::WatchEvent rest;
  while (stream->Read(&rest)) {
  }
  grpc::Status end = stream->Finish();
  EXPECT_TRUE(end.ok()) << end.error_message();
  const std::string page = ScrapeUntil(
      server_->metrics_port(),
      {"gridstar_watch_replans_total{reason=\"blocked\"} 1",
       "gridstar_watch_crossing_total 1", "gridstar_watch_agents 0",
       "method=\"WatchPaths\""});
  EXPECT_NE(page.find("gridstar_watch_push_latency_seconds_count 1"),
            std::string::npos);
}

TEST(ServerWatchTest, AReaderThatFallsBehindIsClosed) {
  InProcessServer server({"--watch_max_pending=4"});
  ASSERT_TRUE(server.started());
  const std::string dungeon = ReadSample("dungeon.map");
  v1::MapInfo info;
  ASSERT_TRUE(Register(server.stub(), "dungeon", dungeon, &info).ok());
  const GridMap map = *ParseMovingAiMap(dungeon);
  const auto [s, g] = testing::FarConnectedPair(map);
  // A client that reads nothing: a small window it never grows, so the
  // server's writes stall after a few answers and the rest wait there.
  grpc::ChannelArguments args;
  args.SetInt(GRPC_ARG_HTTP2_BDP_PROBE, 0);
  args.SetInt(GRPC_ARG_HTTP2_STREAM_LOOKAHEAD_BYTES, 16 << 10);
  auto channel = grpc::CreateCustomChannel(
      absl::StrCat("127.0.0.1:", server.port()),
      grpc::InsecureChannelCredentials(), args);
  auto stub = v1::Pathfinding::NewStub(channel);
  grpc::ClientContext ctx;
  SetDeadline(&ctx);
  auto stream = stub->WatchPaths(&ctx);
  // Agents are added until the stream is closed (each answer carries a long
  // path). A thread writes them: once the server closes the stream it stops
  // reading, and a write then waits for the call to end, which needs this
  // thread's reads. How many requests are read before that depends on the
  // machine's speed, so nothing counts on it; every 256 writes the writer
  // looks whether the stream is closed yet, so that what it sends on does
  // not pile up in the server's transport.
  const std::string kClosed = "gridstar_watch_streams_closed_total 1";
  std::atomic<int> written{0};
  std::thread writer([&] {
    for (int a = 1; a < (1 << 20); ++a) {
      if (a % 256 == 0 &&
          Scrape(server.metrics_port()).find(kClosed) != std::string::npos) {
        return;
      }
      if (!stream->Write(AddAgent(a, a, s, g))) return;  // The call ended.
      written.store(a);
    }
  });
  // The server closes the stream while nothing is read here.
  if (ScrapeUntil(server.metrics_port(), {kClosed}).find(kClosed) ==
      std::string::npos) {
    ADD_FAILURE() << "the stream was not closed; the call is cancelled";
    ctx.TryCancel();
  }
  int read = 0;
  v1::WatchEvent e;
  while (stream->Read(&e)) ++read;
  writer.join();
  grpc::Status end = stream->Finish();
  EXPECT_EQ(end.error_code(), grpc::StatusCode::RESOURCE_EXHAUSTED)
      << end.error_message();
  EXPECT_NE(end.error_message().find("--watch_max_pending"), std::string::npos);
  EXPECT_LT(read, written.load());
  ScrapeUntil(server.metrics_port(),
              {"gridstar_watch_streams_closed_total 1",
               "gridstar_watch_agents 0"});
}

}  // namespace
}  // namespace gridstar
