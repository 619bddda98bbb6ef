#include "watch/watch_wire.h"

#include <string>
#include <utility>

#include "absl/strings/str_cat.h"
#include "convert/convert.h"
#include "rpc/search_jobs.h"
#include "rpc/world_requests.h"

namespace gridstar::server {

// WatchReason's values are the proto's numbers.
#define GRIDSTAR_SAME_REASON(ours, theirs)                       \
  static_assert(static_cast<int>(WatchReason::ours) ==           \
                    static_cast<int>(v1::WATCH_REASON_##theirs), \
                #ours " and WATCH_REASON_" #theirs " differ")
GRIDSTAR_SAME_REASON(kUnspecified, UNSPECIFIED);
GRIDSTAR_SAME_REASON(kAdded, ADDED);
GRIDSTAR_SAME_REASON(kMoved, MOVED);
GRIDSTAR_SAME_REASON(kOffPath, OFF_PATH);
GRIDSTAR_SAME_REASON(kRetargeted, RETARGETED);
GRIDSTAR_SAME_REASON(kRemoved, REMOVED);
GRIDSTAR_SAME_REASON(kBlocked, BLOCKED);
GRIDSTAR_SAME_REASON(kCheaper, CHEAPER);
GRIDSTAR_SAME_REASON(kReachable, REACHABLE);
GRIDSTAR_SAME_REASON(kMapDeleted, MAP_DELETED);
GRIDSTAR_SAME_REASON(kWorldDeleted, WORLD_DELETED);
#undef GRIDSTAR_SAME_REASON
static_assert(kWatchReasons == v1::WatchReason_ARRAYSIZE,
              "a WatchReason is missing");

v1::WatchReason WatchReasonToProto(WatchReason reason) {
  return static_cast<v1::WatchReason>(static_cast<int>(reason));
}

bool CommandFromProto(const v1::WatchRequest& r, WatchCommand* command,
                      WatchEvent* refusal) {
  command->request_id = r.request_id();
  command->agent_id = r.agent_id();
  refusal->request_id = r.request_id();
  refusal->agent_id = r.agent_id();
  switch (r.action()) {
    case v1::WATCH_ACTION_ADD:
      command->action = WatchAction::kAdd;
      command->replan_if_cheaper = r.replan_if_cheaper();
      command->progressive_expansions = r.progressive_expansions();
      if (r.has_world_path()) {
        if (r.has_path()) {
          refusal->reason = WatchReason::kAdded;
          refusal->status = absl::InvalidArgumentError(
              "path: set with world_path; an agent walks one map (path) or "
              "a world (world_path)");
          return false;
        }
        auto ask = std::make_shared<WorldPathAsk>();
        if (absl::Status s =
                WorldPathAskFromProto(r.world_path(), "world_path.", ask.get());
            !s.ok()) {
          refusal->reason = WatchReason::kAdded;
          refusal->status = std::move(s);
          return false;
        }
        command->world_path = std::move(ask);
        return true;
      }
      if (absl::Status s = PathAskFromProto(r.path(), "path.", &command->path);
          !s.ok()) {
        refusal->reason = WatchReason::kAdded;
        refusal->status = std::move(s);
        return false;
      }
      return true;
    case v1::WATCH_ACTION_MOVE:
      command->action = WatchAction::kMove;
      command->position = convert::CellFromProto(r.position());
      if (r.has_world_position()) {
        command->world_position =
            MapCell{r.world_position().map_id(),
                    convert::CellFromProto(r.world_position().cell())};
      }
      return true;
    case v1::WATCH_ACTION_RETARGET:
      command->action = WatchAction::kRetarget;
      command->goal = convert::CellFromProto(r.goal());
      if (r.has_world_goal()) {
        command->world_goal =
            MapCell{r.world_goal().map_id(),
                    convert::CellFromProto(r.world_goal().cell())};
      }
      return true;
    case v1::WATCH_ACTION_REMOVE:
      command->action = WatchAction::kRemove;
      return true;
    default:
      refusal->reason = WatchReason::kUnspecified;
      refusal->status = absl::InvalidArgumentError(
          absl::StrCat("action: ", static_cast<int>(r.action()),
                       " is not ADD, MOVE, RETARGET or REMOVE"));
      return false;
  }
}

void HandleRequest(WatchHub& hub, const std::shared_ptr<WatchSink>& sink,
                   const v1::WatchRequest& request) {
  WatchCommand command;
  WatchEvent refusal;
  if (CommandFromProto(request, &command, &refusal)) {
    hub.Handle(sink, command);
  } else if (!sink->Push(std::move(refusal), /*coalesce=*/false)) {
    hub.DropStream(sink.get());
  }
}

void WatchEventToProto(const WatchEvent& e, v1::WatchEvent* out) {
  out->set_request_id(e.request_id);
  out->set_agent_id(e.agent_id);
  out->set_reason(WatchReasonToProto(e.reason));
  out->set_code(static_cast<int32_t>(e.status.code()));
  out->set_message(std::string(e.status.message()));
  if (e.path.has_value()) {
    PathResponseFrom(e.path->result, e.path->facts, e.status.ok(),
                     out->mutable_path());
  }
  out->set_path_index(e.path_index);
  out->set_map_version(e.map_version);
  out->set_since_update_micros(e.since_update_micros);
  out->set_incremental(e.incremental);
  if (e.world_path != nullptr) {
    WorldPathAnswerToProto(*e.world_path, out->mutable_world_path());
  }
  out->set_leg_index(e.leg_index);
  out->set_map_id(e.map_id);
  out->set_world_version(e.world_version);
}

}  // namespace gridstar::server
