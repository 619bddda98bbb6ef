// The contraction tier (Algorithm::kContraction): optimal against brute
// force Dijkstra on seeded random maps (open, cluttered, dense, mazes, thin,
// uniform cost above 1), over a subgoal graph of its own and over the map's
// shared one; the hierarchy's invariants (every shortcut the sum of the two
// arcs it bypasses, every edge a subgoal graph edge of its octile length, a
// deterministic build); versions after random updates (deferred: the
// fallback answers, optimal and saying so; rebuilt: equal to a fresh build);
// fallbacks, budgets and edge cases by name.
#include "engines/subgoal/contraction.h"

#include <algorithm>
#include <atomic>
#include <cmath>
#include <random>
#include <string>
#include <vector>

#include "absl/strings/match.h"
#include "absl/strings/str_cat.h"
#include "core/subgoal_test_maps.h"
#include "engines/subgoal/subgoal_graph.h"
#include "gridstar/derived_data.h"
#include "gridstar/engines/jps.h"
#include "gridstar/engines/subgoal.h"
#include "gridstar/find_path.h"
#include "gridstar/grid_map.h"
#include "gridstar/map_update.h"
#include "gridstar/search_context.h"
#include "gtest/gtest.h"
#include "search/path_tools.h"
#include "testing/drawn_maps.h"
#include "testing/reference.h"
#include "testing/status_matchers.h"

namespace gridstar {
namespace {

using testing::MakeRandomMap;
using testing::RandomMapSpec;

constexpr DiagonalPolicy kPolicy = DiagonalPolicy::kNoCornerCutting;

// Queries `count` random pairs of `map` through kContraction and checks each
// against brute-force Dijkstra: same cost, a legal path, kContraction ran.
void ExpectOptimal(const GridMap& map, uint32_t seed, int count) {
  SearchContext context;
  std::mt19937 rng(seed * 7919 + 3);
  for (int q = 0; q < count; ++q) {
    const Cell start{static_cast<int32_t>(rng() % map.width()),
                     static_cast<int32_t>(rng() % map.height())};
    const Cell goal{static_cast<int32_t>(rng() % map.width()),
                    static_cast<int32_t>(rng() % map.height())};
    if (!map.Passable(start) || !map.Passable(goal)) continue;
    SCOPED_TRACE(absl::StrCat("(", start.x, ",", start.y, ") -> (", goal.x, ",",
                              goal.y, ")"));
    const std::vector<double> dist =
        testing::ReferenceDistances(map, start, kPolicy);
    const double optimum = testing::Distance(dist, map, goal);
    absl::StatusOr<PathResult> r = FindPath(
        map, testing::Query(start, goal, Algorithm::kContraction, kPolicy),
        context);
    if (optimum == testing::kUnreachable) {
      EXPECT_TRUE(absl::IsNotFound(r.status())) << r.status();
      continue;
    }
    ASSERT_OK(r.status());
    EXPECT_EQ(r->algorithm, Algorithm::kContraction);
    EXPECT_FALSE(r->partial);
    EXPECT_NEAR(r->cost, optimum, 1e-9 * (1 + optimum));
    EXPECT_EQ(testing::CheckPath(map, *r, start, goal, kPolicy, true), "");
  }
}

TEST(ContractionTest, OptimalAgainstBruteForceOnRandomMaps) {
  for (const testing::SubgoalMapCase& m : testing::kSubgoalMaps) {
    for (uint32_t seed = 1; seed <= 8; ++seed) {
      // Odd seeds: over the map's own subgoal graph (shared); even: over
      // one of the hierarchy's own.
      const bool shared = seed % 2 == 1;
      SCOPED_TRACE(absl::StrCat(m.name, " seed ", seed,
                                shared ? " shared graph" : " own graph"));
      GridMap map = MakeRandomMap(m.spec, seed);
      if (shared) {
        ASSERT_OK(BuildSubgoalGraph(&map));
      }
      ASSERT_OK(BuildContraction(&map));
      ExpectOptimal(map, seed, 40);
    }
  }
}

// Rooms joined by doors one or two cells wide: few subgoals, long detours.
TEST(ContractionTest, OptimalOnDrawnRooms) {
  GridMap map = testing::Draw({
      "..........#.........#.......",
      "..........#.........#.......",
      "..........#.........#.......",
      "....#######.........####.###",
      "....#.....................#.",
      "....#.....##########......#.",
      "..........#........#........",
      "##.########........######.##",
      "..........#.........#.......",
      "..........#.........#.......",
      "...................##.......",
  });
  ASSERT_OK(BuildContraction(&map));
  EXPECT_GT(ContractionArcs(map), 0u);
  for (uint32_t seed = 1; seed <= 5; ++seed) ExpectOptimal(map, seed, 60);
}

// Ranks number the subgoals once each, every arc climbs in rank, and the
// coordinates by rank are the subgoal's. Every shortcut is exactly the two
// arcs it bypasses (both upward from the bypassed node) and is marked
// straight exactly when an octile-shaped move sequence of its length joins
// its ends, every other arc a subgoal graph edge of its octile length; no
// node has two arcs to one node; two builds are the same.
TEST(ContractionTest, ShortcutsAreTheirTwoArcsAndEdgesTheGraphs) {
  for (const testing::SubgoalMapCase& m : testing::kSubgoalMaps) {
    SCOPED_TRACE(m.name);
    GridMap map = MakeRandomMap(m.spec, 4);
    auto graph = internal::SubgoalGraph::Build(map);
    const auto ch = internal::ContractionHierarchy::Build(map, graph, true);
    size_t shortcuts = 0, straight_shortcuts = 0;
    std::vector<int> numbered(ch->node_count(), 0);
    for (uint32_t v = 0; v < ch->node_count(); ++v) {
      const uint32_t node = ch->NodeOfRank(v);
      ASSERT_LT(node, ch->node_count());
      ++numbered[node];
      EXPECT_EQ(ch->RankOf(node), v);
      EXPECT_EQ(ch->XOfRank(v), graph->XOf(node));
      EXPECT_EQ(ch->YOfRank(v), graph->YOf(node));
    }
    EXPECT_EQ(std::count(numbered.begin(), numbered.end(), 1),
              static_cast<std::ptrdiff_t>(ch->node_count()));
    for (uint32_t v = 0; v < ch->node_count(); ++v) {
      std::vector<uint32_t> seen;
      const uint32_t node = ch->NodeOfRank(v);
      for (const auto* a = ch->ArcsBegin(v); a != ch->ArcsEnd(v); ++a) {
        seen.push_back(a->to);
        EXPECT_GT(a->to, v) << "arcs climb in rank";
        if (!a->IsShortcut()) {
          const uint32_t to = ch->NodeOfRank(a->to);
          EXPECT_TRUE(std::count(graph->EdgesBegin(node), graph->EdgesEnd(node),
                                 to) > 0)
              << node << " -> " << to << " is no subgoal graph edge";
          EXPECT_DOUBLE_EQ(a->length, internal::EdgeLength(*graph, node, to));
          continue;
        }
        EXPECT_LT(a->Via(), v) << "a shortcut bypasses a lower rank";
        ++shortcuts;
        const auto* down = ch->FindArc(a->Via(), v);
        const auto* up = ch->FindArc(a->Via(), a->to);
        ASSERT_NE(down, nullptr) << "shortcut " << v << " -> " << a->to;
        ASSERT_NE(up, nullptr) << "shortcut " << v << " -> " << a->to;
        EXPECT_NEAR(a->length, down->length + up->length, 1e-9);
        // Marked straight exactly when one octile-shaped move sequence of
        // its length joins its ends.
        const uint32_t to = ch->NodeOfRank(a->to);
        std::vector<Cell> walk;
        const bool straight =
            std::fabs(a->length - internal::EdgeLength(*graph, node, to)) <
                1e-9 &&
            internal::AppendOctilePath(map.padded_costs(), map.padded_width(),
                                       DiagonalPolicy::kNoCornerCutting,
                                       Cell{graph->XOf(node), graph->YOf(node)},
                                       Cell{graph->XOf(to), graph->YOf(to)},
                                       &walk);
        EXPECT_EQ(a->RefinesStraight(), straight)
            << "shortcut " << v << " -> " << a->to;
        straight_shortcuts += straight;
      }
      std::sort(seen.begin(), seen.end());
      EXPECT_EQ(std::adjacent_find(seen.begin(), seen.end()), seen.end());
    }
    EXPECT_EQ(shortcuts, ch->shortcut_count());
    if (shortcuts > 0) {
      EXPECT_GT(straight_shortcuts, 0u) << "none marked";
    }
    // The first priorities in several threads: the same hierarchy.
    for (int threads : {1, 2, 3, 5}) {
      SCOPED_TRACE(absl::StrCat(threads, " threads"));
      const auto again = internal::ContractionHierarchy::Build(
          map, internal::SubgoalGraph::Build(map), true, nullptr, threads);
      EXPECT_TRUE(ch->SameAs(*again));
    }
  }
}

// A build asked to stop while its threads compute the first priorities, or
// later while it contracts, stops and returns nothing.
TEST(ContractionTest, AbandonStopsABuildInThreads) {
  GridMap map = MakeRandomMap({64, 64, 0.2, 1, false, 1}, 3);
  auto graph = internal::SubgoalGraph::Build(map);
  ASSERT_GT(graph->node_count(), 256u);
  // Calls of `abandon` a whole build makes (one thread asks at a time).
  std::atomic<int> polls{0};
  ASSERT_NE(internal::ContractionHierarchy::Build(
                map, graph, false, [&] { return ++polls, false; }, 3),
            nullptr);
  const int whole = polls.load();
  ASSERT_GT(whole, 8);
  for (int stop_at : {1, 2, whole / 2, whole}) {
    SCOPED_TRACE(absl::StrCat("stop at poll ", stop_at));
    std::atomic<int> n{0};
    EXPECT_EQ(internal::ContractionHierarchy::Build(
                  map, graph, false, [&] { return ++n >= stop_at; }, 3),
              nullptr);
    // Stopped there: at most each other thread asked once more.
    EXPECT_LE(n.load(), stop_at + 2);
  }
}

// OctileShapeLegal is AppendOctilePath's verdict, for every pair of passable
// cells of random maps and every policy.
TEST(ContractionTest, OctileShapeLegalIsAppendOctilePathsVerdict) {
  for (uint32_t seed = 1; seed <= 4; ++seed) {
    const GridMap map = MakeRandomMap({14, 11, 0.3, 1, false, 1}, seed);
    for (DiagonalPolicy policy :
         {DiagonalPolicy::kNever, DiagonalPolicy::kNoCornerCutting,
          DiagonalPolicy::kAllowCornerCutting}) {
      for (int32_t a = 0; a < map.width() * map.height(); ++a) {
        for (int32_t b = 0; b < map.width() * map.height(); ++b) {
          const Cell from{a % map.width() + 1, a / map.width() + 1};
          const Cell to{b % map.width() + 1, b / map.width() + 1};
          if (!map.Passable(Cell{from.x - 1, from.y - 1})) continue;
          std::vector<Cell> walk;
          const bool appended = internal::AppendOctilePath(
              map.padded_costs(), map.padded_width(), policy, from, to, &walk);
          ASSERT_EQ(
              internal::OctileShapeLegal(map.padded_costs(), map.padded_width(),
                                         policy, from, to),
              appended)
              << "seed " << seed << " policy " << static_cast<int>(policy)
              << " from " << from.x << "," << from.y << " to " << to.x << ","
              << to.y;
          if (!appended) {
            EXPECT_TRUE(walk.empty());
          }
        }
      }
    }
  }
}

// After every step of a random update sequence, with both subgoal
// structures asked for and slow repairs deferred: a version whose cells
// changed has no hierarchy, and kContraction answers by its fallback
// (through kSubgoal to jps+: optimal, saying so); the hierarchy built then
// equals one built from scratch and answers optimally. A step that changes
// no cell keeps (shares) the hierarchy.
TEST(ContractionTest, EveryVersionOfAnUpdateSequence) {
  for (uint32_t seed = 1; seed <= 3; ++seed) {
    SCOPED_TRACE(absl::StrCat("seed ", seed));
    GridMap map = MakeRandomMap({72, 56, 0.25, 1, false, 1}, seed);
    DerivedOptions options;
    options.Ask(kSubgoalGraphName);
    options.Ask(kContractionName);
    options.Ask(kJumpTableName);
    options.defer_slow_repairs = true;
    std::vector<DerivedReport> reports;
    ASSERT_OK(BuildDerived(options, &map, &reports));
    ASSERT_TRUE(HasContraction(map));
    std::mt19937 rng(seed);
    SearchContext context;
    for (int step = 0; step < 12; ++step) {
      SCOPED_TRACE(absl::StrCat("step ", step));
      ChangeSummary summary;
      absl::StatusOr<GridMap> next = ApplyChanges(
          map, testing::RandomSquareChanges(map.width(), map.height(), rng),
          &summary);
      ASSERT_OK(next.status());
      ASSERT_OK(RepairDerived(options, map, summary, &*next, &reports));
      // The jump table finished at once (its owner does it off the update's
      // path), so that the fallback's end is jps+.
      PendingStructures pending = NextPending(
          {}, map, static_cast<uint64_t>(step) + 1, summary, reports);
      pending.erase(std::string(kSubgoalGraphName));
      pending.erase(std::string(kContractionName));
      DerivedOptions finishing = options;
      finishing.defer_slow_repairs = false;
      for (const auto& [name, entry] : pending) {
        ASSERT_OK(
            FinishPendingStructure(finishing, name, entry, &*next).status());
      }
      const auto it = std::find_if(
          reports.begin(), reports.end(),
          [](const DerivedReport& r) { return r.name == kContractionName; });
      ASSERT_NE(it, reports.end());
      if (summary.cells_changed == 0) {
        EXPECT_EQ(it->outcome, DerivedOutcome::kKept);
        EXPECT_TRUE(HasContraction(*next));
      } else {
        EXPECT_EQ(it->outcome, DerivedOutcome::kDeferred);
        EXPECT_FALSE(HasContraction(*next));
        const auto [a, b] = testing::FarConnectedPair(*next);
        absl::StatusOr<PathResult> r = FindPath(
            *next, testing::Query(a, b, Algorithm::kContraction, kPolicy),
            context);
        ASSERT_OK(r.status());
        EXPECT_EQ(r->algorithm, Algorithm::kJpsPlus);
        const double optimum = testing::Distance(
            testing::ReferenceDistances(*next, a, kPolicy), *next, b);
        EXPECT_NEAR(r->cost, optimum, 1e-9 * (1 + optimum));
        ASSERT_OK(BuildSubgoalGraph(&*next));
        ASSERT_OK(BuildContraction(&*next));
      }
      GridMap fresh = *next;
      ASSERT_OK(BuildContraction(&fresh));
      EXPECT_TRUE(ContractionEquals(*next, fresh));
      ExpectOptimal(*next, seed + step, 8);
      map = *std::move(next);
    }
  }
}

// DerivedOptions::abandon: a build it stops answers CANCELLED and leaves
// the map without a hierarchy (whether stopped while redundant edges are
// dropped or while contracting); one it never stops equals a plain build.
TEST(ContractionTest, AbandonedBuildLeavesTheMapWithoutOne) {
  GridMap map = MakeRandomMap({72, 56, 0.25, 1, false, 1}, 5);
  GridMap plain = map;
  ASSERT_OK(BuildContraction(&plain));
  for (const int stop_at : {1, 3, 0}) {
    SCOPED_TRACE(absl::StrCat("stop at poll ", stop_at));
    int polls = 0;
    GridMap built = map;
    const absl::Status s =
        testing::BuildAbandoningAt(&built, kContractionName, stop_at, &polls);
    if (stop_at == 0) {
      ASSERT_OK(s);
      EXPECT_TRUE(ContractionEquals(built, plain));
      // At least once every kAbandonPoll corners of each pass over them
      // (redundant edges, first priorities, contraction: each of the n
      // corners at least once).
      const uint32_t n = internal::SubgoalGraph::Build(map)->node_count();
      EXPECT_GE(polls,
                static_cast<int>(
                    3 * (n / internal::ContractionHierarchy::kAbandonPoll)));
      continue;
    }
    EXPECT_EQ(s.code(), absl::StatusCode::kCancelled);
    // Named once, through BuildDerived as from BuildContraction.
    EXPECT_TRUE(absl::StartsWith(s.message(), "contraction_hierarchy: build"))
        << s;
    EXPECT_EQ(s.message().find("contraction_hierarchy: contraction"),
              absl::string_view::npos)
        << s;
    EXPECT_EQ(polls, stop_at);
    EXPECT_FALSE(HasContraction(built));
  }
}

// A subgoal graph with more edge pairs at shared corners than the bound is
// refused at once: RESOURCE_EXHAUSTED naming the structure and the counts,
// nothing attached (neither the hierarchy nor a subgoal graph built for
// it; a subgoal graph the map had stays); at the bound it is built. The default
// bound takes every shared map (MovingAiConformanceContraction builds the tier
// on each).
TEST(ContractionTest, AGraphWithTooManyEdgePairsIsRefused) {
  GridMap map = MakeRandomMap({90, 70, 0.05, 1, false, 1}, 3);
  const double pairs = internal::EdgePairs(*internal::SubgoalGraph::Build(map));
  ASSERT_GT(pairs, 0);
  EXPECT_LT(pairs, kMaxContractionEdgePairs);
  GridMap refused = map;
  const absl::Status s =
      internal::BuildContractionUnless(&refused, nullptr, pairs - 1);
  EXPECT_EQ(s.code(), absl::StatusCode::kResourceExhausted);
  EXPECT_NE(s.message().find("contraction_hierarchy"), std::string::npos) << s;
  EXPECT_NE(s.message().find("pairs of edges"), std::string::npos) << s;
  EXPECT_FALSE(HasContraction(refused));
  EXPECT_FALSE(HasSubgoalGraph(refused));
  // Over the map's own subgoal graph: that graph stays, no hierarchy.
  GridMap shared = map;
  ASSERT_OK(BuildSubgoalGraph(&shared));
  EXPECT_EQ(
      internal::BuildContractionUnless(&shared, nullptr, pairs - 1).code(),
      absl::StatusCode::kResourceExhausted);
  EXPECT_TRUE(HasSubgoalGraph(shared));
  EXPECT_FALSE(HasContraction(shared));
  GridMap built = map;
  ASSERT_OK(internal::BuildContractionUnless(&built, nullptr, pairs));
  EXPECT_TRUE(HasContraction(built));
}

TEST(ContractionTest, OtherPoliciesAndTerrainRunTheSubgoalRule) {
  GridMap map = MakeRandomMap({40, 40, 0.2, 1, false, 1}, 2);
  ASSERT_OK(BuildContraction(&map));
  const auto [a, b] = testing::FarConnectedPair(map);
  SearchContext context;
  for (DiagonalPolicy policy :
       {DiagonalPolicy::kNever, DiagonalPolicy::kAllowCornerCutting}) {
    absl::StatusOr<PathResult> r = FindPath(
        map, testing::Query(a, b, Algorithm::kContraction, policy), context);
    ASSERT_OK(r.status());
    EXPECT_EQ(r->algorithm, Algorithm::kAStar);
  }
  // Without the hierarchy: what kSubgoal would run (here jps, nothing
  // else built).
  GridMap bare = MakeRandomMap({40, 40, 0.2, 1, false, 1}, 2);
  absl::StatusOr<PathResult> r = FindPath(
      bare, testing::Query(a, b, Algorithm::kContraction, kPolicy), context);
  ASSERT_OK(r.status());
  EXPECT_EQ(r->algorithm, Algorithm::kJps);
  // Mixed costs: no hierarchy (FailedPrecondition naming it), and the
  // structure does not apply.
  GridMap terrain = MakeRandomMap({40, 40, 0.2, 5, false, 1}, 2);
  const absl::Status s = BuildContraction(&terrain);
  EXPECT_EQ(s.code(), absl::StatusCode::kFailedPrecondition);
  EXPECT_NE(s.message().find("contraction_hierarchy"), std::string::npos);
  DerivedOptions options;
  options.Ask(kContractionName);
  std::vector<DerivedReport> reports;
  ASSERT_OK(BuildDerived(options, &terrain, &reports));
  ASSERT_EQ(reports.size(), 1u);
  EXPECT_EQ(reports[0].outcome, DerivedOutcome::kAbsent);
  EXPECT_EQ(DerivedBytesFor(options, terrain), 0u);
}

// A budget that runs out first: the subgoal graph's search answers
// partially and says so.
TEST(ContractionTest, BudgetRunsOutAndTheSubgoalSearchAnswersPartially) {
  GridMap map = MakeRandomMap({121, 121, 0.0, 1, true, 1}, 5);
  ASSERT_OK(BuildContraction(&map));
  SearchContext context;
  const auto [a, b] = testing::FarConnectedPair(map);
  PathQuery q = testing::Query(a, b, Algorithm::kContraction, kPolicy);
  q.budget.max_expansions = 3;
  absl::StatusOr<PathResult> r = FindPath(map, q, context);
  ASSERT_OK(r.status());
  EXPECT_EQ(r->algorithm, Algorithm::kSubgoal);
  EXPECT_TRUE(r->partial);
  EXPECT_EQ(r->partial_reason, PartialReason::kMaxExpansions);
  EXPECT_LE(r->expanded, 3u);
  EXPECT_EQ(testing::CheckPath(map, *r, a, b, kPolicy, false), "");
  // A budget large enough: the hierarchy answers, whole and optimal.
  q.budget.max_expansions = 100000;
  r = FindPath(map, q, context);
  ASSERT_OK(r.status());
  EXPECT_EQ(r->algorithm, Algorithm::kContraction);
  EXPECT_FALSE(r->partial);
  EXPECT_NEAR(
      r->cost,
      testing::Distance(testing::ReferenceDistances(map, a, kPolicy), map, b),
      1e-9);
}

TEST(ContractionTest, OpenMapWithoutSubgoalsJoinsTheEndsDirectly) {
  GridMap map = MakeRandomMap({30, 20, 0.0, 1, false, 1}, 1);
  ASSERT_OK(BuildContraction(&map));
  EXPECT_EQ(ContractionArcs(map), 0u);
  ExpectOptimal(map, 1, 40);
}

TEST(ContractionTest, EndsOnSubgoalsNeighboursAndTheSameCell) {
  GridMap map = testing::Draw({
      ".......",
      "..#....",
      ".......",
      "....##.",
      ".......",
  });
  ASSERT_OK(BuildContraction(&map));
  SearchContext context;
  const std::pair<Cell, Cell> cases[] = {
      {{1, 0}, {3, 2}},  // Subgoal to subgoal.
      {{1, 0}, {6, 4}},  // Subgoal to a plain cell.
      {{0, 4}, {3, 2}},  // A plain cell to a subgoal.
      {{2, 2}, {3, 2}},  // Neighbours.
      {{4, 4}, {4, 4}},  // The same cell.
      {{0, 0}, {6, 4}},  // Both plain, around both walls.
  };
  for (const auto& c : cases) {
    SCOPED_TRACE(absl::StrCat(c.first.x, ",", c.first.y, " -> ", c.second.x,
                              ",", c.second.y));
    absl::StatusOr<PathResult> r = FindPath(
        map,
        testing::Query(c.first, c.second, Algorithm::kContraction, kPolicy),
        context);
    ASSERT_OK(r.status());
    const double optimum = testing::Distance(
        testing::ReferenceDistances(map, c.first, kPolicy), map, c.second);
    EXPECT_NEAR(r->cost, optimum, 1e-9);
    EXPECT_EQ(testing::CheckPath(map, *r, c.first, c.second, kPolicy, true),
              "");
  }
}

TEST(ContractionTest, DifferentComponentsAreNotFound) {
  GridMap map = testing::Draw({
      "...#...",
      "..#....",
      ".#.....",
  });
  ASSERT_OK(BuildContraction(&map));
  SearchContext context;
  absl::StatusOr<PathResult> r = FindPath(
      map, testing::Query({0, 0}, {6, 2}, Algorithm::kContraction, kPolicy),
      context);
  EXPECT_TRUE(absl::IsNotFound(r.status())) << r.status();
}

// A traced query lists the corners it settled, each a subgoal's cell.
TEST(ContractionTest, TraceListsTheSettledCorners) {
  GridMap map = MakeRandomMap({80, 80, 0.3, 1, false, 1}, 7);
  ASSERT_OK(BuildContraction(&map));
  const auto [a, b] = testing::FarConnectedPair(map);
  PathQuery q = testing::Query(a, b, Algorithm::kContraction, kPolicy);
  q.trace = true;
  SearchContext context;
  absl::StatusOr<PathResult> r = FindPath(map, q, context);
  ASSERT_OK(r.status());
  EXPECT_EQ(r->algorithm, Algorithm::kContraction);
  EXPECT_EQ(r->trace.size(), r->expanded);
  const auto* graph = &internal::ContractionOf(map)->graph();
  for (const Cell& c : r->trace) {
    EXPECT_GE(graph->NodeOf(map.PaddedIndex(c)), 0)
        << c.x << "," << c.y << " is no corner";
  }
}

}  // namespace
}  // namespace gridstar
