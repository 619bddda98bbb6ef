// A* with the differential heuristic of the map's landmarks (landmarks.cc),
// on the shared best-first loop: served when the landmarks were built for the
// query's policy and reach its goal; A* otherwise.

#include "engines/alt/landmarks.h"
#include "engines/engine.h"
#include "gridstar/engines/alt.h"

namespace gridstar::internal {
namespace {

class AltEngine final : public BestFirstEngine {
 public:
  absl::string_view serves() const override {
    return "the policy the map's landmarks were built for (the map's default), "
           "goals they reach";
  }
  Algorithm algorithm() const override { return Algorithm::kAlt; }
  Algorithm Resolve(const GridMap& map, const PathQuery& query) const override {
    const DiagonalPolicy policy = query.movement.diagonal;
    const Cell goal = query.goal;
    const Landmarks* landmarks = LandmarksOf(map);
    const bool serves = landmarks != nullptr && landmarks->policy() == policy &&
                        map.Passable(goal) &&
                        landmarks->distances(map.PaddedIndex(goal))[0] >= 0;
    return serves ? Algorithm::kAlt : Algorithm::kAStar;
  }
  bool AutoCandidate(const GridMap& map, DiagonalPolicy policy) const override {
    const Landmarks* landmarks = LandmarksOf(map);
    return landmarks != nullptr && landmarks->policy() == policy;
  }
  int auto_order() const override { return 3; }
  absl::string_view structure_name() const override { return kLandmarksName; }
  std::unique_ptr<const DerivedStructure> Structure(
      const DerivedOptions& options) const override {
    return LandmarksStructure(options);
  }
  int structure_order() const override { return 0; }
  void Prepare(const GridMap& map, const PathQuery&,
               SearchParams* params) const override {
    const Landmarks* landmarks = LandmarksOf(map);
    params->landmarks = landmarks->distances(0);
    params->goal_landmarks = landmarks->distances(params->goal);
    params->landmark_count = landmarks->count();
  }
};

}  // namespace

GRIDSTAR_DEFINE_ENGINE(kAlt, AltEngine)

}  // namespace gridstar::internal
