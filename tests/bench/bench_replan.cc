// gridstar-bench --replan N: D* Lite's repair against a fresh search of
// --algo, for a unit walking a long path while walls appear on it.
//
// For each of the N longest queries and each place a change lands (10%,
// 50% or 90% of the way from the unit to its goal): a D* Lite planner plans
// the path; then 6 times the unit walks a tenth of its remaining path, one
// cell on the remaining path at that place is blocked (with --replan_cells K,
// also K - 1 passable cells within 3 cells of it), and both D* Lite (its
// repair) and a fresh FindPath on the changed map find the new path. Prints
// per place: mean microseconds of each and their ratio, mean expansions,
// D* Lite's mean memory per planner, and mismatches of cost (must be 0).
#include <cstdio>
#include <random>
#include <vector>

#include "absl/strings/str_format.h"
#include "bench_common.h"
#include "gridstar/incremental.h"
#include "gridstar/map_update.h"

namespace gridstar::bench {

int RunReplan(const Options& o, const GridMap& base,
              const std::vector<ScenarioQuery>& scen) {
  const std::vector<size_t> longest = Longest(scen, o.replan);
  SearchContext context;
  std::mt19937 rng(o.seed);
  const double places[] = {0.1, 0.5, 0.9};
  std::printf("replan: %zu queries x 6 changes of %d cell(s), fresh = %s\n",
              longest.size(), o.replan_cells,
              std::string(AlgorithmName(o.query.algorithm)).c_str());
  for (double place : places) {
    double dstar_us = 0, fresh_us = 0, first_us = 0;
    uint64_t dstar_expanded = 0, fresh_expanded = 0;
    size_t bytes = 0, planners = 0, replans = 0, mismatches = 0, failures = 0;
    for (size_t qi : longest) {
      GridMap map = base;
      const ScenarioQuery& sq = scen[qi];
      DStarLite planner(sq.start, sq.goal, {o.query.movement.diagonal, 0});
      PathResult path;
      absl::Time t0 = absl::Now();
      if (!planner.Plan(map, {}, &path).ok()) continue;
      first_us += MicrosSince(t0);
      ++planners;
      for (int round = 0; round < 6; ++round) {
        if (path.cells.size() < 12) break;
        planner.MoveStart(path.cells[path.cells.size() / 10]);
        const size_t from = path.cells.size() / 10;
        const size_t at =
            from + static_cast<size_t>(place * (path.cells.size() - 1 - from));
        const Cell wall = path.cells[std::min(at, path.cells.size() - 2)];
        std::vector<CellChange> changes = {{wall, {wall.x + 1, wall.y + 1}, 0}};
        for (int k = 1; k < o.replan_cells; ++k) {
          const Cell c{wall.x + static_cast<int32_t>(rng() % 7) - 3,
                       wall.y + static_cast<int32_t>(rng() % 7) - 3};
          if (!map.Passable(c) || c == planner.start() || c == sq.goal) continue;
          changes.push_back({c, {c.x + 1, c.y + 1}, 0});
        }
        ChangeSummary summary;
        absl::StatusOr<GridMap> next = ApplyChanges(map, changes, &summary);
        if (!next.ok()) break;
        map = *std::move(next);
        PathQuery q = o.query;
        q.start = planner.start();
        q.goal = sq.goal;
        PathResult fresh;
        t0 = absl::Now();
        absl::Status fs = FindPath(map, q, context, &fresh);
        fresh_us += MicrosSince(t0);
        PathResult repaired;
        t0 = absl::Now();
        absl::Status ds = planner.Plan(map, changes, &repaired);
        dstar_us += MicrosSince(t0);
        ++replans;
        if (fs.ok() != ds.ok()) {
          ++mismatches;
          break;
        }
        if (!fs.ok()) {
          ++failures;  // The wall cut the goal off: both agree.
          break;
        }
        if (std::abs(fresh.cost - repaired.cost) > 1e-6 * fresh.cost) {
          ++mismatches;
        }
        fresh_expanded += fresh.expanded;
        dstar_expanded += repaired.expanded;
        path = std::move(repaired);
      }
      bytes += planner.memory_bytes();
    }
    const double n = std::max<size_t>(1, replans);
    std::printf(
        "replan: place=%.0f%% replans=%zu dstar_us=%.1f fresh_us=%.1f "
        "dstar/fresh=%.2f dstar_expanded=%.0f fresh_expanded=%.0f "
        "first_plan_us=%.1f dstar_bytes_per_agent=%.0f cut_off=%zu "
        "mismatches=%zu\n",
        place * 100, replans, dstar_us / n, fresh_us / n,
        fresh_us > 0 ? dstar_us / fresh_us : 0, dstar_expanded / n,
        fresh_expanded / n, first_us / std::max<size_t>(1, planners),
        double(bytes) / std::max<size_t>(1, planners), failures, mismatches);
  }
  return 0;
}

}  // namespace gridstar::bench
