// MapStore: where the registry makes maps durable. The registry talks to
// this interface only; it does not know whether a directory, an update log or
// Redis sits behind it.
//
// A store holds, per map id, the content at some version (cells, options)
// and the updates acknowledged since, in version order. Every write is
// durable when it returns OK (it survives kill -9 of the process); a write
// that fails leaves the store as it was, so the caller can keep the map at
// its old version. LoadAll returns every map at its latest acknowledged
// version. One contract test (tests/server/map_store_test.cc) runs against
// every implementation.
//
// Thread-safety: implementations are safe to call from any thread, but the
// registry serialises writes to one map id (its per-map lock), and a store
// may rely on that: two writes to the same id never overlap.
#ifndef GRIDSTAR_SERVER_STORE_MAP_STORE_H_
#define GRIDSTAR_SERVER_STORE_MAP_STORE_H_

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
#include "absl/time/time.h"
#include "gridstar/agents.h"
#include "gridstar/derived_data.h"
#include "gridstar/map_update.h"
#include "gridstar/types.h"

namespace gridstar::server {

// What a map was registered with besides its cells. Part of its content.
struct MapOptions {
  DiagonalPolicy default_diagonal = DiagonalPolicy::kNoCornerCutting;
  // The derived structures it carries wherever they apply (jps+'s jump
  // table, alt's landmarks, the HPA* abstraction, the subgoal graph, or any
  // engine's: DerivedStructure::name), each with its count
  // (StructureRequest::count, resolved: landmarks 1 to kMaxLandmarks, 1 for
  // a structure without a size), all built for default_diagonal.
  std::map<std::string, int, std::less<>> structures;
  // Areas a query naming none may enter (agents.h); the snapshot's map is
  // the terrain as that filter sees it.
  uint64_t default_areas = kAllAreas;
  // Agent sizes 2..max_agent_size under default_areas are built at
  // registration and kept (1 to kMaxAgentSize).
  int max_agent_size = 1;

  // Asks for `structure` with `count` (resolved, >= 1); 0 = not at all.
  MapOptions& Set(absl::string_view structure, int count) {
    if (count > 0) {
      structures[std::string(structure)] = count;
    } else {
      structures.erase(std::string(structure));
    }
    return *this;
  }
  // Whether it carries the named structure, and its count (0 when not).
  bool Asks(absl::string_view structure) const {
    return structures.find(structure) != structures.end();
  }
  int CountOf(absl::string_view structure) const {
    auto it = structures.find(structure);
    return it == structures.end() ? 0 : it->second;
  }

  // The derived structures these options ask for.
  DerivedOptions derived() const {
    DerivedOptions d;
    for (const auto& [name, count] : structures) {
      d.Ask(name, {count, default_diagonal});
    }
    return d;
  }

  friend bool operator==(const MapOptions& a, const MapOptions& b) {
    return a.default_diagonal == b.default_diagonal &&
           a.structures == b.structures && a.default_areas == b.default_areas &&
           a.max_agent_size == b.max_agent_size;
  }
};

// A map's whole content at one version.
struct StoredMap {
  std::string id;
  uint64_t version = 0;  // >= 1.
  MapOptions options;
  int32_t width = 0;
  int32_t height = 0;
  std::vector<uint8_t> costs;  // Row-major, width * height.
  // Row-major area ids (each < kMaxAreas); empty: every cell in area 0.
  std::vector<uint8_t> areas;
};

// One acknowledged update: the changes that made `version` from version - 1.
struct StoredUpdate {
  std::string id;
  uint64_t version = 0;
  std::vector<CellChange> changes;
  // Areas set by the update, applied after `changes` (agents.h).
  std::vector<AreaChange> area_changes;
};

// A link of a world (core's WorldLink, with ids for maps and the link).
struct StoredLink {
  std::string id;
  std::string from_map;
  Cell from;
  std::string to_map;
  Cell to;
  double cost = 1;
  bool both_ways = true;
  bool open = true;
  uint64_t areas = kAllAreas;
  int32_t max_agent_size = kMaxAgentSize;

  friend bool operator==(const StoredLink& a, const StoredLink& b) {
    return a.id == b.id && a.from_map == b.from_map && a.from == b.from &&
           a.to_map == b.to_map && a.to == b.to && a.cost == b.cost &&
           a.both_ways == b.both_ways && a.open == b.open &&
           a.areas == b.areas && a.max_agent_size == b.max_agent_size;
  }
};

// A world's whole content at one version: its member maps' ids and its
// links. Stores are given it whole at every version; the directory store
// writes what changed since the version before (world_codec.h).
struct StoredWorld {
  std::string id;
  uint64_t version = 0;  // >= 1.
  std::vector<std::string> maps;
  std::vector<StoredLink> links;

  friend bool operator==(const StoredWorld& a, const StoredWorld& b) {
    return a.id == b.id && a.version == b.version && a.maps == b.maps &&
           a.links == b.links;
  }
};

// What a follower's WaitForWrites returns for a write to world `id`:
// "world:<id>" (map ids cannot hold ':').
inline constexpr absl::string_view kWorldWritePrefix = "world:";

// How to bring one map a replica holds (or not) to what the store holds.
struct StoreCatchUp {
  bool stored = true;  // False: the id is not stored (deleted).
  // Either the updates after the held version, in order (each one version
  // past the one before); or, when they cannot get there (the map is new
  // to the replica, was replaced, or compacted past the held version), the
  // whole content. Neither when the replica is current.
  std::vector<StoredUpdate> updates;
  bool has_content = false;
  StoredMap content;
};

// A replica's view of the writes made through every replica of a shared
// store (MapStore::NewFollower), on a connection of its own.
// Thread-safety: WaitForWrites one thread at a time (it holds the
// connection while it waits); StoredVersions and CatchUp from any threads.
class MapStoreFollower {
 public:
  virtual ~MapStoreFollower() = default;
  // Waits up to `wait` for writes, then returns the ids written since the
  // last call (empty after a quiet wait; ids may repeat, and this replica's
  // own writes are among them).
  virtual absl::StatusOr<std::vector<std::string>> WaitForWrites(
      absl::Duration wait) = 0;
  // Every stored id with its latest version, ordered by id.
  virtual absl::StatusOr<std::vector<std::pair<std::string, uint64_t>>>
  StoredVersions() = 0;
  // What brings `id`, held at `version` (0: not held), to the store's
  // latest. DataLoss for stored bytes that fail their checksums.
  virtual absl::StatusOr<StoreCatchUp> CatchUp(const std::string& id,
                                               uint64_t version) = 0;
  // The stored world `id`: NotFound when none is stored; DataLoss for
  // bytes that fail their checksums.
  virtual absl::StatusOr<StoredWorld> LoadWorld(const std::string& id) = 0;
  // Every stored world's id, ordered.
  virtual absl::StatusOr<std::vector<std::string>> StoredWorldIds() = 0;
};

class MapStore {
 public:
  virtual ~MapStore() = default;

  // A follower of the writes other processes make to this store, created
  // before LoadAll so that no write after the load is missed; null for a
  // store only this process writes (a directory).
  virtual absl::StatusOr<std::unique_ptr<MapStoreFollower>> NewFollower() {
    return std::unique_ptr<MapStoreFollower>();
  }

  // Every stored map at its latest acknowledged version (updates applied),
  // ordered by id. A map whose data is corrupt (anything but a torn last
  // update, which was never acknowledged and is dropped) is reported in
  // *errors, naming the map, and left out. Errors of the store as a whole
  // (it cannot be opened) are returned.
  virtual absl::Status LoadAll(std::vector<StoredMap>* maps,
                               std::vector<std::string>* errors) = 0;

  // Makes `map` the whole content of its id, replacing any content and
  // updates stored for it.
  virtual absl::Status Put(const StoredMap& map) = 0;

  // Removes the id's content and updates; OK when there are none.
  virtual absl::Status Delete(const std::string& id) = 0;

  // Appends an update. REQUIRES: the id is stored at update.version - 1.
  virtual absl::Status AppendUpdate(const StoredUpdate& update) = 0;

  // True when the updates appended for `id` since its content was written
  // have grown past the store's bound, so that Compact is worth its cost.
  virtual bool WantsCompaction(const std::string& id) const = 0;

  // Rewrites the id's content as `map` (its latest version) and drops the
  // updates it folds in. REQUIRES: map.version is the id's latest version.
  virtual absl::Status Compact(const StoredMap& map) = 0;

  // Worlds, in a namespace of their own (a world may share an id with a
  // map). Every stored world at its latest version, ordered by id; a
  // corrupt one is reported in *errors and left out.
  virtual absl::Status LoadWorlds(std::vector<StoredWorld>* worlds,
                                  std::vector<std::string>* errors) = 0;
  // Makes `world` the id's content when the id is stored at version
  // world.version - 1 (not stored, for version 1); Aborted naming the
  // stored version otherwise (a writer through another replica came
  // first), and nothing changes.
  virtual absl::Status PutWorld(const StoredWorld& world) = 0;
  // Folds the world's stored history into `world` alone when the store
  // keeps one and it has grown past the store's bound (so that a write never
  // waits for a rewrite: callers compact after answering); OK and nothing
  // done otherwise, and in stores that keep only the latest record.
  // REQUIRES: world is the id's stored latest version.
  virtual absl::Status CompactWorld(const StoredWorld& world) {
    (void)world;
    return absl::OkStatus();
  }
  // Removes the world; OK when it is not stored.
  virtual absl::Status DeleteWorld(const std::string& id) = 0;
};

}  // namespace gridstar::server

#endif  // GRIDSTAR_SERVER_STORE_MAP_STORE_H_
