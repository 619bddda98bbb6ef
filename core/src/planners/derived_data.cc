#include "gridstar/derived_data.h"

#include <chrono>

#include "absl/strings/str_cat.h"
#include "gridstar/query.h"

namespace gridstar {
namespace {

double MicrosSince(std::chrono::steady_clock::time_point t0) {
  return std::chrono::duration<double, std::micro>(
             std::chrono::steady_clock::now() - t0)
      .count();
}

// Jump distances for jps+ (8 bytes a padded cell) on uniform-cost maps.
class JumpTableStructure final : public DerivedStructure {
 public:
  explicit JumpTableStructure(bool defer) : defer_(defer) {}
  absl::string_view name() const override { return "jump_table"; }
  size_t HeldBytes(const GridMap& map) const override {
    return map.JumpTableBytes();
  }
  bool AppliesTo(const GridMap& map) const override {
    return map.uniform_cost();
  }
  size_t BytesFor(const GridMap& map) const override {
    return AppliesTo(map)
               ? GridMap::JumpTableBytesFor(map.width(), map.height())
               : 0;
  }
  absl::StatusOr<DerivedOutcome> Build(GridMap* map) const override {
    if (!AppliesTo(*map)) return DerivedOutcome::kAbsent;
    if (absl::Status s = map->BuildJumpTable(); !s.ok()) return s;
    return DerivedOutcome::kBuilt;
  }
  absl::StatusOr<DerivedOutcome> Repair(const GridMap& previous,
                                        const ChangeSummary& summary,
                                        GridMap* next) const override {
    if (!AppliesTo(*next)) return DerivedOutcome::kAbsent;
    // Only passability matters to the table: any two uniform-cost versions
    // repair, whatever their cost.
    if (!previous.has_jump_table() || !previous.uniform_cost()) {
      return Build(next);
    }
    if (defer_) return DerivedOutcome::kDeferred;
    if (absl::Status s = next->RepairJumpTable(previous, summary.rects);
        !s.ok()) {
      return s;
    }
    return DerivedOutcome::kRepaired;
  }

 private:
  const bool defer_;
};

// The HPA* abstraction (engines/hpa/hpa.h) for one policy, on any map.
class HpaStructure final : public DerivedStructure {
 public:
  explicit HpaStructure(DiagonalPolicy policy) : policy_(policy) {}
  absl::string_view name() const override { return "hpa"; }
  size_t HeldBytes(const GridMap& map) const override {
    return map.HpaBytes();
  }
  bool AppliesTo(const GridMap&) const override { return true; }
  size_t BytesFor(const GridMap& map) const override {
    return map.HpaBytesFor();
  }
  absl::StatusOr<DerivedOutcome> Build(GridMap* map) const override {
    if (absl::Status s = map->BuildHpa(policy_); !s.ok()) return s;
    return DerivedOutcome::kBuilt;
  }
  absl::StatusOr<DerivedOutcome> Repair(const GridMap& previous,
                                        const ChangeSummary& summary,
                                        GridMap* next) const override {
    // Without the rectangles (ApplyChangesToCosts) or an abstraction for
    // this policy to start from, build.
    if (!previous.has_hpa() || previous.hpa_policy() != policy_ ||
        (summary.rects.empty() && summary.cells_changed > 0)) {
      return Build(next);
    }
    next->RepairHpaFrom(previous, summary.rects);
    return DerivedOutcome::kRepaired;
  }

 private:
  const DiagonalPolicy policy_;
};

// The subgoal graph (engines/subgoal/subgoal_graph.h) on uniform-cost maps.
class SubgoalGraphStructure final : public DerivedStructure {
 public:
  explicit SubgoalGraphStructure(bool defer) : defer_(defer) {}
  absl::string_view name() const override { return "subgoal_graph"; }
  size_t HeldBytes(const GridMap& map) const override {
    return map.SubgoalGraphBytes();
  }
  bool AppliesTo(const GridMap& map) const override {
    return map.uniform_cost();
  }
  size_t BytesFor(const GridMap& map) const override {
    return AppliesTo(map) ? map.SubgoalGraphBytesFor() : 0;
  }
  absl::StatusOr<DerivedOutcome> Build(GridMap* map) const override {
    if (!AppliesTo(*map)) return DerivedOutcome::kAbsent;
    if (absl::Status s = map->BuildSubgoalGraph(); !s.ok()) return s;
    return DerivedOutcome::kBuilt;
  }
  absl::StatusOr<DerivedOutcome> Repair(const GridMap& previous,
                                        const ChangeSummary& summary,
                                        GridMap* next) const override {
    if (!AppliesTo(*next)) return DerivedOutcome::kAbsent;
    if (summary.cells_changed == 0 && previous.has_subgoal_graph()) {
      next->ShareSubgoalGraphOf(previous);
      return DerivedOutcome::kKept;
    }
    if (defer_) return DerivedOutcome::kDeferred;
    return Build(next);
  }

 private:
  const bool defer_;
};

// Landmark distances for the differential heuristic (8 bytes a padded cell
// per landmark).
class LandmarkStructure final : public DerivedStructure {
 public:
  LandmarkStructure(int count, DiagonalPolicy policy, bool defer)
      : count_(count), policy_(policy), defer_(defer) {}
  absl::string_view name() const override { return "landmarks"; }
  size_t HeldBytes(const GridMap& map) const override {
    return map.LandmarkBytes();
  }
  bool AppliesTo(const GridMap& map) const override {
    return map.passable_count() > 0;
  }
  size_t BytesFor(const GridMap& map) const override {
    return AppliesTo(map) ? map.padded_size() * sizeof(double) *
                                static_cast<size_t>(count_)
                          : 0;
  }
  absl::StatusOr<DerivedOutcome> Build(GridMap* map) const override {
    if (!AppliesTo(*map)) return DerivedOutcome::kAbsent;
    if (absl::Status s = map->BuildLandmarks(count_, policy_); !s.ok()) {
      return s;
    }
    return DerivedOutcome::kBuilt;
  }
  absl::StatusOr<DerivedOutcome> Repair(const GridMap& previous,
                                        const ChangeSummary& summary,
                                        GridMap* next) const override {
    if (!AppliesTo(*next)) return DerivedOutcome::kAbsent;
    // Distances only grow when costs only rise: the old bounds stay
    // admissible and consistent, and nothing is searched.
    if (summary.only_raised && previous.landmark_count() == count_ &&
        previous.landmark_policy() == policy_) {
      next->ShareLandmarksOf(previous);
      return DerivedOutcome::kKept;
    }
    if (defer_) return DerivedOutcome::kDeferred;
    return Build(next);
  }

 private:
  const int count_;
  const DiagonalPolicy policy_;
  const bool defer_;
};

// What kAuto runs, measured on the map (auto_choice.h): no bytes to speak
// of; built last, so that every other structure's engine is a candidate.
class AutoChoiceStructure final : public DerivedStructure {
 public:
  explicit AutoChoiceStructure(const AutoMeasureOptions& options)
      : options_(options) {}
  absl::string_view name() const override { return "auto_choice"; }
  size_t HeldBytes(const GridMap& map) const override {
    const AutoChoice* choice = map.auto_choice();
    return choice == nullptr ? 0
                             : sizeof(*choice) + choice->candidates.capacity() *
                                                     sizeof(AutoCandidate);
  }
  bool AppliesTo(const GridMap& map) const override {
    return map.passable_count() >= 2;
  }
  size_t BytesFor(const GridMap&) const override { return 0; }
  absl::StatusOr<DerivedOutcome> Build(GridMap* map) const override {
    if (!AppliesTo(*map)) return DerivedOutcome::kAbsent;
    map->SetAutoChoice(
        std::make_shared<const AutoChoice>(MeasureAutoChoice(*map, options_)));
    return DerivedOutcome::kBuilt;
  }
  absl::StatusOr<DerivedOutcome> Repair(const GridMap& previous,
                                        const ChangeSummary&,
                                        GridMap* next) const override {
    // Versions keep the registration's measurement (never timed inside an
    // update).
    if (next->auto_choice() == nullptr && previous.auto_choice() != nullptr) {
      next->SetAutoChoice(previous.shared_auto_choice());
    }
    return next->auto_choice() != nullptr ? DerivedOutcome::kKept
                                          : DerivedOutcome::kAbsent;
  }

 private:
  const AutoMeasureOptions options_;
};

template <typename Step>
absl::Status ForEachStructure(const DerivedOptions& options,
                              std::vector<DerivedReport>* reports,
                              const Step& step) {
  reports->clear();
  for (const auto& structure : DerivedStructuresFor(options)) {
    DerivedReport report;
    report.name = std::string(structure->name());
    const auto t0 = std::chrono::steady_clock::now();
    absl::StatusOr<DerivedOutcome> outcome = step(*structure);
    if (!outcome.ok()) {
      return absl::Status(
          outcome.status().code(),
          absl::StrCat(structure->name(), ": ", outcome.status().message()));
    }
    report.outcome = *outcome;
    if (*outcome == DerivedOutcome::kBuilt ||
        *outcome == DerivedOutcome::kRepaired) {
      report.micros = MicrosSince(t0);
    }
    reports->push_back(std::move(report));
  }
  return absl::OkStatus();
}

}  // namespace

absl::Status ValidateDerivedOptions(const DerivedOptions& options) {
  if (options.landmarks < 0 || options.landmarks > GridMap::kMaxLandmarks) {
    return absl::InvalidArgumentError(
        absl::StrCat("landmarks: ", options.landmarks, " is out of range [0, ",
                     GridMap::kMaxLandmarks, "]"));
  }
  if (absl::Status s = ValidateMovement(MovementModel{options.landmark_policy});
      !s.ok()) {
    return s;
  }
  if (absl::Status s = ValidateMovement(MovementModel{options.hpa_policy});
      !s.ok()) {
    return absl::InvalidArgumentError(
        absl::StrCat("hpa_policy: ", s.message()));
  }
  if (options.measure_auto) {
    if (absl::Status s =
            ValidateMovement(MovementModel{options.auto_measure.policy});
        !s.ok()) {
      return absl::InvalidArgumentError(
          absl::StrCat("auto_measure.policy: ", s.message()));
    }
    if (options.auto_measure.queries < 1 || options.auto_measure.queries > 1000) {
      return absl::InvalidArgumentError(
          absl::StrCat("auto_measure.queries: ", options.auto_measure.queries,
                       " is out of range [1, 1000]"));
    }
  }
  return absl::OkStatus();
}

std::vector<std::unique_ptr<const DerivedStructure>> DerivedStructuresFor(
    const DerivedOptions& options) {
  std::vector<std::unique_ptr<const DerivedStructure>> out;
  if (options.landmarks > 0) {
    out.push_back(std::make_unique<LandmarkStructure>(
        options.landmarks, options.landmark_policy,
        options.defer_landmark_rebuild));
  }
  if (options.jump_table) {
    out.push_back(std::make_unique<JumpTableStructure>(
        options.defer_jump_table_repair));
  }
  if (options.hpa) {
    out.push_back(std::make_unique<HpaStructure>(options.hpa_policy));
  }
  if (options.subgoal_graph) {
    out.push_back(std::make_unique<SubgoalGraphStructure>(
        options.defer_subgoal_graph_rebuild));
  }
  if (options.measure_auto) {
    out.push_back(std::make_unique<AutoChoiceStructure>(options.auto_measure));
  }
  return out;
}

size_t DerivedBytesFor(const DerivedOptions& options, const GridMap& map) {
  size_t bytes = 0;
  for (const auto& structure : DerivedStructuresFor(options)) {
    bytes += structure->BytesFor(map);
  }
  return bytes;
}

absl::Status BuildDerived(const DerivedOptions& options, GridMap* map,
                          std::vector<DerivedReport>* reports) {
  return ForEachStructure(options, reports, [&](const DerivedStructure& s) {
    return s.Build(map);
  });
}

absl::Status RepairDerived(const DerivedOptions& options,
                           const GridMap& previous,
                           const ChangeSummary& summary, GridMap* next,
                           std::vector<DerivedReport>* reports) {
  return ForEachStructure(options, reports, [&](const DerivedStructure& s) {
    return s.Repair(previous, summary, next);
  });
}

}  // namespace gridstar
