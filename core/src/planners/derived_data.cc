#include "gridstar/derived_data.h"

#include <algorithm>
#include <chrono>
#include <memory>
#include <vector>

#include "absl/strings/str_cat.h"
#include "engines/engine.h"
#include "gridstar/query.h"
#include "gridstar/structures.h"

namespace gridstar {
namespace {

double MicrosSince(std::chrono::steady_clock::time_point t0) {
  return std::chrono::duration<double, std::micro>(
             std::chrono::steady_clock::now() - t0)
      .count();
}

// Runs `step` on each structure `options` asks for whose name `wanted`
// accepts, reporting each.
template <typename Wanted, typename Step>
absl::Status ForEachStructure(const DerivedOptions& options,
                              std::vector<DerivedReport>* reports,
                              const Wanted& wanted, const Step& step) {
  reports->clear();
  for (const auto& structure : DerivedStructuresFor(options)) {
    if (!wanted(structure->name())) continue;
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
  if (options.landmarks < 0 || options.landmarks > kMaxLandmarks) {
    return absl::InvalidArgumentError(
        absl::StrCat("landmarks: ", options.landmarks, " is out of range [0, ",
                     kMaxLandmarks, "]"));
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
  // The engines in structure_order(), sorted once.
  static const std::vector<const internal::Engine*>* const kByOrder = [] {
    auto* engines = new std::vector<const internal::Engine*>(
        internal::AllEngines().begin(), internal::AllEngines().end());
    std::stable_sort(engines->begin(), engines->end(),
                     [](const internal::Engine* a, const internal::Engine* b) {
                       return a->structure_order() < b->structure_order();
                     });
    return engines;
  }();
  std::vector<std::unique_ptr<const DerivedStructure>> out;
  for (const internal::Engine* engine : *kByOrder) {
    if (auto structure = engine->Structure(options); structure != nullptr) {
      out.push_back(std::move(structure));
    }
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
  return ForEachStructure(
      options, reports, [](absl::string_view) { return true; },
      [&](const DerivedStructure& s) { return s.Build(map); });
}

absl::Status BuildDerivedNamed(const DerivedOptions& options,
                               absl::Span<const std::string> names,
                               GridMap* map,
                               std::vector<DerivedReport>* reports) {
  return ForEachStructure(
      options, reports,
      [&](absl::string_view name) {
        return std::find(names.begin(), names.end(), name) != names.end();
      },
      [&](const DerivedStructure& s) { return s.Build(map); });
}

absl::Status RepairDerived(const DerivedOptions& options,
                           const GridMap& previous,
                           const ChangeSummary& summary, GridMap* next,
                           std::vector<DerivedReport>* reports) {
  return ForEachStructure(
      options, reports, [](absl::string_view) { return true; },
      [&](const DerivedStructure& s) {
        return s.Repair(previous, summary, next);
      });
}

}  // namespace gridstar
