// Helpers of the server integration suites (server_*_test.cc): requests,
// generous deadlines, and the fixture that starts a real gridstar-server with
// the sample dungeon registered (with a jump table).
#ifndef GRIDSTAR_TESTS_SERVER_SERVER_TEST_UTIL_H_
#define GRIDSTAR_TESTS_SERVER_SERVER_TEST_UTIL_H_

#include <arpa/inet.h>
#include <netinet/in.h>
#include <signal.h>
#include <sys/socket.h>
#include <sys/wait.h>
#include <unistd.h>

#include <atomic>
#include <chrono>
#include <cmath>
#include <cstdio>
#include <cstdlib>
#include <fstream>
#include <iterator>
#include <limits>
#include <map>
#include <memory>
#include <mutex>
#include <random>
#include <set>
#include <sstream>
#include <string>
#include <thread>
#include <vector>

#include "absl/strings/str_cat.h"
#include "convert/convert.h"
#include "gridstar/engines/jps.h"
#include "gridstar/find_path.h"
#include "gridstar/flow_field.h"
#include "gridstar/map_io.h"
#include "gridstar/move_cost.h"
#include "gridstar/v1/gridstar.grpc.pb.h"
#include "grpcpp/grpcpp.h"
#include "gtest/gtest.h"
#include "server/in_process_server.h"
#include "server/server_process.h"
#include "testing/reference.h"

namespace gridstar::testing {

namespace v1 = ::gridstar::v1;

// A deadline the test does not mean to hit: generous, so that a slow or
// loaded machine (sanitizers, a busy CI) never turns it into a verdict.
inline constexpr int kGenerousMs = 300000;
inline void SetDeadline(grpc::ClientContext* ctx, int ms = kGenerousMs) {
  ctx->set_deadline(std::chrono::system_clock::now() + std::chrono::milliseconds(ms));
}

inline grpc::Status Register(v1::Pathfinding::Stub& stub, const std::string& id,
                      const std::string& movingai, v1::MapInfo* info,
                      bool replace = false, bool jump_table = false) {
  v1::RegisterMapRequest r;
  r.set_id(id);
  r.set_movingai(movingai);
  r.set_replace(replace);
  r.set_jump_table(jump_table);
  grpc::ClientContext ctx;
  SetDeadline(&ctx);
  return stub.RegisterMap(&ctx, r, info);
}

// What auto runs on a map by the server's measurement at registration
// (MapInfo.auto_candidates), as auto_choice.h defines it: the first
// candidate with the least mean among those that ran every query; should
// every one have been dropped, the first that ran the most queries, least
// mean among those. ALGORITHM_UNSPECIFIED when not measured.
inline v1::Algorithm MeasuredFastest(const v1::MapInfo& info) {
  const v1::AutoCandidate* best = nullptr;
  for (const v1::AutoCandidate& c : info.auto_candidates()) {
    if (c.dropped() || c.queries() < info.auto_measure_queries()) continue;
    if (best == nullptr || c.mean_us() < best->mean_us()) best = &c;
  }
  if (best == nullptr) {
    for (const v1::AutoCandidate& c : info.auto_candidates()) {
      if (c.queries() == 0) continue;
      if (best == nullptr || c.queries() > best->queries() ||
          (c.queries() == best->queries() && c.mean_us() < best->mean_us())) {
        best = &c;
      }
    }
  }
  return best == nullptr ? v1::ALGORITHM_UNSPECIFIED : best->algorithm();
}

inline v1::PathRequest Path(const std::string& map, int sx, int sy, int gx, int gy) {
  v1::PathRequest r;
  r.set_map_id(map);
  r.mutable_start()->set_x(sx);
  r.mutable_start()->set_y(sy);
  r.mutable_goal()->set_x(gx);
  r.mutable_goal()->set_y(gy);
  return r;
}

// The optimal cost from s to g on `map` by the core library (A*, the
// default policy): what the server's answers to Path(...) are checked
// against. REQUIRES: a path exists.
inline double CoreAStarCost(const GridMap& map, Cell s, Cell g) {
  SearchContext context;
  PathQuery q;
  q.start = s;
  q.goal = g;
  return gridstar::FindPath(map, q, context)->cost;
}

inline std::vector<Cell> Unpack(
    const google::protobuf::RepeatedField<int32_t>& packed) {
  return convert::UnpackCells(packed);
}

// One FindPath of map "m" from s to g through the server with `algorithm`,
// checked against `local` (the map as the server should hold it, at
// `version`): a legal path from s to g of the optimal cost (A* in the core
// library). Returns the algorithm that answered.
inline v1::Algorithm ExpectOptimalServerPath(v1::Pathfinding::Stub& stub,
                                             const GridMap& local, Cell s,
                                             Cell g, uint64_t version,
                                             v1::Algorithm algorithm) {
  v1::PathRequest r = Path("m", s.x, s.y, g.x, g.y);
  r.set_algorithm(algorithm);
  grpc::ClientContext ctx;
  SetDeadline(&ctx);
  v1::PathResponse out;
  grpc::Status st = stub.FindPath(&ctx, r, &out);
  EXPECT_TRUE(st.ok()) << st.error_message();
  EXPECT_EQ(out.map_version(), version);
  const std::vector<Cell> cells = Unpack(out.cells());
  EXPECT_FALSE(cells.empty());
  if (cells.empty()) return out.algorithm();
  EXPECT_EQ(cells.front(), s);
  EXPECT_EQ(cells.back(), g);
  EXPECT_NEAR(PathCost(local, cells, DiagonalPolicy::kNoCornerCutting),
              out.cost(), 1e-6);
  EXPECT_NEAR(out.cost(), CoreAStarCost(local, s, g), 1e-6);
  return out.algorithm();
}

// A cell of the optimal path from s to g on `map`, from the middle on, whose
// blocking leaves s and g connected; *blocked_map is `map` with it blocked.
// {-1, -1} when there is none.
inline Cell BlockOnPath(const GridMap& map, Cell s, Cell g,
                        GridMap* blocked_map) {
  SearchContext context;
  PathQuery q;
  q.start = s;
  q.goal = g;
  const std::vector<Cell> path = gridstar::FindPath(map, q, context)->cells;
  for (size_t i = path.size() / 2; i + 1 < path.size(); ++i) {
    std::vector<uint8_t> costs = map.CopyCosts();
    costs[static_cast<size_t>(path[i].y) * map.width() + path[i].x] = 0;
    GridMap candidate = *GridMap::FromCosts(map.width(), map.height(), costs);
    if (!candidate.Connected(s, g)) continue;
    *blocked_map = std::move(candidate);
    return path[i];
  }
  return Cell{-1, -1};
}

// Writes a `side` x `side` terrain PGM (costs 1..9 in a fixed pattern, no
// wall) to a temporary file named after `name` and returns its path: a map
// on which a Dijkstra search corner to corner expands every cell through the
// open list (terrain leaves no ties to skip it), for tests that must pass a
// deadline. Preloaded from the file, not sent (see ServerLimitsTest).
inline std::string WriteTerrainPgm(int side, const std::string& name) {
  std::string pgm = absl::StrCat("P5\n", side, " ", side, "\n255\n");
  const size_t header = pgm.size();
  pgm.resize(header + static_cast<size_t>(side) * side);
  for (size_t i = 0; i < static_cast<size_t>(side) * side; ++i) {
    const size_t x = i % side, y = i / side;
    pgm[header + i] = static_cast<char>(1 + (x * 7 + y * 13 + x * y) % 9);
  }
  const std::string file =
      absl::StrCat(::testing::TempDir(), "/", name, ".", getpid(), ".pgm");
  std::ofstream(file, std::ios::binary) << pgm;
  return file;
}

// One ComputeFlowField call.
inline grpc::Status Field(v1::Pathfinding::Stub& stub, const std::string& map, Cell goal,
                   v1::FlowFieldResponse* out, double max_cost = 0) {
  v1::FlowFieldRequest r;
  r.set_map_id(map);
  r.mutable_goal()->set_x(goal.x);
  r.mutable_goal()->set_y(goal.y);
  r.set_max_cost(max_cost);
  grpc::ClientContext ctx;
  SetDeadline(&ctx);
  return stub.ComputeFlowField(&ctx, r, out);
}

class ServerTest : public ::testing::Test {
 protected:
  void SetUp() override {
    server_ = std::make_unique<InProcessServer>();
    ASSERT_TRUE(server_->started()) << "gridstar-server did not start";
    dungeon_ = ReadSample("dungeon.map");
    v1::MapInfo info;
    // With jump distances, so that jps+ and auto run on the server.
    ASSERT_TRUE(Register(server_->stub(), "dungeon", dungeon_, &info, false, true).ok());
    EXPECT_TRUE(info.jump_table());
    absl::StatusOr<GridMap> map = ParseMovingAiMap(dungeon_);
    ASSERT_TRUE(map.ok());
    ASSERT_TRUE(BuildJumpTable(&*map).ok());
    EXPECT_EQ(info.jump_table_bytes(), JumpTableBytes(*map));
    EXPECT_GT(info.jump_table_build_micros(), 0);
    map_ = std::make_unique<GridMap>(*std::move(map));
  }
  v1::Pathfinding::Stub& stub() { return server_->stub(); }

  // Two passable cells of the sample map far apart, connected.
  std::pair<Cell, Cell> FarPair() const { return testing::FarConnectedPair(*map_); }

  std::unique_ptr<InProcessServer> server_;
  std::string dungeon_;
  std::unique_ptr<GridMap> map_;
};

// Inline fetch of a map's info and cells, for the lifecycle suites.
inline grpc::Status GetMapWithCells(v1::Pathfinding::Stub& stub,
                                    const std::string& id,
                                    v1::GetMapResponse* out) {
  grpc::ClientContext ctx;
  SetDeadline(&ctx);
  v1::GetMapRequest g;
  g.set_id(id);
  g.set_include_cells(true);
  return stub.GetMap(&ctx, g, out);
}

// The names every server suite uses, brought in by one using-directive.
namespace server_suite {
namespace v1 = ::gridstar::v1;
using testing::CoreAStarCost;
using testing::Field;
using testing::FreePort;
using testing::GetMapWithCells;
using testing::InProcessServer;
using testing::MeasuredFastest;
using testing::Path;
using testing::ReadSample;
using testing::Register;
using testing::Scrape;
using testing::ScrapeUntil;
using testing::ServerProcess;
using testing::ServerTest;
using testing::SetDeadline;
using testing::Unpack;
using testing::WaitFor;
using testing::WriteTerrainPgm;
}  // namespace server_suite

}  // namespace gridstar::testing

#endif  // GRIDSTAR_TESTS_SERVER_SERVER_TEST_UTIL_H_
