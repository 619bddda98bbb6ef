// gridstar-bench --agent_size K [--areas MASK]: the search for an agent of
// size K (and the area filter MASK) against the size-1 search under the same
// filter, on the same queries.
//
// The map is read with its terrain as areas (Moving AI: ground 0, swamp 1,
// water 2, trees 3; default MASK ground and swamp, under which size 1 is the
// map as the plain reader reads it). Both agent maps are built once (time
// and bytes printed); then every query of the scenario whose ends are free
// for size K is searched by --algo on both, alternating, timed per call.
// Prints the mean microseconds of each, their ratio (the target:
// size K at most 1.5x size 1), mean expansions, and the mean cost ratio.
#include <cstdio>
#include <string>
#include <vector>

#include "absl/strings/str_format.h"
#include "bench_common.h"
#include "gridstar/agents.h"
#include "gridstar/engines/jps.h"
#include "gridstar/map_io.h"

namespace gridstar::bench {

int RunAgents(const Options& o, const std::vector<ScenarioQuery>& scen) {
  absl::StatusOr<std::string> text = ReadFile(o.map);
  if (!text.ok()) return Usage(std::string(text.status().message()));
  absl::StatusOr<MapWithAreas> read = ParseMapAutoWithAreas(*text);
  if (!read.ok()) return Usage(std::string(read.status().message()));
  const MapWithAreas& world = *read;
  AgentClass small;
  small.areas = o.areas != 0 ? o.areas : world.default_areas;
  AgentClass big = small;
  big.size = o.agent_size;
  if (absl::Status s = ValidateAgentClass(big); !s.ok()) {
    return Usage(std::string(s.message()));
  }
  absl::Time t0 = absl::Now();
  absl::StatusOr<GridMap> small_map = BuildAgentMap(world.map, world.areas, small);
  const double small_ms = MicrosSince(t0) / 1000;
  t0 = absl::Now();
  absl::StatusOr<GridMap> big_map = BuildAgentMap(world.map, world.areas, big);
  const double big_ms = MicrosSince(t0) / 1000;
  if (!small_map.ok() || !big_map.ok()) {
    return Usage(std::string(
        (small_map.ok() ? big_map.status() : small_map.status()).message()));
  }
  const Algorithm algorithm = o.query.algorithm;
  for (GridMap* m : {&*small_map, &*big_map}) {
    if ((algorithm == Algorithm::kJpsPlus || algorithm == Algorithm::kAuto) &&
        m->uniform_cost()) {
      if (absl::Status s = BuildJumpTable(m); !s.ok()) {
        return Usage(std::string(s.message()));
      }
    }
  }
  std::printf(
      "agents: map=%s areas=0x%llx size=%d algo=%s diagonal=%s\n"
      "agents: size 1 map %.1f ms %zu bytes (%lld cells free); size %d map "
      "%.1f ms %zu bytes (%lld cells free)\n",
      o.map.c_str(), static_cast<unsigned long long>(small.areas), big.size,
      std::string(AlgorithmName(algorithm)).c_str(),
      std::string(DiagonalPolicyName(o.query.movement.diagonal)).c_str(),
      small_ms, small_map->MemoryBytes(),
      static_cast<long long>(small_map->passable_count()), big.size, big_ms,
      big_map->MemoryBytes(), static_cast<long long>(big_map->passable_count()));
  SearchContext context;
  PathResult r1, rk;
  double us1 = 0, usk = 0, cost_ratio = 0;
  uint64_t expanded1 = 0, expandedk = 0;
  int64_t searched = 0, skipped = 0, failed = 0;
  for (size_t i = 0; i < scen.size(); ++i) {
    PathQuery q = o.query;
    q.start = scen[i].start;
    q.goal = scen[i].goal;
    if (!big_map->Connected(q.start, q.goal)) {
      ++skipped;
      continue;
    }
    PathQuery qk = q;
    qk.movement.diagonal = AgentPolicy(q.movement.diagonal, big.size);
    // Alternate which runs first, so that neither always finds warm caches.
    double t1 = 0, tk = 0;
    absl::Status s1, sk;
    for (int turn = 0; turn < 2; ++turn) {
      if ((turn == 0) == (i % 2 == 0)) {
        const absl::Time t = absl::Now();
        s1 = FindPath(*small_map, q, context, &r1);
        t1 = MicrosSince(t);
      } else {
        const absl::Time t = absl::Now();
        sk = FindPath(*big_map, qk, context, &rk);
        tk = MicrosSince(t);
      }
    }
    if (!s1.ok() || !sk.ok()) {
      ++failed;
      continue;
    }
    us1 += t1;
    usk += tk;
    expanded1 += r1.expanded;
    expandedk += rk.expanded;
    cost_ratio += r1.cost > 0 ? rk.cost / r1.cost : 1;
    ++searched;
  }
  if (searched == 0) {
    std::printf("agents: no query of the scenario is free for size %d\n",
                big.size);
    return failed == 0 ? 0 : 1;
  }
  const double n = static_cast<double>(searched);
  std::printf(
      "agents: %lld queries (%lld not free or not joined for size %d, %lld "
      "failed)\n"
      "agents: size 1 mean %.1f us (%.0f expanded); size %d mean %.1f us "
      "(%.0f expanded); time ratio size %d / size 1 = %.3f; mean cost ratio "
      "%.3f\n",
      static_cast<long long>(searched), static_cast<long long>(skipped),
      big.size, static_cast<long long>(failed), us1 / n, expanded1 / n,
      big.size, usk / n, expandedk / n, big.size, usk / us1, cost_ratio / n);
  return failed == 0 ? 0 : 1;
}

}  // namespace gridstar::bench
