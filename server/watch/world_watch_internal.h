// WorldWatch's agent record (world_watch.h), shared by its source files:
// world_watch.cc (requests, searches, paths) and world_watch_changes.cc
// (changes of maps and worlds).
//
// Thread-safety: every field is guarded by the watch's mutex.
#ifndef GRIDSTAR_SERVER_WATCH_WORLD_WATCH_INTERNAL_H_
#define GRIDSTAR_SERVER_WATCH_WORLD_WATCH_INTERNAL_H_

#include <cstdint>
#include <memory>
#include <string>
#include <vector>

#include "watch/agent_path.h"
#include "watch/world_watch.h"

namespace gridstar::server {

struct WorldWatch::Agent {
  std::shared_ptr<WatchSink> sink;
  uint64_t id = 0;
  // The agent's world path request; its start is replaced by `position`.
  WorldPathAsk request;
  // The request names an agent class (areas, area costs, a size): its legs
  // are checked on its class's maps, at every update of their maps.
  bool classed = false;
  double replan_if_cheaper = 0;
  uint64_t progressive = 0;
  MapCell position;
  // The path: legs joined by links[i] (leg i's last cell to leg i + 1's
  // first), searched under `policy`; the links as `link_agent` uses them.
  struct Leg {
    std::string map_id;
    AgentPath path;
    std::vector<uint32_t> tiles;  // Of the whole leg (AgentPath::Tiles).
    int32_t tiles_width = 0;      // The map width they are numbered for.
  };
  std::vector<Leg> legs;
  std::vector<std::string> links;
  DiagonalPolicy policy = DiagonalPolicy::kNoCornerCutting;
  AgentClass link_agent;
  size_t leg = 0;           // The leg of `position`,
  size_t progress = 0;      // and its index there.
  double path_cost = 0;     // Of the whole path, when it was found.
  bool no_path = false;     // The last search found that no path joins.
  uint64_t latest_seq = 0;  // The newest search started.
  bool in_flight = false;   // That search has not answered yet.
  size_t bytes = 0;         // As last Account()ed.
  CancelFlag cancelled;     // The stream's.
};

}  // namespace gridstar::server

#endif  // GRIDSTAR_SERVER_WATCH_WORLD_WATCH_INTERNAL_H_
