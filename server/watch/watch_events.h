// What the watch hub (watch_hub.h) is asked and what it answers, in the
// server's own types: a WatchPaths request becomes a WatchCommand and a
// WatchEvent goes out as the proto's WatchEvent only at the stream
// (watch_wire.h), so the hub decides on core and registry types alone.
//
// The fields mean what the proto's fields of the same names mean
// (proto/gridstar/v1/gridstar.proto, WatchRequest and WatchEvent). World
// agents are the exception: their requests and paths stay the proto's
// (WorldPathRequest, WorldPathResponse), which is what the service's world
// searches take and give (world_watch.h).
//
// Thread-safety: plain values.
#ifndef GRIDSTAR_SERVER_WATCH_WATCH_EVENTS_H_
#define GRIDSTAR_SERVER_WATCH_WATCH_EVENTS_H_

#include <cstdint>
#include <memory>
#include <string>

#include "absl/status/status.h"
#include "absl/types/optional.h"
#include "gridstar/types.h"
#include "gridstar/v1/gridstar.pb.h"
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
  std::shared_ptr<const v1::WorldPathRequest> world_path;
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
  std::shared_ptr<const v1::WorldPathResponse> world_path;
  uint32_t leg_index = 0;
  std::string map_id;
  uint64_t world_version = 0;
};

}  // namespace gridstar::server

#endif  // GRIDSTAR_SERVER_WATCH_WATCH_EVENTS_H_
