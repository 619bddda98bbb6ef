// Jump point search (jps.cc): kJps scans the map's bit lines online, kJpsPlus
// reads the map's precomputed jump table. Both are exact only on
// uniform-cost maps under kNoCornerCutting (they prune by the symmetry of
// equal-cost moves); elsewhere they stand in for A*. kJpsPlus without a
// table runs as kJps.

#include "engines/engine.h"
#include "engines/jps/jps.h"
#include "gridstar/engines/jps.h"

namespace gridstar::internal {
namespace {

// Whether jump point search is exact for `policy` on `map`.
bool Jumps(const GridMap& map, DiagonalPolicy policy) {
  return map.uniform_cost() && policy == DiagonalPolicy::kNoCornerCutting;
}

class JpsEngine final : public Engine {
 public:
  absl::string_view serves() const override { return "uniform-cost maps only"; }
  Algorithm algorithm() const override { return Algorithm::kJps; }
  Algorithm Resolve(const GridMap& map, const PathQuery& query) const override {
    return Jumps(map, query.movement.diagonal) ? Algorithm::kJps
                                               : Algorithm::kAStar;
  }
  bool AutoCandidate(const GridMap& map, DiagonalPolicy policy) const override {
    return Jumps(map, policy);
  }
  int auto_order() const override { return 2; }
  void Run(const GridMap& map, const PathQuery&, const SearchParams& params,
           SearchState& state, PathResult* result) const override {
    RunJps(map, params, state, result);
  }
};

class JpsPlusEngine final : public Engine {
 public:
  absl::string_view serves() const override {
    return "uniform-cost maps only, with the map's jump table";
  }
  Algorithm algorithm() const override { return Algorithm::kJpsPlus; }
  Algorithm Resolve(const GridMap& map, const PathQuery& query) const override {
    if (!Jumps(map, query.movement.diagonal)) return Algorithm::kAStar;
    return JumpTableOf(map) != nullptr ? Algorithm::kJpsPlus : Algorithm::kJps;
  }
  bool AutoCandidate(const GridMap& map, DiagonalPolicy policy) const override {
    return Jumps(map, policy) && JumpTableOf(map) != nullptr;
  }
  int auto_order() const override { return 1; }
  absl::string_view structure_name() const override { return kJumpTableName; }
  std::unique_ptr<const DerivedStructure> Structure(
      const DerivedOptions& options) const override {
    return JumpTableStructure(options);
  }
  int structure_order() const override { return 1; }
  void Run(const GridMap& map, const PathQuery&, const SearchParams& params,
           SearchState& state, PathResult* result) const override {
    RunJpsPlus(map, params, state, result);
  }
};

}  // namespace

GRIDSTAR_DEFINE_ENGINE(kJps, JpsEngine)

GRIDSTAR_DEFINE_ENGINE(kJpsPlus, JpsPlusEngine)

}  // namespace gridstar::internal
