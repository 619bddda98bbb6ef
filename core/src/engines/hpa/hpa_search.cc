// HPA*'s query: the start and goal joined to their clusters' entrances by
// cluster-local Dijkstra, weighted A* over the entrances (octile and
// landmark bounds), and the abstract path refined into cells: along the
// turns the build stored, else a straight path, else a cluster-local A*.

#include <algorithm>
#include <atomic>
#include <cassert>
#include <cmath>
#include <functional>
#include <limits>
#include <memory>
#include <vector>

#include "base/geometry.h"
#include "engines/hpa/cluster_search.h"
#include "engines/hpa/hpa.h"
#include "gridstar/move_cost.h"
#include "search/path_tools.h"
#include "search/search_loop.h"
#include "search/search_state.h"

namespace gridstar::internal {

struct HpaScratch final : EngineScratch {
  struct Record {
    double g;
    uint32_t parent;
    uint32_t stamp;
    int32_t cluster;  // Of the node (the start's and goal's own too).
  };
  ClusterSearch from_start, from_goal, refine;
  std::vector<Record> records;
  uint32_t open = 0, closed = 1;
  // Keyed by g + kHpaWeight * h: keys may fall along a path (the weight),
  // so a heap rather than the radix queue of the exact engines.
  LazyHeap open_list;
  std::vector<uint32_t> node_path;
  std::vector<uint16_t> targets;

  void Begin(size_t n) {
    if (records.size() < n) records.resize(n, Record{0, 0, 0, 0});
    if (closed >= UINT32_MAX - 2) {
      for (Record& r : records) r.stamp = 0;
      open = 0;
    }
    open += 2;
    closed = open + 1;
    open_list.Clear();
  }

  size_t MemoryBytes() const override {
    return from_start.MemoryBytes() + from_goal.MemoryBytes() +
           refine.MemoryBytes() + open_list.MemoryBytes() +
           records.capacity() * sizeof(Record) +
           node_path.capacity() * sizeof(uint32_t) +
           targets.capacity() * sizeof(uint16_t);
  }
};

namespace {

std::atomic<bool> near_search{true};

}  // namespace

void SetHpaNearSearchForTesting(bool enabled) { near_search.store(enabled); }

void RunHpa(const GridMap& map, const HpaAbstraction& hpa,
            const SearchParams& p, SearchState& state, PathResult* r) {
  HpaScratch& s = state.Scratch<HpaScratch>(Algorithm::kHpa);
  const DiagonalPolicy policy = hpa.policy();
  const bool diagonal = policy != DiagonalPolicy::kNever;
  const double h_scale = std::max<double>(1, map.min_cost());
  const Cell start = map.CellOfPaddedIndex(p.start);
  const Cell goal = map.CellOfPaddedIndex(p.goal);
  // Near ends first get an exact A* of a cluster's worth of expansions: on
  // short queries the entrances' detours are at their worst (relative to
  // the path), and such a search is as cheap as joining the ends to them.
  if (near_search.load(std::memory_order_relaxed) &&
      GridDistance(start.x - goal.x, start.y - goal.y, diagonal) <=
          2 * kClusterSize) {
    SearchParams near = p;
    const uint64_t cap = uint64_t{kClusterSize} * kClusterSize;
    near.budget.max_expansions = p.budget.max_expansions != 0
                                     ? std::min(p.budget.max_expansions, cap)
                                     : cap;
    RunBestFirst(map, policy, near, state, r);
    if (!r->partial) return;
    r->partial = false;
    r->partial_reason = PartialReason::kNone;
    r->cells.clear();
    state.BeginSearch(map);
  }
  const int32_t cs = hpa.ClusterOf(start), cg = hpa.ClusterOf(goal);
  const HpaCluster& start_cluster = hpa.cluster(cs);
  const HpaCluster& goal_cluster = hpa.cluster(cg);

  // The ways into the abstract graph (and, in one cluster, straight across).
  const ClusterRect start_box = ClusterRectOf(map, hpa.clusters_x(), cs);
  const ClusterRect goal_box = ClusterRectOf(map, hpa.clusters_x(), cg);
  s.targets.assign(start_cluster.nodes.begin(), start_cluster.nodes.end());
  if (cs == cg) s.targets.push_back(HpaAbstraction::LocalOf(goal));
  s.from_start.Begin(map, policy, start_box.x0, start_box.y0, start_box.w,
                     start_box.h);
  s.from_start.Dijkstra(HpaAbstraction::LocalOf(start), s.targets);
  s.from_goal.Begin(map, policy, goal_box.x0, goal_box.y0, goal_box.w,
                    goal_box.h);
  s.from_goal.Dijkstra(HpaAbstraction::LocalOf(goal), goal_cluster.nodes);
  double direct = std::numeric_limits<double>::infinity();
  if (cs == cg && s.from_start.Distance(HpaAbstraction::LocalOf(goal)) >= 0) {
    direct = s.from_start.Distance(HpaAbstraction::LocalOf(goal));
  }

  // A* over the entrances, with the start and goal as nodes N and N + 1.
  const uint32_t n = hpa.node_count();
  const uint32_t kStart = n, kGoal = n + 1;
  s.Begin(size_t{n} + 2);
  HpaScratch::Record* rec = s.records.data();
  // h: the octile bound, and the landmarks' bound where the node's cluster
  // has landmark data and the goal's distances from them are known (through
  // the goal cluster's entrances: d(L, goal) = min over them of
  // d(L, e) + d(e, goal)).
  float goal_landmarks[kHpaLandmarks];
  bool landmarks = !goal_cluster.landmarks.empty();
  for (int k = 0; k < kHpaLandmarks; ++k) {
    goal_landmarks[k] = std::numeric_limits<float>::infinity();
  }
  if (landmarks) {
    for (size_t i = 0; i < goal_cluster.nodes.size(); ++i) {
      const double d = s.from_goal.Distance(goal_cluster.nodes[i]);
      if (d < 0) continue;
      for (int k = 0; k < kHpaLandmarks; ++k) {
        goal_landmarks[k] = std::min(
            goal_landmarks[k],
            static_cast<float>(goal_cluster.landmarks[i * kHpaLandmarks + k] +
                               d));
      }
    }
  }
  auto octile = [&](Cell c) {
    return h_scale * GridDistance(c.x - goal.x, c.y - goal.y, diagonal);
  };
  auto heuristic = [&](const HpaCluster& cluster, uint32_t i, Cell c) {
    double h = octile(c);
    if (landmarks && !cluster.landmarks.empty()) {
      const float* from = &cluster.landmarks[size_t{i} * kHpaLandmarks];
      for (int k = 0; k < kHpaLandmarks; ++k) {
        // Both finite: the same component as the landmark.
        const float d = std::fabs(goal_landmarks[k] - from[k]);
        if (d == d && d != std::numeric_limits<float>::infinity()) {
          h = std::max(h, static_cast<double>(d));
        }
      }
    }
    return h;
  };
  auto push = [&](double f, double h, uint32_t node) {
    s.open_list.Push(node, f, h);
  };
  uint64_t generated = 1;
  uint32_t cur = kStart;
  // Relaxes node i of cluster c (node kGoal when c < 0).
  auto relax = [&](int32_t c, uint32_t i, double g) {
    const uint32_t node = c < 0 ? kGoal : hpa.node_offset(c) + i;
    HpaScratch::Record& v = rec[node];
    if (v.stamp == s.closed) return;
    if (v.stamp != s.open || g < v.g) {
      if (v.stamp != s.open) ++generated;
      v = HpaScratch::Record{g, cur, s.open, c < 0 ? cg : c};
      double h = 0;
      if (c >= 0) {
        const HpaCluster& cluster = hpa.cluster(c);
        h = heuristic(cluster, i, hpa.CellOf(c, cluster.nodes[i]));
      }
      push(g + kHpaWeight * h, h, node);
    }
  };
  rec[kStart] = HpaScratch::Record{0, kStart, s.open, cs};
  push(kHpaWeight * octile(start), octile(start), kStart);
  uint32_t best = kStart;
  double best_h = octile(start);
  bool found = false;
  PartialReason stop = PartialReason::kNone;
  uint64_t abstract_expanded = 0;
  while (!s.open_list.empty()) {
    double f;
    const uint32_t node = s.open_list.PopMin(&f);
    if (rec[node].stamp == s.closed) continue;
    // The path inside the cluster is no worse than kHpaWeight times any
    // through the entrances.
    if (f >= direct) break;
    if (node == kGoal) {
      found = true;
      break;
    }
    if (Budgeted(p)) {
      stop = BudgetExhausted(p, abstract_expanded + 1, generated);
      if (stop != PartialReason::kNone) break;
    }
    rec[node].stamp = s.closed;
    ++abstract_expanded;
    cur = node;
    const double g = rec[node].g;
    if (node == kStart) {
      if (p.trace != nullptr) p.trace->push_back(p.start);
      for (size_t i = 0; i < start_cluster.nodes.size(); ++i) {
        const double d = s.from_start.Distance(start_cluster.nodes[i]);
        if (d >= 0) relax(cs, static_cast<uint32_t>(i), d);
      }
      continue;
    }
    const int32_t c = rec[node].cluster;
    const uint32_t i = node - hpa.node_offset(c);
    const uint16_t local = hpa.cluster(c).nodes[i];
    if (p.trace != nullptr) {
      p.trace->push_back(map.PaddedIndex(hpa.CellOf(c, local)));
    }
    const double h = octile(hpa.CellOf(c, local));
    if (h < best_h) {
      best_h = h;
      best = node;
    }
    hpa.ForEachNeighbour(c, i, [&](int32_t c2, uint32_t j, double cost) {
      relax(c2, j, g + cost);
    });
    if (c == cg) {
      const double d = s.from_goal.Distance(local);
      if (d >= 0) relax(-1, 0, g + d);
    }
  }

  // Refinement into cells.
  std::vector<Cell>& cells = r->cells;
  cells.clear();
  if (!found && (stop == PartialReason::kNone ||
                 direct != std::numeric_limits<double>::infinity())) {
    // The path inside the start's cluster won (or the budget ran out with
    // it in hand), or the heap ran dry.
    if (direct == std::numeric_limits<double>::infinity()) {
      // Cannot happen: start and goal share a component (FindPath checked)
      // and the entrances join every border crossing. Answer as partial
      // rather than assert in production.
      assert(false);
      cells.push_back(start);
      r->partial = true;
      r->partial_reason = PartialReason::kMaxExpansions;
    } else {
      s.from_start.AppendPathTo(HpaAbstraction::LocalOf(goal), false, &cells);
    }
  } else {
    const uint32_t last = found ? kGoal : best;
    s.node_path.clear();
    for (uint32_t v = last; v != kStart; v = rec[v].parent) {
      s.node_path.push_back(v);
    }
    std::reverse(s.node_path.begin(), s.node_path.end());
    auto local_of_node = [&](uint32_t v) {
      const int32_t c = rec[v].cluster;
      return hpa.cluster(c).nodes[v - hpa.node_offset(c)];
    };
    if (s.node_path.empty() || s.node_path[0] == kGoal) {
      cells.push_back(start);
    } else {
      s.from_start.AppendPathTo(local_of_node(s.node_path[0]), false, &cells);
    }
    for (size_t k = 0; k + 1 < s.node_path.size(); ++k) {
      const uint32_t a = s.node_path[k], b = s.node_path[k + 1];
      if (b == kGoal) {
        s.from_goal.AppendPathFrom(local_of_node(a), true, &cells);
        break;
      }
      const int32_t ca = rec[a].cluster, cb = rec[b].cluster;
      if (ca != cb) {
        cells.push_back(hpa.CellOf(cb, local_of_node(b)));
        continue;
      }
      const ClusterRect box = ClusterRectOf(map, hpa.clusters_x(), ca);
      s.refine.Begin(map, policy, box.x0, box.y0, box.w, box.h);
      // The build's least path, when it stored its turns.
      const HpaCluster& cluster = hpa.cluster(ca);
      const absl::Span<const uint16_t> turns = cluster.TurnsOf(
          a - hpa.node_offset(ca), b - hpa.node_offset(ca));
      if (!turns.empty()) {
        s.refine.AppendTurnPath(local_of_node(a), turns, local_of_node(b),
                                &cells);
        continue;
      }
      // On uniform costs a legal octile-shaped path is a least one: no
      // search needed.
      const Cell from = hpa.CellOf(ca, local_of_node(a));
      const Cell to = hpa.CellOf(ca, local_of_node(b));
      if (map.uniform_cost() &&
          AppendOctilePath(map.padded_costs(), map.padded_width(), policy,
                           Cell{from.x + 1, from.y + 1},
                           Cell{to.x + 1, to.y + 1}, &cells)) {
        continue;
      }
      s.refine.AStar(local_of_node(a), local_of_node(b));
      s.refine.AppendPathTo(local_of_node(b), true, &cells);
    }
    if (!found) {
      r->partial = true;
      r->partial_reason = stop;
    }
  }
  r->cost = PathCost(map, cells, policy);
  r->expanded = abstract_expanded;
  r->generated = generated;
}

}  // namespace gridstar::internal
