// world-bench: a world of linked maps built at run time from the shared
// Moving AI maps, and world queries across it (core, in-process).
//
//   world-bench --movingai DIR [--maps 16] [--links 12] [--queries 200]
//               [--reference 20] [--algo jps+] [--seed 1]
//
// The world: the first --maps maps of DIR (recursively, by path) at least
// 400 cells on both sides, repeated in order when there are fewer (floors
// of one building); --links link ends per map in its largest component:
// stairs and portals both ways to a random other map (cost 1-10), and among
// them one-way drops, teleporters within the map and closed doors, one in
// sixteen each. Every map gets its end table (LinkEndTable), and the world
// its index with all pairs (WorldIndex), as the server keeps them; the
// structures of --algo are built (jps+: the jump table; auto: every exact
// engine's, measured).
//
// Printed, one line each: the world; the tables' build time and bytes (per
// link); then over --queries queries between random cells of random maps:
// the world query's mean time, the same engine's time for the legs the
// answer returns searched alone, their ratio, the searches per query; and
// over the first --reference of them, Dijkstra over the union graph, its
// mean time, the ratio, and mismatches (the world's cost against it).
// Exit 1 on a mismatch.

#include <algorithm>
#include <chrono>
#include <cmath>
#include <cstdio>
#include <filesystem>
#include <memory>
#include <random>
#include <string>
#include <vector>

#include "absl/strings/numbers.h"
#include "gridstar/derived_data.h"
#include "gridstar/find_path.h"
#include "gridstar/map_io.h"
#include "gridstar/world.h"

namespace gridstar::bench {
namespace {

struct Options {
  std::string movingai;
  int maps = 16;
  int links = 12;
  int queries = 200;
  int reference = 20;
  Algorithm algorithm = Algorithm::kJpsPlus;
  uint32_t seed = 1;
};

double Now() {
  return std::chrono::duration<double, std::micro>(
             std::chrono::steady_clock::now().time_since_epoch())
      .count();
}

Cell RandomCellOf(const GridMap& map, uint32_t component, std::mt19937& rng) {
  for (;;) {
    const Cell c{static_cast<int32_t>(rng() % map.width()),
                 static_cast<int32_t>(rng() % map.height())};
    if (map.Passable(c) && (component == 0 || map.component(c) == component)) {
      return c;
    }
  }
}

uint32_t LargestComponent(const GridMap& map) {
  const std::vector<int64_t> sizes = map.ComponentSizes();
  return static_cast<uint32_t>(
      std::max_element(sizes.begin() + 1, sizes.end()) - sizes.begin());
}

int Run(const Options& o) {
  std::vector<std::string> paths;
  for (const auto& entry :
       std::filesystem::recursive_directory_iterator(o.movingai)) {
    if (entry.path().extension() == ".map") paths.push_back(entry.path());
  }
  std::sort(paths.begin(), paths.end());
  std::vector<std::string> names;
  std::vector<GridMap> maps;
  for (const std::string& path : paths) {
    absl::StatusOr<GridMap> map = ReadMapFile(path);
    if (!map.ok() || map->width() < 400 || map->height() < 400) continue;
    names.push_back(std::filesystem::path(path).stem());
    maps.push_back(*std::move(map));
  }
  if (maps.empty()) {
    std::fprintf(stderr, "world-bench: no map of 400 x 400 or more in %s\n",
                 o.movingai.c_str());
    return 2;
  }
  for (size_t i = 0; maps.size() < static_cast<size_t>(o.maps); ++i) {
    maps.push_back(maps[i]);
    names.push_back(names[i]);
  }
  maps.erase(maps.begin() + o.maps, maps.end());
  names.erase(names.begin() + o.maps, names.end());
  DerivedOptions derived;
  if (o.algorithm == Algorithm::kJpsPlus) derived.Ask("jump_table");
  if (o.algorithm == Algorithm::kAuto) {
    for (const std::string& name : KnownStructureNames()) {
      if (name != "hpa") derived.Ask(name);
    }
  }
  int64_t cells = 0;
  for (GridMap& map : maps) {
    std::vector<DerivedReport> reports;
    if (absl::Status s = BuildDerived(derived, &map, &reports); !s.ok()) {
      std::fprintf(stderr, "world-bench: %s\n", s.ToString().c_str());
      return 2;
    }
    cells += map.cell_count();
  }

  std::mt19937 rng(o.seed);
  std::vector<WorldLink> links;
  std::vector<uint32_t> largest;
  for (const GridMap& map : maps) largest.push_back(LargestComponent(map));
  int drops = 0, teleporters = 0, doors = 0;
  for (int m = 0; m < o.maps; ++m) {
    for (int k = 0; k < o.links / 2; ++k) {
      WorldLink link;
      link.from = WorldCell{m, RandomCellOf(maps[m], largest[m], rng)};
      const int kind = static_cast<int>(rng() % 16);
      int to = static_cast<int>(rng() % (o.maps - 1));
      if (to >= m) ++to;
      if (kind == 1) to = m, ++teleporters;
      link.to = WorldCell{to, RandomCellOf(maps[to], largest[to], rng)};
      link.cost = 1 + static_cast<double>(rng() % 10);
      if (kind == 0) link.both_ways = false, ++drops;
      if (kind == 2) link.open = false, ++doors;
      links.push_back(link);
    }
  }
  std::vector<const GridMap*> grid_pointers;
  for (const GridMap& map : maps) grid_pointers.push_back(&map);
  if (absl::Status s = ValidateWorldLinks(grid_pointers, links); !s.ok()) {
    std::fprintf(stderr, "world-bench: %s\n", s.ToString().c_str());
    return 2;
  }
  std::printf(
      "world: %d maps (%lld cells), %zu links (%d one-way drops, %d "
      "teleporters, %d closed doors), algo %s\n",
      o.maps, static_cast<long long>(cells), links.size(), drops, teleporters,
      doors, std::string(AlgorithmName(o.algorithm)).c_str());

  const DiagonalPolicy policy = DiagonalPolicy::kNoCornerCutting;
  std::vector<std::shared_ptr<const LinkEndTable>> tables;
  std::vector<WorldMapView> views;
  size_t table_bytes = 0;
  const double built = Now();
  for (int m = 0; m < o.maps; ++m) {
    std::vector<Cell> ends;
    for (const WorldLink& link : links) {
      if (link.from.map == m) ends.push_back(link.from.cell);
      if (link.to.map == m) ends.push_back(link.to.cell);
    }
    tables.push_back(LinkEndTable::Build(maps[m], policy, ends));
    table_bytes += tables.back()->MemoryBytes();
    views.push_back(WorldMapView{&maps[m], tables.back().get()});
  }
  std::printf(
      "end tables: built in %.1f ms (%.2f ms a map), %zu bytes (%.0f bytes a "
      "link)\n",
      (Now() - built) / 1000, (Now() - built) / 1000 / o.maps, table_bytes,
      static_cast<double>(table_bytes) / links.size());

  // The index of the world for the default agent, with all pairs, as the
  // server keeps it per world and map versions.
  const double indexed = Now();
  absl::StatusOr<std::shared_ptr<const WorldIndex>> index =
      WorldIndex::Build(views, links, AgentClass(), policy, true);
  if (!index.ok()) {
    std::fprintf(stderr, "world-bench: %s\n",
                 index.status().ToString().c_str());
    return 2;
  }
  std::printf("index: built in %.1f ms, %zu bytes, %d ends, all pairs %s\n",
              (Now() - indexed) / 1000, (*index)->MemoryBytes(),
              (*index)->ends(), (*index)->all_pairs() ? "yes" : "no");

  SearchContext context;
  double world_us = 0, legs_us = 0, dijkstra_us = 0, world_ref_us = 0;
  uint64_t searches = 0, legs = 0, world_expanded = 0, legs_expanded = 0;
  int answered = 0, no_path = 0, mismatches = 0, compared = 0;
  for (int i = 0; i < o.queries; ++i) {
    WorldQuery q;
    q.leg.algorithm = o.algorithm;
    q.leg.movement.diagonal = policy;
    q.start.map = static_cast<int32_t>(rng() % o.maps);
    q.goal.map = static_cast<int32_t>(rng() % o.maps);
    q.start.cell = RandomCellOf(maps[q.start.map], 0, rng);
    q.goal.cell = RandomCellOf(maps[q.goal.map], 0, rng);
    // The world query and the same engine on the legs of its answer alone,
    // which goes first alternating, so that neither always finds the
    // other's cells in the cache.
    WorldResult r;
    absl::Status s;
    double took = 0, legs_took = 0;
    auto world = [&] {
      const double t = Now();
      s = FindWorldPath(**index, q, context, &r);
      took = Now() - t;
    };
    auto legs_alone = [&] {
      const double t = Now();
      for (const WorldLeg& leg : r.legs) {
        PathQuery lq = q.leg;
        lq.start = leg.path.cells.front();
        lq.goal = leg.path.cells.back();
        PathResult pr;
        (void)FindPath(maps[leg.map], lq, context, &pr);
        legs_expanded += pr.expanded;
      }
      legs_took = Now() - t;
    };
    // Other cells in the cache than the query's: run before each timed
    // part, so that neither finds the other's cells there.
    auto elsewhere = [&] {
      WorldQuery other = q;
      other.start.map = other.goal.map = (q.start.map + 1) % o.maps;
      other.start.cell = RandomCellOf(maps[other.start.map], 0, rng);
      other.goal.cell = RandomCellOf(maps[other.goal.map], 0, rng);
      WorldResult ignored;
      (void)FindWorldPath(**index, other, context, &ignored);
    };
    if (i % 2 == 0) {
      elsewhere();
      world();
      elsewhere();
      legs_alone();
    } else {
      // The legs are known from a first, untimed world query.
      s = FindWorldPath(**index, q, context, &r);
      elsewhere();
      legs_alone();
      elsewhere();
      world();
    }
    if (absl::IsNotFound(s)) {
      ++no_path;
    } else if (!s.ok()) {
      std::fprintf(stderr, "world-bench: query %d: %s\n", i,
                   s.ToString().c_str());
      return 2;
    } else {
      ++answered;
      world_us += took;
      legs_us += legs_took;
      searches += r.searches;
      world_expanded += r.expanded;
      legs += r.legs.size();
    }
    if (i < o.reference) {
      const double t = Now();
      const double expected = WorldDijkstraCost(views, links, q);
      dijkstra_us += Now() - t;
      world_ref_us += took;
      ++compared;
      const bool both_none = !s.ok() && std::isinf(expected);
      if (!both_none &&
          (!s.ok() || std::fabs(r.cost - expected) > 1e-6 * (1 + expected))) {
        ++mismatches;
        std::fprintf(stderr, "mismatch: query %d world %.6f dijkstra %.6f\n", i,
                     s.ok() ? r.cost : -1.0, expected);
      }
    }
  }
  std::printf(
      "queries=%d answered=%d no_path=%d world_mean_us=%.1f "
      "legs_alone_mean_us=%.1f ratio=%.2f searches_per_query=%.2f "
      "legs_per_query=%.2f expanded_world=%.0f expanded_legs_alone=%.0f\n",
      o.queries, answered, no_path, world_us / std::max(1, answered),
      legs_us / std::max(1, answered), world_us / std::max(1.0, legs_us),
      static_cast<double>(searches) / std::max(1, answered),
      static_cast<double>(legs) / std::max(1, answered),
      static_cast<double>(world_expanded) / std::max(1, answered),
      static_cast<double>(legs_expanded) / std::max(1, answered));
  std::printf(
      "reference=%d dijkstra_mean_us=%.0f world_mean_us=%.1f "
      "dijkstra_over_world=%.0f mismatches=%d\n",
      compared, dijkstra_us / std::max(1, compared),
      world_ref_us / std::max(1, compared),
      dijkstra_us / std::max(1.0, world_ref_us), mismatches);
  return mismatches == 0 ? 0 : 1;
}

}  // namespace
}  // namespace gridstar::bench

int main(int argc, char** argv) {
  gridstar::bench::Options o;
  for (int i = 1; i < argc; ++i) {
    const std::string flag = argv[i];
    if (i + 1 >= argc) {
      std::fprintf(stderr, "world-bench: %s needs a value\n", flag.c_str());
      return 2;
    }
    const std::string value = argv[++i];
    int n = 0;
    bool ok = true;
    if (flag == "--movingai") {
      o.movingai = value;
    } else if (flag == "--algo") {
      absl::StatusOr<gridstar::Algorithm> a = gridstar::ParseAlgorithm(value);
      ok = a.ok();
      if (ok) o.algorithm = *a;
    } else if (absl::SimpleAtoi(value, &n) && n >= 0) {
      if (flag == "--maps" && n >= 2)
        o.maps = n;
      else if (flag == "--links" && n >= 2)
        o.links = n;
      else if (flag == "--queries")
        o.queries = n;
      else if (flag == "--reference")
        o.reference = n;
      else if (flag == "--seed")
        o.seed = static_cast<uint32_t>(n);
      else
        ok = false;
    } else {
      ok = false;
    }
    if (!ok) {
      std::fprintf(stderr, "world-bench: bad %s %s\n", flag.c_str(),
                   value.c_str());
      return 2;
    }
  }
  if (o.movingai.empty()) {
    std::fprintf(stderr,
                 "usage: world-bench --movingai DIR [--maps 16] [--links 12] "
                 "[--queries 200] [--reference 20] [--algo jps+] [--seed 1]\n");
    return 2;
  }
  return gridstar::bench::Run(o);
}
