// Landmarks of HPA*'s entrance graph: the differential heuristic (Goldberg
// & Harrelson 2005) over the abstract graph, so that its A* expands the
// entrances near the best abstract path rather than every entrance the
// octile bound cannot rule out.

#include <limits>
#include <memory>
#include <vector>

#include "engines/hpa/hpa.h"
#include "search/graph_landmarks.h"

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
  std::vector<float> from(size_t{n} * kHpaLandmarks,
                          std::numeric_limits<float>::infinity());
  FarthestFirstLandmarks(
      n, 0, kHpaLandmarks,
      [&](uint32_t u, const auto& visit) {
        const int32_t c = cluster_of[u];
        ForEachNeighbour(c, u - offsets_[c],
                         [&](int32_t c2, uint32_t j, double cost) {
                           visit(offsets_[c2] + j, cost);
                         });
      },
      [&](int k, const std::vector<double>& dist) {
        for (uint32_t v = 0; v < n; ++v) {
          if (dist[v] != std::numeric_limits<double>::infinity()) {
            from[size_t{v} * kHpaLandmarks + k] = static_cast<float>(dist[v]);
          }
        }
      });
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
