// The subgoal graph through the real server: RegisterMap with
// subgoal_graph builds it (MapInfo reports it, auto races it),
// ALGORITHM_SUBGOAL answers optimally and says so, runs what JPS_PLUS would
// under another policy; an UpdateCells answers at once with a version
// without a graph (SUBGOAL then runs JPS_PLUS, optimal on the new cells)
// and the background rebuild installs one in that same version; the option
// survives kill -9 with --data_dir.
#include <unistd.h>

#include <cstdlib>
#include <string>
#include <vector>

#include "absl/strings/str_cat.h"
#include "gridstar/find_path.h"
#include "gridstar/map_io.h"
#include "gtest/gtest.h"
#include "server/server_test_util.h"

namespace gridstar {
namespace {

using namespace testing::server_suite;  // NOLINT(build/namespaces)

grpc::Status RegisterWithGraph(v1::Pathfinding::Stub& stub,
                               const std::string& id,
                               const std::string& movingai, v1::MapInfo* info) {
  v1::RegisterMapRequest r;
  r.set_id(id);
  r.set_movingai(movingai);
  r.set_jump_table(true);
  r.set_subgoal_graph(true);
  grpc::ClientContext ctx;
  SetDeadline(&ctx);
  return stub.RegisterMap(&ctx, r, info);
}

v1::Algorithm ExpectOptimalPath(v1::Pathfinding::Stub& stub,
                                const GridMap& local, Cell s, Cell g,
                                uint64_t version) {
  return testing::ExpectOptimalServerPath(stub, local, s, g, version,
                                          v1::ALGORITHM_SUBGOAL);
}

TEST(ServerSubgoalTest, RegisterSearchUpdateRebuildAndRestart) {
  const std::string dir =
      absl::StrCat(::testing::TempDir(), "/gssubgoal.", getpid());
  ASSERT_EQ(
      std::system(absl::StrCat("rm -rf ", dir, " && mkdir -p ", dir).c_str()),
      0);
  const std::string text = ReadSample("dungeon.map");
  GridMap local = *ParseMovingAiMap(text);
  const auto [s, g] = testing::FarConnectedPair(local);
  {
    ServerProcess server({absl::StrCat("--data_dir=", dir)});
    ASSERT_TRUE(server.started());
    v1::MapInfo info;
    ASSERT_TRUE(RegisterWithGraph(server.stub(), "m", text, &info).ok());
    EXPECT_TRUE(info.subgoal_graph());
    EXPECT_GT(info.subgoal_graph_bytes(), 0u);
    EXPECT_GT(info.subgoal_graph_build_micros(), 0);
    EXPECT_TRUE(info.subgoal_graph_current());
    // auto races it with the other exact engines.
    bool raced = false;
    for (const v1::AutoCandidate& c : info.auto_candidates()) {
      raced = raced || c.algorithm() == v1::ALGORITHM_SUBGOAL;
    }
    EXPECT_TRUE(raced);
    EXPECT_EQ(ExpectOptimalPath(server.stub(), local, s, g, 1),
              v1::ALGORITHM_SUBGOAL);

    // Under another policy than the graph's, SUBGOAL runs what JPS_PLUS
    // would there (A*).
    {
      v1::PathRequest r = Path("m", s.x, s.y, g.x, g.y);
      r.set_algorithm(v1::ALGORITHM_SUBGOAL);
      r.set_diagonal(v1::DIAGONAL_POLICY_ALLOW_CORNER_CUTTING);
      grpc::ClientContext ctx;
      SetDeadline(&ctx);
      v1::PathResponse out;
      ASSERT_TRUE(server.stub().FindPath(&ctx, r, &out).ok());
      EXPECT_EQ(out.algorithm(), v1::ALGORITHM_ASTAR);
    }

    // A cell of the optimal path blocked (the first one, from the middle
    // on, that leaves the ends connected): the update answers with a
    // version without a graph; searches there are optimal on the new cells,
    // by SUBGOAL once the background rebuild installed the graph in that
    // same version (JPS_PLUS, or JPS while the table is repaired, before).
    GridMap blocked_map = local;
    const Cell blocked = testing::BlockOnPath(local, s, g, &blocked_map);
    ASSERT_GE(blocked.x, 0);
    v1::UpdateCellsRequest u;
    u.set_id("m");
    v1::RectUpdate* wall = u.add_rects();
    wall->mutable_rect()->mutable_min()->set_x(blocked.x);
    wall->mutable_rect()->mutable_min()->set_y(blocked.y);
    wall->mutable_rect()->mutable_max()->set_x(blocked.x + 1);
    wall->mutable_rect()->mutable_max()->set_y(blocked.y + 1);
    wall->set_cost(0);
    v1::MapInfo after;
    {
      grpc::ClientContext ctx;
      SetDeadline(&ctx);
      ASSERT_TRUE(server.stub().UpdateCells(&ctx, u, &after).ok());
    }
    EXPECT_EQ(after.version(), 2u);
    EXPECT_FALSE(after.subgoal_graph_current());
    EXPECT_EQ(after.subgoal_graph_bytes(), 0u);
    local = blocked_map;
    const v1::Algorithm meanwhile =
        ExpectOptimalPath(server.stub(), local, s, g, 2);
    EXPECT_TRUE(meanwhile == v1::ALGORITHM_SUBGOAL ||
                meanwhile == v1::ALGORITHM_JPS_PLUS ||
                meanwhile == v1::ALGORITHM_JPS)
        << v1::Algorithm_Name(meanwhile);
    v1::MapInfo rebuilt;
    ASSERT_TRUE(WaitFor([&] {
      v1::GetMapResponse got;
      if (!GetMapWithCells(server.stub(), "m", &got).ok()) return false;
      rebuilt = got.info();
      return rebuilt.subgoal_graph_current();
    }));
    EXPECT_EQ(rebuilt.version(), 2u);
    EXPECT_GT(rebuilt.subgoal_graph_bytes(), 0u);
    EXPECT_GT(rebuilt.subgoal_graph_build_micros(), 0);
    EXPECT_EQ(ExpectOptimalPath(server.stub(), local, s, g, 2),
              v1::ALGORITHM_SUBGOAL);
    server.Kill9();
  }
  // Restarted on its directory: the map comes back with its graph.
  ServerProcess again({absl::StrCat("--data_dir=", dir)});
  ASSERT_TRUE(again.started());
  v1::GetMapResponse got;
  ASSERT_TRUE(GetMapWithCells(again.stub(), "m", &got).ok());
  EXPECT_EQ(got.info().version(), 2u);
  EXPECT_TRUE(got.info().subgoal_graph());
  EXPECT_TRUE(got.info().subgoal_graph_current());
  EXPECT_GT(got.info().subgoal_graph_bytes(), 0u);
  EXPECT_EQ(ExpectOptimalPath(again.stub(), local, s, g, 2),
            v1::ALGORITHM_SUBGOAL);
}

}  // namespace
}  // namespace gridstar
