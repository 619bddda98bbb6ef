// gridstar-bench: runs a Moving AI scenario through one algorithm in-process
// and prints timing and correctness figures.
//
//   gridstar-bench --map FILE --scen FILE
//                  [--algo astar|weighted|dijkstra|baseline|jps|jps+|auto|alt|bidirectional]
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
#include <random>
#include <string>
#include <vector>

#include "absl/strings/numbers.h"
#include "absl/strings/str_format.h"
#include "absl/time/clock.h"
#include "gridstar/derived_data.h"
#include "gridstar/find_path.h"
#include "gridstar/flow_field.h"
#include "gridstar/group_paths.h"
#include "gridstar/map_io.h"
#include "gridstar/map_update.h"
#include "gridstar/scenario.h"

namespace gridstar {
namespace {

constexpr char kUsage[] =
    "usage: gridstar-bench --map FILE --scen FILE "
    "[--algo astar|weighted|dijkstra|baseline|jps|jps+|auto|alt|bidirectional]\n"
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
    "  --csv       write query,length,expanded,micros for every query\n"
    "  --landmarks K  build K landmarks (for alt and auto) under --diagonal\n"
    "  --reference ALGO  with a non-optimal --algo (hpa, weighted) and a\n"
    "              scenario without optimal lengths: run ALGO (exact, not\n"
    "              timed) on each query for the suboptimality figures\n"
    "  --flow N    instead: time the goal's flow field against one --algo\n"
    "              search, over the N longest queries\n"
    "  --group U   instead: U units scattered over the goal's component\n"
    "              (FindGroupPaths) against 20 --algo searches, 5 longest goals\n"
    "  --updates N [--update_side K]  instead: N updates of random K x K\n"
    "              squares (blocked, then cleared, in turn) through\n"
    "              ApplyChanges + RepairDerived, with the table when --algo\n"
    "              is jps+ or auto: p50/p99 ms, the tiles copied, and\n"
    "              whether the result equals a from-scratch build\n"
    "  --make_terrain SIZE --out PREFIX [--seed S] [--queries N]\n"
    "              write a SIZE x SIZE terrain PREFIX.pgm (costs 1..9, some\n"
    "              blocked) and PREFIX.pgm.scen with N optimal queries\n";

int Usage(const std::string& error) {
  std::fprintf(stderr, "gridstar-bench: %s\n%s", error.c_str(), kUsage);
  return 2;
}

struct Options {
  std::string map, scen, csv;
  PathQuery query;
  int landmarks = 0;   // --landmarks: built for alt and auto.
  // --reference: an exact algorithm for the optimum where the scenario has
  // none (kAuto's value here means none given).
  bool has_reference = false;
  Algorithm reference = Algorithm::kAStar;
  int flow = 0;        // --flow N: flow field vs one search, N longest queries.
  int group = 0;       // --group U: a group of U units vs 20 searches.
  int make_terrain = 0;  // --make_terrain SIZE: write a terrain map + scen.
  int updates = 0;       // --updates N: time N updates of the map instead.
  int update_side = 1;   // --update_side K: each a K x K square.
  uint32_t seed = 1;
  int queries = 500;
  std::string out;
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
    } else if (flag == "--reference") {
      absl::StatusOr<Algorithm> a = ParseAlgorithm(value);
      if (!a.ok()) return Usage(std::string(a.status().message()));
      if (!IsOptimal(*a)) return Usage("--reference: must be exact");
      o->reference = *a;
      o->has_reference = true;
    } else if (flag == "--diagonal") {
      absl::StatusOr<DiagonalPolicy> p = ParseDiagonalPolicy(value);
      if (!p.ok()) return Usage(std::string(p.status().message()));
      o->query.movement.diagonal = *p;
    } else if (flag == "--landmarks" || flag == "--flow" || flag == "--group" ||
               flag == "--make_terrain" || flag == "--seed" ||
               flag == "--queries" || flag == "--updates" ||
               flag == "--update_side") {
      int v = 0;
      if (!absl::SimpleAtoi(value, &v) || v < 0 ||
          (flag == "--landmarks" && v > GridMap::kMaxLandmarks) ||
          (flag == "--make_terrain" && (v < 2 || v > 8192)) ||
          (flag == "--update_side" && (v < 1 || v > 1024))) {
        return Usage(absl::StrFormat("%s: '%s' is out of range", flag, value));
      }
      if (flag == "--landmarks") o->landmarks = v;
      if (flag == "--flow") o->flow = v;
      if (flag == "--group") o->group = v;
      if (flag == "--make_terrain") o->make_terrain = v;
      if (flag == "--seed") o->seed = static_cast<uint32_t>(v);
      if (flag == "--queries") o->queries = v;
      if (flag == "--updates") o->updates = v;
      if (flag == "--update_side") o->update_side = v;
    } else if (flag == "--out") {
      o->out = value;
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
  if (o->make_terrain > 0) {
    if (o->out.empty()) return Usage("--make_terrain needs --out PREFIX");
    return 0;
  }
  if (o->map.empty()) return Usage("--map is required");
  if (o->scen.empty() && o->updates == 0) return Usage("--scen is required");
  return 0;
}

double Percentile(std::vector<double> v, double p) {
  if (v.empty()) return 0;
  const size_t k =
      std::min(v.size() - 1, static_cast<size_t>(p * (v.size() - 1) + 0.5));
  std::nth_element(v.begin(), v.begin() + k, v.end());
  return v[k];
}

// Smooth value noise in [0, 1): bilinear interpolation of a random lattice
// with the given spacing, summed over three octaves.
std::vector<double> ValueNoise(int size, uint32_t seed) {
  std::mt19937 rng(seed);
  std::uniform_real_distribution<double> u(0, 1);
  std::vector<double> out(static_cast<size_t>(size) * size, 0);
  double total = 0;
  for (int spacing : {64, 16, 4}) {
    const int n = size / spacing + 2;
    std::vector<double> lattice(static_cast<size_t>(n) * n);
    for (double& v : lattice) v = u(rng);
    const double amplitude = spacing / 64.0 + 0.25;
    total += amplitude;
    for (int y = 0; y < size; ++y) {
      for (int x = 0; x < size; ++x) {
        const int gx = x / spacing, gy = y / spacing;
        const double fx = (x % spacing) / static_cast<double>(spacing);
        const double fy = (y % spacing) / static_cast<double>(spacing);
        auto at = [&](int i, int j) { return lattice[static_cast<size_t>(j) * n + i]; };
        const double top = at(gx, gy) * (1 - fx) + at(gx + 1, gy) * fx;
        const double bottom = at(gx, gy + 1) * (1 - fx) + at(gx + 1, gy + 1) * fx;
        out[static_cast<size_t>(y) * size + x] +=
            amplitude * (top * (1 - fy) + bottom * fy);
      }
    }
  }
  for (double& v : out) v = std::min(0.999999, v / total);
  return out;
}

// --make_terrain: a SIZE x SIZE terrain PGM (costs 1..9 from smooth noise,
// about a tenth blocked in lakes and walls) and a scenario of --queries
// random connected pairs with their optimal lengths (Dijkstra).
int MakeTerrain(const Options& o) {
  const int size = o.make_terrain;
  const std::vector<double> relief = ValueNoise(size, o.seed);
  const std::vector<double> water = ValueNoise(size, o.seed * 7919 + 1);
  std::vector<uint8_t> costs(relief.size());
  for (size_t i = 0; i < costs.size(); ++i) {
    // Costs stretched over 1..9 from the middle of the noise's range.
    const double r = std::clamp((relief[i] - 0.3) / 0.4, 0.0, 0.999);
    costs[i] = water[i] > 0.64 ? 0 : static_cast<uint8_t>(1 + 9 * r);
  }
  absl::StatusOr<GridMap> map = GridMap::FromCosts(size, size, costs);
  if (!map.ok()) return Usage(std::string(map.status().message()));
  const std::string pgm_path = o.out + ".pgm";
  const std::string pgm = WritePgm(*map, PgmEncoding::kBinary);
  FILE* f = std::fopen(pgm_path.c_str(), "wb");
  if (f == nullptr) return Usage(pgm_path + ": cannot write");
  std::fwrite(pgm.data(), 1, pgm.size(), f);
  std::fclose(f);
  const std::string scen_path = pgm_path + ".scen";
  f = std::fopen(scen_path.c_str(), "w");
  if (f == nullptr) return Usage(scen_path + ": cannot write");
  std::fprintf(f, "version 1\n");
  std::mt19937 rng(o.seed);
  SearchContext context;
  PathQuery q;
  q.algorithm = Algorithm::kDijkstra;
  int written = 0;
  while (written < o.queries) {
    q.start = {static_cast<int32_t>(rng() % size), static_cast<int32_t>(rng() % size)};
    q.goal = {static_cast<int32_t>(rng() % size), static_cast<int32_t>(rng() % size)};
    if (!map->Connected(q.start, q.goal)) continue;
    absl::StatusOr<PathResult> r = FindPath(*map, q, context);
    if (!r.ok()) continue;
    std::fprintf(f, "%d\t%s\t%d\t%d\t%d\t%d\t%d\t%d\t%.8f\n",
                 static_cast<int>(r->cost / 40), pgm_path.c_str(), size, size,
                 q.start.x, q.start.y, q.goal.x, q.goal.y, r->cost);
    ++written;
  }
  std::fclose(f);
  std::printf("wrote %s (%dx%d, %lld passable, costs %d..%d) and %s (%d queries)\n",
              pgm_path.c_str(), size, size,
              static_cast<long long>(map->passable_count()), map->min_cost(),
              map->max_cost(), scen_path.c_str(), written);
  return 0;
}

// The indices of the n queries with the longest optimal lengths.
std::vector<size_t> Longest(const std::vector<ScenarioQuery>& scen, int n) {
  std::vector<size_t> order(scen.size());
  for (size_t i = 0; i < order.size(); ++i) order[i] = i;
  std::stable_sort(order.begin(), order.end(), [&](size_t a, size_t b) {
    return scen[a].optimal > scen[b].optimal;
  });
  order.resize(std::min(order.size(), static_cast<size_t>(n)));
  return order;
}

double MicrosSince(absl::Time t0) {
  return absl::ToDoubleMicroseconds(absl::Now() - t0);
}

// --flow N: for the N longest queries, the time to build the goal's flow
// field against one search from the start with --algo (both in this run).
// Updates of random squares, each version made from the one before as the
// server makes it (the version before stays alive until the next exists).
int RunUpdates(const Options& o, GridMap map) {
  DerivedOptions derived;
  derived.jump_table = map.has_jump_table();
  derived.hpa = map.has_hpa();
  if (map.has_hpa()) derived.hpa_policy = map.hpa_policy();
  std::mt19937 rng(o.seed);
  std::vector<double> apply_ms, repair_ms, total_ms;
  double copied = 0;
  const int32_t k = std::min({o.update_side, map.width(), map.height()});
  for (int i = 0; i < o.updates; ++i) {
    const Cell c{static_cast<int32_t>(rng() % (map.width() - k + 1)),
                 static_cast<int32_t>(rng() % (map.height() - k + 1))};
    const CellChange change{c, {c.x + k, c.y + k}, uint8_t(i % 2 ? 1 : 0)};
    const absl::Time t0 = absl::Now();
    ChangeSummary summary;
    absl::StatusOr<GridMap> next = ApplyChanges(map, {change}, &summary);
    const absl::Time t1 = absl::Now();
    std::vector<DerivedReport> reports;
    absl::Status s = next.ok() ? RepairDerived(derived, map, summary, &*next,
                                               &reports)
                               : next.status();
    const absl::Time t2 = absl::Now();
    if (!s.ok()) {
      std::fprintf(stderr, "gridstar-bench: update %d: %s\n", i,
                   std::string(s.message()).c_str());
      return 1;
    }
    apply_ms.push_back(absl::ToDoubleMilliseconds(t1 - t0));
    repair_ms.push_back(absl::ToDoubleMilliseconds(t2 - t1));
    total_ms.push_back(absl::ToDoubleMilliseconds(t2 - t0));
    copied += static_cast<double>(next->UnsharedTileBytes());
    map = *std::move(next);
  }
  // The repaired version against one built from scratch: every structure
  // the updates repaired, compared whole.
  const GridMap fresh_base =
      GridMap::FromCosts(map.width(), map.height(), map.CopyCosts()).value();
  GridMap fresh = fresh_base;
  if (derived.jump_table && fresh.uniform_cost()) {
    if (!fresh.BuildJumpTable().ok()) return 1;
  }
  if (derived.hpa && !fresh.BuildHpa(derived.hpa_policy).ok()) return 1;
  bool same = fresh.component_count() == map.component_count() &&
              map.HpaEquals(fresh) &&
              fresh.has_jump_table() == map.has_jump_table() &&
              (!map.has_jump_table() ||
               std::equal(map.jump_table(),
                          map.jump_table() + map.JumpTableBytes(),
                          fresh.jump_table()));
  for (int32_t y = 0; same && y < map.height(); ++y) {
    for (int32_t x = 0; x < map.width(); ++x) {
      if (map.component({x, y}) != fresh.component({x, y})) same = false;
    }
  }
  if (map.uniform_cost()) {
    for (int32_t r = 0; same && r < map.height() + 2; ++r) {
      same = std::equal(map.row_bits(r), map.row_bits(r) + map.row_bit_words(),
                        fresh.row_bits(r));
    }
  }
  std::printf(
      "repaired_equals_fresh=%d updates=%d side=%d table=%d hpa=%d apply_p50_ms=%.3f apply_p99_ms=%.3f "
      "repair_p50_ms=%.3f repair_p99_ms=%.3f total_p50_ms=%.3f "
      "total_p99_ms=%.3f copied_kib_mean=%.1f\n",
      same ? 1 : 0, o.updates, k, derived.jump_table ? 1 : 0,
      derived.hpa ? 1 : 0, Percentile(apply_ms, 0.5),
      Percentile(apply_ms, 0.99), Percentile(repair_ms, 0.5),
      Percentile(repair_ms, 0.99), Percentile(total_ms, 0.5),
      Percentile(total_ms, 0.99), copied / o.updates / 1024);
  return same ? 0 : 1;
}

int RunFlow(const Options& o, const GridMap& map,
            const std::vector<ScenarioQuery>& scen) {
  SearchContext context;
  PathResult result;
  double field_us = 0, search_us = 0;
  int64_t reached = 0;
  const std::vector<size_t> picked = Longest(scen, o.flow);
  for (size_t i : picked) {
    PathQuery q = o.query;
    q.start = scen[i].start;
    q.goal = scen[i].goal;
    FlowFieldQuery fq;
    fq.goal = q.goal;
    fq.movement.diagonal = q.movement.diagonal;
    absl::Time t0 = absl::Now();
    absl::StatusOr<FlowField> field = ComputeFlowField(map, fq, context);
    field_us += MicrosSince(t0);
    if (!field.ok()) return Usage(std::string(field.status().message()));
    reached += field->reached();
    t0 = absl::Now();
    if (!FindPath(map, q, context, &result).ok()) return Usage("search failed");
    search_us += MicrosSince(t0);
    // The field's cost from the start is the optimum too.
    if (!LengthMatches(field->CostToGoal(q.start), scen[i].optimal)) {
      std::fprintf(stderr, "gridstar-bench: field mismatch at line %d\n", scen[i].line);
      return 1;
    }
  }
  const double n = static_cast<double>(picked.size());
  std::printf(
      "flow_fields=%zu field_mean_us=%.1f field_cells_mean=%.0f "
      "search_algo=%s search_mean_us=%.1f field_over_search=%.2f\n",
      picked.size(), field_us / n, static_cast<double>(reached) / n,
      std::string(AlgorithmName(o.query.algorithm)).c_str(), search_us / n,
      field_us / search_us);
  return 0;
}

// --group U: for the 5 longest queries, U units scattered (seeded) over the
// goal's component answered by FindGroupPaths (which takes a flow field from
// 64 units on) against 20 independent searches with --algo.
int RunGroup(const Options& o, const GridMap& map,
             const std::vector<ScenarioQuery>& scen) {
  SearchContext context;
  PathResult result;
  std::mt19937 rng(o.seed);
  double group_us = 0, twenty_us = 0, cached_us = 0;
  bool used_field = true;
  const std::vector<size_t> picked = Longest(scen, 5);
  for (size_t i : picked) {
    GroupQuery g;
    g.goals = {scen[i].goal};
    g.algorithm = o.query.algorithm;
    g.movement.diagonal = o.query.movement.diagonal;
    while (g.starts.size() < static_cast<size_t>(o.group)) {
      const Cell c{static_cast<int32_t>(rng() % map.width()),
                   static_cast<int32_t>(rng() % map.height())};
      if (map.Connected(c, g.goals[0])) g.starts.push_back(c);
    }
    GroupResult r;
    absl::Time t0 = absl::Now();
    if (!FindGroupPaths(map, g, context, &r).ok()) return Usage("group failed");
    group_us += MicrosSince(t0);
    used_field = used_field && r.used_flow_field;
    for (const UnitPath& u : r.units) {
      if (!u.status.ok()) return Usage(std::string(u.status.message()));
    }
    // The same group again with the goal's field at hand (a server's cache
    // holds it after the first group to that goal).
    FlowFieldQuery fq;
    fq.goal = g.goals[0];
    fq.movement.diagonal = g.movement.diagonal;
    absl::StatusOr<FlowField> field = ComputeFlowField(map, fq, context);
    if (!field.ok()) return Usage(std::string(field.status().message()));
    g.flow_field = &*field;
    t0 = absl::Now();
    if (!FindGroupPaths(map, g, context, &r).ok()) return Usage("group failed");
    cached_us += MicrosSince(t0);
    t0 = absl::Now();
    for (size_t k = 0; k < 20 && k < g.starts.size(); ++k) {
      PathQuery q = o.query;
      q.start = g.starts[k];
      q.goal = g.goals[0];
      if (!FindPath(map, q, context, &result).ok()) return Usage("search failed");
    }
    twenty_us += MicrosSince(t0);
  }
  const double n = static_cast<double>(picked.size());
  std::printf(
      "groups=%zu units=%d flow_field=%d group_mean_us=%.1f "
      "cached_field_group_mean_us=%.1f twenty_searches_mean_us=%.1f "
      "search_algo=%s group_over_twenty=%.2f\n",
      picked.size(), o.group, used_field ? 1 : 0, group_us / n, cached_us / n,
      twenty_us / n, std::string(AlgorithmName(o.query.algorithm)).c_str(),
      group_us / twenty_us);
  return 0;
}

int Run(int argc, char** argv) {
  Options o;
  if (int rc = ParseArgs(argc, argv, &o); rc != 0) return rc;
  if (o.make_terrain > 0) return MakeTerrain(o);
  absl::StatusOr<GridMap> map = ReadMapFile(o.map);
  if (!map.ok()) {
    std::fprintf(stderr, "gridstar-bench: %s\n",
                 std::string(map.status().message()).c_str());
    return 2;
  }
  absl::StatusOr<std::string> scen_text =
      o.scen.empty() ? std::string() : ReadFile(o.scen);
  if (!scen_text.ok()) {
    std::fprintf(stderr, "gridstar-bench: %s\n",
                 std::string(scen_text.status().message()).c_str());
    return 2;
  }
  absl::StatusOr<std::vector<ScenarioQuery>> scen =
      o.scen.empty() ? std::vector<ScenarioQuery>() : ParseScenario(*scen_text);
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
  if (o.query.algorithm == Algorithm::kHpa) {
    const absl::Time t0 = absl::Now();
    if (absl::Status s = map->BuildHpa(o.query.movement.diagonal); !s.ok()) {
      std::fprintf(stderr, "gridstar-bench: %s\n",
                   std::string(s.message()).c_str());
      return 2;
    }
    std::printf("hpa_ms=%.1f hpa_bytes=%zu hpa_bytes_per_cell=%.3f\n",
                absl::ToDoubleMilliseconds(absl::Now() - t0), map->HpaBytes(),
                static_cast<double>(map->HpaBytes()) / map->cell_count());
  }
  if (o.landmarks > 0) {
    const absl::Time t0 = absl::Now();
    if (absl::Status s = map->BuildLandmarks(o.landmarks, o.query.movement.diagonal);
        !s.ok()) {
      std::fprintf(stderr, "gridstar-bench: %s\n",
                   std::string(s.message()).c_str());
      return 2;
    }
    std::printf("landmarks=%d landmarks_ms=%.1f landmark_bytes=%zu\n",
                o.landmarks, absl::ToDoubleMilliseconds(absl::Now() - t0),
                map->LandmarkBytes());
  }
  if (o.updates > 0) return RunUpdates(o, *std::move(map));
  if (o.flow > 0) return RunFlow(o, *map, *scen);
  if (o.group > 0) return RunGroup(o, *map, *scen);
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
              std::string(DiagonalPolicyName(o.query.movement.diagonal)).c_str(),
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
  SearchContext reference_context;
  double ratio_sum = 0, ratio_max = 0;
  int64_t ratios = 0;
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
    double optimum = sq.optimal;
    if (o.has_reference && !optimal && s.ok() && optimum <= 0) {
      PathQuery ref = q;
      ref.algorithm = o.reference;
      ref.smooth = false;
      PathResult exact;
      if (FindPath(*map, ref, reference_context, &exact).ok()) {
        optimum = exact.cost;
      }
    }
    if (!optimal && s.ok() && optimum > 0) {
      const double ratio = length / optimum;
      ratio_sum += ratio;
      ratio_max = std::max(ratio_max, ratio);
      ++ratios;
    }
    bool match;
    if (o.query.algorithm == Algorithm::kHpa) {
      // Bounded-suboptimal: found when the scenario has a path, never
      // shorter than the optimum.
      match = (sq.optimal < 0) == (length < 0) &&
              (length < 0 || sq.optimal <= 0 ||
               length >= sq.optimal - 0.01 - 1e-5 * sq.optimal);
    } else if (weight == 1.0) {
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
  // Memory, for the README's capacity model: the map with its derived data,
  // and the context after serving every query.
  std::printf("map_bytes=%zu map_bytes_per_cell=%.2f context_bytes=%zu "
              "context_bytes_per_cell=%.2f\n",
              map->MemoryBytes(),
              static_cast<double>(map->MemoryBytes()) / map->cell_count(),
              context.MemoryBytes(),
              static_cast<double>(context.MemoryBytes()) / map->cell_count());
  // (Before the summary line, which stays last for scripts.)
  if (ratios > 0) {
    std::printf("suboptimality_mean=%.4f suboptimality_max=%.4f over=%lld\n",
                ratio_sum / static_cast<double>(ratios), ratio_max,
                static_cast<long long>(ratios));
  }
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
  return mismatches > 0 &&
                 (optimal || weight > 1.0 ||
                  o.query.algorithm == Algorithm::kHpa)
             ? 1
             : 0;
}

}  // namespace
}  // namespace gridstar

int main(int argc, char** argv) { return gridstar::Run(argc, argv); }
