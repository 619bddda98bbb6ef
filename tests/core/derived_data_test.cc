// Map updates, derived structures and the query parts: every repair checked
// against a from-scratch build after every step of random update sequences,
// and the named edge cases of validation and stop statuses.
#include "gridstar/derived_data.h"

#include <algorithm>
#include <random>
#include <string>
#include <vector>

#include "absl/strings/str_cat.h"
#include "engines/alt/landmarks.h"
#include "gridstar/auto_choice.h"
#include "gridstar/engines/alt.h"
#include "gridstar/engines/hpa.h"
#include "gridstar/engines/jps.h"
#include "gridstar/engines/subgoal.h"
#include "gridstar/find_path.h"
#include "gridstar/map_update.h"
#include "gridstar/query.h"
#include "gtest/gtest.h"
#include "testing/reference.h"
#include "testing/status_matchers.h"

namespace gridstar {
namespace {

using testing::MakeRandomMap;
using testing::StatusIs;

std::string Name(size_t i) { return absl::StrCat("cells[", i, "]"); }

// A random list of 1 to 3 changes inside a w x h map; `uniform` keeps costs
// 0 or 1.
std::vector<CellChange> RandomChanges(int32_t w, int32_t h, bool uniform,
                                      std::mt19937& rng) {
  std::vector<CellChange> changes;
  for (int k = 1 + static_cast<int>(rng() % 3); k > 0; --k) {
    CellChange c;
    c.min = {static_cast<int32_t>(rng() % w), static_cast<int32_t>(rng() % h)};
    c.max = {std::min(w, c.min.x + 1 + static_cast<int32_t>(rng() % 4)),
             std::min(h, c.min.y + 1 + static_cast<int32_t>(rng() % 4))};
    c.cost = static_cast<uint8_t>(uniform ? rng() % 2 : rng() % 6);
    changes.push_back(c);
  }
  return changes;
}

TEST(MapUpdateTest, ValidationNamesTheFirstBadChange) {
  const std::vector<CellChange> changes = {
      {{0, 0}, {2, 2}, 1}, {{3, 0}, {3, 1}, 1}, {{-1, 0}, {1, 1}, 1}};
  EXPECT_TRUE(StatusIs(ValidateChanges(4, 4, changes, Name),
                       absl::StatusCode::kInvalidArgument,
                       "cells[1]: [3, 3) x [0, 1) is empty"));
  EXPECT_OK(ValidateChanges(4, 4, absl::MakeSpan(changes).subspan(0, 1), Name));
  EXPECT_TRUE(StatusIs(ValidateChanges(4, 4, {{{0, 0}, {5, 1}, 1}}, Name),
                       absl::StatusCode::kInvalidArgument,
                       "not inside the 4 x 4 map"));
  EXPECT_OK(ValidateChanges(4, 4, {}, Name));
}

TEST(MapUpdateTest, SummarySaysWhetherCostsOnlyRose) {
  std::vector<uint8_t> costs = {1, 2, 0, 3};
  struct Case {
    const char* name;
    CellChange change;
    bool only_raised;
    int64_t changed;
  } cases[] = {
      {"raise", {{1, 0}, {2, 1}, 5}, true, 1},
      {"block", {{0, 0}, {2, 1}, 0}, true, 2},
      {"same cost", {{3, 0}, {4, 1}, 3}, true, 0},
      {"lower", {{3, 0}, {4, 1}, 1}, false, 1},
      {"unblock", {{2, 0}, {3, 1}, 9}, false, 1},
  };
  for (const Case& c : cases) {
    SCOPED_TRACE(c.name);
    std::vector<uint8_t> copy = costs;
    const ChangeSummary s =
        ApplyChangesToCosts(4, {c.change}, absl::MakeSpan(copy));
    EXPECT_EQ(s.only_raised, c.only_raised);
    EXPECT_EQ(s.cells_changed, c.changed);
  }
}

TEST(MapUpdateTest, ApplyChangesMatchesAFreshMapAfterEveryStep) {
  for (uint32_t seed = 1; seed <= 40; ++seed) {
    SCOPED_TRACE(absl::StrCat("seed ", seed));
    std::mt19937 rng(seed);
    const int32_t w = 3 + static_cast<int32_t>(rng() % 30);
    const int32_t h = 3 + static_cast<int32_t>(rng() % 30);
    GridMap map = MakeRandomMap({w, h, 0.3, seed % 2 ? 1 : 5}, seed);
    std::vector<uint8_t> costs = map.CopyCosts();
    for (int step = 0; step < 25; ++step) {
      const auto changes = RandomChanges(w, h, seed % 2 == 1, rng);
      ChangeSummary summary;
      absl::StatusOr<GridMap> next = ApplyChanges(map, changes, &summary);
      ASSERT_OK(next);
      ApplyChangesToCosts(w, changes, absl::MakeSpan(costs));
      const GridMap fresh = GridMap::FromCosts(w, h, costs).value();
      ASSERT_EQ(next->CopyCosts(), costs);
      ASSERT_EQ(next->passable_count(), fresh.passable_count());
      ASSERT_EQ(next->component_count(), fresh.component_count());
      ASSERT_EQ(next->uniform_cost(), fresh.uniform_cost());
      for (int32_t y = 0; y < h; ++y) {
        for (int32_t x = 0; x < w; ++x) {
          ASSERT_EQ(next->component(Cell{x, y}) == 0,
                    fresh.component(Cell{x, y}) == 0);
        }
      }
      map = *std::move(next);
    }
  }
}

TEST(MapUpdateTest, MapsOverTheDefaultLimitsStillUpdate) {
  MapLimits big;
  big.max_width = 9000;
  big.max_cells = 9000;
  const GridMap map =
      GridMap::FromCosts(9000, 1, std::vector<uint8_t>(9000, 1), big).value();
  ChangeSummary summary;
  absl::StatusOr<GridMap> next =
      ApplyChanges(map, {{{8999, 0}, {9000, 1}, 0}}, &summary);
  ASSERT_OK(next);
  EXPECT_EQ(next->passable_count(), 8999);
}

// The jump table of a repaired map equals a fresh build; landmarks are
// either a fresh build or the old ones kept, which must then still be lower
// bounds of the new distances.
TEST(DerivedDataTest, RepairEqualsAFreshBuildAfterEveryStep) {
  for (uint32_t seed = 1; seed <= 24; ++seed) {
    SCOPED_TRACE(absl::StrCat("seed ", seed));
    std::mt19937 rng(seed * 7919);
    const bool uniform = seed % 3 != 0;
    const int32_t w = 8 + static_cast<int32_t>(rng() % 20);
    const int32_t h = 8 + static_cast<int32_t>(rng() % 20);
    DerivedOptions options;
    options.Ask(kJumpTableName);
    options.Ask(kLandmarksName, {1 + static_cast<int>(seed % 3),
                                 kAllDiagonalPolicies[seed % 3]});
    GridMap map = MakeRandomMap({w, h, 0.25, uniform ? 1 : 4}, seed);
    std::vector<DerivedReport> reports;
    ASSERT_OK(BuildDerived(options, &map, &reports));
    for (int step = 0; step < 15; ++step) {
      SCOPED_TRACE(absl::StrCat("step ", step));
      const auto changes = RandomChanges(w, h, uniform, rng);
      ChangeSummary summary;
      GridMap next = ApplyChanges(map, changes, &summary).value();
      ASSERT_OK(RepairDerived(options, map, summary, &next, &reports));
      GridMap fresh = GridMap::FromCosts(w, h, next.CopyCosts()).value();
      std::vector<DerivedReport> fresh_reports;
      ASSERT_OK(BuildDerived(options, &fresh, &fresh_reports));
      // Jump table.
      ASSERT_EQ(HasJumpTable(next), HasJumpTable(fresh));
      if (HasJumpTable(fresh)) {
        ASSERT_TRUE(JumpTableEquals(next, fresh));
      }
      // Landmarks.
      ASSERT_EQ(LandmarkCount(next) > 0, LandmarkCount(fresh) > 0);
      if (LandmarkCount(fresh) > 0) {
        const bool kept = reports[0].outcome == DerivedOutcome::kKept;
        ASSERT_EQ(kept, summary.only_raised && LandmarkCount(map) > 0);
        if (!kept) {
          ASSERT_TRUE(LandmarkCells(next) == LandmarkCells(fresh));
        }
        for (int k = 0; k < LandmarkCount(next); ++k) {
          const std::vector<double> truth =
              testing::ReferenceDistances(next, LandmarkCells(next)[k],
                                          options.Find(kLandmarksName)->policy);
          for (int32_t y = 0; y < h; ++y) {
            for (int32_t x = 0; x < w; ++x) {
              const double d = internal::LandmarksOf(next)->distances(
                  next.PaddedIndex({x, y}))[k];
              const double t = truth[static_cast<size_t>(y) * w + x];
              if (kept) {
                // Old bounds: never above the new distance where both exist.
                if (d >= 0 && t != testing::kUnreachable) {
                  ASSERT_LE(d, t + 1e-9);
                }
              } else if (t == testing::kUnreachable) {
                ASSERT_LT(d, 0);
              } else {
                ASSERT_NEAR(d, t, 1e-9);
              }
            }
          }
        }
      }
      map = std::move(next);
    }
  }
}

TEST(DerivedDataTest, StructuresThatDoNotApplyAreAbsentNotErrors) {
  GridMap blocked =
      GridMap::FromCosts(4, 4, std::vector<uint8_t>(16, 0)).value();
  DerivedOptions options;
  options.Ask(kJumpTableName);
  options.Ask(kLandmarksName, {2});
  std::vector<DerivedReport> reports;
  ASSERT_OK(BuildDerived(options, &blocked, &reports));
  ASSERT_EQ(reports.size(), 2u);
  for (const DerivedReport& r : reports) {
    EXPECT_EQ(r.outcome, DerivedOutcome::kAbsent) << r.name;
  }
  EXPECT_EQ(DerivedBytesFor(options, blocked), 0u);
  GridMap terrain = MakeRandomMap({10, 10, 0.1, 5, false, 2}, 3);
  options.structures.erase(std::string(kLandmarksName));
  ASSERT_OK(BuildDerived(options, &terrain, &reports));
  EXPECT_EQ(reports.at(0).name, "jump_table");
  EXPECT_EQ(reports.at(0).outcome, DerivedOutcome::kAbsent);
  EXPECT_FALSE(HasJumpTable(terrain));
}

TEST(DerivedDataTest, BytesForIsKnownBeforeBuildingAndMatches) {
  GridMap map = MakeRandomMap({40, 30, 0.2, 1}, 5);
  DerivedOptions options;
  options.Ask(kJumpTableName);
  options.Ask(kLandmarksName, {3});
  const size_t predicted = DerivedBytesFor(options, map);
  std::vector<DerivedReport> reports;
  ASSERT_OK(BuildDerived(options, &map, &reports));
  EXPECT_EQ(predicted, JumpTableBytes(map) + LandmarkBytes(map));
  EXPECT_GT(reports[0].micros, 0);
}

TEST(DerivedDataTest, OptionsAreValidated) {
  DerivedOptions options;
  options.Ask(kLandmarksName, {kMaxLandmarks + 1});
  EXPECT_TRUE(StatusIs(ValidateDerivedOptions(options),
                       absl::StatusCode::kInvalidArgument, "landmarks: 33"));
  options.Ask(kLandmarksName, {-1});
  EXPECT_FALSE(ValidateDerivedOptions(options).ok());
  options.Ask(kLandmarksName, {1, static_cast<DiagonalPolicy>(7)});
  EXPECT_TRUE(StatusIs(ValidateDerivedOptions(options),
                       absl::StatusCode::kInvalidArgument, "diagonal"));
}

TEST(DerivedDataTest, StructuresAreAskedForByNameAndUnknownNamesListTheKnown) {
  const std::vector<std::string> known = KnownStructureNames();
  for (absl::string_view name : {kLandmarksName, kJumpTableName, kHpaName,
                                 kSubgoalGraphName, kAutoChoiceName}) {
    EXPECT_NE(std::find(known.begin(), known.end(), name), known.end()) << name;
  }
  DerivedOptions options;
  options.Ask("contraction_of_nothing");
  EXPECT_TRUE(StatusIs(ValidateDerivedOptions(options),
                       absl::StatusCode::kInvalidArgument,
                       "structures: no engine keeps a structure named "
                       "'contraction_of_nothing' (known: landmarks, "));
}

TEST(DerivedDataTest,
     ACountOfZeroIsTheStructuresDefaultAndSizelessOnesTakeOne) {
  GridMap map = MakeRandomMap({30, 30, 0.2, 3}, 2);
  DerivedOptions options;
  options.Ask(kLandmarksName);  // count 0
  ASSERT_OK(ValidateDerivedOptions(options));
  std::vector<DerivedReport> reports;
  ASSERT_OK(BuildDerived(options, &map, &reports));
  EXPECT_EQ(LandmarkCount(map), kDefaultLandmarks);
  options.Ask(kHpaName, {1});
  ASSERT_OK(ValidateDerivedOptions(options));
  options.Ask(kHpaName, {2});
  EXPECT_TRUE(StatusIs(ValidateDerivedOptions(options),
                       absl::StatusCode::kInvalidArgument,
                       "hpa: 2 is out of range [0, 1]"));
}

// What an owner does with deferred structures (the server's background
// job): each finished from the newest version that carried it and every
// change since, after any number of updates, equals a fresh build.
TEST(DerivedDataTest, PendingStructuresFinishedFromTheirBaseEqualAFreshBuild) {
  for (uint32_t seed = 1; seed <= 4; ++seed) {
    SCOPED_TRACE(absl::StrCat("seed ", seed));
    GridMap map = MakeRandomMap({40, 33, 0.25, 1}, seed);
    DerivedOptions options;
    options.Ask(kJumpTableName).Ask(kLandmarksName, {2}).Ask(kSubgoalGraphName);
    std::vector<DerivedReport> reports;
    ASSERT_OK(BuildDerived(options, &map, &reports));
    DerivedOptions deferring = options;
    deferring.defer_slow_repairs = true;
    PendingStructures pending;
    std::mt19937 rng(seed);
    for (uint64_t version = 2; version < 14; ++version) {
      SCOPED_TRACE(absl::StrCat("version ", version));
      const Cell c{static_cast<int32_t>(rng() % 38),
                   static_cast<int32_t>(rng() % 31)};
      ChangeSummary summary;
      absl::StatusOr<GridMap> next = ApplyChanges(
          map, {{c, {c.x + 2, c.y + 2}, static_cast<uint8_t>(rng() % 2)}},
          &summary);
      ASSERT_OK(next.status());
      ASSERT_OK(RepairDerived(deferring, map, summary, &*next, &reports,
                              PendingNames(pending)));
      pending = NextPending(pending, map, version, summary, reports);
      map = *std::move(next);
      if (rng() % 3 != 0) continue;  // Let updates pile up now and then.
      // Landmarks kept (costs only rose) are valid but need not be a fresh
      // build's: compared when rebuilt.
      const bool landmarks_rebuilt = pending.count(kLandmarksName) > 0;
      for (const auto& [name, entry] : pending) {
        ASSERT_OK(FinishPendingStructure(options, name, entry, &map).status());
      }
      pending.clear();
      GridMap fresh =
          GridMap::FromCosts(map.width(), map.height(), map.CopyCosts())
              .value();
      ASSERT_OK(BuildDerived(options, &fresh, &reports));
      EXPECT_TRUE(JumpTableEquals(map, fresh));
      EXPECT_TRUE(SubgoalGraphEquals(map, fresh));
      EXPECT_EQ(LandmarkCount(map), LandmarkCount(fresh));
      if (landmarks_rebuilt) {
        EXPECT_TRUE(LandmarkCells(map) == LandmarkCells(fresh));
      }
    }
  }
}

TEST(QueryPartsTest, AutoFollowsTheOwnersJumpTableChoice) {
  GridMap map = MakeRandomMap({60, 60, 0.1, 1}, 12);
  ASSERT_OK(BuildJumpTable(&map));
  PathQuery q;
  q.algorithm = Algorithm::kAuto;
  EXPECT_EQ(ResolveAlgorithm(map, q), Algorithm::kJpsPlus);
  auto choice = std::make_shared<AutoChoice>();
  choice->algorithm = Algorithm::kJps;
  SetAutoChoice(&map, choice);
  EXPECT_EQ(ResolveAlgorithm(map, q), Algorithm::kJps);
  q.algorithm = Algorithm::kJpsPlus;  // Asked for by name: the table.
  EXPECT_EQ(ResolveAlgorithm(map, q), Algorithm::kJpsPlus);
}

TEST(QueryPartsTest, StopStatusWordsEachReasonOnce) {
  SearchBudget budget;
  budget.max_expansions = 12;
  EXPECT_OK(StopStatus(PartialReason::kNone, budget, 3));
  EXPECT_TRUE(StatusIs(StopStatus(PartialReason::kCancelled, budget, 3),
                       absl::StatusCode::kCancelled, "cancelled"));
  EXPECT_TRUE(StatusIs(StopStatus(PartialReason::kDeadline, budget, 3),
                       absl::StatusCode::kDeadlineExceeded,
                       "after 3 expansions"));
  EXPECT_TRUE(StatusIs(StopStatus(PartialReason::kMaxExpansions, budget, 12),
                       absl::StatusCode::kResourceExhausted,
                       "max_expansions: 12 reached before the goal"));
}

TEST(QueryPartsTest, BudgetCheckNowSeesTheFlagBeforeTheClock) {
  SearchBudget budget;
  EXPECT_FALSE(budget.timed());
  EXPECT_EQ(budget.CheckNow(), PartialReason::kNone);
  budget.deadline = absl::InfinitePast();
  EXPECT_TRUE(budget.timed());
  EXPECT_EQ(budget.CheckNow(), PartialReason::kDeadline);
  std::atomic<bool> cancelled{true};
  budget.cancelled = &cancelled;
  EXPECT_EQ(budget.CheckNow(), PartialReason::kCancelled);
}

TEST(QueryPartsTest, OneValidatorPerPart) {
  EXPECT_TRUE(StatusIs(ValidateMovement({static_cast<DiagonalPolicy>(3)}),
                       absl::StatusCode::kInvalidArgument,
                       "diagonal: unknown value 3"));
  for (DiagonalPolicy p : kAllDiagonalPolicies) {
    EXPECT_OK(ValidateMovement({p}));
  }
  EXPECT_TRUE(StatusIs(ValidateAlgorithm(static_cast<Algorithm>(40), 1.5),
                       absl::StatusCode::kInvalidArgument,
                       "algorithm: unknown value 40"));
  EXPECT_TRUE(StatusIs(ValidateAlgorithm(Algorithm::kWeighted, 0.5),
                       absl::StatusCode::kInvalidArgument, "weight: 0.5"));
  EXPECT_OK(ValidateAlgorithm(Algorithm::kAStar, 0.5));  // Weight unused.
}

TEST(QueryPartsTest, AlgorithmNamesParseBackAndTheErrorListsThemAll) {
  for (Algorithm a : kAllAlgorithms) {
    absl::StatusOr<Algorithm> back = ParseAlgorithm(AlgorithmName(a));
    ASSERT_OK(back);
    EXPECT_EQ(*back, a);
  }
  const absl::Status s = ParseAlgorithm("fast").status();
  for (Algorithm a : kAllAlgorithms) {
    EXPECT_NE(s.message().find(AlgorithmName(a)), absl::string_view::npos)
        << AlgorithmName(a);
  }
}

// What the background job runs: from a version without them, the named
// structures only are built.
TEST(DerivedDataTest, RepairDerivedNamedFinishesOnlyTheNamedStructures) {
  DerivedOptions options;
  options.Ask(kJumpTableName);
  options.Ask(kLandmarksName, {2});
  options.Ask(kSubgoalGraphName);
  const GridMap without = MakeRandomMap({24, 20, 0.2, 1}, 7);
  GridMap map = without;
  std::vector<DerivedReport> reports;
  const std::vector<std::string> names = {"subgoal_graph", "landmarks",
                                          "no_such_structure"};
  ASSERT_OK(RepairDerivedNamed(options, names, without, ChangeSummary{}, &map,
                               &reports));
  // In build order, the named ones only; an unknown name builds nothing.
  ASSERT_EQ(reports.size(), 2u);
  EXPECT_EQ(reports[0].name, "landmarks");
  EXPECT_EQ(reports[1].name, "subgoal_graph");
  EXPECT_EQ(reports[1].outcome, DerivedOutcome::kBuilt);
  EXPECT_EQ(LandmarkCount(map), 2);
  EXPECT_TRUE(HasSubgoalGraph(map));
  EXPECT_FALSE(HasJumpTable(map));
  // Nothing named: nothing built.
  GridMap bare = MakeRandomMap({24, 20, 0.2, 1}, 7);
  ASSERT_OK(RepairDerivedNamed(options, {}, without, ChangeSummary{}, &bare,
                               &reports));
  EXPECT_TRUE(reports.empty());
  EXPECT_EQ(bare.AttachmentBytes(), 0u);
}

}  // namespace
}  // namespace gridstar
