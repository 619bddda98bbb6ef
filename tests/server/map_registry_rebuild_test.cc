// MapRegistry's background job (map_registry.h: ClaimRebuild,
// RebuildPending): landmarks kept or rebuilt, the subgoal graph rebuilt, the
// jump table repaired from its base, newer versions re-based, each
// structure installed as soon as it is done; every result against a fresh
// build.
#include <memory>
#include <random>
#include <string>
#include <vector>

#include "absl/strings/str_cat.h"
#include "gridstar/engines/alt.h"
#include "gridstar/engines/jps.h"
#include "gridstar/engines/subgoal.h"
#include "gridstar/find_path.h"
#include "gridstar/map_update.h"
#include "gtest/gtest.h"
#include "maps/map_registry.h"
#include "server/map_registry_test_util.h"
#include "testing/status_matchers.h"

namespace gridstar::server {
namespace {

using registry_testing::Field;
using registry_testing::Random;
using registry_testing::Uniform;

TEST(MapRegistryTest,
     LandmarksKeptWhenCostsOnlyRiseRebuiltInTheBackgroundOtherwise) {
  MapRegistry registry(nullptr, {});
  MapOptions options;
  options.Set("landmarks", 3);
  ASSERT_OK(registry.Register("m", Random(30, 30, 2, false), options, false));
  auto v1 = registry.Find("m");
  EXPECT_GT(v1->BuildMicros("landmarks"), 0);
  // Raise one passable cell's cost and block another: kept, shared.
  Cell a{-1, -1}, b{-1, -1};
  for (int32_t y = 0; y < 30 && b.x < 0; ++y) {
    for (int32_t x = 0; x < 30; ++x) {
      if (!v1->map.Passable({x, y}) || v1->map.cost({x, y}) == 255) continue;
      if (a.x < 0) {
        a = {x, y};
      } else {
        b = {x, y};
        break;
      }
    }
  }
  const uint8_t raised = static_cast<uint8_t>(v1->map.cost(a) + 1);
  auto v2 = registry.Update(
      "m", {{a, {a.x + 1, a.y + 1}, raised}, {b, {b.x + 1, b.y + 1}, 0}}, 0,
      Field);
  ASSERT_OK(v2);
  EXPECT_EQ((*v2)->derived.at(0).outcome, DerivedOutcome::kKept);
  EXPECT_EQ((*v2)->BuildMicros("landmarks"), 0);
  // The same landmarks, shared (not rebuilt, not copied).
  EXPECT_EQ((*v2)->map.attachment(Algorithm::kAlt),
            v1->map.attachment(Algorithm::kAlt));
  // Lowering a cost can shorten distances: the version goes out without
  // landmarks, and the rebuild (off the update's path) installs fresh ones
  // in that same version.
  auto v3 = registry.Update("m", {{a, {a.x + 1, a.y + 1}, 1}}, 0, Field);
  ASSERT_OK(v3);
  EXPECT_EQ((*v3)->derived.at(0).outcome, DerivedOutcome::kDeferred);
  EXPECT_TRUE((*v3)->Pending("landmarks"));
  EXPECT_EQ(LandmarkCount((*v3)->map), 0);
  ASSERT_TRUE(registry.ClaimRebuild("m"));
  EXPECT_FALSE(registry.ClaimRebuild("m"));  // Claimed once.
  ASSERT_OK(registry.RebuildPending("m"));
  std::shared_ptr<const MapSnapshot> rebuilt = registry.Find("m");
  EXPECT_EQ(rebuilt->version, (*v3)->version);
  EXPECT_FALSE(rebuilt->Pending("landmarks"));
  EXPECT_EQ(rebuilt->derived.at(0).outcome, DerivedOutcome::kBuilt);
  EXPECT_GT(rebuilt->BuildMicros("landmarks"), 0);
  GridMap fresh = rebuilt->map;
  ASSERT_OK(BuildLandmarks(&fresh, 3, DiagonalPolicy::kNoCornerCutting));
  EXPECT_TRUE(LandmarkCells(fresh) == LandmarkCells(rebuilt->map));
  EXPECT_FALSE(registry.ClaimRebuild("m"));  // Nothing pending.
}

// A subgoal graph: built at registration; an update that changes cells
// installs a version without one (pending), a claim is taken once, and the
// rebuild installs a graph equal to a fresh build in that same version; a
// rebuild overtaken by a newer version installs nothing, and the newest
// version is claimed and rebuilt in turn.
TEST(MapRegistryTest, SubgoalGraphRebuiltInTheBackgroundForTheNewestVersion) {
  MapRegistry registry(nullptr, {});
  MapOptions options;
  options.Set("subgoal_graph", 1);
  ASSERT_OK(registry.Register("m", Random(40, 30, 4, true), options, false));
  std::shared_ptr<const MapSnapshot> v1 = registry.Find("m");
  EXPECT_TRUE(HasSubgoalGraph(v1->map));
  EXPECT_FALSE(v1->Pending("subgoal_graph"));
  EXPECT_GT(v1->BuildMicros("subgoal_graph"), 0);
  EXPECT_FALSE(registry.ClaimRebuild("m"));  // Nothing pending.
  const CellChange block{{3, 3}, {6, 4}, 0};
  ASSERT_OK(registry.Update("m", {block}, 0, Field));
  std::shared_ptr<const MapSnapshot> v2 = registry.Find("m");
  EXPECT_TRUE(v2->Pending("subgoal_graph"));
  ASSERT_TRUE(registry.ClaimRebuild("m"));
  EXPECT_FALSE(registry.ClaimRebuild("m"));  // Claimed once.
  ASSERT_OK(registry.RebuildPending("m"));
  std::shared_ptr<const MapSnapshot> rebuilt = registry.Find("m");
  EXPECT_EQ(rebuilt->version, v2->version);
  EXPECT_FALSE(rebuilt->Pending("subgoal_graph"));
  EXPECT_GT(rebuilt->BuildMicros("subgoal_graph"), 0);
  GridMap fresh = rebuilt->map;
  ASSERT_OK(BuildSubgoalGraph(&fresh));
  EXPECT_TRUE(SubgoalGraphEquals(fresh, rebuilt->map));
  // An update that changes nothing keeps the graph.
  ASSERT_OK(registry.Update("m", {block}, 0, Field));
  EXPECT_FALSE(registry.Find("m")->Pending("subgoal_graph"));
  // Two updates in a row: the claim of the first is dropped when its
  // rebuild starts, and the second version claims its own.
  ASSERT_OK(registry.Update("m", {{{10, 10}, {11, 11}, 0}}, 0, Field));
  ASSERT_TRUE(registry.ClaimRebuild("m"));
  registry.DropRebuildClaim("m");
  ASSERT_OK(registry.Update("m", {{{12, 10}, {13, 11}, 0}}, 0, Field));
  ASSERT_TRUE(registry.ClaimRebuild("m"));
  ASSERT_OK(registry.RebuildPending("m"));
  EXPECT_FALSE(registry.Find("m")->Pending("subgoal_graph"));
  // Terrain: the graph does not apply, and nothing is ever pending.
  ASSERT_OK(registry.Register("t", Random(20, 20, 6, false), options, false));
  EXPECT_FALSE(HasSubgoalGraph(registry.Find("t")->map));
  EXPECT_FALSE(registry.Find("t")->Pending("subgoal_graph"));
}

TEST(MapRegistryTest, LandmarkClaimsFollowTheNewestVersion) {
  MapRegistry registry(nullptr, {});
  MapOptions options;
  options.Set("landmarks", 1);
  ASSERT_OK(registry.Register("m", Random(20, 20, 5, false), options, false));
  std::shared_ptr<const MapSnapshot> v1 = registry.Find("m");
  Cell blocked{-1, -1};
  for (int32_t i = 0; i < 400 && blocked.x < 0; ++i) {
    if (!v1->map.Passable({i % 20, i / 20})) blocked = {i % 20, i / 20};
  }
  ASSERT_GE(blocked.x, 0);
  const CellChange open{blocked, {blocked.x + 1, blocked.y + 1}, 1};
  ASSERT_OK(registry.Update("m", {open}, 0, Field));
  ASSERT_TRUE(registry.ClaimRebuild("m"));
  ASSERT_OK(registry.RebuildPending("m"));
  EXPECT_FALSE(registry.Find("m")->Pending("landmarks"));
  // Blocking only raises: the landmarks are kept; opening again makes the
  // newest version pending, and a dropped claim can be claimed again.
  const CellChange lower{blocked, {blocked.x + 1, blocked.y + 1}, 0};
  ASSERT_OK(registry.Update("m", {lower}, 0, Field));  // Only raised: kept.
  EXPECT_FALSE(registry.Find("m")->Pending("landmarks"));
  ASSERT_OK(registry.Update("m", {open}, 0, Field));
  EXPECT_TRUE(registry.Find("m")->Pending("landmarks"));
  EXPECT_TRUE(registry.ClaimRebuild("m"));
  registry.DropRebuildClaim("m");
  EXPECT_TRUE(registry.ClaimRebuild("m"));  // A dropped claim frees.
}

// The table of `map`, built from scratch.
GridMap WithFreshTable(const GridMap& map) {
  GridMap fresh =
      GridMap::FromCosts(map.width(), map.height(), map.CopyCosts()).value();
  EXPECT_OK(BuildJumpTable(&fresh));
  return fresh;
}

bool SameTable(const GridMap& got, const GridMap& want) {
  return HasJumpTable(got) && HasJumpTable(want) &&
         JumpTableBytes(got) == JumpTableBytes(want) &&
         JumpTableEquals(got, want);
}

// Runs the claimed background repairs of map id until none is pending, as
// the service's background thread does.
void RepairTables(MapRegistry& registry, const std::string& id) {
  while (registry.ClaimRebuild(id)) {
    absl::StatusOr<bool> again = registry.RebuildPending(id);
    ASSERT_OK(again);
  }
}

// Updates leave the table to the background; repairs run after one update
// or after several (then from the last version with a table and every
// change since), and each equals a fresh build. A non-uniform version has
// no table and nothing pending; the next uniform one builds it at once.
TEST(MapRegistryTest, JumpTableRepairedInTheBackgroundMatchesAFreshBuild) {
  MapRegistry registry(nullptr, {});
  MapOptions options;
  options.Set("jump_table", 1);
  ASSERT_OK(registry.Register("m", Random(25, 19, 3, true), options, false));
  std::mt19937 rng(4);
  PathQuery auto_query;
  auto_query.algorithm = Algorithm::kAuto;
  for (int step = 0; step < 60; ++step) {
    SCOPED_TRACE(absl::StrCat("step ", step));
    const bool had_table = HasJumpTable(registry.Find("m")->map);
    const bool was_pending = registry.Find("m")->Pending("jump_table");
    const Cell c{static_cast<int32_t>(rng() % 25),
                 static_cast<int32_t>(rng() % 19)};
    // Now and then a cost of 2 makes the map non-uniform, then it returns.
    const uint8_t cost = step % 11 == 5 ? 2 : static_cast<uint8_t>(rng() % 2);
    auto next = registry.Update("m", {{c, {c.x + 1, c.y + 1}, cost}}, 0, Field);
    ASSERT_OK(next);
    const GridMap& got = (*next)->map;
    if (!got.uniform_cost()) {
      EXPECT_FALSE(HasJumpTable(got));
      EXPECT_FALSE((*next)->Pending("jump_table"));
      continue;
    }
    if (had_table || was_pending) {
      // Answered without the table: jps+ and auto run online jps.
      EXPECT_TRUE((*next)->Pending("jump_table"));
      EXPECT_FALSE(HasJumpTable(got));
      EXPECT_EQ(ResolveAlgorithm(got, auto_query), Algorithm::kJps);
    } else {
      EXPECT_FALSE((*next)->Pending("jump_table"));  // Built at once.
      EXPECT_TRUE(SameTable(got, WithFreshTable(got)));
    }
    if (rng() % 3 != 0) continue;  // Let changes pile up now and then.
    RepairTables(registry, "m");
    std::shared_ptr<const MapSnapshot> repaired = registry.Find("m");
    EXPECT_EQ(repaired->version, (*next)->version);
    EXPECT_FALSE(repaired->Pending("jump_table"));
    EXPECT_TRUE(SameTable(repaired->map, WithFreshTable(repaired->map)));
    EXPECT_EQ(ResolveAlgorithm(repaired->map, auto_query), Algorithm::kJpsPlus);
  }
}

// An update that lands while a repair runs: the repaired table is not the
// newest version's, so the newest is re-based on it (and keeps only its
// own changes) and the repair says to go again.
TEST(MapRegistryTest, AnUpdateDuringARepairReBasesTheNewestVersion) {
  MapRegistry registry(nullptr, {});
  MapOptions options;
  options.Set("jump_table", 1);
  ASSERT_OK(registry.Register("m", Random(40, 30, 8, true), options, false));
  ASSERT_OK(registry.Update("m", {{{3, 4}, {4, 5}, 0}}, 0, Field));
  bool updated = false;
  registry.SetBeforeInstallForTesting([&] {
    if (updated) return;
    updated = true;
    ASSERT_OK(registry.Update("m", {{{20, 10}, {25, 12}, 0}}, 0, Field));
  });
  const std::shared_ptr<const MapSnapshot> v2 = registry.Find("m");
  ASSERT_TRUE(registry.ClaimRebuild("m"));
  absl::StatusOr<bool> again = registry.RebuildPending("m");
  ASSERT_OK(again);
  EXPECT_TRUE(*again);
  std::shared_ptr<const MapSnapshot> v3 = registry.Find("m");
  EXPECT_EQ(v3->version, 3u);
  ASSERT_TRUE(v3->Pending("jump_table"));
  const PendingDerived& entry = v3->pending.at("jump_table");
  // The new base: version 2's cells with its table repaired.
  EXPECT_EQ(entry.base->CopyCosts(), v2->map.CopyCosts());
  EXPECT_TRUE(SameTable(*entry.base, WithFreshTable(*entry.base)));
  ASSERT_EQ(entry.changes.size(), 1u);
  EXPECT_EQ(entry.changes[0].first, 3u);
  RepairTables(registry, "m");
  EXPECT_FALSE(registry.Find("m")->Pending("jump_table"));
  EXPECT_TRUE(SameTable(registry.Find("m")->map,
                        WithFreshTable(registry.Find("m")->map)));
}

// An update that lands while a job runs stops it after the structure it
// was finishing: the subgoal graph is not rebuilt for the version the
// update left behind; the newest keeps both pending (the table re-based on
// the repaired one) and the next job finishes both for it.
TEST(MapRegistryTest, AnUpdateDuringAJobLeavesTheRestToTheNewestVersion) {
  MapRegistry registry(nullptr, {});
  MapOptions options;
  options.Set("jump_table", 1).Set("subgoal_graph", 1);
  ASSERT_OK(registry.Register("m", Random(40, 30, 13, true), options, false));
  ASSERT_OK(registry.Update("m", {{{3, 4}, {4, 5}, 0}}, 0, Field));
  int installs = 0;
  registry.SetBeforeInstallForTesting([&] {
    if (++installs > 1) return;
    ASSERT_OK(registry.Update("m", {{{20, 10}, {25, 12}, 0}}, 0, Field));
  });
  ASSERT_TRUE(registry.ClaimRebuild("m"));
  absl::StatusOr<bool> again = registry.RebuildPending("m");
  ASSERT_OK(again);
  EXPECT_TRUE(*again);
  EXPECT_EQ(installs, 1) << "the subgoal graph was built for version 2";
  std::shared_ptr<const MapSnapshot> v3 = registry.Find("m");
  EXPECT_EQ(v3->version, 3u);
  EXPECT_TRUE(v3->Pending("jump_table"));
  EXPECT_TRUE(v3->Pending("subgoal_graph"));
  ASSERT_TRUE(registry.ClaimRebuild("m"));
  again = registry.RebuildPending("m");
  ASSERT_OK(again);
  EXPECT_FALSE(*again);
  EXPECT_EQ(installs, 3);
  std::shared_ptr<const MapSnapshot> now = registry.Find("m");
  EXPECT_EQ(now->version, 3u);
  EXPECT_TRUE(now->pending.empty());
  EXPECT_TRUE(SameTable(now->map, WithFreshTable(now->map)));
  GridMap fresh = now->map;
  ASSERT_OK(BuildSubgoalGraph(&fresh));
  EXPECT_TRUE(SubgoalGraphEquals(now->map, fresh));
}

// An update that lands while the contraction hierarchy is being built
// makes the build give up (DerivedOptions::abandon): nothing is installed
// for the version left behind, the newest keeps the hierarchy pending, and
// the next job builds it for the newest, as a fresh build would.
TEST(MapRegistryTest, AnUpdateDuringAHierarchyBuildAbandonsIt) {
  MapRegistry registry(nullptr, {});
  MapOptions options;
  options.Set(std::string(kContractionName), 1);
  ASSERT_OK(registry.Register("m", Random(90, 70, 14, true), options, false));
  ASSERT_TRUE(HasContraction(registry.Find("m")->map));
  ASSERT_OK(registry.Update("m", {{{3, 4}, {4, 5}, 0}}, 0, Field));
  ASSERT_TRUE(registry.Find("m")->Pending(std::string(kContractionName)));
  int polls = 0, installs = 0;
  registry.SetOnAbandonPollForTesting([&] {
    if (++polls != 2) return;
    ASSERT_OK(registry.Update("m", {{{60, 40}, {62, 41}, 0}}, 0, Field));
  });
  registry.SetBeforeInstallForTesting([&] { ++installs; });
  ASSERT_TRUE(registry.ClaimRebuild("m"));
  absl::StatusOr<bool> again = registry.RebuildPending("m");
  ASSERT_OK(again);
  EXPECT_TRUE(*again);
  EXPECT_EQ(polls, 2) << "the build went on past the newer version";
  EXPECT_EQ(installs, 0);
  std::shared_ptr<const MapSnapshot> v3 = registry.Find("m");
  EXPECT_EQ(v3->version, 3u);
  EXPECT_TRUE(v3->Pending(std::string(kContractionName)));
  EXPECT_FALSE(HasContraction(v3->map));
  ASSERT_TRUE(registry.ClaimRebuild("m"));
  again = registry.RebuildPending("m");
  ASSERT_OK(again);
  EXPECT_FALSE(*again);
  EXPECT_EQ(installs, 1);
  std::shared_ptr<const MapSnapshot> now = registry.Find("m");
  EXPECT_TRUE(now->pending.empty());
  GridMap fresh = now->map;
  ASSERT_OK(BuildContraction(&fresh));
  EXPECT_TRUE(ContractionEquals(now->map, fresh));
}

// A repair that lands after the landmarks' rebuild copied the version: the
// table goes into that copy (same version), which keeps its landmarks.
TEST(MapRegistryTest, TableRepairAndLandmarkRebuildBothLand) {
  MapRegistry registry(nullptr, {});
  MapOptions options;
  options.Set("jump_table", 1);
  options.Set("landmarks", 2);
  ASSERT_OK(registry.Register("m", Random(30, 30, 9, true), options, false));
  std::shared_ptr<const MapSnapshot> v1 = registry.Find("m");
  Cell blocked{-1, -1};
  for (int32_t i = 0; i < 900 && blocked.x < 0; ++i) {
    if (!v1->map.Passable({i % 30, i / 30})) blocked = {i % 30, i / 30};
  }
  ASSERT_GE(blocked.x, 0);
  ASSERT_OK(registry.Update("m", {{blocked, {blocked.x + 1, blocked.y + 1}, 1}},
                            0, Field));
  EXPECT_TRUE(registry.Find("m")->Pending("landmarks"));
  EXPECT_TRUE(registry.Find("m")->Pending("jump_table"));
  // The landmarks land while the table is repaired: a job that runs in
  // the middle of another (once).
  bool nested = false;
  registry.SetBeforeInstallForTesting([&] {
    if (nested) return;
    nested = true;
    ASSERT_TRUE(registry.ClaimRebuild("m"));
    ASSERT_OK(registry.RebuildPending("m"));
  });
  RepairTables(registry, "m");
  std::shared_ptr<const MapSnapshot> now = registry.Find("m");
  EXPECT_EQ(now->version, 2u);
  EXPECT_FALSE(now->Pending("landmarks"));
  EXPECT_FALSE(now->Pending("jump_table"));
  EXPECT_TRUE(SameTable(now->map, WithFreshTable(now->map)));
}

// With the table laid out in blocks, jps+ beat online jps across the 8192 x
// 8192 world too (docs/performance.md, "Big worlds"): auto keeps the table on
// maps of every size, and updates keep it once repaired.
TEST(MapRegistryTest, AutoUsesTheTableOnHugeMapsToo) {
  MapRegistry registry(nullptr, {});
  MapOptions options;
  options.Set("jump_table", 1);
  ASSERT_OK(registry.Register("huge", Uniform(2900, 2900), options, false));
  PathQuery q;
  q.algorithm = Algorithm::kAuto;
  EXPECT_TRUE(HasJumpTable(registry.Find("huge")->map));
  EXPECT_EQ(ResolveAlgorithm(registry.Find("huge")->map, q),
            Algorithm::kJpsPlus);
  ASSERT_OK(registry.Update("huge", {{{5, 5}, {6, 6}, 0}}, 0, Field));
  RepairTables(registry, "huge");
  EXPECT_EQ(ResolveAlgorithm(registry.Find("huge")->map, q),
            Algorithm::kJpsPlus);
}

// One job finishes every pending structure and installs each as soon as it
// is done: the jump table (repaired in milliseconds) is in the version
// before the subgoal graph (rebuilt) is.
TEST(MapRegistryTest, OneJobInstallsEachPendingStructureAsItIsDone) {
  MapRegistry registry(nullptr, {});
  MapOptions options;
  options.Set("jump_table", 1).Set("subgoal_graph", 1);
  ASSERT_OK(registry.Register("m", Random(40, 30, 12, true), options, false));
  ASSERT_OK(registry.Update("m", {{{7, 7}, {9, 9}, 0}}, 0, Field));
  std::shared_ptr<const MapSnapshot> v2 = registry.Find("m");
  ASSERT_TRUE(v2->Pending("jump_table"));
  ASSERT_TRUE(v2->Pending("subgoal_graph"));
  std::vector<std::vector<std::string>> pending_at_install;
  registry.SetBeforeInstallForTesting([&] {
    std::vector<std::string> names;
    for (const auto& [name, entry] : registry.Find("m")->pending) {
      names.push_back(name);
    }
    pending_at_install.push_back(names);
  });
  ASSERT_TRUE(registry.ClaimRebuild("m"));
  absl::StatusOr<bool> again = registry.RebuildPending("m");
  ASSERT_OK(again);
  EXPECT_FALSE(*again);
  ASSERT_EQ(pending_at_install.size(), 2u);
  EXPECT_EQ(pending_at_install[0],
            (std::vector<std::string>{"jump_table", "subgoal_graph"}));
  EXPECT_EQ(pending_at_install[1], (std::vector<std::string>{"subgoal_graph"}));
  std::shared_ptr<const MapSnapshot> now = registry.Find("m");
  EXPECT_EQ(now->version, 2u);
  EXPECT_TRUE(now->pending.empty());
  EXPECT_TRUE(SameTable(now->map, WithFreshTable(now->map)));
  GridMap fresh = now->map;
  ASSERT_OK(BuildSubgoalGraph(&fresh));
  EXPECT_TRUE(SubgoalGraphEquals(now->map, fresh));
  for (const DerivedReport& r : now->derived) {
    EXPECT_NE(r.outcome, DerivedOutcome::kDeferred) << r.name;
  }
}

}  // namespace
}  // namespace gridstar::server
