// DerivedStructure: one engine's precomputed structure for a map, as the
// code that keeps versions of maps drives it (derived_data.h): what it
// costs, building it, repairing it for a new version. Each engine with a
// structure defines its DerivedStructure in its folder
// (core/src/engines/<name>/) and hands it out through the engine registry
// for the DerivedOptions that ask for it.
//
// Whoever keeps versions of a map (the server's registry) asks these
// structures, not rules of its own, what a new version keeps: Repair takes
// the version before and what the changes did, and either keeps the old
// structure (landmarks stay admissible when costs only rise), repairs it, or
// rebuilds it. Every Status is returned, never dropped: a structure that
// cannot be built fails the registration or update that asked for it, and
// the map stays as it was.
//
// A structure that does not apply to a map (a jump table on a map of mixed
// costs, landmarks on a map with nothing passable) is absent from it, which
// every search handles (jps+ runs as jps or A*, alt as A*): that is not an
// error.
//
// Thread-safety: structures are stateless and may be shared. Build and
// Repair write the map they are given, which must not yet be shared between
// threads.

#ifndef GRIDSTAR_DERIVED_STRUCTURE_H_
#define GRIDSTAR_DERIVED_STRUCTURE_H_

#include <cstddef>

#include "absl/status/status.h"
#include "absl/status/statusor.h"
#include "absl/strings/string_view.h"
#include "gridstar/auto_choice.h"
#include "gridstar/grid_map.h"
#include "gridstar/map_update.h"
#include "gridstar/types.h"

namespace gridstar {

// What Build or Repair did to a structure of a map.
enum class DerivedOutcome {
  kBuilt,     // Computed from scratch.
  kRepaired,  // The version before's, recomputed where the changes reach.
  kKept,      // The version before's structure, shared as it is.
  kDeferred,  // Left out of this version, for its owner to build later.
  kAbsent,    // Does not apply to this map.
};

class DerivedStructure {
 public:
  virtual ~DerivedStructure() = default;

  // "jump_table", "landmarks": the request field that asks for it.
  virtual absl::string_view name() const = 0;
  // Whether `map` can carry it.
  virtual bool AppliesTo(const GridMap& map) const = 0;
  // Bytes it takes on `map` (0 where it does not apply), known before
  // building, so that limits are checked first.
  virtual size_t BytesFor(const GridMap& map) const = 0;
  // Bytes `map` holds of it now (0 when absent, or deferred).
  virtual size_t HeldBytes(const GridMap& map) const = 0;
  // Builds it into *map; kAbsent when it does not apply.
  virtual absl::StatusOr<DerivedOutcome> Build(GridMap* map) const = 0;
  // Brings *next, which is `previous` with changes applied (`summary` says
  // what they did), up to date: kKept when previous's structure serves next
  // as it is.
  virtual absl::StatusOr<DerivedOutcome> Repair(const GridMap& previous,
                                                const ChangeSummary& summary,
                                                GridMap* next) const = 0;
};

// What a map was registered to carry.
struct DerivedOptions {
  bool jump_table = false;
  // 0 = none, at most kMaxLandmarks, built for landmark_policy.
  int landmarks = 0;
  DiagonalPolicy landmark_policy = DiagonalPolicy::kNoCornerCutting;
  // When an update makes some cell cheaper (the old landmark distances are
  // no longer lower bounds), leave the new version without landmarks
  // (kDeferred; searches there run without them) instead of rebuilding
  // them inside the update: the owner rebuilds them off the update's path
  // (the server does, in the background).
  bool defer_landmark_rebuild = false;
  // After an update of a map whose version before had a jump table, leave
  // the new version without one (kDeferred; jps+ and auto run online jps
  // there, with the same answers) instead of repairing it inside the
  // update: the owner repairs it off the update's path, from the last
  // version with a table and the cells changed since (the server does, in
  // the background). A version before without a table is no help: the
  // table is built as without this option.
  bool defer_jump_table_repair = false;
  // The HPA* abstraction (Algorithm::kHpa) for hpa_policy: built at
  // registration, repaired inside each update for the clusters it reaches
  // (a one-cell change rebuilds at most five 64 x 64 clusters).
  bool hpa = false;
  DiagonalPolicy hpa_policy = DiagonalPolicy::kNoCornerCutting;
  // The subgoal graph (Algorithm::kSubgoal), on uniform-cost maps: built at
  // registration; an update that changes cells rebuilds it (no local
  // repair), or with defer_subgoal_graph_rebuild leaves the new version
  // without one (kDeferred; kSubgoal runs jps+ or jps there) for the owner
  // to build off the update's path (the server does, in the background).
  bool subgoal_graph = false;
  bool defer_subgoal_graph_rebuild = false;
  // Measure what kAuto runs on the map (auto_choice.h), after every other
  // structure is built, so that their engines race too. Measured at
  // registration only: new versions keep the choice (ApplyChanges carries
  // it; the repair reports kKept), an engine that stops applying (a table
  // deferred, a map no longer uniform) leaves kAuto to its rule there.
  bool measure_auto = false;
  AutoMeasureOptions auto_measure;
};

}  // namespace gridstar

#endif  // GRIDSTAR_DERIVED_STRUCTURE_H_
