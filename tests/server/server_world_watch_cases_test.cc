// WatchPaths world agents through the real server, one case at a time, on
// a keep of three maps: a hall (every cell costs 3), a tunnel under it
// (cells cost 1, cut by a wall at x = 40) joined to the hall at both ends,
// and a vault behind a closed door. Each push is compared with what
// FindWorldPath answers at that moment.

#include <functional>
#include <set>
#include <string>
#include <vector>

#include "absl/strings/str_cat.h"
#include "client.h"
#include "gtest/gtest.h"
#include "server/world_watch_test_util.h"

namespace gridstar {
namespace {

using namespace testing::server_suite;  // NOLINT(build/namespaces)
using namespace testing::worlds;        // NOLINT(build/namespaces)

GridMap Filled(int w, int h, uint8_t cost) {
  return *GridMap::FromCosts(w, h, std::vector<uint8_t>(size_t(w) * h, cost));
}

class WorldWatchCaseTest : public ::testing::Test {
 protected:
  void SetUp() override {
    server_ = std::make_unique<InProcessServer>();
    ASSERT_TRUE(server_->started());
    keep_.ids = {"hall", "tunnel", "vault"};
    keep_.grids = {Filled(64, 10, 3), Filled(64, 3, 1), Filled(5, 5, 1)};
    for (size_t i = 0; i < keep_.ids.size(); ++i) {
      ASSERT_TRUE(RegisterRaw(stub(), keep_.ids[i], keep_.grids[i]).ok());
    }
    for (int y = 0; y < 3; ++y) SetCell("tunnel", {40, y}, 0);  // The wall.
    v1::RegisterWorldRequest r;
    r.set_id("tower");
    for (const std::string& id : keep_.ids) r.add_map_ids(id);
    *r.add_links() = MakeLink("down", "hall", {2, 5}, "tunnel", {2, 1}, 0);
    *r.add_links() = MakeLink("up", "tunnel", {60, 1}, "hall", {60, 5}, 0);
    v1::Link door = MakeLink("vault_door", "hall", {10, 0}, "vault", {0, 0}, 1);
    door.set_closed(true);
    *r.add_links() = door;
    grpc::ClientContext ctx;
    SetDeadline(&ctx);
    ASSERT_TRUE(stub().RegisterWorld(&ctx, r, &info_).ok());
  }
  v1::Pathfinding::Stub& stub() { return server_->stub(); }
  uint64_t SetCell(const std::string& map, Cell c, int cost) {
    return UpdateCell(stub(), map, c, cost);
  }
  v1::WorldInfo SetLink(const std::string& id, bool open) {
    v1::UpdateLinksRequest u;
    u.set_id("tower");
    v1::LinkUpdate* lu = u.add_updates();
    lu->set_link_id(id);
    lu->set_state(open ? v1::LinkUpdate::STATE_OPEN
                       : v1::LinkUpdate::STATE_CLOSED);
    v1::WorldInfo info;
    EXPECT_TRUE(UpdateLinks(stub(), u, &info).ok());
    return info;
  }
  WorldCell At(const std::string& map, Cell c) {
    return {MapIndex(keep_, map), c};
  }
  // What FindWorldPath answers now.
  v1::WorldPathResponse Now(WorldCell from, WorldCell to) {
    v1::WorldPathResponse out;
    EXPECT_TRUE(FindWorld(stub(), Query(keep_, from, to), &out).ok());
    return out;
  }
  v1::WatchEvent Read(Stream& stream) {
    v1::WatchEvent e;
    EXPECT_TRUE(stream.Next(&e));
    return e;
  }
  // The next event is the answer to a request made after every earlier
  // event was queued: nothing else was pushed meanwhile.
  void ExpectNothingPushed(Stream& stream) {
    v1::WatchRequest r;
    r.set_request_id(999);
    r.set_agent_id(999);
    r.set_action(v1::WATCH_ACTION_REMOVE);
    ASSERT_TRUE(stream.Write(r));
    const v1::WatchEvent e = Read(stream);
    EXPECT_EQ(e.request_id(), 999u) << e.DebugString();
  }
  v1::WatchRequest Move(uint64_t request_id, uint64_t agent,
                        const std::string& map, Cell c) {
    v1::WatchRequest r;
    r.set_request_id(request_id);
    r.set_agent_id(agent);
    r.set_action(v1::WATCH_ACTION_MOVE);
    *r.mutable_world_position() = Wire(keep_, At(map, c));
    return r;
  }
  std::unique_ptr<InProcessServer> server_;
  Maps keep_;
  v1::WorldInfo info_;
};

TEST_F(WorldWatchCaseTest, ACellOpenedOnAnotherMapPushesACheaperPath) {
  Stream stream(stub());
  const WorldCell from = At("hall", {0, 5}), to = At("hall", {63, 5});
  ASSERT_TRUE(stream.Write(AddWorldAgent(keep_, 1, 7, from, to, 0.01)));
  v1::WatchEvent added = Read(stream);
  ASSERT_EQ(added.code(), 0) << added.message();
  EXPECT_EQ(added.reason(), v1::WATCH_REASON_ADDED);
  ASSERT_EQ(added.world_path().legs_size(), 1);  // The hall alone.
  EXPECT_DOUBLE_EQ(added.world_path().cost(), Now(from, to).cost());
  // The tunnel's wall opens: the agent has no leg there.
  const uint64_t version = SetCell("tunnel", {40, 1}, 1);
  v1::WatchEvent pushed = Read(stream);
  ASSERT_EQ(pushed.code(), 0) << pushed.message();
  EXPECT_EQ(pushed.request_id(), 0u);
  EXPECT_EQ(pushed.reason(), v1::WATCH_REASON_CHEAPER);
  EXPECT_EQ(pushed.map_id(), "tunnel");
  EXPECT_EQ(pushed.map_version(), version);
  const v1::WorldPathResponse best = Now(from, to);
  EXPECT_DOUBLE_EQ(pushed.world_path().cost(), best.cost());
  ASSERT_EQ(pushed.world_path().link_ids_size(), 2);
  EXPECT_EQ(pushed.world_path().link_ids(0), "down");
  EXPECT_EQ(pushed.world_path().link_ids(1), "up");
  // An agent that did not ask for cheaper paths keeps its own.
  ASSERT_TRUE(stream.Write(AddWorldAgent(keep_, 2, 8, from, to)));
  ASSERT_EQ(Read(stream).code(), 0);
  // Both paths run through the wall's cell: both BLOCKED.
  SetCell("tunnel", {40, 1}, 0);
  std::set<uint64_t> blocked;
  for (int i = 0; i < 2; ++i) {
    pushed = Read(stream);
    EXPECT_EQ(pushed.reason(), v1::WATCH_REASON_BLOCKED);
    EXPECT_EQ(pushed.world_path().legs_size(), 1);
    blocked.insert(pushed.agent_id());
  }
  EXPECT_EQ(blocked, (std::set<uint64_t>{7, 8}));
  // Opened again: only the agent that asked hears of the cheaper path.
  SetCell("tunnel", {40, 1}, 1);
  pushed = Read(stream);
  EXPECT_EQ(pushed.agent_id(), 7u);
  EXPECT_EQ(pushed.reason(), v1::WATCH_REASON_CHEAPER);
  ExpectNothingPushed(stream);
}

TEST_F(WorldWatchCaseTest, ALinkClosedOnThePathPushesANewPath) {
  SetCell("tunnel", {40, 1}, 1);
  Stream stream(stub());
  const WorldCell from = At("hall", {0, 5}), to = At("hall", {63, 5});
  ASSERT_TRUE(stream.Write(AddWorldAgent(keep_, 1, 7, from, to)));
  v1::WatchEvent added = Read(stream);
  ASSERT_EQ(added.code(), 0) << added.message();
  ASSERT_EQ(added.world_path().legs_size(), 3);
  const v1::WorldInfo closed = SetLink("up", false);
  v1::WatchEvent pushed = Read(stream);
  ASSERT_EQ(pushed.code(), 0) << pushed.message();
  EXPECT_EQ(pushed.reason(), v1::WATCH_REASON_BLOCKED);
  EXPECT_EQ(pushed.map_id(), "");
  EXPECT_EQ(pushed.world_version(), closed.version());
  EXPECT_EQ(pushed.world_path().world_version(), closed.version());
  for (const std::string& link : pushed.world_path().link_ids()) {
    EXPECT_NE(link, "up");
  }
  EXPECT_DOUBLE_EQ(pushed.world_path().cost(), Now(from, to).cost());
  // Opened again: this agent did not ask for cheaper paths.
  SetLink("up", true);
  ExpectNothingPushed(stream);
}

TEST_F(WorldWatchCaseTest, ACellBlockedOnALaterLegPushesANewPath) {
  SetCell("tunnel", {40, 1}, 1);
  Stream stream(stub());
  const WorldCell from = At("hall", {0, 5}), to = At("hall", {63, 5});
  ASSERT_TRUE(stream.Write(AddWorldAgent(keep_, 1, 7, from, to)));
  ASSERT_EQ(Read(stream).world_path().legs_size(), 3);
  // Off the path, on the hall: nothing.
  SetCell("hall", {30, 9}, 0);
  ExpectNothingPushed(stream);
  const uint64_t version = SetCell("tunnel", {30, 1}, 0);
  v1::WatchEvent pushed = Read(stream);
  ASSERT_EQ(pushed.code(), 0) << pushed.message();
  EXPECT_EQ(pushed.reason(), v1::WATCH_REASON_BLOCKED);
  EXPECT_EQ(pushed.map_id(), "tunnel");
  EXPECT_EQ(pushed.map_version(), version);
  EXPECT_DOUBLE_EQ(pushed.world_path().cost(), Now(from, to).cost());
}

TEST_F(WorldWatchCaseTest, MovesAnswerTheLegAndIndexAndOffThePathReplan) {
  SetCell("tunnel", {40, 1}, 1);
  Stream stream(stub());
  ASSERT_TRUE(stream.Write(
      AddWorldAgent(keep_, 1, 7, At("hall", {0, 5}), At("hall", {63, 5}))));
  const v1::WorldPathResponse path = Read(stream).world_path();
  ASSERT_EQ(path.legs_size(), 3);
  const std::vector<Cell> leg0 = Unpack(path.legs(0).cells());
  const std::vector<Cell> leg1 = Unpack(path.legs(1).cells());
  ASSERT_TRUE(stream.Write(Move(2, 7, "hall", leg0[1])));
  v1::WatchEvent moved = Read(stream);
  EXPECT_EQ(moved.reason(), v1::WATCH_REASON_MOVED);
  EXPECT_EQ(moved.leg_index(), 0u);
  EXPECT_EQ(moved.path_index(), 1u);
  ASSERT_TRUE(stream.Write(Move(3, 7, "tunnel", leg1[5])));
  moved = Read(stream);
  EXPECT_EQ(moved.code(), 0) << moved.message();
  EXPECT_EQ(moved.leg_index(), 1u);
  EXPECT_EQ(moved.path_index(), 5u);
  // `position` alone: a cell of the map the agent is on.
  v1::WatchRequest on_map;
  on_map.set_request_id(4);
  on_map.set_agent_id(7);
  on_map.set_action(v1::WATCH_ACTION_MOVE);
  on_map.mutable_position()->set_x(leg1[7].x);
  on_map.mutable_position()->set_y(leg1[7].y);
  ASSERT_TRUE(stream.Write(on_map));
  moved = Read(stream);
  EXPECT_EQ(moved.leg_index(), 1u);
  EXPECT_EQ(moved.path_index(), 7u);
  // Off the path: a new one from there.
  ASSERT_TRUE(stream.Write(Move(5, 7, "tunnel", {10, 0})));
  const v1::WatchEvent off = Read(stream);
  ASSERT_EQ(off.code(), 0) << off.message();
  EXPECT_EQ(off.reason(), v1::WATCH_REASON_OFF_PATH);
  EXPECT_EQ(off.world_path().legs(0).map_id(), "tunnel");
  EXPECT_EQ(Unpack(off.world_path().legs(0).cells()).front(), (Cell{10, 0}));
  EXPECT_DOUBLE_EQ(off.world_path().cost(),
                   Now(At("tunnel", {10, 0}), At("hall", {63, 5})).cost());
}

TEST_F(WorldWatchCaseTest, RetargetsMayNameAnotherMap) {
  Stream stream(stub());
  const WorldCell from = At("hall", {0, 5});
  ASSERT_TRUE(
      stream.Write(AddWorldAgent(keep_, 1, 7, from, At("hall", {9, 5}))));
  ASSERT_EQ(Read(stream).code(), 0);
  v1::WatchRequest r;
  r.set_request_id(2);
  r.set_agent_id(7);
  r.set_action(v1::WATCH_ACTION_RETARGET);
  *r.mutable_world_goal() = Wire(keep_, At("tunnel", {30, 1}));
  ASSERT_TRUE(stream.Write(r));
  v1::WatchEvent e = Read(stream);
  ASSERT_EQ(e.code(), 0) << e.message();
  EXPECT_EQ(e.reason(), v1::WATCH_REASON_RETARGETED);
  const auto& legs = e.world_path().legs();
  EXPECT_EQ(legs[legs.size() - 1].map_id(), "tunnel");
  EXPECT_DOUBLE_EQ(e.world_path().cost(),
                   Now(from, At("tunnel", {30, 1})).cost());
  // `goal` alone: a cell of the goal's map (now the tunnel).
  r.clear_world_goal();
  r.set_request_id(3);
  r.mutable_goal()->set_x(35);
  r.mutable_goal()->set_y(2);
  ASSERT_TRUE(stream.Write(r));
  e = Read(stream);
  ASSERT_EQ(e.code(), 0) << e.message();
  EXPECT_EQ(Unpack(e.world_path().legs(e.world_path().legs_size() - 1).cells())
                .back(),
            (Cell{35, 2}));
}

TEST_F(WorldWatchCaseTest, AnAgentWithoutAPathIsToldWhenADoorOpens) {
  Stream stream(stub());
  const WorldCell from = At("hall", {0, 5}), to = At("vault", {4, 4});
  ASSERT_TRUE(stream.Write(AddWorldAgent(keep_, 1, 7, from, to)));
  v1::WatchEvent added = Read(stream);
  EXPECT_EQ(added.code(),
            static_cast<int>(grpc::StatusCode::FAILED_PRECONDITION));
  EXPECT_NE(added.message().find("no path"), std::string::npos);
  // A change that opens nothing toward it: no event.
  SetLink("up", false);
  ExpectNothingPushed(stream);
  const v1::WorldInfo opened = SetLink("vault_door", true);
  v1::WatchEvent pushed = Read(stream);
  ASSERT_EQ(pushed.code(), 0) << pushed.message();
  EXPECT_EQ(pushed.reason(), v1::WATCH_REASON_REACHABLE);
  EXPECT_EQ(pushed.world_version(), opened.version());
  EXPECT_DOUBLE_EQ(pushed.world_path().cost(), Now(from, to).cost());
}

TEST_F(WorldWatchCaseTest, DeletingAMemberMapBlocksAndDeletingTheWorldDrops) {
  SetCell("tunnel", {40, 1}, 1);
  Stream stream(stub());
  ASSERT_TRUE(stream.Write(
      AddWorldAgent(keep_, 1, 7, At("hall", {0, 5}), At("hall", {63, 5}))));
  ASSERT_EQ(Read(stream).world_path().legs_size(), 3);
  {
    grpc::ClientContext ctx;
    SetDeadline(&ctx);
    v1::DeleteMapRequest d;
    d.set_id("tunnel");
    v1::DeleteMapResponse out;
    ASSERT_TRUE(stub().DeleteMap(&ctx, d, &out).ok());
  }
  v1::WatchEvent pushed = Read(stream);
  EXPECT_EQ(pushed.reason(), v1::WATCH_REASON_BLOCKED);
  EXPECT_EQ(pushed.map_id(), "tunnel");
  // The world names a map that is gone: its searches say so.
  EXPECT_EQ(pushed.code(),
            static_cast<int>(grpc::StatusCode::FAILED_PRECONDITION));
  EXPECT_NE(pushed.message().find("'tunnel'"), std::string::npos)
      << pushed.message();
  {
    grpc::ClientContext ctx;
    SetDeadline(&ctx);
    v1::DeleteWorldRequest d;
    d.set_id("tower");
    v1::DeleteWorldResponse out;
    ASSERT_TRUE(stub().DeleteWorld(&ctx, d, &out).ok());
  }
  pushed = Read(stream);
  EXPECT_EQ(pushed.reason(), v1::WATCH_REASON_WORLD_DELETED);
  EXPECT_EQ(pushed.code(), static_cast<int>(grpc::StatusCode::NOT_FOUND));
  ASSERT_TRUE(stream.Write(Move(2, 7, "hall", {1, 5})));
  EXPECT_EQ(Read(stream).code(), static_cast<int>(grpc::StatusCode::NOT_FOUND));
  EXPECT_EQ(server_->server().watch().stats().world_agents, 0u);
}

TEST_F(WorldWatchCaseTest, ProgressiveAnswersComeTwice) {
  Stream stream(stub());
  v1::WatchRequest r =
      AddWorldAgent(keep_, 1, 7, At("hall", {0, 5}), At("hall", {63, 5}));
  r.mutable_world_path()->set_algorithm(v1::ALGORITHM_ASTAR);
  r.set_progressive_expansions(5);
  ASSERT_TRUE(stream.Write(r));
  const v1::WatchEvent first = Read(stream), last = Read(stream);
  EXPECT_EQ(first.request_id(), 1u);
  EXPECT_TRUE(first.world_path().partial());
  EXPECT_EQ(last.request_id(), 1u);
  ASSERT_EQ(last.code(), 0) << last.message();
  EXPECT_FALSE(last.world_path().partial());
  EXPECT_DOUBLE_EQ(last.world_path().cost(),
                   Now(At("hall", {0, 5}), At("hall", {63, 5})).cost());
}

TEST_F(WorldWatchCaseTest, AgentIdsAreSharedWithMapAgents) {
  Stream stream(stub());
  v1::WatchRequest map_agent;
  map_agent.set_request_id(1);
  map_agent.set_agent_id(7);
  map_agent.set_action(v1::WATCH_ACTION_ADD);
  *map_agent.mutable_path() = Path("hall", 0, 5, 9, 5);
  ASSERT_TRUE(stream.Write(map_agent));
  ASSERT_EQ(Read(stream).code(), 0);
  // A world agent by the same id replaces it.
  ASSERT_TRUE(stream.Write(
      AddWorldAgent(keep_, 2, 7, At("hall", {0, 5}), At("vault", {0, 0}), 0)));
  EXPECT_EQ(Read(stream).request_id(), 2u);
  auto stats = server_->server().watch().stats();
  EXPECT_EQ(stats.agents, 0u);
  EXPECT_EQ(stats.world_agents, 1u);
  (void)ScrapeUntil(server_->metrics_port(), {"gridstar_watch_world_agents 1",
                                              "gridstar_watch_agents 0"});
  // And the other way round.
  map_agent.set_request_id(3);
  ASSERT_TRUE(stream.Write(map_agent));
  ASSERT_EQ(Read(stream).code(), 0);
  stats = server_->server().watch().stats();
  EXPECT_EQ(stats.agents, 1u);
  EXPECT_EQ(stats.world_agents, 0u);
}

TEST_F(WorldWatchCaseTest, TheCppClientWalksAWorldAgent) {
  SetCell("tunnel", {40, 1}, 1);
  ClientOptions options;
  options.deadline = absl::Seconds(300);
  Client client(absl::StrCat("127.0.0.1:", server_->port()), options);
  std::unique_ptr<WatchStream> watch = client.Watch("", absl::Seconds(300));
  const WorldCell from = At("hall", {0, 5}), to = At("hall", {63, 5});
  absl::StatusOr<uint64_t> id =
      watch->AddWorld(7, Query(keep_, from, to), /*replan_if_cheaper=*/0);
  ASSERT_TRUE(id.ok()) << id.status();
  v1::WatchEvent e;
  ASSERT_TRUE(watch->Next(&e));
  EXPECT_EQ(e.request_id(), *id);
  ASSERT_EQ(e.world_path().legs_size(), 3);
  const std::vector<Cell> tunnel = Unpack(e.world_path().legs(1).cells());
  ASSERT_TRUE(watch->MoveWorld(7, "tunnel", tunnel[2].x, tunnel[2].y).ok());
  ASSERT_TRUE(watch->Next(&e));
  EXPECT_EQ(e.reason(), v1::WATCH_REASON_MOVED);
  EXPECT_EQ(e.leg_index(), 1u);
  EXPECT_EQ(e.path_index(), 2u);
  ASSERT_TRUE(watch->RetargetWorld(7, "tunnel", 50, 1).ok());
  ASSERT_TRUE(watch->Next(&e));
  EXPECT_EQ(e.reason(), v1::WATCH_REASON_RETARGETED);
  EXPECT_DOUBLE_EQ(e.world_path().cost(),
                   Now(At("tunnel", tunnel[2]), At("tunnel", {50, 1})).cost());
  watch->CloseWrites();
  while (watch->Next(&e)) {
  }
  EXPECT_TRUE(watch->Finish().ok());
}

struct Refusal {
  std::string name;
  std::function<void(v1::WatchRequest*)> change;
  grpc::StatusCode code;
  std::string message;
};

TEST_F(WorldWatchCaseTest, RefusalsNameTheirFields) {
  const std::vector<Refusal> cases = {
      {"unknown world",
       [](auto* r) { r->mutable_world_path()->set_world_id("attic"); },
       grpc::StatusCode::NOT_FOUND, "world_path.world_id: no world 'attic'"},
      {"start off the world",
       [](auto* r) {
         r->mutable_world_path()->mutable_start()->set_map_id("cellar");
       },
       grpc::StatusCode::INVALID_ARGUMENT, "world_path.start.map_id"},
      {"goal off its map",
       [](auto* r) {
         r->mutable_world_path()->mutable_goal()->mutable_cell()->set_x(99);
       },
       grpc::StatusCode::INVALID_ARGUMENT, "world_path.goal.cell"},
      {"trace", [](auto* r) { r->mutable_world_path()->set_trace(true); },
       grpc::StatusCode::INVALID_ARGUMENT, "world_path.trace"},
      {"both kinds",
       [](auto* r) { *r->mutable_path() = Path("hall", 0, 0, 1, 1); },
       grpc::StatusCode::INVALID_ARGUMENT, "path: set with world_path"},
      {"fraction", [](auto* r) { r->set_replan_if_cheaper(1); },
       grpc::StatusCode::INVALID_ARGUMENT, "replan_if_cheaper"},
  };
  Stream stream(stub());
  uint64_t id = 1;
  for (const Refusal& c : cases) {
    SCOPED_TRACE(c.name);
    v1::WatchRequest r =
        AddWorldAgent(keep_, id, 7, At("hall", {0, 5}), At("hall", {63, 5}));
    c.change(&r);
    ASSERT_TRUE(stream.Write(r));
    const v1::WatchEvent e = Read(stream);
    EXPECT_EQ(e.request_id(), id++);
    EXPECT_EQ(e.code(), static_cast<int>(c.code)) << e.message();
    EXPECT_NE(e.message().find(c.message), std::string::npos) << e.message();
  }
  // The stream stays open; moves of a world agent name their fields too.
  ASSERT_TRUE(stream.Write(
      AddWorldAgent(keep_, 50, 7, At("hall", {0, 5}), At("hall", {63, 5}))));
  ASSERT_EQ(Read(stream).code(), 0);
  v1::WatchRequest elsewhere = Move(51, 7, "hall", {0, 0});
  elsewhere.mutable_world_position()->set_map_id("cellar");
  ASSERT_TRUE(stream.Write(elsewhere));
  v1::WatchEvent e = Read(stream);
  EXPECT_EQ(e.code(), static_cast<int>(grpc::StatusCode::INVALID_ARGUMENT));
  EXPECT_NE(e.message().find("world_position.map_id: 'cellar' is not a map"),
            std::string::npos)
      << e.message();
  v1::WatchRequest off;
  off.set_request_id(52);
  off.set_agent_id(7);
  off.set_action(v1::WATCH_ACTION_MOVE);
  off.mutable_position()->set_x(70);
  ASSERT_TRUE(stream.Write(off));
  e = Read(stream);
  EXPECT_EQ(e.code(), static_cast<int>(grpc::StatusCode::INVALID_ARGUMENT));
  EXPECT_NE(e.message().find("position.cell: (70, 0) is off map 'hall'"),
            std::string::npos)
      << e.message();
}

}  // namespace
}  // namespace gridstar
