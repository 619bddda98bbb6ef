// WatchHub's records (watch_hub.h), shared by its source files:
// watch_hub.cc (searches, paths, the index), watch_hub_requests.cc (a
// stream's requests) and watch_hub_changes.cc (changes of maps).
//
// Thread-safety: every field is guarded by the hub's mutex.
#ifndef GRIDSTAR_SERVER_WATCH_WATCH_HUB_INTERNAL_H_
#define GRIDSTAR_SERVER_WATCH_WATCH_HUB_INTERNAL_H_

#include <atomic>
#include <deque>
#include <utility>
#include <cstdint>
#include <memory>
#include <string>
#include <vector>

#include "absl/container/flat_hash_map.h"
#include "absl/container/flat_hash_set.h"
#include "watch/watch_hub.h"

namespace gridstar::server {

struct WatchHub::Agent {
  std::shared_ptr<WatchSink> sink;
  uint64_t id = 0;
  std::string map_id;
  // The agent's path request; its start is replaced by `position`.
  PathAsk request;
  DiagonalPolicy policy = DiagonalPolicy::kNoCornerCutting;
  // The request names an agent class other than the map's default (areas,
  // area costs, a size): its paths are checked on that class's agent map,
  // on every update of the map rather than through the tile index, and it
  // never gets a D* Lite planner (which searches the default view).
  bool classed = false;
  double replan_if_cheaper = 0;
  uint64_t progressive = 0;
  Cell position;
  AgentPath path;
  size_t progress = 0;    // Index of `position` on `path`.
  double path_cost = 0;   // Of the whole path, when it was found.
  bool no_path = false;   // The last search found that no path joins.
  uint64_t latest_seq = 0;  // The newest search started.
  bool in_flight = false;   // That search has not answered yet.
  std::vector<uint32_t> tiles;  // Where Index listed it.
  int32_t tiles_width = 0;      // The map width `tiles` are numbered for.
  size_t bytes = 0;             // As last Account()ed.
  CancelFlag cancelled;         // The stream's.
  // Incremental replans (watch_hub.h): the agent's D* Lite planner (null
  // when it has none, or while a search holds it), the map version it last
  // planned on, its bytes as last counted, and the measurements that
  // choose between repairs and fresh searches (running means, 0 = none).
  std::shared_ptr<DStarLite> planner;
  uint64_t planner_version = 0;
  size_t planner_bytes = 0;
  uint32_t blocked = 0;  // BLOCKED replans so far.
  double fresh_micros = 0;
  double repair_micros = 0;
};

struct WatchHub::MapWatch {
  absl::flat_hash_set<Handle_t> agents;
  absl::flat_hash_map<uint32_t, std::vector<Handle_t>> tiles;
  // The newest version the hub has seen (to tell which cells a change made
  // cheaper); its width numbers `tiles`.
  std::shared_ptr<const MapSnapshot> last;
  // The changes of the last kChangeLog updates, oldest first, by version;
  // `logged` is the newest version whose changes are known (after a
  // replacement: that version, with an empty log).
  std::deque<std::pair<uint64_t, std::vector<CellChange>>> log;
  uint64_t logged = 0;
};

struct WatchHub::Stream {
  absl::flat_hash_map<uint64_t, Handle_t> agents;  // Agent id -> handle.
  CancelFlag cancelled = std::make_shared<std::atomic<bool>>(false);
};

}  // namespace gridstar::server

#endif  // GRIDSTAR_SERVER_WATCH_WATCH_HUB_INTERNAL_H_
