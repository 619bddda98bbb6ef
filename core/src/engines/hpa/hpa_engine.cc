// HPA* on the map's abstraction (hpa.h): served when the map carries one for
// the query's policy; without it, kHpa runs what kAuto would.

#include "engines/engine.h"
#include "engines/hpa/hpa.h"
#include "gridstar/engines/hpa.h"

namespace gridstar::internal {
namespace {

class HpaEngine final : public Engine {
 public:
  absl::string_view serves() const override {
    return "the policy the map's HPA* abstraction was built for (the map's "
           "default)";
  }
  Algorithm algorithm() const override { return Algorithm::kHpa; }
  Algorithm Resolve(const GridMap& map, const PathQuery& query) const override {
    const HpaAbstraction* hpa = HpaOf(map);
    return hpa != nullptr && hpa->policy() == query.movement.diagonal
               ? Algorithm::kHpa
               : Algorithm::kAuto;
  }
  absl::string_view structure_name() const override { return kHpaName; }
  std::unique_ptr<const DerivedStructure> Structure(
      const DerivedOptions& options) const override {
    return HpaStructure(options);
  }
  int structure_order() const override { return 2; }
  void Run(const GridMap& map, const PathQuery&, const SearchParams& params,
           SearchState& state, PathResult* result) const override {
    RunHpa(map, *HpaOf(map), params, state, result);
  }
};

}  // namespace

GRIDSTAR_DEFINE_ENGINE(kHpa, HpaEngine)

}  // namespace gridstar::internal
