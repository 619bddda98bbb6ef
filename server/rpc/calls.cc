#include "rpc/calls.h"

#include <algorithm>
#include <chrono>

#include "absl/strings/str_cat.h"
#include "absl/time/clock.h"
#include "convert/convert.h"

namespace gridstar::server {

Call::Call(Metrics* metrics, absl::string_view method, absl::Time deadline,
           absl::optional<absl::string_view> authorization)
    : metrics_(metrics),
      method_(method),
      start_(absl::Now()),
      deadline_(deadline),
      authorization_(authorization),
      cancelled_(std::make_shared<std::atomic<bool>>(false)) {
  metrics_->RequestStarted();
}

void Call::Record(int grpc_code) {
  metrics_->Request(method_, grpc_code,
                    absl::ToDoubleSeconds(absl::Now() - start_));
}

namespace {

absl::Time DeadlineOf(const grpc::CallbackServerContext* ctx) {
  const auto d = ctx->deadline();
  if (d == std::chrono::system_clock::time_point::max()) {
    return absl::InfiniteFuture();
  }
  return absl::FromChrono(d);
}

}  // namespace

UnaryCall::UnaryCall(Metrics* metrics, absl::string_view method,
                     grpc::CallbackServerContext* ctx)
    : Call(metrics, method, DeadlineOf(ctx), AuthorizationOf(ctx)), ctx_(ctx) {}

void UnaryCall::Done(const absl::Status& s) {
  const grpc::Status status = convert::ToGrpcStatus(s);
  Record(static_cast<int>(status.error_code()));
  Finish(status);
}

void UnaryCall::SayStoreShared() {
  ctx_->AddInitialMetadata(kStoreHeader, "shared");
}

absl::Time CallDeadline(const Call& call, absl::Duration max_search_time) {
  return std::min(absl::Now() + max_search_time, call.deadline());
}

absl::Time CallDeadline(const grpc::CallbackServerContext* ctx,
                        absl::Duration max_search_time) {
  const absl::Time cap = absl::Now() + max_search_time;
  const auto d = ctx->deadline();
  if (d == std::chrono::system_clock::time_point::max()) return cap;
  return std::min(cap, absl::FromChrono(d));
}

std::shared_ptr<const MapSnapshot> SnapshotOrFinish(MapRegistry& registry,
                                                    absl::string_view field,
                                                    const std::string& id,
                                                    Call* call) {
  absl::StatusOr<std::shared_ptr<const MapSnapshot>> snapshot =
      registry.FindOrLoad(id);
  if (!snapshot.ok()) {
    call->Done(snapshot.status());
    return nullptr;
  }
  if (*snapshot == nullptr) call->Done(UnknownMap(field, id));
  return *std::move(snapshot);
}

absl::optional<absl::string_view> AuthorizationOf(
    const grpc::CallbackServerContext* ctx) {
  const auto& metadata = ctx->client_metadata();
  const auto it = metadata.find("authorization");
  if (it == metadata.end()) return absl::nullopt;
  return absl::string_view(it->second.data(), it->second.size());
}

}  // namespace gridstar::server
