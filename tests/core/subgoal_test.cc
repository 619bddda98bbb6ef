// The subgoal graph search (Algorithm::kSubgoal): optimal against brute
// force Dijkstra on seeded random maps (open, cluttered, mazes, rooms, thin,
// uniform cost above 1); the graph's invariants (every edge an octile line,
// symmetric, landmark distances exact); versions after random updates
// (deferred: the fallback answers, optimal and saying so; rebuilt: equal to
// a fresh build); fallbacks and edge cases by name.
#include "gridstar/engines/subgoal.h"

#include <algorithm>
#include <cmath>
#include <random>
#include <string>
#include <vector>

#include "absl/strings/str_cat.h"
#include "core/subgoal_test_maps.h"
#include "engines/subgoal/subgoal_graph.h"
#include "gridstar/derived_data.h"
#include "gridstar/engines/jps.h"
#include "gridstar/find_path.h"
#include "gridstar/grid_map.h"
#include "gridstar/map_update.h"
#include "gridstar/search_context.h"
#include "gtest/gtest.h"
#include "testing/drawn_maps.h"
#include "testing/reference.h"
#include "testing/status_matchers.h"

namespace gridstar {
namespace {

using testing::MakeRandomMap;
using testing::RandomMapSpec;

constexpr DiagonalPolicy kPolicy = DiagonalPolicy::kNoCornerCutting;

// Queries `count` random pairs of `map` through kSubgoal and checks each
// against brute-force Dijkstra: same cost, a legal path, kSubgoal ran.
void ExpectOptimal(const GridMap& map, uint32_t seed, int count) {
  SearchContext context;
  std::mt19937 rng(seed * 7919 + 1);
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
    absl::StatusOr<PathResult> r =
        FindPath(map, testing::Query(start, goal, Algorithm::kSubgoal, kPolicy),
                 context);
    if (optimum == testing::kUnreachable) {
      EXPECT_TRUE(absl::IsNotFound(r.status())) << r.status();
      continue;
    }
    ASSERT_OK(r.status());
    EXPECT_EQ(r->algorithm, Algorithm::kSubgoal);
    EXPECT_FALSE(r->partial);
    EXPECT_NEAR(r->cost, optimum, 1e-9 * (1 + optimum));
    EXPECT_EQ(testing::CheckPath(map, *r, start, goal, kPolicy, true), "");
  }
}

TEST(SubgoalTest, OptimalAgainstBruteForceOnRandomMaps) {
  for (const testing::SubgoalMapCase& m : testing::kSubgoalMaps) {
    for (uint32_t seed = 1; seed <= 6; ++seed) {
      SCOPED_TRACE(absl::StrCat(m.name, " seed ", seed));
      GridMap map = MakeRandomMap(m.spec, seed);
      ASSERT_OK(BuildSubgoalGraph(&map));
      ExpectOptimal(map, seed, 30);
    }
  }
}

// Rooms joined by doors one or two cells wide: few subgoals, long detours.
TEST(SubgoalTest, OptimalOnDrawnRooms) {
  const GridMap map = testing::Draw({
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
  GridMap with = map;
  ASSERT_OK(BuildSubgoalGraph(&with));
  EXPECT_GT(SubgoalGraphNodes(with), 0u);
  for (uint32_t seed = 1; seed <= 5; ++seed) ExpectOptimal(with, seed, 60);
}

// NodeOf numbers every subgoal (a convex corner, IsConvexCorner) by its
// place in padded index order and answers -1 on every other cell, blocked
// cells and the border included.
TEST(SubgoalTest, NodeOfNumbersTheSubgoalsAndNoOtherCell) {
  for (const testing::SubgoalMapCase& m : testing::kSubgoalMaps) {
    SCOPED_TRACE(m.name);
    GridMap map = MakeRandomMap(m.spec, 5);
    const auto graph = internal::SubgoalGraph::Build(map);
    const uint8_t* costs = map.padded_costs();
    const int32_t pw = map.padded_width();
    const size_t cells = static_cast<size_t>(pw) * (map.height() + 2);
    int64_t next = 0;
    for (uint32_t cell = 0; cell < cells; ++cell) {
      const bool corner =
          costs[cell] != 0 && internal::IsConvexCorner(costs, cell, pw);
      ASSERT_EQ(graph->NodeOf(cell), corner ? next : -1) << "cell " << cell;
      if (corner) {
        ASSERT_EQ(graph->CellOf(static_cast<uint32_t>(next)), cell);
        ++next;
      }
    }
    EXPECT_EQ(next, graph->node_count());
  }
}

// Every edge joins two subgoals by an octile-length move sequence
// (diagonal first from one end or the other), each edge is there both
// ways, and each node's landmark distances are the graph's exact ones.
TEST(SubgoalTest, EdgesAreOctileLinesBothWaysAndLandmarksExact) {
  for (const testing::SubgoalMapCase& m : testing::kSubgoalMaps) {
    SCOPED_TRACE(m.name);
    GridMap map = MakeRandomMap(m.spec, 3);
    const auto graph = internal::SubgoalGraph::Build(map);
    const uint8_t* costs = map.padded_costs();
    const int32_t pw = map.padded_width();
    auto free = [&](int32_t x, int32_t y) { return costs[y * pw + x] != 0; };
    // Walks from a to b, diagonal moves first or straight moves first.
    auto legal = [&](int32_t ax, int32_t ay, int32_t bx, int32_t by,
                     bool diagonal_first) {
      const int dx = bx > ax ? 1 : (bx < ax ? -1 : 0);
      const int dy = by > ay ? 1 : (by < ay ? -1 : 0);
      const int32_t ex = std::abs(bx - ax), ey = std::abs(by - ay);
      const int32_t diagonals = std::min(ex, ey);
      const int32_t straights = std::max(ex, ey) - diagonals;
      const int sx = ex > ey ? dx : 0, sy = ex > ey ? 0 : dy;
      int32_t x = ax, y = ay;
      for (int part = 0; part < 2; ++part) {
        const bool diagonal = (part == 0) == diagonal_first;
        const int32_t count = diagonal ? diagonals : straights;
        for (int32_t i = 0; i < count; ++i) {
          const int mx = diagonal ? dx : sx, my = diagonal ? dy : sy;
          if (!free(x + mx, y + my)) return false;
          if (diagonal && (!free(x + mx, y) || !free(x, y + my))) return false;
          x += mx;
          y += my;
        }
      }
      return x == bx && y == by;
    };
    for (uint32_t v = 0; v < graph->node_count(); ++v) {
      EXPECT_EQ(graph->NodeOf(graph->CellOf(v)), v);
      for (const uint32_t* e = graph->EdgesBegin(v); e != graph->EdgesEnd(v);
           ++e) {
        const int32_t ax = graph->XOf(v), ay = graph->YOf(v);
        const int32_t bx = graph->XOf(*e), by = graph->YOf(*e);
        EXPECT_TRUE(legal(ax, ay, bx, by, true) || legal(bx, by, ax, ay, true))
            << v << " -> " << *e;
        EXPECT_TRUE(
            std::binary_search(graph->EdgesBegin(*e), graph->EdgesEnd(*e), v));
      }
    }
    // Landmark distances against brute force on the grid (the graph is
    // exact between subgoals).
    if (graph->landmark_count() == 0) continue;
    for (int k = 0; k < graph->landmark_count(); ++k) {
      uint32_t landmark = 0;
      while (graph->Landmarks(landmark)[k] != 0) ++landmark;
      const Cell at{graph->XOf(landmark) - 1, graph->YOf(landmark) - 1};
      const std::vector<double> dist =
          testing::ReferenceDistances(map, at, kPolicy);
      for (uint32_t v = 0; v < graph->node_count(); ++v) {
        // In moves (cells of octile length), not in cost.
        const double want =
            testing::Distance(dist, map,
                              Cell{graph->XOf(v) - 1, graph->YOf(v) - 1}) /
            map.min_cost();
        const double got = graph->Landmarks(v)[k];
        if (want == testing::kUnreachable) {
          EXPECT_TRUE(std::isinf(got)) << v;
        } else {
          EXPECT_NEAR(got, want, 1e-3 * (1 + want)) << v;
        }
      }
    }
  }
}

// After every step of a random update sequence: with the rebuild deferred,
// the new version has no graph and kSubgoal answers by its fallback (jps+,
// optimal, saying so); the graph built then equals one built from scratch
// and answers optimally.
TEST(SubgoalTest, EveryVersionOfAnUpdateSequence) {
  for (uint32_t seed = 1; seed <= 3; ++seed) {
    SCOPED_TRACE(absl::StrCat("seed ", seed));
    GridMap map = MakeRandomMap({72, 56, 0.25, 1, false, 1}, seed);
    DerivedOptions options;
    options.Ask(kSubgoalGraphName);
    options.Ask(kJumpTableName);
    options.defer_slow_repairs = true;
    std::vector<DerivedReport> reports;
    ASSERT_OK(BuildDerived(options, &map, &reports));
    ASSERT_TRUE(HasSubgoalGraph(map));
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
      // What else the repair deferred (the jump table) its owner finishes
      // off the update's path; here at once, so that the fallback is jps+.
      PendingStructures pending = NextPending(
          {}, map, static_cast<uint64_t>(step) + 1, summary, reports);
      pending.erase(std::string(kSubgoalGraphName));
      DerivedOptions finishing = options;
      finishing.defer_slow_repairs = false;
      for (const auto& [name, entry] : pending) {
        ASSERT_OK(
            FinishPendingStructure(finishing, name, entry, &*next).status());
      }
      const auto it = std::find_if(
          reports.begin(), reports.end(),
          [](const DerivedReport& r) { return r.name == "subgoal_graph"; });
      ASSERT_NE(it, reports.end());
      if (summary.cells_changed == 0) {
        EXPECT_EQ(it->outcome, DerivedOutcome::kKept);
        EXPECT_TRUE(HasSubgoalGraph(*next));
      } else {
        EXPECT_EQ(it->outcome, DerivedOutcome::kDeferred);
        EXPECT_FALSE(HasSubgoalGraph(*next));
        // The fallback answers meanwhile, optimally, and says which ran.
        const auto [a, b] = testing::FarConnectedPair(*next);
        absl::StatusOr<PathResult> r = FindPath(
            *next, testing::Query(a, b, Algorithm::kSubgoal, kPolicy), context);
        ASSERT_OK(r.status());
        EXPECT_EQ(r->algorithm, Algorithm::kJpsPlus);
        const double optimum = testing::Distance(
            testing::ReferenceDistances(*next, a, kPolicy), *next, b);
        EXPECT_NEAR(r->cost, optimum, 1e-9 * (1 + optimum));
        ASSERT_OK(BuildSubgoalGraph(&*next));
      }
      GridMap fresh = *next;
      ASSERT_OK(BuildSubgoalGraph(&fresh));
      EXPECT_TRUE(SubgoalGraphEquals(*next, fresh));
      ExpectOptimal(*next, seed + step, 8);
      map = *std::move(next);
    }
  }
}

// DerivedOptions::abandon: a build it stops (while the corners are
// scanned, or before the landmarks) answers CANCELLED and leaves the map
// without a graph; one it never stops equals a plain build.
TEST(SubgoalTest, AbandonedBuildLeavesTheMapWithoutOne) {
  GridMap map = MakeRandomMap({72, 56, 0.25, 1, false, 1}, 5);
  GridMap plain = map;
  ASSERT_OK(BuildSubgoalGraph(&plain));
  int scans = 0;
  {
    GridMap built = map;
    ASSERT_OK(testing::BuildAbandoningAt(&built, kSubgoalGraphName, 0, &scans));
    EXPECT_TRUE(SubgoalGraphEquals(built, plain));
  }
  ASSERT_GE(scans, 3);
  // The first poll, one in the middle, the last (before the landmarks).
  for (const int stop_at : {1, scans / 2, scans}) {
    SCOPED_TRACE(absl::StrCat("stop at poll ", stop_at));
    int polls = 0;
    GridMap built = map;
    const absl::Status s =
        testing::BuildAbandoningAt(&built, kSubgoalGraphName, stop_at, &polls);
    EXPECT_EQ(s.code(), absl::StatusCode::kCancelled);
    EXPECT_EQ(polls, stop_at);
    EXPECT_FALSE(HasSubgoalGraph(built));
  }
}

TEST(SubgoalTest, OtherPoliciesAndTerrainRunTheJpsPlusRule) {
  GridMap map = MakeRandomMap({40, 40, 0.2, 1, false, 1}, 2);
  ASSERT_OK(BuildSubgoalGraph(&map));
  const auto [a, b] = testing::FarConnectedPair(map);
  SearchContext context;
  for (DiagonalPolicy policy :
       {DiagonalPolicy::kNever, DiagonalPolicy::kAllowCornerCutting}) {
    absl::StatusOr<PathResult> r = FindPath(
        map, testing::Query(a, b, Algorithm::kSubgoal, policy), context);
    ASSERT_OK(r.status());
    EXPECT_EQ(r->algorithm, Algorithm::kAStar);
  }
  // Mixed costs: no graph (FailedPrecondition naming it), and the
  // structure does not apply.
  GridMap terrain = MakeRandomMap({40, 40, 0.2, 5, false, 1}, 2);
  const absl::Status s = BuildSubgoalGraph(&terrain);
  EXPECT_EQ(s.code(), absl::StatusCode::kFailedPrecondition);
  EXPECT_NE(s.message().find("subgoal_graph"), std::string::npos);
  DerivedOptions options;
  options.Ask(kSubgoalGraphName);
  std::vector<DerivedReport> reports;
  ASSERT_OK(BuildDerived(options, &terrain, &reports));
  ASSERT_EQ(reports.size(), 1u);
  EXPECT_EQ(reports[0].outcome, DerivedOutcome::kAbsent);
  EXPECT_EQ(DerivedBytesFor(options, terrain), 0u);
}

TEST(SubgoalTest, BudgetGivesAPartialPathFromTheStart) {
  GridMap map = MakeRandomMap({121, 121, 0.0, 1, true, 1}, 5);
  ASSERT_OK(BuildSubgoalGraph(&map));
  SearchContext context;
  const auto [a, b] = testing::FarConnectedPair(map);
  PathQuery q = testing::Query(a, b, Algorithm::kSubgoal, kPolicy);
  q.budget.max_expansions = 3;
  absl::StatusOr<PathResult> r = FindPath(map, q, context);
  ASSERT_OK(r.status());
  EXPECT_TRUE(r->partial);
  EXPECT_EQ(r->partial_reason, PartialReason::kMaxExpansions);
  EXPECT_LE(r->expanded, 3u);
  EXPECT_EQ(testing::CheckPath(map, *r, a, b, kPolicy, false), "");
}

TEST(SubgoalTest, OpenMapWithoutSubgoalsJoinsTheEndsDirectly) {
  GridMap map = MakeRandomMap({30, 20, 0.0, 1, false, 1}, 1);
  ASSERT_OK(BuildSubgoalGraph(&map));
  EXPECT_EQ(SubgoalGraphNodes(map), 0u);
  ExpectOptimal(map, 1, 40);
}

TEST(SubgoalTest, EndsOnSubgoalsNeighboursAndTheSameCell) {
  const GridMap drawn = testing::Draw({
      ".......",
      "..#....",
      ".......",
      "....##.",
      ".......",
  });
  GridMap map = drawn;
  ASSERT_OK(BuildSubgoalGraph(&map));
  // (1,0) and (3,2) are corners of the walls: subgoals.
  const auto* graph = internal::SubgoalGraphOf(map);
  ASSERT_GE(graph->NodeOf(map.PaddedIndex({1, 0})), 0);
  ASSERT_GE(graph->NodeOf(map.PaddedIndex({3, 2})), 0);
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
        map, testing::Query(c.first, c.second, Algorithm::kSubgoal, kPolicy),
        context);
    ASSERT_OK(r.status());
    const double optimum = testing::Distance(
        testing::ReferenceDistances(map, c.first, kPolicy), map, c.second);
    EXPECT_NEAR(r->cost, optimum, 1e-9);
    EXPECT_EQ(testing::CheckPath(map, *r, c.first, c.second, kPolicy, true),
              "");
  }
}

TEST(SubgoalTest, DifferentComponentsAreNotFound) {
  GridMap map = testing::Draw({
      "...#...",
      "..#....",
      ".#.....",
  });
  ASSERT_OK(BuildSubgoalGraph(&map));
  SearchContext context;
  absl::StatusOr<PathResult> r = FindPath(
      map, testing::Query({0, 0}, {6, 2}, Algorithm::kSubgoal, kPolicy),
      context);
  EXPECT_TRUE(absl::IsNotFound(r.status())) << r.status();
}

}  // namespace
}  // namespace gridstar
