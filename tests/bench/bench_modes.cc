// gridstar-bench's modes besides the query run: --make_terrain, --updates,
// --flow and --group.

#include <algorithm>
#include <cstdio>
#include <random>
#include <string>
#include <vector>

#include "absl/strings/str_format.h"
#include "absl/time/clock.h"
#include "bench_common.h"
#include "gridstar/auto_choice.h"
#include "gridstar/derived_data.h"
#include "gridstar/engines/hpa.h"
#include "gridstar/engines/jps.h"
#include "gridstar/find_path.h"
#include "gridstar/flow_field.h"
#include "gridstar/group_paths.h"
#include "gridstar/map_io.h"
#include "gridstar/map_update.h"
#include "gridstar/render.h"
#include "gridstar/scenario.h"

namespace gridstar::bench {
namespace {

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

}  // namespace

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



// --updates N: updates of random squares, each version made from the one before as the
// server makes it (the version before stays alive until the next exists).
int RunUpdates(const Options& o, GridMap map) {
  DerivedOptions derived;
  if (HasJumpTable(map)) derived.Ask(kJumpTableName);
  if (HasHpa(map)) derived.Ask(kHpaName, {0, HpaPolicy(map)});
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
  if (derived.Asks(kJumpTableName) && fresh.uniform_cost()) {
    if (!BuildJumpTable(&fresh).ok()) return 1;
  }
  if (derived.Asks(kHpaName) &&
      !BuildHpa(&fresh, derived.Find(kHpaName)->policy).ok()) {
    return 1;
  }
  bool same = fresh.component_count() == map.component_count() &&
              HpaEquals(map, fresh) &&
              HasJumpTable(fresh) == HasJumpTable(map) &&
              (!HasJumpTable(map) || JumpTableEquals(map, fresh));
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
      "repaired_equals_fresh=%d updates=%d side=%d table=%d hpa=%d "
      "apply_p50_ms=%.3f apply_p99_ms=%.3f "
      "repair_p50_ms=%.3f repair_p99_ms=%.3f total_p50_ms=%.3f "
      "total_p99_ms=%.3f copied_kib_mean=%.1f\n",
      same ? 1 : 0, o.updates, k, derived.Asks(kJumpTableName) ? 1 : 0,
      derived.Asks(kHpaName) ? 1 : 0, Percentile(apply_ms, 0.5),
      Percentile(apply_ms, 0.99), Percentile(repair_ms, 0.5),
      Percentile(repair_ms, 0.99), Percentile(total_ms, 0.5),
      Percentile(total_ms, 0.99), copied / o.updates / 1024);
  return same ? 0 : 1;
}

// --flow N: for the N longest queries, the time to build the goal's flow
// field against one search from the start with --algo (both in this run).
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

// --progressive N: every query answered the way a watch with
// progressive_expansions N answers it (server/watch/watch_hub.cc: a search
// capped at N expansions, a partial answer when it does not finish, then the
// whole search from the start again) and by the whole search alone, the two
// in turn (which goes first alternating by query; a query without a path
// left out and counted). Prints the means, their
// ratio, the first answer's mean, and the share of the whole searches' time
// the capped searches that had to be repeated took (what resuming them
// instead of starting again could save at most).
int RunProgressive(const Options& o, const GridMap& map,
                   const std::vector<ScenarioQuery>& scen) {
  SearchContext context;
  PathResult result;
  double whole_us = 0, progressive_us = 0, first_us = 0, repeated_us = 0;
  size_t partial = 0, unreachable = 0;
  for (size_t i = 0; i < scen.size(); ++i) {
    PathQuery q = o.query;
    q.start = scen[i].start;
    q.goal = scen[i].goal;
    PathQuery capped = q;
    uint64_t& cap = capped.budget.max_expansions;
    cap = cap == 0 ? static_cast<uint64_t>(o.progressive)
                   : std::min<uint64_t>(cap, o.progressive);
    // A query with no path (the scenario's ends apart) is left out.
    if (absl::Status st = FindPath(map, q, context, &result);
        absl::IsNotFound(st)) {
      ++unreachable;
      continue;
    }
    auto failed = [&](const absl::Status& st) {
      std::fprintf(stderr, "gridstar-bench: line %d: %s\n", scen[i].line,
                   std::string(st.message()).c_str());
      return 1;
    };
    for (int turn = 0; turn < 2; ++turn) {
      if ((turn == 0) == (i % 2 == 0)) {
        const absl::Time t0 = absl::Now();
        if (absl::Status st = FindPath(map, q, context, &result); !st.ok()) {
          return failed(st);
        }
        whole_us += MicrosSince(t0);
        if (!LengthMatches(result.cost, scen[i].optimal) &&
            IsOptimal(q.algorithm)) {
          std::fprintf(stderr, "gridstar-bench: mismatch at line %d\n",
                       scen[i].line);
          return 1;
        }
        continue;
      }
      const absl::Time t0 = absl::Now();
      if (absl::Status st = FindPath(map, capped, context, &result); !st.ok()) {
        return failed(st);
      }
      const double first = MicrosSince(t0);
      first_us += first;
      if (result.partial) {
        ++partial;
        repeated_us += first;
        if (absl::Status st = FindPath(map, q, context, &result); !st.ok()) {
          return failed(st);
        }
      }
      progressive_us += MicrosSince(t0);
    }
  }
  const double n = static_cast<double>(scen.size() - unreachable);
  std::printf(
      "progressive=%d algo=%s queries=%zu unreachable=%zu partial_first=%zu "
      "whole_mean_us=%.2f progressive_mean_us=%.2f "
      "progressive_over_whole=%.3f first_answer_mean_us=%.2f "
      "repeated_share=%.3f\n",
      o.progressive, std::string(AlgorithmName(o.query.algorithm)).c_str(),
      scen.size(), unreachable, partial, whole_us / n, progressive_us / n,
      progressive_us / whole_us, first_us / n, repeated_us / whole_us);
  return 0;
}

// --auto_measure Q with --algo auto: MeasureAutoChoice on Q queries, its
// figures printed and the choice attached, as the server does at
// registration.
void MeasureAuto(const Options& o, GridMap* map) {
  if (o.query.algorithm != Algorithm::kAuto || o.auto_measure == 0) return;
  AutoMeasureOptions m;
  m.policy = o.query.movement.diagonal;
  m.queries = o.auto_measure;
  auto choice = std::make_shared<const AutoChoice>(MeasureAutoChoice(*map, m));
  std::string candidates;
  for (const AutoCandidate& c : choice->candidates) {
    absl::StrAppendFormat(&candidates, "%s%s:%.1f%s", candidates.empty() ? "" : ",",
                          std::string(AlgorithmName(c.algorithm)), c.mean_us,
                          c.dropped ? "(dropped)" : "");
  }
  std::printf("auto_choice=%s auto_measure_ms=%.1f auto_queries=%d "
              "flow_us_per_cell=%.4f splice_us_per_cell=%.4f "
              "follow_us_per_unit=%.2f candidates_us=%s\n",
              std::string(AlgorithmName(choice->algorithm)).c_str(),
              choice->micros / 1000, choice->queries, choice->flow_us_per_cell,
              choice->splice_us_per_cell, choice->follow_us_per_unit,
              candidates.c_str());
  SetAutoChoice(map, std::move(choice));
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
    g.method = o.group_method;
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
      "search_algo=%s method=%s group_over_twenty=%.2f\n",
      picked.size(), o.group, used_field ? 1 : 0, group_us / n, cached_us / n,
      twenty_us / n, std::string(AlgorithmName(o.query.algorithm)).c_str(),
      std::string(GroupMethodName(o.group_method)).c_str(),
      group_us / twenty_us);
  return 0;
}

int RunTiles(const Options& o, const GridMap& map) {
  constexpr int kPixels = 256;
  std::mt19937 rng(o.seed);
  const int64_t side = std::max(map.width(), map.height());
  // Zoom levels as a console's: from 16 cells a tile to the whole map.
  std::vector<int64_t> spans;
  for (int64_t span = 16; span < side * 2; span *= 2) spans.push_back(span);
  const std::vector<uint8_t> no_areas;
  std::vector<double> ms, blank_ms;
  size_t bytes = 0;
  const GridMap blank = *GridMap::FromCosts(1, 1, std::vector<uint8_t>{1});
  for (int i = 0; i < o.tiles; ++i) {
    const int64_t span = spans[rng() % spans.size()];
    const int64_t x0 =
        static_cast<int64_t>(rng() % static_cast<uint64_t>(std::max<int64_t>(
                                         1, map.width() - span / 2)));
    const int64_t y0 =
        static_cast<int64_t>(rng() % static_cast<uint64_t>(std::max<int64_t>(
                                         1, map.height() - span / 2)));
    absl::Time t0 = absl::Now();
    absl::StatusOr<std::string> tile =
        render::RenderTilePng(map, no_areas, x0, y0, span, kPixels);
    ms.push_back(absl::ToDoubleMilliseconds(absl::Now() - t0));
    if (!tile.ok()) {
      std::fprintf(stderr, "gridstar-bench: %s\n",
                   std::string(tile.status().message()).c_str());
      return 1;
    }
    bytes += tile->size();
    // The yardstick: a tile of one cell everywhere (the drawing loop and
    // the PNG encoding with nothing to read).
    t0 = absl::Now();
    absl::StatusOr<std::string> flat =
        render::RenderTilePng(blank, no_areas, 0, 0, 1, kPixels);
    blank_ms.push_back(absl::ToDoubleMilliseconds(absl::Now() - t0));
    if (!flat.ok()) return 1;
  }
  const double p50 = Percentile(ms, 0.5), p99 = Percentile(ms, 0.99);
  std::printf(
      "tiles=%d map=%dx%d tile_pixels=%d zoom_levels=%zu p50_ms=%.2f "
      "p99_ms=%.2f max_ms=%.2f mean_bytes=%zu blank_p50_ms=%.2f "
      "blank_p99_ms=%.2f p99_over_blank_p99=%.2f\n",
      o.tiles, map.width(), map.height(), kPixels, spans.size(), p50, p99,
      *std::max_element(ms.begin(), ms.end()), bytes / ms.size(),
      Percentile(blank_ms, 0.5), Percentile(blank_ms, 0.99),
      p99 / std::max(1e-9, Percentile(blank_ms, 0.99)));
  return 0;
}

}  // namespace gridstar::bench
