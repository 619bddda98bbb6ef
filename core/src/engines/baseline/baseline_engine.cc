// The textbook yardstick (baseline.cc): serves every map and policy.

#include "engines/engine.h"

namespace gridstar::internal {
namespace {

class BaselineEngine final : public Engine {
 public:
  Algorithm algorithm() const override { return Algorithm::kBaseline; }
  void Run(const GridMap& map, const PathQuery& query,
           const SearchParams& params, SearchState& state,
           PathResult* result) const override {
    RunBaseline(map, query.movement.diagonal, params, state, result);
  }
};

}  // namespace

GRIDSTAR_DEFINE_ENGINE(kBaseline, BaselineEngine)

}  // namespace gridstar::internal
