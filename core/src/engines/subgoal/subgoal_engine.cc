// Subgoal graph search (subgoal_graph.h): served on uniform-cost maps under
// kNoCornerCutting when the map carries its graph; otherwise kSubgoal runs
// what kJpsPlus would. The contraction tier (contraction.h): served the same
// way when the map carries its hierarchy; otherwise kContraction runs what
// kSubgoal would.

#include "engines/engine.h"
#include "engines/subgoal/contraction.h"
#include "engines/subgoal/subgoal_graph.h"
#include "gridstar/engines/subgoal.h"

namespace gridstar::internal {
namespace {

bool GraphServes(const GridMap& map, DiagonalPolicy policy) {
  return SubgoalGraphOf(map) != nullptr && map.uniform_cost() &&
         policy == DiagonalPolicy::kNoCornerCutting;
}

class SubgoalEngine final : public Engine {
 public:
  absl::string_view serves() const override {
    return "uniform-cost maps under no-corner-cutting, with the map's subgoal "
           "graph";
  }
  Algorithm algorithm() const override { return Algorithm::kSubgoal; }
  Algorithm Resolve(const GridMap& map, const PathQuery& query) const override {
    return GraphServes(map, query.movement.diagonal) ? Algorithm::kSubgoal
                                                     : Algorithm::kJpsPlus;
  }
  bool AutoCandidate(const GridMap& map, DiagonalPolicy policy) const override {
    return GraphServes(map, policy);
  }
  int auto_order() const override { return 0; }
  absl::string_view structure_name() const override {
    return kSubgoalGraphName;
  }
  std::unique_ptr<const DerivedStructure> Structure(
      const DerivedOptions& options) const override {
    return SubgoalGraphStructure(options);
  }
  int structure_order() const override { return 3; }
  void Run(const GridMap& map, const PathQuery&, const SearchParams& params,
           SearchState& state, PathResult* result) const override {
    RunSubgoal(map, *SubgoalGraphOf(map), params, state, result);
  }
};

bool HierarchyServes(const GridMap& map, DiagonalPolicy policy) {
  return ContractionOf(map) != nullptr && map.uniform_cost() &&
         policy == DiagonalPolicy::kNoCornerCutting;
}

class ContractionEngine final : public Engine {
 public:
  absl::string_view serves() const override {
    return "uniform-cost maps under no-corner-cutting, with the map's "
           "contraction hierarchy";
  }
  Algorithm algorithm() const override { return Algorithm::kContraction; }
  Algorithm Resolve(const GridMap& map, const PathQuery& query) const override {
    return HierarchyServes(map, query.movement.diagonal)
               ? Algorithm::kContraction
               : Algorithm::kSubgoal;
  }
  bool AutoCandidate(const GridMap& map, DiagonalPolicy policy) const override {
    return HierarchyServes(map, policy);
  }
  int auto_order() const override { return 0; }
  absl::string_view structure_name() const override { return kContractionName; }
  std::unique_ptr<const DerivedStructure> Structure(
      const DerivedOptions& options) const override {
    return ContractionStructure(options);
  }
  // After the subgoal graph, which it shares when the map asks for both.
  int structure_order() const override { return 4; }
  void Run(const GridMap& map, const PathQuery&, const SearchParams& params,
           SearchState& state, PathResult* result) const override {
    RunContraction(map, *ContractionOf(map), params, state, result);
  }
};

}  // namespace

GRIDSTAR_DEFINE_ENGINE(kSubgoal, SubgoalEngine)
GRIDSTAR_DEFINE_ENGINE(kContraction, ContractionEngine)

}  // namespace gridstar::internal
