// WatchPaths: the stream of a client's watched agents (watch_hub.h holds
// them). Requests go to the hub as they are read; its events are written one
// at a time, in order, from a queue that holds at most --watch_max_pending
// events: pushes for an agent replace its unwritten push, and a reader that
// falls further behind is closed with RESOURCE_EXHAUSTED (its agents are
// dropped). When the client closes its side, its agents are dropped
// (searches in flight cancelled), the events queued are written, and the
// call ends OK. Reading pauses while --max_stream_inflight requests of the
// stream await their answers (as FindPathsStream does), which pushes back
// on a client that adds agents faster than they are searched.

#include <atomic>
#include <deque>
#include <memory>
#include <mutex>
#include <string>
#include <utility>

#include "absl/base/thread_annotations.h"
#include "absl/container/flat_hash_map.h"
#include "absl/strings/str_cat.h"
#include "absl/time/clock.h"
#include "convert/convert.h"
#include "rpc/service.h"
#include "watch/watch_hub.h"
#include "watch/watch_wire.h"

namespace gridstar::server {
namespace {

class WatchCall;

// The stream's write queue; lives as long as the hub or a task holds it,
// which may be after the call is gone (it then refuses every event).
class StreamSink : public WatchSink {
 public:
  StreamSink(WatchCall* call, size_t max_pending, size_t max_awaiting,
             WatchMetrics* metrics)
      : call_(call),
        max_pending_(max_pending),
        max_awaiting_(max_awaiting),
        metrics_(metrics) {}

  bool Push(WatchEvent event, bool coalesce) override;
  // A request was read and goes to the hub: false when it is the last one
  // read until answers come (Push then resumes reading).
  bool RequestStarted();
  // The reactor's reactions.
  void WriteDone(bool ok);
  void ReadsDone();
  void Detach() {
    std::lock_guard<std::mutex> lock(mu_);
    call_ = nullptr;
  }
  bool closed() {
    std::lock_guard<std::mutex> lock(mu_);
    return closed_;
  }

 private:
  // Starts the front's write, or finishes the call when it is closed and
  // nothing is being written. Unlocks.
  void Next(std::unique_lock<std::mutex>& lock);

  std::mutex mu_;
  WatchCall* call_ ABSL_GUARDED_BY(mu_);
  const size_t max_pending_;
  const size_t max_awaiting_;
  WatchMetrics* const metrics_;
  size_t awaiting_ ABSL_GUARDED_BY(mu_) = 0;  // Requests not yet answered.
  bool read_paused_ ABSL_GUARDED_BY(mu_) = false;
  // Front is being written (as wire_) while writing_.
  std::deque<WatchEvent> queue_ ABSL_GUARDED_BY(mu_);
  // Agent id -> its unwritten push in queue_ (deque elements stay put).
  absl::flat_hash_map<uint64_t, WatchEvent*> pushes_ ABSL_GUARDED_BY(mu_);
  bool writing_ ABSL_GUARDED_BY(mu_) = false;
  // The front as written; touched only by the one write in flight (Next
  // fills it after unlocking, the queue's front staying put meanwhile).
  v1::WatchEvent wire_;
  bool closed_ ABSL_GUARDED_BY(mu_) = false;  // No more events taken.
  bool finished_ ABSL_GUARDED_BY(mu_) = false;
  grpc::Status end_ ABSL_GUARDED_BY(mu_);
};

class WatchCall
    : public grpc::ServerBidiReactor<v1::WatchRequest, v1::WatchEvent> {
 public:
  WatchCall(PathfindingService* service, grpc::CallbackServerContext* ctx)
      : service_(service),
        start_(absl::Now()),
        sink_(std::make_shared<StreamSink>(
            this, service->options().watch_max_pending,
            service->options().max_stream_inflight,
            service->watch()->watch_metrics())) {
    service_->metrics()->RequestStarted();
    if (absl::Status s =
            service_->Authorize(ctx, AccessLevel::kQuery, "WatchPaths");
        !s.ok()) {
      const grpc::Status refusal = convert::ToGrpcStatus(s);
      code_.store(static_cast<int>(refusal.error_code()));
      sink_->Detach();
      Finish(refusal);  // No read was started: nothing else can finish.
      return;
    }
    StartRead(&request_);
  }

  void OnReadDone(bool ok) override {
    if (!ok) {
      service_->watch()->DropStream(sink_.get());
      sink_->ReadsDone();
      return;
    }
    // The hub may answer (and reading resume into request_) before
    // Handle returns: it gets its own copy.
    const v1::WatchRequest request = std::move(request_);
    const bool more = sink_->RequestStarted();
    HandleRequest(*service_->watch(), sink_, request);
    if (more && !sink_->closed()) StartRead(&request_);
  }

  // Reading resumes after a pause (StreamSink::Push, under its lock).
  void ResumeRead() { StartRead(&request_); }

  void OnWriteDone(bool ok) override { sink_->WriteDone(ok); }

  void OnDone() override {
    sink_->Detach();
    service_->watch()->DropStream(sink_.get());
    service_->metrics()->Request("WatchPaths", code_.load(),
                                 absl::ToDoubleSeconds(absl::Now() - start_));
    delete this;
  }

  void End(const grpc::Status& s) {
    code_.store(static_cast<int>(s.error_code()));
    Finish(s);
  }

 private:
  PathfindingService* const service_;
  const absl::Time start_;
  const std::shared_ptr<StreamSink> sink_;
  std::atomic<int> code_{0};
  v1::WatchRequest request_;  // The one read in flight.
};

bool StreamSink::RequestStarted() {
  std::lock_guard<std::mutex> lock(mu_);
  if (++awaiting_ < max_awaiting_) return true;
  read_paused_ = true;
  return false;
}

bool StreamSink::Push(WatchEvent event, bool coalesce) {
  std::unique_lock<std::mutex> lock(mu_);
  if (closed_) return false;
  // A request's answer (a progressive first answer is not the last).
  const bool partial =
      event.status.ok() && event.path.has_value() && event.path->result.partial;
  if (event.request_id != 0 && !partial) {
    if (awaiting_ > 0) --awaiting_;
    if (read_paused_ && awaiting_ < max_awaiting_ && call_ != nullptr) {
      read_paused_ = false;
      // No read is in flight and the call cannot finish before this
      // returns (closed_ is false and is only set under this lock).
      call_->ResumeRead();
    }
  }
  if (coalesce) {
    if (auto it = pushes_.find(event.agent_id); it != pushes_.end()) {
      *it->second = std::move(event);
      return true;
    }
  }
  const size_t waiting = queue_.size() - (writing_ ? 1 : 0);
  if (waiting >= max_pending_) {
    closed_ = true;
    end_ = grpc::Status(
        grpc::StatusCode::RESOURCE_EXHAUSTED,
        absl::StrCat("WatchPaths: the reader fell behind (", waiting,
                     " events unread, the limit of --watch_max_pending); "
                     "the stream is closed and its agents dropped"));
    // What waits is not written: only the write in flight ends.
    pushes_.clear();
    while (queue_.size() > (writing_ ? 1u : 0u)) queue_.pop_back();
    metrics_->StreamFellBehind();
    if (!writing_) Next(lock);
    return false;
  }
  queue_.push_back(std::move(event));
  if (coalesce) pushes_[queue_.back().agent_id] = &queue_.back();
  if (!writing_) Next(lock);
  return true;
}

void StreamSink::WriteDone(bool ok) {
  std::unique_lock<std::mutex> lock(mu_);
  writing_ = false;
  queue_.pop_front();
  if (!ok && !closed_) {
    // The client is gone: nothing more can be written.
    closed_ = true;
    end_ = grpc::Status(grpc::StatusCode::CANCELLED, "WatchPaths: write failed");
    queue_.clear();
    pushes_.clear();
  }
  Next(lock);
}

void StreamSink::ReadsDone() {
  std::unique_lock<std::mutex> lock(mu_);
  closed_ = true;
  if (!writing_) Next(lock);
}

void StreamSink::Next(std::unique_lock<std::mutex>& lock) {
  if (writing_ || finished_ || call_ == nullptr) return;
  if (!queue_.empty()) {
    const WatchEvent* front = &queue_.front();
    auto it = pushes_.find(front->agent_id);
    if (it != pushes_.end() && it->second == front) pushes_.erase(it);
    writing_ = true;
    WatchCall* call = call_;
    lock.unlock();
    // Written outside the lock: pushes do not wait for it.
    wire_.Clear();
    WatchEventToProto(*front, &wire_);
    // Alive: the call finishes only from here, once nothing is written.
    call->StartWrite(&wire_);
    return;
  }
  if (!closed_) return;
  finished_ = true;
  WatchCall* call = call_;
  const grpc::Status end = end_;
  lock.unlock();
  call->End(end);
}

}  // namespace

grpc::ServerBidiReactor<v1::WatchRequest, v1::WatchEvent>*
PathfindingService::WatchPaths(grpc::CallbackServerContext* ctx) {
  return new WatchCall(this, ctx);
}

}  // namespace gridstar::server
