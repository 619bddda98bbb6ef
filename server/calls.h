// What every handler of the service shares: the unary call object (finishes
// once, records its metrics, lends its searches a cancellation flag), the
// call's search deadline, resolving a map id, and load shedding.
//
// Thread-safety: a UnaryCall is finished once, from whichever thread ends it;
// its cancellation flag may be read by a worker while gRPC sets it.
#ifndef GRIDSTAR_SERVER_CALLS_H_
#define GRIDSTAR_SERVER_CALLS_H_

#include <atomic>
#include <memory>
#include <string>

#include "absl/status/status.h"
#include "absl/strings/string_view.h"
#include "absl/time/time.h"
#include "grpcpp/grpcpp.h"
#include "map_registry.h"
#include "metrics.h"
#include "scheduler.h"

namespace gridstar::server {

using CancelFlag = std::shared_ptr<std::atomic<bool>>;

class UnaryCall : public grpc::ServerUnaryReactor {
 public:
  UnaryCall(Metrics* metrics, absl::string_view method);

  // Finishes the call with `s` and records it.
  void Done(const grpc::Status& s);
  void Done(const absl::Status& s);

  const CancelFlag& cancelled() const { return cancelled_; }

  void OnCancel() override { cancelled_->store(true); }
  void OnDone() override { delete this; }

 private:
  Metrics* const metrics_;
  const std::string method_;
  const absl::Time start_;
  const CancelFlag cancelled_;
};

// The call's deadline, capped by the server's budget for one call.
absl::Time CallDeadline(const grpc::CallbackServerContext* ctx,
                        absl::Duration max_search_time);

// NotFound "<field>: no map 'id'" (InvalidArgument for a malformed id).
absl::Status UnknownMap(absl::string_view field, absl::string_view id);

// The map's current snapshot, or null after finishing the call with
// UnknownMap.
std::shared_ptr<const MapSnapshot> SnapshotOrFinish(const MapRegistry& registry,
                                                    absl::string_view field,
                                                    const std::string& id,
                                                    UnaryCall* call);

// ResourceExhausted: the scheduler's queue is full; retry later.
absl::Status Overloaded(const Scheduler& scheduler);

}  // namespace gridstar::server

#endif  // GRIDSTAR_SERVER_CALLS_H_
