// Group paths by splicing: every unit's path legal and at least optimal,
// statuses right for bad and unreachable units, overhead reported right.
#include "gridstar/group_paths.h"

#include <atomic>
#include <random>
#include <vector>

#include "absl/strings/str_cat.h"
#include "absl/time/clock.h"
#include "gtest/gtest.h"
#include "testing/reference.h"
#include "testing/status_matchers.h"

namespace gridstar {
namespace {

using testing::CheckPath;
using testing::Distance;
using testing::kUnreachable;
using testing::MakeRandomMap;
using testing::ReferenceDistances;
using testing::StatusIs;

// Every algorithm offered for groups (all but the baseline yardstick).
constexpr Algorithm kGroupAlgorithms[] = {
    Algorithm::kAStar, Algorithm::kWeighted, Algorithm::kDijkstra,
    Algorithm::kJps,   Algorithm::kJpsPlus,  Algorithm::kAuto,
    Algorithm::kAlt};

Cell RandomCell(const GridMap& map, std::mt19937& rng) {
  return Cell{static_cast<int32_t>(rng() % map.width()),
              static_cast<int32_t>(rng() % map.height())};
}

// Checks every unit of `r` against brute-force distances from each goal.
void CheckGroup(const GridMap& map, const GroupQuery& q, const GroupResult& r) {
  ASSERT_EQ(r.units.size(), q.starts.size());
  uint32_t spliced = 0;
  double overhead_sum = 0;
  uint32_t overhead_count = 0;
  for (size_t i = 0; i < q.starts.size(); ++i) {
    SCOPED_TRACE(absl::StrCat("unit ", i));
    const Cell s = q.starts[i];
    const Cell g = q.goals.size() == 1 ? q.goals[0] : q.goals[i];
    const UnitPath& u = r.units[i];
    if (!map.Passable(s) || !map.Passable(g)) {
      EXPECT_TRUE(StatusIs(u.status, absl::StatusCode::kInvalidArgument, ""));
      continue;
    }
    const std::vector<double> dist = ReferenceDistances(map, g, q.movement.diagonal);
    const double optimal = Distance(dist, map, s);
    if (optimal == kUnreachable) {
      EXPECT_TRUE(StatusIs(u.status, absl::StatusCode::kNotFound, ""));
      continue;
    }
    ASSERT_OK(u.status);
    EXPECT_EQ(CheckPath(map, u.path, s, g, q.movement.diagonal, true), "");
    EXPECT_GE(u.path.cost, optimal - 1e-6);
    if (!u.spliced && q.algorithm != Algorithm::kWeighted) {
      EXPECT_NEAR(u.path.cost, optimal, 1e-6 * (1 + optimal));
    }
    if (u.spliced) {
      ++spliced;
      if (q.report_overhead) {
        EXPECT_NEAR(u.independent_cost, optimal, 1e-6 * (1 + optimal));
        if (optimal > 0) {
          overhead_sum += u.path.cost / optimal - 1;
          ++overhead_count;
        }
      }
    }
  }
  EXPECT_EQ(r.spliced_units, spliced);
  if (q.report_overhead && overhead_count > 0) {
    EXPECT_NEAR(r.mean_cost_overhead, overhead_sum / spliced, 1e-6);
  }
}

TEST(GroupPathsTest, RandomGroupsMatchReference) {
  int spliced_total = 0;
  for (uint32_t seed = 1; seed <= 60; ++seed) {
    const GridMap map = MakeRandomMap(
        {24 + static_cast<int>(seed % 3) * 8, 20, 0.25,
         seed % 2 == 0 ? 1 : 5, seed % 5 == 0},
        seed);
    std::mt19937 rng(seed);
    for (Algorithm a : kGroupAlgorithms) {
      for (DiagonalPolicy p : kAllDiagonalPolicies) {
        SCOPED_TRACE(absl::StrCat("seed ", seed, " ", AlgorithmName(a), " ",
                                  DiagonalPolicyName(p)));
        GroupQuery q;
        q.algorithm = a;
        q.movement.diagonal = p;
        q.report_overhead = true;
        q.max_splice_distance = 1 + static_cast<int32_t>(rng() % 16);
        const int units = 1 + static_cast<int>(rng() % 12);
        for (int u = 0; u < units; ++u) q.starts.push_back(RandomCell(map, rng));
        q.goals.push_back(RandomCell(map, rng));
        if (seed % 3 == 0) {
          for (int u = 1; u < units; ++u) q.goals.push_back(RandomCell(map, rng));
        }
        SearchContext context;
        GroupResult r;
        ASSERT_OK(FindGroupPaths(map, q, context, &r));
        CheckGroup(map, q, r);
        spliced_total += r.spliced_units;
      }
    }
  }
  // The generator must exercise splicing, not only the fallbacks.
  EXPECT_GT(spliced_total, 500);
}

// A shared goal with method kFlowField: one field search, every path
// optimal and unspliced, under every policy, on terrain and uniform maps,
// with blocked and unreachable units among them; the computed field given
// back answers the next call with no search at all.
TEST(GroupPathsTest, FlowFieldGroupsAreOptimal) {
  for (uint32_t seed = 1; seed <= 30; ++seed) {
    const GridMap map = MakeRandomMap(
        {30, 24, 0.3, seed % 2 == 0 ? 1 : 7, seed % 4 == 0}, seed);
    std::mt19937 rng(seed);
    for (DiagonalPolicy p : kAllDiagonalPolicies) {
      SCOPED_TRACE(absl::StrCat("seed ", seed, " ", DiagonalPolicyName(p)));
      GroupQuery q;
      q.movement.diagonal = p;
      q.method = GroupMethod::kFlowField;
      q.report_overhead = true;
      for (int u = 0; u < 40; ++u) q.starts.push_back(RandomCell(map, rng));
      q.goals.push_back(RandomCell(map, rng));
      SearchContext context;
      GroupResult r;
      ASSERT_OK(FindGroupPaths(map, q, context, &r));
      if (!map.Passable(q.goals[0])) {
        // A bad start is named first, else the goal.
        for (size_t i = 0; i < r.units.size(); ++i) {
          EXPECT_TRUE(StatusIs(r.units[i].status,
                               absl::StatusCode::kInvalidArgument,
                               map.Passable(q.starts[i]) ? "goals[0]" : "starts"));
        }
        continue;
      }
      EXPECT_TRUE(r.used_flow_field);
      EXPECT_EQ(r.searches, 1u);
      EXPECT_EQ(r.spliced_units, 0u);
      CheckGroup(map, q, r);
      for (const UnitPath& u : r.units) {
        if (u.status.ok()) {
          EXPECT_EQ(u.independent_cost, u.path.cost);
        }
      }
      ASSERT_NE(r.computed_flow_field, nullptr);
      // The field given back: no search, same answers.
      GroupQuery again = q;
      again.method = GroupMethod::kAuto;
      again.flow_field = r.computed_flow_field.get();
      GroupResult r2;
      ASSERT_OK(FindGroupPaths(map, again, context, &r2));
      EXPECT_TRUE(r2.used_flow_field);
      EXPECT_EQ(r2.searches, 0u);
      EXPECT_EQ(r2.computed_flow_field, nullptr);
      CheckGroup(map, again, r2);
    }
  }
}

TEST(GroupPathsTest, AutoTakesAFieldFromMinUnitsOnly) {
  const GridMap map = MakeRandomMap({40, 40, 0.1, 3, false}, 5);
  std::mt19937 rng(5);
  GroupQuery q;
  q.goals = {testing::FarConnectedPair(map).second};
  while (q.starts.size() < 10) {
    const Cell c = RandomCell(map, rng);
    if (map.Connected(c, q.goals[0])) q.starts.push_back(c);
  }
  q.flow_field_min_units = 11;
  SearchContext context;
  GroupResult r;
  ASSERT_OK(FindGroupPaths(map, q, context, &r));
  EXPECT_FALSE(r.used_flow_field);
  q.flow_field_min_units = 10;
  ASSERT_OK(FindGroupPaths(map, q, context, &r));
  EXPECT_TRUE(r.used_flow_field);
  CheckGroup(map, q, r);
  // A field for another goal or policy is not used. (The field must outlive
  // the call, and the call clears the result it was handed back in.)
  const std::shared_ptr<const FlowField> field = r.computed_flow_field;
  GroupQuery other = q;
  other.flow_field_min_units = 1000;
  other.flow_field = field.get();
  other.movement.diagonal = DiagonalPolicy::kNever;
  ASSERT_OK(FindGroupPaths(map, other, context, &r));
  EXPECT_FALSE(r.used_flow_field);
  // Where the algorithm resolves to jump point search, auto splices.
  const GridMap uniform = MakeRandomMap({40, 40, 0.1, 1, false}, 5);
  GroupQuery jps = q;
  jps.goals = {testing::FarConnectedPair(uniform).second};
  jps.starts = {jps.goals[0]};
  jps.flow_field_min_units = 1;
  jps.algorithm = Algorithm::kAuto;
  ASSERT_OK(FindGroupPaths(uniform, jps, context, &r));
  EXPECT_FALSE(r.used_flow_field);
  jps.algorithm = Algorithm::kAStar;
  ASSERT_OK(FindGroupPaths(uniform, jps, context, &r));
  EXPECT_TRUE(r.used_flow_field);
  // Own goals per unit never use a field.
  q.method = GroupMethod::kFlowField;
  q.goals.assign(q.starts.size(), q.goals[0]);
  ASSERT_OK(FindGroupPaths(map, q, context, &r));
  EXPECT_FALSE(r.used_flow_field);
}

TEST(GroupPathsTest, BadMethodOrMinUnitsIsInvalidArgument) {
  const GridMap map = MakeRandomMap({8, 8, 0, 1, false}, 1);
  SearchContext context;
  GroupResult r;
  GroupQuery q;
  q.starts = {{0, 0}};
  q.goals = {{7, 7}};
  q.method = static_cast<GroupMethod>(7);
  EXPECT_TRUE(StatusIs(FindGroupPaths(map, q, context, &r),
                       absl::StatusCode::kInvalidArgument, "method"));
  q.method = GroupMethod::kAuto;
  q.flow_field_min_units = 0;
  EXPECT_TRUE(StatusIs(FindGroupPaths(map, q, context, &r),
                       absl::StatusCode::kInvalidArgument,
                       "flow_field_min_units"));
}

TEST(GroupPathsTest, ClusteredUnitsShareOnePathCheaply) {
  const GridMap map = MakeRandomMap({96, 96, 0.15, 1, false}, 7);
  GroupQuery q;
  const auto [far_start, goal] = testing::FarConnectedPair(map);
  q.goals = {goal};
  for (int dy = 0; dy < 8 && q.starts.size() < 20; ++dy) {
    for (int dx = 0; dx < 8 && q.starts.size() < 20; ++dx) {
      const Cell c{far_start.x + dx, far_start.y + dy};
      if (map.Passable(c) && map.Connected(c, goal)) q.starts.push_back(c);
    }
  }
  ASSERT_GE(q.starts.size(), 10u);
  q.report_overhead = true;
  SearchContext context;
  GroupResult r;
  ASSERT_OK(FindGroupPaths(map, q, context, &r));
  CheckGroup(map, q, r);
  EXPECT_EQ(r.spliced_units, q.starts.size() - 1);
  EXPECT_EQ(r.searches, q.starts.size());  // One shared, one leg per unit.
  EXPECT_LT(r.mean_cost_overhead, 0.05);
}

TEST(GroupPathsTest, MalformedGroupsAreInvalidArgument) {
  const GridMap map = MakeRandomMap({8, 8, 0, 1, false}, 1);
  SearchContext context;
  GroupResult r;
  GroupQuery q;
  q.goals = {{1, 1}};
  EXPECT_TRUE(StatusIs(FindGroupPaths(map, q, context, &r), absl::StatusCode::kInvalidArgument, "starts"));
  q.starts = {{0, 0}, {1, 0}, {2, 0}};
  q.goals = {{1, 1}, {2, 2}};
  EXPECT_TRUE(StatusIs(FindGroupPaths(map, q, context, &r), absl::StatusCode::kInvalidArgument, "goals"));
  q.goals = {{1, 1}};
  q.algorithm = Algorithm::kBaseline;
  EXPECT_TRUE(StatusIs(FindGroupPaths(map, q, context, &r), absl::StatusCode::kInvalidArgument, "algorithm"));
  q.algorithm = Algorithm::kAStar;
  q.max_splice_distance = 0;
  EXPECT_TRUE(StatusIs(FindGroupPaths(map, q, context, &r), absl::StatusCode::kInvalidArgument, "max_splice_distance"));
}

TEST(GroupPathsTest, BadUnitFailsOnlyItself) {
  const GridMap map = MakeRandomMap({8, 8, 0, 1, false}, 1);
  SearchContext context;
  GroupResult r;
  GroupQuery q;
  q.starts = {{0, 0}, {40, 0}, {1, 0}};
  q.goals = {{7, 7}};
  ASSERT_OK(FindGroupPaths(map, q, context, &r));
  EXPECT_OK(r.units[0].status);
  EXPECT_TRUE(StatusIs(r.units[1].status, absl::StatusCode::kInvalidArgument, "starts[1]"));
  EXPECT_OK(r.units[2].status);
}

TEST(GroupPathsTest, PassedDeadlineFailsEveryUnit) {
  const GridMap map = MakeRandomMap({32, 32, 0.1, 1, false}, 3);
  SearchContext context;
  GroupResult r;
  GroupQuery q;
  const auto [s, g] = testing::FarConnectedPair(map);
  q.starts = {s, s};
  q.goals = {g};
  q.budget.deadline = absl::Now() - absl::Seconds(1);
  ASSERT_OK(FindGroupPaths(map, q, context, &r));
  for (const UnitPath& u : r.units) {
    EXPECT_TRUE(StatusIs(u.status, absl::StatusCode::kDeadlineExceeded, ""));
  }
  std::atomic<bool> cancelled{true};
  q.budget.deadline = absl::InfiniteFuture();
  q.budget.cancelled = &cancelled;
  ASSERT_OK(FindGroupPaths(map, q, context, &r));
  for (const UnitPath& u : r.units) {
    EXPECT_TRUE(StatusIs(u.status, absl::StatusCode::kCancelled, ""));
  }
}

}  // namespace
}  // namespace gridstar
