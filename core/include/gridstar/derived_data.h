// Derived data: the opt-in structures a map carries for faster searches
// (the jump table of jps+, the landmarks of alt, the abstraction of hpa, the
// measured choice of auto, the subgoal graph), each behind one interface
// (DerivedStructure, derived_structure.h) that says what it costs, builds
// it, and repairs it for a new version. Each engine's folder defines its
// own; this file asks the engine registry for those DerivedOptions names
// and drives them in one order.
//
// derived_structure.h says how a structure decides what a new version
// keeps (kept, repaired, rebuilt, deferred or absent) and that every error
// is returned.
//
// Thread-safety: as derived_structure.h says: Build and Repair write the
// map they are given, which must not yet be shared between threads.

#ifndef GRIDSTAR_DERIVED_DATA_H_
#define GRIDSTAR_DERIVED_DATA_H_

#include <cstddef>
#include <cstdint>
#include <functional>
#include <map>
#include <memory>
#include <string>
#include <utility>
#include <vector>

#include "absl/status/status.h"
#include "absl/status/statusor.h"
#include "absl/strings/string_view.h"
#include "absl/types/span.h"
#include "gridstar/auto_choice.h"
#include "gridstar/derived_structure.h"
#include "gridstar/grid_map.h"
#include "gridstar/map_update.h"
#include "gridstar/types.h"

namespace gridstar {

// InvalidArgument for a structure no engine keeps ("structures: ..."
// listing the known names), a count out of its range ("landmarks: 33 is out
// of range [0, 32]"), a policy ValidateMovement refuses ("<name> policy:
// ...") or auto_measure out of range ("auto_measure.queries: ...").
absl::Status ValidateDerivedOptions(const DerivedOptions& options);

// The names of the structures engines keep (DerivedStructure::name), in
// the order they are built.
std::vector<std::string> KnownStructureNames();

// The structures `options` asks for, in the order they are built.
std::vector<std::unique_ptr<const DerivedStructure>> DerivedStructuresFor(
    const DerivedOptions& options);

// One structure's part in a build or repair.
struct DerivedReport {
  std::string name;
  DerivedOutcome outcome = DerivedOutcome::kAbsent;
  double micros = 0;  // Time spent; 0 when kept or absent.
};

// Sum of BytesFor over the structures `options` asks for.
size_t DerivedBytesFor(const DerivedOptions& options, const GridMap& map);

// Builds every structure `options` asks for into *map, reporting each in
// *reports (cleared first). The first error stops and is returned.
absl::Status BuildDerived(const DerivedOptions& options, GridMap* map,
                          std::vector<DerivedReport>* reports);

// Repairs every structure `options` asks for into *next from `previous`.
// Those named in `still_deferred` (deferred in `previous`, which therefore
// lacks them, and not yet finished by the owner) are not asked: they are
// reported kDeferred where they apply to *next, kAbsent elsewhere.
absl::Status RepairDerived(const DerivedOptions& options,
                           const GridMap& previous,
                           const ChangeSummary& summary, GridMap* next,
                           std::vector<DerivedReport>* reports,
                           absl::Span<const std::string> still_deferred = {});

// Repairs into *next, from `previous` (an earlier version that carries
// them; `summary` says what the changes since did, MergeChangeSummaries of
// every update between), those of the structures `options` asks for whose
// name is in `names`: what updates deferred, finished off their path. Pass
// options without defer_slow_repairs. Reports each one in *reports (cleared
// first), in build order; the first error stops and is returned.
absl::Status RepairDerivedNamed(const DerivedOptions& options,
                                absl::Span<const std::string> names,
                                const GridMap& previous,
                                const ChangeSummary& summary, GridMap* next,
                                std::vector<DerivedReport>* reports);

// Gives *to the named structures `from` carries (DerivedStructure::Share).
// REQUIRES: the two maps have the same cells.
void ShareDerivedNamed(const DerivedOptions& options,
                       absl::Span<const std::string> names, const GridMap& from,
                       GridMap* to);

// A structure an update deferred (kDeferred) and what finishing it starts
// from: the newest earlier version's map that carried it, and each update
// since (the version it made, what it did), oldest first.
struct PendingDerived {
  std::shared_ptr<const GridMap> base;
  std::vector<std::pair<uint64_t, ChangeSummary>> changes;
};
// A version's pending structures by name (DerivedStructure::name).
using PendingStructures = std::map<std::string, PendingDerived, std::less<>>;

// The names in `pending`: RepairDerived's still_deferred for the version
// after it.
std::vector<std::string> PendingNames(const PendingStructures& pending);

// The pending structures of version `version`, made from `previous` (whose
// pending structures were `before`) by changes that did `summary`, its
// structures repaired with RepairDerived(..., PendingNames(before)) into
// `reports`: each kDeferred one, from its base in `before`, or from
// `previous` when newly deferred.
PendingStructures NextPending(const PendingStructures& before,
                              const GridMap& previous, uint64_t version,
                              const ChangeSummary& summary,
                              const std::vector<DerivedReport>& reports);

// Finishes pending structure `name` into *map (the version it is pending
// for: same cells) from its entry's base and every change since: its
// Repair, under `options` without defer_slow_repairs. Its report (kAbsent
// when `options` do not ask for it), or the error.
absl::StatusOr<DerivedReport> FinishPendingStructure(
    const DerivedOptions& options, absl::string_view name,
    const PendingDerived& entry, GridMap* map);

// What a run of updates did, as one: only_raised when each was,
// cells_changed summed (an upper bound: a cell changed twice counts twice),
// every rectangle.
ChangeSummary MergeChangeSummaries(absl::Span<const ChangeSummary> summaries);

}  // namespace gridstar

#endif  // GRIDSTAR_DERIVED_DATA_H_
