// What every handler of the service shares: the unary call object (finishes
// once, records its metrics, lends its searches a cancellation flag), the
// call's search deadline, and resolving a map id (UnknownMap and Overloaded,
// shared with the watch hub, are in maps/path_jobs.h).
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
#include "absl/types/optional.h"
#include "grpcpp/grpcpp.h"
#include "maps/map_registry.h"
#include "maps/path_jobs.h"
#include "runtime/metrics.h"
#include "runtime/scheduler.h"

namespace gridstar::server {

// The header (gRPC initial metadata, an HTTP response header) by which a
// server on a shared store says so (the C++ client's gridstar::kStoreHeader).
inline constexpr char kStoreHeader[] = "x-gridstar-store";

// One unary call of the service, whatever carried it: gRPC (UnaryCall
// below) or the HTTP/JSON port (http/http_gateway.cc). The handlers
// (PathfindingService::Serve*) see only this.
class Call {
 public:
  virtual ~Call() = default;
  Call(const Call&) = delete;
  Call& operator=(const Call&) = delete;

  // Finishes the call with `s` and records it (gridstar_requests_total and
  // the duration, by method and code). Exactly once; the call may be gone
  // when it returns.
  virtual void Done(const absl::Status& s) = 0;
  // Tells the caller that this server is on a shared store (kStoreHeader,
  // before anything else is sent).
  virtual void SayStoreShared() = 0;

  const CancelFlag& cancelled() const { return cancelled_; }
  const std::string& method() const { return method_; }
  // The caller's deadline; InfiniteFuture when it gave none.
  absl::Time deadline() const { return deadline_; }
  // The caller's `authorization` (metadata or header), nullopt when none.
  // Valid while the handler that received the call runs.
  absl::optional<absl::string_view> authorization() const {
    return authorization_;
  }

 protected:
  Call(Metrics* metrics, absl::string_view method, absl::Time deadline,
       absl::optional<absl::string_view> authorization);
  // Records the outcome (Done's metrics).
  void Record(int grpc_code);

 private:
  Metrics* const metrics_;
  const std::string method_;
  const absl::Time start_;
  const absl::Time deadline_;
  const absl::optional<absl::string_view> authorization_;
  const CancelFlag cancelled_;
};

class UnaryCall : public grpc::ServerUnaryReactor, public Call {
 public:
  UnaryCall(Metrics* metrics, absl::string_view method,
            grpc::CallbackServerContext* ctx);

  void Done(const absl::Status& s) override;
  void SayStoreShared() override;

  void OnCancel() override { cancelled()->store(true); }
  void OnDone() override { delete this; }
  // Both reactions above are trivial and never block (an atomic store, a
  // delete), so gRPC may run them on the thread that completes the call.
  // Without this gRPC hands every OnDone to its executor: one more thread
  // wake-up per call, which made the rate at 32 calls in flight 0.72x the
  // echo service's instead of 0.93x (tests/bench/floor_bench.sh). gRPC marks
  // the hook as not API: `override` makes a gRPC without it fail to build
  // rather than run slower unnoticed. (The stream's reactor does real work
  // in its reactions and keeps the executor.)
  bool InternalInlineable() override { return true; }

 private:
  grpc::CallbackServerContext* const ctx_;
};

// The call's deadline, capped by the server's budget for one call.
absl::Time CallDeadline(const Call& call, absl::Duration max_search_time);
absl::Time CallDeadline(const grpc::CallbackServerContext* ctx,
                        absl::Duration max_search_time);

// The map's current snapshot (loaded from a shared store on first use), or
// null after finishing the call with UnknownMap (or the store's error).
std::shared_ptr<const MapSnapshot> SnapshotOrFinish(MapRegistry& registry,
                                                    absl::string_view field,
                                                    const std::string& id,
                                                    Call* call);

// The call's `authorization` metadata value, nullopt when it has none.
absl::optional<absl::string_view> AuthorizationOf(
    const grpc::CallbackServerContext* ctx);

}  // namespace gridstar::server

#endif  // GRIDSTAR_SERVER_CALLS_H_
