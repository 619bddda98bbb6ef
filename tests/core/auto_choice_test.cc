// What kAuto runs by measurement (auto_choice.h): the candidates, the race,
// the resolution under each choice, exactness under every choice, versions
// keeping it, and groups weighing a field by the measured costs.

#include "gridstar/auto_choice.h"

#include <algorithm>
#include <cmath>
#include <cstdlib>
#include <memory>
#include <random>
#include <string>
#include <vector>

#include "absl/strings/str_cat.h"
#include "gridstar/derived_data.h"
#include "gridstar/engines/alt.h"
#include "gridstar/engines/jps.h"
#include "gridstar/find_path.h"
#include "gridstar/grid_map.h"
#include "gridstar/group_paths.h"
#include "gridstar/map_update.h"
#include "gridstar/query.h"
#include "gtest/gtest.h"
#include "testing/drawn_maps.h"
#include "testing/reference.h"
#include "testing/status_matchers.h"

namespace gridstar {
namespace {

using testing::MakeRandomMap;
using testing::StatusIs;

constexpr Algorithm kExact[] = {Algorithm::kJpsPlus, Algorithm::kJps,
                                Algorithm::kAlt, Algorithm::kBidirectional,
                                Algorithm::kAStar};

std::shared_ptr<const AutoChoice> Choice(Algorithm a,
                                         DiagonalPolicy policy =
                                             DiagonalPolicy::kNoCornerCutting) {
  auto c = std::make_shared<AutoChoice>();
  c->algorithm = a;
  c->policy = policy;
  return c;
}

TEST(AutoChoiceTest, CandidatesAreTheExactEnginesTheMapCarries) {
  GridMap uniform = MakeRandomMap({40, 40, 0.2, 1}, 1);
  const DiagonalPolicy ncc = DiagonalPolicy::kNoCornerCutting;
  EXPECT_EQ(AutoCandidatesFor(uniform, ncc),
            (std::vector<Algorithm>{Algorithm::kJps, Algorithm::kBidirectional,
                                    Algorithm::kAStar}));
  ASSERT_OK(BuildJumpTable(&uniform));
  ASSERT_OK(BuildLandmarks(&uniform, 4, ncc));
  EXPECT_EQ(AutoCandidatesFor(uniform, ncc),
            (std::vector<Algorithm>{Algorithm::kJpsPlus, Algorithm::kJps,
                                    Algorithm::kAlt, Algorithm::kBidirectional,
                                    Algorithm::kAStar}));
  // Jump point search is exact under no corner cutting only; landmarks
  // serve the policy they were built for.
  EXPECT_EQ(AutoCandidatesFor(uniform, DiagonalPolicy::kNever),
            (std::vector<Algorithm>{Algorithm::kBidirectional,
                                    Algorithm::kAStar}));
  const GridMap terrain = MakeRandomMap({40, 40, 0.2, 5}, 2);
  EXPECT_EQ(AutoCandidatesFor(terrain, ncc),
            (std::vector<Algorithm>{Algorithm::kBidirectional,
                                    Algorithm::kAStar}));
}

TEST(AutoChoiceTest, TheRaceKeepsTheFastestEngineThatRanEveryQuery) {
  for (const bool uniform : {true, false}) {
    SCOPED_TRACE(uniform ? "uniform" : "terrain");
    GridMap map = MakeRandomMap({120, 90, 0.25, uniform ? 1 : 6}, 7);
    if (uniform) {
      ASSERT_OK(BuildJumpTable(&map));
    }
    ASSERT_OK(BuildLandmarks(&map, 4, DiagonalPolicy::kNoCornerCutting));
    AutoMeasureOptions options;
    options.queries = 16;
    options.max_micros = 0;  // Every query, whatever the machine.
    const AutoChoice c = MeasureAutoChoice(map, options);
    EXPECT_EQ(c.queries, 16);
    EXPECT_GT(c.micros, 0);
    EXPECT_GT(c.flow_us_per_cell, 0);
    const std::vector<Algorithm> listed =
        AutoCandidatesFor(map, options.policy);
    ASSERT_EQ(c.candidates.size(), listed.size());
    const AutoCandidate* chosen = nullptr;
    for (size_t i = 0; i < listed.size(); ++i) {
      EXPECT_EQ(c.candidates[i].algorithm, listed[i]);
      if (c.candidates[i].algorithm == c.algorithm) chosen = &c.candidates[i];
    }
    ASSERT_NE(chosen, nullptr);
    EXPECT_EQ(c.search_us, chosen->mean_us);
    bool all_dropped = true;
    for (const AutoCandidate& other : c.candidates) {
      SCOPED_TRACE(std::string(AlgorithmName(other.algorithm)));
      EXPECT_LE(other.queries, c.queries);
      // A dropped engine stopped early; every engine still in the race ran
      // every query.
      EXPECT_EQ(other.dropped, other.queries < c.queries);
      all_dropped = all_dropped && other.dropped;
    }
    for (const AutoCandidate& other : c.candidates) {
      SCOPED_TRACE(std::string(AlgorithmName(other.algorithm)));
      if (!all_dropped) {
        // The chosen engine is in the race and none there was faster.
        EXPECT_FALSE(chosen->dropped);
        EXPECT_EQ(chosen->queries, c.queries);
        if (!other.dropped) {
          EXPECT_LE(chosen->mean_us, other.mean_us);
        }
      } else {
        // A machine disturbed throughout dropped every engine (both runs of
        // a query over the cut-off): the one that ran the most queries.
        EXPECT_GE(chosen->queries, other.queries);
        if (other.queries == chosen->queries) {
          EXPECT_LE(chosen->mean_us, other.mean_us);
        }
      }
    }
  }
}

TEST(AutoChoiceTest, TheTimeBoundEndsTheRaceAfterAQuery) {
  GridMap map = MakeRandomMap({100, 100, 0.2, 1}, 3);
  AutoMeasureOptions options;
  options.queries = 1000;
  options.max_micros = 1;  // Passed by the first timed query.
  options.flow_field = false;
  const AutoChoice c = MeasureAutoChoice(map, options);
  EXPECT_EQ(c.queries, 1);
  EXPECT_EQ(c.flow_us_per_cell, 0);
  EXPECT_FALSE(c.candidates.empty());
}

TEST(AutoChoiceTest, NothingToMeasureOnAMapWithoutTwoConnectedCells) {
  const GridMap single = testing::MakeRandomMap({1, 1, 0.0, 1}, 1);
  const AutoChoice c = MeasureAutoChoice(single, {});
  EXPECT_TRUE(c.candidates.empty());
  EXPECT_EQ(c.queries, 0);
  // As a derived structure it is absent there, and auto keeps its rule.
  GridMap map = MakeRandomMap({1, 1, 0.0, 1}, 1);
  DerivedOptions options;
  options.Ask(kAutoChoiceName);
  std::vector<DerivedReport> reports;
  ASSERT_OK(BuildDerived(options, &map, &reports));
  ASSERT_EQ(reports.size(), 1u);
  EXPECT_EQ(reports[0].outcome, DerivedOutcome::kAbsent);
  EXPECT_EQ(AutoChoiceOf(map), nullptr);
}

TEST(AutoChoiceTest, InvalidMeasureOptionsNameTheField) {
  DerivedOptions options;
  options.Ask(kAutoChoiceName);
  options.auto_measure.queries = 0;
  EXPECT_TRUE(StatusIs(ValidateDerivedOptions(options),
                       absl::StatusCode::kInvalidArgument,
                       "auto_measure.queries"));
  options.auto_measure.queries = 1001;
  EXPECT_FALSE(ValidateDerivedOptions(options).ok());
  options.auto_measure.queries = 24;
  options.auto_measure.policy = static_cast<DiagonalPolicy>(9);
  EXPECT_TRUE(StatusIs(ValidateDerivedOptions(options),
                       absl::StatusCode::kInvalidArgument,
                       "auto_measure.policy"));
}

TEST(AutoChoiceTest, AutoRunsTheChoiceWhereItApplies) {
  const DiagonalPolicy ncc = DiagonalPolicy::kNoCornerCutting;
  GridMap map = MakeRandomMap({50, 50, 0.15, 1}, 4);
  ASSERT_OK(BuildJumpTable(&map));
  ASSERT_OK(BuildLandmarks(&map, 4, ncc));
  const auto [s, g] = testing::FarConnectedPair(map);
  PathQuery q = testing::Query(s, g, Algorithm::kAuto, ncc);
  for (Algorithm a : kExact) {
    SCOPED_TRACE(std::string(AlgorithmName(a)));
    SetAutoChoice(&map, Choice(a));
    EXPECT_EQ(ResolveAlgorithm(map, q), a);
    // Measured under another policy: the rule.
    SetAutoChoice(&map, Choice(a, DiagonalPolicy::kNever));
    EXPECT_EQ(ResolveAlgorithm(map, q), Algorithm::kJpsPlus);
  }
  // jps+ chosen where the table is gone: the rule (online jps).
  GridMap no_table = MakeRandomMap({50, 50, 0.15, 1}, 4);
  SetAutoChoice(&no_table, Choice(Algorithm::kJpsPlus));
  EXPECT_EQ(ResolveAlgorithm(no_table, q), Algorithm::kJps);
  // alt chosen, landmarks absent: the rule.
  SetAutoChoice(&no_table, Choice(Algorithm::kAlt));
  EXPECT_EQ(ResolveAlgorithm(no_table, q), Algorithm::kJps);
  // jps chosen, the map no longer uniform (a version with terrain): the
  // rule, A* there.
  GridMap terrain = MakeRandomMap({50, 50, 0.15, 4}, 4);
  SetAutoChoice(&terrain, Choice(Algorithm::kJps));
  EXPECT_EQ(ResolveAlgorithm(terrain, q), Algorithm::kAStar);
  // Asking for an engine by name is never redirected.
  SetAutoChoice(&map, Choice(Algorithm::kAStar));
  q.algorithm = Algorithm::kJps;
  EXPECT_EQ(ResolveAlgorithm(map, q), Algorithm::kJps);
}

// Whatever was measured fastest, auto's answers are optimal: every choice
// on seeded random maps (uniform and terrain) against brute-force Dijkstra.
TEST(AutoChoiceTest, EveryChoiceAnswersOptimally) {
  SearchContext context;
  for (uint32_t seed = 1; seed <= 12; ++seed) {
    const bool uniform = seed % 2 == 1;
    GridMap map = MakeRandomMap({30, 24, 0.25, uniform ? 1 : 7}, seed);
    if (uniform) {
      ASSERT_OK(BuildJumpTable(&map));
    }
    ASSERT_OK(BuildLandmarks(&map, 3, DiagonalPolicy::kNoCornerCutting));
    std::mt19937 rng(seed);
    for (Algorithm a : kExact) {
      SetAutoChoice(&map, Choice(a));
      for (int k = 0; k < 6; ++k) {
        const Cell s{static_cast<int32_t>(rng() % 30),
                     static_cast<int32_t>(rng() % 24)};
        const Cell g{static_cast<int32_t>(rng() % 30),
                     static_cast<int32_t>(rng() % 24)};
        if (!map.Connected(s, g)) continue;
        SCOPED_TRACE(absl::StrCat("seed ", seed, " choice ",
                                  AlgorithmName(a), " query ", k));
        const PathQuery q = testing::Query(s, g, Algorithm::kAuto,
                                           DiagonalPolicy::kNoCornerCutting);
        absl::StatusOr<PathResult> r = FindPath(map, q, context);
        ASSERT_OK(r);
        const std::vector<double> dist = testing::ReferenceDistances(
            map, s, DiagonalPolicy::kNoCornerCutting);
        EXPECT_NEAR(r->cost, testing::Distance(dist, map, g), 1e-9);
        EXPECT_EQ(testing::CheckPath(map, *r, s, g,
                                     DiagonalPolicy::kNoCornerCutting, true),
                  "");
      }
    }
  }
}

TEST(AutoChoiceTest, NewVersionsKeepTheMeasurement) {
  GridMap map = MakeRandomMap({40, 40, 0.2, 1}, 5);
  DerivedOptions options;
  options.Ask(kJumpTableName);
  options.Ask(kAutoChoiceName);
  options.auto_measure.queries = 4;
  std::vector<DerivedReport> reports;
  ASSERT_OK(BuildDerived(options, &map, &reports));
  ASSERT_EQ(reports.back().name, "auto_choice");  // Last: after the table.
  EXPECT_EQ(reports.back().outcome, DerivedOutcome::kBuilt);
  ASSERT_NE(AutoChoiceOf(map), nullptr);
  EXPECT_EQ(AutoChoiceOf(map)->candidates.front().algorithm,
            Algorithm::kJpsPlus);
  ChangeSummary summary;
  absl::StatusOr<GridMap> next =
      ApplyChanges(map, {{{3, 3}, {4, 4}, 0}, {{4, 3}, {5, 4}, 1}}, &summary);
  ASSERT_OK(next);
  EXPECT_EQ(AutoChoiceOf(*next), AutoChoiceOf(map));  // Shared, not re-run.
  ASSERT_OK(RepairDerived(options, map, summary, &*next, &reports));
  EXPECT_EQ(reports.back().outcome, DerivedOutcome::kKept);
  EXPECT_EQ(AutoChoiceOf(*next), AutoChoiceOf(map));
}

// FindGroupPaths' auto method weighs a field against searches by the
// measured costs: a cheap field is followed even where jps runs, a dear one
// is not even where A* runs; the splicing timed per cell of distance is
// priced by the units' distance to the goal, and up or down by how much more
// or less the representative's path winds than the measured group's did.
TEST(AutoChoiceTest, GroupAutoWeighsTheMeasuredCosts) {
  GridMap map = MakeRandomMap({40, 40, 0.1, 1}, 6);
  const auto [s, g] = testing::FarConnectedPair(map);
  const double passable = static_cast<double>(map.passable_count());
  const double distance =
      8 * (std::max(std::abs(g.x - s.x), std::abs(g.y - s.y)) +
           (std::sqrt(2.0) - 1) *
               std::min(std::abs(g.x - s.x), std::abs(g.y - s.y)));
  struct Case {
    const char* name;
    Algorithm legs;           // The group's algorithm.
    Algorithm measured;       // The engine the measurement timed.
    double search_us;         // Its mean per query.
    double splice_us_total;   // 0: splicing not timed; else its total
                              // for these 8 units at the timed rate.
    double field_us;          // The field over the whole map.
    bool expect_field;
    // The measured group's detour (AutoChoice::splice_detour); 0: none.
    double splice_detour = 0;
  };
  const Case cases[] = {
      {"8 x 100 us of jps against a 500 us field", Algorithm::kAuto,
       Algorithm::kJps, 100, 0, 500, true},
      {"8 x 10 us against 500 us", Algorithm::kAuto, Algorithm::kJps, 10, 0,
       500, false},
      {"A* legs measured cheap, where the rule took a field",
       Algorithm::kAStar, Algorithm::kAStar, 10, 0, 500, false},
      {"legs' engine not measured: the rule (A* takes the field)",
       Algorithm::kAStar, Algorithm::kJps, 10, 0, 500, true},
      {"timed splicing per cell: 900 us against a 500 us field",
       Algorithm::kAuto, Algorithm::kJps, 10, 900, 500, true},
      {"timed splicing per cell: 300 us against a 500 us field",
       Algorithm::kAuto, Algorithm::kJps, 100, 300, 500, false},
      // This goal's paths (about 1.0-1.1 times octile on this open map)
      // wind twice as much as the measured group's: 300 us becomes ~630.
      {"300 us, but paths here wind twice the measured: the field",
       Algorithm::kAuto, Algorithm::kJps, 100, 300, 500, true, 0.5},
      {"300 us, paths here wind less than the measured: splicing",
       Algorithm::kAuto, Algorithm::kJps, 100, 300, 500, false, 1.2},
  };
  SearchContext context;
  for (const Case& c : cases) {
    SCOPED_TRACE(c.name);
    GroupQuery q;
    q.goals = {g};
    q.starts.assign(8, s);
    q.flow_field_min_units = 1;
    q.algorithm = c.legs;
    auto choice = std::make_shared<AutoChoice>();
    choice->algorithm = c.measured;
    choice->search_us = c.search_us;
    choice->flow_us_per_cell = c.field_us / passable;
    choice->splice_us_per_cell = c.splice_us_total / distance;
    choice->splice_detour = c.splice_detour;
    AutoCandidate candidate;
    candidate.algorithm = c.measured;
    candidate.mean_us = c.search_us;
    candidate.queries = 10;
    choice->candidates = {candidate};
    SetAutoChoice(&map, choice);
    GroupResult r;
    ASSERT_OK(FindGroupPaths(map, q, context, &r));
    EXPECT_EQ(r.used_flow_field, c.expect_field);
    for (const UnitPath& u : r.units) ASSERT_OK(u.status);
  }
}

}  // namespace
}  // namespace gridstar
