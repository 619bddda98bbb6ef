// Bidirectional A* (bidirectional.cc): exact on every map and policy, one of
// auto's candidates everywhere.

#include "engines/engine.h"

namespace gridstar::internal {
namespace {

class BidirectionalEngine final : public Engine {
 public:
  Algorithm algorithm() const override { return Algorithm::kBidirectional; }
  bool AutoCandidate(const GridMap&, DiagonalPolicy) const override {
    return true;
  }
  int auto_order() const override { return 4; }
  void Run(const GridMap& map, const PathQuery& query,
           const SearchParams& params, SearchState& state,
           PathResult* result) const override {
    RunBidirectional(map, query.movement.diagonal, params, state, result);
  }
};

}  // namespace

GRIDSTAR_DEFINE_ENGINE(kBidirectional, BidirectionalEngine)

}  // namespace gridstar::internal
