// kAuto: the fastest exact engine for the map and query. The engine measured
// fastest on the map (AutoChoiceOf, auto_choice.h) answers when the
// query is under the measured policy and that engine serves it as asked;
// else, by rule, jps+, else jps, else alt, else A*. Auto never runs a search
// of its own: it always resolves to another engine.

#include <memory>

#include "engines/engine.h"
#include "gridstar/auto_choice.h"

namespace gridstar::internal {
namespace {

// What kAuto runs, measured on the map (auto_choice.h): no bytes to speak
// of; built last, so that every other structure's engine is a candidate.
class AutoChoiceDerived final : public DerivedStructure {
 public:
  explicit AutoChoiceDerived(const AutoMeasureOptions& options)
      : options_(options) {}
  absl::string_view name() const override { return kAutoChoiceName; }
  size_t HeldBytes(const GridMap& map) const override {
    return AutoChoiceBytes(map);
  }
  bool AppliesTo(const GridMap& map) const override {
    return map.passable_count() >= 2;
  }
  size_t BytesFor(const GridMap&) const override { return 0; }
  absl::StatusOr<DerivedOutcome> Build(GridMap* map) const override {
    if (!AppliesTo(*map)) return DerivedOutcome::kAbsent;
    SetAutoChoice(map, std::make_shared<const AutoChoice>(
                           MeasureAutoChoice(*map, options_)));
    return DerivedOutcome::kBuilt;
  }
  absl::StatusOr<DerivedOutcome> Repair(const GridMap& previous,
                                        const ChangeSummary&,
                                        GridMap* next) const override {
    // Versions keep the registration's measurement (never timed inside an
    // update): ApplyChanges carries it, and so does this for a version made
    // otherwise.
    if (AutoChoiceOf(*next) == nullptr && AutoChoiceOf(previous) != nullptr) {
      next->Attach(Algorithm::kAuto,
                   previous.shared_attachment(Algorithm::kAuto));
    }
    return AutoChoiceOf(*next) != nullptr ? DerivedOutcome::kKept
                                          : DerivedOutcome::kAbsent;
  }
  void Share(const GridMap& from, GridMap* to) const override {
    to->Attach(Algorithm::kAuto, from.shared_attachment(Algorithm::kAuto));
  }

 private:
  const AutoMeasureOptions options_;
};

// Never runs a search (Resolve never answers kAuto); were it asked to, it
// would search as A* does.
class AutoEngine final : public BestFirstEngine {
 public:
  Algorithm algorithm() const override { return Algorithm::kAuto; }
  Algorithm Resolve(const GridMap& map, const PathQuery& query) const override {
    if (const AutoChoice* choice = AutoChoiceOf(map);
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
  absl::string_view structure_name() const override { return kAutoChoiceName; }
  std::unique_ptr<const DerivedStructure> Structure(
      const DerivedOptions& options) const override {
    if (!options.Asks(kAutoChoiceName)) return nullptr;
    return std::make_unique<AutoChoiceDerived>(options.auto_measure);
  }
  int structure_order() const override { return 9; }
};

}  // namespace

GRIDSTAR_DEFINE_ENGINE(kAuto, AutoEngine)

}  // namespace gridstar::internal
