// SearchContext memory: it follows what searches touched, not the map's
// size; pages are handed back on request or past release_bytes, and
// max_search_nodes stops a search with its best partial path.
#include "gridstar/search_context.h"

#include <cstdint>
#include <vector>

#include "absl/strings/str_cat.h"
#include "gridstar/find_path.h"
#include "gridstar/flow_field.h"
#include "gtest/gtest.h"
#include "testing/reference.h"
#include "testing/status_matchers.h"

namespace gridstar {
namespace {

using testing::CheckPath;
using testing::MakeRandomMap;
using testing::StatusIs;

GridMap Open(int32_t side) {
  return GridMap::FromCosts(side, side,
                            std::vector<uint8_t>(size_t(side) * side, 1))
      .value();
}

PathQuery Query(Cell s, Cell g, Algorithm a = Algorithm::kAStar) {
  PathQuery q;
  q.start = s;
  q.goal = g;
  q.algorithm = a;
  return q;
}

TEST(SearchContextTest, MemoryFollowsTheSearchNotTheMap) {
  const GridMap map = Open(2000);  // 4 M cells: 64 MB of node records.
  SearchContext context;
  for (Algorithm a :
       {Algorithm::kAStar, Algorithm::kJps, Algorithm::kWeighted}) {
    SCOPED_TRACE(AlgorithmName(a));
    absl::StatusOr<PathResult> r =
        FindPath(map, Query({10, 10}, {40, 25}, a), context);
    ASSERT_OK(r);
    EXPECT_FALSE(r->partial);
  }
  EXPECT_EQ(context.allocated_cells(), static_cast<int64_t>(map.padded_size()));
  // A few dozen rows of node pages, not the whole map.
  EXPECT_LT(context.MemoryBytes(), size_t{4} << 20) << context.MemoryBytes();
  // A search across the map touches far more.
  ASSERT_OK(FindPath(map, Query({0, 0}, {1999, 1000}, Algorithm::kDijkstra),
                     context));
  EXPECT_GT(context.MemoryBytes(), size_t{32} << 20);
}

TEST(SearchContextTest, ReleaseMemoryHandsPagesBackAndSearchesStayExact) {
  const GridMap map = MakeRandomMap({400, 400, 0.2, 3}, 5);
  const auto [s, g] = testing::FarConnectedPair(map);
  SearchContext context;
  ASSERT_OK(FindPath(map, Query(s, g, Algorithm::kDijkstra), context));
  const size_t before = context.MemoryBytes();
  context.ReleaseMemory();
  EXPECT_LT(context.MemoryBytes(), before / 4);
  // Released records read as never seen: every algorithm stays exact.
  const std::vector<double> dist =
      testing::ReferenceDistances(map, s, DiagonalPolicy::kNoCornerCutting);
  for (Algorithm a : {Algorithm::kAStar, Algorithm::kDijkstra, Algorithm::kAlt,
                      Algorithm::kBaseline, Algorithm::kBidirectional}) {
    SCOPED_TRACE(AlgorithmName(a));
    absl::StatusOr<PathResult> r = FindPath(map, Query(s, g, a), context);
    ASSERT_OK(r);
    EXPECT_NEAR(r->cost, testing::Distance(dist, map, g), 1e-9);
    context.ReleaseMemory();
  }
}

TEST(SearchContextTest, ReleaseBytesBoundsWhatAContextKeeps) {
  const GridMap map = Open(1500);  // A Dijkstra across it makes 2.25 M records.
  SearchContextOptions options;
  options.release_bytes = size_t{1} << 20;
  SearchContext context(options);
  SearchContext unbounded;
  for (SearchContext* c : {&context, &unbounded}) {
    ASSERT_OK(
        FindPath(map, Query({0, 0}, {1499, 1499}, Algorithm::kDijkstra), *c));
  }
  // The bounded context measured itself after more than 65,536 new records
  // and gave its pages back; the other holds them all.
  EXPECT_GT(unbounded.MemoryBytes(), size_t{32} << 20);
  EXPECT_LT(context.MemoryBytes(), unbounded.MemoryBytes() / 4);
  // Flow fields go through the same accounting.
  FlowFieldQuery fq;
  fq.goal = {700, 700};
  absl::StatusOr<FlowField> field = ComputeFlowField(map, fq, context);
  ASSERT_OK(field);
  EXPECT_EQ(field->reached(), 1500 * 1500);  // Read before the release.
  EXPECT_EQ(field->CostToGoal({700, 0}), 700);
  EXPECT_LT(context.MemoryBytes(), unbounded.MemoryBytes() / 4);
}

TEST(SearchContextTest, MaxSearchNodesStopsWithTheBestPartialPath) {
  const GridMap map = MakeRandomMap({200, 200, 0.15, 4}, 9);
  const auto [s, g] = testing::FarConnectedPair(map);
  SearchContextOptions options;
  options.max_search_nodes = 300;
  SearchContext context(options);
  for (Algorithm a : kAllAlgorithms) {
    SCOPED_TRACE(AlgorithmName(a));
    absl::StatusOr<PathResult> r = FindPath(map, Query(s, g, a), context);
    ASSERT_OK(r);
    ASSERT_TRUE(r->partial);
    EXPECT_EQ(r->partial_reason, PartialReason::kMemory);
    EXPECT_LE(r->generated, 300u + 8);  // One expansion's successors past it.
    ASSERT_FALSE(r->cells.empty());
    EXPECT_EQ(r->cells.front(), s);
    EXPECT_GE(PathCost(map, r->cells, DiagonalPolicy::kNoCornerCutting), 0);
    EXPECT_TRUE(StatusIs(StopStatus(r->partial_reason, {}, r->expanded),
                         absl::StatusCode::kResourceExhausted,
                         "max_search_nodes"));
  }
  // A short search fits.
  absl::StatusOr<PathResult> near = FindPath(map, Query(s, s), context);
  ASSERT_OK(near);
  EXPECT_FALSE(near->partial);
  // So does a flow field within the cap, and a larger one is partial.
  FlowFieldQuery fq;
  fq.goal = s;
  absl::StatusOr<FlowField> field = ComputeFlowField(map, fq, context);
  ASSERT_OK(field);
  EXPECT_FALSE(field->complete());
  EXPECT_EQ(field->stop_reason(), PartialReason::kMemory);
}

}  // namespace
}  // namespace gridstar
