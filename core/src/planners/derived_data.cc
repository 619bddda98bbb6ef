#include "gridstar/derived_data.h"

#include <algorithm>
#include <chrono>
#include <memory>
#include <vector>

#include "absl/strings/match.h"
#include "absl/strings/str_cat.h"
#include "absl/strings/str_join.h"
#include "engines/engine.h"
#include "gridstar/auto_choice.h"
#include "gridstar/query.h"

namespace gridstar {
namespace {

double MicrosSince(std::chrono::steady_clock::time_point t0) {
  return std::chrono::duration<double, std::micro>(
             std::chrono::steady_clock::now() - t0)
      .count();
}

bool Named(absl::Span<const std::string> names, absl::string_view name) {
  return std::find(names.begin(), names.end(), name) != names.end();
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
      // Named once: a structure's own messages may name it already.
      const absl::string_view message = outcome.status().message();
      if (absl::StartsWith(message, absl::StrCat(structure->name(), ":"))) {
        return outcome.status();
      }
      return absl::Status(outcome.status().code(),
                          absl::StrCat(structure->name(), ": ", message));
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

// Options asking for every structure some engine keeps.
DerivedOptions AllStructures() {
  DerivedOptions all;
  for (const internal::Engine* engine : internal::AllEngines()) {
    if (!engine->structure_name().empty()) all.Ask(engine->structure_name());
  }
  return all;
}

}  // namespace

std::vector<std::string> KnownStructureNames() {
  std::vector<std::string> names;
  for (const auto& structure : DerivedStructuresFor(AllStructures())) {
    names.emplace_back(structure->name());
  }
  return names;
}

absl::Status ValidateDerivedOptions(const DerivedOptions& options) {
  const std::vector<std::unique_ptr<const DerivedStructure>> structures =
      DerivedStructuresFor(options);
  for (const auto& [name, request] : options.structures) {
    const DerivedStructure* structure = nullptr;
    for (const auto& s : structures) {
      if (s->name() == name) structure = s.get();
    }
    if (structure == nullptr) {
      return absl::InvalidArgumentError(absl::StrCat(
          "structures: no engine keeps a structure named '", name,
          "' (known: ", absl::StrJoin(KnownStructureNames(), ", "), ")"));
    }
    if (request.count < 0 || request.count > structure->max_count()) {
      return absl::InvalidArgumentError(
          absl::StrCat(name, ": ", request.count, " is out of range [0, ",
                       structure->max_count(), "]"));
    }
    if (absl::Status s = ValidateMovement(MovementModel{request.policy});
        !s.ok()) {
      return absl::InvalidArgumentError(
          absl::StrCat(name, " policy: ", s.message()));
    }
  }
  if (options.Asks(kAutoChoiceName)) {
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

absl::Status RepairDerived(const DerivedOptions& options,
                           const GridMap& previous,
                           const ChangeSummary& summary, GridMap* next,
                           std::vector<DerivedReport>* reports,
                           absl::Span<const std::string> still_deferred) {
  return ForEachStructure(
      options, reports, [](absl::string_view) { return true; },
      [&](const DerivedStructure& s) -> absl::StatusOr<DerivedOutcome> {
        if (Named(still_deferred, s.name())) {
          return s.AppliesTo(*next) ? DerivedOutcome::kDeferred
                                    : DerivedOutcome::kAbsent;
        }
        return s.Repair(previous, summary, next);
      });
}

absl::Status RepairDerivedNamed(const DerivedOptions& options,
                                absl::Span<const std::string> names,
                                const GridMap& previous,
                                const ChangeSummary& summary, GridMap* next,
                                std::vector<DerivedReport>* reports) {
  return ForEachStructure(
      options, reports,
      [&](absl::string_view name) { return Named(names, name); },
      [&](const DerivedStructure& s) {
        return s.Repair(previous, summary, next);
      });
}

void ShareDerivedNamed(const DerivedOptions& options,
                       absl::Span<const std::string> names, const GridMap& from,
                       GridMap* to) {
  for (const auto& structure : DerivedStructuresFor(options)) {
    if (Named(names, structure->name())) structure->Share(from, to);
  }
}

std::vector<std::string> PendingNames(const PendingStructures& pending) {
  std::vector<std::string> names;
  for (const auto& [name, entry] : pending) names.push_back(name);
  return names;
}

PendingStructures NextPending(const PendingStructures& before,
                              const GridMap& previous, uint64_t version,
                              const ChangeSummary& summary,
                              const std::vector<DerivedReport>& reports) {
  PendingStructures next;
  std::shared_ptr<const GridMap> previous_copy;  // Shares every tile.
  for (const DerivedReport& r : reports) {
    if (r.outcome != DerivedOutcome::kDeferred) continue;
    PendingDerived& entry = next[r.name];
    if (auto it = before.find(r.name); it != before.end()) {
      entry = it->second;
    } else {
      if (previous_copy == nullptr) {
        previous_copy = std::make_shared<const GridMap>(previous);
      }
      entry.base = previous_copy;
    }
    entry.changes.emplace_back(version, summary);
  }
  return next;
}

absl::StatusOr<DerivedReport> FinishPendingStructure(
    const DerivedOptions& options, absl::string_view name,
    const PendingDerived& entry, GridMap* map) {
  std::vector<ChangeSummary> summaries;
  for (const auto& change : entry.changes) summaries.push_back(change.second);
  std::vector<DerivedReport> reports;
  const std::string names[] = {std::string(name)};
  if (absl::Status s =
          RepairDerivedNamed(options, names, *entry.base,
                             MergeChangeSummaries(summaries), map, &reports);
      !s.ok()) {
    return s;
  }
  if (reports.empty()) return DerivedReport{std::string(name)};
  return reports[0];
}

ChangeSummary MergeChangeSummaries(absl::Span<const ChangeSummary> summaries) {
  ChangeSummary merged;
  for (const ChangeSummary& s : summaries) {
    merged.only_raised = merged.only_raised && s.only_raised;
    merged.cells_changed += s.cells_changed;
    merged.rects.insert(merged.rects.end(), s.rects.begin(), s.rects.end());
  }
  return merged;
}

}  // namespace gridstar
