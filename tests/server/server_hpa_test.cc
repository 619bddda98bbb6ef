// HPA* through the real server: RegisterMap with hpa builds the
// abstraction (MapInfo reports it), ALGORITHM_HPA answers with legal paths
// no shorter than the optimum under the map's policy and runs what AUTO
// would under others, UpdateCells repairs it (searches see the new
// version), and the option survives kill -9 with --data_dir.
#include <unistd.h>

#include <cstdlib>
#include <string>
#include <vector>

#include "absl/strings/str_cat.h"
#include "gridstar/map_io.h"
#include "gtest/gtest.h"
#include "server/server_test_util.h"

namespace gridstar {
namespace {

using namespace testing::server_suite;  // NOLINT(build/namespaces)

grpc::Status RegisterHpa(v1::Pathfinding::Stub& stub, const std::string& id,
                         const std::string& pgm, v1::MapInfo* info) {
  v1::RegisterMapRequest r;
  r.set_id(id);
  r.set_pgm(pgm);
  r.set_hpa(true);
  grpc::ClientContext ctx;
  SetDeadline(&ctx);
  return stub.RegisterMap(&ctx, r, info);
}

// One HPA* search through the server, checked against `local` (the map as
// the server should hold it): legal, its true cost, never below optimal.
void ExpectHpaPath(v1::Pathfinding::Stub& stub, const GridMap& local, Cell s,
                   Cell g, uint64_t version) {
  v1::PathRequest r = Path("terrain", s.x, s.y, g.x, g.y);
  r.set_algorithm(v1::ALGORITHM_HPA);
  r.set_smooth(true);
  grpc::ClientContext ctx;
  SetDeadline(&ctx);
  v1::PathResponse out;
  grpc::Status st = stub.FindPath(&ctx, r, &out);
  ASSERT_TRUE(st.ok()) << st.error_message();
  EXPECT_EQ(out.algorithm(), v1::ALGORITHM_HPA);
  EXPECT_EQ(out.map_version(), version);
  const std::vector<Cell> cells = Unpack(out.cells());
  ASSERT_FALSE(cells.empty());
  EXPECT_EQ(cells.front(), s);
  EXPECT_EQ(cells.back(), g);
  EXPECT_NEAR(PathCost(local, cells, DiagonalPolicy::kNoCornerCutting),
              out.cost(), 1e-6);
  EXPECT_LE(out.smoothed_cost(), out.cost() + 1e-9);
  EXPECT_GE(out.cost(), testing::CoreAStarCost(local, s, g) - 1e-9);
}

TEST(ServerHpaTest, RegisterSearchUpdateAndRestart) {
  const std::string dir =
      absl::StrCat(::testing::TempDir(), "/gshpa.", getpid());
  ASSERT_EQ(std::system(absl::StrCat("rm -rf ", dir, " && mkdir -p ", dir)
                            .c_str()),
            0);
  const std::string pgm = ReadSample("terrain.pgm");
  GridMap local = *ParsePgm(pgm);
  const auto [s, g] = testing::FarConnectedPair(local);
  {
    ServerProcess server({absl::StrCat("--data_dir=", dir)});
    ASSERT_TRUE(server.started());
    v1::MapInfo info;
    ASSERT_TRUE(RegisterHpa(server.stub(), "terrain", pgm, &info).ok());
    EXPECT_TRUE(info.hpa());
    EXPECT_GT(info.hpa_bytes(), 0u);
    EXPECT_GT(info.hpa_build_micros(), 0);
    ExpectHpaPath(server.stub(), local, s, g, 1);

    // Under another policy than the map's, HPA runs what AUTO would.
    {
      v1::PathRequest r = Path("terrain", s.x, s.y, g.x, g.y);
      r.set_algorithm(v1::ALGORITHM_HPA);
      r.set_diagonal(v1::DIAGONAL_POLICY_NEVER);
      grpc::ClientContext ctx;
      SetDeadline(&ctx);
      v1::PathResponse out;
      ASSERT_TRUE(server.stub().FindPath(&ctx, r, &out).ok());
      EXPECT_NE(out.algorithm(), v1::ALGORITHM_HPA);
    }

    // A wall across the middle with one gap: repaired, and the next
    // version's paths go through the gap.
    v1::UpdateCellsRequest u;
    u.set_id("terrain");
    v1::RectUpdate* wall = u.add_rects();
    wall->mutable_rect()->mutable_min()->set_x(0);
    wall->mutable_rect()->mutable_min()->set_y(local.height() / 2);
    wall->mutable_rect()->mutable_max()->set_x(local.width() - 3);
    wall->mutable_rect()->mutable_max()->set_y(local.height() / 2 + 1);
    wall->set_cost(0);
    v1::MapInfo after;
    {
      grpc::ClientContext ctx;
      SetDeadline(&ctx);
      ASSERT_TRUE(server.stub().UpdateCells(&ctx, u, &after).ok());
    }
    EXPECT_EQ(after.version(), 2u);
    EXPECT_TRUE(after.hpa());
    EXPECT_GT(after.hpa_build_micros(), 0);
    std::vector<uint8_t> costs = local.CopyCosts();
    for (int32_t x = 0; x < local.width() - 3; ++x) {
      costs[static_cast<size_t>(local.height() / 2) * local.width() + x] = 0;
    }
    local = *GridMap::FromCosts(local.width(), local.height(), costs);
    if (local.Connected(s, g)) ExpectHpaPath(server.stub(), local, s, g, 2);
    server.Kill9();
  }
  // Restarted on its directory: the map comes back with its abstraction.
  ServerProcess again({absl::StrCat("--data_dir=", dir)});
  ASSERT_TRUE(again.started());
  v1::GetMapResponse got;
  ASSERT_TRUE(GetMapWithCells(again.stub(), "terrain", &got).ok());
  EXPECT_EQ(got.info().version(), 2u);
  EXPECT_TRUE(got.info().hpa());
  EXPECT_GT(got.info().hpa_bytes(), 0u);
  if (local.Connected(s, g)) ExpectHpaPath(again.stub(), local, s, g, 2);
}

}  // namespace
}  // namespace gridstar
