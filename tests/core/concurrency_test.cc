// Many threads searching one GridMap at once, each with its own context, get
// exactly the answers one thread gets. Run under TSan by scripts/test.sh.

#include <iterator>
#include <thread>
#include <vector>

#include "gridstar/find_path.h"
#include "gtest/gtest.h"
#include "testing/reference.h"
#include "testing/status_matchers.h"

namespace gridstar {
namespace {

// A terrain map, and a uniform one with a jump table, where jps and jps+
// read the shared bit lines and table.
class ConcurrencyTest : public ::testing::TestWithParam<int> {};

TEST_P(ConcurrencyTest, ThreadsSharingAMapAgreeWithOneThread) {
  GridMap map = testing::MakeRandomMap({120, 90, 0.25, GetParam(), false}, 42);
  if (map.uniform_cost()) {
    ASSERT_OK(map.BuildJumpTable());
  }
  std::vector<PathQuery> queries;
  for (int i = 0; queries.size() < 60 && i < 10000; ++i) {
    PathQuery q;
    q.start = {(i * 37) % 120, (i * 11) % 90};
    q.goal = {(i * 53 + 17) % 120, (i * 29 + 5) % 90};
    q.algorithm = kAllAlgorithms[i % std::size(kAllAlgorithms)];
    q.movement.diagonal = kAllDiagonalPolicies[i % 3];
    q.smooth = i % 2 == 0;
    if (map.Connected(q.start, q.goal)) queries.push_back(q);
  }
  ASSERT_EQ(queries.size(), 60u);
  std::vector<double> want;
  {
    SearchContext context;
    for (const PathQuery& q : queries) {
      absl::StatusOr<PathResult> r = FindPath(map, q, context);
      ASSERT_OK(r);
      want.push_back(r->cost);
    }
  }
  constexpr int kThreads = 4;
  std::vector<std::vector<double>> got(kThreads);
  std::vector<std::thread> threads;
  for (int t = 0; t < kThreads; ++t) {
    threads.emplace_back([&, t] {
      SearchContext context;
      for (int round = 0; round < 3; ++round) {
        for (size_t i = 0; i < queries.size(); ++i) {
          // Each thread walks the queries from a different offset.
          const PathQuery& q = queries[(i + 7 * t) % queries.size()];
          absl::StatusOr<PathResult> r = FindPath(map, q, context);
          got[t].push_back(r.ok() ? r->cost : -1);
        }
      }
    });
  }
  for (std::thread& th : threads) th.join();
  for (int t = 0; t < kThreads; ++t) {
    ASSERT_EQ(got[t].size(), 3 * queries.size());
    for (size_t k = 0; k < got[t].size(); ++k) {
      const size_t i = (k % queries.size() + 7 * t) % queries.size();
      EXPECT_EQ(got[t][k], want[i]) << "thread " << t << " query " << i;
    }
  }
}

INSTANTIATE_TEST_SUITE_P(TerrainAndUniform, ConcurrencyTest,
                         ::testing::Values(6, 1));

}  // namespace
}  // namespace gridstar
