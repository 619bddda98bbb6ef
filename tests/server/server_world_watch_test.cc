// WatchPaths agents that walk worlds of linked maps, through the real
// server: after every step of random sequences of link toggles and
// re-costs, cells blocked on agents' paths, cells opened, and moves, every
// agent's remaining path is legal on the world as it now is, an agent that
// asked for cheaper paths walks an optimal one (against Dijkstra over the
// union graph), an agent without a path has none to take; and one test per
// case: a door closed under an agent, a member map blocked under it, moves
// across legs, retargets onto another map, a world deleted, refusals
// naming their fields, agent ids shared with map agents.

#include <condition_variable>
#include <cstdio>
#include <deque>
#include <map>
#include <mutex>
#include <random>
#include <set>
#include <string>
#include <thread>
#include <vector>

#include "absl/strings/str_cat.h"
#include "gridstar/move_cost.h"
#include "gtest/gtest.h"
#include "server/world_watch_test_util.h"

namespace gridstar {
namespace {

using namespace testing::server_suite;  // NOLINT(build/namespaces)
using namespace testing::worlds;        // NOLINT(build/namespaces)

constexpr uint64_t kSentinelAgent = ~uint64_t{0};

// Three random maps larger than the watch's 32 x 32 tiles (so that a
// change can miss a path's tiles), held here as the server holds them.
Maps MakeBigMaps(uint32_t seed) {
  std::mt19937 rng(seed);
  Maps m;
  for (int i = 0; i < 3; ++i) {
    const int w = 60 + static_cast<int>(rng() % 40),
              h = 40 + static_cast<int>(rng() % 40);
    std::vector<uint8_t> costs(static_cast<size_t>(w) * h);
    for (uint8_t& c : costs) c = rng() % 5 == 0 ? 0 : 1 + rng() % 3;
    m.ids.push_back(absl::StrCat("floor", i));
    m.grids.push_back(*GridMap::FromCosts(w, h, costs));
  }
  return m;
}

// What the client knows of an agent.
struct Tracked {
  WorldCell position;
  WorldCell goal;
  double replan_if_cheaper = 0;
  bool has_path = false;
  bool no_path = false;
  v1::WorldPathResponse path;
  size_t leg = 0, index = 0;
};

class WorldWatchTest : public ::testing::Test {
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
  v1::WorldInfo Register(v1::RegisterWorldRequest r) {
    r.set_replace(true);
    grpc::ClientContext ctx;
    SetDeadline(&ctx);
    v1::WorldInfo info;
    EXPECT_TRUE(stub().RegisterWorld(&ctx, r, &info).ok());
    return info;
  }
  server::WatchHub::Stats Stats() { return server_->server().watch().stats(); }
  // Sets one cell of map `m` here and on the server.
  void SetCell(int m, Cell c, int cost) {
    UpdateCell(stub(), maps_.ids[m], c, cost);
    GridMap& g = maps_.grids[m];
    std::vector<uint8_t> costs = g.CopyCosts();
    costs[static_cast<size_t>(c.y) * g.width() + c.x] =
        static_cast<uint8_t>(cost);
    g = *GridMap::FromCosts(g.width(), g.height(), costs);
  }
  // Waits until the watch has heard of `changes` changes and answered
  // every search, then until `stream` has delivered everything queued
  // before (a request answered after them); returns those events.
  // First every request of `awaited` is answered (their answers come
  // after the searches they start).
  std::vector<v1::WatchEvent> Settle(Stream& stream, uint64_t changes,
                                     std::set<uint64_t> awaited = {}) {
    std::vector<v1::WatchEvent> out;
    v1::WatchEvent e;
    while (!awaited.empty() && stream.Next(&e)) {
      if (e.request_id() != 0 && e.code() == 0 && e.world_path().partial()) {
        out.push_back(e);  // A progressive first answer: the last follows.
        continue;
      }
      awaited.erase(e.request_id());
      out.push_back(e);
    }
    const absl::Time give_up =
        absl::Now() + absl::Milliseconds(testing::kGenerousMs);
    for (;;) {
      const server::WatchHub::Stats s = Stats();
      if (s.world_changes >= changes && s.searches_started == s.searches_done) {
        break;
      }
      if (absl::Now() > give_up) {
        ADD_FAILURE() << "the watch did not settle: changes " << s.world_changes
                      << " of " << changes << ", searches " << s.searches_done
                      << " of " << s.searches_started;
        break;
      }
      absl::SleepFor(absl::Milliseconds(2));
    }
    v1::WatchRequest sentinel;
    sentinel.set_request_id(++sentinels_ + 1000000);
    sentinel.set_agent_id(kSentinelAgent);
    sentinel.set_action(v1::WATCH_ACTION_REMOVE);
    EXPECT_TRUE(stream.Write(sentinel));
    while (stream.Next(&e)) {
      if (e.request_id() == sentinel.request_id()) break;
      out.push_back(e);
    }
    return out;
  }
  std::unique_ptr<InProcessServer> server_;
  Maps maps_;
  uint64_t sentinels_ = 0;
};

// Applies an event to what the client knows.
void Apply(const v1::WatchEvent& e, std::map<uint64_t, Tracked>* agents) {
  auto it = agents->find(e.agent_id());
  if (it == agents->end()) return;
  Tracked& t = it->second;
  if (e.code() == 0 && e.has_world_path() && !e.world_path().partial()) {
    t.has_path = true;
    t.no_path = false;
    t.path = e.world_path();
    t.leg = t.index = 0;
    return;
  }
  if (e.code() == static_cast<int>(grpc::StatusCode::FAILED_PRECONDITION)) {
    t.has_path = false;
    t.no_path = true;
    return;
  }
  if (e.code() != 0) ADD_FAILURE() << "event " << e.DebugString();
}

// The cost of the agent's remaining path on the maps and world as they
// are, or -1 when a move or link of it is not legal there.
double RemainingCost(const Maps& m, const v1::WorldInfo& info,
                     const Tracked& t) {
  double total = 0;
  const auto& legs = t.path.legs();
  for (int k = static_cast<int>(t.leg); k < legs.size(); ++k) {
    const int map = MapIndex(m, legs[k].map_id());
    std::vector<Cell> cells = Unpack(legs[k].cells());
    if (k == static_cast<int>(t.leg)) {
      cells.erase(cells.begin(), cells.begin() + t.index);
    }
    const double cost =
        PathCost(m.grids[map], cells, DiagonalPolicy::kNoCornerCutting);
    if (cost < 0) return -1;
    total += cost;
    if (k + 1 == legs.size()) break;
    const std::string& id = t.path.link_ids(k);
    const v1::Link* link = nullptr;
    for (const v1::Link& l : info.links()) {
      if (l.id() == id) link = &l;
    }
    if (link == nullptr || link->closed()) return -1;
    const std::vector<Cell> next = Unpack(legs[k + 1].cells());
    auto same = [](const v1::WorldCell& w, const std::string& on, Cell c) {
      return w.map_id() == on && w.cell().x() == c.x && w.cell().y() == c.y;
    };
    const Cell a = Unpack(legs[k].cells()).back();
    const bool forward = same(link->from(), legs[k].map_id(), a) &&
                         same(link->to(), legs[k + 1].map_id(), next.front());
    const bool back = !link->one_way() &&
                      same(link->to(), legs[k].map_id(), a) &&
                      same(link->from(), legs[k + 1].map_id(), next.front());
    if (!forward && !back) return -1;
    total += link->cost();
  }
  return total;
}

TEST_F(WorldWatchTest, RandomSequencesKeepEveryAgentOnALegalAndExactPath) {
  std::map<int, int> pushes;  // By reason, over every sequence.
  for (uint32_t seed = 1; seed <= 8; ++seed) {
    SCOPED_TRACE(absl::StrCat("seed ", seed));
    maps_ = seed % 2 == 0 ? MakeMaps(seed) : MakeBigMaps(seed);
    for (size_t i = 0; i < maps_.ids.size(); ++i) {
      ASSERT_TRUE(RegisterRaw(stub(), maps_.ids[i], maps_.grids[i]).ok());
    }
    v1::WorldInfo info = Register(RandomWorld(maps_, seed));
    std::mt19937 rng(seed);
    Stream stream(stub());
    std::map<uint64_t, Tracked> agents;
    uint64_t changes = Stats().world_changes;
    for (uint64_t id = 1; id <= 6; ++id) {
      Tracked t;
      const int a = static_cast<int>(rng() % 3),
                b = static_cast<int>(rng() % 3);
      t.position = {a, Passable(maps_.grids[a], rng)};
      t.goal = {b, Passable(maps_.grids[b], rng)};
      t.replan_if_cheaper = id % 2 == 0 ? 1e-9 : 0;
      agents[id] = t;
      ASSERT_TRUE(stream.Write(AddWorldAgent(maps_, id, id, t.position, t.goal,
                                             t.replan_if_cheaper)));
    }
    auto ends = [&](int map, Cell c) {
      for (const auto& [id, t] : agents) {
        if ((t.position.map == map && t.position.cell == c) ||
            (t.goal.map == map && t.goal.cell == c)) {
          return true;
        }
      }
      return false;
    };
    std::set<uint64_t> awaited = {1, 2, 3, 4, 5, 6};
    std::vector<WorldCell> blocked;
    for (int step = 0; step <= 30; ++step) {
      SCOPED_TRACE(absl::StrCat("step ", step));
      const int kind = step == 0 ? -1 : static_cast<int>(rng() % 5);
      SCOPED_TRACE(absl::StrCat("kind ", kind));
      std::vector<v1::WatchEvent> answers;
      if (kind == 0 || kind == 1) {  // A link toggled or re-costed.
        const v1::Link& l = info.links(rng() % info.links_size());
        v1::UpdateLinksRequest u;
        u.set_id("tower");
        v1::LinkUpdate* lu = u.add_updates();
        lu->set_link_id(l.id());
        if (kind == 0) {
          lu->set_state(l.closed() ? v1::LinkUpdate::STATE_OPEN
                                   : v1::LinkUpdate::STATE_CLOSED);
        } else {
          lu->set_cost(rng() % 6);
        }
        ASSERT_TRUE(UpdateLinks(stub(), u, &info).ok());
        ++changes;
      } else if (kind == 2 || kind == 3) {
        // A cell blocked on an agent's remaining path, or one opened (or
        // re-costed) anywhere.
        int map = static_cast<int>(rng() % 3);
        Cell c{static_cast<int32_t>(rng() % maps_.grids[map].width()),
               static_cast<int32_t>(rng() % maps_.grids[map].height())};
        int cost = 1 + static_cast<int>(rng() % 3);
        const Tracked& t = agents[1 + rng() % agents.size()];
        if (kind == 2 && t.has_path) {
          const v1::WorldLeg& leg = t.path.legs(rng() % t.path.legs_size());
          const std::vector<Cell> cells = Unpack(leg.cells());
          map = MapIndex(maps_, leg.map_id());
          c = cells[rng() % cells.size()];
          cost = 0;
        } else if (kind == 3 && !blocked.empty() && rng() % 3 != 0) {
          // Mostly a cell blocked before on a path: opening it again may
          // make a cheaper path.
          const size_t i = rng() % blocked.size();
          map = blocked[i].map;
          c = blocked[i].cell;
          blocked.erase(blocked.begin() + i);
        }
        if (ends(map, c)) continue;
        if (cost == 0) blocked.push_back({map, c});
        SetCell(map, c, cost);
        ++changes;
      } else if (kind == 4) {  // An agent walks along its path.
        const uint64_t id = 1 + rng() % agents.size();
        Tracked& t = agents[id];
        if (!t.has_path) continue;
        size_t leg = t.leg, index = t.index + 1 + rng() % 6;
        const int legs = t.path.legs_size();
        while (leg + 1 < static_cast<size_t>(legs) &&
               index >=
                   static_cast<size_t>(t.path.legs(leg).cells_size() / 2)) {
          index -= t.path.legs(leg).cells_size() / 2;
          ++leg;  // Through the link, onto the next leg.
        }
        const std::vector<Cell> cells = Unpack(t.path.legs(leg).cells());
        index = std::min(index, cells.size() - 1);
        v1::WatchRequest move;
        move.set_request_id(500 + step);
        move.set_agent_id(id);
        move.set_action(v1::WATCH_ACTION_MOVE);
        *move.mutable_world_position() = Wire(
            maps_, {MapIndex(maps_, t.path.legs(leg).map_id()), cells[index]});
        ASSERT_TRUE(stream.Write(move));
        awaited.insert(move.request_id());
        t.position = {MapIndex(maps_, t.path.legs(leg).map_id()), cells[index]};
        t.leg = leg;
        t.index = index;
      }
      const std::vector<v1::WatchEvent> events =
          Settle(stream, changes, std::move(awaited));
      awaited.clear();
      for (const v1::WatchEvent& e : events) {
        if (e.request_id() == 0) ++pushes[e.reason()];
        if (e.reason() == v1::WATCH_REASON_MOVED) {
          EXPECT_EQ(e.code(), 0) << e.message();
          const Tracked& t = agents[e.agent_id()];
          // A cell may come twice on a path (a teleporter): the first at
          // or after where the agent was.
          EXPECT_EQ(e.leg_index(), t.leg);
          EXPECT_EQ(e.path_index(), t.index);
          continue;
        }
        Apply(e, &agents);
      }
      info = GetWorld(stub(), "tower");
      for (const auto& [id, t] : agents) {
        SCOPED_TRACE(absl::StrCat("agent ", id));
        const double best = Reference(maps_, info, t.position, t.goal);
        if (!t.has_path) {
          EXPECT_TRUE(t.no_path);
          EXPECT_EQ(best, kInfinity) << "a path exists and was not pushed";
          continue;
        }
        const double remaining = RemainingCost(maps_, info, t);
        ASSERT_GE(remaining, 0) << "an illegal path was not replaced";
        EXPECT_LE(best, remaining + 1e-9 * (1 + remaining));
        if (t.replan_if_cheaper > 0) {
          EXPECT_NEAR(remaining, best, 1e-6 * (1 + best));
        }
      }
    }
  }
  // The sequences made each kind of push happen.
  EXPECT_GT(pushes[v1::WATCH_REASON_BLOCKED], 5);
  EXPECT_GT(pushes[v1::WATCH_REASON_CHEAPER], 5);
  for (const auto& [reason, n] : pushes) {
    std::printf("%s: %d pushes\n", v1::WatchReason_Name(reason).c_str(), n);
  }
}

}  // namespace
}  // namespace gridstar
