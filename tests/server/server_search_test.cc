// The searching RPCs through the real server: every algorithm and policy
// against the library, errors by field, batches, groups, streams and flow
// fields. (Budgets and the fast path: server_budget_test.cc.)
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

TEST_F(ServerTest, FindPathMatchesTheLibraryForEveryAlgorithmAndPolicy) {
  const auto [s, g] = FarPair();
  SearchContext context;
  // 0 is the default, auto; 1.. are the core algorithms.
  for (int a = 0; a <= static_cast<int>(std::size(kAllAlgorithms)); ++a) {
    for (int p = 1; p <= 3; ++p) {
      SCOPED_TRACE(absl::StrCat("algorithm ", a, " policy ", p));
      v1::PathRequest r = Path("dungeon", s.x, s.y, g.x, g.y);
      r.set_algorithm(static_cast<v1::Algorithm>(a));
      r.set_diagonal(static_cast<v1::DiagonalPolicy>(p));
      r.set_smooth(true);
      grpc::ClientContext ctx;
      SetDeadline(&ctx);
      v1::PathResponse out;
      grpc::Status st = stub().FindPath(&ctx, r, &out);
      ASSERT_TRUE(st.ok()) << st.error_message();
      PathQuery q;
      q.start = s;
      q.goal = g;
      q.algorithm = *convert::AlgorithmFromProto(a, "algorithm");
      q.movement.diagonal = *convert::PolicyFromProto(
          p, "diagonal", DiagonalPolicy::kNoCornerCutting);
      absl::StatusOr<PathResult> want = gridstar::FindPath(*map_, q, context);
      ASSERT_TRUE(want.ok());
      EXPECT_NEAR(out.cost(), want->cost, 1e-9);
      // The algorithm that ran is reported (jps+ for auto under the map's
      // no-corner-cutting default, A* under the other policies).
      EXPECT_EQ(out.algorithm(), convert::AlgorithmToProto(want->algorithm));
      const std::vector<Cell> cells = Unpack(out.cells());
      EXPECT_NEAR(PathCost(*map_, cells, q.movement.diagonal), out.cost(), 1e-6);
      EXPECT_EQ(cells.front(), s);
      EXPECT_EQ(cells.back(), g);
      EXPECT_LE(out.smoothed_cost(), out.cost() + 1e-9);
      EXPECT_EQ(out.map_version(), 1u);
      EXPECT_FALSE(out.partial());
    }
  }
}

TEST_F(ServerTest, FindPathErrorsNameTheField) {
  const auto [s, g] = FarPair();
  struct Case {
    const char* name;
    v1::PathRequest request;
    grpc::StatusCode code;
    const char* fragment;
  };
  std::vector<Case> cases;
  cases.push_back({"unknown map", Path("nope", s.x, s.y, g.x, g.y),
                   grpc::StatusCode::NOT_FOUND, "map_id"});
  cases.push_back({"bad map id", Path("no pe", s.x, s.y, g.x, g.y),
                   grpc::StatusCode::INVALID_ARGUMENT, "map_id"});
  cases.push_back({"start off map", Path("dungeon", -1, s.y, g.x, g.y),
                   grpc::StatusCode::INVALID_ARGUMENT, "start"});
  cases.push_back({"goal off map", Path("dungeon", s.x, s.y, 9999, g.y),
                   grpc::StatusCode::INVALID_ARGUMENT, "goal"});
  v1::PathRequest r = Path("dungeon", s.x, s.y, g.x, g.y);
  r.clear_start();
  cases.push_back({"start missing", r, grpc::StatusCode::INVALID_ARGUMENT, "start"});
  r = Path("dungeon", s.x, s.y, g.x, g.y);
  r.set_algorithm(static_cast<v1::Algorithm>(42));
  cases.push_back({"unknown algorithm", r, grpc::StatusCode::INVALID_ARGUMENT, "algorithm"});
  r = Path("dungeon", s.x, s.y, g.x, g.y);
  r.set_diagonal(static_cast<v1::DiagonalPolicy>(9));
  cases.push_back({"unknown policy", r, grpc::StatusCode::INVALID_ARGUMENT, "diagonal"});
  r = Path("dungeon", s.x, s.y, g.x, g.y);
  r.set_algorithm(v1::ALGORITHM_WEIGHTED);
  r.set_weight(0.5);
  cases.push_back({"weight", r, grpc::StatusCode::INVALID_ARGUMENT, "weight"});
  r = Path("dungeon", s.x, s.y, g.x, g.y);
  r.set_snap_radius(1000);
  cases.push_back({"snap radius", r, grpc::StatusCode::INVALID_ARGUMENT, "snap_radius"});
  r = Path("dungeon", s.x, s.y, g.x, g.y);
  r.set_max_expansions(3);
  cases.push_back({"expansions", r, grpc::StatusCode::RESOURCE_EXHAUSTED, "max_expansions"});
  for (const Case& c : cases) {
    SCOPED_TRACE(c.name);
    grpc::ClientContext ctx;
    SetDeadline(&ctx);
    v1::PathResponse out;
    grpc::Status st = stub().FindPath(&ctx, c.request, &out);
    EXPECT_EQ(st.error_code(), c.code) << st.error_message();
    EXPECT_NE(st.error_message().find(c.fragment), std::string::npos)
        << st.error_message();
  }
  // With allow_partial the same budget gives a partial path.
  r = Path("dungeon", s.x, s.y, g.x, g.y);
  r.set_max_expansions(3);
  r.set_allow_partial(true);
  grpc::ClientContext ctx;
  v1::PathResponse out;
  ASSERT_TRUE(stub().FindPath(&ctx, r, &out).ok());
  EXPECT_TRUE(out.partial());
  EXPECT_EQ(Unpack(out.cells()).front(), s);
}

TEST_F(ServerTest, NoPathIsFailedPrecondition) {
  v1::MapInfo info;
  ASSERT_TRUE(Register(stub(), "split", "type octile\nheight 1\nwidth 3\nmap\n.@.\n", &info).ok());
  grpc::ClientContext ctx;
  v1::PathResponse out;
  grpc::Status st = stub().FindPath(&ctx, Path("split", 0, 0, 2, 0), &out);
  EXPECT_EQ(st.error_code(), grpc::StatusCode::FAILED_PRECONDITION) << st.error_message();
  EXPECT_EQ(st.error_message(),
            "no path: start (0, 0) and goal (2, 0) lie in different components "
            "on map 'split' version 1");
}

// A group unit with no path is told so once, in the same words as FindPath
// (it used to read "no path: no path: ..."), by splicing and by flow field.
TEST_F(ServerTest, GroupUnitWithoutPathSaysNoPathOnce) {
  v1::MapInfo info;
  ASSERT_TRUE(Register(stub(), "split", "type octile\nheight 1\nwidth 4\nmap\n.@..\n", &info).ok());
  for (v1::GroupMethod method : {v1::GROUP_METHOD_SPLICE, v1::GROUP_METHOD_FLOW_FIELD}) {
    SCOPED_TRACE(v1::GroupMethod_Name(method));
    v1::GroupPathsRequest r;
    r.set_map_id("split");
    r.set_method(method);
    convert::CellToProto({0, 0}, r.add_starts());
    convert::CellToProto({3, 0}, r.add_starts());
    convert::CellToProto({2, 0}, r.add_goals());
    grpc::ClientContext ctx;
    SetDeadline(&ctx);
    v1::GroupPathsResponse out;
    ASSERT_TRUE(stub().FindGroupPaths(&ctx, r, &out).ok());
    ASSERT_EQ(out.units_size(), 2);
    const v1::UnitPath& cut_off = out.units(0);
    EXPECT_EQ(cut_off.code(), static_cast<int>(grpc::StatusCode::FAILED_PRECONDITION));
    EXPECT_EQ(cut_off.message(),
              "no path: start (0, 0) and goal (2, 0) lie in different components "
              "on map 'split' version 1");
    EXPECT_EQ(out.units(1).code(), 0) << out.units(1).message();
  }
}

TEST_F(ServerTest, BatchItemsFailAlone) {
  const auto [s, g] = FarPair();
  v1::FindPathsRequest batch;
  batch.set_map_id("dungeon");
  for (int i = 0; i < 50; ++i) {
    *batch.add_items() = i % 5 == 3 ? Path("", -5, 0, g.x, g.y) : Path("", s.x, s.y, g.x, g.y);
  }
  grpc::ClientContext ctx;
  SetDeadline(&ctx);
  v1::FindPathsResponse out;
  ASSERT_TRUE(stub().FindPaths(&ctx, batch, &out).ok());
  ASSERT_EQ(out.results_size(), 50);
  for (int i = 0; i < 50; ++i) {
    SCOPED_TRACE(i);
    if (i % 5 == 3) {
      EXPECT_EQ(out.results(i).code(), static_cast<int>(grpc::StatusCode::INVALID_ARGUMENT));
      EXPECT_NE(out.results(i).message().find(absl::StrCat("items[", i, "].start")),
                std::string::npos)
          << out.results(i).message();
    } else {
      EXPECT_EQ(out.results(i).code(), 0) << out.results(i).message();
      EXPECT_EQ(Unpack(out.results(i).path().cells()).back(), g);
    }
  }
  // Over the batch limit: the whole call is refused.
  v1::FindPathsRequest big;
  big.set_map_id("dungeon");
  for (int i = 0; i < 1025; ++i) *big.add_items() = Path("", s.x, s.y, s.x, s.y);
  grpc::ClientContext ctx2;
  EXPECT_EQ(stub().FindPaths(&ctx2, big, &out).error_code(),
            grpc::StatusCode::RESOURCE_EXHAUSTED);
}

TEST_F(ServerTest, GroupPathsAreValidAndReportOverhead) {
  const auto [s, g] = FarPair();
  v1::GroupPathsRequest r;
  r.set_map_id("dungeon");
  for (int dy = 0; dy < 12 && r.starts_size() < 30; ++dy) {
    for (int dx = 0; dx < 12 && r.starts_size() < 30; ++dx) {
      const Cell c{s.x + dx, s.y + dy};
      if (!map_->Passable(c)) continue;
      v1::Cell* out = r.add_starts();
      out->set_x(c.x);
      out->set_y(c.y);
    }
  }
  r.add_goals()->set_x(g.x);
  r.mutable_goals(0)->set_y(g.y);
  r.set_report_overhead(true);
  grpc::ClientContext ctx;
  SetDeadline(&ctx);
  v1::GroupPathsResponse out;
  ASSERT_TRUE(stub().FindGroupPaths(&ctx, r, &out).ok());
  ASSERT_EQ(out.units_size(), r.starts_size());
  double overhead = 0;
  int spliced = 0;
  for (int i = 0; i < out.units_size(); ++i) {
    SCOPED_TRACE(i);
    const v1::UnitPath& u = out.units(i);
    const Cell start{r.starts(i).x(), r.starts(i).y()};
    if (!map_->Connected(start, g)) {
      EXPECT_EQ(u.code(), static_cast<int>(grpc::StatusCode::FAILED_PRECONDITION));
      continue;
    }
    ASSERT_EQ(u.code(), 0) << u.message();
    const std::vector<Cell> cells = Unpack(u.path().cells());
    EXPECT_EQ(cells.front(), start);
    EXPECT_EQ(cells.back(), g);
    EXPECT_NEAR(PathCost(*map_, cells, DiagonalPolicy::kNoCornerCutting),
                u.path().cost(), 1e-6);
    if (u.spliced()) {
      ++spliced;
      EXPECT_GE(u.path().cost(), u.independent_cost() - 1e-6);
      overhead += u.path().cost() / u.independent_cost() - 1;
    }
  }
  EXPECT_GT(spliced, 0);
  EXPECT_EQ(out.spliced_units(), static_cast<uint32_t>(spliced));
  EXPECT_NEAR(out.mean_cost_overhead(), overhead / spliced, 1e-6);
  EXPECT_LT(out.searches(), static_cast<uint64_t>(r.starts_size()) * 2);
}

TEST_F(ServerTest, StreamAnswersEveryRequestById) {
  const auto [s, g] = FarPair();
  grpc::ClientContext ctx;
  SetDeadline(&ctx);
  auto stream = stub().FindPathsStream(&ctx);
  const int n = 300;
  std::thread writer([&] {
    for (int i = 0; i < n; ++i) {
      v1::StreamPathRequest r;
      r.set_request_id(1000 + i);
      *r.mutable_request() =
          i % 7 == 0 ? Path("nope", s.x, s.y, g.x, g.y) : Path("dungeon", s.x, s.y, g.x, g.y);
      stream->Write(r);
    }
    stream->WritesDone();
  });
  std::vector<int> seen(n, 0);
  v1::StreamPathResponse answer;
  while (stream->Read(&answer)) {
    const int i = static_cast<int>(answer.request_id()) - 1000;
    ASSERT_GE(i, 0);
    ASSERT_LT(i, n);
    ++seen[i];
    if (i % 7 == 0) {
      EXPECT_EQ(answer.result().code(), static_cast<int>(grpc::StatusCode::NOT_FOUND));
    } else {
      EXPECT_EQ(answer.result().code(), 0) << answer.result().message();
    }
  }
  writer.join();
  EXPECT_TRUE(stream->Finish().ok());
  for (int i = 0; i < n; ++i) EXPECT_EQ(seen[i], 1) << i;
}

// The field equals the library's cell by cell, is cached until the map
// changes, and every error names its field.
TEST_F(ServerTest, FlowFieldMatchesTheLibraryAndIsCached) {
  const Cell goal = FarPair().second;
  v1::FlowFieldResponse out;
  ASSERT_TRUE(Field(stub(), "dungeon", goal, &out).ok());
  SearchContext context;
  FlowFieldQuery q;
  q.goal = goal;
  absl::StatusOr<FlowField> want = ComputeFlowField(*map_, q, context);
  ASSERT_TRUE(want.ok());
  ASSERT_EQ(out.width(), map_->width());
  ASSERT_EQ(out.costs_size(), map_->cell_count());
  ASSERT_EQ(out.directions().size(), static_cast<size_t>(map_->cell_count()));
  EXPECT_EQ(out.reached_cells(), want->reached());
  EXPECT_TRUE(out.complete());
  EXPECT_FALSE(out.cached());
  for (int i = 0; i < out.costs_size(); ++i) {
    const double c = want->costs()[static_cast<size_t>(i)];
    if (std::isinf(c)) {
      EXPECT_EQ(out.costs(i), -1.0f);
    } else {
      EXPECT_NEAR(out.costs(i), c, 1e-5 * (1 + c));
    }
    EXPECT_EQ(static_cast<uint8_t>(out.directions()[static_cast<size_t>(i)]),
              want->directions()[static_cast<size_t>(i)]);
  }
  // The same field again comes from the cache.
  v1::FlowFieldResponse again;
  ASSERT_TRUE(Field(stub(), "dungeon", goal, &again).ok());
  EXPECT_TRUE(again.cached());
  EXPECT_EQ(again.directions(), out.directions());
  // A bounded field holds only the cells within the bound.
  v1::FlowFieldResponse bounded;
  ASSERT_TRUE(Field(stub(), "dungeon", goal, &bounded, 10).ok());
  EXPECT_LT(bounded.reached_cells(), out.reached_cells());
  for (float c : bounded.costs()) EXPECT_LE(c, 10.0f + 1e-4f);
  // A change of the map drops the cached fields.
  v1::UpdateCellsRequest u;
  u.set_id("dungeon");
  v1::CellUpdate* cu = u.add_cells();
  cu->mutable_cell()->set_x(goal.x);
  cu->mutable_cell()->set_y(goal.y);
  cu->set_cost(3);
  {
    grpc::ClientContext ctx;
    v1::MapInfo info;
    ASSERT_TRUE(stub().UpdateCells(&ctx, u, &info).ok());
  }
  ASSERT_TRUE(Field(stub(), "dungeon", goal, &again).ok());
  EXPECT_FALSE(again.cached());
  EXPECT_EQ(again.map_version(), 2u);
  const std::string m = ScrapeUntil(
      server_->metrics_port(),
      {"gridstar_flow_field_cache_lookups_total{result=\"hit\"} 1",
       "gridstar_flow_field_cache_lookups_total{result=\"miss\"} 3"});
  EXPECT_NE(m.find("gridstar_flow_field_cache_lookups_total{result=\"hit\"} 1"),
            std::string::npos);
  EXPECT_NE(m.find("gridstar_flow_field_cache_lookups_total{result=\"miss\"} 3"),
            std::string::npos);

  // Errors.
  EXPECT_EQ(Field(stub(), "nosuch", goal, &out).error_code(), grpc::StatusCode::NOT_FOUND);
  grpc::Status st = Field(stub(), "dungeon", {-1, 0}, &out);
  EXPECT_EQ(st.error_code(), grpc::StatusCode::INVALID_ARGUMENT);
  EXPECT_NE(st.error_message().find("goal: (-1, 0) is outside"), std::string::npos)
      << st.error_message();
  st = Field(stub(), "dungeon", goal, &out, -2);
  EXPECT_EQ(st.error_code(), grpc::StatusCode::INVALID_ARGUMENT);
  EXPECT_NE(st.error_message().find("max_cost"), std::string::npos);
  v1::FlowFieldRequest r;
  r.set_map_id("dungeon");
  {
    grpc::ClientContext ctx;
    st = stub().ComputeFlowField(&ctx, r, &out);
    EXPECT_EQ(st.error_code(), grpc::StatusCode::INVALID_ARGUMENT);
    EXPECT_NE(st.error_message().find("goal: required"), std::string::npos);
  }
  r.mutable_goal()->set_x(goal.x);
  r.mutable_goal()->set_y(goal.y);
  r.set_diagonal(static_cast<v1::DiagonalPolicy>(17));
  {
    grpc::ClientContext ctx;
    st = stub().ComputeFlowField(&ctx, r, &out);
    EXPECT_EQ(st.error_code(), grpc::StatusCode::INVALID_ARGUMENT);
    EXPECT_NE(st.error_message().find("diagonal"), std::string::npos);
  }
}

// A large group to one goal follows its flow field: every path optimal;
// the field is cached, and the next group to that goal searches nothing.
TEST_F(ServerTest, LargeGroupsFollowACachedFlowField) {
  v1::RegisterMapRequest reg;
  reg.set_id("terrain");
  reg.set_pgm(ReadSample("terrain.pgm"));
  v1::MapInfo info;
  {
    grpc::ClientContext ctx;
    ASSERT_TRUE(stub().RegisterMap(&ctx, reg, &info).ok());
  }
  const GridMap terrain = *ParsePgm(ReadSample("terrain.pgm"));
  const Cell goal = testing::FarConnectedPair(terrain).second;
  v1::GroupPathsRequest r;
  r.set_map_id("terrain");
  *r.add_goals() = v1::Cell();
  r.mutable_goals(0)->set_x(goal.x);
  r.mutable_goals(0)->set_y(goal.y);
  std::mt19937 rng(3);
  std::vector<Cell> starts;
  while (starts.size() < 70) {
    const Cell c{static_cast<int32_t>(rng() % terrain.width()),
                 static_cast<int32_t>(rng() % terrain.height())};
    if (!terrain.Connected(c, goal)) continue;
    starts.push_back(c);
    v1::Cell* sc = r.add_starts();
    sc->set_x(c.x);
    sc->set_y(c.y);
  }
  SearchContext context;
  for (bool cached : {false, true}) {
    SCOPED_TRACE(cached ? "cached" : "computed");
    grpc::ClientContext ctx;
    SetDeadline(&ctx);
    v1::GroupPathsResponse out;
    ASSERT_TRUE(stub().FindGroupPaths(&ctx, r, &out).ok());
    EXPECT_TRUE(out.flow_field());
    EXPECT_EQ(out.flow_field_cached(), cached);
    EXPECT_EQ(out.searches(), cached ? 0u : 1u);
    EXPECT_EQ(out.spliced_units(), 0u);
    ASSERT_EQ(out.units_size(), 70);
    for (int i = 0; i < 70; ++i) {
      const v1::UnitPath& u = out.units(i);
      ASSERT_EQ(u.code(), 0) << u.message();
      const std::vector<Cell> cells = Unpack(u.path().cells());
      EXPECT_EQ(cells.front(), starts[static_cast<size_t>(i)]);
      EXPECT_EQ(cells.back(), goal);
      PathQuery q;
      q.start = starts[static_cast<size_t>(i)];
      q.goal = goal;
      EXPECT_NEAR(PathCost(terrain, cells, q.movement.diagonal), u.path().cost(), 1e-6);
      EXPECT_NEAR(u.path().cost(), gridstar::FindPath(terrain, q, context)->cost,
                  1e-6);
    }
  }
  // Splicing asked for: no field, and no cache lookup counted.
  r.set_method(v1::GROUP_METHOD_SPLICE);
  grpc::ClientContext ctx;
  v1::GroupPathsResponse out;
  ASSERT_TRUE(stub().FindGroupPaths(&ctx, r, &out).ok());
  EXPECT_FALSE(out.flow_field());
  const std::string m = ScrapeUntil(
      server_->metrics_port(),
      {"gridstar_flow_field_cache_lookups_total{result=\"hit\"} 1",
       "gridstar_flow_field_cache_lookups_total{result=\"miss\"} 1"});
  EXPECT_NE(m.find("gridstar_flow_field_cache_lookups_total{result=\"hit\"} 1"),
            std::string::npos);
  EXPECT_NE(m.find("gridstar_flow_field_cache_lookups_total{result=\"miss\"} 1"),
            std::string::npos);
}

}  // namespace
}  // namespace gridstar
