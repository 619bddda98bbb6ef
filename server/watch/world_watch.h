// WorldWatch: the watched agents that walk worlds of linked maps (proto:
// WatchRequest.world_path), kept for the WatchHub (watch_hub.h), which hands
// it their commands and tells it of every change of a map and of a world.
//
// An agent's path is its world path's legs (each an AgentPath on its map)
// and the links taken between them; its position is a leg and an index on
// that leg. Its searches are the service's world searches (FindWorldPath's,
// given as a SearchMaker), run as tasks on the search Scheduler, never under
// the watch's lock; each agent has at most one search in flight, and a
// newer request supersedes it (its answer comes as ABORTED).
//
// After a change of a member map, each agent of a world holding the map is
// looked at: one whose remaining legs on that map lie in a changed cell's
// 32 x 32 tile (or, for an agent of its own class: areas, area costs,
// size, every time, as its class's map changes where the view does not) has
// its remaining path re-priced on the newest versions, and is replanned
// when a move or link became illegal (BLOCKED), or, when it asked, to look
// for a cheaper path (CHEAPER). After a change of the world's links, every
// agent of the world is re-priced the same way (each link of its
// remaining path must still be there, open, between the same cells and
// admitting the agent). With replan_if_cheaper, anything that opened or got
// cheaper (a cell of a member map, a link opened, added or re-costed down)
// starts a search for the agents of the world (no lower bound prunes it);
// its path is pushed when cheaper than the remaining path by the fraction.
// An agent without a path is searched again when something opened, and
// told (REACHABLE) only when a path is found. A deleted world drops its
// agents (WORLD_DELETED); a deleted member map only breaks the paths
// through it (BLOCKED).
//
// Memory: each agent holds its request, its legs as straight runs and their
// tiles; per watched world and map, the newest version seen.
//
// Thread-safety: every method may be called from any thread. One mutex
// guards every agent; it is held to decide and to queue events, never while
// searching, and the watch never calls into the hub. Lock order: the
// WatchHub's (never held when calling in), then this one's, then the
// registries' and a sink's. REQUIRES: the watch outlives the tasks it queued
// (shut the Scheduler down first).
#ifndef GRIDSTAR_SERVER_WATCH_WORLD_WATCH_H_
#define GRIDSTAR_SERVER_WATCH_WORLD_WATCH_H_

#include <cstddef>
#include <cstdint>
#include <functional>
#include <memory>
#include <mutex>
#include <string>
#include <vector>

#include "absl/base/thread_annotations.h"
#include "absl/container/flat_hash_map.h"
#include "absl/container/flat_hash_set.h"
#include "absl/status/statusor.h"
#include "absl/strings/string_view.h"
#include "absl/time/time.h"
#include "gridstar/map_update.h"
#include "maps/map_registry.h"
#include "maps/world_registry.h"
#include "runtime/scheduler.h"
#include "watch/watch_events.h"
#include "watch/watch_metrics.h"

namespace gridstar::server {

class WatchSink;  // watch_hub.h

class WorldWatch {
 public:
  // A world search ready to run: FindWorldPath's answer into *out.
  using Search = std::function<absl::Status(SearchContext&, WorldPathAnswer*)>;
  // Reads and checks `request` (errors naming its fields after `prefix`)
  // into a search with that deadline and cancel flag.
  using SearchMaker = std::function<absl::StatusOr<Search>(
      const WorldPathAsk& request, absl::string_view prefix,
      absl::Time deadline, CancelFlag cancelled)>;

  // Tile side of the index, in cells (as WatchHub's).
  static constexpr int32_t kTileSide = 32;

  // Not owned; each must outlive the watch.
  WorldWatch(MapRegistry* maps, WorldRegistry* worlds, Scheduler* search,
             WatchMetrics* metrics, SearchMaker make_search,
             size_t max_agents_per_stream, absl::Duration max_search_time);
  ~WorldWatch();
  WorldWatch(const WorldWatch&) = delete;
  WorldWatch& operator=(const WorldWatch&) = delete;

  // Whether the stream of `sink` has world agent `agent_id`.
  bool Has(const WatchSink* sink, uint64_t agent_id) const;
  // Forgets the agent without an event (an ADD of a map agent replaces it).
  void Forget(const WatchSink* sink, uint64_t agent_id);
  // The stream's world agents.
  size_t AgentsIn(const WatchSink* sink) const;
  // A command for a world agent: an ADD with world_path, or a MOVE,
  // RETARGET or REMOVE of an agent Has() names. `map_agents`: the
  // stream's map agents, which count against the same limit.
  void Handle(const std::shared_ptr<WatchSink>& sink,
              const WatchCommand& command, size_t map_agents);
  void DropStream(const WatchSink* sink);

  // Map `id` changed by `changes` (already applied), or, with null, in ways
  // not told cell by cell (replaced, changed through another replica,
  // deleted).
  void MapChanged(const std::string& id,
                  const std::vector<CellChange>* changes);
  // World `id` changed (its links or maps), or was deleted.
  void WorldChanged(const std::string& id);

  struct Stats {
    size_t agents = 0;
    size_t memory_bytes = 0;
    uint64_t searches[kWatchReasons] = {};
    uint64_t searches_started = 0;
    uint64_t searches_done = 0;
    // Changes heard of (MapChanged and WorldChanged calls).
    uint64_t changes = 0;
  };
  Stats stats() const;

 private:
  struct Agent;
  using Handle_t = uint64_t;
  // What a search was started with, for installing its answer.
  struct Started {
    uint64_t seq = 0;
    WatchReason reason = WatchReason::kUnspecified;
    uint64_t request_id = 0;
    absl::Time since = absl::InfinitePast();  // The change that caused it.
    std::string cause_map;                    // Empty: the links changed.
    uint64_t cause_version = 0;
    DiagonalPolicy policy = DiagonalPolicy::kNoCornerCutting;
    AgentClass link_agent;
    uint64_t changes = 0;  // Stats::changes when it started.
  };

  Agent* Find(Handle_t h) ABSL_EXCLUSIVE_LOCKS_REQUIRED(mu_);
  void HandleLocked(const std::shared_ptr<WatchSink>& sink,
                    const WatchCommand& command, size_t map_agents)
      ABSL_EXCLUSIVE_LOCKS_REQUIRED(mu_);
  void Reply(const std::shared_ptr<WatchSink>& sink, WatchEvent event)
      ABSL_EXCLUSIVE_LOCKS_REQUIRED(mu_);
  void Answer(Agent& agent, uint64_t request_id, WatchReason reason,
              const absl::Status& s) ABSL_EXCLUSIVE_LOCKS_REQUIRED(mu_);
  // Starts a search from the agent's position; why it could not.
  absl::Status Submit(Handle_t h, Agent& agent, Started started)
      ABSL_EXCLUSIVE_LOCKS_REQUIRED(mu_);
  // Submit for a push: a failure is told (BLOCKED, REACHABLE) or ignored
  // (CHEAPER).
  void SubmitPush(Handle_t h, Agent& agent, WatchReason reason,
                  absl::Time since, const std::string& cause_map,
                  uint64_t cause_version) ABSL_EXCLUSIVE_LOCKS_REQUIRED(mu_);
  void Run(Handle_t h, Started started, std::shared_ptr<Search> first,
           std::shared_ptr<Search> full, SearchContext& context);
  void Installed(Handle_t h, const Started& started, const absl::Status& s,
                 WorldPathAnswer answer);
  // The agent's event for a search's outcome: `path` (null: none) with
  // the change that caused it.
  void Tell(Agent& agent, const Started& started, const absl::Status& s,
            std::shared_ptr<const WorldPathAnswer> path)
      ABSL_EXCLUSIVE_LOCKS_REQUIRED(mu_);
  // Makes `answer` the agent's path and tells the agent.
  void Push(Agent& agent, const Started& started, WorldPathAnswer answer)
      ABSL_EXCLUSIVE_LOCKS_REQUIRED(mu_);
  void SetPath(Agent& agent, const WorldPathAnswer& answer,
               const Started& started) ABSL_EXCLUSIVE_LOCKS_REQUIRED(mu_);
  void ClearPath(Agent& agent) ABSL_EXCLUSIVE_LOCKS_REQUIRED(mu_);
  // The cost of the agent's remaining path (the rest of its leg, the links
  // and legs after it) in `world` on the member maps' newest versions, or
  // -1 when a move or a link of it is no longer legal. Then, when a leg
  // broke (its map gone from the world or the registry, or a move of it
  // illegal), *broken_map (when given) is that leg's map and
  // *broken_version its newest version (0 when gone); when a link broke,
  // *broken_map is left empty.
  double Remaining(const Agent& agent, const WorldSnapshot& world,
                   std::string* broken_map = nullptr,
                   uint64_t* broken_version = nullptr) const
      ABSL_EXCLUSIVE_LOCKS_REQUIRED(mu_);
  // Where `at` lies on the agent's path (its current leg and on, else
  // before): false when nowhere.
  bool Locate(const Agent& agent, const MapCell& at, size_t* leg,
              size_t* index) const;
  // The stream's agent id -> handle, created when missing.
  absl::flat_hash_map<uint64_t, Handle_t>& StreamOf(const WatchSink* sink)
      ABSL_EXCLUSIVE_LOCKS_REQUIRED(mu_);
  void Remove(Handle_t h) ABSL_EXCLUSIVE_LOCKS_REQUIRED(mu_);
  void Account(Agent& agent) ABSL_EXCLUSIVE_LOCKS_REQUIRED(mu_);
  void Settle() ABSL_EXCLUSIVE_LOCKS_REQUIRED(mu_);
  void DropStreamLocked(const WatchSink* sink)
      ABSL_EXCLUSIVE_LOCKS_REQUIRED(mu_);
  // The handles of world `id`'s agents (a copy: Submit may drop some).
  std::vector<Handle_t> AgentsOf(const std::string& world_id) const
      ABSL_EXCLUSIVE_LOCKS_REQUIRED(mu_);

  MapRegistry* const maps_;
  WorldRegistry* const worlds_;
  Scheduler* const search_;
  WatchMetrics* const metrics_;
  const SearchMaker make_search_;
  const size_t max_agents_per_stream_;
  const absl::Duration max_search_time_;

  mutable std::mutex mu_;
  absl::flat_hash_map<Handle_t, std::unique_ptr<Agent>> agents_
      ABSL_GUARDED_BY(mu_);
  absl::flat_hash_map<const WatchSink*, absl::flat_hash_map<uint64_t, Handle_t>>
      streams_ ABSL_GUARDED_BY(mu_);
  absl::flat_hash_map<const WatchSink*, CancelFlag> cancelled_
      ABSL_GUARDED_BY(mu_);
  // World id -> its agents.
  absl::flat_hash_map<std::string, absl::flat_hash_set<Handle_t>> by_world_
      ABSL_GUARDED_BY(mu_);
  // The newest versions seen, to tell what a change opened.
  absl::flat_hash_map<std::string, std::shared_ptr<const WorldSnapshot>>
      last_worlds_ ABSL_GUARDED_BY(mu_);
  absl::flat_hash_map<std::string, std::shared_ptr<const MapSnapshot>>
      last_maps_ ABSL_GUARDED_BY(mu_);
  Handle_t next_handle_ ABSL_GUARDED_BY(mu_) = 1;
  uint64_t next_seq_ ABSL_GUARDED_BY(mu_) = 1;
  size_t memory_bytes_ ABSL_GUARDED_BY(mu_) = 0;
  Stats totals_ ABSL_GUARDED_BY(mu_);
  std::vector<const WatchSink*> dead_sinks_ ABSL_GUARDED_BY(mu_);
};

}  // namespace gridstar::server

#endif  // GRIDSTAR_SERVER_WATCH_WORLD_WATCH_H_
