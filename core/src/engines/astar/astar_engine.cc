// A* and its two variants on the shared best-first loop (best_first.cc):
// kAStar (the octile heuristic scaled by the map's cheapest cost), kWeighted
// (f = g + w * h, an inconsistent heuristic) and kDijkstra (no heuristic).
// They serve every map and policy, and A* and Dijkstra are what the other
// engines fall back to.

#include "engines/engine.h"

namespace gridstar::internal {
namespace {

class AStarFamilyEngine final : public BestFirstEngine {
 public:
  explicit constexpr AStarFamilyEngine(Algorithm algorithm)
      : algorithm_(algorithm) {}
  Algorithm algorithm() const override { return algorithm_; }
  bool AutoCandidate(const GridMap&, DiagonalPolicy) const override {
    return algorithm_ == Algorithm::kAStar;
  }
  int auto_order() const override { return 5; }
  void Prepare(const GridMap& map, const PathQuery& query,
               SearchParams* params) const override {
    if (algorithm_ == Algorithm::kDijkstra) {
      params->h_scale = 0;
    } else if (algorithm_ == Algorithm::kWeighted) {
      params->h_scale = map.min_cost() * query.weight;
      params->consistent = false;
    }
  }

 private:
  const Algorithm algorithm_;
};

}  // namespace

template <>
const Engine& EngineFor<Algorithm::kAStar>() {
  static const AStarFamilyEngine engine(Algorithm::kAStar);
  return engine;
}

template <>
const Engine& EngineFor<Algorithm::kWeighted>() {
  static const AStarFamilyEngine engine(Algorithm::kWeighted);
  return engine;
}

template <>
const Engine& EngineFor<Algorithm::kDijkstra>() {
  static const AStarFamilyEngine engine(Algorithm::kDijkstra);
  return engine;
}

}  // namespace gridstar::internal
