// Proves that a search in steady state allocates nothing: this binary counts
// every operator new, and after one warm-up pass over a set of queries a
// second pass over the same queries must not allocate at all.

#include <atomic>
#include <cstdlib>
#include <new>
#include <vector>

#include "absl/strings/str_cat.h"
#include "gridstar/find_path.h"
#include "gtest/gtest.h"
#include "testing/reference.h"
#include "testing/status_matchers.h"

namespace {
std::atomic<long> g_allocations{0};
}  // namespace

void* operator new(std::size_t n) {
  g_allocations.fetch_add(1, std::memory_order_relaxed);
  if (void* p = std::malloc(n == 0 ? 1 : n)) return p;
  throw std::bad_alloc();
}
void* operator new[](std::size_t n) { return operator new(n); }
void operator delete(void* p) noexcept { std::free(p); }
void operator delete[](void* p) noexcept { std::free(p); }
void operator delete(void* p, std::size_t) noexcept { std::free(p); }
void operator delete[](void* p, std::size_t) noexcept { std::free(p); }

namespace gridstar {
namespace {

TEST(AllocationTest, SteadyStateSearchAllocatesNothing) {
  const GridMap map = testing::MakeRandomMap({96, 80, 0.25, 4, false}, 17);
  std::vector<std::pair<Cell, Cell>> pairs;
  for (int i = 0; pairs.size() < 40 && i < 4000; ++i) {
    const Cell s{(i * 37) % 96, (i * 11) % 80};
    const Cell g{(i * 53 + 17) % 96, (i * 29 + 5) % 80};
    if (map.Connected(s, g)) pairs.push_back({s, g});
  }
  ASSERT_EQ(pairs.size(), 40u);
  SearchContext context;
  PathResult result;
  for (Algorithm a : kAllAlgorithms) {
    for (DiagonalPolicy p : kAllDiagonalPolicies) {
      for (bool smooth : {false, true}) {
        SCOPED_TRACE(absl::StrCat(AlgorithmName(a), " ", DiagonalPolicyName(p),
                                  smooth ? " smooth" : ""));
        PathQuery q;
        q.algorithm = a;
        q.movement.diagonal = p;
        q.smooth = smooth;
        for (int pass = 0; pass < 2; ++pass) {
          const long before = g_allocations.load();
          for (const auto& [s, g] : pairs) {
            q.start = s;
            q.goal = g;
            ASSERT_OK(FindPath(map, q, context, &result));
          }
          if (pass == 1) {
            EXPECT_EQ(g_allocations.load() - before, 0)
                << "allocations in the second pass";
          }
        }
      }
    }
  }
  // The counter works: a fresh result must allocate.
  const long before = g_allocations.load();
  PathQuery q;
  q.start = pairs[0].first;
  q.goal = pairs[0].second;
  absl::StatusOr<PathResult> fresh = FindPath(map, q, context);
  ASSERT_OK(fresh);
  EXPECT_GT(g_allocations.load() - before, 0);
}

}  // namespace
}  // namespace gridstar
