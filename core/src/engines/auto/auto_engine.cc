// kAuto: the fastest exact engine for the map and query. The engine measured
// fastest on the map (GridMap::auto_choice, auto_choice.h) answers when the
// query is under the measured policy and that engine serves it as asked;
// else, by rule, jps+, else jps, else alt, else A*. Auto never runs a search
// of its own: it always resolves to another engine.

#include "engines/engine.h"
#include "gridstar/auto_choice.h"

namespace gridstar::internal {
namespace {

// Never runs a search (Resolve never answers kAuto); were it asked to, it
// would search as A* does.
class AutoEngine final : public BestFirstEngine {
 public:
  Algorithm algorithm() const override { return Algorithm::kAuto; }
  Algorithm Resolve(const GridMap& map, const PathQuery& query) const override {
    if (const AutoChoice* choice = map.auto_choice();
        choice != nullptr && choice->policy == query.movement.diagonal) {
      const Engine* chosen = FindEngine(choice->algorithm);
      if (chosen != nullptr && chosen != this &&
          chosen->Resolve(map, query) == choice->algorithm) {
        return choice->algorithm;
      }
    }
    // The rule: jump point search where it is exact (jps+ with a table),
    // else landmarks that reach the goal, else A*.
    const Algorithm jump =
        EngineFor<Algorithm::kJpsPlus>().Resolve(map, query);
    if (jump != Algorithm::kAStar) return jump;
    return EngineFor<Algorithm::kAlt>().Resolve(map, query);
  }
};

}  // namespace

GRIDSTAR_DEFINE_ENGINE(kAuto, AutoEngine)

}  // namespace gridstar::internal
