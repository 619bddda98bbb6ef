// The watch hub's types on the wire: a WatchPaths request read into a
// WatchCommand, a WatchEvent written as the proto's (watch_events.h says
// what each holds; proto/gridstar/v1/gridstar.proto what each field means).
//
// Thread-safety: plain functions; HandleRequest may be called from any
// thread, as WatchHub::Handle may.
#ifndef GRIDSTAR_SERVER_WATCH_WATCH_WIRE_H_
#define GRIDSTAR_SERVER_WATCH_WATCH_WIRE_H_

#include <memory>

#include "gridstar/v1/gridstar.pb.h"
#include "watch/watch_events.h"
#include "watch/watch_hub.h"

namespace gridstar::server {

// Reads `request` into `command`. False when the hub cannot take it: an
// ADD whose path does not read (INVALID_ARGUMENT naming "path.<field>"),
// an unknown action; `refusal` is then the event that answers it.
bool CommandFromProto(const v1::WatchRequest& request, WatchCommand* command,
                      WatchEvent* refusal);

// Hands `request` to the hub, or answers it on `sink` when it does not read
// (a sink that refuses the answer has its stream dropped).
void HandleRequest(WatchHub& hub, const std::shared_ptr<WatchSink>& sink,
                   const v1::WatchRequest& request);

v1::WatchReason WatchReasonToProto(WatchReason reason);

// `event` as the stream writes it; its path as FindPath answers.
void WatchEventToProto(const WatchEvent& event, v1::WatchEvent* out);

}  // namespace gridstar::server

#endif  // GRIDSTAR_SERVER_WATCH_WATCH_WIRE_H_
