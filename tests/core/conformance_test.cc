// Conformance: every query of the Moving AI sample in ../shared/movingai,
// through astar, jps, jps+, auto and bidirectional, must match the
// scenario's optimal length. Every other optimal algorithm runs every 50th
// query, weighted checks its bound on the same subset. Two tests, so that
// CTest runs bidirectional's pass (the slowest) beside the others.
//
// The data directory comes from GRIDSTAR_MOVINGAI_DIR (environment) or the
// build-time default. When it is missing the test fails if CI is set, and is
// skipped with a message otherwise.

#include <algorithm>
#include <cstdlib>
#include <filesystem>
#include <map>
#include <string>
#include <vector>

#include "absl/strings/str_cat.h"
#include "gridstar/agents.h"
#include "gridstar/engines/jps.h"
#include "gridstar/engines/subgoal.h"
#include "gridstar/find_path.h"
#include "gridstar/map_io.h"
#include "gridstar/scenario.h"
#include "gtest/gtest.h"
#include "testing/status_matchers.h"

namespace gridstar {
namespace {

namespace fs = std::filesystem;

std::string DataDir() {
  if (const char* env = std::getenv("GRIDSTAR_MOVINGAI_DIR")) return env;
  return GRIDSTAR_DEFAULT_MOVINGAI_DIR;
}

std::vector<fs::path> ScenarioFiles(const std::string& dir) {
  std::vector<fs::path> out;
  std::error_code ec;
  for (auto it = fs::recursive_directory_iterator(dir, ec);
       !ec && it != fs::recursive_directory_iterator(); it.increment(ec)) {
    if (it->path().extension() == ".scen") out.push_back(it->path());
  }
  std::sort(out.begin(), out.end());
  return out;
}

// The sample's scenario files into *out. When there are none the test
// fails if CI is set and is skipped otherwise (*out stays empty).
void FindScenarios(std::vector<fs::path>* out) {
  const std::string dir = DataDir();
  *out = ScenarioFiles(dir);
  if (!out->empty()) return;
  if (std::getenv("CI") != nullptr) {
    FAIL() << "Moving AI data missing at " << dir
           << " (CI is set, so this is a failure)";
  }
  GTEST_SKIP() << "Moving AI data not found at " << dir
               << "; set GRIDSTAR_MOVINGAI_DIR to run conformance";
}

// Runs the sample's queries through `all` (every query) and `sampled`
// (every 50th).
void CheckConformance(const std::vector<Algorithm>& all,
                      const std::vector<Algorithm>& sampled) {
  std::vector<fs::path> scens;
  FindScenarios(&scens);
  if (scens.empty()) return;
  SearchContext context;
  PathResult result;
  std::map<Algorithm, int64_t> queries_by;
  int64_t checked_others = 0;
  for (const fs::path& scen_path : scens) {
    fs::path map_path = scen_path;
    map_path.replace_extension();  // x.map.scen -> x.map
    SCOPED_TRACE(map_path.string());
    absl::StatusOr<GridMap> map = ReadMapFile(map_path.string());
    ASSERT_OK(map);
    ASSERT_OK(BuildJumpTable(&*map));  // For jps+ and auto.
    if (std::count(all.begin(), all.end(), Algorithm::kSubgoal) > 0) {
      ASSERT_OK(BuildSubgoalGraph(&*map));
    }
    if (std::count(all.begin(), all.end(), Algorithm::kContraction) > 0) {
      ASSERT_OK(BuildContraction(&*map));
    }
    absl::StatusOr<std::string> text = ReadFile(scen_path.string());
    ASSERT_OK(text);
    absl::StatusOr<std::vector<ScenarioQuery>> scen = ParseScenario(*text);
    ASSERT_OK(scen);
    int mismatches = 0;
    for (size_t i = 0; i < scen->size(); ++i) {
      const ScenarioQuery& sq = (*scen)[i];
      PathQuery q;
      q.start = sq.start;
      q.goal = sq.goal;
      for (Algorithm a : kAllAlgorithms) {
        const bool every = std::count(all.begin(), all.end(), a) > 0;
        const bool some = std::count(sampled.begin(), sampled.end(), a) > 0;
        if (!every && !(some && i % 50 == 0)) continue;
        q.algorithm = a;
        ASSERT_OK(FindPath(*map, q, context, &result))
            << "line " << sq.line << " " << AlgorithmName(a);
        if (a == Algorithm::kSubgoal || a == Algorithm::kContraction) {
          ASSERT_EQ(result.algorithm, a) << "line " << sq.line;
        }
        const double tol = 0.01 + 1e-5 * sq.optimal;
        const bool ok = IsOptimal(a)
                            ? LengthMatches(result.cost, sq.optimal)
                            : (result.cost >= sq.optimal - tol &&
                               result.cost <= q.weight * sq.optimal + tol);
        if (!ok && ++mismatches <= 5) {
          ADD_FAILURE() << "line " << sq.line << " " << AlgorithmName(a)
                        << ": length " << result.cost << ", optimal "
                        << sq.optimal;
        }
        ++(every ? queries_by[a] : checked_others);
      }
    }
    EXPECT_EQ(mismatches, 0);
  }
  // The sample holds 57,587 queries (README of the data set).
  for (const auto& [a, queries] : queries_by) {
    EXPECT_EQ(queries, 57587) << AlgorithmName(a);
    std::printf("conformance: %lld queries by %s\n",
                static_cast<long long>(queries),
                std::string(AlgorithmName(a)).c_str());
  }
  EXPECT_EQ(queries_by.size(), all.size());
  std::printf("conformance: %lld queries by the other algorithms\n",
              static_cast<long long>(checked_others));
}

TEST(ConformanceTest, EveryMovingAiQueryMatchesItsOptimalLength) {
  CheckConformance({Algorithm::kAStar, Algorithm::kJps, Algorithm::kJpsPlus,
                    Algorithm::kAuto},
                   {Algorithm::kWeighted, Algorithm::kDijkstra,
                    Algorithm::kBaseline, Algorithm::kAlt});
}

TEST(ConformanceTest, EveryMovingAiQueryMatchesThroughBidirectional) {
  CheckConformance({Algorithm::kBidirectional}, {});
}

// The subgoal graph search, on each map's graph (the search itself, not a
// fallback: every answer says kSubgoal).
TEST(ConformanceTest, EveryMovingAiQueryMatchesThroughSubgoalGraphs) {
  CheckConformance({Algorithm::kSubgoal}, {});
}

// The contraction tier, on each map's hierarchy (over a subgoal graph of its
// own; every answer says kContraction).
TEST(ConformanceTest, EveryMovingAiQueryMatchesThroughTheContractionTier) {
  CheckConformance({Algorithm::kContraction}, {});
}

// Read with its terrain as areas (water and trees passable in their own
// areas), every shared map under its default filter is the map the plain
// reader gives, cell for cell: the queries above answer the same through
// an agent map.
TEST(ConformanceTest, MovingAiAreasUnderTheDefaultFilterReadAsToday) {
  std::vector<fs::path> scens;
  FindScenarios(&scens);
  if (scens.empty()) return;
  int64_t other_terrain = 0;
  for (const fs::path& scen_path : scens) {
    fs::path map_path = scen_path;
    map_path.replace_extension();
    SCOPED_TRACE(map_path.string());
    absl::StatusOr<std::string> text = ReadFile(map_path.string());
    ASSERT_OK(text);
    absl::StatusOr<GridMap> plain = ParseMovingAiMap(*text);
    ASSERT_OK(plain);
    absl::StatusOr<MapWithAreas> with_areas = ParseMovingAiMapWithAreas(*text);
    ASSERT_OK(with_areas);
    AgentClass by_default;
    by_default.areas = with_areas->default_areas;
    absl::StatusOr<GridMap> seen =
        BuildAgentMap(with_areas->map, with_areas->areas, by_default);
    ASSERT_OK(seen);
    EXPECT_EQ(seen->CopyCosts(), plain->CopyCosts());
    other_terrain += with_areas->map.passable_count() - plain->passable_count();
  }
  // The sample has trees on most maps: the filter did real work.
  EXPECT_GT(other_terrain, 100000);
  std::printf("areas: %lld water or trees cells blocked by the default "
              "filter\n",
              static_cast<long long>(other_terrain));
}

}  // namespace
}  // namespace gridstar
