// MapRegistry on its own: versions, validation before change, limits with
// reservations, derived data decided by core's structures, the store's
// failures leaving the old version, and per-map write locks.
#include "maps/map_registry.h"

#include <sys/stat.h>
#include <unistd.h>

#include <atomic>
#include <future>
#include <memory>
#include <random>
#include <string>
#include <thread>
#include <vector>

#include "absl/strings/str_cat.h"
#include "gridstar/engines/alt.h"
#include "gridstar/engines/jps.h"
#include "gridstar/engines/subgoal.h"
#include "gridstar/find_path.h"
#include "gridstar/map_update.h"
#include "gtest/gtest.h"
#include "store/directory_store.h"
#include "testing/status_matchers.h"

namespace gridstar::server {
namespace {

using ::gridstar::testing::StatusIs;

GridMap Uniform(int32_t w, int32_t h, uint8_t cost = 1) {
  return GridMap::FromCosts(w, h, std::vector<uint8_t>(size_t(w) * h, cost))
      .value();
}

GridMap Random(int32_t w, int32_t h, uint32_t seed, bool uniform) {
  std::mt19937 rng(seed);
  std::vector<uint8_t> costs(size_t(w) * h);
  for (uint8_t& c : costs) {
    c = rng() % 5 == 0 ? 0 : (uniform ? 1 : 1 + rng() % 6);
  }
  return GridMap::FromCosts(w, h, costs).value();
}

std::string Field(size_t i) { return absl::StrCat("changes[", i, "]"); }

// A store that can fail, block, or count, in front of nothing.
class FakeStore : public MapStore {
 public:
  absl::Status LoadAll(std::vector<StoredMap>*,
                       std::vector<std::string>*) override {
    return absl::OkStatus();
  }
  absl::Status Put(const StoredMap& map) override {
    if (map.id == block_id) {
      entered.Notify();
      release.WaitForNotification();
    }
    ++puts;
    return fail ? absl::UnavailableError("disk gone") : absl::OkStatus();
  }
  absl::Status Delete(const std::string&) override {
    return fail ? absl::UnavailableError("disk gone") : absl::OkStatus();
  }
  absl::Status AppendUpdate(const StoredUpdate&) override {
    ++appends;
    return fail ? absl::UnavailableError("disk gone") : absl::OkStatus();
  }
  bool WantsCompaction(const std::string&) const override { return false; }
  absl::Status Compact(const StoredMap&) override { return absl::OkStatus(); }

  std::atomic<bool> fail{false};
  std::atomic<int> puts{0}, appends{0};
  std::string block_id;  // Put of this id blocks until `release`.
  // std::promise, not absl::Notification: TSan sees its synchronisation.
  struct Signal {
    std::promise<void> promise;
    std::shared_future<void> future = promise.get_future().share();
    void Notify() { promise.set_value(); }
    void WaitForNotification() { future.wait(); }
  };
  Signal entered, release;
};

TEST(MapRegistryTest, SameContentIsANoOpOtherContentNeedsReplace) {
  MapRegistry registry(nullptr, {});
  ASSERT_OK(registry.Register("m", Uniform(8, 8), {}, false));
  auto again = registry.Register("m", Uniform(8, 8), {}, false);
  ASSERT_OK(again);
  EXPECT_EQ((*again)->version, 1u);
  EXPECT_TRUE(StatusIs(registry.Register("m", Uniform(8, 8, 2), {}, false),
                       absl::StatusCode::kAlreadyExists, "replace"));
  auto replaced = registry.Register("m", Uniform(8, 8, 2), {}, true);
  ASSERT_OK(replaced);
  EXPECT_EQ((*replaced)->version, 2u);
  EXPECT_TRUE(StatusIs(registry.Register("bad id", Uniform(2, 2), {}, false),
                       absl::StatusCode::kInvalidArgument, "id"));
}

TEST(MapRegistryTest, UpdateValidatesEveryChangeBeforeChangingAnything) {
  MapRegistry registry(nullptr, {});
  ASSERT_OK(registry.Register("m", Uniform(10, 6), {}, false));
  const std::vector<CellChange> changes = {{{0, 0}, {1, 1}, 0},
                                           {{9, 5}, {11, 6}, 0}};
  EXPECT_TRUE(StatusIs(registry.Update("m", changes, 0, Field),
                       absl::StatusCode::kInvalidArgument,
                       "changes[1]: [9, 11) x [5, 6) is empty or not inside "
                       "the 10 x 6 map"));
  const auto s = registry.Find("m");
  EXPECT_EQ(s->version, 1u);
  EXPECT_EQ(s->map.cost({0, 0}), 1);
  EXPECT_TRUE(StatusIs(registry.Update("m", {{{3, 3}, {3, 4}, 0}}, 0, Field),
                       absl::StatusCode::kInvalidArgument, "changes[0]"));
  EXPECT_TRUE(StatusIs(registry.Update("nope", changes, 0, Field),
                       absl::StatusCode::kNotFound, "nope"));
}

TEST(MapRegistryTest, ExpectedVersionGuardsUpdates) {
  MapRegistry registry(nullptr, {});
  ASSERT_OK(registry.Register("m", Uniform(4, 4), {}, false));
  const std::vector<CellChange> block = {{{1, 1}, {2, 2}, 0}};
  ASSERT_OK(registry.Update("m", block, 1, Field));
  EXPECT_TRUE(StatusIs(registry.Update("m", block, 1, Field),
                       absl::StatusCode::kAborted,
                       "is at version 2, not 1"));
  auto third = registry.Update("m", block, 0, Field);
  ASSERT_OK(third);
  EXPECT_EQ((*third)->version, 3u);
}

TEST(MapRegistryTest, MapCountLimit) {
  MapRegistry::Limits limits;
  limits.max_maps = 2;
  MapRegistry registry(nullptr, limits);
  ASSERT_OK(registry.Register("a", Uniform(2, 2), {}, false));
  ASSERT_OK(registry.Register("b", Uniform(2, 2), {}, false));
  EXPECT_TRUE(StatusIs(registry.Register("c", Uniform(2, 2), {}, false),
                       absl::StatusCode::kResourceExhausted, "maximum of 2"));
  // Replacing one of them is not a new map.
  ASSERT_OK(registry.Register("b", Uniform(3, 3), {}, true));
  ASSERT_OK(registry.Delete("a"));
  ASSERT_OK(registry.Register("c", Uniform(2, 2), {}, false));
}

TEST(MapRegistryTest, TotalCellsLimitCountsWhatAReplaceFrees) {
  MapRegistry::Limits limits;
  limits.max_total_cells = 100;
  MapRegistry registry(nullptr, limits);
  ASSERT_OK(registry.Register("a", Uniform(8, 8), {}, false));  // 64 cells.
  EXPECT_TRUE(StatusIs(registry.Register("b", Uniform(7, 7), {}, false),
                       absl::StatusCode::kResourceExhausted,
                       "--max_total_cells"));
  ASSERT_OK(registry.Register("a", Uniform(10, 10), {}, true));  // 100.
  EXPECT_EQ(registry.total_cells(), 100);
}

TEST(MapRegistryTest, DerivedBytesLimitIsCheckedBeforeBuilding) {
  MapRegistry::Limits limits;
  limits.max_derived_bytes = 1000;
  MapRegistry registry(nullptr, limits);
  MapOptions options;
  options.Set("jump_table", 1);
  options.Set("landmarks", 2);
  EXPECT_TRUE(StatusIs(registry.Register("m", Uniform(20, 20), options, false),
                       absl::StatusCode::kResourceExhausted,
                       "--max_derived_bytes (1000)"));
  EXPECT_EQ(registry.Find("m"), nullptr);
  // A table does not apply to mixed costs, so it costs nothing there.
  options.Set("landmarks", 0);
  ASSERT_OK(registry.Register("m", Random(20, 20, 1, false), options, false));
  EXPECT_FALSE(HasJumpTable(registry.Find("m")->map));
  EXPECT_TRUE(
      StatusIs(registry.Register("m", Uniform(20, 20),
                                 MapOptions().Set("landmarks", 33), true),
               absl::StatusCode::kInvalidArgument, "landmarks: 33"));
}

TEST(MapRegistryTest, LandmarksKeptWhenCostsOnlyRiseRebuiltInTheBackgroundOtherwise) {
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
    EXPECT_EQ(ResolveAlgorithm(repaired->map, auto_query),
              Algorithm::kJpsPlus);
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
  ASSERT_OK(registry.Update(
      "m", {{blocked, {blocked.x + 1, blocked.y + 1}, 1}}, 0, Field));
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
// 8192 world too (docs/performance.md, "Big worlds"): auto keeps the table on maps of
// every size, and updates keep it once repaired.
TEST(MapRegistryTest, AutoUsesTheTableOnHugeMapsToo) {
  MapRegistry registry(nullptr, {});
  MapOptions options;
  options.Set("jump_table", 1);
  ASSERT_OK(registry.Register("huge", Uniform(2900, 2900), options, false));
  PathQuery q;
  q.algorithm = Algorithm::kAuto;
  EXPECT_TRUE(HasJumpTable(registry.Find("huge")->map));
  EXPECT_EQ(ResolveAlgorithm(registry.Find("huge")->map, q), Algorithm::kJpsPlus);
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

TEST(MapRegistryTest, StoreFailureLeavesTheOldVersion) {
  auto owned = std::make_unique<FakeStore>();
  FakeStore* store = owned.get();
  MapRegistry registry(std::move(owned), {});
  ASSERT_OK(registry.Register("m", Uniform(5, 5), {}, false));
  store->fail = true;
  EXPECT_TRUE(StatusIs(registry.Update("m", {{{0, 0}, {1, 1}, 0}}, 0, Field),
                       absl::StatusCode::kUnavailable, "disk gone"));
  EXPECT_EQ(registry.Find("m")->version, 1u);
  EXPECT_EQ(registry.Find("m")->map.cost({0, 0}), 1);
  EXPECT_TRUE(StatusIs(registry.Register("n", Uniform(5, 5), {}, false),
                       absl::StatusCode::kUnavailable, "disk gone"));
  EXPECT_EQ(registry.Find("n"), nullptr);
  EXPECT_TRUE(StatusIs(registry.Delete("m"), absl::StatusCode::kUnavailable,
                       "disk gone"));
  EXPECT_NE(registry.Find("m"), nullptr);
  // The reserved cells of the failed registration were given back.
  EXPECT_EQ(registry.total_cells(), 25);
  store->fail = false;
  ASSERT_OK(registry.Register("n", Uniform(5, 5), {}, false));
}

TEST(MapRegistryTest, WritesToOneMapDoNotWaitForAnother) {
  auto owned = std::make_unique<FakeStore>();
  FakeStore* store = owned.get();
  store->block_id = "slow";
  MapRegistry registry(std::move(owned), {});
  std::atomic<bool> slow_done{false};
  std::thread slow([&] {
    EXPECT_OK(registry.Register("slow", Uniform(4, 4), {}, false));
    slow_done = true;
  });
  store->entered.WaitForNotification();  // "slow" holds its lock in Put.
  ASSERT_OK(registry.Register("fast", Uniform(4, 4), {}, false));
  ASSERT_OK(registry.Update("fast", {{{0, 0}, {1, 1}, 0}}, 0, Field));
  ASSERT_OK(registry.Delete("fast"));
  EXPECT_FALSE(slow_done.load());  // Still blocked: no global write lock.
  store->release.Notify();
  slow.join();
  EXPECT_TRUE(slow_done.load());
}

TEST(MapRegistryTest, RegistrationsInFlightReserveTheirCells) {
  auto owned = std::make_unique<FakeStore>();
  FakeStore* store = owned.get();
  store->block_id = "first";
  MapRegistry::Limits limits;
  limits.max_total_cells = 150;
  limits.max_maps = 2;
  MapRegistry registry(std::move(owned), limits);
  ASSERT_OK(registry.Register("small", Uniform(2, 2), {}, false));
  std::thread first([&] {
    EXPECT_OK(registry.Register("first", Uniform(10, 10), {}, false));
  });
  store->entered.WaitForNotification();
  // Not yet registered, but its 100 cells and its map slot are taken.
  EXPECT_EQ(registry.Find("first"), nullptr);
  EXPECT_TRUE(StatusIs(registry.Register("second", Uniform(1, 1), {}, false),
                       absl::StatusCode::kResourceExhausted, "maximum of 2"));
  EXPECT_TRUE(StatusIs(registry.Register("small", Uniform(8, 8), {}, true),
                       absl::StatusCode::kResourceExhausted,
                       "--max_total_cells"));
  store->release.Notify();
  first.join();
  EXPECT_EQ(registry.total_cells(), 104);
}

TEST(MapRegistryTest, ReloadsFromADirectoryStoreAtTheLastVersion) {
  const std::string dir =
      absl::StrCat(::testing::TempDir(), "/registry.", getpid());
  std::system(absl::StrCat("rm -rf '", dir, "'").c_str());
  ::mkdir(dir.c_str(), 0755);
  MapOptions options;
  options.Set("jump_table", 1);
  std::vector<uint8_t> want;
  {
    MapRegistry registry(std::make_unique<DirectoryStore>(dir), {});
    ASSERT_OK(registry.Register("m", Random(16, 16, 5, true), options, false));
    std::mt19937 rng(6);
    for (int i = 0; i < 20; ++i) {
      const Cell c{static_cast<int32_t>(rng() % 16),
                   static_cast<int32_t>(rng() % 16)};
      ASSERT_OK(registry.Update(
          "m", {{c, {c.x + 1, c.y + 1}, static_cast<uint8_t>(rng() % 2)}}, 0,
          Field));
    }
    ASSERT_OK(registry.CompactIfWanted("m"));
    want = registry.Find("m")->map.CopyCosts();
  }
  MapRegistry registry(std::make_unique<DirectoryStore>(dir), {});
  std::vector<std::string> errors;
  ASSERT_OK(registry.LoadAll(&errors));
  EXPECT_TRUE(errors.empty());
  const auto s = registry.Find("m");
  ASSERT_NE(s, nullptr);
  EXPECT_EQ(s->version, 21u);
  EXPECT_TRUE(s->options == options);
  EXPECT_EQ(s->map.CopyCosts(), want);
  EXPECT_EQ(HasJumpTable(s->map), s->map.uniform_cost());
}

}  // namespace
}  // namespace gridstar::server
