// Theta* and search traces through the real server: ALGORITHM_THETA answers
// with any-angle waypoints whose segments are clear (an independent check)
// and whose cost the library's; PathRequest.trace returns the expanded cells
// only when asked, in single calls and batch items, cut (and flagged) at the
// share of --max_message_bytes the proto documents.
#include <string>
#include <vector>

#include "absl/strings/str_cat.h"
#include "gridstar/find_path.h"
#include "gtest/gtest.h"
#include "server/server_test_util.h"

namespace gridstar {
namespace {

using namespace testing::server_suite;  // NOLINT(build/namespaces)

grpc::Status Search(v1::Pathfinding::Stub& stub, const v1::PathRequest& r,
                    v1::PathResponse* out) {
  grpc::ClientContext ctx;
  SetDeadline(&ctx);
  return stub.FindPath(&ctx, r, out);
}

TEST_F(ServerTest, ThetaAnswersWithClearAnyAngleWaypoints) {
  const auto [s, g] = FarPair();
  SearchContext context;
  for (int p = 1; p <= 3; ++p) {
    SCOPED_TRACE(absl::StrCat("policy ", p));
    v1::PathRequest r = Path("dungeon", s.x, s.y, g.x, g.y);
    r.set_algorithm(v1::ALGORITHM_THETA);
    r.set_diagonal(static_cast<v1::DiagonalPolicy>(p));
    v1::PathResponse out;
    grpc::Status st = Search(stub(), r, &out);
    ASSERT_TRUE(st.ok()) << st.error_message();
    EXPECT_EQ(out.algorithm(), v1::ALGORITHM_THETA);
    const DiagonalPolicy policy = *convert::PolicyFromProto(
        p, "diagonal", DiagonalPolicy::kNoCornerCutting);
    // Waypoints come without `smooth`: they are the answer.
    const std::vector<Cell> corners = Unpack(out.waypoints());
    ASSERT_GE(corners.size(), 2u);
    EXPECT_EQ(corners.front(), s);
    EXPECT_EQ(corners.back(), g);
    double total = 0;
    for (size_t i = 1; i < corners.size(); ++i) {
      const double c = testing::ReferenceSegmentCost(*map_, corners[i - 1],
                                                     corners[i], policy);
      ASSERT_GE(c, 0) << "segment " << i << " is blocked";
      total += c;
    }
    EXPECT_NEAR(out.smoothed_cost(), total, 1e-6);
    const std::vector<Cell> cells = Unpack(out.cells());
    EXPECT_NEAR(PathCost(*map_, cells, policy), out.cost(), 1e-6);
    PathQuery q;
    q.start = s;
    q.goal = g;
    q.movement.diagonal = policy;
    q.algorithm = Algorithm::kTheta;
    absl::StatusOr<PathResult> want = gridstar::FindPath(*map_, q, context);
    ASSERT_TRUE(want.ok());
    EXPECT_NEAR(out.smoothed_cost(), want->smoothed_cost, 1e-9);
    q.algorithm = Algorithm::kAStar;
    EXPECT_LE(out.smoothed_cost(),
              gridstar::FindPath(*map_, q, context)->cost + 1e-9);
  }
}

TEST_F(ServerTest, TraceIsReturnedOnlyWhenAsked) {
  const auto [s, g] = FarPair();
  v1::PathRequest r = Path("dungeon", s.x, s.y, g.x, g.y);
  r.set_algorithm(v1::ALGORITHM_ASTAR);
  v1::PathResponse plain;
  ASSERT_TRUE(Search(stub(), r, &plain).ok());
  EXPECT_EQ(plain.trace_size(), 0);
  EXPECT_FALSE(plain.trace_truncated());

  r.set_trace(true);
  v1::PathResponse traced;
  ASSERT_TRUE(Search(stub(), r, &traced).ok());
  const std::vector<Cell> trace = Unpack(traced.trace());
  EXPECT_EQ(trace.size(), traced.expanded());
  ASSERT_FALSE(trace.empty());
  EXPECT_EQ(trace.front(), s);
  EXPECT_EQ(trace.back(), g);
  EXPECT_FALSE(traced.trace_truncated());
  EXPECT_EQ(Unpack(traced.cells()), Unpack(plain.cells()));

  // A batch item asks for its own.
  v1::FindPathsRequest batch;
  batch.set_map_id("dungeon");
  *batch.add_items() = r;
  r.set_trace(false);
  *batch.add_items() = r;
  grpc::ClientContext ctx;
  SetDeadline(&ctx);
  v1::FindPathsResponse answers;
  ASSERT_TRUE(stub().FindPaths(&ctx, batch, &answers).ok());
  ASSERT_EQ(answers.results_size(), 2);
  EXPECT_EQ(answers.results(0).path().trace_size(), traced.trace_size());
  EXPECT_EQ(answers.results(1).path().trace_size(), 0);
}

TEST(ServerTraceCapTest, TraceIsCutAtItsShareOfTheMessageLimit) {
  constexpr int kMessageBytes = 64 << 10;
  InProcessServer server({absl::StrCat("--max_message_bytes=", kMessageBytes)});
  ASSERT_TRUE(server.started());
  // 128 x 128 open cells: Dijkstra expands about all of them.
  v1::RegisterMapRequest reg;
  reg.set_id("open");
  reg.set_width(128);
  reg.set_height(128);
  reg.set_raw(std::string(128 * 128, '\1'));
  {
    grpc::ClientContext ctx;
    SetDeadline(&ctx);
    v1::MapInfo info;
    grpc::Status st = server.stub().RegisterMap(&ctx, reg, &info);
    ASSERT_TRUE(st.ok()) << st.error_message();
  }
  v1::PathRequest r = Path("open", 0, 0, 127, 127);
  r.set_algorithm(v1::ALGORITHM_DIJKSTRA);
  r.set_trace(true);
  v1::PathResponse out;
  grpc::Status st = Search(server.stub(), r, &out);
  ASSERT_TRUE(st.ok()) << st.error_message();
  const size_t cap = kMessageBytes / 40;
  EXPECT_GT(out.expanded(), cap);
  EXPECT_EQ(out.trace_size(), static_cast<int>(2 * cap));
  EXPECT_TRUE(out.trace_truncated());
  // The first cells are kept: the search began at the start.
  EXPECT_EQ(out.trace(0), 0);
  EXPECT_EQ(out.trace(1), 0);
  // The path itself is whole.
  const std::vector<Cell> cells = Unpack(out.cells());
  ASSERT_FALSE(cells.empty());
  EXPECT_EQ(cells.back(), (Cell{127, 127}));
}

}  // namespace
}  // namespace gridstar
