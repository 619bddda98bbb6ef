// Integration tests: each starts the real gridstar-server binary on a free
// loopback port and talks to it over gRPC.
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
#include <mutex>
#include <set>
#include <memory>
#include <random>
#include <sstream>
#include <string>
#include <thread>
#include <vector>

#include "absl/strings/str_cat.h"
#include "gridstar/find_path.h"
#include "gridstar/flow_field.h"
#include "gridstar/map_io.h"
#include "gridstar/v1/gridstar.grpc.pb.h"
#include "grpcpp/grpcpp.h"
#include "gtest/gtest.h"
#include "server/server_process.h"
#include "testing/reference.h"

namespace gridstar {
namespace {

namespace v1 = ::gridstar::v1;
using testing::FreePort;
using testing::ReadSample;
using testing::Scrape;
using testing::ServerProcess;

void SetDeadline(grpc::ClientContext* ctx, int ms = 10000) {
  ctx->set_deadline(std::chrono::system_clock::now() + std::chrono::milliseconds(ms));
}

grpc::Status Register(v1::Pathfinding::Stub& stub, const std::string& id,
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

v1::PathRequest Path(const std::string& map, int sx, int sy, int gx, int gy) {
  v1::PathRequest r;
  r.set_map_id(map);
  r.mutable_start()->set_x(sx);
  r.mutable_start()->set_y(sy);
  r.mutable_goal()->set_x(gx);
  r.mutable_goal()->set_y(gy);
  return r;
}

std::vector<Cell> Unpack(const google::protobuf::RepeatedField<int32_t>& packed) {
  std::vector<Cell> cells;
  for (int i = 0; i + 1 < packed.size(); i += 2) cells.push_back({packed[i], packed[i + 1]});
  return cells;
}

class ServerTest : public ::testing::Test {
 protected:
  void SetUp() override {
    server_ = std::make_unique<ServerProcess>();
    ASSERT_TRUE(server_->started()) << "gridstar-server did not start";
    dungeon_ = ReadSample("dungeon.map");
    v1::MapInfo info;
    // With jump distances, so that jps+ and auto run on the server.
    ASSERT_TRUE(Register(server_->stub(), "dungeon", dungeon_, &info, false, true).ok());
    EXPECT_TRUE(info.jump_table());
    absl::StatusOr<GridMap> map = ParseMovingAiMap(dungeon_);
    ASSERT_TRUE(map.ok());
    ASSERT_TRUE(map->BuildJumpTable().ok());
    EXPECT_EQ(info.jump_table_bytes(), map->JumpTableBytes());
    EXPECT_GT(info.jump_table_build_micros(), 0);
    map_ = std::make_unique<GridMap>(*std::move(map));
  }
  v1::Pathfinding::Stub& stub() { return server_->stub(); }

  // Two passable cells of the sample map far apart, connected.
  std::pair<Cell, Cell> FarPair() const { return testing::FarConnectedPair(*map_); }

  std::unique_ptr<ServerProcess> server_;
  std::string dungeon_;
  std::unique_ptr<GridMap> map_;
};

TEST_F(ServerTest, RegisterIsIdempotentAndGuardsIds) {
  v1::MapInfo info;
  // The fixture registered the same cells with a jump table: a no-op.
  ASSERT_TRUE(Register(stub(), "dungeon", dungeon_, &info, false, true).ok());
  EXPECT_EQ(info.version(), 1u);
  EXPECT_EQ(info.width(), map_->width());
  EXPECT_EQ(info.passable_cells(), map_->passable_count());
  EXPECT_GT(info.memory_bytes(), info.jump_table_bytes());
  // The same cells without the table are other content.
  grpc::Status s = Register(stub(), "dungeon", dungeon_, &info);
  EXPECT_EQ(s.error_code(), grpc::StatusCode::ALREADY_EXISTS) << s.error_message();
  std::string other = dungeon_;
  other[other.size() - 2] = other[other.size() - 2] == '.' ? '@' : '.';
  s = Register(stub(), "dungeon", other, &info, false, true);
  EXPECT_EQ(s.error_code(), grpc::StatusCode::ALREADY_EXISTS) << s.error_message();
  ASSERT_TRUE(Register(stub(), "dungeon", other, &info, true).ok());
  EXPECT_EQ(info.version(), 2u);
  EXPECT_FALSE(info.jump_table());
  EXPECT_EQ(info.jump_table_bytes(), 0u);
  s = Register(stub(), "bad id!", dungeon_, &info);
  EXPECT_EQ(s.error_code(), grpc::StatusCode::INVALID_ARGUMENT);
  EXPECT_NE(s.error_message().find("id"), std::string::npos);
  s = Register(stub(), "broken", "type octile\nheight 2\n", &info);
  EXPECT_EQ(s.error_code(), grpc::StatusCode::INVALID_ARGUMENT);
  EXPECT_NE(s.error_message().find("cells"), std::string::npos) << s.error_message();
  v1::RegisterMapRequest raw;
  raw.set_id("huge");
  raw.set_raw(std::string(16, '\1'));
  raw.set_width(100000);
  raw.set_height(1);
  grpc::ClientContext ctx;
  s = stub().RegisterMap(&ctx, raw, &info);
  EXPECT_EQ(s.error_code(), grpc::StatusCode::RESOURCE_EXHAUSTED) << s.error_message();
}

TEST_F(ServerTest, GetListDelete) {
  v1::MapInfo info;
  ASSERT_TRUE(Register(stub(), "another", dungeon_, &info).ok());
  {
    grpc::ClientContext ctx;
    v1::ListMapsResponse list;
    ASSERT_TRUE(stub().ListMaps(&ctx, {}, &list).ok());
    ASSERT_EQ(list.maps_size(), 2);
    EXPECT_EQ(list.maps(0).id(), "another");
    EXPECT_EQ(list.maps(1).id(), "dungeon");
  }
  {
    grpc::ClientContext ctx;
    v1::GetMapRequest r;
    r.set_id("dungeon");
    r.set_include_cells(true);
    v1::GetMapResponse got;
    ASSERT_TRUE(stub().GetMap(&ctx, r, &got).ok());
    const std::vector<uint8_t> costs = map_->CopyCosts();
    EXPECT_EQ(got.raw(), std::string(costs.begin(), costs.end()));
  }
  {
    grpc::ClientContext ctx;
    v1::DeleteMapRequest r;
    r.set_id("another");
    v1::DeleteMapResponse out;
    ASSERT_TRUE(stub().DeleteMap(&ctx, r, &out).ok());
  }
  for (const char* id : {"another", "never"}) {
    grpc::ClientContext ctx;
    v1::GetMapRequest r;
    r.set_id(id);
    v1::GetMapResponse got;
    EXPECT_EQ(stub().GetMap(&ctx, r, &got).error_code(), grpc::StatusCode::NOT_FOUND);
  }
}

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
      q.algorithm = a == 0 ? Algorithm::kAuto : kAllAlgorithms[a - 1];
      q.movement.diagonal = kAllDiagonalPolicies[p - 1];
      absl::StatusOr<PathResult> want = gridstar::FindPath(*map_, q, context);
      ASSERT_TRUE(want.ok());
      EXPECT_NEAR(out.cost(), want->cost, 1e-9);
      // The algorithm that ran is reported (jps+ for auto under the map's
      // no-corner-cutting default, A* under the other policies).
      EXPECT_EQ(out.algorithm(), static_cast<int>(want->algorithm) + 1);
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

// Seeded random requests built from edge values (extreme and negative
// coordinates, NaN and infinite numbers, unknown enums, bad ids) to every
// searching RPC: each gets OK with a legal path or one of the documented
// codes with a message, and the server keeps serving correct answers.
TEST_F(ServerTest, RandomRequestsGetDocumentedStatuses) {
  std::mt19937 rng(20261203);
  const int32_t ints[] = {-1, 0, 1, 5, 64, 127, 128, 129, INT32_MAX, INT32_MIN};
  const double reals[] = {std::nan(""), std::numeric_limits<double>::infinity(),
                          -std::numeric_limits<double>::infinity(), -1, 0, 0.5,
                          1, 1.5, 100, 101, 1e300};
  const std::string ids[] = {"dungeon", "dungeon", "dungeon", "", "nope",
                             "bad id", std::string(200, 'x')};
  auto pick_int = [&]() -> int32_t {
    return rng() % 2 ? ints[rng() % std::size(ints)]
                     : static_cast<int32_t>(rng() % 140) - 5;
  };
  auto pick_real = [&] { return reals[rng() % std::size(reals)]; };
  auto pick_cell = [&](v1::Cell* c) {
    c->set_x(pick_int());
    c->set_y(pick_int());
  };
  // Half the ends are passable cells of the map, so that many searches run.
  auto pick_end = [&](v1::Cell* c) {
    Cell cell{static_cast<int32_t>(rng() % 128), static_cast<int32_t>(rng() % 128)};
    if (rng() % 2 && map_->Passable(cell)) {
      c->set_x(cell.x);
      c->set_y(cell.y);
    } else {
      pick_cell(c);
    }
  };
  auto random_path = [&](v1::PathRequest* r) {
    r->set_map_id(ids[rng() % std::size(ids)]);
    if (rng() % 10) pick_end(r->mutable_start());
    if (rng() % 10) pick_end(r->mutable_goal());
    r->set_algorithm(static_cast<v1::Algorithm>(static_cast<int>(rng() % 11) - 1));
    r->set_diagonal(static_cast<v1::DiagonalPolicy>(static_cast<int>(rng() % 6) - 1));
    if (rng() % 3 == 0) r->set_weight(pick_real());
    if (rng() % 3 == 0) r->set_snap_radius(pick_int());
    if (rng() % 4 == 0) r->set_max_expansions(static_cast<uint64_t>(pick_int()));
    r->set_smooth(rng() % 2);
    r->set_allow_partial(rng() % 2);
  };
  const std::set<grpc::StatusCode> documented = {
      grpc::StatusCode::OK, grpc::StatusCode::INVALID_ARGUMENT,
      grpc::StatusCode::NOT_FOUND, grpc::StatusCode::FAILED_PRECONDITION,
      grpc::StatusCode::RESOURCE_EXHAUSTED};
  std::map<int, int> seen;
  int paths = 0;
  for (int i = 0; i < 1200; ++i) {
    SCOPED_TRACE(absl::StrCat("request ", i));
    grpc::ClientContext ctx;
    SetDeadline(&ctx);
    grpc::Status st;
    switch (i % 4) {
      case 0: {
        v1::PathRequest r;
        random_path(&r);
        v1::PathResponse out;
        st = stub().FindPath(&ctx, r, &out);
        if (st.ok() && r.map_id() == "dungeon") {
          const std::vector<Cell> cells = Unpack(out.cells());
          ASSERT_FALSE(cells.empty());
          const DiagonalPolicy p = r.diagonal() == 0
                                       ? DiagonalPolicy::kNoCornerCutting
                                       : kAllDiagonalPolicies[r.diagonal() - 1];
          EXPECT_NEAR(PathCost(*map_, cells, p), out.cost(), 1e-6);
          ++paths;
        }
        break;
      }
      case 1: {
        v1::FindPathsRequest r;
        r.set_map_id(ids[rng() % std::size(ids)]);
        for (int k = static_cast<int>(rng() % 4); k > 0; --k) random_path(r.add_items());
        v1::FindPathsResponse out;
        st = stub().FindPaths(&ctx, r, &out);
        if (st.ok()) {
          ASSERT_EQ(out.results_size(), r.items_size());
          for (const v1::PathItemResult& item : out.results()) {
            EXPECT_TRUE(documented.count(static_cast<grpc::StatusCode>(item.code())))
                << item.code() << " " << item.message();
            if (item.code() != 0) {
              EXPECT_FALSE(item.message().empty());
            }
          }
        }
        break;
      }
      case 2: {
        v1::GroupPathsRequest r;
        r.set_map_id(ids[rng() % std::size(ids)]);
        for (int k = static_cast<int>(rng() % 5); k > 0; --k) pick_cell(r.add_starts());
        for (int k = static_cast<int>(rng() % 3); k > 0; --k) pick_cell(r.add_goals());
        r.set_algorithm(static_cast<v1::Algorithm>(static_cast<int>(rng() % 11) - 1));
        r.set_diagonal(static_cast<v1::DiagonalPolicy>(static_cast<int>(rng() % 6) - 1));
        r.set_method(static_cast<v1::GroupMethod>(static_cast<int>(rng() % 5) - 1));
        r.set_flow_field_min_units(pick_int());
        r.set_max_splice_distance(pick_int());
        r.set_report_overhead(rng() % 2);
        v1::GroupPathsResponse out;
        st = stub().FindGroupPaths(&ctx, r, &out);
        break;
      }
      case 3: {
        v1::FlowFieldRequest r;
        r.set_map_id(ids[rng() % std::size(ids)]);
        if (rng() % 10) pick_cell(r.mutable_goal());
        r.set_diagonal(static_cast<v1::DiagonalPolicy>(static_cast<int>(rng() % 6) - 1));
        if (rng() % 2) r.set_max_cost(pick_real());
        r.set_allow_partial(rng() % 2);
        v1::FlowFieldResponse out;
        st = stub().ComputeFlowField(&ctx, r, &out);
        break;
      }
    }
    EXPECT_TRUE(documented.count(st.error_code()))
        << st.error_code() << " " << st.error_message();
    if (!st.ok()) {
      EXPECT_FALSE(st.error_message().empty());
    }
    ++seen[st.error_code()];
  }
  // The mix must reach both answers and rejections.
  EXPECT_GT(paths, 20);
  EXPECT_GT(seen[grpc::StatusCode::OK], 100);
  EXPECT_GT(seen[grpc::StatusCode::INVALID_ARGUMENT], 100);
  EXPECT_GT(seen[grpc::StatusCode::NOT_FOUND], 50);
  // Still serving, and right.
  const auto [s, g] = FarPair();
  grpc::ClientContext ctx;
  v1::PathResponse out;
  ASSERT_TRUE(stub().FindPath(&ctx, Path("dungeon", s.x, s.y, g.x, g.y), &out).ok());
  SearchContext context;
  PathQuery q;
  q.start = s;
  q.goal = g;
  EXPECT_NEAR(out.cost(), gridstar::FindPath(*map_, q, context)->cost, 1e-9);
}

TEST_F(ServerTest, NoPathIsFailedPrecondition) {
  v1::MapInfo info;
  ASSERT_TRUE(Register(stub(), "split", "type octile\nheight 1\nwidth 3\nmap\n.@.\n", &info).ok());
  grpc::ClientContext ctx;
  v1::PathResponse out;
  grpc::Status st = stub().FindPath(&ctx, Path("split", 0, 0, 2, 0), &out);
  EXPECT_EQ(st.error_code(), grpc::StatusCode::FAILED_PRECONDITION) << st.error_message();
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
  SetDeadline(&ctx, 30000);
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

TEST_F(ServerTest, DeadlineGivesDeadlineExceededOrPartial) {
  // A large open map, so that one search takes far longer than 2 ms.
  const int side = 3000;
  std::string raw(static_cast<size_t>(side) * side, '\1');
  v1::RegisterMapRequest reg;
  reg.set_id("big");
  reg.set_raw(raw);
  reg.set_width(side);
  reg.set_height(side);
  v1::MapInfo info;
  {
    grpc::ClientContext ctx;
    SetDeadline(&ctx, 30000);
    ASSERT_TRUE(stub().RegisterMap(&ctx, reg, &info).ok());
  }
  v1::PathRequest r = Path("big", 0, 0, side - 1, side - 1);
  r.set_algorithm(v1::ALGORITHM_DIJKSTRA);
  {
    grpc::ClientContext ctx;
    SetDeadline(&ctx, 20);
    v1::PathResponse out;
    EXPECT_EQ(stub().FindPath(&ctx, r, &out).error_code(),
              grpc::StatusCode::DEADLINE_EXCEEDED);
  }
  {
    // The server answers before the client's own deadline fires only if
    // the budget is enforced; give the client slack beyond the server.
    r.set_allow_partial(true);
    grpc::ClientContext ctx;
    SetDeadline(&ctx, 300);
    v1::PathResponse out;
    grpc::Status st = stub().FindPath(&ctx, r, &out);
    // Either the partial answer arrived in time or the client gave up first.
    if (st.ok()) {
      EXPECT_TRUE(out.partial());
      EXPECT_EQ(Unpack(out.cells()).front(), (Cell{0, 0}));
    } else {
      EXPECT_EQ(st.error_code(), grpc::StatusCode::DEADLINE_EXCEEDED);
    }
  }
  // Budgets reach the search: its outcome is counted as stopped by the
  // deadline (or as cancelled, when the client's own deadline won the race).
  std::string metrics;
  for (int i = 0; i < 40; ++i) {
    metrics = Scrape(server_->metrics_port());
    if (metrics.find("outcome=\"deadline\"") != std::string::npos) break;
    std::this_thread::sleep_for(std::chrono::milliseconds(100));
  }
  EXPECT_TRUE(metrics.find("outcome=\"deadline\"") != std::string::npos ||
              metrics.find("outcome=\"cancelled\"") != std::string::npos);

  // A cancelled call stops its search: CANCELLED long before the 60 s budget,
  // and the search is counted as cancelled.
  r.set_allow_partial(false);
  grpc::ClientContext ctx;
  SetDeadline(&ctx, 60000);
  v1::PathResponse out;
  std::thread canceller([&] {
    std::this_thread::sleep_for(std::chrono::milliseconds(100));
    ctx.TryCancel();
  });
  const auto begin = std::chrono::steady_clock::now();
  EXPECT_EQ(stub().FindPath(&ctx, r, &out).error_code(), grpc::StatusCode::CANCELLED);
  canceller.join();
  EXPECT_LT(std::chrono::steady_clock::now() - begin, std::chrono::seconds(20));
  for (int i = 0; i < 100; ++i) {
    metrics = Scrape(server_->metrics_port());
    if (metrics.find("outcome=\"cancelled\"") != std::string::npos) break;
    std::this_thread::sleep_for(std::chrono::milliseconds(100));
  }
  EXPECT_NE(metrics.find("outcome=\"cancelled\""), std::string::npos);
}

TEST_F(ServerTest, UpdateCellsIsVersionedAndSeenByLaterSearches) {
  const auto [s, g] = FarPair();
  grpc::ClientContext ctx0;
  v1::PathResponse before;
  ASSERT_TRUE(stub().FindPath(&ctx0, Path("dungeon", s.x, s.y, g.x, g.y), &before).ok());
  const std::vector<Cell> cells = Unpack(before.cells());
  const Cell middle = cells[cells.size() / 2];
  v1::UpdateCellsRequest u;
  u.set_id("dungeon");
  v1::CellUpdate* cu = u.add_cells();
  cu->mutable_cell()->set_x(middle.x);
  cu->mutable_cell()->set_y(middle.y);
  cu->set_cost(0);
  u.set_expected_version(1);
  v1::MapInfo info;
  {
    grpc::ClientContext ctx;
    ASSERT_TRUE(stub().UpdateCells(&ctx, u, &info).ok());
    EXPECT_EQ(info.version(), 2u);
  }
  {
    grpc::ClientContext ctx;
    grpc::Status st = stub().UpdateCells(&ctx, u, &info);
    EXPECT_EQ(st.error_code(), grpc::StatusCode::FAILED_PRECONDITION);
    EXPECT_NE(st.error_message().find("expected_version"), std::string::npos);
  }
  {
    v1::UpdateCellsRequest bad;
    bad.set_id("dungeon");
    v1::RectUpdate* rect = bad.add_rects();
    rect->mutable_rect()->mutable_min()->set_x(0);
    rect->mutable_rect()->mutable_max()->set_x(100000);
    rect->mutable_rect()->mutable_max()->set_y(1);
    grpc::ClientContext ctx;
    grpc::Status st = stub().UpdateCells(&ctx, bad, &info);
    EXPECT_EQ(st.error_code(), grpc::StatusCode::INVALID_ARGUMENT);
    EXPECT_NE(st.error_message().find("rects[0]"), std::string::npos) << st.error_message();
  }
  grpc::ClientContext ctx1;
  v1::PathResponse after;
  grpc::Status st = stub().FindPath(&ctx1, Path("dungeon", s.x, s.y, g.x, g.y), &after);
  if (st.ok()) {
    EXPECT_EQ(after.map_version(), 2u);
    for (const Cell& c : Unpack(after.cells())) EXPECT_NE(c, middle);
  } else {
    EXPECT_EQ(st.error_code(), grpc::StatusCode::FAILED_PRECONDITION);
  }
}

// jps+ needs uniform costs: an update that keeps them rebuilds the table;
// one that breaks them drops it, and auto falls back to A*. Every answer is
// the library's on the updated map.
TEST_F(ServerTest, JumpTableFollowsUpdates) {
  const auto [s, g] = FarPair();
  GridMap local = *map_;
  auto search = [&](v1::Algorithm want_algorithm) {
    grpc::ClientContext ctx;
    SetDeadline(&ctx);
    v1::PathResponse out;
    ASSERT_TRUE(stub().FindPath(&ctx, Path("dungeon", s.x, s.y, g.x, g.y), &out).ok());
    EXPECT_EQ(out.algorithm(), want_algorithm);
    SearchContext context;
    PathQuery q;
    q.start = s;
    q.goal = g;
    absl::StatusOr<PathResult> want = gridstar::FindPath(local, q, context);
    ASSERT_TRUE(want.ok());
    EXPECT_NEAR(out.cost(), want->cost, 1e-9);
    EXPECT_NEAR(PathCost(local, Unpack(out.cells()), q.movement.diagonal), out.cost(), 1e-6);
  };
  search(v1::ALGORITHM_JPS_PLUS);
  std::vector<uint8_t> costs = local.CopyCosts();
  auto update = [&](Cell c, uint8_t cost) {
    v1::UpdateCellsRequest u;
    u.set_id("dungeon");
    v1::CellUpdate* cu = u.add_cells();
    cu->mutable_cell()->set_x(c.x);
    cu->mutable_cell()->set_y(c.y);
    cu->set_cost(cost);
    grpc::ClientContext ctx;
    v1::MapInfo info;
    EXPECT_TRUE(stub().UpdateCells(&ctx, u, &info).ok());
    costs[static_cast<size_t>(c.y) * local.width() + c.x] = cost;
    local = *GridMap::FromCosts(local.width(), local.height(), costs);
    return info;
  };
  // Block a cell on the current path: still uniform, the table is rebuilt.
  grpc::ClientContext ctx0;
  v1::PathResponse before;
  ASSERT_TRUE(stub().FindPath(&ctx0, Path("dungeon", s.x, s.y, g.x, g.y), &before).ok());
  const std::vector<Cell> cells = Unpack(before.cells());
  v1::MapInfo info = update(cells[cells.size() / 3], 0);
  EXPECT_TRUE(info.jump_table());
  EXPECT_EQ(info.jump_table_bytes(), map_->JumpTableBytes());
  ASSERT_TRUE(local.BuildJumpTable().ok());
  search(v1::ALGORITHM_JPS_PLUS);
  // A cell of cost 5: no longer uniform, no table, A* answers.
  info = update(cells[2 * cells.size() / 3], 5);
  EXPECT_TRUE(info.jump_table());
  EXPECT_EQ(info.jump_table_bytes(), 0u);
  search(v1::ALGORITHM_ASTAR);
}

TEST_F(ServerTest, PathsStayValidOnTheirVersionWhileUpdatesRun) {
  const auto [s, g] = FarPair();
  // The test applies the same changes locally, so it knows every version.
  std::map<uint64_t, GridMap> versions;
  versions.emplace(1, *map_);
  std::vector<uint8_t> costs = map_->CopyCosts();
  std::mutex mu;
  std::vector<std::pair<uint64_t, std::vector<Cell>>> answers;
  std::atomic<bool> done{false};
  std::vector<std::thread> clients;
  for (int t = 0; t < 4; ++t) {
    clients.emplace_back([&, s = s, g = g] {
      while (!done.load()) {
        grpc::ClientContext ctx;
        SetDeadline(&ctx);
        v1::PathResponse out;
        grpc::Status st = stub().FindPath(&ctx, Path("dungeon", s.x, s.y, g.x, g.y), &out);
        if (!st.ok()) {
          // A closed corridor may cut the goal off, never anything else.
          EXPECT_EQ(st.error_code(), grpc::StatusCode::FAILED_PRECONDITION)
              << st.error_message();
          continue;
        }
        std::lock_guard<std::mutex> lock(mu);
        answers.emplace_back(out.map_version(), Unpack(out.cells()));
      }
    });
  }
  std::mt19937 rng(11);
  for (int round = 0; round < 30; ++round) {
    v1::UpdateCellsRequest u;
    u.set_id("dungeon");
    for (int k = 0; k < 40; ++k) {
      const Cell c{static_cast<int32_t>(rng() % map_->width()),
                   static_cast<int32_t>(rng() % map_->height())};
      if (c == s || c == g) continue;
      const uint32_t cost = rng() % 3 == 0 ? 0 : 1 + rng() % 4;
      v1::CellUpdate* cu = u.add_cells();
      cu->mutable_cell()->set_x(c.x);
      cu->mutable_cell()->set_y(c.y);
      cu->set_cost(cost);
      costs[static_cast<size_t>(c.y) * map_->width() + c.x] = static_cast<uint8_t>(cost);
    }
    grpc::ClientContext ctx;
    SetDeadline(&ctx);
    v1::MapInfo info;
    ASSERT_TRUE(stub().UpdateCells(&ctx, u, &info).ok());
    absl::StatusOr<GridMap> next = GridMap::FromCosts(map_->width(), map_->height(), costs);
    ASSERT_TRUE(next.ok());
    EXPECT_EQ(info.passable_cells(), next->passable_count());
    versions.emplace(info.version(), *std::move(next));
    std::this_thread::sleep_for(std::chrono::milliseconds(5));
  }
  done.store(true);
  for (std::thread& t : clients) t.join();
  ASSERT_GT(answers.size(), 30u);
  std::set<uint64_t> seen;
  for (const auto& [version, cells] : answers) {
    ASSERT_TRUE(versions.count(version)) << version;
    seen.insert(version);
    EXPECT_EQ(cells.front(), s);
    EXPECT_EQ(cells.back(), g);
    EXPECT_GE(PathCost(versions.at(version), cells, DiagonalPolicy::kNoCornerCutting), 0)
        << "path illegal on version " << version;
  }
  EXPECT_GT(seen.size(), 3u);
}

TEST_F(ServerTest, MetricsScrapeHasTheFamilies) {
  const auto [s, g] = FarPair();
  grpc::ClientContext ctx;
  v1::PathResponse out;
  ASSERT_TRUE(stub().FindPath(&ctx, Path("dungeon", s.x, s.y, g.x, g.y), &out).ok());
  std::this_thread::sleep_for(std::chrono::milliseconds(700));
  const std::string m = Scrape(server_->metrics_port());
  for (const char* family :
       {"gridstar_request_duration_seconds_bucket", "gridstar_requests_total",
        "gridstar_queue_wait_seconds", "gridstar_search_duration_seconds",
        "gridstar_search_expansions", "gridstar_maps 1", "gridstar_map_cells",
        "gridstar_queue_depth", "gridstar_busy_workers",
        "gridstar_map_memory_bytes", "gridstar_search_context_memory_bytes",
        "gridstar_flow_field_cache_bytes", "gridstar_queue_capacity 4096",
        "gridstar_flow_field_cache_lookups_total", "method=\"FindPath\""}) {
    EXPECT_NE(m.find(family), std::string::npos) << family;
  }
}

grpc::Status Field(v1::Pathfinding::Stub& stub, const std::string& map, Cell goal,
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
  std::this_thread::sleep_for(std::chrono::milliseconds(700));
  const std::string m = Scrape(server_->metrics_port());
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

TEST(ServerLimitsTest, FlowFieldOverTheMessageLimitIsResourceExhausted) {
  ServerProcess server({"--max_message_bytes=40000"});
  ASSERT_TRUE(server.started());
  v1::MapInfo info;
  ASSERT_TRUE(Register(server.stub(), "dungeon", ReadSample("dungeon.map"), &info).ok());
  const GridMap map = *ParseMovingAiMap(ReadSample("dungeon.map"));
  v1::FlowFieldResponse out;
  const grpc::Status st =
      Field(server.stub(), "dungeon", testing::FarConnectedPair(map).second, &out);
  EXPECT_EQ(st.error_code(), grpc::StatusCode::RESOURCE_EXHAUSTED);
  EXPECT_NE(st.error_message().find("--max_message_bytes"), std::string::npos);
}

// Derived data is opt-in and bounded per map: a registration asking for more
// jump table and landmark memory than --max_derived_bytes is refused.
TEST(ServerLimitsTest, DerivedDataOverTheLimitIsResourceExhausted) {
  // The sample dungeon pads to 130 x 130 = 16,900 cells: a jump table is
  // 270,400 bytes, a landmark 135,200.
  ServerProcess server({"--max_derived_bytes=300000"});
  ASSERT_TRUE(server.started());
  const std::string dungeon = ReadSample("dungeon.map");
  v1::MapInfo info;
  ASSERT_TRUE(Register(server.stub(), "table", dungeon, &info, false, true).ok());
  EXPECT_EQ(info.jump_table_bytes(), 270400u);
  v1::RegisterMapRequest r;
  r.set_id("both");
  r.set_movingai(dungeon);
  r.set_jump_table(true);
  r.set_landmarks(1);
  grpc::ClientContext ctx;
  grpc::Status st = server.stub().RegisterMap(&ctx, r, &info);
  EXPECT_EQ(st.error_code(), grpc::StatusCode::RESOURCE_EXHAUSTED);
  EXPECT_NE(st.error_message().find("--max_derived_bytes"), std::string::npos)
      << st.error_message();
  EXPECT_NE(st.error_message().find("landmarks"), std::string::npos);
  r.set_jump_table(false);
  r.set_landmarks(2);  // 270,400 bytes: within the limit.
  grpc::ClientContext ctx2;
  ASSERT_TRUE(server.stub().RegisterMap(&ctx2, r, &info).ok());
  EXPECT_EQ(info.landmark_bytes(), 270400u);
}

// Landmarks asked for at registration serve auto on terrain; an update that
// only raises costs keeps them, one that lowers a cost rebuilds them.
TEST_F(ServerTest, LandmarksServeTerrainAndFollowUpdates) {
  v1::RegisterMapRequest r;
  r.set_id("terrain");
  r.set_pgm(ReadSample("terrain.pgm"));
  r.set_landmarks(4);
  v1::MapInfo info;
  {
    grpc::ClientContext ctx;
    ASSERT_TRUE(stub().RegisterMap(&ctx, r, &info).ok());
  }
  EXPECT_EQ(info.landmarks(), 4);
  EXPECT_GT(info.landmark_bytes(), 0u);
  EXPECT_GT(info.landmark_build_micros(), 0);
  const GridMap terrain = *ParsePgm(ReadSample("terrain.pgm"));
  const auto [s, g] = testing::FarConnectedPair(terrain);
  auto search = [&](const GridMap& local) {
    grpc::ClientContext ctx;
    v1::PathResponse out;
    ASSERT_TRUE(stub().FindPath(&ctx, Path("terrain", s.x, s.y, g.x, g.y), &out).ok());
    EXPECT_EQ(out.algorithm(), v1::ALGORITHM_ALT);
    SearchContext context;
    PathQuery q;
    q.start = s;
    q.goal = g;
    EXPECT_NEAR(out.cost(), gridstar::FindPath(local, q, context)->cost, 1e-9);
  };
  search(terrain);
  std::vector<uint8_t> costs = terrain.CopyCosts();
  // Sets the passable cells of a square to `cost` (blocked ones stay so).
  auto update = [&](uint8_t cost) {
    v1::UpdateCellsRequest u;
    u.set_id("terrain");
    for (int y = 40; y < 60; ++y) {
      for (int x = 40; x < 60; ++x) {
        uint8_t& c = costs[static_cast<size_t>(y) * terrain.width() + x];
        if (c == 0) continue;
        c = cost;
        v1::CellUpdate* cu = u.add_cells();
        cu->mutable_cell()->set_x(x);
        cu->mutable_cell()->set_y(y);
        cu->set_cost(cost);
      }
    }
    grpc::ClientContext ctx;
    v1::MapInfo after;
    EXPECT_TRUE(stub().UpdateCells(&ctx, u, &after).ok());
    return after;
  };
  // Raised to the dearest cost: kept, nothing built.
  v1::MapInfo after = update(255);
  EXPECT_EQ(after.landmark_bytes(), info.landmark_bytes());
  EXPECT_EQ(after.landmark_build_micros(), 0);
  search(*GridMap::FromCosts(terrain.width(), terrain.height(), costs));
  // Lowered to 1: rebuilt.
  after = update(1);
  EXPECT_GT(after.landmark_build_micros(), 0);
  search(*GridMap::FromCosts(terrain.width(), terrain.height(), costs));
  r.set_landmarks(33);
  r.set_id("more");
  grpc::ClientContext ctx;
  grpc::Status st = stub().RegisterMap(&ctx, r, &info);
  EXPECT_EQ(st.error_code(), grpc::StatusCode::INVALID_ARGUMENT);
  EXPECT_NE(st.error_message().find("landmarks: 33"), std::string::npos);
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
  std::this_thread::sleep_for(std::chrono::milliseconds(700));
  const std::string m = Scrape(server_->metrics_port());
  EXPECT_NE(m.find("gridstar_flow_field_cache_lookups_total{result=\"hit\"} 1"),
            std::string::npos);
  EXPECT_NE(m.find("gridstar_flow_field_cache_lookups_total{result=\"miss\"} 1"),
            std::string::npos);
}

// Runs a command, returns its stdout's last line and sets *code to its exit
// status.
std::string LastLine(const std::string& command, int* code) {
  FILE* p = popen(command.c_str(), "r");
  std::string out, line;
  char buf[4096];
  while (fgets(buf, sizeof(buf), p) != nullptr) out += buf;
  const int status = pclose(p);
  *code = WIFEXITED(status) ? WEXITSTATUS(status) : -1;
  std::istringstream in(out);
  while (std::getline(in, out)) {
    if (!out.empty()) line = out;
  }
  return line;
}

TEST(ClientCliTest, ScenAndLoadThroughTheRealServer) {
  ServerProcess server({absl::StrCat("--preload=dungeon=", GRIDSTAR_SOURCE_DIR,
                                     "/data/sample/dungeon.map")});
  ASSERT_TRUE(server.started());
  const std::string cli = absl::StrCat(GRIDSTAR_CLI_BINARY, " --server=127.0.0.1:",
                                       server.port());
  const std::string scen = absl::StrCat(GRIDSTAR_SOURCE_DIR, "/data/sample/dungeon.map.scen");
  int code = 0;
  EXPECT_EQ(LastLine(cli + " health", &code), "SERVING");
  EXPECT_EQ(code, 0);
  for (const char* batch : {"1", "16"}) {
    SCOPED_TRACE(batch);
    const std::string line = LastLine(
        absl::StrCat(cli, " scen --map dungeon --concurrency 2 --batch ", batch, " ", scen),
        &code);
    EXPECT_EQ(code, 0) << line;
    EXPECT_EQ(line.rfind("queries=200 mismatches=0 errors=0 qps=", 0), 0u) << line;
  }
  const std::string line = LastLine(
      absl::StrCat(cli, " load --map dungeon --concurrency 2 --duration 1s --batch 4 ", scen),
      &code);
  EXPECT_EQ(code, 0) << line;
  EXPECT_EQ(line.rfind("requests=", 0), 0u) << line;
  EXPECT_NE(line.find(" errors=0 "), std::string::npos) << line;
  EXPECT_NE(line.find(" p999_us="), std::string::npos) << line;
  // The same through FindPathsStream, 8 requests in flight per thread; every
  // answer is matched by id and its length checked against the scenario.
  const std::string streamed = LastLine(
      absl::StrCat(cli, " load --stream --map dungeon --concurrency 2 --duration 1s --batch 8 ",
                   scen),
      &code);
  EXPECT_EQ(code, 0) << streamed;
  uint64_t requests = 0;
  ASSERT_EQ(std::sscanf(streamed.c_str(), "requests=%lu ", &requests), 1) << streamed;
  EXPECT_GT(requests, 100u) << streamed;
  EXPECT_NE(streamed.find(" errors=0 "), std::string::npos) << streamed;
  // A paced stream never sends more than --rps requests a second (fewer
  // when the server is slower, as under the sanitizers: no lower bound).
  const std::string paced = LastLine(
      absl::StrCat(cli, " load --stream --map dungeon --concurrency 2 --duration 1s --rps 200 ",
                   scen),
      &code);
  EXPECT_EQ(code, 0) << paced;
  ASSERT_EQ(std::sscanf(paced.c_str(), "requests=%lu ", &requests), 1) << paced;
  EXPECT_GT(requests, 0u) << paced;
  EXPECT_LE(requests, 210u) << paced;
  const std::string group = LastLine(
      absl::StrCat(cli, " group dungeon ", 100, " ", 20, " 10 10 11 10 12 11"), &code);
  EXPECT_EQ(group.rfind("units=3 searches=", 0), 0u) << group;
  const std::string compared = LastLine(
      absl::StrCat(cli, " group --compare dungeon ", 100, " ", 20, " 10 10 11 10 12 11"),
      &code);
  EXPECT_EQ(code, 0) << compared;
  EXPECT_EQ(compared.rfind("group_wall_us=", 0), 0u) << compared;
  EXPECT_NE(compared.find(" independent_wall_us="), std::string::npos) << compared;
  const std::string flow = LastLine(absl::StrCat(cli, " flow dungeon 100 20"), &code);
  EXPECT_EQ(code, 0) << flow;
  EXPECT_EQ(flow.rfind("size=128x128 reached=", 0), 0u) << flow;
  EXPECT_NE(flow.find(" complete=1 cached=0 "), std::string::npos) << flow;
  const std::string update = LastLine(cli + " update dungeon 0 0 0 1 0 0", &code);
  EXPECT_EQ(update.rfind("dungeon version=2 ", 0), 0u) << update;
  // Errors exit non-zero with the server's message.
  LastLine(cli + " path nosuchmap 0 0 1 1 2>/dev/null", &code);
  EXPECT_EQ(code, 1);
}

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
  ServerProcess server({"--shutdown_grace=120s"});
  ASSERT_TRUE(server.started());
  const std::string dungeon = ReadSample("dungeon.map");
  v1::MapInfo info;
  ASSERT_TRUE(Register(server.stub(), "dungeon", dungeon, &info).ok());
  absl::StatusOr<GridMap> map = ParseMovingAiMap(dungeon);
  ASSERT_TRUE(map.ok());
  const auto [s, g] = testing::FarConnectedPair(*map);
  // Calls in flight when the signal arrives still get their answers.
  std::vector<std::thread> clients;
  std::atomic<int> ok{0};
  std::atomic<int> connected{0};
  for (int i = 0; i < 4; ++i) {
    clients.emplace_back([&, s = s, g = g] {
      {
        grpc::ClientContext ctx;
        v1::PathResponse out;
        server.stub().FindPath(&ctx, Path("dungeon", s.x, s.y, s.x, s.y), &out);
        connected.fetch_add(1);
      }
      v1::FindPathsRequest batch;
      batch.set_map_id("dungeon");
      for (int k = 0; k < 200; ++k) *batch.add_items() = Path("", s.x, s.y, g.x, g.y);
      grpc::ClientContext ctx;
      v1::FindPathsResponse out;
      if (server.stub().FindPaths(&ctx, batch, &out).ok()) ok.fetch_add(1);
    });
  }
  while (connected.load() < 4) std::this_thread::sleep_for(std::chrono::milliseconds(5));
  std::this_thread::sleep_for(std::chrono::milliseconds(200));
  EXPECT_EQ(server.SignalAndWait(SIGTERM), 0);
  for (std::thread& t : clients) t.join();
  EXPECT_EQ(ok.load(), 4);
}

}  // namespace
}  // namespace gridstar
