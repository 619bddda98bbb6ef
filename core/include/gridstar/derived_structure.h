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
#include <functional>
#include <map>
#include <string>

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
  // The count a request of 0 stands for, and the largest one may ask for
  // (StructureRequest::count); 1 and 1 for a structure without a size.
  virtual int default_count() const { return 1; }
  virtual int max_count() const { return 1; }
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
  // Gives *to the structure `from` carries (none when `from` has none):
  // how an owner installs one built off an update's path. REQUIRES: the
  // two maps have the same cells.
  virtual void Share(const GridMap& from, GridMap* to) const = 0;
};

// One structure asked for.
struct StructureRequest {
  // How much of it, for a structure with a size (landmarks: how many, 1 to
  // kMaxLandmarks); 0 = the structure's default (DerivedStructure::
  // default_count). A structure without a size takes 0 or 1.
  int count = 0;
  // The policy it is built for, for a structure built for one (landmarks,
  // the HPA* abstraction; auto's measurement takes auto_measure.policy).
  DiagonalPolicy policy = DiagonalPolicy::kNoCornerCutting;

  friend bool operator==(const StructureRequest& a, const StructureRequest& b) {
    return a.count == b.count && a.policy == b.policy;
  }
};

// What a map was registered to carry: structures by name, so that an engine
// with a new structure adds no field here.
struct DerivedOptions {
  // By DerivedStructure::name(): "jump_table", "landmarks", "hpa",
  // "subgoal_graph", "auto_choice" (each engine folder says what its
  // structure is; ValidateDerivedOptions rejects names no engine keeps).
  std::map<std::string, StructureRequest, std::less<>> structures;
  // After an update, a structure whose repair is slow leaves the new
  // version without it (kDeferred; its engine runs what it stands in for
  // meanwhile, with the same answers for the exact ones) instead of
  // repairing it inside the update, for the owner to finish off the
  // update's path (the server does, in the background) from the newest
  // version that had it and the changes since. Each structure says what is
  // slow: landmarks when some cell got cheaper (no longer lower bounds), the
  // jump table whenever the version before had one, the subgoal graph when
  // cells changed. HPA* and auto's choice never defer.
  bool defer_slow_repairs = false;
  // How auto's choice ("auto_choice") is measured: after every other
  // structure is built, so that their engines race too; at registration
  // only (new versions keep the choice, an engine that stops applying
  // leaves kAuto to its rule there).
  AutoMeasureOptions auto_measure;
  // Polled by the slowest builds (the subgoal graph's, every 64 corners
  // scanned; the contraction hierarchy's, every 16 corners contracted) from
  // the thread building: once it returns true the build stops and answers
  // CANCELLED, leaving the map without the structure. Null: never. The
  // server's background jobs set it: a newer version of the map makes the
  // build moot.
  std::function<bool()> abandon;

  // The request for `name`, null when not asked for.
  const StructureRequest* Find(absl::string_view name) const {
    auto it = structures.find(name);
    return it == structures.end() ? nullptr : &it->second;
  }
  bool Asks(absl::string_view name) const { return Find(name) != nullptr; }
  // Asks for `name` (replacing an earlier request for it).
  DerivedOptions& Ask(absl::string_view name, StructureRequest request = {}) {
    structures[std::string(name)] = request;
    return *this;
  }
};

}  // namespace gridstar

#endif  // GRIDSTAR_DERIVED_STRUCTURE_H_
