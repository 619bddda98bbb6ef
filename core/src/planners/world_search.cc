// FindWorldPath (world.h) on a WorldIndex: the query's start and goal
// joined to the index's link ends; the least route over exact weights and
// lower bounds, its lower bounds searched until none is left on it (with
// all pairs, the route is the best of start end, least cost between ends
// and goal end; without, Dijkstra over the abstract graph); then its legs
// searched (or taken from the searches made) and joined.

#include <algorithm>
#include <chrono>
#include <cmath>
#include <cstddef>
#include <cstdint>
#include <deque>
#include <limits>
#include <utility>
#include <vector>

#include "absl/container/flat_hash_map.h"
#include "absl/status/status.h"
#include "absl/strings/str_cat.h"
#include "gridstar/find_path.h"
#include "gridstar/world.h"
#include "planners/world_graph.h"

namespace gridstar {
namespace {

using internal::WorldIndexData;
using internal::WorldNode;

constexpr double kInfinity = std::numeric_limits<double>::infinity();

// One step of a route: into `node`, by link `link` (its cost `cost`) or,
// with link -1, by a leg within a map.
struct Step {
  int node = 0;
  int link = -1;
  double cost = 0;
};

// A leg between two nodes of one map: its exact cost once searched, and
// the search (from node `from`).
struct Known {
  double cost = kInfinity;
  int result = -1;  // Index into results_, -1 when none kept.
  int from = -1;
};

// The index's nodes, then the query's start (n) and goal (n + 1).
class QueryGraph {
 public:
  QueryGraph(const WorldIndexData& d, const WorldQuery& q)
      : d_(d), q_(q), n_(d.size()) {
    for (const WorldCell& end : {q.start, q.goal}) {
      const LinkEndTable* t = d.table(end.map);
      ends_.push_back(WorldNode{end, t == nullptr ? -1 : t->IndexOf(end.cell)});
    }
  }

  int start() const { return n_; }
  int goal() const { return n_ + 1; }
  const WorldNode& node(int id) const {
    return id < n_ ? d_.nodes[id] : ends_[id - n_];
  }

  // The weight of the edge a-b within their map: exact (*exact) from a
  // search of this query, a fresh table, or across components; else a
  // lower bound.
  double Weight(int a, int b, bool* exact) {
    if (auto it = known_.find(Key(a, b)); it != known_.end()) {
      *exact = true;
      return it->second.cost;
    }
    auto [it, added] = bounds_.try_emplace(Key(a, b));
    if (added) {
      const WorldNode& na = node(a);
      const WorldNode& nb = node(b);
      it->second.first =
          d_.EdgeWeight(na.at.map, na.at.cell, na.table_row, nb.at.cell,
                        nb.table_row, &it->second.second);
    }
    *exact = it->second.second;
    return it->second.first;
  }

  // An upper bound on the edge a-b within their map: exact, or the block
  // bound of the end of the two that has a table row; else infinite.
  double Upper(int a, int b) {
    bool exact = false;
    const double w = Weight(a, b, &exact);
    if (exact) return w;
    const WorldNode& na = node(a);
    const WorldNode& nb = node(b);
    const LinkEndTable* t = d_.table(na.at.map);
    if (t == nullptr || !t->has_bounds()) return kInfinity;
    if (na.table_row >= 0) return t->UpperBound(na.table_row, nb.at.cell);
    if (nb.table_row >= 0) return t->UpperBound(nb.table_row, na.at.cell);
    return kInfinity;
  }

  // Dijkstra over the whole abstract graph; false when the goal is not
  // reached. *route from the start to the goal.
  bool LeastRoute(std::vector<Step>* route) {
    const int n = n_ + 2;
    std::vector<double> dist(n);
    std::vector<int> before(n), before_link(n);
    internal::AbstractDijkstra(
        n, start(), goal(),
        [&](int u, auto relax) {
          bool exact = false;
          const int map = node(u).at.map;
          if (u == start()) {
            for (int v : d_.by_map[map]) relax(v, Weight(u, v, &exact), -1);
          } else {
            for (const internal::LinkArc& a : d_.arcs[u]) {
              relax(a.to, a.cost, a.link);
            }
            for (const internal::WeightedEdge& e : d_.edges[u]) {
              relax(e.to, e.exact ? e.weight : Weight(u, e.to, &exact), -1);
            }
          }
          if (map == q_.goal.map) relax(goal(), Weight(u, goal(), &exact), -1);
        },
        dist.data(), before.data(), before_link.data());
    if (dist[goal()] == kInfinity) return false;
    route->assign(1, Step{start(), -1, 0});
    AppendWay(before.data(), before_link.data(), start(), goal(), route);
    return true;
  }

  // With all pairs: the best of the start and the goal joined directly
  // (on one map) and of start -> end e, e ->> end f, f -> goal over the
  // least costs between ends. False when the goal is not reached.
  bool BestByAllPairs(std::vector<Step>* route) {
    const int n = n_;
    const std::vector<int>& from = d_.by_map[q_.start.map];
    const std::vector<int>& to = d_.by_map[q_.goal.map];
    bool exact = false;
    double best = q_.start.map == q_.goal.map ? Weight(start(), goal(), &exact)
                                              : kInfinity;
    int best_e = -1, best_f = -1;
    for (int e : from) {
      const double ws = Weight(start(), e, &exact);
      if (ws >= best) continue;
      const double* row = &d_.distance[static_cast<size_t>(e) * n];
      for (int f : to) {
        const double total = ws + row[f];
        if (total >= best) continue;
        const double wg = Weight(f, goal(), &exact);
        if (total + wg < best) {
          best = total + wg;
          best_e = e;
          best_f = f;
        }
      }
    }
    if (best == kInfinity) return false;
    route->assign(1, Step{start(), -1, 0});
    if (best_e < 0) {
      route->push_back(Step{goal(), -1, 0});
      return true;
    }
    route->push_back(Step{best_e, -1, 0});
    // The ends' way, from the steps into each node kept for e's row.
    std::vector<Step> middle;
    const size_t row = static_cast<size_t>(best_e) * n;
    AppendWay(&d_.before[row], &d_.before_link[row], best_e, best_f, &middle);
    // Consecutive steps within one map (an end the least way passes on
    // its map, a tie) are one leg: the table's cost from the first to the
    // last is their sum, and one search finds it.
    for (const Step& step : middle) {
      if (step.link < 0 && route->back().link < 0 && route->size() >= 2 &&
          route->back().node != start() &&
          node(route->back().node).at.map == node(step.node).at.map &&
          (*route)[route->size() - 2].node != start()) {
        route->back() = step;
      } else {
        route->push_back(step);
      }
    }
    route->push_back(Step{goal(), -1, 0});
    return true;
  }

  // Searches the leg a-b on its map, from a; its result stays for the
  // answer. True when it stopped early (out of budget): *totals is then
  // flagged partial with the reason.
  absl::StatusOr<bool> Search(int a, int b, SearchContext& context,
                              WorldResult* totals) {
    PathQuery q = q_.leg;
    q.start = node(a).at.cell;
    q.goal = node(b).at.cell;
    if (q.budget.max_expansions != 0) {
      q.budget.max_expansions =
          totals->expanded >= q_.leg.budget.max_expansions
              ? 1  // Spent: the search stops at its first expansion.
              : q_.leg.budget.max_expansions - totals->expanded;
    }
    results_.emplace_back();
    PathResult& r = results_.back();
    absl::Status s = FindPath(d_.maps[node(a).at.map], q, context, &r);
    ++totals->searches;
    totals->expanded += r.expanded;
    if (absl::IsNotFound(s)) {
      known_[Key(a, b)] = Known{kInfinity, -1, a};
      return false;
    }
    if (!s.ok()) return s;
    if (r.partial) {
      stopped_on_ = Key(a, b);
      totals->partial = true;
      totals->partial_reason = r.partial_reason;
      return true;
    }
    known_[Key(a, b)] = Known{r.cost, static_cast<int>(results_.size() - 1), a};
    return false;
  }

  // The search of the leg a-b, or null when none ran; *reversed when it
  // ran from b to a.
  const PathResult* ResultOf(int a, int b, bool* reversed) const {
    auto it = known_.find(Key(a, b));
    if (it == known_.end() || it->second.result < 0) return nullptr;
    *reversed = it->second.from != a;
    return &results_[it->second.result];
  }
  const PathResult& last_result() const { return results_.back(); }
  // True when the search that stopped early was of the leg a-b.
  bool StoppedOn(int a, int b) const { return stopped_on_ == Key(a, b); }

 private:
  // Appends to *route the steps of the way from `from` to `to` (both
  // nodes), in order, read back from the steps into each node (`before`,
  // `before_link`: AbstractDijkstra's, from `from`).
  void AppendWay(const int* before, const int* before_link, int from, int to,
                 std::vector<Step>* route) const {
    const size_t first = route->size();
    for (int v = to; v != from; v = before[v]) {
      const int link = before_link[v];
      route->push_back(
          Step{v, link, link >= 0 ? d_.LinkCost(before[v], v, link) : 0.0});
    }
    std::reverse(route->begin() + static_cast<std::ptrdiff_t>(first),
                 route->end());
  }

  static uint64_t Key(int a, int b) {
    return (uint64_t{static_cast<uint32_t>(std::min(a, b))} << 32) |
           static_cast<uint32_t>(std::max(a, b));
  }

  const WorldIndexData& d_;
  const WorldQuery& q_;
  const int n_;
  std::vector<WorldNode> ends_;  // The start's and the goal's nodes.
  absl::flat_hash_map<uint64_t, Known> known_;
  // Weights worked out so far, and whether exact, by node pair.
  absl::flat_hash_map<uint64_t, std::pair<double, bool>> bounds_;
  std::deque<PathResult> results_;
  uint64_t stopped_on_ = ~uint64_t{0};
};

// Appends the search's path to *leg, reversed when it ran the other way;
// the leg's last cell is where the path starts.
void AppendLeg(const PathResult& r, bool reversed, WorldLeg* leg) {
  std::vector<Cell> cells = r.cells;
  std::vector<Cell> waypoints = r.waypoints;
  if (reversed) {
    std::reverse(cells.begin(), cells.end());
    std::reverse(waypoints.begin(), waypoints.end());
  }
  PathResult& p = leg->path;
  if (p.cells.empty()) {
    p = r;
    p.cells = std::move(cells);
    p.waypoints = std::move(waypoints);
    p.start = p.cells.front();
    p.goal = p.cells.back();
    return;
  }
  p.cells.insert(p.cells.end(), cells.begin() + 1, cells.end());
  if (!waypoints.empty()) {
    p.waypoints.insert(p.waypoints.end(), waypoints.begin() + 1,
                       waypoints.end());
  }
  p.cost += r.cost;
  p.smoothed_cost += r.smoothed_cost;
  p.expanded += r.expanded;
  p.generated += r.generated;
  p.trace.insert(p.trace.end(), r.trace.begin(), r.trace.end());
  p.goal = p.cells.back();
}

// Whether the goal's component is reached from the start's over the
// index's component graph.
bool Reachable(const WorldIndexData& d, const WorldQuery& q) {
  const uint64_t from = d.ComponentKey(q.start),
                 target = d.ComponentKey(q.goal);
  if (from == target) return true;
  auto f = d.component_id.find(from), t = d.component_id.find(target);
  if (f == d.component_id.end() || t == d.component_id.end()) return false;
  std::vector<bool> seen(d.component_arcs.size(), false);
  std::vector<int> frontier{f->second};
  seen[f->second] = true;
  while (!frontier.empty()) {
    const int c = frontier.back();
    frontier.pop_back();
    if (c == t->second) return true;
    for (int next : d.component_arcs[c]) {
      if (!seen[next]) {
        seen[next] = true;
        frontier.push_back(next);
      }
    }
  }
  return false;
}

// The legs of `route`: consecutive steps within one map join into one leg;
// a link closes it and the next leg starts where the link leads. Partial:
// the route is followed while its legs were searched, through the search
// that stopped (its path to the cell nearest the goal), and ends there.
absl::Status Assemble(QueryGraph& graph, const std::vector<Step>& route,
                      const WorldQuery& query, SearchContext& context,
                      WorldResult* result) {
  WorldLeg leg;
  leg.map = query.start.map;
  WorldCell leg_start = query.start;
  auto close_leg = [&] {
    if (leg.path.cells.empty()) {
      leg.path.cells.push_back(leg_start.cell);
      leg.path.start = leg.path.goal = leg_start.cell;
      leg.path.algorithm = query.leg.algorithm;
    }
    result->cost += leg.path.cost;
    result->legs.push_back(std::move(leg));
  };
  for (size_t i = 1; i < route.size(); ++i) {
    const int a = route[i - 1].node, b = route[i].node;
    if (route[i].link >= 0) {
      close_leg();
      result->links.push_back(route[i].link);
      result->cost += route[i].cost;
      leg_start = graph.node(b).at;
      leg = WorldLeg();
      leg.map = leg_start.map;
      continue;
    }
    bool reversed = false;
    const PathResult* r = graph.ResultOf(a, b, &reversed);
    if (r == nullptr && result->partial) {
      // The stopped search ran from a (Search orients it so).
      if (graph.StoppedOn(a, b)) AppendLeg(graph.last_result(), false, &leg);
      break;
    }
    if (r == nullptr) {
      // Exact from a table: searched now for its cells.
      absl::StatusOr<bool> stopped = graph.Search(a, b, context, result);
      if (!stopped.ok()) return stopped.status();
      if (*stopped) {
        AppendLeg(graph.last_result(), false, &leg);
        break;
      }
      r = graph.ResultOf(a, b, &reversed);
    }
    AppendLeg(*r, reversed, &leg);
  }
  close_leg();
  return absl::OkStatus();
}

}  // namespace

absl::Status FindWorldPath(const WorldIndex& index, const WorldQuery& query,
                           SearchContext& context, WorldResult* result) {
  const auto began = std::chrono::steady_clock::now();
  *result = WorldResult();
  const WorldIndexData& d = index.data();
  if (query.leg.movement.diagonal != d.policy ||
      query.agent.size != d.agent.size || query.agent.areas != d.agent.areas) {
    return absl::InvalidArgumentError(
        "query: the index was built for another agent class or policy");
  }
  std::vector<WorldMapView> views;
  for (const GridMap& map : d.maps)
    views.push_back(WorldMapView{&map, nullptr});
  if (absl::Status s = ValidateWorldQuery(views, query); !s.ok()) return s;
  if (!Reachable(d, query)) {
    return absl::NotFoundError(absl::StrCat(
        "no path: no route of maps and usable links leads from the start (",
        query.start.cell.x, ", ", query.start.cell.y, ") on map ",
        query.start.map, " to the goal (", query.goal.cell.x, ", ",
        query.goal.cell.y, ") on map ", query.goal.map));
  }
  auto finish = [&] {
    result->micros = std::chrono::duration<double, std::micro>(
                         std::chrono::steady_clock::now() - began)
                         .count();
  };
  QueryGraph graph(d, query);
  std::vector<Step> route;
  // Rounds: the least route over the current weights; one of its lower
  // bounds searched (with all pairs, of the start's and the goal's edges
  // the one with the widest bounds; else the first from the start's side
  // and the goal's alternately), until none is left on it.
  for (bool from_start = true;; from_start = !from_start) {
    ++result->rounds;
    const bool found = index.all_pairs() ? graph.BestByAllPairs(&route)
                                         : graph.LeastRoute(&route);
    if (!found) {
      finish();
      return absl::NotFoundError("no path: every route was searched out");
    }
    std::vector<size_t> picks;
    double widest = -1;
    for (size_t k = 1; k < route.size(); ++k) {
      const size_t i = from_start ? k : route.size() - k;
      if (route[i].link >= 0) continue;
      bool exact = false;
      const double lower =
          graph.Weight(route[i - 1].node, route[i].node, &exact);
      if (exact) continue;
      if (!index.all_pairs()) {
        picks.push_back(i);
        break;
      }
      // With all pairs only the start's and the goal's edges are bounds:
      // the one whose bounds are furthest apart first, the likelier to
      // change the route (then the other need not be searched).
      const double gap = graph.Upper(route[i - 1].node, route[i].node) - lower;
      if (gap > widest) {
        widest = gap;
        picks.assign(1, i);
      }
    }
    if (picks.empty()) break;
    bool stopped_early = false;
    for (size_t i : picks) {
      absl::StatusOr<bool> stopped =
          graph.Search(route[i - 1].node, route[i].node, context, result);
      if (!stopped.ok()) {
        finish();
        return stopped.status();
      }
      if (*stopped) {
        stopped_early = true;
        break;
      }
    }
    if (stopped_early) break;
  }
  absl::Status s = Assemble(graph, route, query, context, result);
  finish();
  return s;
}

absl::Status FindWorldPath(absl::Span<const WorldMapView> maps,
                           absl::Span<const WorldLink> links,
                           const WorldQuery& query, SearchContext& context,
                           WorldResult* result) {
  *result = WorldResult();
  if (absl::Status s = ValidateWorldQuery(maps, query); !s.ok()) return s;
  absl::StatusOr<std::shared_ptr<const WorldIndex>> index = WorldIndex::Build(
      maps, links, query.agent, query.leg.movement.diagonal, false);
  if (!index.ok()) return index.status();
  return FindWorldPath(**index, query, context, result);
}

}  // namespace gridstar
