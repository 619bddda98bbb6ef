// FlowFieldCache on its own: versioned keys, LRU eviction within the byte
// capacity, DropMap, and what it refuses to keep.
#include "maps/flow_field_cache.h"

#include <memory>
#include <vector>

#include "gridstar/flow_field.h"
#include "gridstar/grid_map.h"
#include "gridstar/search_context.h"
#include "gtest/gtest.h"
#include "testing/status_matchers.h"

namespace gridstar::server {
namespace {

std::shared_ptr<const FlowField> Field(
    Cell goal, absl::Time deadline = absl::InfiniteFuture()) {
  static const GridMap* map = new GridMap(
      GridMap::FromCosts(16, 16, std::vector<uint8_t>(256, 1)).value());
  SearchContext context;
  FlowFieldQuery q;
  q.goal = goal;
  q.budget.deadline = deadline;
  return std::make_shared<const FlowField>(
      ComputeFlowField(*map, q, context).value());
}

FlowFieldKey Key(const std::string& id, uint64_t version, Cell goal) {
  FlowFieldKey k;
  k.map_id = id;
  k.version = version;
  k.goal = goal;
  return k;
}

TEST(FlowFieldCacheTest, KeysIncludeVersionGoalAndMovement) {
  FlowFieldCache cache(1 << 20);
  cache.Insert(Key("m", 1, {0, 0}), Field({0, 0}));
  EXPECT_NE(cache.Find(Key("m", 1, {0, 0})), nullptr);
  EXPECT_EQ(cache.Find(Key("m", 2, {0, 0})), nullptr);
  EXPECT_EQ(cache.Find(Key("m", 1, {1, 0})), nullptr);
  EXPECT_EQ(cache.Find(Key("n", 1, {0, 0})), nullptr);
  FlowFieldKey other = Key("m", 1, {0, 0});
  other.movement.diagonal = DiagonalPolicy::kNever;
  EXPECT_EQ(cache.Find(other), nullptr);
  other = Key("m", 1, {0, 0});
  other.max_cost = 5;
  EXPECT_EQ(cache.Find(other), nullptr);
}

TEST(FlowFieldCacheTest, EvictsTheLeastRecentlyUsedBeyondCapacity) {
  const size_t one = Field({0, 0})->MemoryBytes();
  FlowFieldCache cache(2 * one + one / 2);  // Room for two.
  cache.Insert(Key("m", 1, {0, 0}), Field({0, 0}));
  cache.Insert(Key("m", 1, {1, 0}), Field({1, 0}));
  ASSERT_NE(cache.Find(Key("m", 1, {0, 0})), nullptr);  // Now most recent.
  cache.Insert(Key("m", 1, {2, 0}), Field({2, 0}));
  EXPECT_EQ(cache.size(), 2u);
  EXPECT_NE(cache.Find(Key("m", 1, {0, 0})), nullptr);
  EXPECT_EQ(cache.Find(Key("m", 1, {1, 0})), nullptr);
  EXPECT_NE(cache.Find(Key("m", 1, {2, 0})), nullptr);
  EXPECT_LE(cache.bytes(), 2 * one + one / 2);
}

TEST(FlowFieldCacheTest, DropMapForgetsEveryVersionOfThatMapOnly) {
  FlowFieldCache cache(1 << 20);
  cache.Insert(Key("a", 1, {0, 0}), Field({0, 0}));
  cache.Insert(Key("a", 2, {3, 3}), Field({3, 3}));
  cache.Insert(Key("ab", 1, {0, 0}), Field({0, 0}));
  cache.Insert(Key("b", 1, {0, 0}), Field({0, 0}));
  cache.DropMap("a");
  EXPECT_EQ(cache.size(), 2u);
  EXPECT_EQ(cache.Find(Key("a", 2, {3, 3})), nullptr);
  EXPECT_NE(cache.Find(Key("ab", 1, {0, 0})), nullptr);
  EXPECT_NE(cache.Find(Key("b", 1, {0, 0})), nullptr);
  cache.DropMap("nothing");
  EXPECT_EQ(cache.size(), 2u);
}

TEST(FlowFieldCacheTest, KeepsNeitherPartialNorOversizedFields) {
  FlowFieldCache cache(1 << 20);
  const auto partial = Field({0, 0}, absl::InfinitePast());
  ASSERT_FALSE(partial->complete());
  cache.Insert(Key("m", 1, {0, 0}), partial);
  EXPECT_EQ(cache.size(), 0u);
  FlowFieldCache tiny(16);
  tiny.Insert(Key("m", 1, {0, 0}), Field({0, 0}));
  EXPECT_EQ(tiny.size(), 0u);
  EXPECT_EQ(tiny.bytes(), 0u);
}

TEST(FlowFieldCacheTest, ReinsertingAKeyReplacesItsField) {
  FlowFieldCache cache(1 << 20);
  cache.Insert(Key("m", 1, {0, 0}), Field({0, 0}));
  const size_t bytes = cache.bytes();
  const auto second = Field({0, 0});
  cache.Insert(Key("m", 1, {0, 0}), second);
  EXPECT_EQ(cache.size(), 1u);
  EXPECT_EQ(cache.bytes(), bytes);
  EXPECT_EQ(cache.Find(Key("m", 1, {0, 0})), second);
}

}  // namespace
}  // namespace gridstar::server
