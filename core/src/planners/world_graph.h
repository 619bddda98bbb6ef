// What the world's search (world_search.cc), its reference
// (world_reference.cc) and its checks (world_links.cc) share.
//
// Thread-safety: pure functions.

#ifndef GRIDSTAR_SRC_PLANNERS_WORLD_GRAPH_H_
#define GRIDSTAR_SRC_PLANNERS_WORLD_GRAPH_H_

#include <algorithm>
#include <cstdint>
#include <functional>
#include <limits>
#include <queue>
#include <utility>
#include <vector>

#include "absl/container/flat_hash_map.h"
#include "absl/types/span.h"
#include "gridstar/agents.h"
#include "gridstar/grid_map.h"
#include "gridstar/world.h"

namespace gridstar::internal {

struct UsableLink {
  // Index into the world's links.
  int32_t index = 0;
};

// The links `agent` may use now (LinkAdmits) whose both ends are passable
// on the views' maps, in the order of `links`. REQUIRES: every link's ends
// lie on the maps (ValidateWorldLinks).
std::vector<UsableLink> UsableLinks(absl::Span<const WorldMapView> maps,
                                    absl::Span<const WorldLink> links,
                                    const AgentClass& agent);

// A node of the abstract graph: a link end, or a query's start or goal.
struct WorldNode {
  WorldCell at;
  // Row of `at` in its map's fresh table, or -1.
  int table_row = -1;
};

// An edge between two nodes of one map, and whether its weight is exact or
// a lower bound.
struct WeightedEdge {
  int to = 0;
  double weight = 0;
  bool exact = false;
};

// A usable link, from the node that has it.
struct LinkArc {
  int to = 0;
  double cost = 0;
  int link = 0;  // Index into the world's links.
};

// What a world's abstract graph holds that no query's ends change
// (WorldIndex's data): the link ends as nodes 0..n-1, their links, the
// weights between ends of one map, the component graph, and with all
// pairs, the least costs between ends.
struct WorldIndexData {
  // The maps as built from (copies share storage: their identity is the
  // version), and the tables fresh for them under `policy`.
  std::vector<GridMap> maps;
  std::vector<const LinkEndTable*> tables;
  DiagonalPolicy policy = DiagonalPolicy::kNoCornerCutting;
  AgentClass agent;
  std::vector<WorldNode> nodes;
  std::vector<std::vector<int>> by_map;
  std::vector<std::vector<LinkArc>> arcs;
  std::vector<std::vector<WeightedEdge>> edges;
  // Every edge between ends is exact (a fresh table on every map with
  // ends).
  bool all_exact = true;
  // With all pairs (all_exact): the least cost from node u to node v at
  // [u * n + v], and the step into v on that way: the node before it and
  // the link taken (-1: an edge within a map).
  std::vector<double> distance;
  std::vector<int> before;
  std::vector<int> before_link;
  // Components of the maps (as (map << 32 | component)) met at link ends,
  // numbered, and the usable links between them.
  absl::flat_hash_map<uint64_t, int> component_id;
  std::vector<std::vector<int>> component_arcs;

  int size() const { return static_cast<int>(nodes.size()); }
  // The table of map m, or null.
  const LinkEndTable* table(int m) const { return tables[m]; }
  // The weight of the edge between cells a and b of map m (rows: their
  // rows in the map's table, or -1): exact from the table when both have
  // rows (*exact set), else a lower bound (octile distance times the map's
  // cheapest cost, raised by the table's block bounds); infinite (and
  // exact) across components.
  double EdgeWeight(int m, Cell a, int row_a, Cell b, int row_b,
                    bool* exact) const;
  uint64_t ComponentKey(const WorldCell& c) const {
    return (uint64_t{static_cast<uint32_t>(c.map)} << 32) |
           maps[c.map].component(c.cell);
  }
  // The cost of link `link` from node `from` to node `to` (one of from's
  // arcs).
  double LinkCost(int from, int to, int link) const {
    for (const LinkArc& a : arcs[from]) {
      if (a.to == to && a.link == link) return a.cost;
    }
    return 0;
  }
};

// Dijkstra over abstract nodes 0..n-1 from `source`, stopping once
// `target` is settled (-1: once every node is): arcs(u, relax) offers u's
// arcs, relax(v, weight, link) with link -1 for an edge within a map.
// Fills dist (+infinity where not reached), before (the node each is
// reached from, -1 for the source and the unreached) and before_link (the
// link taken into it, -1 for an edge), each n long.
template <typename Arcs>
void AbstractDijkstra(int n, int source, int target, Arcs arcs, double* dist,
                      int* before, int* before_link) {
  std::fill(dist, dist + n, std::numeric_limits<double>::infinity());
  std::fill(before, before + n, -1);
  std::fill(before_link, before_link + n, -1);
  std::vector<bool> done(n, false);
  using Entry = std::pair<double, int>;
  std::priority_queue<Entry, std::vector<Entry>, std::greater<Entry>> open;
  dist[source] = 0;
  open.push({0, source});
  while (!open.empty()) {
    const double du = open.top().first;
    const int u = open.top().second;
    open.pop();
    if (done[u]) continue;
    done[u] = true;
    if (u == target) break;
    arcs(u, [&](int v, double w, int link) {
      if (done[v] || !(du + w < dist[v])) return;
      dist[v] = du + w;
      before[v] = u;
      before_link[v] = link;
      open.push({dist[v], v});
    });
  }
}

}  // namespace gridstar::internal

#endif  // GRIDSTAR_SRC_PLANNERS_WORLD_GRAPH_H_
