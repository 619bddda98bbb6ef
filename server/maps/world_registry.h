// WorldRegistry: the server's worlds of linked maps (core's world.h), id ->
// immutable snapshot of the world's member maps and links, and the link-end
// tables its queries read.
//
// A world names maps of the MapRegistry; their cells, versions and updates
// stay theirs. A world write (register, replace, link update, delete)
// validates first (ids, limits, link ends on the member maps and passable
// on their terrain), makes the whole new version durable through the
// MapStore (PutWorld: only on top of the version before, so replicas on a
// shared store cannot fork it), swaps it in and only then returns; any
// failure leaves the world as it was. Writes of all worlds are serialised
// by one lock (worlds are small and their writes quick); readers copy a
// shared_ptr under a mutex held only for that, so a query in flight keeps
// the version it started with.
//
// Tables: for each member map, a LinkEndTable of its link ends on the map
// as a query naming no agent class sees it (MapSnapshot::map), under its
// default policy, built by one background thread (at the search workers'
// nice level: tables speed searches up, updates never wait for them):
// after every world write,
// and whenever a query finds the table missing or built from another map
// version or another set of ends (a map was updated). Meanwhile queries
// run exactly without it (world.h: a stale table is never read).
//
// Thread-safety: every method may be called from any thread.
#ifndef GRIDSTAR_SERVER_MAPS_WORLD_REGISTRY_H_
#define GRIDSTAR_SERVER_MAPS_WORLD_REGISTRY_H_

#include <condition_variable>
#include <cstddef>
#include <cstdint>
#include <deque>
#include <functional>
#include <map>
#include <memory>
#include <mutex>  // std::mutex: TSan sees it (Debian's Abseil is not instrumented).
#include <optional>
#include <set>
#include <string>
#include <thread>
#include <utility>
#include <vector>

#include "absl/base/thread_annotations.h"
#include "absl/status/status.h"
#include "absl/status/statusor.h"
#include "gridstar/agents.h"
#include "gridstar/world.h"
#include "maps/map_registry.h"
#include "store/map_store.h"

namespace gridstar::server {

struct WorldSnapshot {
  std::string id;
  uint64_t version = 0;
  std::vector<std::string> maps;
  std::vector<StoredLink> links;

  StoredWorld ToStored() const { return StoredWorld{id, version, maps, links}; }
  // Index of `map_id` among maps, or -1.
  int MapIndex(const std::string& map_id) const;
  // Index of the link `link_id`, or -1.
  int LinkIndex(const std::string& link_id) const;
  // The link ends on member map `m`, as a table takes them.
  std::vector<Cell> EndsOn(int m) const;
};

// One edit of UpdateLinks, applied in order.
struct LinkEdit {
  std::string link_id;
  std::optional<bool> open;
  std::optional<double> cost;
  std::optional<StoredLink> add;
  bool remove = false;
};

// What a world query searches: the member maps as the agent sees them, the
// usable tables, the links with map indices. Holds the snapshots it read.
struct PreparedWorld {
  std::shared_ptr<const WorldSnapshot> world;
  std::vector<std::shared_ptr<const MapSnapshot>> maps;
  std::vector<std::shared_ptr<const GridMap>>
      agent_maps;  // Null: maps[i]->map.
  std::vector<std::shared_ptr<const LinkEndTable>> tables;
  std::vector<WorldMapView> views;
  std::vector<WorldLink> links;
  // The world's link index of each of `links`.
  std::vector<int> link_ids;
  // Who uses the links (LinkAdmits): the agent's size, and its areas as
  // asked (0: the start map's default areas).
  AgentClass link_agent;
  // Every map seen as it is (the default class: no agent map).
  bool default_class = true;
};

class WorldRegistry {
 public:
  // Nice levels the table builder runs below the rest of the server: the
  // search workers' default (--search_nice).
  static constexpr int kBuilderNice = 10;

  struct Limits {
    size_t max_worlds = 256;
    size_t max_world_maps = 64;
    size_t max_world_links = 4096;
    // Most link ends (distinct cells) on one member map: a query's
    // abstract graph joins every two ends of a map, and the map's table
    // runs one Dijkstra from each.
    size_t max_map_link_ends = 1024;
  };

  // `maps` and `store` (null: in memory only) are not owned and must
  // outlive the registry.
  WorldRegistry(MapRegistry* maps, MapStore* store, Limits limits);
  ~WorldRegistry();
  WorldRegistry(const WorldRegistry&) = delete;
  WorldRegistry& operator=(const WorldRegistry&) = delete;

  // Loads every stored world (after the maps are loaded). A corrupt world
  // is reported in *errors and skipped; a world naming maps that are gone
  // loads (its queries then say which map is missing).
  absl::Status LoadAll(std::vector<std::string>* errors);

  // Registers `world` (its version is ignored). Identical maps and links
  // return the existing snapshot; other content is AlreadyExists unless
  // `replace`. InvalidArgument naming the field ("links[3].to: (9, 2) is
  // blocked on map 'cellar'"), NotFound for a member map not registered,
  // ResourceExhausted naming the flag past a limit, the store's status.
  absl::StatusOr<std::shared_ptr<const WorldSnapshot>> Register(
      StoredWorld world, bool replace);

  // Applies `edits` in order as the next version. NotFound for an unknown
  // world; Aborted when expected_version != 0 and differs; InvalidArgument
  // naming "updates[i]..." (nothing changes).
  absl::StatusOr<std::shared_ptr<const WorldSnapshot>> UpdateLinks(
      const std::string& id, const std::vector<LinkEdit>& edits,
      uint64_t expected_version);

  // Folds the world's stored history into its latest version when the
  // store wants it (MapStore::CompactWorld); called after a write was
  // answered, so that no write waits for a rewrite. OK when there is nothing
  // to do; a failure leaves the store as it was.
  absl::Status CompactIfWanted(const std::string& id);

  // NotFound for an unknown world.
  absl::Status Delete(const std::string& id);

  // With a shared store: brings world `id` to what the store holds
  // (written through another replica), without writing to the store.
  absl::Status Follow(MapStoreFollower& follower, const std::string& id);

  // Null when unknown.
  std::shared_ptr<const WorldSnapshot> Find(const std::string& id) const;
  // Ordered by id.
  std::vector<std::shared_ptr<const WorldSnapshot>> List() const;

  // The member maps as a query of the agent class (areas, area_costs,
  // agent_size as PathRequest gives them: areas 0 = each map's default
  // areas) sees them, with the tables current for them (those of the
  // default class; core reads a table only under the policy it was built
  // for). FailedPrecondition naming a member map that is no longer
  // registered; ResolveAgent's errors. Queues the rebuild of any table
  // that is missing or stale.
  absl::StatusOr<PreparedWorld> Prepare(
      std::shared_ptr<const WorldSnapshot> world, int start_map, uint64_t areas,
      absl::Span<const double> area_costs, int32_t agent_size);

  // Per member map of `world`: the map version its table was built from
  // (0: none) and whether that is the map's current version and ends.
  struct TableState {
    uint64_t map_version = 0;
    bool current = false;
    size_t bytes = 0;
  };
  std::vector<TableState> Tables(const WorldSnapshot& world);

  // The index `prepared`'s queries search (core's WorldIndex) for the
  // agent class and policy given: for the default class, when every
  // member map's table is current, the one kept for the world and those
  // map versions, with all pairs (built now, about 6 ms for 16 maps of
  // 512 x 512 and 96 links, when the kept one is stale); otherwise one
  // built for this query alone, without.
  absl::StatusOr<std::shared_ptr<const WorldIndex>> IndexFor(
      const PreparedWorld& prepared, const AgentClass& agent,
      DiagonalPolicy policy);

  // Blocks until no table build is queued or running (tests, benchmarks).
  void WaitForTables();

  // Called with a world's id after each write that changed it (register,
  // replace, link update, delete, and a change followed from the shared
  // store), once the new version (or the deletion) is what Find answers.
  // Called on the writing thread, under the registry's write lock and the
  // listener's own (so SetListener(nullptr) waits for a call in progress);
  // it may read the registry but not write it. Null: none.
  using Listener = std::function<void(const std::string& world_id)>;
  void SetListener(Listener listener);

  size_t world_count() const;

 private:
  struct TableEntry {
    uint64_t map_version = 0;
    std::vector<Cell> ends;
    std::shared_ptr<const LinkEndTable> table;
  };
  using TableKey = std::pair<std::string, std::string>;  // (world, map).
  struct IndexEntry {
    uint64_t world_version = 0;
    DiagonalPolicy policy = DiagonalPolicy::kNoCornerCutting;
    AgentClass agent;
    std::shared_ptr<const WorldIndex> index;
    // The tables it reads (the index does not hold them).
    std::vector<std::shared_ptr<const LinkEndTable>> tables;
  };

  // InvalidArgument / NotFound / ResourceExhausted for a world that may not
  // be stored (see Register); `field` names its fields.
  absl::Status Validate(const StoredWorld& world) const;
  absl::Status ValidateLink(const StoredWorld& world, const StoredLink& link,
                            const std::string& field) const;
  // ResourceExhausted naming `field` and the map when a member map of
  // `world` has more than max_map_link_ends link ends.
  absl::Status CheckEndsPerMap(const StoredWorld& world,
                               absl::string_view field) const;
  // Stores `next` (its version set) and swaps it in. REQUIRES: write_mu_.
  absl::StatusOr<std::shared_ptr<const WorldSnapshot>> Install(
      StoredWorld next);
  // Queues the build of every member map's table of `world`.
  void QueueTables(const WorldSnapshot& world);
  void QueueTable(const std::string& world, const std::string& map);
  void BuildTables();
  // Tells the listener world `id` changed.
  void Changed(const std::string& id);

  MapRegistry* const maps_;
  MapStore* const store_;
  const Limits limits_;
  std::mutex write_mu_;  // Serialises world writes.
  mutable std::mutex mu_;
  std::map<std::string, std::shared_ptr<const WorldSnapshot>> worlds_
      ABSL_GUARDED_BY(mu_);
  std::map<TableKey, TableEntry> tables_ ABSL_GUARDED_BY(mu_);
  // Per world, the index of its default class (IndexFor).
  std::map<std::string, IndexEntry> indexes_ ABSL_GUARDED_BY(mu_);
  // The table builder: queued keys (each once), whether one is building.
  std::deque<TableKey> queue_ ABSL_GUARDED_BY(mu_);
  std::set<TableKey> queued_ ABSL_GUARDED_BY(mu_);
  bool building_ ABSL_GUARDED_BY(mu_) = false;
  bool stopping_ ABSL_GUARDED_BY(mu_) = false;
  std::condition_variable work_;
  std::condition_variable idle_;
  std::thread builder_;
  std::mutex listener_mu_;
  Listener listener_ ABSL_GUARDED_BY(listener_mu_);
};

}  // namespace gridstar::server

#endif  // GRIDSTAR_SERVER_MAPS_WORLD_REGISTRY_H_
