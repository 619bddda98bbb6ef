// WatchHub: the agents of every WatchPaths stream, the index from map tiles
// to the agents whose paths pass them, and the replanning that changes of a
// map call for (proto: WatchPaths, WatchRequest, WatchEvent). The hub works
// in the server's own types (watch_events.h); the stream (watch_stream.cc)
// reads and writes the proto through watch_wire.h.
//
// A stream hands each command to Handle and hears back through its
// WatchSink: one answer per command (from a search, or at once), and pushes
// (request_id 0). The service tells the hub of every change of a map after
// it is applied: MapUpdated after UpdateCells (with the changes),
// MapReplaced after a re-registration or a change through another replica
// (every agent of the map is checked), MapDeleted.
//
// After a change only the agents in the changed cells' tiles (32 x 32
// cells; each agent is listed in the tiles of every cell its path's moves
// depend on) are looked at; of those, the ones whose remaining path (from
// the last reported position) crosses a changed cell are re-priced on the
// new version, and replanned when a move became illegal (BLOCKED) or, for
// agents that asked, when their path got costlier (CHEAPER). Agents that
// asked for cheaper paths are also replanned when a cell got cheaper or
// opened where a path through it could beat theirs by the fraction (an
// octile lower bound decides, O(1) per agent). Agents left without a path
// are retried when a change opens cells (REACHABLE).
//
// Agents that walk worlds of linked maps are kept by a WorldWatch
// (world_watch.h), to which the hub hands their commands (an ADD with a
// world path, and any command for such an agent) and every change it hears
// of; agent ids and the per-stream limit are shared by both kinds.
//
// Agents of a class other than the map's default (areas, area costs,
// size: agents.h) are checked on their class's agent map at every update of
// the map instead of through the tiles (their map changes where the default's
// does not).
//
// Searches run on the search Scheduler as tasks, never under the hub's
// lock; each agent has at most one update-caused search in flight (a
// change that comes meanwhile is caught when its answer is installed: the
// path is checked against the newest version then). A newer request for an
// agent supersedes the search in flight (its answer comes as ABORTED).
//
// Incremental replans (D* Lite, core's incremental.h). Measured with
// `gridstar-bench --replan` (docs/performance.md, "Watched agents"): repairing
// a kept D* Lite search costs 0.14-0.33x a fresh A* when the change lands near
// the agent (the first tenth of its remaining path) but up to 16x when it lands
// near the goal, its first plan costs 30-100 fresh searches (made after the
// agent's answer, by the worker that answered it), and it holds 0.4-10 MB
// per agent on 512 x 512 maps. So the hub lends a planner only to an
// agent that has been BLOCKED twice already (a unit in a changing area),
// whose remaining path is at least kDStarMinCells long, whose change lies
// in the first kDStarNearShare of that path, whose query is exact and plain
// (no smoothing, snapping or expansion limit), while the planners fit in
// WatchOptions::dstar_budget_bytes; and it keeps measuring: an agent whose
// repairs average slower than its fresh replans goes back to fresh
// searches. The planner gets every change since its last plan from the
// map's change log (the last kChangeLog updates); a gap starts it afresh.
// Events it answers carry `incremental`.
//
// Memory: each agent holds its request, its path as straight runs
// (agent_path.h), and its tile list; `stats().memory_bytes` sums them with
// the index. At most WatchOptions::max_agents_per_stream agents a stream.
//
// Thread-safety: every method may be called from any thread. One mutex
// guards every agent and index; it is held only to decide and to queue
// events, never while searching. Lock order: the hub's, then a sink's own
// (a sink never calls back into the hub). REQUIRES: the hub outlives the
// tasks it queued (shut the Scheduler down first).
#ifndef GRIDSTAR_SERVER_WATCH_WATCH_HUB_H_
#define GRIDSTAR_SERVER_WATCH_WATCH_HUB_H_

#include <cstddef>
#include <cstdint>
#include <memory>
#include <mutex>
#include <string>
#include <vector>

#include "absl/base/thread_annotations.h"
#include "absl/container/flat_hash_map.h"
#include "absl/container/flat_hash_set.h"
#include "absl/time/time.h"
#include "gridstar/incremental.h"
#include "gridstar/map_update.h"
#include "maps/map_registry.h"
#include "maps/path_jobs.h"
#include "runtime/metrics.h"
#include "runtime/scheduler.h"
#include "watch/agent_path.h"
#include "watch/watch_events.h"
#include "watch/watch_metrics.h"
#include "watch/world_watch.h"

namespace gridstar::server {

struct WatchOptions {
  size_t max_agents_per_stream = 100000;
  // Memory all agents' D* Lite planners may hold together; 0 = fresh
  // searches only (see "Incremental replans" above).
  size_t dstar_budget_bytes = size_t{256} << 20;
  // Budget of each search for an agent.
  absl::Duration max_search_time = absl::Seconds(30);
  size_t max_message_bytes = 80 << 20;
};

// Where a stream's events go (watch_stream.cc; a fake in tests).
class WatchSink {
 public:
  virtual ~WatchSink() = default;
  // Queues `event` for the stream. With `coalesce` (pushes), it replaces an
  // unwritten event of the same agent queued with coalesce. False once the
  // stream is closed or has fallen too far behind: the hub then drops the
  // stream's agents. Never calls into the hub.
  virtual bool Push(WatchEvent event, bool coalesce) = 0;
};

class WatchHub {
 public:
  // Tile side of the index, in cells.
  static constexpr int32_t kTileSide = 32;
  // Incremental replans (above).
  static constexpr size_t kDStarMinCells = 128;
  static constexpr double kDStarNearShare = 0.25;
  static constexpr uint32_t kDStarAfterBlocks = 2;
  static constexpr size_t kChangeLog = 256;

  WatchHub(MapRegistry* registry, Scheduler* search, Metrics* metrics,
           WatchOptions options);

  ~WatchHub();  // Out of line: the records are defined in the sources.

  WatchHub(const WatchHub&) = delete;
  WatchHub& operator=(const WatchHub&) = delete;

  // One command of the stream whose events go to `sink`.
  void Handle(const std::shared_ptr<WatchSink>& sink,
              const WatchCommand& command);
  // The stream ended: its agents are dropped and their searches cancelled.
  void DropStream(const WatchSink* sink);

  // Agents that walk worlds of linked maps (world_watch.h): from now on,
  // commands with a world path and those for such agents go to a
  // WorldWatch searching with `make_search`, and it hears of every change
  // the hub hears of and of WorldChanged. Without it, a world path is
  // refused (FAILED_PRECONDITION). REQUIRES: called once, before any
  // command; `worlds` outlives the hub.
  void EnableWorlds(WorldRegistry* worlds, WorldWatch::SearchMaker make_search);
  // World `id` changed or was deleted (WorldRegistry's listener).
  void WorldChanged(const std::string& id);

  // Map `id` changed by `changes` into `version` (already applied: the
  // registry holds it, or a newer one).
  void MapUpdated(const std::string& id, uint64_t version,
                  const std::vector<CellChange>& changes);
  // Map `id` changed in ways the hub is not told cell by cell.
  void MapReplaced(const std::string& id);
  void MapDeleted(const std::string& id);

  struct Stats {
    size_t agents = 0;
    size_t streams = 0;
    size_t memory_bytes = 0;
    // Summed over every change so far (see WatchMetrics::Checked).
    uint64_t checked = 0;
    uint64_t crossing = 0;
    // Searches started, by WatchReason, and searches that have come back
    // (whatever became of their answers): equal when the hub is idle.
    uint64_t searches[kWatchReasons] = {};
    uint64_t searches_started = 0;
    uint64_t searches_done = 0;
    // Replans answered by D* Lite repairs, and its planners' bytes now.
    uint64_t incremental = 0;
    size_t dstar_bytes = 0;
    // World agents (counted in none of the above but the searches, which
    // are summed with theirs).
    size_t world_agents = 0;
    size_t world_memory_bytes = 0;
    // Changes of maps and worlds the world agents' watch has heard of.
    uint64_t world_changes = 0;
  };
  Stats stats() const;
  WatchMetrics* watch_metrics() { return &watch_metrics_; }

  // What one watched agent is doing, for the web console: any stream's.
  struct AgentView {
    uint64_t agent_id = 0;
    Cell position;
    Cell goal;
    std::vector<Cell> remaining;  // Its path from its position on.
    double path_cost = 0;         // Of the whole path when it was found.
    bool no_path = false;         // Its last search found none.
    bool searching = false;       // A search for it has not answered yet.
    uint32_t blocked = 0;         // BLOCKED replans so far.
  };
  // The agents on map `map_id`, ordered by agent id, at most `max` of them
  // and at most `max_cells` path cells each (the rest cut).
  std::vector<AgentView> AgentsOn(const std::string& map_id, size_t max,
                                  size_t max_cells) const;

 private:
  struct Agent;
  struct MapWatch;
  struct Stream;
  using Handle_t = uint64_t;

  Agent* Find(Handle_t h) ABSL_EXCLUSIVE_LOCKS_REQUIRED(mu_);
  void Answer(Agent& agent, uint64_t request_id, WatchReason reason,
              const absl::Status& s) ABSL_EXCLUSIVE_LOCKS_REQUIRED(mu_);
  // Starts a search for the agent from its position; the reason it could
  // not start otherwise (nothing told).
  // With `near_change` (a BLOCKED replan whose change lies near the agent)
  // the search may be a D* Lite repair (above).
  absl::Status Submit(Handle_t h, Agent& agent, WatchReason reason,
                      uint64_t request_id, absl::Time since,
                      uint64_t cause_version, bool near_change = false)
      ABSL_EXCLUSIVE_LOCKS_REQUIRED(mu_);
  // What a worker needs for a D* Lite repair.
  struct Repair {
    std::shared_ptr<DStarLite> planner;
    std::vector<CellChange> changes;
    Cell position;
    // A new planner: a fresh search answers, then the planner makes its
    // first plan (about 30-100 fresh searches' work, measured) off the
    // answer's path and is adopted by the agent.
    bool build = false;
  };
  // A planner and the changes it has not seen for the agent's replan on
  // `snapshot`, or null when the hub chooses a fresh search.
  std::shared_ptr<Repair> PlanRepair(Agent& agent, const PathJob& job)
      ABSL_EXCLUSIVE_LOCKS_REQUIRED(mu_);
  // On a worker: the search (twice with progressive answers).
  void Run(Handle_t h, uint64_t seq, std::shared_ptr<PathJob> job,
           WatchReason reason, uint64_t request_id, absl::Time since,
           uint64_t cause_version, uint64_t progressive,
           std::shared_ptr<Repair> repair, SearchContext& context);
  // How a search went, for the choice between repairs and fresh searches.
  struct Ran {
    std::shared_ptr<Repair> repair;  // Null: a fresh search.
    bool repaired = false;           // D* Lite answered.
    double micros = 0;
    // False when work for this search follows the answer (a planner's
    // first plan): Stats::searches_done counts it after that.
    bool done = true;
  };
  void Installed(Handle_t h, uint64_t seq, WatchReason reason,
                 uint64_t request_id, absl::Time since, uint64_t cause_version,
                 const absl::Status& s, PathAnswer answer, Ran ran);
  void DropPlanner(Agent& agent) ABSL_EXCLUSIVE_LOCKS_REQUIRED(mu_);
  // Gives the agent a planner that planned on `version` (when it has none
  // and still walks to the planner's goal), within the budget.
  void AdoptPlanner(Handle_t h, std::shared_ptr<DStarLite> planner,
                    uint64_t version);
  void SetPath(Handle_t h, Agent& agent, AgentPath path, double cost)
      ABSL_EXCLUSIVE_LOCKS_REQUIRED(mu_);
  void ClearPath(Handle_t h, Agent& agent) ABSL_EXCLUSIVE_LOCKS_REQUIRED(mu_);
  void Remove(Handle_t h) ABSL_EXCLUSIVE_LOCKS_REQUIRED(mu_);
  void DropStreamLocked(const WatchSink* sink)
      ABSL_EXCLUSIVE_LOCKS_REQUIRED(mu_);
  // Re-prices the agent's remaining path on `snapshot` and replans it as
  // a change there calls for.
  // The map the agent's paths are checked on in `snapshot`: the default
  // view, or its class's agent map (held in *hold).
  const GridMap& MapOf(const Agent& agent, const MapSnapshot& snapshot,
                       std::shared_ptr<const GridMap>* hold) const;
  void Recheck(Handle_t h, Agent& agent, const MapSnapshot& snapshot,
               absl::Time since) ABSL_EXCLUSIVE_LOCKS_REQUIRED(mu_);
  // Reads and records the map's newest snapshot for the index (re-listing
  // every agent when its width changed). Null when the map is gone.
  std::shared_ptr<const MapSnapshot> Refresh(MapWatch& watch,
                                             const std::string& id)
      ABSL_EXCLUSIVE_LOCKS_REQUIRED(mu_);
  void Account(Agent& agent) ABSL_EXCLUSIVE_LOCKS_REQUIRED(mu_);
  void Publish() ABSL_EXCLUSIVE_LOCKS_REQUIRED(mu_);
  // Queues an event on `sink`; a sink that refuses it is dropped by Settle.
  void PushTo(const std::shared_ptr<WatchSink>& sink, WatchEvent event,
              bool coalesce) ABSL_EXCLUSIVE_LOCKS_REQUIRED(mu_);
  // Drops the streams whose sinks refused an event.
  void Settle() ABSL_EXCLUSIVE_LOCKS_REQUIRED(mu_);
  // Submit for a push: a failure is told to the agent (BLOCKED, REACHABLE)
  // or ignored (CHEAPER).
  void SubmitPush(Handle_t h, Agent& agent, WatchReason reason,
                  absl::Time since, uint64_t cause_version,
                  bool near_change = false) ABSL_EXCLUSIVE_LOCKS_REQUIRED(mu_);
  // Lists the agent in the tiles of its path (Deindex: takes it out).
  void Index(Handle_t h, Agent& agent) ABSL_EXCLUSIVE_LOCKS_REQUIRED(mu_);
  void Deindex(Handle_t h, Agent& agent) ABSL_EXCLUSIVE_LOCKS_REQUIRED(mu_);
  // `world_agents`: the stream's, which count against the same limit.
  void HandleLocked(const std::shared_ptr<WatchSink>& sink,
                    const WatchCommand& command, size_t world_agents)
      ABSL_EXCLUSIVE_LOCKS_REQUIRED(mu_);

  MapRegistry* const registry_;
  Scheduler* const search_;
  Metrics* const metrics_;
  WatchMetrics watch_metrics_;
  const WatchOptions options_;

  mutable std::mutex mu_;
  absl::flat_hash_map<Handle_t, std::unique_ptr<Agent>> agents_
      ABSL_GUARDED_BY(mu_);
  absl::flat_hash_map<const WatchSink*, std::unique_ptr<Stream>> streams_
      ABSL_GUARDED_BY(mu_);
  absl::flat_hash_map<std::string, std::unique_ptr<MapWatch>> maps_
      ABSL_GUARDED_BY(mu_);
  Handle_t next_handle_ ABSL_GUARDED_BY(mu_) = 1;
  uint64_t next_seq_ ABSL_GUARDED_BY(mu_) = 1;
  size_t memory_bytes_ ABSL_GUARDED_BY(mu_) = 0;
  size_t dstar_bytes_ ABSL_GUARDED_BY(mu_) = 0;
  Stats totals_ ABSL_GUARDED_BY(mu_);
  std::vector<const WatchSink*> dead_sinks_ ABSL_GUARDED_BY(mu_);
  // Set once by EnableWorlds, before any command.
  std::unique_ptr<WorldWatch> world_;
};

}  // namespace gridstar::server

#endif  // GRIDSTAR_SERVER_WATCH_WATCH_HUB_H_
