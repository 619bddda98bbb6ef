// A* with the differential heuristic of the map's landmarks (landmarks.cc),
// on the shared best-first loop: served when the landmarks were built for the
// query's policy and reach its goal; A* otherwise.

#include "engines/engine.h"

namespace gridstar::internal {
namespace {

class AltEngine final : public BestFirstEngine {
 public:
  Algorithm algorithm() const override { return Algorithm::kAlt; }
  Algorithm Resolve(const GridMap& map, const PathQuery& query) const override {
    const DiagonalPolicy policy = query.movement.diagonal;
    const Cell goal = query.goal;
    const bool serves =
        map.landmark_count() > 0 && map.landmark_policy() == policy &&
        map.Passable(goal) &&
        map.landmark_distances(map.PaddedIndex(goal))[0] >= 0;
    return serves ? Algorithm::kAlt : Algorithm::kAStar;
  }
  bool AutoCandidate(const GridMap& map, DiagonalPolicy policy) const override {
    return map.landmark_count() > 0 && map.landmark_policy() == policy;
  }
  int auto_order() const override { return 3; }
  void Prepare(const GridMap& map, const PathQuery&,
               SearchParams* params) const override {
    params->landmarks = map.landmark_distances(0);
    params->goal_landmarks = map.landmark_distances(params->goal);
    params->landmark_count = map.landmark_count();
  }
};

}  // namespace

GRIDSTAR_DEFINE_ENGINE(kAlt, AltEngine)

}  // namespace gridstar::internal
