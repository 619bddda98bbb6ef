// HPA* (Algorithm::kHpa): legal paths whose reported cost is their true
// cost, found whenever a path exists (brute force says), on seeded random
// maps of every policy and of mixed costs; the abstraction repaired after
// every step of random update sequences equal to one built from scratch;
// each cluster's edges, stored paths and crossings against the spec;
// fallbacks and edge cases by name. Suboptimality is measured (printed), not
// asserted: HPA* promises legality and completeness, not optimality.
#include "engines/hpa/hpa.h"

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <memory>
#include <random>
#include <string>
#include <vector>

#include "absl/strings/str_cat.h"
#include "engines/hpa/cluster_search.h"
#include "gridstar/engines/hpa.h"
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

constexpr int32_t kC = internal::kClusterSize;
using testing::RandomMapSpec;

struct MapCase {
  const char* name;
  RandomMapSpec spec;
};

// Sizes that are and are not multiples of the cluster size, one cluster
// and many, open, cluttered, mazes and mixed costs.
const MapCase kMaps[] = {
    {"open 160x140", {160, 140, 0.1, 1, false, 1}},
    {"cluttered 200x128", {200, 128, 0.35, 1, false, 1}},
    {"maze 129x193", {129, 193, 0.0, 1, true, 1}},
    {"terrain 150x150", {150, 150, 0.2, 9, false, 1}},
    {"one cluster 20x13", {20, 13, 0.25, 1, false, 1}},
    {"thin 300x3", {300, 3, 0.15, 1, false, 1}},
};

// Runs the rest of a test with the exact search of near ends off, so that
// small maps exercise the abstract search and its refinement.
class AbstractOnly {
 public:
  AbstractOnly() { internal::SetHpaNearSearchForTesting(false); }
  ~AbstractOnly() { internal::SetHpaNearSearchForTesting(true); }
};

TEST(HpaTest, PathsAreLegalCompleteAndNeverBetterThanOptimal) {
  SearchContext context;
  for (const bool near_search : {false, true}) {
  SCOPED_TRACE(near_search ? "near search on" : "abstract only");
  std::unique_ptr<AbstractOnly> abstract_only;
  if (!near_search) abstract_only = std::make_unique<AbstractOnly>();
  for (const MapCase& m : kMaps) {
    for (DiagonalPolicy policy : kAllDiagonalPolicies) {
      for (uint32_t seed = 1; seed <= 3; ++seed) {
        SCOPED_TRACE(absl::StrCat(m.name, " ", DiagonalPolicyName(policy),
                                  " seed ", seed));
        GridMap map = MakeRandomMap(m.spec, seed);
        ASSERT_OK(BuildHpa(&map, policy));
        std::mt19937 rng(seed * 7919);
        double ratio_sum = 0, ratio_max = 1;
        int paths = 0;
        for (int q = 0; q < 25; ++q) {
          const Cell start{static_cast<int32_t>(rng() % m.spec.width),
                           static_cast<int32_t>(rng() % m.spec.height)};
          if (!map.Passable(start)) continue;
          const std::vector<double> dist =
              testing::ReferenceDistances(map, start, policy);
          const Cell goal{static_cast<int32_t>(rng() % m.spec.width),
                          static_cast<int32_t>(rng() % m.spec.height)};
          if (!map.Passable(goal)) continue;
          const double optimum = testing::Distance(dist, map, goal);
          PathQuery query = testing::Query(start, goal, Algorithm::kHpa, policy);
          absl::StatusOr<PathResult> r = FindPath(map, query, context);
          if (optimum == testing::kUnreachable) {
            EXPECT_TRUE(absl::IsNotFound(r.status())) << r.status();
            continue;
          }
          ASSERT_OK(r.status());
          EXPECT_EQ(r->algorithm, Algorithm::kHpa);
          EXPECT_FALSE(r->partial);
          EXPECT_EQ(testing::CheckPath(map, *r, start, goal, policy, true), "");
          EXPECT_GE(r->cost, optimum - 1e-9 * (1 + optimum));
          if (optimum > 0) {
            ratio_sum += r->cost / optimum;
            ratio_max = std::max(ratio_max, r->cost / optimum);
            ++paths;
          }
          // Smoothing works on HPA*'s paths as on any other.
          query.smooth = true;
          absl::StatusOr<PathResult> smooth = FindPath(map, query, context);
          ASSERT_OK(smooth.status());
          EXPECT_LE(smooth->smoothed_cost, smooth->cost + 1e-9);
          EXPECT_EQ(smooth->waypoints.front(), start);
          EXPECT_EQ(smooth->waypoints.back(), goal);
        }
        if (paths > 0 && seed == 1) {
          std::printf("[hpa%s] %-20s %-21s mean %.4f max %.4f over %d\n",
                      near_search ? "" : " abstract only", m.name,
                      std::string(DiagonalPolicyName(policy)).c_str(),
                      ratio_sum / paths, ratio_max, paths);
        }
      }
    }
  }
  }
}

// Against a Dijkstra confined to each cluster (written from the spec): every
// edge costs the least path inside its cluster between its ends, every pair
// of entrances joined inside has an edge, the turns stored for an edge walk
// a legal path of exactly its cost, and each crossing bit names an entrance
// across whose bit points back.
TEST(HpaTest, EdgesTurnsAndCrossingsMatchTheirClusters) {
  size_t walked = 0, crossings = 0;
  for (const MapCase& m : kMaps) {
    for (DiagonalPolicy policy : kAllDiagonalPolicies) {
      SCOPED_TRACE(absl::StrCat(m.name, " ", DiagonalPolicyName(policy)));
      GridMap map = MakeRandomMap(m.spec, 1);
      ASSERT_OK(BuildHpa(&map, policy));
      const internal::HpaAbstraction& hpa = *internal::HpaOf(map);
      internal::ClusterSearch walker;
      for (int32_t c = 0; c < hpa.clusters_x() * hpa.clusters_y(); ++c) {
        const internal::HpaCluster& cluster = hpa.cluster(c);
        const internal::ClusterRect box =
            internal::ClusterRectOf(map, hpa.clusters_x(), c);
        auto inside = [&](Cell a) {
          return a.x >= box.x0 && a.y >= box.y0 && a.x < box.x0 + box.w &&
                 a.y < box.y0 + box.h;
        };
        auto move_inside = [&](Cell a, Cell b) {
          return inside(a) && inside(b)
                     ? testing::ReferenceMoveCost(map, a, b, policy)
                     : -1.0;
        };
        walker.Begin(map, policy, box.x0, box.y0, box.w, box.h);
        const size_t n = cluster.nodes.size();
        ASSERT_EQ(cluster.crossings.size(), n);
        ASSERT_EQ(cluster.node_costs.size(), n);
        for (uint32_t i = 0; i < n; ++i) {
          const Cell from = hpa.CellOf(c, cluster.nodes[i]);
          SCOPED_TRACE(absl::StrCat("node ", from.x, ",", from.y));
          EXPECT_EQ(cluster.node_costs[i], map.cost(from));
          const std::vector<double> dist = testing::ReferenceDistancesWith(
              map.width(), map.height(), from, true, move_inside);
          std::vector<bool> joined(n, false);
          for (uint32_t e = cluster.edge_begin[i]; e < cluster.edge_begin[i + 1];
               ++e) {
            const internal::HpaCluster::Edge& edge = cluster.edges[e];
            joined[edge.to] = true;
            const Cell to = hpa.CellOf(c, cluster.nodes[edge.to]);
            const double least = testing::Distance(dist, map, to);
            ASSERT_NE(least, testing::kUnreachable);
            EXPECT_NEAR(edge.cost, least, 1e-5 * (1 + least));
            const absl::Span<const uint16_t> turns =
                cluster.TurnsOf(i, edge.to);
            EXPECT_EQ(turns.size(), edge.turn_count);
            if (turns.empty()) continue;
            PathResult walk;
            walk.cells = {from};
            walker.AppendTurnPath(cluster.nodes[i], turns,
                                  cluster.nodes[edge.to], &walk.cells);
            walk.cost = least;
            EXPECT_EQ(testing::CheckPathWith(walk, from, to, true, move_inside),
                      "");
            ++walked;
          }
          for (uint32_t j = 0; j < n; ++j) {
            const bool reachable =
                testing::Distance(dist, map, hpa.CellOf(c, cluster.nodes[j])) !=
                testing::kUnreachable;
            EXPECT_EQ(joined[j], j != i && reachable) << "to node " << j;
          }
          for (unsigned bits = cluster.crossings[i]; bits != 0;
               bits &= bits - 1) {
            const int move = __builtin_ctz(bits);
            const Cell across{from.x + kMoveDx[move], from.y + kMoveDy[move]};
            ASSERT_FALSE(inside(across));
            ASSERT_TRUE(map.Passable(across));
            const internal::HpaCluster& other =
                hpa.cluster(hpa.ClusterOf(across));
            const int k = other.Find(internal::HpaAbstraction::LocalOf(across));
            ASSERT_GE(k, 0);
            // Moves 0/1 and 2/3 are opposites.
            EXPECT_TRUE(other.crossings[k] & (1u << (move ^ 1)));
            ++crossings;
          }
        }
      }
    }
  }
  std::printf("[hpa] %zu stored edge paths walked, %zu crossings\n", walked,
              crossings);
  EXPECT_GT(walked, 1000u);
  EXPECT_GT(crossings, 1000u);
}

std::vector<CellChange> RandomChanges(int32_t w, int32_t h, bool uniform,
                                      std::mt19937& rng) {
  std::vector<CellChange> changes;
  for (int k = 1 + static_cast<int>(rng() % 3); k > 0; --k) {
    const int32_t side =
        rng() % 4 == 0 ? 1 + static_cast<int32_t>(rng() % 40) : 1;
    CellChange c;
    c.min = {static_cast<int32_t>(rng() % w), static_cast<int32_t>(rng() % h)};
    // One change in three starts on a cluster border line (63/64 ...),
    // where a neighbour's entrances change too.
    if (rng() % 3 == 0) {
      const int32_t line = kC * (1 + static_cast<int32_t>(rng() % 2)) -
                           static_cast<int32_t>(rng() % 2);
      if (rng() % 2 == 0) {
        c.min.x = std::min(w - 1, line);
      } else {
        c.min.y = std::min(h - 1, line);
      }
    }
    c.max = {std::min(w, c.min.x + side),
             std::min(h, c.min.y + 1 + static_cast<int32_t>(rng() % side))};
    c.cost = static_cast<uint8_t>(uniform ? rng() % 2 : rng() % 6);
    changes.push_back(c);
  }
  return changes;
}

// After every step of a random update sequence, the repaired abstraction
// equals one built from scratch on the new version, and searches on it
// stay legal and complete.
TEST(HpaTest, RepairAfterEveryUpdateEqualsAFreshBuild) {
  SearchContext context;
  AbstractOnly abstract_only;
  for (const MapCase& m : kMaps) {
    for (DiagonalPolicy policy : kAllDiagonalPolicies) {
      SCOPED_TRACE(absl::StrCat(m.name, " ", DiagonalPolicyName(policy)));
      std::mt19937 rng(4242);
      GridMap map = MakeRandomMap(m.spec, 11);
      ASSERT_OK(BuildHpa(&map, policy));
      for (int step = 0; step < 30; ++step) {
        SCOPED_TRACE(absl::StrCat("step ", step));
        ChangeSummary summary;
        absl::StatusOr<GridMap> next = ApplyChanges(
            map, RandomChanges(m.spec.width, m.spec.height,
                               m.spec.max_cost == 1, rng),
            &summary);
        ASSERT_OK(next.status());
        RepairHpa(map, summary.rects, &*next);
        GridMap fresh = *next;
        ASSERT_OK(BuildHpa(&fresh, policy));
        ASSERT_TRUE(internal::HpaOf(*next)->SameAs(*internal::HpaOf(fresh)));
        // A one-cell change rebuilds at most its cluster and the four
        // across its borders; nothing rebuilds everything but a big change.
        if (summary.cells_changed == 1) {
          EXPECT_LE(internal::HpaOf(*next)->clusters_built(), 5u);
        }
        map = *std::move(next);
        const auto [a, b] = testing::FarConnectedPair(map);
        if (a.x < 0) continue;
        absl::StatusOr<PathResult> r =
            FindPath(map, testing::Query(a, b, Algorithm::kHpa, policy), context);
        ASSERT_OK(r.status());
        EXPECT_EQ(testing::CheckPath(map, *r, a, b, policy, true), "");
      }
    }
  }
}

// A cell on a cluster's border line changes the entrances of that border,
// so the neighbour across it is rebuilt too: each of the four sides and a
// corner, against a fresh build.
TEST(HpaTest, ChangeOnABorderRebuildsTheNeighbourAcrossIt) {
  const GridMap open =
      MakeRandomMap({2 * kC + kC / 2, 2 * kC + kC / 2, 0.0, 1, false, 1}, 1);
  for (const Cell& c :
       {Cell{kC - 1, 10}, Cell{kC, 10}, Cell{10, kC - 1}, Cell{10, kC},
        Cell{kC - 1, kC - 1}, Cell{kC, kC}, Cell{0, 0},
        Cell{open.width() - 1, open.height() - 1}}) {
    SCOPED_TRACE(absl::StrCat(c.x, ",", c.y));
    GridMap map = open;
    ASSERT_OK(BuildHpa(&map, DiagonalPolicy::kNoCornerCutting));
    ChangeSummary summary;
    absl::StatusOr<GridMap> next =
        ApplyChanges(map, {{c, {c.x + 1, c.y + 1}, 0}}, &summary);
    ASSERT_OK(next.status());
    RepairHpa(map, summary.rects, &*next);
    GridMap fresh = *next;
    ASSERT_OK(BuildHpa(&fresh, DiagonalPolicy::kNoCornerCutting));
    EXPECT_TRUE(internal::HpaOf(*next)->SameAs(*internal::HpaOf(fresh)));
  }
}

TEST(HpaTest, WithoutAnAbstractionForThePolicyRunsWhatAutoWould) {
  GridMap map = MakeRandomMap({64, 64, 0.2, 1, false, 1}, 3);
  SearchContext context;
  const auto [a, b] = testing::FarConnectedPair(map);
  PathQuery q = testing::Query(a, b, Algorithm::kHpa,
                               DiagonalPolicy::kNoCornerCutting);
  absl::StatusOr<PathResult> r = FindPath(map, q, context);
  ASSERT_OK(r.status());
  EXPECT_EQ(r->algorithm, Algorithm::kJps);
  ASSERT_OK(BuildHpa(&map, DiagonalPolicy::kNever));
  r = FindPath(map, q, context);
  ASSERT_OK(r.status());
  EXPECT_EQ(r->algorithm, Algorithm::kJps);
  q.movement.diagonal = DiagonalPolicy::kNever;
  r = FindPath(map, q, context);
  ASSERT_OK(r.status());
  EXPECT_EQ(r->algorithm, Algorithm::kHpa);
}

// Start and goal in one cluster, split inside it by a wall and joined only
// by a way round through the cluster below: the abstract graph finds it.
TEST(HpaTest, OneClusterJoinedOnlyThroughOthers) {
  AbstractOnly abstract_only;
  std::vector<std::string> rows(kC + 8, std::string(2 * kC, '.'));
  for (int y = 0; y < kC; ++y) rows[y][10] = '#';  // All of cluster (0, 0).
  GridMap map = testing::Draw(rows);
  SearchContext context;
  for (DiagonalPolicy policy : kAllDiagonalPolicies) {
    SCOPED_TRACE(DiagonalPolicyName(policy));
    ASSERT_OK(BuildHpa(&map, policy));
    const Cell start{2, 2}, goal{20, 2};
    absl::StatusOr<PathResult> r = FindPath(
        map, testing::Query(start, goal, Algorithm::kHpa, policy), context);
    ASSERT_OK(r.status());
    EXPECT_EQ(testing::CheckPath(map, *r, start, goal, policy, true), "");
    EXPECT_GT(std::max_element(r->cells.begin(), r->cells.end(),
                               [](Cell a, Cell b) { return a.y < b.y; })
                  ->y,
              kC - 1);
  }
}

TEST(HpaTest, BudgetGivesAPartialPathFromTheStart) {
  GridMap map = MakeRandomMap({256, 256, 0.2, 1, false, 1}, 5);
  ASSERT_OK(BuildHpa(&map, DiagonalPolicy::kNoCornerCutting));
  SearchContext context;
  const auto [a, b] = testing::FarConnectedPair(map);
  PathQuery q = testing::Query(a, b, Algorithm::kHpa,
                               DiagonalPolicy::kNoCornerCutting);
  q.budget.max_expansions = 3;
  absl::StatusOr<PathResult> r = FindPath(map, q, context);
  ASSERT_OK(r.status());
  EXPECT_TRUE(r->partial);
  EXPECT_EQ(r->partial_reason, PartialReason::kMaxExpansions);
  EXPECT_LE(r->expanded, 3u);
  EXPECT_EQ(testing::CheckPath(map, *r, a, b, DiagonalPolicy::kNoCornerCutting,
                               false),
            "");
}

TEST(HpaTest, StartEqualsGoalAndNeighbours) {
  AbstractOnly abstract_only;
  GridMap map = MakeRandomMap({kC + 6, kC + 6, 0.0, 3, false, 1}, 9);
  ASSERT_OK(BuildHpa(&map, DiagonalPolicy::kAllowCornerCutting));
  SearchContext context;
  const Cell from{kC - 1, kC - 1};
  for (const Cell& goal : {from, Cell{kC, kC - 1}, Cell{kC, kC}}) {
    SCOPED_TRACE(absl::StrCat(goal.x, ",", goal.y));
    absl::StatusOr<PathResult> r = FindPath(
        map,
        testing::Query(from, goal, Algorithm::kHpa,
                       DiagonalPolicy::kAllowCornerCutting),
        context);
    ASSERT_OK(r.status());
    EXPECT_EQ(testing::CheckPath(map, *r, from, goal,
                                 DiagonalPolicy::kAllowCornerCutting, true),
              "");
  }
}

}  // namespace
}  // namespace gridstar
