// SparseNodes (core/src/storage/sparse_nodes.h), the hash table of node records jump
// point search uses on maps too big for a whole per-cell array: records made
// unseen, kept live through growth, free again at the next search and after
// a stamp wrap; and jps / jps+ through it on a map above the threshold,
// against A* (dense records) on seeded queries, including partial results.
#include "storage/sparse_nodes.h"

#include <random>
#include <vector>

#include "absl/strings/str_cat.h"
#include "gridstar/engines/jps.h"
#include "gridstar/find_path.h"
#include "gridstar/grid_map.h"
#include "gridstar/search_context.h"
#include "gtest/gtest.h"
#include "search/search_state.h"
#include "testing/drawn_maps.h"
#include "testing/reference.h"
#include "testing/status_matchers.h"

namespace gridstar {
namespace {

using internal::Node;
using internal::SparseNodes;

TEST(SparseNodesTest, RecordsStartUnseenAndStayLiveThroughGrowth) {
  SparseNodes<Node> table;
  table.Begin(2);
  const size_t before = table.MemoryBytes();
  // Far more records than the first table holds: it grows, keeping them.
  constexpr uint32_t kCount = 100000;
  for (uint32_t i = 0; i < kCount; ++i) {
    Node& n = table.At(i * 7919u);
    EXPECT_EQ(n.stamp, 0u);
    n = Node{static_cast<double>(i), i + 1, 2 + (i & 1)};
  }
  EXPECT_GT(table.MemoryBytes(), before);
  for (uint32_t i = 0; i < kCount; ++i) {
    const Node& n = table.At(i * 7919u);
    ASSERT_EQ(n.parent, i + 1);
    ASSERT_EQ(n.g, static_cast<double>(i));
    const Node* found = table.Find(i * 7919u);
    ASSERT_NE(found, nullptr);
    ASSERT_EQ(found->parent, i + 1);
  }
  EXPECT_EQ(table.Find(1), nullptr);
}

TEST(SparseNodesTest, NextSearchSeesNoRecordOfTheLast) {
  SparseNodes<Node> table;
  table.Begin(2);
  for (uint32_t i = 0; i < 1000; ++i) table.At(i) = Node{1.0, i, 3};
  table.Begin(4);
  for (uint32_t i = 0; i < 1000; ++i) {
    EXPECT_EQ(table.Find(i), nullptr);
    EXPECT_EQ(table.At(i).stamp, 0u);
  }
}

TEST(SparseNodesTest, ClearAfterAStampWrap) {
  SparseNodes<Node> table;
  table.Begin(2);
  table.At(42) = Node{1.0, 7, 2};
  table.Clear();
  table.Begin(2);  // The marks start over after a wrap.
  EXPECT_EQ(table.Find(42), nullptr);
  EXPECT_EQ(table.At(42).stamp, 0u);
}

// A map above the threshold, so that jps and jps+ keep their records in the
// table: every answer costs what A* (records in the array) says, and is a
// legal path.
TEST(SparseNodesTest, JumpSearchesOnAHugeMapMatchAStar) {
  const testing::RandomMapSpec spec{1200, 1100, 0.3, 1, false, 1};
  GridMap map = testing::MakeRandomMap(spec, 11);
  ASSERT_TRUE(internal::UseSparseNodes(map));
  ASSERT_OK(BuildJumpTable(&map));
  SearchContext context;
  std::mt19937 rng(17);
  int compared = 0;
  while (compared < 12) {
    const Cell a{static_cast<int32_t>(rng() % spec.width),
                 static_cast<int32_t>(rng() % spec.height)};
    const Cell b{static_cast<int32_t>(rng() % spec.width),
                 static_cast<int32_t>(rng() % spec.height)};
    if (!map.Connected(a, b)) continue;
    ++compared;
    SCOPED_TRACE(absl::StrCat(a.x, ",", a.y, " -> ", b.x, ",", b.y));
    absl::StatusOr<PathResult> exact =
        FindPath(map,
                 testing::Query(a, b, Algorithm::kAStar,
                                DiagonalPolicy::kNoCornerCutting),
                 context);
    ASSERT_OK(exact.status());
    for (Algorithm algo : {Algorithm::kJps, Algorithm::kJpsPlus}) {
      SCOPED_TRACE(AlgorithmName(algo));
      absl::StatusOr<PathResult> r = FindPath(
          map, testing::Query(a, b, algo, DiagonalPolicy::kNoCornerCutting),
          context);
      ASSERT_OK(r.status());
      EXPECT_EQ(r->algorithm, algo);
      EXPECT_NEAR(r->cost, exact->cost, 1e-9 * (1 + exact->cost));
      EXPECT_EQ(testing::CheckPath(map, *r, a, b,
                                   DiagonalPolicy::kNoCornerCutting, true),
                "");
      // Out of budget: a legal partial path from the start.
      PathQuery q =
          testing::Query(a, b, algo, DiagonalPolicy::kNoCornerCutting);
      q.budget.max_expansions = 5;
      absl::StatusOr<PathResult> partial = FindPath(map, q, context);
      ASSERT_OK(partial.status());
      if (partial->partial) {
        EXPECT_EQ(testing::CheckPath(map, *partial, a, b,
                                     DiagonalPolicy::kNoCornerCutting, false),
                  "");
      }
    }
  }
}

}  // namespace
}  // namespace gridstar
