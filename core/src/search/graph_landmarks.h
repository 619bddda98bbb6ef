// Farthest-first landmarks of an explicit graph: the differential heuristic
// (Goldberg & Harrelson 2005) for graphs other than the grid (HPA*'s
// entrance graph, the subgoal graph), whose nodes are numbered 0..n-1 and
// whose edges a visitor lists.
//
// Thread-safety: a pure function of its arguments.

#ifndef GRIDSTAR_SRC_SEARCH_GRAPH_LANDMARKS_H_
#define GRIDSTAR_SRC_SEARCH_GRAPH_LANDMARKS_H_

#include <algorithm>
#include <cstdint>
#include <functional>
#include <limits>
#include <utility>
#include <vector>

namespace gridstar::internal {

// Picks up to `count` landmarks: the first is the node farthest from `seed`,
// each next the reached node farthest from the landmarks before. For
// landmark k, calls take(k, dist) with its distance to every node
// (infinity where not reached). for_each_edge(u, visit) calls
// visit(v, cost) for each edge u -> v (cost >= 0).
// REQUIRES: seed < n.
template <typename ForEachEdge, typename Take>
void FarthestFirstLandmarks(uint32_t n, uint32_t seed, int count,
                            const ForEachEdge& for_each_edge,
                            const Take& take) {
  constexpr double kInf = std::numeric_limits<double>::infinity();
  std::vector<double> dist(n);
  std::vector<std::pair<double, uint32_t>> heap;
  auto dijkstra = [&](uint32_t source) {
    std::fill(dist.begin(), dist.end(), kInf);
    heap.clear();
    dist[source] = 0;
    heap.emplace_back(0.0, source);
    while (!heap.empty()) {
      std::pop_heap(heap.begin(), heap.end(), std::greater<>());
      // (Plain variables: clang 14 cannot capture structured bindings.)
      const double d = heap.back().first;
      const uint32_t u = heap.back().second;
      heap.pop_back();
      if (d > dist[u]) continue;
      for_each_edge(u, [&](uint32_t v, double cost) {
        if (d + cost < dist[v]) {
          dist[v] = d + cost;
          heap.emplace_back(dist[v], v);
          std::push_heap(heap.begin(), heap.end(), std::greater<>());
        }
      });
    }
  };
  // The reached node of greatest key (`fallback` when none is reached).
  auto farthest = [&](const std::vector<double>& key, uint32_t fallback) {
    uint32_t best = fallback;
    double best_key = -1;
    for (uint32_t v = 0; v < n; ++v) {
      if (key[v] != kInf && key[v] > best_key) {
        best_key = key[v];
        best = v;
      }
    }
    return best;
  };
  dijkstra(seed);
  uint32_t next = farthest(dist, seed);
  std::vector<double> nearest(n, kInf);
  for (int k = 0; k < count; ++k) {
    dijkstra(next);
    for (uint32_t v = 0; v < n; ++v) nearest[v] = std::min(nearest[v], dist[v]);
    take(k, static_cast<const std::vector<double>&>(dist));
    next = farthest(nearest, next);
  }
}

}  // namespace gridstar::internal

#endif  // GRIDSTAR_SRC_SEARCH_GRAPH_LANDMARKS_H_
