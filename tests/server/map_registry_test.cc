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
#include "server/map_registry_test_util.h"
#include "store/directory_store.h"
#include "testing/status_matchers.h"

namespace gridstar::server {
namespace {

using ::gridstar::testing::StatusIs;
using registry_testing::Field;
using registry_testing::Random;
using registry_testing::Uniform;

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
  absl::Status LoadWorlds(std::vector<StoredWorld>*,
                          std::vector<std::string>*) override {
    return absl::OkStatus();
  }
  absl::Status PutWorld(const StoredWorld&) override {
    return fail ? absl::UnavailableError("disk gone") : absl::OkStatus();
  }
  absl::Status DeleteWorld(const std::string&) override {
    return fail ? absl::UnavailableError("disk gone") : absl::OkStatus();
  }

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
