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
//   generated_mean=X
// Timing starts with a warm context: one untimed search of the first query
// first (a context's first search on a map sizes and backs its per-cell
// arrays, milliseconds that a server's workers paid long before).
// Exit status: 0 all matched, 1 a mismatch (for weighted: a length over the
// bound), 2 bad arguments or unreadable files.

#include <algorithm>
#include <cstdio>
#include <cstring>
#include <random>
#include <string>
#include <vector>

#include "absl/strings/match.h"
#include "absl/strings/numbers.h"
#include "absl/strings/str_format.h"
#include "absl/time/clock.h"
#include "bench_common.h"
#include "gridstar/agents.h"
#include "gridstar/derived_data.h"
#include "gridstar/engines/alt.h"
#include "gridstar/engines/hpa.h"
#include "gridstar/engines/jps.h"
#include "gridstar/engines/subgoal.h"
#include "gridstar/find_path.h"
#include "gridstar/flow_field.h"
#include "gridstar/group_paths.h"
#include "gridstar/map_io.h"
#include "gridstar/map_update.h"
#include "gridstar/render.h"
#include "gridstar/scenario.h"

namespace gridstar::bench {
namespace {

constexpr char kUsage[] =
    "usage: gridstar-bench --map FILE --scen FILE "
    "[--algo astar|weighted|dijkstra|baseline|jps|jps+|auto|alt|bidirectional|"
    "hpa|theta|subgoal|contraction]\n"
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
    "  --contraction 1  build the contraction hierarchy (for auto; --algo\n"
    "              contraction always builds it; time, bytes and arcs "
    "printed)\n"
    "  --subgoal_graph 1  build the subgoal graph (for auto; --algo subgoal\n"
    "              always builds it; time, bytes and size printed)\n"
    "  --auto_measure Q  with --algo auto: time the exact engines on Q\n"
    "              random queries first and let auto run the fastest, as\n"
    "              the server does at registration (default 96; 0 = rule)\n"
    "  --reference ALGO  with a non-optimal --algo (hpa, weighted) and a\n"
    "              scenario without optimal lengths: run ALGO (exact, not\n"
    "              timed) on each query for the suboptimality figures; with\n"
    "              --algo theta: run ALGO + smooth on each query (timed "
    "apart)\n"
    "              and compare the any-angle costs\n"
    "  --render OUT.png|OUT.svg [--render_query I] [--cell_pixels K]\n"
    "              also draw query I (default the last) searched with a "
    "trace:\n"
    "              costs, walls, the expanded cells by order, the path\n"
    "  --progressive N  instead: every query answered as a watch with\n"
    "              progressive_expansions N answers it (a search capped at N\n"
    "              expansions, then the whole search again when that one\n"
    "              was partial) against the whole search alone\n"
    "  --flow N    instead: time the goal's flow field against one --algo\n"
    "              search, over the N longest queries\n"
    "  --group U [--group_method auto|splice|flow_field]  instead: U units\n"
    "              scattered over the goal's component\n"
    "              (FindGroupPaths) against 20 --algo searches, 5 longest "
    "goals\n"
    "  --replan N [--replan_cells K]  instead: for the N longest queries,\n"
    "              D* Lite's repair after walls appear on the path (10%,\n"
    "              50%, 90% of the way) against a fresh --algo search\n"
    "  --agent_size K [--areas MASK]  instead: every query whose ends are\n"
    "              free for a K x K agent under area filter MASK (decimal or\n"
    "              0x hex; default the map's: ground and swamp on Moving AI\n"
    "              maps, which read water and trees as areas 2 and 3),\n"
    "              searched by --algo on its agent map and on size 1's\n"
    "  --tiles N   instead: N 256 x 256 map-view tiles at random places and\n"
    "              zooms (render::RenderTilePng): p50/p99 ms beside a blank\n"
    "              tile's\n"
    "  --updates N [--update_side K]  instead: N updates of random K x K\n"
    "              squares (blocked, then cleared, in turn) through\n"
    "              ApplyChanges + RepairDerived, with the table when --algo\n"
    "              is jps+ or auto: p50/p99 ms, the tiles copied, and\n"
    "              whether the result equals a from-scratch build\n"
    "  --make_terrain SIZE --out PREFIX [--seed S] [--queries N]\n"
    "              write a SIZE x SIZE terrain PREFIX.pgm (costs 1..9, some\n"
    "              blocked) and PREFIX.pgm.scen with N optimal queries\n";

}  // namespace

int Usage(const std::string& error) {
  std::fprintf(stderr, "gridstar-bench: %s\n%s", error.c_str(), kUsage);
  return 2;
}


namespace {

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
    } else if (flag == "--render") {
      o->render = value;
    } else if (flag == "--render_query" || flag == "--cell_pixels") {
      int v = 0;
      if (!absl::SimpleAtoi(value, &v) || v < 0) {
        return Usage(flag + ": '" + value + "' is not a count");
      }
      (flag == "--render_query" ? o->render_query : o->cell_pixels) = v;
    } else if (flag == "--csv") {
      o->csv = value;
    } else if (flag == "--subgoal_graph" || flag == "--contraction") {
      if (value != "0" && value != "1") {
        return Usage(flag + ": '" + value + "' is not 0 or 1");
      }
      (flag == "--subgoal_graph" ? o->subgoal_graph : o->contraction) =
          value == "1";
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
               flag == "--update_side" || flag == "--replan" ||
               flag == "--replan_cells" || flag == "--auto_measure" ||
               flag == "--tiles" || flag == "--progressive") {
      int v = 0;
      if (!absl::SimpleAtoi(value, &v) || v < 0 ||
          (flag == "--landmarks" && v > kMaxLandmarks) ||
          (flag == "--make_terrain" && (v < 2 || v > 8192)) ||
          (flag == "--update_side" && (v < 1 || v > 1024)) ||
          (flag == "--auto_measure" && v > 1000)) {
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
      if (flag == "--replan") o->replan = v;
      if (flag == "--replan_cells") o->replan_cells = std::max(1, v);
      if (flag == "--auto_measure") o->auto_measure = v;
      if (flag == "--tiles") o->tiles = v;
      if (flag == "--progressive") o->progressive = v;
    } else if (flag == "--group_method") {
      absl::StatusOr<GroupMethod> m = ParseGroupMethod(value);
      if (!m.ok()) return Usage(std::string(m.status().message()));
      o->group_method = *m;
    } else if (flag == "--areas") {
      const std::string v = value;
      uint64_t mask = 0;
      const bool hex = absl::StartsWithIgnoreCase(v, "0x");
      if (!(hex ? absl::SimpleHexAtoi(v.substr(2), &mask)
                : absl::SimpleAtoi(v, &mask)) ||
          mask == 0) {
        return Usage(absl::StrFormat("--areas: '%s' is not a non-zero mask",
                                     value));
      }
      o->areas = mask;
    } else if (flag == "--agent_size") {
      int v = 0;
      if (!absl::SimpleAtoi(value, &v) || v < 1 || v > kMaxAgentSize) {
        return Usage(absl::StrFormat("--agent_size: '%s' is not in [1, %d]",
                                     value, kMaxAgentSize));
      }
      o->agent_size = v;
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
  if (o->scen.empty() && o->updates == 0 && o->tiles == 0)
    return Usage("--scen is required");
  return 0;
}

// --render: query I of the scenario searched again with a trace, drawn.
int RenderQuery(const Options& o, const GridMap& map,
                const std::vector<ScenarioQuery>& scen) {
  const size_t i = o.render_query < 0
                       ? scen.size() - 1
                       : static_cast<size_t>(o.render_query);
  if (i >= scen.size()) {
    return Usage(absl::StrFormat("--render_query: %d but the scenario has %d",
                                 o.render_query, scen.size()));
  }
  PathQuery q = o.query;
  q.start = scen[i].start;
  q.goal = scen[i].goal;
  q.trace = true;
  SearchContext context;
  absl::StatusOr<PathResult> r = FindPath(map, q, context);
  if (!r.ok()) {
    std::fprintf(stderr, "gridstar-bench: --render query %zu: %s\n", i,
                 std::string(r.status().message()).c_str());
    return 2;
  }
  render::Scene scene;
  scene.map = &map;
  scene.path = r->cells;
  scene.waypoints = r->waypoints;
  scene.trace = r->trace;
  scene.start = r->start;
  scene.goal = r->goal;
  render::RenderOptions options;
  options.cell_pixels = o.cell_pixels;
  const bool svg = absl::EndsWithIgnoreCase(o.render, ".svg");
  absl::StatusOr<std::string> picture = svg
                                            ? render::RenderSvg(scene, options)
                                            : render::RenderPng(scene, options);
  if (!picture.ok()) return Usage(std::string(picture.status().message()));
  FILE* f = std::fopen(o.render.c_str(), "wb");
  if (f == nullptr ||
      std::fwrite(picture->data(), 1, picture->size(), f) != picture->size() ||
      std::fclose(f) != 0) {
    std::fprintf(stderr, "gridstar-bench: %s: cannot write\n",
                 o.render.c_str());
    return 2;
  }
  std::printf("render=%s query=%zu algorithm=%s cost=%.4f expanded=%llu "
              "traced=%zu bytes=%zu\n",
              o.render.c_str(), i, std::string(AlgorithmName(r->algorithm)).c_str(),
              r->cost, static_cast<unsigned long long>(r->expanded),
              r->trace.size(), picture->size());
  return 0;
}

}  // namespace

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
  if (o.agent_size > 0) return RunAgents(o, *scen);
  if ((o.query.algorithm == Algorithm::kJpsPlus ||
       o.query.algorithm == Algorithm::kAuto) &&
      map->uniform_cost()) {
    const absl::Time t0 = absl::Now();
    if (absl::Status s = BuildJumpTable(&*map); !s.ok()) {
      std::fprintf(stderr, "gridstar-bench: %s\n",
                   std::string(s.message()).c_str());
      return 2;
    }
    std::printf("jump_table_ms=%.1f jump_table_bytes=%zu\n",
                absl::ToDoubleMilliseconds(absl::Now() - t0),
                JumpTableBytes(*map));
  }
  if (o.query.algorithm == Algorithm::kHpa) {
    const absl::Time t0 = absl::Now();
    if (absl::Status s = BuildHpa(&*map, o.query.movement.diagonal); !s.ok()) {
      std::fprintf(stderr, "gridstar-bench: %s\n",
                   std::string(s.message()).c_str());
      return 2;
    }
    std::printf("hpa_ms=%.1f hpa_bytes=%zu hpa_bytes_per_cell=%.3f\n",
                absl::ToDoubleMilliseconds(absl::Now() - t0), HpaBytes(*map),
                static_cast<double>(HpaBytes(*map)) / map->cell_count());
  }
  if ((o.query.algorithm == Algorithm::kSubgoal || o.subgoal_graph) &&
      map->uniform_cost()) {
    const absl::Time t0 = absl::Now();
    if (absl::Status s = BuildSubgoalGraph(&*map); !s.ok()) {
      std::fprintf(stderr, "gridstar-bench: %s\n",
                   std::string(s.message()).c_str());
      return 2;
    }
    std::printf(
        "subgoal_graph_ms=%.1f subgoal_graph_bytes=%zu subgoals=%zu "
        "subgoal_edges=%zu\n",
        absl::ToDoubleMilliseconds(absl::Now() - t0), SubgoalGraphBytes(*map),
        SubgoalGraphNodes(*map), SubgoalGraphEdges(*map));
  }
  if ((o.query.algorithm == Algorithm::kContraction || o.contraction) &&
      map->uniform_cost()) {
    const absl::Time t0 = absl::Now();
    if (absl::Status s = BuildContraction(&*map); !s.ok()) {
      std::fprintf(stderr, "gridstar-bench: %s\n",
                   std::string(s.message()).c_str());
      return 2;
    }
    std::printf(
        "contraction_ms=%.1f contraction_bytes=%zu "
        "contraction_bytes_per_cell=%.2f arcs=%zu shortcuts=%zu\n",
        absl::ToDoubleMilliseconds(absl::Now() - t0), ContractionBytes(*map),
        static_cast<double>(ContractionBytes(*map)) / map->cell_count(),
        ContractionArcs(*map), ContractionShortcuts(*map));
  }
  if (o.landmarks > 0) {
    const absl::Time t0 = absl::Now();
    if (absl::Status s =
            BuildLandmarks(&*map, o.landmarks, o.query.movement.diagonal);
        !s.ok()) {
      std::fprintf(stderr, "gridstar-bench: %s\n",
                   std::string(s.message()).c_str());
      return 2;
    }
    std::printf("landmarks=%d landmarks_ms=%.1f landmark_bytes=%zu\n",
                o.landmarks, absl::ToDoubleMilliseconds(absl::Now() - t0),
                LandmarkBytes(*map));
  }
  MeasureAuto(o, &*map);
  if (o.updates > 0) return RunUpdates(o, *std::move(map));
  if (o.tiles > 0) return RunTiles(o, *map);
  if (o.flow > 0) return RunFlow(o, *map, *scen);
  if (o.progressive > 0) return RunProgressive(o, *map, *scen);
  if (o.group > 0) return RunGroup(o, *map, *scen);
  if (o.replan > 0) return RunReplan(o, *map, *scen);
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
  double expanded_sum = 0, generated_sum = 0;
  int64_t mismatches = 0;
  SearchContext reference_context;
  double ratio_sum = 0, ratio_max = 0;
  int64_t ratios = 0;
  const bool theta = o.query.algorithm == Algorithm::kTheta;
  // --algo theta --reference ALGO: ALGO + smooth on the same queries.
  std::vector<double> reference_micros;
  double theta_vs_smoothed_sum = 0, theta_vs_smoothed_max = 0;
  int64_t theta_compared = 0, theta_above = 0;
  if (!scen->empty()) {  // The warm-up (see the top of this file).
    PathQuery q = o.query;
    q.start = (*scen)[0].start;
    q.goal = (*scen)[0].goal;
    (void)FindPath(*map, q, context, &result);
  }
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
      // Theta*'s answer is its any-angle path.
      length = theta ? result.smoothed_cost : result.cost;
      micros.push_back(result.micros);
      expanded_sum += static_cast<double>(result.expanded);
      generated_sum += static_cast<double>(result.generated);
    } else if (absl::IsNotFound(s)) {
      micros.push_back(result.micros);
    } else {
      std::fprintf(stderr, "gridstar-bench: %s line %d: %s\n", o.scen.c_str(),
                   sq.line, std::string(s.message()).c_str());
    }
    if (theta && o.has_reference && s.ok()) {
      PathQuery ref = q;
      ref.algorithm = o.reference;
      ref.smooth = true;
      PathResult smoothed;
      if (FindPath(*map, ref, reference_context, &smoothed).ok() &&
          smoothed.smoothed_cost > 0) {
        reference_micros.push_back(smoothed.micros);
        const double r = length / smoothed.smoothed_cost;
        theta_vs_smoothed_sum += r;
        theta_vs_smoothed_max = std::max(theta_vs_smoothed_max, r);
        ++theta_compared;
        if (length > smoothed.smoothed_cost * (1 + 1e-9)) ++theta_above;
      }
    }
    double optimum = sq.optimal;
    if (o.has_reference && !optimal && !theta && s.ok() && optimum <= 0) {
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
    if (theta) {
      // Any-angle: found when the scenario has a path, never above the
      // optimal grid length.
      match = (sq.optimal < 0) == (length < 0) &&
              (length < 0 || sq.optimal <= 0 ||
               length <= sq.optimal + 0.01 + 1e-5 * sq.optimal);
    } else if (o.query.algorithm == Algorithm::kHpa) {
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
  // Memory, for the capacity model of docs/operations.md: the map with its derived data,
  // and the context after serving every query.
  std::printf("map_bytes=%zu map_bytes_per_cell=%.2f context_bytes=%zu "
              "context_bytes_per_cell=%.2f\n",
              map->MemoryBytes(),
              static_cast<double>(map->MemoryBytes()) / map->cell_count(),
              context.MemoryBytes(),
              static_cast<double>(context.MemoryBytes()) / map->cell_count());
  // (Before the summary line, which stays last for scripts.)
  if (ratios > 0) {
    // For theta: its any-angle cost over the optimal grid length.
    std::printf("%s_mean=%.4f %s_max=%.4f over=%lld\n",
                theta ? "theta_vs_grid" : "suboptimality",
                ratio_sum / static_cast<double>(ratios),
                theta ? "theta_vs_grid" : "suboptimality", ratio_max,
                static_cast<long long>(ratios));
  }
  if (theta_compared > 0) {
    double ref_mean = 0;
    for (double m : reference_micros) ref_mean += m;
    ref_mean /= static_cast<double>(reference_micros.size());
    std::printf(
        "theta_vs_smoothed_mean=%.4f theta_vs_smoothed_max=%.4f above=%lld "
        "over=%lld reference=%s+smooth reference_mean_us=%.3f "
        "reference_p50_us=%.3f\n",
        theta_vs_smoothed_sum / static_cast<double>(theta_compared),
        theta_vs_smoothed_max, static_cast<long long>(theta_above),
        static_cast<long long>(theta_compared),
        std::string(AlgorithmName(o.reference)).c_str(), ref_mean,
        Percentile(reference_micros, 0.5));
  }
  if (!o.render.empty() && !scen->empty()) {
    if (int s = RenderQuery(o, *map, *scen); s != 0) return s;
  }
  double mean = 0;
  for (double m : micros) mean += m;
  if (!micros.empty()) mean /= static_cast<double>(micros.size());
  const double found = static_cast<double>(micros.size());
  std::printf(
      "queries=%zu mismatches=%lld mean_us=%.3f p50_us=%.3f p99_us=%.3f "
      "expanded_mean=%.1f generated_mean=%.1f\n",
      scen->size(), static_cast<long long>(mismatches), mean,
      Percentile(micros, 0.50), Percentile(micros, 0.99),
      found > 0 ? expanded_sum / found : 0.0,
      found > 0 ? generated_sum / found : 0.0);
  return mismatches > 0 &&
                 (optimal || weight > 1.0 ||
                  o.query.algorithm == Algorithm::kHpa || theta)
             ? 1
             : 0;
}

}  // namespace gridstar::bench

int main(int argc, char** argv) { return gridstar::bench::Run(argc, argv); }
