// The contraction tier through the real server: RegisterMap with the
// structure "contraction_hierarchy" builds it (MapInfo.derived reports it,
// auto races it), ALGORITHM_CONTRACTION answers optimally and says so, runs
// what SUBGOAL would under another policy; an UpdateCells answers at once
// with a version without a hierarchy (SUBGOAL, JPS_PLUS or JPS answer
// meanwhile, optimal on the new cells) and the background rebuild installs
// one in that same version; the structure survives kill -9 with --data_dir.
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

constexpr char kName[] = "contraction_hierarchy";

// MapInfo.derived's entry of the hierarchy; a default one when absent.
v1::DerivedInfo Hierarchy(const v1::MapInfo& info) {
  for (const v1::DerivedInfo& d : info.derived()) {
    if (d.name() == kName) return d;
  }
  return v1::DerivedInfo();
}

v1::Algorithm ExpectOptimalPath(
    v1::Pathfinding::Stub& stub, const GridMap& local, Cell s, Cell g,
    uint64_t version, v1::Algorithm asked = v1::ALGORITHM_CONTRACTION) {
  return testing::ExpectOptimalServerPath(stub, local, s, g, version, asked);
}

TEST(ServerContractionTest, RegisterSearchUpdateRebuildAndRestart) {
  const std::string dir =
      absl::StrCat(::testing::TempDir(), "/gscontraction.", getpid());
  ASSERT_EQ(
      std::system(absl::StrCat("rm -rf ", dir, " && mkdir -p ", dir).c_str()),
      0);
  const std::string text = ReadSample("dungeon.map");
  GridMap local = *ParseMovingAiMap(text);
  const auto [s, g] = testing::FarConnectedPair(local);
  {
    ServerProcess server({absl::StrCat("--data_dir=", dir)});
    ASSERT_TRUE(server.started());
    v1::RegisterMapRequest r;
    r.set_id("m");
    r.set_movingai(text);
    r.set_jump_table(true);
    r.set_subgoal_graph(true);
    r.add_structures()->set_name(kName);
    v1::MapInfo info;
    {
      grpc::ClientContext ctx;
      SetDeadline(&ctx);
      const grpc::Status st = server.stub().RegisterMap(&ctx, r, &info);
      ASSERT_TRUE(st.ok()) << st.error_message();
    }
    EXPECT_GT(Hierarchy(info).bytes(), 0u);
    EXPECT_GT(Hierarchy(info).build_micros(), 0);
    EXPECT_TRUE(Hierarchy(info).current());
    bool raced = false;
    for (const v1::AutoCandidate& c : info.auto_candidates()) {
      raced = raced || c.algorithm() == v1::ALGORITHM_CONTRACTION;
    }
    EXPECT_TRUE(raced);
    EXPECT_EQ(ExpectOptimalPath(server.stub(), local, s, g, 1),
              v1::ALGORITHM_CONTRACTION);

    // Under another policy, what SUBGOAL would run there (A*).
    {
      v1::PathRequest p = Path("m", s.x, s.y, g.x, g.y);
      p.set_algorithm(v1::ALGORITHM_CONTRACTION);
      p.set_diagonal(v1::DIAGONAL_POLICY_NEVER);
      grpc::ClientContext ctx;
      SetDeadline(&ctx);
      v1::PathResponse out;
      ASSERT_TRUE(server.stub().FindPath(&ctx, p, &out).ok());
      EXPECT_EQ(out.algorithm(), v1::ALGORITHM_ASTAR);
    }

    // A cell of the optimal path blocked (from the middle on, one that
    // leaves the ends connected).
    GridMap blocked_map = local;
    const Cell blocked = testing::BlockOnPath(local, s, g, &blocked_map);
    ASSERT_GE(blocked.x, 0);
    v1::UpdateCellsRequest u;
    u.set_id("m");
    v1::CellUpdate* wall = u.add_cells();
    wall->mutable_cell()->set_x(blocked.x);
    wall->mutable_cell()->set_y(blocked.y);
    wall->set_cost(0);
    v1::MapInfo after;
    {
      grpc::ClientContext ctx;
      SetDeadline(&ctx);
      ASSERT_TRUE(server.stub().UpdateCells(&ctx, u, &after).ok());
    }
    EXPECT_EQ(after.version(), 2u);
    EXPECT_FALSE(Hierarchy(after).current());
    EXPECT_EQ(Hierarchy(after).bytes(), 0u);
    local = blocked_map;
    const v1::Algorithm meanwhile =
        ExpectOptimalPath(server.stub(), local, s, g, 2);
    EXPECT_TRUE(meanwhile == v1::ALGORITHM_CONTRACTION ||
                meanwhile == v1::ALGORITHM_SUBGOAL ||
                meanwhile == v1::ALGORITHM_JPS_PLUS ||
                meanwhile == v1::ALGORITHM_JPS)
        << v1::Algorithm_Name(meanwhile);
    v1::MapInfo rebuilt;
    ASSERT_TRUE(WaitFor([&] {
      v1::GetMapResponse got;
      if (!GetMapWithCells(server.stub(), "m", &got).ok()) return false;
      rebuilt = got.info();
      return Hierarchy(rebuilt).current();
    }));
    EXPECT_EQ(rebuilt.version(), 2u);
    EXPECT_GT(Hierarchy(rebuilt).bytes(), 0u);
    EXPECT_EQ(ExpectOptimalPath(server.stub(), local, s, g, 2),
              v1::ALGORITHM_CONTRACTION);
    // auto answers exactly too, whichever engine it measured fastest.
    ExpectOptimalPath(server.stub(), local, s, g, 2, v1::ALGORITHM_AUTO);
    server.Kill9();
  }
  // Restarted on its directory: the map comes back with its hierarchy.
  ServerProcess again({absl::StrCat("--data_dir=", dir)});
  ASSERT_TRUE(again.started());
  v1::GetMapResponse got;
  ASSERT_TRUE(GetMapWithCells(again.stub(), "m", &got).ok());
  EXPECT_EQ(got.info().version(), 2u);
  EXPECT_TRUE(Hierarchy(got.info()).current());
  EXPECT_GT(Hierarchy(got.info()).bytes(), 0u);
  EXPECT_EQ(ExpectOptimalPath(again.stub(), local, s, g, 2),
            v1::ALGORITHM_CONTRACTION);
}

}  // namespace
}  // namespace gridstar
