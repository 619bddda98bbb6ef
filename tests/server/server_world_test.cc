// Worlds of linked maps through the real server: registered over gRPC,
// answered exactly (against Dijkstra over the union graph of the same maps
// and links, every exact algorithm), doors opened and closed, links added,
// re-costed and removed, member maps updated under the world, batches and
// streams, every malformed request refused naming its field.
// (Limits, kill -9 and replicas: server_world_durability_test.cc.)

#include <map>
#include <random>
#include <string>
#include <vector>

#include "absl/strings/str_cat.h"
#include "gtest/gtest.h"
#include "server/world_test_util.h"

namespace gridstar {
namespace {

using namespace testing::server_suite;  // NOLINT(build/namespaces)
using namespace testing::worlds;        // NOLINT(build/namespaces)

class WorldServerTest : public ::testing::Test {
 protected:
  void SetUp() override {
    server_ = std::make_unique<InProcessServer>();
    ASSERT_TRUE(server_->started());
    maps_ = MakeMaps(11);
    for (size_t i = 0; i < maps_.ids.size(); ++i) {
      ASSERT_TRUE(RegisterRaw(stub(), maps_.ids[i], maps_.grids[i]).ok());
    }
  }
  v1::Pathfinding::Stub& stub() { return server_->stub(); }
  grpc::Status Register(const v1::RegisterWorldRequest& r,
                        v1::WorldInfo* info) {
    grpc::ClientContext ctx;
    SetDeadline(&ctx);
    return stub().RegisterWorld(&ctx, r, info);
  }
  std::unique_ptr<InProcessServer> server_;
  Maps maps_;
};

TEST_F(WorldServerTest, RandomWorldsAnswerExactlyWithAndWithoutTables) {
  for (uint32_t seed = 1; seed <= 6; ++seed) {
    SCOPED_TRACE(absl::StrCat("seed ", seed));
    v1::RegisterWorldRequest r = RandomWorld(maps_, seed);
    r.set_replace(true);
    v1::WorldInfo info;
    ASSERT_TRUE(Register(r, &info).ok());
    EXPECT_EQ(info.link_count(), 10u);
    // Before the tables are built (lazily searched) and after.
    ExpectExact(stub(), maps_, info, seed, 16);
    server_->server().worlds().WaitForTables();
    info = GetWorld(stub(), "tower");
    for (bool current : info.tables_current()) EXPECT_TRUE(current);
    EXPECT_GT(info.memory_bytes(), 0u);
    ExpectExact(stub(), maps_, info, seed + 100, 16);
  }
}

TEST_F(WorldServerTest, DoorsLinksAndMemberMapUpdatesChangeTheAnswers) {
  // Two floors joined by one door.
  v1::RegisterWorldRequest r;
  r.set_id("tower");
  for (const std::string& id : maps_.ids) r.add_map_ids(id);
  std::mt19937 rng(3);
  const Cell door_0 = Passable(maps_.grids[0], rng);
  const Cell door_1 = Passable(maps_.grids[1], rng);
  *r.add_links() =
      MakeLink("door", maps_.ids[0], door_0, maps_.ids[1], door_1, 1);
  v1::WorldInfo info;
  ASSERT_TRUE(Register(r, &info).ok());
  ASSERT_EQ(info.version(), 1u);
  // Ends that reach the door on their floors.
  std::mt19937 q(9);
  WorldCell start{0, door_0}, goal{1, door_1};
  do {
    start.cell = Passable(maps_.grids[0], q);
  } while (!maps_.grids[0].Connected(start.cell, door_0) ||
           start.cell == door_0);
  do {
    goal.cell = Passable(maps_.grids[1], q);
  } while (!maps_.grids[1].Connected(goal.cell, door_1) || goal.cell == door_1);
  v1::WorldPathResponse got;
  const double open_cost = Reference(maps_, info, start, goal);
  ASSERT_LT(open_cost, kInfinity);
  ASSERT_TRUE(FindWorld(stub(), Query(maps_, start, goal), &got).ok());
  EXPECT_NEAR(got.cost(), open_cost, 1e-9);
  ASSERT_EQ(got.link_ids_size(), 1);
  EXPECT_EQ(got.link_ids(0), "door");
  // Closed: no path, decided by the component graph.
  v1::UpdateLinksRequest u;
  u.set_id("tower");
  v1::LinkUpdate* edit = u.add_updates();
  edit->set_link_id("door");
  edit->set_state(v1::LinkUpdate::STATE_CLOSED);
  ASSERT_TRUE(UpdateLinks(stub(), u, &info).ok());
  EXPECT_EQ(info.version(), 2u);
  EXPECT_EQ(info.open_links(), 0u);
  grpc::Status s = FindWorld(stub(), Query(maps_, start, goal), &got);
  EXPECT_EQ(s.error_code(), grpc::StatusCode::FAILED_PRECONDITION);
  EXPECT_NE(s.error_message().find("no path"), std::string::npos);
  EXPECT_NE(s.error_message().find("version 2"), std::string::npos);
  // A portal added, re-costed, then removed.
  u.clear_updates();
  edit = u.add_updates();
  edit->set_link_id("portal");
  *edit->mutable_add() =
      MakeLink("portal", maps_.ids[0], start.cell, maps_.ids[1], goal.cell, 7);
  ASSERT_TRUE(UpdateLinks(stub(), u, &info).ok());
  ASSERT_TRUE(FindWorld(stub(), Query(maps_, start, goal), &got).ok());
  EXPECT_DOUBLE_EQ(got.cost(), 7);
  ASSERT_EQ(got.link_ids_size(), 1);
  EXPECT_EQ(got.link_ids(0), "portal");
  u.clear_updates();
  edit = u.add_updates();
  edit->set_link_id("portal");
  edit->set_cost(2.5);
  u.set_expected_version(info.version());
  ASSERT_TRUE(UpdateLinks(stub(), u, &info).ok());
  ASSERT_TRUE(FindWorld(stub(), Query(maps_, start, goal), &got).ok());
  EXPECT_DOUBLE_EQ(got.cost(), 2.5);
  // A stale expected_version is refused, and nothing changes.
  u.set_expected_version(1);
  EXPECT_EQ(UpdateLinks(stub(), u, &info).error_code(),
            grpc::StatusCode::ABORTED);
  EXPECT_EQ(GetWorld(stub(), "tower").version(), 4u);
  // The member map changes under the world: the portal's end blocked.
  v1::UpdateCellsRequest cells;
  cells.set_id(maps_.ids[1]);
  v1::CellUpdate* c = cells.add_cells();
  c->mutable_cell()->set_x(goal.cell.x);
  c->mutable_cell()->set_y(goal.cell.y);
  c->set_cost(0);
  {
    grpc::ClientContext ctx;
    SetDeadline(&ctx);
    v1::MapInfo mi;
    ASSERT_TRUE(stub().UpdateCells(&ctx, cells, &mi).ok());
  }
  s = FindWorld(stub(), Query(maps_, start, goal), &got);
  EXPECT_EQ(s.error_code(), grpc::StatusCode::INVALID_ARGUMENT);
  EXPECT_NE(s.error_message().find("goal.cell"), std::string::npos)
      << s.error_message();
}

struct BadRequest {
  std::string name;
  std::function<void(v1::RegisterWorldRequest*)> change;
  grpc::StatusCode code;
  std::string message;
};

TEST_F(WorldServerTest, MalformedWorldsAreRefusedNamingTheField) {
  const std::vector<BadRequest> cases = {
      {"bad id", [](auto* r) { r->set_id("no spaces"); },
       grpc::StatusCode::INVALID_ARGUMENT, "id: only"},
      {"no maps",
       [](auto* r) {
         r->clear_map_ids();
         r->clear_links();
       },
       grpc::StatusCode::INVALID_ARGUMENT, "map_ids: a world needs a map"},
      {"unknown map", [](auto* r) { r->add_map_ids("attic"); },
       grpc::StatusCode::NOT_FOUND, "map_ids[3]: no map 'attic'"},
      {"map twice", [](auto* r) { r->add_map_ids("floor0"); },
       grpc::StatusCode::INVALID_ARGUMENT,
       "map_ids[3]: 'floor0' is named twice"},
      {"link to a map outside the world",
       [](auto* r) { r->mutable_links(0)->mutable_to()->set_map_id("attic"); },
       grpc::StatusCode::INVALID_ARGUMENT, "links[0].to.map_id: 'attic'"},
      {"link end off the map",
       [](auto* r) {
         r->mutable_links(1)->mutable_from()->mutable_cell()->set_x(500);
       },
       grpc::StatusCode::INVALID_ARGUMENT, "links[1].from.cell: (500,"},
      {"negative cost", [](auto* r) { r->mutable_links(2)->set_cost(-1); },
       grpc::StatusCode::INVALID_ARGUMENT, "links[2].cost: -1"},
      {"infinite cost",
       [](auto* r) {
         r->mutable_links(2)->set_cost(std::numeric_limits<double>::infinity());
       },
       grpc::StatusCode::INVALID_ARGUMENT, "links[2].cost: inf"},
      {"agent size",
       [](auto* r) { r->mutable_links(3)->set_max_agent_size(9); },
       grpc::StatusCode::INVALID_ARGUMENT, "links[3].max_agent_size: 9"},
      {"duplicate link id", [](auto* r) { r->mutable_links(4)->set_id("l0"); },
       grpc::StatusCode::INVALID_ARGUMENT, "links[4].id: 'l0' is taken"},
      {"missing end", [](auto* r) { r->mutable_links(5)->clear_to(); },
       grpc::StatusCode::INVALID_ARGUMENT, "links[5].to: required"},
      {"bad link id", [](auto* r) { r->mutable_links(6)->set_id("<b>"); },
       grpc::StatusCode::INVALID_ARGUMENT, "links[6].id: only"},
  };
  for (const BadRequest& c : cases) {
    SCOPED_TRACE(c.name);
    v1::RegisterWorldRequest r = RandomWorld(maps_, 4);
    c.change(&r);
    v1::WorldInfo info;
    const grpc::Status s = Register(r, &info);
    EXPECT_EQ(s.error_code(), c.code) << s.error_message();
    EXPECT_NE(s.error_message().find(c.message), std::string::npos)
        << s.error_message();
  }
  // Nothing was registered; then the good one is.
  grpc::ClientContext ctx;
  v1::ListWorldsResponse list;
  ASSERT_TRUE(stub().ListWorlds(&ctx, v1::ListWorldsRequest(), &list).ok());
  EXPECT_EQ(list.worlds_size(), 0);
  v1::WorldInfo info;
  ASSERT_TRUE(Register(RandomWorld(maps_, 4), &info).ok());
  // The same content again is a no-op; other content needs replace.
  ASSERT_TRUE(Register(RandomWorld(maps_, 4), &info).ok());
  EXPECT_EQ(info.version(), 1u);
  EXPECT_EQ(Register(RandomWorld(maps_, 5), &info).error_code(),
            grpc::StatusCode::ALREADY_EXISTS);
}

TEST_F(WorldServerTest, MalformedQueriesAndEditsAreRefusedNamingTheField) {
  v1::WorldInfo info;
  ASSERT_TRUE(Register(RandomWorld(maps_, 4), &info).ok());
  v1::WorldPathResponse got;
  v1::WorldPathRequest q = Query(maps_, {0, {0, 0}}, {1, {0, 0}});
  q.set_world_id("nowhere");
  grpc::Status s = FindWorld(stub(), q, &got);
  EXPECT_EQ(s.error_code(), grpc::StatusCode::NOT_FOUND);
  EXPECT_NE(s.error_message().find("world_id: no world 'nowhere'"),
            std::string::npos);
  q = Query(maps_, {0, {0, 0}}, {1, {0, 0}});
  q.mutable_goal()->set_map_id("attic");
  s = FindWorld(stub(), q, &got);
  EXPECT_EQ(s.error_code(), grpc::StatusCode::INVALID_ARGUMENT);
  EXPECT_NE(
      s.error_message().find("goal.map_id: 'attic' is not a map of world"),
      std::string::npos)
      << s.error_message();
  q = Query(maps_, {0, {0, 0}}, {1, {0, 0}});
  q.mutable_start()->mutable_cell()->set_x(-3);
  s = FindWorld(stub(), q, &got);
  EXPECT_EQ(s.error_code(), grpc::StatusCode::INVALID_ARGUMENT);
  EXPECT_NE(s.error_message().find("start.cell: (-3, 0) is outside"),
            std::string::npos)
      << s.error_message();
  q = Query(maps_, {0, {0, 0}}, {1, {0, 0}});
  q.set_agent_size(12);
  s = FindWorld(stub(), q, &got);
  EXPECT_EQ(s.error_code(), grpc::StatusCode::INVALID_ARGUMENT);
  v1::UpdateLinksRequest u;
  u.set_id("tower");
  u.add_updates()->set_link_id("l0");
  s = UpdateLinks(stub(), u, &info);
  EXPECT_EQ(s.error_code(), grpc::StatusCode::INVALID_ARGUMENT);
  EXPECT_NE(s.error_message().find("updates[0]: asks for nothing"),
            std::string::npos);
  u.mutable_updates(0)->set_link_id("nope");
  u.mutable_updates(0)->set_state(v1::LinkUpdate::STATE_OPEN);
  s = UpdateLinks(stub(), u, &info);
  EXPECT_NE(s.error_message().find("updates[0].link_id: no link 'nope'"),
            std::string::npos);
  u.mutable_updates(0)->set_link_id("l1");
  u.mutable_updates(0)->set_cost(-2);
  s = UpdateLinks(stub(), u, &info);
  EXPECT_NE(s.error_message().find("updates[0].cost: -2"), std::string::npos);
  EXPECT_EQ(GetWorld(stub(), "tower").version(), 1u);
}

TEST_F(WorldServerTest, TracedWorldPathsCarryEachLegsExpandedCells) {
  v1::WorldInfo info;
  ASSERT_TRUE(Register(RandomWorld(maps_, 5), &info).ok());
  std::mt19937 rng(17);
  int traced = 0;
  for (int i = 0; i < 12; ++i) {
    const WorldCell start{0, Passable(maps_.grids[0], rng)};
    const WorldCell goal{2, Passable(maps_.grids[2], rng)};
    v1::WorldPathRequest r = Query(maps_, start, goal, v1::ALGORITHM_ASTAR);
    r.set_trace(true);
    v1::WorldPathResponse got;
    const grpc::Status s = FindWorld(stub(), r, &got);
    if (s.error_code() == grpc::StatusCode::FAILED_PRECONDITION) continue;
    ASSERT_TRUE(s.ok()) << s.error_message();
    EXPECT_GE(got.queue_micros(), 0);
    EXPECT_GT(got.searches(), 0u);
    for (const v1::WorldLeg& leg : got.legs()) {
      const std::vector<Cell> cells = Unpack(leg.cells());
      if (cells.size() < 2) continue;  // Two links met: nothing searched.
      // A* expands every cell of its path but the goal.
      const std::vector<Cell> trace = Unpack(leg.trace());
      EXPECT_GE(trace.size(), cells.size() - 1);
      ++traced;
    }
  }
  EXPECT_GT(traced, 0);
}

TEST_F(WorldServerTest, BatchesAnswerEachItemWithItsOwnStatus) {
  v1::WorldInfo info;
  ASSERT_TRUE(Register(RandomWorld(maps_, 2), &info).ok());
  v1::FindWorldPathsRequest batch;
  batch.set_world_id("tower");
  std::mt19937 rng(5);
  std::vector<std::pair<WorldCell, WorldCell>> ends;
  for (int i = 0; i < 12; ++i) {
    const int a = static_cast<int>(rng() % 3), b = static_cast<int>(rng() % 3);
    ends.push_back({{a, Passable(maps_.grids[a], rng)},
                    {b, Passable(maps_.grids[b], rng)}});
    *batch.add_items() = Query(maps_, ends.back().first, ends.back().second);
  }
  batch.mutable_items(3)->mutable_goal()->set_map_id("attic");
  grpc::ClientContext ctx;
  SetDeadline(&ctx);
  v1::FindWorldPathsResponse out;
  ASSERT_TRUE(stub().FindWorldPaths(&ctx, batch, &out).ok());
  ASSERT_EQ(out.results_size(), 12);
  for (int i = 0; i < 12; ++i) {
    SCOPED_TRACE(i);
    if (i == 3) {
      EXPECT_EQ(out.results(i).code(), grpc::StatusCode::INVALID_ARGUMENT);
      EXPECT_NE(out.results(i).message().find("items[3].goal.map_id"),
                std::string::npos);
      continue;
    }
    const double expected =
        Reference(maps_, info, ends[i].first, ends[i].second);
    if (expected == kInfinity) {
      EXPECT_EQ(out.results(i).code(), grpc::StatusCode::FAILED_PRECONDITION);
    } else {
      EXPECT_EQ(out.results(i).code(), 0) << out.results(i).message();
      EXPECT_NEAR(out.results(i).path().cost(), expected,
                  1e-9 * (1 + expected));
    }
  }
}

// An agent of size 2 or 3: its paths on each floor as its class sees it,
// links it does not fit refused; every answer the reference's on the
// agent maps.
TEST_F(WorldServerTest, LargeAgentsGetExactWorldPathsOfTheirOwn) {
  v1::RegisterWorldRequest r = RandomWorld(maps_, 9);
  r.mutable_links(0)->set_max_agent_size(2);
  r.mutable_links(1)->set_max_agent_size(1);
  v1::WorldInfo info;
  ASSERT_TRUE(Register(r, &info).ok());
  server_->server().worlds().WaitForTables();
  std::mt19937 rng(12);
  int answered = 0;
  for (int size : {2, 3}) {
    AgentClass agent;
    agent.size = size;
    std::vector<GridMap> seen;  // The floors as the agent sees them.
    for (const GridMap& g : maps_.grids)
      seen.push_back(*BuildAgentMap(g, {}, agent));
    for (int i = 0; i < 24; ++i) {
      SCOPED_TRACE(absl::StrCat("size ", size, " query ", i));
      const int a = static_cast<int>(rng() % 3),
                b = static_cast<int>(rng() % 3);
      // Ends it can stand on, but one query in eight from a cell it cannot.
      const WorldCell start{
          a, Passable(i % 8 == 0 ? maps_.grids[a] : seen[a], rng)};
      const WorldCell goal{b, Passable(seen[b], rng)};
      const double expected = Reference(maps_, info, start, goal, agent);
      v1::WorldPathRequest q = Query(maps_, start, goal);
      q.set_agent_size(size);
      v1::WorldPathResponse got;
      const grpc::Status s = FindWorld(stub(), q, &got);
      if (expected < 0) {
        EXPECT_EQ(s.error_code(), grpc::StatusCode::INVALID_ARGUMENT)
            << s.error_message();
        EXPECT_NE(s.error_message().find("for this agent"), std::string::npos);
      } else if (expected == kInfinity) {
        EXPECT_EQ(s.error_code(), grpc::StatusCode::FAILED_PRECONDITION)
            << s.error_message();
      } else {
        ASSERT_TRUE(s.ok()) << s.error_message();
        EXPECT_NEAR(got.cost(), expected, 1e-9 * (1 + expected));
        ++answered;
      }
    }
  }
  EXPECT_GT(answered, 4);
}

TEST_F(WorldServerTest, AStreamTakesWorldRequestsBesidePathRequests) {
  v1::WorldInfo info;
  ASSERT_TRUE(Register(RandomWorld(maps_, 6), &info).ok());
  grpc::ClientContext ctx;
  SetDeadline(&ctx);
  auto stream = stub().FindPathsStream(&ctx);
  std::mt19937 rng(8);
  std::map<uint64_t, std::pair<WorldCell, WorldCell>> asked;
  for (uint64_t id = 1; id <= 8; ++id) {
    v1::StreamPathRequest r;
    r.set_request_id(id);
    const int a = static_cast<int>(rng() % 3), b = static_cast<int>(rng() % 3);
    const WorldCell start{a, Passable(maps_.grids[a], rng)};
    const WorldCell goal{b, Passable(maps_.grids[b], rng)};
    *r.mutable_world_request() = Query(maps_, start, goal);
    asked[id] = {start, goal};
    ASSERT_TRUE(stream->Write(r));
  }
  // A map path and a bad world request in the same stream.
  v1::StreamPathRequest plain;
  plain.set_request_id(100);
  *plain.mutable_request() = Path("floor0", 0, 0, 0, 0);
  const Cell c = Passable(maps_.grids[0], rng);
  plain.mutable_request()->mutable_start()->set_x(c.x);
  plain.mutable_request()->mutable_start()->set_y(c.y);
  plain.mutable_request()->mutable_goal()->set_x(c.x);
  plain.mutable_request()->mutable_goal()->set_y(c.y);
  ASSERT_TRUE(stream->Write(plain));
  v1::StreamPathRequest bad;
  bad.set_request_id(101);
  *bad.mutable_world_request() = Query(maps_, {0, c}, {1, {0, 0}});
  bad.mutable_world_request()->set_world_id("nowhere");
  ASSERT_TRUE(stream->Write(bad));
  stream->WritesDone();
  v1::StreamPathResponse answer;
  int answers = 0;
  while (stream->Read(&answer)) {
    ++answers;
    SCOPED_TRACE(answer.request_id());
    if (answer.request_id() == 100) {
      EXPECT_EQ(answer.result().code(), 0) << answer.result().message();
      continue;
    }
    if (answer.request_id() == 101) {
      EXPECT_EQ(answer.world_result().code(), grpc::StatusCode::NOT_FOUND);
      EXPECT_NE(answer.world_result().message().find("world_request.world_id"),
                std::string::npos)
          << answer.world_result().message();
      continue;
    }
    const auto& [start, goal] = asked.at(answer.request_id());
    const double expected = Reference(maps_, info, start, goal);
    if (expected == kInfinity) {
      EXPECT_EQ(answer.world_result().code(),
                grpc::StatusCode::FAILED_PRECONDITION);
    } else {
      EXPECT_EQ(answer.world_result().code(), 0)
          << answer.world_result().message();
      EXPECT_NEAR(answer.world_result().path().cost(), expected,
                  1e-9 * (1 + expected));
    }
  }
  EXPECT_TRUE(stream->Finish().ok());
  EXPECT_EQ(answers, 10);
}

}  // namespace
}  // namespace gridstar
