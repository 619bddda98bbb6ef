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
#include <memory>
#include <string>
#include <vector>

#include "absl/status/status.h"
#include "absl/status/statusor.h"
#include "absl/strings/string_view.h"
#include "absl/types/span.h"
#include "gridstar/auto_choice.h"
#include "gridstar/derived_structure.h"
#include "gridstar/grid_map.h"
#include "gridstar/map_update.h"
#include "gridstar/structures.h"
#include "gridstar/types.h"

namespace gridstar {

// InvalidArgument naming "landmarks" for a count out of range, or the
// policy as ValidateMovement does.
absl::Status ValidateDerivedOptions(const DerivedOptions& options);

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

// Builds into *map, from scratch, those of the structures `options` asks
// for whose name (DerivedStructure::name) is in `names`: what an update
// deferred, built off its path. Reports each built one in *reports
// (cleared first); the first error stops and is returned.
absl::Status BuildDerivedNamed(const DerivedOptions& options,
                               absl::Span<const std::string> names,
                               GridMap* map,
                               std::vector<DerivedReport>* reports);

// Repairs every structure `options` asks for into *next from `previous`.
absl::Status RepairDerived(const DerivedOptions& options,
                           const GridMap& previous,
                           const ChangeSummary& summary, GridMap* next,
                           std::vector<DerivedReport>* reports);

}  // namespace gridstar

#endif  // GRIDSTAR_DERIVED_DATA_H_
