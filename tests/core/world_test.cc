// Worlds of linked maps (world.h): FindWorldPath against Dijkstra over the
// union of every map's cells and the links (WorldDijkstraCost), on seeded
// random worlds, under every policy, every exact algorithm and several
// agent classes, after every step of random sequences of link toggles, cell
// updates and map replacements; each edge case a test of its own.

#include "gridstar/world.h"

#include <cmath>
#include <limits>
#include <memory>
#include <random>
#include <string>
#include <utility>
#include <vector>

#include "absl/strings/str_cat.h"
#include "gridstar/agents.h"
#include "gridstar/map_update.h"
#include "gridstar/move_cost.h"
#include "gtest/gtest.h"
#include "testing/reference.h"
#include "testing/status_matchers.h"

namespace gridstar {
namespace {

using ::gridstar::testing::MakeRandomMap;
using ::gridstar::testing::RandomMapSpec;
using ::gridstar::testing::StatusIs;

constexpr double kInfinity = std::numeric_limits<double>::infinity();

absl::StatusOr<GridMap> Updated(const GridMap& map,
                                const std::vector<CellChange>& changes) {
  ChangeSummary summary;
  return ApplyChanges(map, changes, &summary);
}

// A world as a test holds it: base maps and areas, the links.
struct TestWorld {
  std::vector<GridMap> maps;
  std::vector<std::vector<uint8_t>> areas;
  std::vector<WorldLink> links;
};

Cell RandomPassable(const GridMap& map, std::mt19937& rng) {
  for (int tries = 0; tries < 1000; ++tries) {
    const Cell c{static_cast<int32_t>(rng() % map.width()),
                 static_cast<int32_t>(rng() % map.height())};
    if (map.Passable(c)) return c;
  }
  return Cell{-1, -1};
}

WorldLink RandomLink(const TestWorld& w, std::mt19937& rng) {
  WorldLink link;
  const int n = static_cast<int>(w.maps.size());
  link.from.map = static_cast<int32_t>(rng() % n);
  // One link in five is a teleporter within its map.
  link.to.map =
      rng() % 5 == 0 ? link.from.map : static_cast<int32_t>(rng() % n);
  link.from.cell = RandomPassable(w.maps[link.from.map], rng);
  link.to.cell = RandomPassable(w.maps[link.to.map], rng);
  const int kind = static_cast<int>(rng() % 10);
  link.cost =
      kind == 0 ? 0 : static_cast<double>(rng() % 20) + (rng() % 2) * 0.5;
  link.both_ways = rng() % 4 != 0;
  link.open = rng() % 6 != 0;
  if (rng() % 6 == 0) link.areas = uint64_t{1} << (rng() % 4);
  if (rng() % 6 == 0) link.max_agent_size = 1 + static_cast<int32_t>(rng() % 2);
  return link;
}

TestWorld RandomWorld(uint32_t seed) {
  std::mt19937 rng(seed);
  TestWorld w;
  const int maps = 2 + static_cast<int>(rng() % 11);  // 2..12.
  const bool terrain = rng() % 2 == 0;
  for (int m = 0; m < maps; ++m) {
    RandomMapSpec spec;
    spec.width = 6 + static_cast<int>(rng() % 14);
    spec.height = 6 + static_cast<int>(rng() % 14);
    spec.blocked = 0.1 + 0.25 * (rng() % 100) / 100.0;
    spec.max_cost = terrain ? 5 : 1;
    w.maps.push_back(MakeRandomMap(spec, rng()));
    std::vector<uint8_t> areas(static_cast<size_t>(spec.width) * spec.height);
    for (uint8_t& a : areas)
      a = rng() % 5 == 0 ? static_cast<uint8_t>(rng() % 4) : 0;
    w.areas.push_back(std::move(areas));
  }
  const int links = 1 + static_cast<int>(rng() % 40);
  for (int i = 0; i < links; ++i) {
    WorldLink link = RandomLink(w, rng);
    if (link.from.cell.x >= 0 && link.to.cell.x >= 0) w.links.push_back(link);
  }
  return w;
}

// The agent classes every world is searched for.
std::vector<std::pair<std::string, AgentClass>> AgentClasses() {
  std::vector<std::pair<std::string, AgentClass>> classes;
  classes.push_back({"plain", AgentClass()});
  AgentClass wide;
  wide.size = 2;
  classes.push_back({"size-2", wide});
  AgentClass walker;
  walker.areas = 0b0011;  // Not water (2) or trees (3).
  walker.area_costs[1] = 3;
  classes.push_back({"walker", walker});
  return classes;
}

// The maps as `agent` sees them, tables for `tabled` of them (fresh) and
// stale ones (built from an earlier version) where given.
struct Views {
  std::vector<GridMap> agent_maps;
  std::vector<std::shared_ptr<const LinkEndTable>> tables;
  std::vector<WorldMapView> views;
};

std::vector<Cell> EndsOn(const TestWorld& w, int m) {
  std::vector<Cell> ends;
  for (const WorldLink& link : w.links) {
    if (link.from.map == m) ends.push_back(link.from.cell);
    if (link.to.map == m) ends.push_back(link.to.cell);
  }
  return ends;
}

Views MakeViews(const TestWorld& w, const AgentClass& agent,
                DiagonalPolicy policy, uint32_t tabled_mask) {
  Views v;
  for (size_t m = 0; m < w.maps.size(); ++m) {
    absl::StatusOr<GridMap> agent_map =
        BuildAgentMap(w.maps[m], w.areas[m], agent);
    v.agent_maps.push_back(agent_map.ok() ? *agent_map : w.maps[m]);
  }
  for (size_t m = 0; m < w.maps.size(); ++m) {
    v.tables.push_back(((tabled_mask >> m) & 1) != 0
                           ? LinkEndTable::Build(v.agent_maps[m], policy,
                                                 EndsOn(w, static_cast<int>(m)))
                           : nullptr);
    v.views.push_back(WorldMapView{&v.agent_maps[m], v.tables[m].get()});
  }
  return v;
}

// Checks a world answer against the world: legs legal on their maps, joined
// by usable links in their directions, costs summing up.
std::string CheckWorldPath(const TestWorld& w, const Views& v,
                           const WorldQuery& q, const WorldResult& r) {
  if (r.legs.size() != r.links.size() + 1) return "legs and links disagree";
  double total = 0;
  for (size_t i = 0; i < r.legs.size(); ++i) {
    const WorldLeg& leg = r.legs[i];
    const GridMap& map = v.agent_maps[leg.map];
    const double cost = PathCost(map, leg.path.cells, q.leg.movement.diagonal);
    if (cost < 0) return absl::StrCat("leg ", i, " has an illegal move");
    if (std::fabs(cost - leg.path.cost) > 1e-9 * (1 + cost)) {
      return absl::StrCat("leg ", i, " says ", leg.path.cost, ", moves sum to ",
                          cost);
    }
    total += cost;
    const WorldCell first{leg.map, leg.path.cells.front()};
    const WorldCell last{leg.map, leg.path.cells.back()};
    if (i == 0 && first != q.start) return "the first leg leaves elsewhere";
    if (i + 1 == r.legs.size() && !r.partial && last != q.goal) {
      return "the last leg ends elsewhere";
    }
    if (i + 1 < r.legs.size()) {
      const WorldLink& link = w.links[r.links[i]];
      if (!LinkAdmits(link, q.agent)) return "a link the agent may not use";
      const WorldCell next{r.legs[i + 1].map, r.legs[i + 1].path.cells.front()};
      const bool forward = last == link.from && next == link.to;
      const bool backward =
          link.both_ways && last == link.to && next == link.from;
      if (!forward && !backward)
        return absl::StrCat("link ", i, " not followed");
      total += link.cost;
    }
  }
  if (std::fabs(total - r.cost) > 1e-9 * (1 + total)) {
    return absl::StrCat("says ", r.cost, ", adds up to ", total);
  }
  return "";
}

constexpr Algorithm kExactAlgorithms[] = {
    Algorithm::kAStar,   Algorithm::kDijkstra, Algorithm::kJps,
    Algorithm::kJpsPlus, Algorithm::kAuto,     Algorithm::kBidirectional,
    Algorithm::kAlt,     Algorithm::kSubgoal,  Algorithm::kBaseline};

// Answers that came through an index with all pairs, across the tests.
int all_pairs_answers = 0;

// Queries between random cells of random maps; each answer equal to the
// reference's. Returns the number of answers with a path.
int CheckQueries(const TestWorld& w, const Views& v, const AgentClass& agent,
                 DiagonalPolicy policy, Algorithm algorithm, int queries,
                 std::mt19937& rng, SearchContext& context) {
  int found = 0;
  for (int i = 0; i < queries; ++i) {
    WorldQuery q;
    q.agent = agent;
    q.leg.algorithm = algorithm;
    q.leg.movement.diagonal = AgentPolicy(policy, agent.size);
    q.start.map = static_cast<int32_t>(rng() % w.maps.size());
    q.goal.map = static_cast<int32_t>(rng() % w.maps.size());
    q.start.cell = RandomPassable(v.agent_maps[q.start.map], rng);
    q.goal.cell = RandomPassable(v.agent_maps[q.goal.map], rng);
    if (q.start.cell.x < 0 || q.goal.cell.x < 0) continue;
    SCOPED_TRACE(absl::StrCat("query ", i, ": map ", q.start.map, " (",
                              q.start.cell.x, ", ", q.start.cell.y, ") -> map ",
                              q.goal.map, " (", q.goal.cell.x, ", ",
                              q.goal.cell.y, ")"));
    const double expected = WorldDijkstraCost(v.views, w.links, q);
    // Each query both ways: on an index built for it alone, and on one
    // index with all pairs (when every map's table is fresh) for them all.
    absl::StatusOr<std::shared_ptr<const WorldIndex>> shared =
        WorldIndex::Build(v.views, w.links, agent, q.leg.movement.diagonal,
                          true);
    EXPECT_OK(shared.status());
    if (!shared.ok()) continue;
    for (const bool indexed : {false, true}) {
      SCOPED_TRACE(indexed ? (*shared)->all_pairs() ? "all pairs" : "index"
                           : "no index");
      WorldResult r;
      const absl::Status s =
          indexed ? FindWorldPath(**shared, q, context, &r)
                  : FindWorldPath(v.views, w.links, q, context, &r);
      if (expected == kInfinity) {
        EXPECT_TRUE(StatusIs(s, absl::StatusCode::kNotFound, ""));
        EXPECT_EQ(r.searches, 0u) << "no path is decided without searching";
        continue;
      }
      EXPECT_OK(s);
      if (!s.ok()) continue;
      EXPECT_NEAR(r.cost, expected, 1e-9 * (1 + expected));
      EXPECT_EQ(CheckWorldPath(w, v, q, r), "");
      if (indexed && (*shared)->all_pairs()) ++all_pairs_answers;
      ++found;
    }
  }
  return found;
}

TEST(WorldTest, RandomWorldsEqualUnionDijkstra) {
  SearchContext context;
  int found = 0;
  for (uint32_t seed = 1; seed <= 24; ++seed) {
    const TestWorld w = RandomWorld(seed);
    std::mt19937 rng(seed * 7919);
    for (const auto& [name, agent] : AgentClasses()) {
      for (DiagonalPolicy policy : kAllDiagonalPolicies) {
        SCOPED_TRACE(absl::StrCat("seed ", seed, ", ", w.maps.size(), " maps, ",
                                  w.links.size(), " links, ", name, ", ",
                                  DiagonalPolicyName(policy)));
        // Tables on a random half of the maps, or (every other seed) on
        // all of them, where an index keeps all pairs.
        const Views v =
            MakeViews(w, agent, AgentPolicy(policy, agent.size),
                      seed % 2 ? ~0u : static_cast<uint32_t>(rng()));
        for (Algorithm algorithm : kExactAlgorithms) {
          SCOPED_TRACE(AlgorithmName(algorithm));
          found +=
              CheckQueries(w, v, agent, policy, algorithm, 3, rng, context);
        }
      }
    }
  }
  // The worlds must exercise paths, not only "no path", and all pairs.
  EXPECT_GT(found, 1000);
  EXPECT_GT(all_pairs_answers, 200);
}

// After every step of a random sequence of link toggles, cell updates and
// map replacements the answers equal the reference's; the tables are those
// of the first version (stale after a change, so never read) or rebuilt.
TEST(WorldTest, RandomUpdateSequencesStayExact) {
  SearchContext context;
  for (uint32_t seed = 100; seed < 112; ++seed) {
    TestWorld w = RandomWorld(seed);
    std::mt19937 rng(seed);
    const AgentClass agent;
    const DiagonalPolicy policy = kAllDiagonalPolicies[seed % 3];
    std::vector<std::shared_ptr<const LinkEndTable>> first_tables;
    for (size_t m = 0; m < w.maps.size(); ++m) {
      first_tables.push_back(LinkEndTable::Build(
          w.maps[m], policy, EndsOn(w, static_cast<int>(m))));
    }
    for (int step = 0; step < 30; ++step) {
      SCOPED_TRACE(absl::StrCat("seed ", seed, " step ", step));
      const int kind = static_cast<int>(rng() % 4);
      if (kind == 0 && !w.links.empty()) {
        WorldLink& link = w.links[rng() % w.links.size()];
        link.open = !link.open;
        if (rng() % 2) link.cost = static_cast<double>(rng() % 12);
      } else if (kind == 1 || kind == 2) {
        const int m = static_cast<int>(rng() % w.maps.size());
        const GridMap& map = w.maps[m];
        std::vector<CellChange> changes;
        for (int k = 0; k < 1 + static_cast<int>(rng() % 4); ++k) {
          CellChange c;
          c.min = Cell{static_cast<int32_t>(rng() % map.width()),
                       static_cast<int32_t>(rng() % map.height())};
          c.max = Cell{std::min(map.width(),
                                c.min.x + 1 + static_cast<int32_t>(rng() % 3)),
                       std::min(map.height(),
                                c.min.y + 1 + static_cast<int32_t>(rng() % 3))};
          c.cost = rng() % 3 == 0 ? 0 : static_cast<uint8_t>(1 + rng() % 3);
          changes.push_back(c);
        }
        absl::StatusOr<GridMap> next = Updated(map, changes);
        ASSERT_OK(next.status());
        w.maps[m] = *next;
      } else {
        const int m = static_cast<int>(rng() % w.maps.size());
        RandomMapSpec spec;
        spec.width = w.maps[m].width();
        spec.height = w.maps[m].height();
        spec.blocked = 0.2;
        w.maps[m] = MakeRandomMap(spec, rng());
      }
      // Views: the first version's tables where they still apply (they are
      // never read once stale), fresh ones on a random half.
      Views v;
      v.agent_maps = w.maps;
      const uint32_t fresh = static_cast<uint32_t>(rng());
      for (size_t m = 0; m < w.maps.size(); ++m) {
        v.tables.push_back(
            ((fresh >> m) & 1)
                ? LinkEndTable::Build(w.maps[m], policy,
                                      EndsOn(w, static_cast<int>(m)))
                : first_tables[m]);
      }
      for (size_t m = 0; m < w.maps.size(); ++m) {
        v.views.push_back(WorldMapView{&v.agent_maps[m], v.tables[m].get()});
      }
      CheckQueries(w, v, agent, policy,
                   kExactAlgorithms[rng() % std::size(kExactAlgorithms)], 4,
                   rng, context);
    }
  }
}

// A small world of two 8 x 8 open rooms, for the edge cases.
TestWorld TwoRooms() {
  TestWorld w;
  for (int m = 0; m < 2; ++m) {
    std::vector<uint8_t> costs(64, 1);
    w.maps.push_back(*GridMap::FromCosts(8, 8, costs));
    w.areas.push_back(std::vector<uint8_t>(64, 0));
  }
  return w;
}

WorldQuery Query(WorldCell start, WorldCell goal) {
  WorldQuery q;
  q.start = start;
  q.goal = goal;
  q.leg.algorithm = Algorithm::kAStar;
  return q;
}

absl::StatusOr<WorldResult> Find(const TestWorld& w, const WorldQuery& q) {
  SearchContext context;
  const Views v = MakeViews(w, q.agent, q.leg.movement.diagonal, 0);
  WorldResult r;
  absl::Status s = FindWorldPath(v.views, w.links, q, context, &r);
  if (!s.ok()) return s;
  return r;
}

TEST(WorldTest, StairsJoinTwoMaps) {
  TestWorld w = TwoRooms();
  w.links.push_back(WorldLink{{0, {7, 7}}, {1, {0, 0}}, 2});
  absl::StatusOr<WorldResult> r = Find(w, Query({0, {0, 7}}, {1, {0, 3}}));
  ASSERT_OK(r.status());
  ASSERT_EQ(r->legs.size(), 2u);
  EXPECT_EQ(r->links, std::vector<int32_t>{0});
  EXPECT_DOUBLE_EQ(r->cost, 7 + 2 + 3);
  EXPECT_EQ(r->legs[1].map, 1);
}

TEST(WorldTest, StartIsGoal) {
  TestWorld w = TwoRooms();
  absl::StatusOr<WorldResult> r = Find(w, Query({1, {3, 3}}, {1, {3, 3}}));
  ASSERT_OK(r.status());
  ASSERT_EQ(r->legs.size(), 1u);
  EXPECT_EQ(r->legs[0].path.cells.size(), 1u);
  EXPECT_EQ(r->cost, 0);
}

TEST(WorldTest, TeleporterInsideOneMapIsTakenWhenCheaper) {
  TestWorld w = TwoRooms();
  w.links.push_back(WorldLink{{0, {0, 0}}, {0, {7, 7}}, 1});
  absl::StatusOr<WorldResult> r = Find(w, Query({0, {0, 1}}, {0, {7, 6}}));
  ASSERT_OK(r.status());
  EXPECT_EQ(r->links, std::vector<int32_t>{0});
  EXPECT_DOUBLE_EQ(r->cost, 1 + 1 + 1);
}

TEST(WorldTest, OneWayDropIsNotClimbed) {
  TestWorld w = TwoRooms();
  w.links.push_back(
      WorldLink{{0, {4, 4}}, {1, {4, 4}}, 0, /*both_ways=*/false});
  ASSERT_OK(Find(w, Query({0, {0, 0}}, {1, {0, 0}})).status());
  EXPECT_TRUE(StatusIs(Find(w, Query({1, {0, 0}}, {0, {0, 0}})).status(),
                       absl::StatusCode::kNotFound, ""));
}

TEST(WorldTest, ClosedDoorMeansNoPathWithoutSearching) {
  TestWorld w = TwoRooms();
  w.links.push_back(WorldLink{{0, {4, 4}}, {1, {4, 4}}, 1});
  w.links[0].open = false;
  SearchContext context;
  const WorldQuery q = Query({0, {0, 0}}, {1, {0, 0}});
  const Views v = MakeViews(w, q.agent, q.leg.movement.diagonal, 0);
  WorldResult r;
  EXPECT_TRUE(StatusIs(FindWorldPath(v.views, w.links, q, context, &r),
                       absl::StatusCode::kNotFound, ""));
  EXPECT_EQ(r.searches, 0u);
}

TEST(WorldTest, ZeroCostZoneEdge) {
  TestWorld w = TwoRooms();
  w.links.push_back(WorldLink{{0, {7, 3}}, {1, {0, 3}}, 0});
  absl::StatusOr<WorldResult> r = Find(w, Query({0, {5, 3}}, {1, {2, 3}}));
  ASSERT_OK(r.status());
  EXPECT_DOUBLE_EQ(r->cost, 4);
}

TEST(WorldTest, LinkTooNarrowForALargeAgent) {
  TestWorld w = TwoRooms();
  w.links.push_back(WorldLink{{0, {2, 2}}, {1, {2, 2}}, 1});
  w.links[0].max_agent_size = 1;
  WorldQuery q = Query({0, {0, 0}}, {1, {0, 0}});
  ASSERT_OK(Find(w, q).status());
  q.agent.size = 2;
  EXPECT_TRUE(StatusIs(Find(w, q).status(), absl::StatusCode::kNotFound, ""));
}

TEST(WorldTest, LinkLimitedToAreasTheAgentMayNotEnter) {
  TestWorld w = TwoRooms();
  w.links.push_back(WorldLink{{0, {2, 2}}, {1, {2, 2}}, 1});
  w.links[0].areas = uint64_t{1} << kWaterArea;  // A ferry.
  WorldQuery q = Query({0, {0, 0}}, {1, {0, 0}});
  q.agent.areas = uint64_t{1} << kGroundArea;
  EXPECT_TRUE(StatusIs(Find(w, q).status(), absl::StatusCode::kNotFound, ""));
  q.agent.areas |= uint64_t{1} << kWaterArea;
  ASSERT_OK(Find(w, q).status());
}

TEST(WorldTest, BlockedLinkEndIsNotUsed) {
  TestWorld w = TwoRooms();
  w.links.push_back(WorldLink{{0, {2, 2}}, {1, {2, 2}}, 1});
  w.maps[1] = *Updated(w.maps[1], {CellChange{{2, 2}, {3, 3}, 0}});
  EXPECT_TRUE(StatusIs(Find(w, Query({0, {0, 0}}, {1, {0, 0}})).status(),
                       absl::StatusCode::kNotFound, ""));
}

// A table built from an earlier version says the wrong thing about the
// current one; it must not be read.
TEST(WorldTest, StaleTableIsNeverRead) {
  TestWorld w = TwoRooms();
  w.links.push_back(WorldLink{{0, {0, 0}}, {1, {0, 0}}, 0});
  w.links.push_back(WorldLink{{1, {7, 0}}, {0, {7, 7}}, 0});
  std::shared_ptr<const LinkEndTable> old = LinkEndTable::Build(
      w.maps[1], DiagonalPolicy::kNoCornerCutting, {{0, 0}, {7, 0}});
  // A wall across map 1 between the two ends, with a gap at the bottom.
  w.maps[1] = *Updated(w.maps[1], {CellChange{{3, 0}, {4, 7}, 0}});
  const WorldMapView views[] = {{&w.maps[0], nullptr}, {&w.maps[1], old.get()}};
  // Through map 1 the old table says 7 (1 + 0 + 7 + 0 = 8 in all), less
  // than the 9.49 of the way across map 0; with the wall it is far more.
  const WorldQuery q = Query({0, {0, 1}}, {0, {7, 7}});
  SearchContext context;
  WorldResult r;
  ASSERT_OK(FindWorldPath(views, w.links, q, context, &r));
  EXPECT_NEAR(r.cost, WorldDijkstraCost(views, w.links, q), 1e-9);
  EXPECT_NEAR(r.cost, 7 + 6 * (std::sqrt(2) - 1), 1e-9);
}

TEST(WorldTest, FreshTableSavesSearches) {
  TestWorld w = TwoRooms();
  w.links.push_back(WorldLink{{0, {7, 7}}, {1, {0, 0}}, 1});
  w.links.push_back(WorldLink{{1, {7, 7}}, {0, {0, 7}}, 1});
  const WorldQuery q = Query({0, {0, 0}}, {0, {1, 7}});
  // Through map 1 is no shorter here; only the count of searches differs.
  const Views cold = MakeViews(w, q.agent, q.leg.movement.diagonal, 0);
  const Views warm = MakeViews(w, q.agent, q.leg.movement.diagonal, ~0u);
  SearchContext context;
  WorldResult a, b;
  ASSERT_OK(FindWorldPath(cold.views, w.links, q, context, &a));
  ASSERT_OK(FindWorldPath(warm.views, w.links, q, context, &b));
  EXPECT_DOUBLE_EQ(a.cost, b.cost);
  EXPECT_LE(b.searches, a.searches);
}

TEST(WorldTest, BudgetGivesAPartialAnswerFromTheStart) {
  TestWorld w = TwoRooms();
  w.links.push_back(WorldLink{{0, {7, 7}}, {1, {0, 0}}, 1});
  WorldQuery q = Query({0, {0, 0}}, {1, {7, 7}});
  q.leg.budget.max_expansions = 3;
  absl::StatusOr<WorldResult> r = Find(w, q);
  ASSERT_OK(r.status());
  EXPECT_TRUE(r->partial);
  EXPECT_EQ(r->partial_reason, PartialReason::kMaxExpansions);
  ASSERT_FALSE(r->legs.empty());
  EXPECT_EQ(r->legs[0].path.cells.front(), (Cell{0, 0}));
  EXPECT_LE(r->expanded, 3u + 1u);
}

TEST(WorldTest, SmoothingIsPerLeg) {
  TestWorld w = TwoRooms();
  w.links.push_back(WorldLink{{0, {7, 7}}, {1, {0, 0}}, 1});
  WorldQuery q = Query({0, {0, 0}}, {1, {7, 2}});
  q.leg.smooth = true;
  absl::StatusOr<WorldResult> r = Find(w, q);
  ASSERT_OK(r.status());
  ASSERT_EQ(r->legs.size(), 2u);
  for (const WorldLeg& leg : r->legs) {
    ASSERT_GE(leg.path.waypoints.size(), 2u);
    EXPECT_EQ(leg.path.waypoints.front(), leg.path.cells.front());
    EXPECT_EQ(leg.path.waypoints.back(), leg.path.cells.back());
    EXPECT_LE(leg.path.smoothed_cost, leg.path.cost + 1e-9);
  }
}

struct BadInput {
  std::string name;
  WorldLink link;
  std::string message;
};

TEST(WorldTest, LinksAreValidatedNamingTheField) {
  const TestWorld w = TwoRooms();
  GridMap walled = *Updated(w.maps[1], {CellChange{{1, 1}, {2, 2}, 0}});
  const GridMap* maps[] = {&w.maps[0], &walled};
  const std::vector<BadInput> cases = {
      {"map out of range", WorldLink{{2, {0, 0}}, {1, {0, 0}}, 1},
       "links[0].from.map: 2 is not one of the 2 maps"},
      {"off the map", WorldLink{{0, {0, 0}}, {1, {8, 0}}, 1},
       "links[0].to: (8, 0) is outside the 8 x 8 map (map 1)"},
      {"blocked end", WorldLink{{0, {0, 0}}, {1, {1, 1}}, 1},
       "links[0].to: (1, 1) is blocked (map 1)"},
      {"negative cost", WorldLink{{0, {0, 0}}, {1, {0, 0}}, -1},
       "links[0].cost: -1 is outside"},
      {"infinite cost",
       WorldLink{
           {0, {0, 0}}, {1, {0, 0}}, std::numeric_limits<double>::infinity()},
       "links[0].cost: inf is outside"},
      {"NaN cost",
       WorldLink{
           {0, {0, 0}}, {1, {0, 0}}, std::numeric_limits<double>::quiet_NaN()},
       "links[0].cost: nan is outside"},
  };
  for (const BadInput& c : cases) {
    SCOPED_TRACE(c.name);
    const WorldLink links[] = {c.link};
    const absl::Status s = ValidateWorldLinks(maps, links);
    EXPECT_TRUE(StatusIs(s, absl::StatusCode::kInvalidArgument, ""));
    EXPECT_NE(s.message().find(c.message), std::string::npos) << s.message();
  }
  WorldLink no_areas{{0, {0, 0}}, {1, {0, 0}}, 1};
  no_areas.areas = 0;
  WorldLink too_big{{0, {0, 0}}, {1, {0, 0}}, 1};
  too_big.max_agent_size = kMaxAgentSize + 1;
  for (const WorldLink& link : {no_areas, too_big}) {
    const WorldLink links[] = {link};
    EXPECT_TRUE(StatusIs(ValidateWorldLinks(maps, links),
                         absl::StatusCode::kInvalidArgument, ""));
  }
}

TEST(WorldTest, QueriesAreValidatedNamingTheField) {
  const TestWorld w = TwoRooms();
  const WorldMapView views[] = {{&w.maps[0], nullptr}, {&w.maps[1], nullptr}};
  SearchContext context;
  WorldResult r;
  WorldQuery off = Query({0, {0, 0}}, {2, {0, 0}});
  absl::Status s = FindWorldPath(views, {}, off, context, &r);
  EXPECT_TRUE(StatusIs(s, absl::StatusCode::kInvalidArgument, ""));
  EXPECT_NE(s.message().find("goal.map: 2"), std::string::npos) << s.message();
  WorldQuery snap = Query({0, {0, 0}}, {1, {0, 0}});
  snap.leg.snap_radius = 2;
  s = FindWorldPath(views, {}, snap, context, &r);
  EXPECT_TRUE(StatusIs(s, absl::StatusCode::kInvalidArgument, ""));
  EXPECT_NE(s.message().find("snap_radius"), std::string::npos);
  WorldQuery outside = Query({0, {9, 0}}, {1, {0, 0}});
  s = FindWorldPath(views, {}, outside, context, &r);
  EXPECT_NE(s.message().find("start: (9, 0) is outside"), std::string::npos)
      << s.message();
}

}  // namespace
}  // namespace gridstar
