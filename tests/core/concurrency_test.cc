// Many threads searching one GridMap at once, each with its own context, get
// exactly the answers one thread gets. Run under TSan by scripts/test.sh.

#include <atomic>
#include <iterator>
#include <memory>
#include <mutex>
#include <random>
#include <thread>
#include <vector>

#include "gridstar/derived_data.h"
#include "gridstar/engines/jps.h"
#include "gridstar/find_path.h"
#include "gridstar/map_update.h"
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
    ASSERT_OK(BuildJumpTable(&map));
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

// One thread updates a tiled map (new versions sharing tiles, the table
// repaired) while others search whatever version is newest, and drop the
// versions they held from their own threads. Every answer must be the one
// a single thread gets on that very version: no search sees half an update.
TEST(ConcurrencyUnderUpdatesTest, SearchesSeeWholeVersionsWhileTilesAreShared) {
  constexpr int32_t kW = 300, kH = 200;
  constexpr int kVersions = 40;
  auto first = std::make_shared<GridMap>(
      testing::MakeRandomMap({kW, kH, 0.2, 1, false}, 9));
  DerivedOptions options;
  options.Ask(kJumpTableName);
  std::vector<DerivedReport> reports;
  ASSERT_OK(BuildDerived(options, first.get(), &reports));

  struct Published {
    int version;
    std::shared_ptr<const GridMap> map;
  };
  std::mutex mu;
  Published current{0, first};
  std::vector<std::vector<uint8_t>> costs_of = {first->CopyCosts()};
  struct Answer {
    int version;
    PathQuery query;
    double cost;  // -1: no path.
  };
  constexpr int kReaders = 3;
  std::vector<std::vector<Answer>> answers(kReaders);
  std::vector<std::thread> readers;
  bool done = false;
  std::atomic<int> seen[kReaders] = {};  // Newest version each has searched.
  for (int t = 0; t < kReaders; ++t) {
    readers.emplace_back([&, t] {
      SearchContext context;
      std::mt19937 rng(100 + t);
      for (;;) {
        Published p;
        {
          std::lock_guard<std::mutex> lock(mu);
          if (done) return;
          p = current;
        }
        PathQuery q;
        q.start = {static_cast<int32_t>(rng() % kW),
                   static_cast<int32_t>(rng() % kH)};
        q.goal = {static_cast<int32_t>(rng() % kW),
                  static_cast<int32_t>(rng() % kH)};
        const Algorithm algos[] = {Algorithm::kJpsPlus, Algorithm::kJps,
                                   Algorithm::kAStar};
        q.algorithm = algos[rng() % 3];
        if (!p.map->Passable(q.start) || !p.map->Passable(q.goal)) continue;
        absl::StatusOr<PathResult> r = FindPath(*p.map, q, context);
        answers[t].push_back({p.version, q, r.ok() ? r->cost : -1.0});
        seen[t].store(p.version);
        // p goes out of scope here: the last holder of an old version frees
        // its tiles from this thread.
      }
    });
  }
  std::mt19937 rng(5);
  std::shared_ptr<const GridMap> map = first;
  first.reset();
  for (int v = 1; v <= kVersions; ++v) {
    std::vector<CellChange> changes;
    for (int k = 0; k < 3; ++k) {
      const Cell c{static_cast<int32_t>(rng() % kW),
                   static_cast<int32_t>(rng() % kH)};
      const int32_t side = 1 + static_cast<int32_t>(rng() % 8);
      changes.push_back({c, {std::min(kW, c.x + side), std::min(kH, c.y + side)},
                         static_cast<uint8_t>(rng() % 2)});
    }
    ChangeSummary summary;
    absl::StatusOr<GridMap> next = ApplyChanges(*map, changes, &summary);
    ASSERT_OK(next);
    ASSERT_OK(RepairDerived(options, *map, summary, &*next, &reports));
    costs_of.push_back(next->CopyCosts());
    map = std::make_shared<const GridMap>(*std::move(next));
    std::lock_guard<std::mutex> lock(mu);
    current = {v, map};
  }
  // Let the readers search the last version too before they stop.
  for (bool all_saw_it = false; !all_saw_it;) {
    std::this_thread::yield();
    all_saw_it = true;
    for (const auto& v : seen) all_saw_it = all_saw_it && v.load() == kVersions;
  }
  {
    std::lock_guard<std::mutex> lock(mu);
    done = true;
  }
  for (std::thread& th : readers) th.join();
  map.reset();
  current.map.reset();

  // Every answer against one thread's on a fresh build of its version.
  SearchContext context;
  size_t checked = 0;
  for (int t = 0; t < kReaders; ++t) {
    for (const Answer& a : answers[t]) {
      const GridMap fresh =
          GridMap::FromCosts(kW, kH, costs_of[static_cast<size_t>(a.version)])
              .value();
      PathQuery q = a.query;
      q.algorithm = Algorithm::kAStar;
      absl::StatusOr<PathResult> r = FindPath(fresh, q, context);
      const double want = r.ok() ? r->cost : -1.0;
      ASSERT_NEAR(a.cost, want, 1e-6)
          << "thread " << t << " version " << a.version;
      if (++checked > 600) break;  // Enough; fresh builds cost time.
    }
  }
  EXPECT_GT(checked, 0u);
}

}  // namespace
}  // namespace gridstar
