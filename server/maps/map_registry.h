// MapRegistry: the server's registered maps, id -> immutable snapshot, and
// the lifecycle of each map's versions.
//
// Readers take a shared_ptr to the current snapshot under a mutex held only
// to copy the pointer, then search without any lock; a search in flight keeps
// the snapshot it started with. Writers (register, update, delete) of one map
// are serialised by that map's own lock, so a slow write (a 32-landmark
// build, a big file) never blocks writes to other maps. A write validates
// first, builds the new version aside (copy-on-write), asks the map's derived
// structures (core's derived_data.h) what the new version keeps, makes it
// durable through the MapStore when there is one, swaps it in, and only then
// returns. Any failure leaves the map at its old version.
//
// Limits (maps, total cells, derived bytes) are checked before anything is
// built; cells and map slots being registered are reserved meanwhile, so
// concurrent registrations cannot exceed them together.
//
// Thread-safety: every method may be called from any thread.
#ifndef GRIDSTAR_SERVER_MAP_REGISTRY_H_
#define GRIDSTAR_SERVER_MAP_REGISTRY_H_

#include <cstdint>
#include <functional>
#include <map>
#include <memory>
#include <mutex>  // std::mutex: TSan sees it (Debian's Abseil is not instrumented).
#include <string>
#include <utility>
#include <vector>

#include "absl/base/thread_annotations.h"
#include "absl/container/flat_hash_set.h"
#include "absl/functional/function_ref.h"
#include "absl/status/status.h"
#include "absl/status/statusor.h"
#include "absl/strings/string_view.h"
#include "absl/types/span.h"
#include "agents/agent_maps.h"
#include "gridstar/agents.h"
#include "gridstar/derived_data.h"
#include "gridstar/grid_map.h"
#include "gridstar/map_update.h"
#include "gridstar/types.h"
#include "store/map_store.h"

namespace gridstar::server {

struct MapSnapshot {
  MapSnapshot(std::string id_in, uint64_t version_in, MapOptions options_in,
              GridMap map_in)
      : id(std::move(id_in)),
        version(version_in),
        options(options_in),
        map(std::move(map_in)),
        agent_maps(std::make_shared<AgentMaps>(8)) {}

  std::string id;
  uint64_t version = 0;  // 1 at registration, +1 per change of content.
  MapOptions options;
  // The map as its default areas see it at agent size 1: what searches of
  // queries naming no agent class run on, and what every derived structure
  // (jump table, landmarks, HPA*) and MapInfo describe. The terrain itself
  // when the default areas take every cell as it is.
  GridMap map;
  // When the default areas block some cells (water and trees of Moving AI
  // maps): the terrain, every cell at its cost whatever its area. Null when
  // the terrain is `map`.
  std::shared_ptr<const GridMap> terrain;
  // Row-major area ids; null when every cell is in area 0.
  std::shared_ptr<const std::vector<uint8_t>> areas;
  // Agent maps of other classes (agents/agent_maps.h); never null.
  std::shared_ptr<AgentMaps> agent_maps;

  const GridMap& Terrain() const { return terrain != nullptr ? *terrain : map; }
  absl::Span<const uint8_t> AreaSpan() const {
    return areas == nullptr ? absl::Span<const uint8_t>() : *areas;
  }
  // Areas that may hold cells (area 0 only for a map without areas): the
  // `present` of CanonicalAgentClass.
  uint64_t areas_present() const { return areas == nullptr ? 1 : kAllAreas; }
  // The canonical class of a query naming none.
  AgentClass DefaultClass() const;
  // The map a query of `agent` (validated) searches: `map` (returned null)
  // for the default class at size 1, else the class's agent map, built now
  // when this version holds none (*built_micros, optional, says how long).
  // AgentCosts's errors.
  absl::StatusOr<std::shared_ptr<const GridMap>> AgentMapFor(
      const AgentClass& agent, double* built_micros = nullptr) const;
  // Bytes of the map, its terrain and its areas and agent maps.
  size_t MemoryBytes() const;
  // The cells of `map` the update that made this version changed (empty
  // for a registered version).
  std::vector<CellRect> view_rects;
  // What the build or repair of each derived structure did.
  std::vector<DerivedReport> derived;

  // Time spent building the named structure for this version; 0 when it was
  // kept from the version before or is absent.
  double BuildMicros(absl::string_view structure) const;
  // The structures asked for that this version runs without while the
  // registry's background job finishes them (an update deferred them:
  // DerivedOutcome::kDeferred; their engines run what they stand in for
  // meanwhile), each with what the job starts from (derived_data.h).
  // Empty when every structure is current.
  PendingStructures pending;
  // Whether the named structure is pending for this version.
  bool Pending(absl::string_view structure) const {
    return pending.find(structure) != pending.end();
  }
  // The content, as a store keeps it.
  StoredMap ToStored() const;
};

// Checks an id: 1 to 128 characters of [A-Za-z0-9_.-]. InvalidArgument
// naming `field` otherwise.
absl::Status ValidateMapId(absl::string_view id, absl::string_view field);

class MapRegistry {
 public:
  struct Limits {
    size_t max_maps = 1024;
    int64_t max_total_cells = int64_t{1} << 30;
    // Most bytes one map's opt-in derived data may take.
    size_t max_derived_bytes = size_t{1} << 30;
    // Agent maps one map version keeps besides the pinned ones
    // (agents/agent_maps.h).
    size_t max_agent_maps = 8;
    // What auto runs on a map is measured at registration and load
    // (auto_choice.h) on this many random queries, stopping after this much
    // wall time; 0 queries = not measured (auto's rule).
    int auto_measure_queries = 0;
    double auto_measure_micros = 500'000;
  };

  // A null store keeps maps in memory only.
  MapRegistry(std::unique_ptr<MapStore> store, Limits limits);

  // Loads every map the store holds. A map that cannot be read, or whose
  // derived data cannot be built, is reported in *errors and skipped.
  absl::Status LoadAll(std::vector<std::string>* errors);

  // Registers a map. Identical content (cells and options) under the same id
  // returns the existing snapshot; other content is AlreadyExists unless
  // `replace`, which makes the next version. ResourceExhausted beyond the
  // registry's limits (naming the flag); a store failure's own status.
  // `map` is the terrain (every cell at its cost whatever its area),
  // `areas` its area ids (empty: all 0), both validated.
  absl::StatusOr<std::shared_ptr<const MapSnapshot>> Register(
      const std::string& id, GridMap map, MapOptions options, bool replace,
      std::vector<uint8_t> areas = {});

  // Applies the changes in order as the next version. NotFound for an
  // unknown id; Aborted when expected_version != 0 and differs (a failed
  // test-and-set: read the map again and retry);
  // InvalidArgument naming field_of(i) for a change off the map (nothing
  // changes).
  // `area_changes` apply after `changes` (field_of names them from index
  // changes.size() on).
  absl::StatusOr<std::shared_ptr<const MapSnapshot>> Update(
      const std::string& id, const std::vector<CellChange>& changes,
      uint64_t expected_version,
      absl::FunctionRef<std::string(size_t)> field_of,
      const std::vector<AreaChange>& area_changes = {});

  absl::Status Delete(const std::string& id);

  // With a shared store (MapStore::NewFollower): brings map `id` to what
  // the store holds, as written through other replicas, without writing to
  // the store: applies the updates after the version held (as Update does,
  // derived data repaired the same way), installs new or replaced content
  // (derived data built), or drops a map deleted there. Under the map's
  // write lock, so it never interleaves with this replica's own writes.
  // Says what changed. A map whose stored data is corrupt keeps its
  // version here (DataLoss).
  struct Followed {
    enum class Kind { kNothing, kUpdates, kContent, kDropped };
    Kind kind = Kind::kNothing;
    // Versions this replica was behind (updates applied; for content, the
    // stored version less the one held, 0 for a map new here).
    uint64_t versions_behind = 0;
    // For content: reading it from the store and building the map.
    double load_seconds = 0;
  };
  absl::StatusOr<Followed> Follow(MapStoreFollower& follower,
                                  const std::string& id);

  // With a shared store: `loader` (a follower of its own) loads on first use
  // the maps this replica does not hold (FindOrLoad), and installing a map
  // that would pass max_total_cells first drops from memory the maps used
  // longest ago (they stay in the store; the next use loads them again).
  // `loaded` hears of each load. Call before LoadAll, which then leaves in
  // the store the maps past the limit.
  void SetStoreLoader(
      std::unique_ptr<MapStoreFollower> loader,
      std::function<void(const std::string& id, const Followed& what)> loaded);
  // Find for a caller about to use the map (it counts as used now); with a
  // store loader, a map stored but not held here is loaded first
  // (concurrent first calls load it once, under its write lock). Null when
  // there is no such map; the store's error (Unavailable: Redis away) when
  // it could not be asked.
  absl::StatusOr<std::shared_ptr<const MapSnapshot>> FindOrLoad(
      const std::string& id);
  bool shared_store() const { return loader_ != nullptr; }
  // With a store loader: every stored id and its version (held here or
  // not), ordered by id; empty without one.
  absl::StatusOr<std::vector<std::pair<std::string, uint64_t>>>
  StoredVersions();

  // Folds the map's updates into its stored content when the store asks for
  // it (MapStore::WantsCompaction). Called after an update was answered, so
  // that no caller waits for it. OK when there is nothing to do.
  absl::Status CompactIfWanted(const std::string& id);

  // Structures an update left out of its version (MapSnapshot::pending:
  // landmarks an update made no longer lower bounds, the jump table, the
  // subgoal graph after changed cells), and what the version's agent maps
  // wait for (AgentMaps::Pending), are finished off the update's path by
  // one job: after an update the caller asks ClaimRebuild (true at most
  // once until the job starts, so that jobs do not pile up) and, when true,
  // runs RebuildPending on a background thread. That finishes each pending
  // structure of the newest version in build order, through its
  // DerivedStructure's Repair from the pending entry's base and the
  // changes since (a jump table walks only the lines those reach, landmarks
  // and the subgoal graph are built again), without any lock held, and
  // installs each as soon as it is done: into that version (same version
  // number: structures are derived, not content), or, when newer versions
  // came meanwhile, as their new base (their repair then walks only their
  // own changes), and the call returns true: claim again. Once a newer
  // version exists the job starts no further structure, and a build that
  // polls DerivedOptions::abandon (the subgoal graph, the contraction
  // hierarchy) gives up (the call returns true: the next job finishes them
  // for the newest), so that a stream of updates never leaves the jump
  // table pending behind a slow build no query would use. A one-cell update
  // is so answered without the jump table's repair (up to ~8 ms of diagonal
  // walks on the 8192 x 8192 world), and the table follows within
  // milliseconds, before a subgoal graph rebuilt behind it.
  bool ClaimRebuild(const std::string& id);
  // Gives a claim back unused (the job could not be queued).
  void DropRebuildClaim(const std::string& id);
  absl::StatusOr<bool> RebuildPending(const std::string& id);
  // Runs `hook` in RebuildPending after a structure is finished, before it
  // is installed (tests: an update there makes the version newer). Set it
  // before any job runs.
  void SetBeforeInstallForTesting(std::function<void()> hook) {
    before_install_ = std::move(hook);
  }
  // Called each time a background build asks whether to give up (a newer
  // version), before it looks.
  void SetOnAbandonPollForTesting(std::function<void()> hook) {
    on_abandon_poll_ = std::move(hook);
  }

  // Null when unknown.
  std::shared_ptr<const MapSnapshot> Find(const std::string& id) const;
  // Ordered by id.
  std::vector<std::shared_ptr<const MapSnapshot>> List() const;

  // The store (null: in memory only), which the world registry writes
  // through too.
  MapStore* store() const { return store_.get(); }

  size_t map_count() const;
  int64_t total_cells() const;
  size_t memory_bytes() const;

 private:
  // One map id's write lock, held by the writers of that id. Entries live
  // while a writer holds them or the map exists.
  struct WriteEntry {
    std::mutex mu;
    int users = 0;  // Guarded by the registry's mu_.
  };
  class WriteLock;

  // The next version of `old` after `changes` (already validated), derived
  // data repaired or deferred as Update does. Not installed.
  absl::StatusOr<std::shared_ptr<MapSnapshot>> NextVersion(
      const std::shared_ptr<const MapSnapshot>& old,
      const std::vector<CellChange>& changes,
      const std::vector<AreaChange>& area_changes);
  // A new snapshot of `terrain` and `areas` (derived data built, default
  // agent sizes pinned). Not installed.
  absl::StatusOr<std::shared_ptr<MapSnapshot>> NewSnapshot(
      const std::string& id, uint64_t version, const MapOptions& options,
      GridMap terrain, std::vector<uint8_t> areas) const;
  // A snapshot of stored content, derived data built. Not installed.
  absl::StatusOr<std::shared_ptr<MapSnapshot>> SnapshotOfStored(
      const StoredMap& m) const;
  // Builds and pins the agent maps of the default areas at sizes 2 to
  // options.max_agent_size.
  static absl::Status PinDefaultSizes(const MapSnapshot& snapshot);

  // Limits checked and reserved for a registration that turns `old_cells`
  // (0 for a new id) into `cells`.
  absl::Status Reserve(bool new_id, int64_t old_cells, int64_t cells);
  void Unreserve(bool new_id, int64_t old_cells, int64_t cells);
  // Cells of the registered maps. REQUIRES: mu_ held.
  int64_t TotalCellsLocked() const ABSL_EXCLUSIVE_LOCKS_REQUIRED(mu_);
  void Swap(const std::string& id, std::shared_ptr<const MapSnapshot> next);
  // Installs the pending structure `report` names, finished into `map`
  // (target's map) from `base`: into the newest version of `id` when that
  // is target's version, else as the new base of the newest version's
  // pending entry (true: finish it again). Nothing when the newest version
  // no longer has that entry with that base (deleted, replaced, finished
  // meanwhile).
  bool InstallFinished(const std::string& id, const MapSnapshot& target,
                       const std::shared_ptr<const GridMap>& base, GridMap map,
                       const DerivedReport& report);
  // Takes map id out of memory (not out of the store). REQUIRES: held.
  void Drop(const std::string& id);
  // Ids whose background job (pending structures, agent maps) is claimed
  // and not yet started: Claim adds `id` to *claims when `pending`
  // and it is not there yet (true: the caller owns that work until it drops
  // the claim); DropClaim takes it out.
  bool Claim(absl::flat_hash_set<std::string>* claims, const std::string& id,
             bool pending);
  void DropClaim(absl::flat_hash_set<std::string>* claims,
                 const std::string& id);
  absl::flat_hash_set<std::string> rebuild_claims_ ABSL_GUARDED_BY(mu_);
  std::function<void()> before_install_;
  std::function<void()> on_abandon_poll_;
  // Drops the maps used longest ago, never `keep`, until `cells` more fit
  // under max_total_cells (or none is left to drop).
  void EvictFor(const std::string& keep, int64_t cells);
  std::unique_ptr<MapStoreFollower> loader_;
  std::function<void(const std::string&, const Followed&)> loaded_;

  const std::unique_ptr<MapStore> store_;
  const Limits limits_;
  mutable std::mutex mu_;  // Held only to read or swap the maps below.
  std::map<std::string, std::shared_ptr<const MapSnapshot>> maps_
      ABSL_GUARDED_BY(mu_);
  std::map<std::string, std::shared_ptr<WriteEntry>> writers_
      ABSL_GUARDED_BY(mu_);
  // When each map was last asked for by FindOrLoad (a use counter).
  std::map<std::string, uint64_t> last_used_ ABSL_GUARDED_BY(mu_);
  uint64_t uses_ ABSL_GUARDED_BY(mu_) = 0;
  int64_t reserved_cells_ ABSL_GUARDED_BY(mu_) = 0;
  size_t reserved_maps_ ABSL_GUARDED_BY(mu_) = 0;
};

}  // namespace gridstar::server

#endif  // GRIDSTAR_SERVER_MAP_REGISTRY_H_
