// gridstar-bench: runs a Moving AI scenario through one algorithm in-process
// and prints timing and correctness figures.
//
//   gridstar-bench --map FILE --scen FILE
//                  [--algo astar|weighted|dijkstra|baseline|jps|jps+|auto]
//                  [--weight W] [--diagonal
//                  never|no-corner-cutting|allow-corner-cutting]
//                  [--csv OUT]
//
// The last line of stdout is exactly
//   queries=N mismatches=M mean_us=X p50_us=X p99_us=X expanded_mean=X
// Exit status: 0 all matched, 1 a mismatch (for weighted: a length over the
// bound), 2 bad arguments or unreadable files.

#include <algorithm>
#include <cstdio>
#include <cstring>
#include <string>
#include <vector>

#include "absl/strings/numbers.h"
#include "absl/strings/str_format.h"
#include "absl/time/clock.h"
#include "gridstar/find_path.h"
#include "gridstar/map_io.h"
#include "gridstar/scenario.h"

namespace gridstar {
namespace {

constexpr char kUsage[] =
    "usage: gridstar-bench --map FILE --scen FILE "
    "[--algo astar|weighted|dijkstra|baseline|jps|jps+|auto]\n"
    "                      [--weight W]"
    "                      [--diagonal never|no-corner-cutting|"
    "allow-corner-cutting] [--csv OUT]\n"
    "  --map       a Moving AI .map or a PGM (P5/P2) terrain map\n"
    "  --scen      a Moving AI scenario (its map column is ignored)\n"
    "  --algo      search algorithm (default astar); jps+ and auto first\n"
    "              precompute the map's jump table (time and bytes printed)\n"
    "  --weight    heuristic weight of --algo weighted, >= 1 (default 1.5)\n"
    "  --diagonal  diagonal policy (default no-corner-cutting, the rule the\n"
    "              scenarios' optimal lengths assume)\n"
    "  --csv       write query,length,expanded,micros for every query\n";

int Usage(const std::string& error) {
  std::fprintf(stderr, "gridstar-bench: %s\n%s", error.c_str(), kUsage);
  return 2;
}

struct Options {
  std::string map, scen, csv;
  PathQuery query;
};

// Returns 0 on success, else the exit status.
int ParseArgs(int argc, char** argv, Options* o) {
  for (int i = 1; i < argc; ++i) {
    const std::string flag = argv[i];
    if (flag == "--help" || flag == "-h") {
      std::fputs(kUsage, stdout);
      std::exit(0);
    }
    if (i + 1 >= argc) return Usage("missing value for " + flag);
    const std::string value = argv[++i];
    if (flag == "--map") {
      o->map = value;
    } else if (flag == "--scen") {
      o->scen = value;
    } else if (flag == "--csv") {
      o->csv = value;
    } else if (flag == "--algo") {
      absl::StatusOr<Algorithm> a = ParseAlgorithm(value);
      if (!a.ok()) return Usage(std::string(a.status().message()));
      o->query.algorithm = *a;
    } else if (flag == "--diagonal") {
      absl::StatusOr<DiagonalPolicy> p = ParseDiagonalPolicy(value);
      if (!p.ok()) return Usage(std::string(p.status().message()));
      o->query.diagonal = *p;
    } else if (flag == "--weight") {
      double w = 0;
      if (!absl::SimpleAtod(value, &w) || !(w >= 1.0 && w <= kMaxWeight)) {
        return Usage(absl::StrFormat(
            "--weight: '%s' is not a number in [1, %g]", value, kMaxWeight));
      }
      o->query.weight = w;
    } else {
      return Usage("unknown flag " + flag);
    }
  }
  if (o->map.empty()) return Usage("--map is required");
  if (o->scen.empty()) return Usage("--scen is required");
  return 0;
}

double Percentile(std::vector<double> v, double p) {
  if (v.empty()) return 0;
  const size_t k =
      std::min(v.size() - 1, static_cast<size_t>(p * (v.size() - 1) + 0.5));
  std::nth_element(v.begin(), v.begin() + k, v.end());
  return v[k];
}

int Run(int argc, char** argv) {
  Options o;
  if (int rc = ParseArgs(argc, argv, &o); rc != 0) return rc;
  absl::StatusOr<GridMap> map = ReadMapFile(o.map);
  if (!map.ok()) {
    std::fprintf(stderr, "gridstar-bench: %s\n",
                 std::string(map.status().message()).c_str());
    return 2;
  }
  absl::StatusOr<std::string> scen_text = ReadFile(o.scen);
  if (!scen_text.ok()) {
    std::fprintf(stderr, "gridstar-bench: %s\n",
                 std::string(scen_text.status().message()).c_str());
    return 2;
  }
  absl::StatusOr<std::vector<ScenarioQuery>> scen = ParseScenario(*scen_text);
  if (!scen.ok()) {
    std::fprintf(stderr, "gridstar-bench: %s: %s\n", o.scen.c_str(),
                 std::string(scen.status().message()).c_str());
    return 2;
  }
  if ((o.query.algorithm == Algorithm::kJpsPlus ||
       o.query.algorithm == Algorithm::kAuto) &&
      map->uniform_cost()) {
    const absl::Time t0 = absl::Now();
    if (absl::Status s = map->BuildJumpTable(); !s.ok()) {
      std::fprintf(stderr, "gridstar-bench: %s\n",
                   std::string(s.message()).c_str());
      return 2;
    }
    std::printf("jump_table_ms=%.1f jump_table_bytes=%zu\n",
                absl::ToDoubleMilliseconds(absl::Now() - t0),
                map->JumpTableBytes());
  }
  FILE* csv = nullptr;
  if (!o.csv.empty()) {
    csv = std::fopen(o.csv.c_str(), "w");
    if (!csv) {
      std::fprintf(stderr, "gridstar-bench: %s: cannot write\n", o.csv.c_str());
      return 2;
    }
    std::fputs("query,length,expanded,micros\n", csv);
  }
  std::printf("map=%s size=%dx%d algo=%s diagonal=%s queries=%zu\n",
              o.map.c_str(), map->width(), map->height(),
              std::string(AlgorithmName(o.query.algorithm)).c_str(),
              std::string(DiagonalPolicyName(o.query.diagonal)).c_str(),
              scen->size());
  bool warned_size = false;
  const bool optimal = IsOptimal(o.query.algorithm);
  const double weight =
      o.query.algorithm == Algorithm::kWeighted ? o.query.weight : 1.0;
  SearchContext context;
  PathResult result;
  std::vector<double> micros;
  micros.reserve(scen->size());
  double expanded_sum = 0;
  int64_t mismatches = 0;
  for (size_t i = 0; i < scen->size(); ++i) {
    const ScenarioQuery& sq = (*scen)[i];
    if (!warned_size &&
        (sq.map_width != map->width() || sq.map_height != map->height())) {
      std::fprintf(stderr,
                   "gridstar-bench: note: scenario line %d names a %lldx%lld "
                   "map, the map is %dx%d\n",
                   sq.line, static_cast<long long>(sq.map_width),
                   static_cast<long long>(sq.map_height), map->width(),
                   map->height());
      warned_size = true;
    }
    PathQuery q = o.query;
    q.start = sq.start;
    q.goal = sq.goal;
    const absl::Status s = FindPath(*map, q, context, &result);
    double length = -1;
    if (s.ok()) {
      length = result.cost;
      micros.push_back(result.micros);
      expanded_sum += static_cast<double>(result.expanded);
    } else if (absl::IsNotFound(s)) {
      micros.push_back(result.micros);
    } else {
      std::fprintf(stderr, "gridstar-bench: %s line %d: %s\n", o.scen.c_str(),
                   sq.line, std::string(s.message()).c_str());
    }
    bool match;
    if (weight == 1.0) {
      match = LengthMatches(length, sq.optimal);
    } else if (sq.optimal < 0 || length < 0) {
      match = sq.optimal < 0 && length < 0;
    } else {
      const double tol = 0.01 + 1e-5 * sq.optimal;
      match = length >= sq.optimal - tol && length <= weight * sq.optimal + tol;
    }
    if (!match) ++mismatches;
    if (csv) {
      std::fprintf(
          csv, "%zu,%.6f,%llu,%.3f\n", i, length < 0 ? -1.0 : length,
          static_cast<unsigned long long>(s.ok() ? result.expanded : 0),
          result.micros);
    }
  }
  if (csv) std::fclose(csv);
  double mean = 0;
  for (double m : micros) mean += m;
  if (!micros.empty()) mean /= static_cast<double>(micros.size());
  const double found = static_cast<double>(micros.size());
  std::printf(
      "queries=%zu mismatches=%lld mean_us=%.3f p50_us=%.3f p99_us=%.3f "
      "expanded_mean=%.1f\n",
      scen->size(), static_cast<long long>(mismatches), mean,
      Percentile(micros, 0.50), Percentile(micros, 0.99),
      found > 0 ? expanded_sum / found : 0.0);
  return mismatches > 0 && (optimal || weight > 1.0) ? 1 : 0;
}

}  // namespace
}  // namespace gridstar

int main(int argc, char** argv) { return gridstar::Run(argc, argv); }
