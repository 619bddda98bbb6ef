// Landmarks of HPA*'s entrance graph: the differential heuristic (Goldberg
// & Harrelson 2005) over the abstract graph, so that its A* expands the
// entrances near the best abstract path rather than every entrance the
// octile bound cannot rule out.

#include <algorithm>
#include <functional>
#include <limits>
#include <memory>
#include <utility>
#include <vector>

#include "hpa/hpa.h"

namespace gridstar::internal {

void HpaAbstraction::BuildLandmarks() {
  const uint32_t n = node_count();
  if (n == 0) return;
  std::vector<int32_t> cluster_of(n);
  for (size_t c = 0; c < clusters_.size(); ++c) {
    for (uint32_t v = offsets_[c]; v < offsets_[c + 1]; ++v) {
      cluster_of[v] = static_cast<int32_t>(c);
    }
  }
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
      const int32_t c = cluster_of[u];
      ForEachNeighbour(c, u - offsets_[c],
                       [&](int32_t c2, uint32_t j, double cost) {
                         const uint32_t v = offsets_[c2] + j;
                         if (d + cost < dist[v]) {
                           dist[v] = d + cost;
                           heap.emplace_back(dist[v], v);
                           std::push_heap(heap.begin(), heap.end(),
                                          std::greater<>());
                         }
                       });
    }
  };
  // The node farthest (by `key`) among those reached; `key` is infinite
  // for nodes not reached.
  auto farthest = [&](const std::vector<double>& key) {
    uint32_t best = 0;
    double best_key = -1;
    for (uint32_t v = 0; v < n; ++v) {
      if (key[v] != kInf && key[v] > best_key) {
        best_key = key[v];
        best = v;
      }
    }
    return best;
  };
  std::vector<float> from(size_t{n} * kHpaLandmarks,
                          std::numeric_limits<float>::infinity());
  std::vector<double> nearest(n, kInf);
  dijkstra(0);
  uint32_t next = farthest(dist);
  for (int k = 0; k < kHpaLandmarks; ++k) {
    dijkstra(next);
    for (uint32_t v = 0; v < n; ++v) {
      if (dist[v] == kInf) continue;
      from[size_t{v} * kHpaLandmarks + k] = static_cast<float>(dist[v]);
      nearest[v] = std::min(nearest[v], dist[v]);
    }
    next = farthest(nearest);
  }
  for (size_t c = 0; c < clusters_.size(); ++c) {
    auto cluster = std::const_pointer_cast<HpaCluster>(clusters_[c]);
    cluster->landmarks.assign(
        from.begin() + static_cast<std::ptrdiff_t>(size_t{offsets_[c]} *
                                                   kHpaLandmarks),
        from.begin() + static_cast<std::ptrdiff_t>(size_t{offsets_[c + 1]} *
                                                   kHpaLandmarks));
  }
}

}  // namespace gridstar::internal
