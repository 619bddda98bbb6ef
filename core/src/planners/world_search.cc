// FindWorldPath (world.h): Dijkstra over the abstract graph of the start,
// the goal and the usable link ends, whose edges within a map are exact
// (a fresh LinkEndTable, or a leg searched in this query) or lower bounds,
// repeated until the least path holds no lower bound; its legs are then
// searched (or taken from the searches already made) and joined.

#include <algorithm>
#include <chrono>
#include <cmath>
#include <cstddef>
#include <cstdint>
#include <deque>
#include <functional>
#include <limits>
#include <queue>
#include <utility>
#include <vector>

#include "absl/container/flat_hash_map.h"
#include "absl/status/status.h"
#include "absl/strings/str_cat.h"
#include "base/geometry.h"
#include "gridstar/find_path.h"
#include "gridstar/world.h"
#include "planners/world_graph.h"

namespace gridstar {
namespace {

constexpr double kInfinity = std::numeric_limits<double>::infinity();

struct Node {
  WorldCell at;
  // Row of `at` in its map's fresh table, or -1.
  int table_row = -1;
};

// A leg between two nodes of one map: its exact cost once known, and the
// search that found it (from node `from`), if one ran.
struct Known {
  double cost = kInfinity;
  int result = -1;  // Index into Graph::results, or -1 (cost from a table).
  int from = -1;
};

class Graph {
 public:
  Graph(absl::Span<const WorldMapView> maps, absl::Span<const WorldLink> links,
        const WorldQuery& query)
      : maps_(maps), query_(query) {
    nodes_.push_back(Node{query.start});
    nodes_.push_back(Node{query.goal});
    by_map_.resize(maps.size());
    for (const internal::UsableLink& u :
         internal::UsableLinks(maps, links, query.agent)) {
      const WorldLink& link = links[u.index];
      const int a = NodeOf(link.from), b = NodeOf(link.to);
      link_edges_.push_back(LinkEdge{a, b, link.cost, u.index});
      if (link.both_ways) {
        link_edges_.push_back(LinkEdge{b, a, link.cost, u.index});
      }
    }
    // Every node (the start and the goal too: a link end on either is that
    // node, NodeOf) joins its map's list; its row in a fresh table, if any.
    for (int id = 0; id < static_cast<int>(nodes_.size()); ++id) {
      Node& n = nodes_[id];
      by_map_[n.at.map].push_back(id);
      const LinkEndTable* table = FreshTable(n.at.map);
      if (table != nullptr) n.table_row = table->IndexOf(n.at.cell);
    }
    out_links_.resize(nodes_.size());
    for (size_t e = 0; e < link_edges_.size(); ++e) {
      out_links_[link_edges_[e].from].push_back(static_cast<int>(e));
    }
  }

  int size() const { return static_cast<int>(nodes_.size()); }
  const Node& node(int id) const { return nodes_[id]; }

  // The weight of the edge a-b within their map: exact (*exact set) from a
  // search of this query or a fresh table, else a lower bound.
  double Weight(int a, int b, bool* exact) const {
    if (auto it = known_.find(Key(a, b)); it != known_.end()) {
      *exact = true;
      return it->second.cost;
    }
    const Node& na = nodes_[a];
    const Node& nb = nodes_[b];
    if (na.table_row >= 0 && nb.table_row >= 0) {
      *exact = true;
      return maps_[na.at.map].ends->Cost(na.table_row, nb.table_row);
    }
    auto [it, added] = lower_.try_emplace(Key(a, b), 0.0);
    if (added) it->second = LowerBound(na, nb);
    // Infinite only across components: that is exact.
    *exact = it->second == kInfinity;
    return it->second;
  }

  // Dijkstra from the start; false when the goal is unreachable. Fills
  // *route with (node, link edge taken into it or -1 for a leg) pairs
  // from the start to the goal.
  bool LeastRoute(std::vector<std::pair<int, int>>* route) {
    const int n = size();
    if (edges_.empty()) {
      // Each node's edges within its map, weighed once; Search updates
      // the two it makes exact.
      edges_.resize(n);
      for (int u = 0; u < n; ++u) {
        for (int v : by_map_[nodes_[u].at.map]) {
          bool exact = false;
          const double w = v == u ? kInfinity : Weight(u, v, &exact);
          if (w < kInfinity) edges_[u].push_back(Edge{v, w});
        }
      }
    }
    std::vector<double> dist(n, kInfinity);
    std::vector<int> parent(n, -1), via(n, -1);
    std::vector<bool> done(n, false);
    using Entry = std::pair<double, int>;
    std::priority_queue<Entry, std::vector<Entry>, std::greater<Entry>> open;
    dist[0] = 0;
    open.push({0, 0});
    while (!open.empty()) {
      const auto [d, u] = open.top();
      open.pop();
      if (done[u]) continue;
      done[u] = true;
      if (u == 1) break;
      auto relax = [&](int v, double w, int link_edge) {
        if (v == 0 || done[v] || !(d + w < dist[v])) return;
        dist[v] = d + w;
        parent[v] = u;
        via[v] = link_edge;
        open.push({dist[v], v});
      };
      for (int e : out_links_[u]) {
        relax(link_edges_[e].to, link_edges_[e].cost, e);
      }
      for (const Edge& e : edges_[u]) relax(e.to, e.weight, -1);
    }
    if (dist[1] == kInfinity) return false;
    route->clear();
    for (int v = 1; v != -1; v = parent[v]) route->push_back({v, via[v]});
    std::reverse(route->begin(), route->end());
    return true;
  }

  // Searches the leg a-b on its map, from a; its result stays for the
  // answer. True when it stopped early (out of budget): *totals is then
  // flagged partial with the reason.
  absl::StatusOr<bool> Search(int a, int b, SearchContext& context,
                              WorldResult* totals) {
    PathQuery q = query_.leg;
    q.start = nodes_[a].at.cell;
    q.goal = nodes_[b].at.cell;
    if (q.budget.max_expansions != 0) {
      q.budget.max_expansions =
          totals->expanded >= query_.leg.budget.max_expansions
              ? 1  // Spent: the search stops at its first expansion.
              : query_.leg.budget.max_expansions - totals->expanded;
    }
    results_.emplace_back();
    PathResult& r = results_.back();
    absl::Status s = FindPath(*maps_[nodes_[a].at.map].map, q, context, &r);
    ++totals->searches;
    totals->expanded += r.expanded;
    if (absl::IsNotFound(s)) {
      known_[Key(a, b)] = Known{kInfinity, -1, a};
      SetWeight(a, b, kInfinity);
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
    SetWeight(a, b, r.cost);
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
  const LinkEndTable* FreshTable(int map) const {
    const WorldMapView& view = maps_[map];
    if (view.ends == nullptr || !view.ends->BuiltFrom(*view.map) ||
        view.ends->policy() != query_.leg.movement.diagonal) {
      return nullptr;
    }
    return view.ends;
  }
  int link_of(int link_edge) const { return link_edges_[link_edge].link; }
  double link_cost(int link_edge) const { return link_edges_[link_edge].cost; }

 private:
  struct LinkEdge {
    int from, to;
    double cost;
    int link;
  };
  static uint64_t Key(int a, int b) {
    return (uint64_t{static_cast<uint32_t>(std::min(a, b))} << 32) |
           static_cast<uint32_t>(std::max(a, b));
  }
  struct Edge {
    int to;
    double weight;
  };
  void SetWeight(int a, int b, double weight) {
    if (edges_.empty()) return;
    for (auto [from, to] : {std::pair{a, b}, std::pair{b, a}}) {
      for (Edge& e : edges_[from]) {
        if (e.to == to) e.weight = weight;
      }
    }
  }

  // A lower bound on the least cost between two nodes of one map, not both
  // in its table: octile distance times the cheapest cost; with a fresh
  // table's bounds, also the end's block bounds (one end in the table), or
  // the triangle inequality through each end (neither).
  double LowerBound(const Node& na, const Node& nb) const {
    const GridMap& map = *maps_[na.at.map].map;
    const Cell a = na.at.cell, b = nb.at.cell;
    if (!map.Connected(a, b)) return kInfinity;
    double bound = internal::CellDistance(a, b, query_.leg.movement.diagonal) *
                   map.min_cost();
    const LinkEndTable* table = FreshTable(na.at.map);
    if (table == nullptr || !table->has_bounds()) return bound;
    if (na.table_row >= 0)
      return std::max(bound, table->LowerBound(na.table_row, b));
    if (nb.table_row >= 0)
      return std::max(bound, table->LowerBound(nb.table_row, a));
    for (int i = 0; i < static_cast<int>(table->cells().size()); ++i) {
      if (!map.Connected(a, table->cells()[i])) continue;
      bound =
          std::max({bound, table->LowerBound(i, a) - table->UpperBound(i, b),
                    table->LowerBound(i, b) - table->UpperBound(i, a)});
    }
    return bound;
  }

  int NodeOf(const WorldCell& c) {
    auto [it, added] =
        ids_.try_emplace((uint64_t{static_cast<uint32_t>(c.map)} << 48) ^
                             (uint64_t{static_cast<uint32_t>(c.cell.y)} << 24) ^
                             static_cast<uint32_t>(c.cell.x),
                         static_cast<int>(nodes_.size()));
    if (added) {
      // The start and goal were pushed first without ids: a link end on
      // either is that node.
      for (int id : {0, 1}) {
        if (nodes_[id].at == c) {
          it->second = id;
          return id;
        }
      }
      nodes_.push_back(Node{c});
    }
    return it->second;
  }

  absl::Span<const WorldMapView> maps_;
  const WorldQuery& query_;
  std::vector<Node> nodes_;
  std::vector<std::vector<int>> by_map_;
  // Each node's edges within its map, once LeastRoute first ran.
  std::vector<std::vector<Edge>> edges_;
  absl::flat_hash_map<uint64_t, int> ids_;
  std::vector<LinkEdge> link_edges_;
  std::vector<std::vector<int>> out_links_;
  absl::flat_hash_map<uint64_t, Known> known_;
  // Lower bounds worked out so far (Weight), by node pair.
  mutable absl::flat_hash_map<uint64_t, double> lower_;
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

WorldLeg LegAt(const WorldCell& at) {
  WorldLeg leg;
  leg.map = at.map;
  return leg;
}

}  // namespace

absl::Status FindWorldPath(absl::Span<const WorldMapView> maps,
                           absl::Span<const WorldLink> links,
                           const WorldQuery& query, SearchContext& context,
                           WorldResult* result) {
  const auto began = std::chrono::steady_clock::now();
  *result = WorldResult();
  if (absl::Status s = ValidateWorldQuery(maps, query); !s.ok()) return s;
  for (size_t i = 0; i < links.size(); ++i) {
    for (const WorldCell* end : {&links[i].from, &links[i].to}) {
      if (end->map < 0 || static_cast<size_t>(end->map) >= maps.size() ||
          !maps[end->map].map->InBounds(end->cell)) {
        return absl::InvalidArgumentError(absl::StrCat(
            "links[", i, "]: an end lies outside the world's maps"));
      }
    }
  }
  if (!WorldReachable(maps, links, query)) {
    return absl::NotFoundError(absl::StrCat(
        "no path: no route of maps and usable links leads from the start (",
        query.start.cell.x, ", ", query.start.cell.y, ") on map ",
        query.start.map, " to the goal (", query.goal.cell.x, ", ",
        query.goal.cell.y, ") on map ", query.goal.map));
  }
  Graph graph(maps, links, query);
  std::vector<std::pair<int, int>> route;
  auto finish = [&] {
    result->micros = std::chrono::duration<double, std::micro>(
                         std::chrono::steady_clock::now() - began)
                         .count();
  };
  // Rounds: the least route over the current weights; its first lower
  // bound searched (alternately from the start's side and the goal's, so
  // neither end's guesses wait on the other's), until none is left.
  for (bool from_start = true;; from_start = !from_start) {
    ++result->rounds;
    if (!graph.LeastRoute(&route)) {
      finish();
      return absl::NotFoundError("no path: every route was searched out");
    }
    int pick = -1;
    for (size_t k = 1; k < route.size(); ++k) {
      const size_t i = from_start ? k : route.size() - k;
      if (route[i].second >= 0) continue;  // A link.
      bool exact = false;
      graph.Weight(route[i - 1].first, route[i].first, &exact);
      if (!exact) {
        pick = static_cast<int>(i);
        break;
      }
    }
    if (pick < 0) break;
    absl::StatusOr<bool> stopped =
        graph.Search(route[pick - 1].first, route[pick].first, context, result);
    if (!stopped.ok()) {
      finish();
      return stopped.status();
    }
    if (*stopped) break;
  }

  // The legs: consecutive steps within one map join into one leg; a link
  // closes it and the next leg starts where the link leads. Partial: the
  // route is followed while its legs were searched, through the search that
  // stopped (its path to the cell nearest the goal), and ends there.
  WorldLeg leg = LegAt(query.start);
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
    const int a = route[i - 1].first, b = route[i].first;
    if (route[i].second >= 0) {
      close_leg();
      result->links.push_back(graph.link_of(route[i].second));
      result->cost += graph.link_cost(route[i].second);
      leg_start = graph.node(b).at;
      leg = LegAt(leg_start);
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
      if (!stopped.ok()) {
        finish();
        return stopped.status();
      }
      if (*stopped) {
        AppendLeg(graph.last_result(), false, &leg);
        break;
      }
      r = graph.ResultOf(a, b, &reversed);
    }
    AppendLeg(*r, reversed, &leg);
  }
  close_leg();
  finish();
  return absl::OkStatus();
}

}  // namespace gridstar
