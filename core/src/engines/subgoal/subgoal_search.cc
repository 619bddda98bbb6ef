// A query over a subgoal graph (subgoal_graph.h): the start and goal joined
// to the subgoals they reach directly (and to each other, when one reaches
// the other), A* over the graph with the octile and landmark bounds, and
// the node path refined into cells.

#include <algorithm>
#include <cmath>
#include <functional>
#include <utility>
#include <vector>

#include "engines/jps/jps.h"
#include "engines/subgoal/subgoal_graph.h"
#include "search/path_tools.h"
#include "search/search_loop.h"
#include "search/search_state.h"

namespace gridstar::internal {

struct SubgoalScratch final : EngineScratch {
  struct Record {
    double g;
    uint32_t parent;
    uint32_t stamp;
  };
  struct Entry {
    double f;
    double g;
    uint32_t node;
    bool operator>(const Entry& o) const {
      return f > o.f || (f == o.f && g < o.g);
    }
  };
  std::vector<Record> records;
  // goal_link[v] == open: node v reaches the goal directly.
  std::vector<uint32_t> goal_link;
  uint32_t open = 0, closed = 1;
  std::vector<Entry> heap;
  std::vector<uint32_t> start_links;
  std::vector<uint32_t> node_path;

  void Begin(size_t n) {
    if (records.size() < n) {
      records.resize(n, Record{0, 0, 0});
      goal_link.resize(n, 0);
    }
    if (closed >= UINT32_MAX - 2) {
      for (Record& r : records) r.stamp = 0;
      std::fill(goal_link.begin(), goal_link.end(), 0);
      open = 0;
    }
    open += 2;
    closed = open + 1;
    heap.clear();
    start_links.clear();
  }

  size_t MemoryBytes() const override {
    return records.capacity() * sizeof(Record) +
           goal_link.capacity() * sizeof(uint32_t) +
           heap.capacity() * sizeof(Entry) +
           (start_links.capacity() + node_path.capacity()) * sizeof(uint32_t);
  }
};

void RunSubgoal(const GridMap& map, const SubgoalGraph& graph,
                const SearchParams& p, SearchState& state, PathResult* r) {
  SubgoalScratch& s = state.Scratch<SubgoalScratch>(Algorithm::kSubgoal);
  const uint32_t n = graph.node_count();
  const uint32_t kStart = n, kGoal = n + 1;
  s.Begin(static_cast<size_t>(n) + 2);
  const uint32_t pw = static_cast<uint32_t>(map.padded_width());
  const int32_t sx = static_cast<int32_t>(p.start % pw);
  const int32_t sy = static_cast<int32_t>(p.start / pw);
  const int32_t gx = static_cast<int32_t>(p.goal % pw);
  const int32_t gy = static_cast<int32_t>(p.goal / pw);
  const int64_t start_node = graph.NodeOf(p.start);
  const int64_t goal_node = graph.NodeOf(p.goal);
  const uint32_t sn =
      start_node >= 0 ? static_cast<uint32_t>(start_node) : kStart;
  const uint32_t gn = goal_node >= 0 ? static_cast<uint32_t>(goal_node) : kGoal;
  auto x_of = [&](uint32_t v) {
    return v < n ? graph.XOf(v) : (v == kStart ? sx : gx);
  };
  auto y_of = [&](uint32_t v) {
    return v < n ? graph.YOf(v) : (v == kStart ? sy : gy);
  };

  // The goal's links, and its landmark distances (through them).
  const int landmarks = graph.landmark_count();
  float goal_landmarks[kSubgoalLandmarks];
  int used[kSubgoalLandmarks];
  int used_count = 0;
  {
    float best[kSubgoalLandmarks];
    std::fill(best, best + kSubgoalLandmarks,
              std::numeric_limits<float>::infinity());
    auto offer = [&](uint32_t v) {
      const float* l = graph.Landmarks(v);
      const double step = v == gn ? 0 : OctileSteps(x_of(v), y_of(v), gx, gy);
      for (int k = 0; k < landmarks; ++k) {
        best[k] = std::min(best[k], static_cast<float>(l[k] + step));
      }
    };
    if (gn == kGoal) {
      graph.Scan(map, p.goal, UINT32_MAX, [&](uint32_t v) {
        if (s.goal_link[v] != s.open) {
          s.goal_link[v] = s.open;
          offer(v);
        }
      });
    } else {
      offer(gn);
    }
    for (int k = 0; k < landmarks; ++k) {
      if (std::isfinite(best[k])) {
        goal_landmarks[used_count] = best[k];
        used[used_count++] = k;
      }
    }
  }
  bool direct = false;
  if (sn == kStart) {
    direct = graph.Scan(map, p.start, gn == kGoal ? p.goal : UINT32_MAX,
                        [&](uint32_t v) { s.start_links.push_back(v); });
  }

  auto heuristic = [&](uint32_t v) {
    double h = OctileSteps(x_of(v), y_of(v), gx, gy);
    if (v >= n) return h;
    const float* l = graph.Landmarks(v);
    for (int i = 0; i < used_count; ++i) {
      const double a = l[used[i]], b = goal_landmarks[i];
      // Float distances are within 2^-24 of the exact ones, each.
      const double bound = std::fabs(a - b) - 1.2e-7 * (a + b) - 1e-6;
      if (bound > h) h = bound;
    }
    return h;
  };

  std::vector<SubgoalScratch::Record>& rec = s.records;
  uint64_t expanded = 0, generated = 1;
  PartialReason stop = PartialReason::kNone;
  bool found = false;
  uint32_t best = sn;
  double best_distance = OctileSteps(sx, sy, gx, gy);
  rec[sn] = SubgoalScratch::Record{0, sn, s.open};
  s.heap.push_back({heuristic(sn), 0, sn});
  auto relax = [&](uint32_t u, double g, uint32_t v) {
    const double ng = g + OctileSteps(x_of(u), y_of(u), x_of(v), y_of(v));
    SubgoalScratch::Record& rv = rec[v];
    const bool seen = rv.stamp == s.open || rv.stamp == s.closed;
    if (seen && ng >= rv.g - 1e-9) return;
    rv = SubgoalScratch::Record{ng, u, s.open};
    ++generated;
    s.heap.push_back({ng + heuristic(v), ng, v});
    std::push_heap(s.heap.begin(), s.heap.end(), std::greater<>());
  };
  const bool budgeted = Budgeted(p);
  while (!s.heap.empty()) {
    std::pop_heap(s.heap.begin(), s.heap.end(), std::greater<>());
    const SubgoalScratch::Entry e = s.heap.back();
    s.heap.pop_back();
    const uint32_t u = e.node;
    if (rec[u].stamp != s.open || e.g != rec[u].g) continue;  // Stale.
    if (u == gn) {
      found = true;
      break;
    }
    if (budgeted) {
      stop = BudgetExhausted(p, expanded + 1, generated);
      if (stop != PartialReason::kNone) break;
    }
    ++expanded;
    rec[u].stamp = s.closed;
    if (p.trace != nullptr) {
      p.trace->push_back(static_cast<uint32_t>(y_of(u)) * pw +
                         static_cast<uint32_t>(x_of(u)));
    }
    const double d = OctileSteps(x_of(u), y_of(u), gx, gy);
    if (d < best_distance) {
      best_distance = d;
      best = u;
    }
    const double g = rec[u].g;
    if (u == kStart) {
      for (uint32_t v : s.start_links) relax(u, g, v);
      if (direct) relax(u, g, kGoal);
      continue;
    }
    for (const uint32_t* t = graph.EdgesBegin(u); t != graph.EdgesEnd(u); ++t) {
      relax(u, g, *t);
    }
    if (gn == kGoal && s.goal_link[u] == s.open) relax(u, g, kGoal);
  }

  // The node path, end first, then its cells.
  const uint32_t last = found ? gn : best;
  s.node_path.clear();
  for (uint32_t v = last;; v = rec[v].parent) {
    s.node_path.push_back(v);
    if (v == sn) break;
  }
  std::vector<Cell>& cells = r->cells;
  cells.clear();
  cells.push_back(Cell{sx - 1, sy - 1});
  double steps = 0;
  bool legal = true;
  for (size_t i = s.node_path.size() - 1; i > 0 && legal; --i) {
    const uint32_t a = s.node_path[i], b = s.node_path[i - 1];
    const int32_t ax = x_of(a), ay = y_of(a), bx = x_of(b), by = y_of(b);
    legal = AppendOctilePath(map.padded_costs(), map.padded_width(),
                             DiagonalPolicy::kNoCornerCutting, Cell{ax, ay},
                             Cell{bx, by}, &cells);
    steps += OctileSteps(ax, ay, bx, by);
  }
  if (!legal) {
    // Never expected (every edge was scanned diagonal first from one of its
    // ends); should it happen, jps answers and says so.
    r->cells.clear();
    r->algorithm = Algorithm::kJps;
    state.BeginSearch(map);
    RunJps(map, p, state, r);
    return;
  }
  r->cost = steps * map.min_cost();
  r->expanded = expanded;
  r->generated = generated;
  if (!found) {
    r->partial = true;
    r->partial_reason =
        stop == PartialReason::kNone ? PartialReason::kMaxExpansions : stop;
  }
}

}  // namespace gridstar::internal
