// Seeded random edge requests to every searching RPC of the real server.
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
          const DiagonalPolicy p = *convert::PolicyFromProto(
              r.diagonal(), "diagonal", DiagonalPolicy::kNoCornerCutting);
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
  EXPECT_NEAR(out.cost(), CoreAStarCost(*map_, s, g), 1e-9);
}

}  // namespace
}  // namespace gridstar
