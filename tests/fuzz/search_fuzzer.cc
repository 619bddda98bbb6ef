// Fuzzes FindPath. The input makes a small map and a query (ends may be off
// the map or blocked; budgets, snapping and smoothing are input too); every
// algorithm runs under every diagonal policy. Each answer is either an error
// status of the documented kinds or a path whose every move is legal, whose
// ends are right, whose cost is the recomputed sum and is no more than a plain
// Dijkstra's (optimal algorithms: the same; weighted: within its weight).
// Jump tables and landmarks are built on some maps, and some inputs also
// check the goal's flow field against the reference. The rest of the input
// makes areas and an agent class: the agent map is checked cell by cell
// against the footprint rule, and its repair after one change against a
// fresh build.

#include <algorithm>
#include <cmath>
#include <cstddef>
#include <cstdint>
#include <vector>

#include "fuzz_util.h"
#include "gridstar/agents.h"
#include "gridstar/engines/alt.h"
#include "gridstar/engines/hpa.h"
#include "gridstar/engines/jps.h"
#include "gridstar/find_path.h"
#include "gridstar/flow_field.h"
#include "gridstar/map_update.h"
#include "testing/footprint.h"
#include "testing/reference.h"

namespace {

using Input = gridstar::fuzz::Bytes;

// An agent class and areas from the rest of the input: the agent map
// against FootprintCosts, then one change of cost and area repaired
// against a fresh build.
void CheckAgentMaps(const gridstar::GridMap& map, Input& in) {
  using namespace gridstar;
  std::vector<uint8_t> areas(static_cast<size_t>(map.cell_count()));
  for (uint8_t& a : areas) a = in.Next() % 4;
  AgentClass agent;
  agent.areas = 1 + in.Next() % 15;
  agent.size = 1 + in.Next() % kMaxAgentSize;
  for (int a = 0; a < 4; ++a) agent.area_costs[a] = 1 + (in.Next() % 8) / 2.0;
  const testing::Footprint footprint{map, areas, agent};
  const bool fits = footprint.Fits();
  absl::StatusOr<GridMap> seen = BuildAgentMap(map, areas, agent);
  FUZZ_CHECK(seen.ok() == fits);
  if (!fits) {
    FUZZ_CHECK(absl::IsInvalidArgument(seen.status()));
    return;
  }
  FUZZ_CHECK(seen->CopyCosts() == footprint.Costs());
  const int32_t w = map.width(), h = map.height();
  const Cell min{static_cast<int32_t>(in.Next() % w),
                 static_cast<int32_t>(in.Next() % h)};
  const Cell max{std::min(w, min.x + 1 + in.Next() % 3),
                 std::min(h, min.y + 1 + in.Next() % 3)};
  ChangeSummary summary;
  absl::StatusOr<GridMap> next =
      ApplyChanges(map, {CellChange{min, max, in.Next()}}, &summary);
  FUZZ_CHECK(next.ok());
  ApplyAreaChanges(w,
                   {AreaChange{min, max, static_cast<uint8_t>(in.Next() % 4)}},
                   absl::MakeSpan(areas));
  const CellRect changed[] = {{min, max}};
  absl::StatusOr<GridMap> repaired =
      RepairAgentMap(*seen, *next, areas, agent, changed);
  absl::StatusOr<GridMap> fresh = BuildAgentMap(*next, areas, agent);
  FUZZ_CHECK(repaired.ok() == fresh.ok());
  if (fresh.ok()) {
    FUZZ_CHECK(repaired->CopyCosts() == fresh->CopyCosts());
    FUZZ_CHECK(testing::SamePartition(*repaired, *fresh));
  }
}

}  // namespace

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
  using namespace gridstar;
  Input in(data, size);
  const int w = 1 + in.Next() % 24, h = 1 + in.Next() % 24;
  const uint8_t flags = in.Next();
  const int max_cost = (flags & 3) == 0 ? 1 : (flags & 3) == 1 ? 9 : 255;
  std::vector<uint8_t> costs(static_cast<size_t>(w) * h);
  for (uint8_t& c : costs) {
    const uint8_t b = in.Next();
    c = b < 80 ? 0 : static_cast<uint8_t>(1 + b % max_cost);
  }
  absl::StatusOr<GridMap> map = GridMap::FromCosts(w, h, costs);
  FUZZ_CHECK(map.ok());
  // Derived data of jps+ and alt, now and then.
  if ((flags & 32) && map->uniform_cost())
    FUZZ_CHECK(BuildJumpTable(&*map).ok());
  const uint8_t landmarks = in.Next();
  if ((flags & 64) && map->passable_count() > 0) {
    FUZZ_CHECK(BuildLandmarks(&*map, 1 + landmarks % 4,
                              kAllDiagonalPolicies[(landmarks / 4) % 3])
                   .ok());
  }
  // And the HPA* abstraction for one policy, now and then.
  if (landmarks & 128) {
    FUZZ_CHECK(
        BuildHpa(&*map, kAllDiagonalPolicies[(landmarks / 16) % 3]).ok());
  }
  // Ends in [-4, w+3] x [-4, h+3]: off the map now and then.
  auto coord = [&](int n) {
    return static_cast<int32_t>(in.Next() % (n + 8)) - 4;
  };
  PathQuery q;
  q.start = {coord(w), coord(h)};
  q.goal = {coord(w), coord(h)};
  q.snap_radius = (flags & 4) ? in.Next() % 6 : 0;
  q.budget.max_expansions = (flags & 8) ? in.Next() % 40 : 0;
  q.smooth = (flags & 16) != 0;
  q.weight = 1.0 + (in.Next() % 40) / 8.0;

  SearchContext context;
  PathResult r;
  for (DiagonalPolicy policy : kAllDiagonalPolicies) {
    q.movement.diagonal = policy;
    // The goal's flow field: exact wherever it reaches, including the start.
    if (flags & 128) {
      FlowFieldQuery fq;
      fq.goal = q.goal;
      fq.movement.diagonal = policy;
      absl::StatusOr<FlowField> f = ComputeFlowField(*map, fq, context);
      FUZZ_CHECK(f.ok() == map->Passable(q.goal));
      if (f.ok() && map->Passable(q.start)) {
        const std::vector<double> dist =
            testing::ReferenceDistances(*map, q.goal, policy);
        const double want = testing::Distance(dist, *map, q.start);
        std::vector<Cell> cells;
        double cost = 0;
        const absl::Status s = f->PathFrom(q.start, &cells, &cost);
        FUZZ_CHECK(s.ok() == (want != testing::kUnreachable));
        if (s.ok()) {
          FUZZ_CHECK(std::fabs(cost - want) <= 1e-9 * (1 + want));
          FUZZ_CHECK(std::fabs(PathCost(*map, cells, policy) - cost) <=
                     1e-9 * (1 + cost));
        }
      }
    }
    for (Algorithm a : kAllAlgorithms) {
      q.algorithm = a;
      const absl::Status s = FindPath(*map, q, context, &r);
      if (!s.ok()) {
        FUZZ_CHECK(absl::IsInvalidArgument(s) || absl::IsNotFound(s));
        if (absl::IsNotFound(s)) {
          FUZZ_CHECK(map->Passable(r.start) && map->Passable(r.goal));
          FUZZ_CHECK(!map->Connected(r.start, r.goal));
        } else {
          FUZZ_CHECK(!map->Passable(q.start) || !map->Passable(q.goal));
        }
        continue;
      }
      FUZZ_CHECK(map->Passable(r.start) && map->Passable(r.goal));
      FUZZ_CHECK(r.start_snapped || r.start == q.start);
      FUZZ_CHECK(r.goal_snapped || r.goal == q.goal);
      const bool full = !r.partial;
      FUZZ_CHECK(
          testing::CheckPath(*map, r, r.start, r.goal, policy, full).empty());
      if (q.budget.max_expansions != 0) FUZZ_CHECK(r.expanded <= q.budget.max_expansions);
      const std::vector<double> dist =
          testing::ReferenceDistances(*map, r.start, policy);
      const double best = testing::Distance(dist, *map, r.cells.back());
      const double tol = 1e-9 * (1 + best);
      FUZZ_CHECK(r.cost >= best - tol);
      if (full) {
        if (IsOptimal(a)) FUZZ_CHECK(std::fabs(r.cost - best) <= tol);
        if (a == Algorithm::kWeighted)
          FUZZ_CHECK(r.cost <= q.weight * best + tol);
      }
      if (q.smooth) {
        FUZZ_CHECK(!r.waypoints.empty());
        FUZZ_CHECK(r.waypoints.front() == r.cells.front());
        FUZZ_CHECK(r.waypoints.back() == r.cells.back());
        FUZZ_CHECK(r.smoothed_cost <= r.cost + 1e-9 * (1 + r.cost));
      }
    }
  }
  CheckAgentMaps(*map, in);
  return 0;
}
