// What the watch hub (watch_hub.h) is asked and what it answers, in the
// server's own types: a WatchPaths request becomes a WatchCommand and a
// WatchEvent goes out as the proto's WatchEvent only at the stream
// (watch_wire.h), so the hub decides on core and registry types alone.
//
// The fields mean what the proto's fields of the same names mean
// (proto/gridstar/v1/gridstar.proto, WatchRequest and WatchEvent; a world
// agent's WorldPathAsk and WorldPathAnswer those of WorldPathRequest and
// WorldPathResponse, read and written at the stream and the service).
//
// Thread-safety: plain values.
#ifndef GRIDSTAR_SERVER_WATCH_WATCH_EVENTS_H_
#define GRIDSTAR_SERVER_WATCH_WATCH_EVENTS_H_

#include <cstdint>
#include <memory>
#include <string>
#include <vector>

#include "absl/status/status.h"
#include "absl/types/optional.h"
#include "gridstar/types.h"
#include "gridstar/world.h"
#include "maps/path_jobs.h"

namespace gridstar::server {

enum class WatchAction : uint8_t { kAdd, kMove, kRetarget, kRemove };

// Why an event came. The values are the proto's WatchReason numbers
// (watch_wire.cc checks it), so that counts indexed by reason read alike.
enum class WatchReason : uint8_t {
  kUnspecified = 0,
  // Answers to requests.
  kAdded = 1,
  kMoved = 2,
  kOffPath = 3,
  kRetargeted = 4,
  kRemoved = 5,
  // Pushes after a change of the map.
  kBlocked = 6,
  kCheaper = 7,
  kReachable = 8,
  kMapDeleted = 9,
  kWorldDeleted = 10,
};
inline constexpr int kWatchReasons = 11;

// A cell of a named map (a world agent's position or goal).
struct MapCell {
  std::string map_id;
  Cell cell;
};

// A world path request (the proto's WorldPathRequest, its enums read):
// diagonal unset for the start map's default.
struct WorldPathAsk {
  std::string world_id;
  MapCell start;
  MapCell goal;
  Algorithm algorithm{};
  double weight = 0;
  absl::optional<DiagonalPolicy> diagonal;
  uint64_t max_expansions = 0;
  bool smooth = false;
  bool allow_partial = false;
  bool trace = false;
  uint64_t areas = 0;
  std::vector<double> area_costs;
  int32_t agent_size = 0;
};

// A world path answered (the proto's WorldPathResponse).
struct WorldPathAnswer {
  struct Leg {
    std::string map_id;
    uint64_t map_version = 0;
    std::vector<Cell> cells;
    double cost = 0;
    std::vector<Cell> waypoints;
    double smoothed_cost = 0;
    uint64_t expanded = 0;
    Algorithm algorithm{};
    std::vector<Cell> trace;  // With trace: the cells expanded.
  };
  std::vector<Leg> legs;
  std::vector<std::string> link_ids;
  double cost = 0;
  bool partial = false;
  uint64_t world_version = 0;
  uint32_t searches = 0;
  uint64_t expanded = 0;
  double queue_micros = 0;
  double search_micros = 0;
};

struct WatchCommand {
  uint64_t request_id = 0;
  uint64_t agent_id = 0;
  WatchAction action = WatchAction::kAdd;
  // kAdd: the agent's path request, read and checked on its own
  // (PathAskFromProto), and its options.
  PathAsk path;
  double replan_if_cheaper = 0;
  uint64_t progressive_expansions = 0;
  // kMove: where the agent is now.
  Cell position;
  // kRetarget: its new goal.
  Cell goal;
  // A world agent's: kAdd its request (set: the command is a world
  // agent's), kMove and kRetarget the map named with the cell (unset: the
  // map the agent is on, or its goal's).
  std::shared_ptr<const WorldPathAsk> world_path;
  absl::optional<MapCell> world_position;
  absl::optional<MapCell> world_goal;
};

struct WatchEvent {
  uint64_t request_id = 0;  // 0: a push.
  uint64_t agent_id = 0;
  WatchReason reason = WatchReason::kUnspecified;
  absl::Status status;
  // The path answered (a search's answer; a progressive first answer is
  // partial), when the event carries one.
  absl::optional<PathAnswer> path;
  uint64_t path_index = 0;
  uint64_t map_version = 0;
  double since_update_micros = 0;
  bool incremental = false;
  // World agents: the world path answered, the leg of a MOVED position,
  // the member map whose change caused a push (empty: the links changed).
  std::shared_ptr<const WorldPathAnswer> world_path;
  uint32_t leg_index = 0;
  std::string map_id;
  uint64_t world_version = 0;
};

}  // namespace gridstar::server

#endif  // GRIDSTAR_SERVER_WATCH_WATCH_EVENTS_H_
