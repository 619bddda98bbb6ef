// FindPathsStream: a bidirectional stream of path requests, each answered
// by a worker as it finishes.

#include <atomic>
#include <deque>
#include <memory>
#include <mutex>
#include <string>
#include <utility>

#include "absl/base/thread_annotations.h"
#include "absl/time/clock.h"
#include "convert/convert.h"
#include "rpc/calls.h"
#include "rpc/search_jobs.h"
#include "rpc/service.h"

namespace gridstar::server {
namespace {

// A bidirectional stream: each read becomes a task; answers are written in
// the order they finish, one write in flight at a time. At most
// max_stream_inflight tasks per stream: beyond that reading pauses, which
// pushes back on the client through gRPC flow control.
class StreamCall : public grpc::ServerBidiReactor<v1::StreamPathRequest,
                                                  v1::StreamPathResponse> {
 public:
  StreamCall(PathfindingService* service, grpc::CallbackServerContext* ctx)
      : service_(service),
        ctx_(ctx),
        start_(absl::Now()),
        cancelled_(std::make_shared<std::atomic<bool>>(false)) {
    service_->metrics()->RequestStarted();
    if (absl::Status s =
            service_->Authorize(ctx, AccessLevel::kQuery, "FindPathsStream");
        !s.ok()) {
      const grpc::Status refusal = convert::ToGrpcStatus(s);
      code_ = static_cast<int>(refusal.error_code());
      Finish(refusal);  // No read was started: nothing else can finish.
      return;
    }
    StartRead(&request_);
  }

  void OnReadDone(bool ok) override {
    if (!ok) {
      std::unique_lock<std::mutex> lock(mu_);
      reads_done_ = true;
      MaybeFinish(lock);
      return;
    }
    const uint64_t id = request_.request_id();
    const v1::PathRequest& r = request_.request();
    absl::StatusOr<std::shared_ptr<const MapSnapshot>> found =
        service_->registry()->FindOrLoad(r.map_id());
    std::shared_ptr<const MapSnapshot> snapshot =
        found.ok() ? *std::move(found) : nullptr;
    auto job = std::make_shared<PathJob>();
    absl::Status s =
        !found.ok() ? found.status()
        : snapshot == nullptr
            ? UnknownMap("request.map_id", r.map_id())
            : MakeJob(r, std::move(snapshot),
                      CallDeadline(ctx_, service_->options().max_search_time),
                      cancelled_, "request.",
                      service_->options().max_message_bytes, job.get());
    bool queued = false;
    if (s.ok()) {
      {
        std::lock_guard<std::mutex> lock(mu_);
        ++inflight_;
      }
      queued = service_->search()->TrySubmit([this, job,
                                              id](SearchContext& context) {
        v1::StreamPathResponse answer;
        answer.set_request_id(id);
        v1::PathItemResult* item = answer.mutable_result();
        SetItem(
            RunJob(*job, service_->metrics(), context, item->mutable_path()),
            item);
        Answer(std::move(answer), /*was_task=*/true);
      });
      if (!queued) {
        std::lock_guard<std::mutex> lock(mu_);
        --inflight_;
        s = Overloaded(*service_->search());
      }
    }
    if (!queued) {
      v1::StreamPathResponse answer;
      answer.set_request_id(id);
      SetItem(s, answer.mutable_result());
      Answer(std::move(answer), /*was_task=*/false);
    }
    bool read = false;
    {
      std::lock_guard<std::mutex> lock(mu_);
      if (inflight_ < service_->options().max_stream_inflight) {
        read = true;
      } else {
        read_paused_ = true;
      }
    }
    if (read) StartRead(&request_);
  }

  void OnWriteDone(bool ok) override {
    std::unique_lock<std::mutex> lock(mu_);
    writes_.pop_front();
    if (!ok) {
      write_failed_ = true;
      writes_.clear();
    }
    writing_ = !writes_.empty();
    v1::StreamPathResponse* next = writing_ ? &writes_.front() : nullptr;
    if (next != nullptr) {
      lock.unlock();
      StartWrite(next);
      return;
    }
    MaybeFinish(lock);
  }

  void OnCancel() override { cancelled_->store(true); }

  void OnDone() override {
    service_->metrics()->Request("FindPathsStream", code_,
                                 absl::ToDoubleSeconds(absl::Now() - start_));
    delete this;
  }

 private:
  // Queues an answer; starts a write if none is in flight, and resumes
  // reading if it was paused for this task's slot.
  void Answer(v1::StreamPathResponse answer, bool was_task) {
    std::unique_lock<std::mutex> lock(mu_);
    if (was_task) --inflight_;
    bool resume = false;
    if (read_paused_ && inflight_ < service_->options().max_stream_inflight) {
      read_paused_ = false;
      resume = true;
    }
    v1::StreamPathResponse* to_write = nullptr;
    if (!write_failed_) {
      writes_.push_back(std::move(answer));
      if (!writing_) {
        writing_ = true;
        to_write = &writes_.front();
      }
    }
    if (to_write == nullptr && !resume) {
      MaybeFinish(lock);
      return;
    }
    lock.unlock();
    if (to_write != nullptr) StartWrite(to_write);
    if (resume) StartRead(&request_);
  }

  // Finishes once every read, task and write is done.
  void MaybeFinish(std::unique_lock<std::mutex>& lock) {
    if (!reads_done_ || inflight_ != 0 || writing_ || finished_) return;
    finished_ = true;
    lock.unlock();
    Finish(grpc::Status::OK);
  }

  PathfindingService* const service_;
  grpc::CallbackServerContext* const ctx_;
  const absl::Time start_;
  const CancelFlag cancelled_;
  // The code OnDone counts: OK, or the refusal of the call's key.
  int code_ = 0;                   // grpc::StatusCode of the end.
  v1::StreamPathRequest request_;  // The one read in flight.
  std::mutex mu_;                  // Guards the fields below it.
  // Front is being written.
  std::deque<v1::StreamPathResponse> writes_ ABSL_GUARDED_BY(mu_);
  size_t inflight_ ABSL_GUARDED_BY(mu_) = 0;
  bool reads_done_ ABSL_GUARDED_BY(mu_) = false;
  bool read_paused_ ABSL_GUARDED_BY(mu_) = false;
  bool writing_ ABSL_GUARDED_BY(mu_) = false;
  bool write_failed_ ABSL_GUARDED_BY(mu_) = false;
  bool finished_ ABSL_GUARDED_BY(mu_) = false;
};

}  // namespace

grpc::ServerBidiReactor<v1::StreamPathRequest, v1::StreamPathResponse>*
PathfindingService::FindPathsStream(grpc::CallbackServerContext* ctx) {
  return new StreamCall(this, ctx);
}

}  // namespace gridstar::server
