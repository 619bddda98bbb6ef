// InlineSearches (FindPath's fast path): which jobs are tried, answers equal
// to a worker's on random maps under every algorithm, abandoned attempts that
// leave no trace, a job's own smaller limit, a pool with every context lent
// out, and the contexts' memory.
#include "rpc/inline_searches.h"

#include <memory>
#include <random>
#include <string>
#include <vector>

#include "absl/strings/str_cat.h"
#include "absl/time/clock.h"
#include "gtest/gtest.h"
#include "maps/map_registry.h"
#include "testing/reference.h"
#include "testing/status_matchers.h"

namespace gridstar::server {
namespace {

using ::gridstar::testing::MakeRandomMap;
using ::gridstar::testing::RandomMapSpec;

InlineOptions Options(int contexts, uint64_t max_expansions = 128) {
  InlineOptions o;
  o.contexts = contexts;
  o.max_expansions = max_expansions;
  o.context_options.max_cells = 1 << 20;
  return o;
}

std::shared_ptr<const MapSnapshot> Snapshot(MapRegistry& registry, GridMap map,
                                            const std::string& id = "m") {
  MapOptions options;
  options.Set("jump_table", 1);
  options.Set("landmarks", map.uniform_cost() ? 0 : 4);
  absl::StatusOr<std::shared_ptr<const MapSnapshot>> s =
      registry.Register(id, std::move(map), options, true);
  EXPECT_TRUE(s.ok()) << s.status();
  return *s;
}

v1::PathRequest Request(Cell start, Cell goal, v1::Algorithm algorithm) {
  v1::PathRequest r;
  r.set_map_id("m");
  r.mutable_start()->set_x(start.x);
  r.mutable_start()->set_y(start.y);
  r.mutable_goal()->set_x(goal.x);
  r.mutable_goal()->set_y(goal.y);
  r.set_algorithm(algorithm);
  return r;
}

absl::Status Job(const v1::PathRequest& r,
                 std::shared_ptr<const MapSnapshot> snapshot, PathJob* job) {
  return MakeJob(r, std::move(snapshot), absl::Now() + absl::Hours(1),
                 std::make_shared<std::atomic<bool>>(false), "", 80 << 20, job);
}

// Sum of one counter family's series in the metrics registry.
double CounterSum(Metrics& metrics, const std::string& family) {
  double sum = 0;
  for (const auto& f : metrics.registry()->Collect()) {
    if (f.name != family) continue;
    for (const auto& m : f.metric) sum += m.counter.value;
  }
  return sum;
}

TEST(InlineSearchesTest, OnlyCloseEndsWithoutSnappingAreTried) {
  MapRegistry registry(nullptr, {});
  auto snapshot = Snapshot(registry, MakeRandomMap({600, 600, 0}, 1));
  InlineSearches pool(Options(1));
  struct Case {
    const char* name;
    Cell start, goal;
    int snap_radius;
    bool eligible;
  };
  const Case cases[] = {
      {"one step", {10, 10}, {11, 10}, 0, true},
      {"256 straight", {0, 0}, {256, 0}, 0, true},
      {"257 straight", {0, 0}, {257, 0}, 0, false},
      {"diagonal within", {0, 0}, {200, 100}, 0, true},
      {"diagonal beyond", {0, 0}, {220, 100}, 0, false},
      {"snapping", {10, 10}, {11, 10}, 2, false},
  };
  for (const Case& c : cases) {
    SCOPED_TRACE(c.name);
    v1::PathRequest r = Request(c.start, c.goal, v1::ALGORITHM_ASTAR);
    r.set_snap_radius(c.snap_radius);
    PathJob job;
    ASSERT_OK(Job(r, snapshot, &job));
    EXPECT_EQ(pool.Eligible(job), c.eligible);
  }
  InlineSearches off(Options(0));
  PathJob job;
  ASSERT_OK(Job(Request({1, 1}, {2, 1}, v1::ALGORITHM_ASTAR), snapshot, &job));
  EXPECT_FALSE(off.Eligible(job));
}

TEST(InlineSearchesTest, AnswersAsAWorkerWouldOnRandomMaps) {
  const v1::Algorithm algorithms[] = {
      v1::ALGORITHM_ASTAR,    v1::ALGORITHM_WEIGHTED, v1::ALGORITHM_DIJKSTRA,
      v1::ALGORITHM_BASELINE, v1::ALGORITHM_JPS,      v1::ALGORITHM_JPS_PLUS,
      v1::ALGORITHM_AUTO,     v1::ALGORITHM_ALT};
  const RandomMapSpec specs[] = {
      {48, 40, 0.25}, {48, 40, 0.2, 5}, {41, 41, 0, 1, true}};
  Metrics metrics;
  InlineSearches pool(Options(2, 64));
  SearchContext worker({1 << 20});
  int answered = 0, handed_on = 0;
  for (size_t spec = 0; spec < std::size(specs); ++spec) {
    for (uint32_t seed = 1; seed <= 6; ++seed) {
      MapRegistry registry(nullptr, {});
      auto snapshot = Snapshot(registry, MakeRandomMap(specs[spec], seed));
      const GridMap& map = snapshot->map;
      std::mt19937 rng(seed * 7919 + static_cast<uint32_t>(spec));
      std::vector<Cell> open;
      for (int y = 0; y < map.height(); ++y) {
        for (int x = 0; x < map.width(); ++x) {
          if (map.cost({x, y}) != 0) open.push_back({x, y});
        }
      }
      for (int q = 0; q < 12; ++q) {
        const Cell start = open[rng() % open.size()];
        const Cell goal = open[rng() % open.size()];
        for (v1::Algorithm a : algorithms) {
          SCOPED_TRACE(absl::StrCat("spec ", spec, " seed ", seed, " query ", q,
                                    " algorithm ", v1::Algorithm_Name(a)));
          PathJob job;
          ASSERT_OK(Job(Request(start, goal, a), snapshot, &job));
          v1::PathResponse fast, slow;
          absl::optional<absl::Status> s = pool.TryRun(job, &metrics, &fast);
          const absl::Status expected = RunJob(job, &metrics, worker, &slow);
          if (!s.has_value()) {
            ++handed_on;
            EXPECT_EQ(fast.ByteSizeLong(), 0u) << "an abandoned attempt wrote";
            continue;
          }
          ++answered;
          EXPECT_EQ(s->code(), expected.code()) << *s << " vs " << expected;
          EXPECT_EQ(fast.cost(), slow.cost());
          EXPECT_EQ(std::vector<int>(fast.cells().begin(), fast.cells().end()),
                    std::vector<int>(slow.cells().begin(), slow.cells().end()));
          EXPECT_EQ(fast.algorithm(), slow.algorithm());
          EXPECT_EQ(fast.expanded(), slow.expanded());
        }
      }
    }
  }
  // Both branches ran, and the counters say so.
  EXPECT_GT(answered, 100);
  EXPECT_GT(handed_on, 20);
  EXPECT_EQ(pool.answered(), static_cast<uint64_t>(answered));
  EXPECT_EQ(pool.handed_on(), static_cast<uint64_t>(handed_on));
  EXPECT_EQ(CounterSum(metrics, "gridstar_inline_searches_total"),
            answered + handed_on);
}

TEST(InlineSearchesTest, AnAbandonedAttemptLeavesNoTrace) {
  // A serpentine corridor: the goal, 20 cells away as the crow flies, is
  // hundreds of expansions away.
  MapRegistry registry(nullptr, {});
  std::vector<uint8_t> costs(40 * 21, 1);
  for (int row = 1; row < 21; row += 2) {
    for (int x = 0; x < 40; ++x) costs[row * 40 + x] = 0;
    costs[row * 40 + ((row / 2) % 2 == 0 ? 39 : 0)] = 1;
  }
  auto snapshot = Snapshot(registry, *GridMap::FromCosts(40, 21, costs));
  Metrics metrics;
  InlineSearches pool(Options(1, 16));
  PathJob job;
  ASSERT_OK(Job(Request({0, 0}, {0, 20}, v1::ALGORITHM_ASTAR), snapshot, &job));
  ASSERT_TRUE(pool.Eligible(job));
  v1::PathResponse out;
  EXPECT_FALSE(pool.TryRun(job, &metrics, &out).has_value());
  EXPECT_EQ(out.ByteSizeLong(), 0u);
  EXPECT_EQ(CounterSum(metrics, "gridstar_searches_total"), 0);
  EXPECT_EQ(pool.handed_on(), 1u);
  // The worker then finds it.
  SearchContext worker({1 << 20});
  EXPECT_OK(RunJob(job, &metrics, worker, &out));
  EXPECT_GT(out.expanded(), 16u);
  EXPECT_EQ(CounterSum(metrics, "gridstar_searches_total"), 1);
}

TEST(InlineSearchesTest, AJobsOwnSmallerLimitIsFinal) {
  MapRegistry registry(nullptr, {});
  auto snapshot = Snapshot(registry, MakeRandomMap({64, 64, 0}, 3));
  Metrics metrics;
  InlineSearches pool(Options(1, 128));
  for (bool allow_partial : {false, true}) {
    SCOPED_TRACE(allow_partial ? "allow_partial" : "no partial");
    v1::PathRequest r = Request({0, 0}, {60, 60}, v1::ALGORITHM_DIJKSTRA);
    r.set_max_expansions(5);
    r.set_allow_partial(allow_partial);
    PathJob job;
    ASSERT_OK(Job(r, snapshot, &job));
    v1::PathResponse out;
    absl::optional<absl::Status> s = pool.TryRun(job, &metrics, &out);
    ASSERT_TRUE(s.has_value());
    if (allow_partial) {
      EXPECT_OK(*s);
      EXPECT_TRUE(out.partial());
    } else {
      EXPECT_EQ(s->code(), absl::StatusCode::kResourceExhausted) << *s;
    }
  }
}

TEST(InlineSearchesTest, WithEveryContextLentOutCallsGoToWorkers) {
  MapRegistry registry(nullptr, {});
  auto snapshot = Snapshot(registry, MakeRandomMap({32, 32, 0}, 4));
  Metrics metrics;
  InlineSearches pool(Options(2));
  PathJob job;
  ASSERT_OK(Job(Request({1, 1}, {3, 3}, v1::ALGORITHM_ASTAR), snapshot, &job));
  v1::PathResponse out;
  {
    absl::optional<InlineSearches::Lease> a = pool.TryAcquire();
    absl::optional<InlineSearches::Lease> b = pool.TryAcquire();
    ASSERT_TRUE(a.has_value() && b.has_value());
    EXPECT_FALSE(pool.TryAcquire().has_value());
    EXPECT_FALSE(pool.TryRun(job, &metrics, &out).has_value());
    EXPECT_EQ(out.ByteSizeLong(), 0u);
  }
  ASSERT_TRUE(pool.TryRun(job, &metrics, &out).has_value());
  EXPECT_EQ(out.cost(), 2 * std::sqrt(2.0));
  EXPECT_GT(pool.memory_bytes(), 0u);
}

}  // namespace
}  // namespace gridstar::server
