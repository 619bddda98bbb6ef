// WatchHub (server/watch/watch_hub.h) in process: a real registry and search
// scheduler, a sink that records events. Requests and events pass through
// the stream's own translation (watch_wire.h), so the assertions read the
// proto as a client does. Every wait is for a condition
// (events received, the hub idle) with a deadline the test does not mean to
// hit; what the hub decides on a change it decides before MapUpdated
// returns, so "nothing was replanned" is read from its counters, not from
// the absence of events after a sleep.
#include "watch/watch_hub.h"

#include <chrono>
#include <condition_variable>
#include <functional>
#include <map>
#include <memory>
#include <mutex>
#include <random>
#include <set>
#include <string>
#include <thread>
#include <vector>

#include "absl/strings/str_cat.h"
#include "convert/convert.h"
#include "gridstar/find_path.h"
#include "gtest/gtest.h"
#include "testing/drawn_maps.h"
#include "testing/reference.h"
#include "testing/status_matchers.h"
#include "watch/watch_wire.h"

namespace gridstar::server {
namespace {

constexpr auto kGenerous = std::chrono::seconds(300);

class RecordingSink : public WatchSink {
 public:
  bool Push(WatchEvent event, bool /*coalesce*/) override {
    v1::WatchEvent wire;
    WatchEventToProto(event, &wire);
    std::lock_guard<std::mutex> lock(mu_);
    events_.push_back(std::move(wire));
    changed_.notify_all();
    return !refuse_;
  }
  // Waits until `count` events came; returns them all.
  std::vector<v1::WatchEvent> WaitFor(size_t count) {
    std::unique_lock<std::mutex> lock(mu_);
    changed_.wait_for(lock, kGenerous,
                      [&] { return events_.size() >= count; });
    return events_;
  }
  std::vector<v1::WatchEvent> events() {
    std::lock_guard<std::mutex> lock(mu_);
    return events_;
  }
  void Refuse() {
    std::lock_guard<std::mutex> lock(mu_);
    refuse_ = true;
  }

 private:
  std::mutex mu_;
  std::condition_variable changed_;
  std::vector<v1::WatchEvent> events_;
  bool refuse_ = false;
};

class WatchHubTest : public ::testing::Test {
 protected:
  WatchHubTest()
      : registry_(nullptr, MapRegistry::Limits{}),
        search_(2, 4096, SearchContextOptions{}),
        hub_(&registry_, &search_, &metrics_, WatchOptions{}),
        sink_(std::make_shared<RecordingSink>()) {}
  ~WatchHubTest() override { search_.Shutdown(); }  // Before the hub goes.

  void Register(GridMap map) {
    ASSERT_OK(registry_.Register("m", std::move(map), MapOptions{}, true));
  }
  // Applies the changes as UpdateCells does, then tells the hub.
  void Update(std::vector<CellChange> changes) {
    absl::StatusOr<std::shared_ptr<const MapSnapshot>> s = registry_.Update(
        "m", changes, 0, [](size_t i) { return absl::StrCat(i); });
    ASSERT_OK(s);
    hub_.MapUpdated("m", (*s)->version, changes);
  }
  void Block(Cell c, uint8_t cost = 0) {
    Update({CellChange{c, {c.x + 1, c.y + 1}, cost}});
  }
  void WaitIdle() {
    const auto end = std::chrono::steady_clock::now() + kGenerous;
    while (std::chrono::steady_clock::now() < end) {
      WatchHub::Stats s = hub_.stats();
      if (s.searches_started == s.searches_done) return;
      std::this_thread::sleep_for(std::chrono::milliseconds(1));
    }
    FAIL() << "the hub never became idle";
  }
  v1::WatchRequest Add(uint64_t agent, Cell start, Cell goal,
                       double cheaper = 0, uint64_t progressive = 0) {
    v1::WatchRequest r;
    r.set_request_id(next_request_++);
    r.set_agent_id(agent);
    r.set_action(v1::WATCH_ACTION_ADD);
    r.mutable_path()->set_map_id("m");
    convert::CellToProto(start, r.mutable_path()->mutable_start());
    convert::CellToProto(goal, r.mutable_path()->mutable_goal());
    r.mutable_path()->set_algorithm(v1::ALGORITHM_ASTAR);
    r.set_replan_if_cheaper(cheaper);
    r.set_progressive_expansions(progressive);
    return r;
  }
  v1::WatchRequest Simple(uint64_t agent, v1::WatchAction action) {
    v1::WatchRequest r;
    r.set_request_id(next_request_++);
    r.set_agent_id(agent);
    r.set_action(action);
    return r;
  }
  const GridMap& Map() { return registry_.Find("m")->map; }
  uint64_t Searches(v1::WatchReason r) { return hub_.stats().searches[r]; }

  Metrics metrics_;
  MapRegistry registry_;
  Scheduler search_;
  WatchHub hub_;
  std::shared_ptr<RecordingSink> sink_;
  uint64_t next_request_ = 1;
};

// A room with a wall down the middle and a gap at the bottom.
GridMap Room() {
  return testing::Draw({
      "..........",
      "....#.....",
      "....#.....",
      "....#.....",
      "....#.....",
      "..........",
  });
}

TEST_F(WatchHubTest, AddAnswersWithAnOptimalPath) {
  Register(Room());
  HandleRequest(hub_, sink_, Add(7, {0, 0}, {9, 0}));
  std::vector<v1::WatchEvent> e = sink_->WaitFor(1);
  ASSERT_EQ(e.size(), 1u);
  EXPECT_EQ(e[0].request_id(), 1u);
  EXPECT_EQ(e[0].agent_id(), 7u);
  EXPECT_EQ(e[0].reason(), v1::WATCH_REASON_ADDED);
  ASSERT_EQ(e[0].code(), 0) << e[0].message();
  EXPECT_NEAR(e[0].path().cost(), 9, 1e-9);
  EXPECT_EQ(hub_.stats().agents, 1u);
  EXPECT_GT(hub_.stats().memory_bytes, 0u);
}

TEST_F(WatchHubTest, BlockingACellOnThePathPushesANewPath) {
  Register(Room());
  HandleRequest(hub_, sink_, Add(1, {0, 0}, {9, 0}));
  sink_->WaitFor(1);
  Block({4, 0});  // The top row is its path: only the gap below is left.
  std::vector<v1::WatchEvent> e = sink_->WaitFor(2);
  ASSERT_EQ(e.size(), 2u);
  EXPECT_EQ(e[1].request_id(), 0u);
  EXPECT_EQ(e[1].reason(), v1::WATCH_REASON_BLOCKED);
  ASSERT_EQ(e[1].code(), 0) << e[1].message();
  EXPECT_EQ(e[1].map_version(), registry_.Find("m")->version);
  EXPECT_EQ(e[1].path().map_version(), registry_.Find("m")->version);
  const std::vector<Cell> cells = convert::UnpackCells(e[1].path().cells());
  EXPECT_GE(PathCost(Map(), cells, DiagonalPolicy::kNoCornerCutting), 0);
  EXPECT_EQ(cells.front(), (Cell{0, 0}));
  EXPECT_EQ(cells.back(), (Cell{9, 0}));
  EXPECT_GE(e[1].since_update_micros(), 0);
  EXPECT_EQ(hub_.stats().crossing, 1u);
}

TEST_F(WatchHubTest, ChangesOffTheRemainingPathReplanNothing) {
  GridMap big = testing::Draw(std::vector<std::string>(80, std::string(80, '.')));
  Register(std::move(big));
  HandleRequest(hub_, sink_, Add(1, {0, 0}, {70, 0}));
  sink_->WaitFor(1);
  WaitIdle();
  Block({10, 5});   // Same tile, not on the path nor a corner of it.
  Block({60, 70});  // Another tile altogether.
  EXPECT_EQ(Searches(v1::WATCH_REASON_BLOCKED), 0u);
  EXPECT_EQ(hub_.stats().crossing, 0u);
  EXPECT_EQ(hub_.stats().checked, 1u);  // Only the first was in its tiles.
  // Walk past x = 20, then block behind the agent: nothing to replan.
  v1::WatchRequest move = Simple(1, v1::WATCH_ACTION_MOVE);
  move.mutable_position()->set_x(30);
  HandleRequest(hub_, sink_, move);
  std::vector<v1::WatchEvent> e = sink_->WaitFor(2);
  EXPECT_EQ(e[1].reason(), v1::WATCH_REASON_MOVED);
  EXPECT_EQ(e[1].path_index(), 30u);
  Block({20, 0});
  EXPECT_EQ(Searches(v1::WATCH_REASON_BLOCKED), 0u);
  Block({40, 0});  // Ahead of it: replanned.
  EXPECT_EQ(Searches(v1::WATCH_REASON_BLOCKED), 1u);
  e = sink_->WaitFor(3);
  EXPECT_EQ(convert::UnpackCells(e[2].path().cells()).front(), (Cell{30, 0}));
}

TEST_F(WatchHubTest, ABlockedCornerOfADiagonalMoveIsCrossing) {
  Register(testing::Draw({
      "....",
      "....",
      "....",
      "....",
  }));
  HandleRequest(hub_, sink_, Add(1, {0, 0}, {3, 3}));  // The diagonal.
  sink_->WaitFor(1);
  WaitIdle();
  Block({1, 0});  // A corner of the move (0,0) -> (1,1).
  EXPECT_EQ(Searches(v1::WATCH_REASON_BLOCKED), 1u);
  std::vector<v1::WatchEvent> e = sink_->WaitFor(2);
  EXPECT_NEAR(e[1].path().cost(), 1 + 2 * std::sqrt(2.0) + 0, 1.0);
  EXPECT_GE(PathCost(Map(), convert::UnpackCells(e[1].path().cells()),
                     DiagonalPolicy::kNoCornerCutting),
            0);
}

TEST_F(WatchHubTest, MoveOffThePathReplansFromThere) {
  Register(Room());
  HandleRequest(hub_, sink_, Add(1, {0, 0}, {9, 0}));
  sink_->WaitFor(1);
  v1::WatchRequest move = Simple(1, v1::WATCH_ACTION_MOVE);
  move.mutable_position()->set_x(2);
  move.mutable_position()->set_y(4);
  HandleRequest(hub_, sink_, move);
  std::vector<v1::WatchEvent> e = sink_->WaitFor(2);
  EXPECT_EQ(e[1].reason(), v1::WATCH_REASON_OFF_PATH);
  EXPECT_EQ(e[1].request_id(), move.request_id());
  EXPECT_EQ(convert::UnpackCells(e[1].path().cells()).front(), (Cell{2, 4}));
}

TEST_F(WatchHubTest, RetargetAndRemove) {
  Register(Room());
  HandleRequest(hub_, sink_, Add(1, {0, 0}, {9, 0}));
  sink_->WaitFor(1);
  v1::WatchRequest retarget = Simple(1, v1::WATCH_ACTION_RETARGET);
  retarget.mutable_goal()->set_x(9);
  retarget.mutable_goal()->set_y(5);
  HandleRequest(hub_, sink_, retarget);
  std::vector<v1::WatchEvent> e = sink_->WaitFor(2);
  EXPECT_EQ(e[1].reason(), v1::WATCH_REASON_RETARGETED);
  EXPECT_EQ(convert::UnpackCells(e[1].path().cells()).back(), (Cell{9, 5}));
  HandleRequest(hub_, sink_, Simple(1, v1::WATCH_ACTION_REMOVE));
  e = sink_->WaitFor(3);
  EXPECT_EQ(e[2].reason(), v1::WATCH_REASON_REMOVED);
  EXPECT_EQ(e[2].code(), 0);
  EXPECT_EQ(hub_.stats().agents, 0u);
  EXPECT_EQ(hub_.stats().memory_bytes, 0u);
}

TEST_F(WatchHubTest, BadRequestsAreAnsweredAndChangeNothing) {
  Register(Room());
  struct Case {
    const char* name;
    std::function<v1::WatchRequest()> make;
    int code;
    const char* field;
  };
  const Case cases[] = {
      {"unknown agent move", [&] { return Simple(5, v1::WATCH_ACTION_MOVE); },
       5, "agent_id"},
      {"unknown agent remove",
       [&] { return Simple(5, v1::WATCH_ACTION_REMOVE); }, 5, "agent_id"},
      {"no action", [&] { return Simple(5, v1::WATCH_ACTION_UNSPECIFIED); },
       3, "action"},
      {"unknown map",
       [&] {
         v1::WatchRequest r = Add(5, {0, 0}, {9, 0});
         r.mutable_path()->set_map_id("nope");
         return r;
       },
       5, "path.map_id"},
      {"blocked start", [&] { return Add(5, {4, 1}, {9, 0}); }, 3,
       "path.start"},
      {"trace", [&] {
         v1::WatchRequest r = Add(5, {0, 0}, {9, 0});
         r.mutable_path()->set_trace(true);
         return r;
       },
       3, "path.trace"},
      {"cheaper fraction", [&] { return Add(5, {0, 0}, {9, 0}, 1.0); }, 3,
       "replan_if_cheaper"},
  };
  size_t n = 0;
  for (const Case& c : cases) {
    SCOPED_TRACE(c.name);
    HandleRequest(hub_, sink_, c.make());
    std::vector<v1::WatchEvent> e = sink_->WaitFor(++n);
    ASSERT_EQ(e.size(), n);
    EXPECT_EQ(e.back().code(), c.code) << e.back().message();
    EXPECT_NE(e.back().message().find(c.field), std::string::npos)
        << e.back().message();
    EXPECT_EQ(hub_.stats().agents, 0u);
  }
}

TEST_F(WatchHubTest, StreamLimitOnAgents) {
  Register(Room());
  WatchOptions options;
  options.max_agents_per_stream = 2;
  Metrics metrics;
  WatchHub hub(&registry_, &search_, &metrics, options);
  for (uint64_t a = 1; a <= 3; ++a)
    HandleRequest(hub, sink_, Add(a, {0, 0}, {9, 0}));
  std::vector<v1::WatchEvent> e = sink_->WaitFor(3);
  int exhausted = 0;
  for (const auto& ev : e) exhausted += ev.code() == 8;
  EXPECT_EQ(exhausted, 1);
  search_.Shutdown();  // This hub goes first.
}

TEST_F(WatchHubTest, OpeningAShortcutPushesACheaperPath) {
  Register(Room());
  HandleRequest(hub_, sink_, Add(1, {3, 1}, {5, 1}, /*cheaper=*/0.2));
  std::vector<v1::WatchEvent> e = sink_->WaitFor(1);
  EXPECT_NEAR(e[0].path().cost(), 4, 1e-9);  // Over the wall's top.
  WaitIdle();
  Block({4, 1}, 1);  // Opens the wall next to the agent.
  EXPECT_EQ(Searches(v1::WATCH_REASON_CHEAPER), 1u);
  e = sink_->WaitFor(2);
  EXPECT_EQ(e[1].reason(), v1::WATCH_REASON_CHEAPER);
  EXPECT_NEAR(e[1].path().cost(), 2, 1e-9);
  // Without the option nobody is told.
  HandleRequest(hub_, sink_, Add(2, {3, 2}, {5, 2}));
  sink_->WaitFor(3);
  WaitIdle();
  Block({4, 2}, 1);
  EXPECT_EQ(Searches(v1::WATCH_REASON_CHEAPER), 1u);
}

TEST_F(WatchHubTest, AnAgentWithoutAPathHearsWhenItHasOne) {
  Register(testing::Draw({
      "...#...",
      "...#...",
      "...#...",
  }));
  HandleRequest(hub_, sink_, Add(1, {0, 0}, {6, 0}));
  std::vector<v1::WatchEvent> e = sink_->WaitFor(1);
  EXPECT_EQ(e[0].code(), 9) << e[0].message();  // FAILED_PRECONDITION.
  WaitIdle();
  Block({3, 2}, 1);
  e = sink_->WaitFor(2);
  EXPECT_EQ(e[1].reason(), v1::WATCH_REASON_REACHABLE);
  EXPECT_EQ(e[1].code(), 0);
}

TEST_F(WatchHubTest, ProgressiveAnswersComeTwice) {
  GridMap big = testing::Draw(std::vector<std::string>(60, std::string(60, '.')));
  Register(std::move(big));
  HandleRequest(hub_, sink_, Add(1, {0, 0}, {59, 59}, 0, /*progressive=*/5));
  std::vector<v1::WatchEvent> e = sink_->WaitFor(2);
  ASSERT_EQ(e.size(), 2u);
  EXPECT_TRUE(e[0].path().partial());
  EXPECT_EQ(e[0].request_id(), e[1].request_id());
  EXPECT_FALSE(e[1].path().partial());
  EXPECT_NEAR(e[1].path().cost(), 59 * std::sqrt(2.0), 1e-6);
}

TEST_F(WatchHubTest, DeletingTheMapDropsItsAgents) {
  Register(Room());
  HandleRequest(hub_, sink_, Add(1, {0, 0}, {9, 0}));
  sink_->WaitFor(1);
  WaitIdle();
  ASSERT_OK(registry_.Delete("m"));
  hub_.MapDeleted("m");
  std::vector<v1::WatchEvent> e = sink_->WaitFor(2);
  EXPECT_EQ(e[1].reason(), v1::WATCH_REASON_MAP_DELETED);
  EXPECT_EQ(e[1].code(), 5);
  EXPECT_EQ(hub_.stats().agents, 0u);
}

TEST_F(WatchHubTest, ARefusingSinkDropsItsStream) {
  Register(Room());
  HandleRequest(hub_, sink_, Add(1, {0, 0}, {9, 0}));
  sink_->WaitFor(1);
  WaitIdle();
  sink_->Refuse();
  Block({4, 0});
  sink_->WaitFor(2);
  WaitIdle();
  EXPECT_EQ(hub_.stats().agents, 0u);
  EXPECT_EQ(hub_.stats().streams, 0u);
}

// Agents blocked again and again near them on long paths get D* Lite
// repairs (WatchHub's "Incremental replans"); every pushed path, repaired or
// fresh, costs exactly what a fresh optimal search finds on that version.
TEST_F(WatchHubTest, RepeatedlyBlockedAgentsAreRepairedOptimally) {
  int repaired = 0;
  for (uint32_t seed = 1; seed <= 4; ++seed) {
    SCOPED_TRACE(absl::StrCat("seed ", seed));
    testing::RandomMapSpec spec;
    spec.width = 260;
    spec.height = 40;
    spec.blocked = 0.08;
    spec.max_cost = seed % 2 == 0 ? 1 : 3;
    Register(testing::MakeRandomMap(spec, seed));
    auto sink = std::make_shared<RecordingSink>();
    std::mt19937 rng(seed);
    // Agents from the west edge to the east edge.
    auto passable_in_column = [&](int32_t x) {
      while (true) {
        const Cell c{x, static_cast<int32_t>(rng() % spec.height)};
        if (Map().Passable(c)) return c;
      }
    };
    const int kAgents = 4;
    int added = 0;
    for (int a = 1; a <= kAgents; ++a) {
      const Cell s = passable_in_column(static_cast<int32_t>(rng() % 5));
      const Cell g = passable_in_column(spec.width - 1 - rng() % 5);
      if (!Map().Connected(s, g)) continue;
      HandleRequest(hub_, sink, Add(a, s, g));
      ++added;
    }
    sink->WaitFor(added);
    WaitIdle();
    std::map<uint64_t, std::vector<Cell>> paths;
    size_t seen = 0;
    SearchContext context;
    auto absorb_and_check = [&]() {
      std::vector<v1::WatchEvent> e = sink->events();
      for (; seen < e.size(); ++seen) {
        const v1::WatchEvent& ev = e[seen];
        if (ev.code() != 0) {
          paths.erase(ev.agent_id());
          continue;
        }
        if (ev.path().cells_size() == 0) continue;
        const std::vector<Cell> cells = convert::UnpackCells(ev.path().cells());
        paths[ev.agent_id()] = cells;
        if (ev.path().map_version() != registry_.Find("m")->version) continue;
        PathQuery q;
        q.start = cells.front();
        q.goal = cells.back();
        absl::StatusOr<PathResult> want = FindPath(Map(), q, context);
        ASSERT_OK(want);
        EXPECT_NEAR(ev.path().cost(), want->cost, 1e-6)
            << (ev.incremental() ? "repaired" : "fresh");
        EXPECT_NEAR(PathCost(Map(), cells, DiagonalPolicy::kNoCornerCutting),
                    want->cost, 1e-6);
        repaired += ev.incremental();
      }
    };
    absorb_and_check();
    for (int step = 0; step < 24 && !paths.empty(); ++step) {
      SCOPED_TRACE(absl::StrCat("step ", step));
      // Block a cell a few steps ahead of some agent (its start: agents do
      // not move here).
      auto it = std::next(paths.begin(), rng() % paths.size());
      const std::vector<Cell>& p = it->second;
      if (p.size() < 20) continue;
      Block(p[5 + rng() % 10]);
      WaitIdle();
      absorb_and_check();
    }
    hub_.DropStream(sink.get());
    EXPECT_EQ(hub_.stats().dstar_bytes, 0u);
  }
  EXPECT_GT(repaired, 5);
  EXPECT_EQ(hub_.stats().incremental, static_cast<uint64_t>(repaired));
}

// Random maps, agents and one-cell changes: after every change, (1) the
// agents the hub found crossing are exactly those whose remaining path
// depends on the changed cell, (2) it replanned (BLOCKED) exactly those
// whose remaining path became illegal, and (3) once idle, every agent's
// latest path is legal on the newest version.
TEST_F(WatchHubTest, RandomChangesReplanExactlyTheBrokenPaths) {
  for (uint32_t seed = 1; seed <= 6; ++seed) {
    SCOPED_TRACE(absl::StrCat("seed ", seed));
    testing::RandomMapSpec spec;
    spec.width = 70;
    spec.height = 50;
    spec.blocked = 0.15;
    spec.max_cost = seed % 2 == 0 ? 4 : 1;
    Register(testing::MakeRandomMap(spec, seed));
    auto sink = std::make_shared<RecordingSink>();
    std::mt19937 rng(seed);
    auto random_passable = [&]() {
      while (true) {
        Cell c{static_cast<int32_t>(rng() % spec.width),
               static_cast<int32_t>(rng() % spec.height)};
        if (Map().Passable(c)) return c;
      }
    };
    const int kAgents = 40;
    for (int a = 1; a <= kAgents; ++a) {
      HandleRequest(hub_, sink, Add(a, random_passable(), random_passable()));
    }
    sink->WaitFor(kAgents);
    WaitIdle();
    // The latest path of each agent, from the events.
    std::map<uint64_t, std::vector<Cell>> paths;
    size_t seen = 0;
    auto absorb = [&]() {
      std::vector<v1::WatchEvent> e = sink->events();
      for (; seen < e.size(); ++seen) {
        const v1::WatchEvent& ev = e[seen];
        if (ev.code() != 0) {
          paths.erase(ev.agent_id());
        } else if (ev.path().cells_size() > 0 && !ev.path().partial()) {
          paths[ev.agent_id()] = convert::UnpackCells(ev.path().cells());
        }
      }
    };
    absorb();
    for (int step = 0; step < 30; ++step) {
      SCOPED_TRACE(absl::StrCat("step ", step));
      // Mostly cells on some agent's path.
      Cell c = random_passable();
      if (!paths.empty() && rng() % 4 != 0) {
        auto it = std::next(paths.begin(), rng() % paths.size());
        c = it->second[rng() % it->second.size()];
      }
      const uint8_t cost = rng() % 3 == 0 ? 1 + rng() % 4 : 0;
      // Brute force: crossing and broken agents on the map after.
      std::vector<uint8_t> costs = Map().CopyCosts();
      costs[size_t(c.y) * spec.width + c.x] = cost;
      GridMap after = *GridMap::FromCosts(spec.width, spec.height, costs);
      uint64_t crossing = 0, broken = 0;
      for (const auto& [agent, cells] : paths) {
        const AgentPath path(cells);
        bool touches = false;
        path.ForEachTouchedCell(0, [&](Cell t) { touches |= t == c; });
        crossing += touches;
        broken += touches && PathCost(after, cells,
                                      DiagonalPolicy::kNoCornerCutting) < 0;
      }
      const WatchHub::Stats before = hub_.stats();
      const size_t events_before = sink->events().size();
      Block(c, cost);
      const WatchHub::Stats now = hub_.stats();
      // An agent whose own cell or goal was blocked cannot be searched for:
      // it is told at once (INVALID_ARGUMENT naming the end), not replanned.
      // (A search's own answer is never INVALID_ARGUMENT: its ends were
      // checked on the version it runs on.)
      uint64_t told = 0;
      const std::vector<v1::WatchEvent> e = sink->events();
      for (size_t i = events_before; i < e.size(); ++i) {
        told += e[i].reason() == v1::WATCH_REASON_BLOCKED && e[i].code() == 3;
      }
      EXPECT_EQ(now.crossing - before.crossing, crossing);
      EXPECT_EQ(now.searches[v1::WATCH_REASON_BLOCKED] -
                    before.searches[v1::WATCH_REASON_BLOCKED] + told,
                broken);
      WaitIdle();
      absorb();
      for (const auto& [agent, cells] : paths) {
        EXPECT_GE(PathCost(Map(), cells, DiagonalPolicy::kNoCornerCutting), 0)
            << "agent " << agent << " left on a broken path";
      }
    }
    hub_.DropStream(sink.get());
    EXPECT_EQ(hub_.stats().agents, 0u);
  }
}

}  // namespace
}  // namespace gridstar::server
