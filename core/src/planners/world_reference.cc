// WorldDijkstraCost (world.h): Dijkstra over every cell of every map and
// the usable links, written from the cost model alone (move_cost.h), so it
// shares nothing with the search it checks.

#include <cstddef>
#include <cstdint>
#include <functional>
#include <limits>
#include <queue>
#include <utility>
#include <vector>

#include "absl/container/flat_hash_map.h"
#include "gridstar/world.h"
#include "planners/world_graph.h"

namespace gridstar {

double WorldDijkstraCost(absl::Span<const WorldMapView> maps,
                         absl::Span<const WorldLink> links,
                         const WorldQuery& query) {
  constexpr double kInfinity = std::numeric_limits<double>::infinity();
  constexpr double kSqrt2 = 1.41421356237309504880;
  // Global index: the map's offset plus the cell's row-major index.
  std::vector<uint64_t> offset(maps.size() + 1, 0);
  for (size_t m = 0; m < maps.size(); ++m) {
    offset[m + 1] = offset[m] + static_cast<uint64_t>(maps[m].map->width()) *
                                    maps[m].map->height();
  }
  auto index = [&](const WorldCell& c) {
    return offset[c.map] +
           static_cast<uint64_t>(c.cell.y) * maps[c.map].map->width() +
           c.cell.x;
  };
  absl::flat_hash_map<uint64_t, std::vector<std::pair<uint64_t, double>>> jumps;
  for (const internal::UsableLink& u :
       internal::UsableLinks(maps, links, query.agent)) {
    const WorldLink& link = links[u.index];
    jumps[index(link.from)].push_back({index(link.to), link.cost});
    if (link.both_ways) {
      jumps[index(link.to)].push_back({index(link.from), link.cost});
    }
  }
  const DiagonalPolicy policy = query.leg.movement.diagonal;
  std::vector<double> dist(offset.back(), kInfinity);
  using Entry = std::pair<double, uint64_t>;
  std::priority_queue<Entry, std::vector<Entry>, std::greater<Entry>> open;
  const uint64_t source = index(query.start), target = index(query.goal);
  dist[source] = 0;
  open.push({0, source});
  while (!open.empty()) {
    const double d = open.top().first;
    const uint64_t u = open.top().second;
    open.pop();
    if (d > dist[u]) continue;
    if (u == target) return d;
    auto relax = [&](uint64_t v, double w) {
      if (d + w < dist[v]) {
        dist[v] = d + w;
        open.push({dist[v], v});
      }
    };
    if (auto it = jumps.find(u); it != jumps.end()) {
      for (const auto& [v, w] : it->second) relax(v, w);
    }
    // u's map and cell, by the offsets.
    size_t m = 0;
    while (offset[m + 1] <= u) ++m;
    const GridMap& map = *maps[m].map;
    const uint64_t local = u - offset[m];
    const Cell c{static_cast<int32_t>(local % map.width()),
                 static_cast<int32_t>(local / map.width())};
    const double here = map.cost(c);
    for (int dir = 0; dir < 8; ++dir) {
      const Cell n{c.x + kMoveDx[dir], c.y + kMoveDy[dir]};
      if (!map.Passable(n)) continue;
      double step = 1;
      if (dir >= 4) {
        if (policy == DiagonalPolicy::kNever) continue;
        const bool side_a = map.Passable(Cell{n.x, c.y});
        const bool side_b = map.Passable(Cell{c.x, n.y});
        if (policy == DiagonalPolicy::kNoCornerCutting ? !(side_a && side_b)
                                                       : !(side_a || side_b)) {
          continue;
        }
        step = kSqrt2;
      }
      relax(offset[m] + static_cast<uint64_t>(n.y) * map.width() + n.x,
            step * (here + map.cost(n)) / 2);
    }
  }
  return kInfinity;
}

}  // namespace gridstar
