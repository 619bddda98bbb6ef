// Bidirectional A* (core/src/engines/bidirectional/bidirectional.cc): its own edge cases. (Its
// paths against brute force under every policy and on terrain are checked by
// the property tests, and its lengths by the conformance test.)
#include <algorithm>
#include <vector>

#include "gridstar/find_path.h"
#include "gtest/gtest.h"
#include "testing/drawn_maps.h"
#include "testing/reference.h"
#include "testing/status_matchers.h"

namespace gridstar {
namespace {

using testing::CheckPath;
using testing::Draw;
using testing::Query;

// Bidirectional A*: the two searches meet in a one-cell doorway, the only
// way between two rooms, and the path through it is optimal under every
// policy (checked move by move against the brute-force distance).
TEST(BidirectionalTest, MeetsInTheOnlyDoorway) {
  const GridMap map = Draw({
      "......#......",
      "......#......",
      ".............",
      "......#......",
      "......#......",
  });
  SearchContext context;
  for (DiagonalPolicy p : kAllDiagonalPolicies) {
    SCOPED_TRACE(DiagonalPolicyName(p));
    const Cell s{0, 0}, g{12, 4};
    absl::StatusOr<PathResult> r =
        FindPath(map, Query(s, g, Algorithm::kBidirectional, p), context);
    ASSERT_OK(r);
    EXPECT_EQ(r->algorithm, Algorithm::kBidirectional);
    EXPECT_FALSE(r->partial);
    EXPECT_EQ(CheckPath(map, *r, s, g, p, true), "");
    EXPECT_NE(std::find(r->cells.begin(), r->cells.end(), Cell{6, 2}),
              r->cells.end());
    const std::vector<double> dist = testing::ReferenceDistances(map, s, p);
    EXPECT_NEAR(r->cost, testing::Distance(dist, map, g), 1e-9);
  }
}

// Neighbouring ends: the goal is reached by the first expansion.
TEST(BidirectionalTest, AdjacentEnds) {
  const GridMap map = Draw({"..", ".."});
  SearchContext context;
  for (DiagonalPolicy p : kAllDiagonalPolicies) {
    SCOPED_TRACE(DiagonalPolicyName(p));
    absl::StatusOr<PathResult> r = FindPath(
        map, Query({0, 0}, {1, 0}, Algorithm::kBidirectional, p), context);
    ASSERT_OK(r);
    EXPECT_EQ(r->cells, (std::vector<Cell>{{0, 0}, {1, 0}}));
    EXPECT_DOUBLE_EQ(r->cost, 1.0);
  }
}

// Out of budget after the searches met, the answer is the whole path
// through the best meeting, flagged partial (not yet proven optimal); before
// they meet, the forward path to the cell reached closest to the goal.
TEST(BidirectionalTest, OutOfBudgetGivesTheMeetingPathOrTheForwardPath) {
  const GridMap map = Draw({
      "..........",
      "..........",
  });
  SearchContext context;
  PathQuery q = Query({0, 0}, {9, 1}, Algorithm::kBidirectional,
                      DiagonalPolicy::kNoCornerCutting);
  q.budget.max_expansions = 1;
  absl::StatusOr<PathResult> r = FindPath(map, q, context);
  ASSERT_OK(r);
  EXPECT_TRUE(r->partial);
  EXPECT_EQ(r->partial_reason, PartialReason::kMaxExpansions);
  EXPECT_EQ(CheckPath(map, *r, {0, 0}, {9, 1}, q.movement.diagonal, false),
            "");
  EXPECT_NE(r->cells.back(), (Cell{9, 1}));
  // Enough expansions for the two searches to meet, too few to prove the
  // meeting optimal: a whole legal path, still flagged partial.
  bool met = false;
  for (uint64_t budget = 2; budget < 40 && !met; ++budget) {
    q.budget.max_expansions = budget;
    r = FindPath(map, q, context);
    ASSERT_OK(r);
    EXPECT_EQ(CheckPath(map, *r, {0, 0}, {9, 1}, q.movement.diagonal, false),
              "");
    met = r->partial && r->cells.back() == Cell{9, 1};
    if (met) {
      EXPECT_NEAR(r->cost, PathCost(map, r->cells, q.movement.diagonal), 1e-9);
    }
  }
  EXPECT_TRUE(met);
}

}  // namespace
}  // namespace gridstar
