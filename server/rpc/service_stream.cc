// FindPathsStream: a bidirectional stream of path requests, each answered
// by a worker as it finishes.

#include <atomic>
#include <deque>
#include <functional>
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
#include "rpc/world_requests.h"

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
    if (request_.has_world_request()) {
      ReadWorldRequest(id);
      return;
    }
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
    Submit(
        id, s,
        [this, job](SearchContext& context, v1::StreamPathResponse* answer) {
          v1::PathItemResult* item = answer->mutable_result();
          SetItem(
              RunJob(*job, service_->metrics(), context, item->mutable_path()),
              item);
        },
        [](const absl::Status& failed, v1::StreamPathResponse* answer) {
          SetItem(failed, answer->mutable_result());
        });
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
  // The next read, unless max_stream_inflight tasks are in flight: then
  // reading pauses until an answer frees a slot.
  void ReadNext() {
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

  // A world path request: checked now, searched by a worker, answered in
  // world_result.
  void ReadWorldRequest(uint64_t id) {
    absl::StatusOr<PathfindingService::WorldJob> job = service_->MakeWorldJob(
        request_.world_request(), "world_request.",
        CallDeadline(ctx_, service_->options().max_search_time), cancelled_);
    Submit(
        id, job.status(),
        [job = job.ok() ? *std::move(job) : PathfindingService::WorldJob()](
            SearchContext& context, v1::StreamPathResponse* answer) {
          v1::WorldPathItemResult* item = answer->mutable_world_result();
          SetWorldItem(PathfindingService::RunWorldJob(job, context,
                                                       item->mutable_path()),
                       item);
        },
        [](const absl::Status& failed, v1::StreamPathResponse* answer) {
          SetWorldItem(failed, answer->mutable_world_result());
        });
  }

  // Runs `run` on a worker when `s` is OK (counted in flight), answering
  // with what it wrote; else, or when the queue is full, answers at once
  // with `fail` of the status. Then reads on (ReadNext).
  void Submit(uint64_t id, absl::Status s,
              std::function<void(SearchContext&, v1::StreamPathResponse*)> run,
              void (*fail)(const absl::Status&, v1::StreamPathResponse*)) {
    bool queued = false;
    if (s.ok()) {
      {
        std::lock_guard<std::mutex> lock(mu_);
        ++inflight_;
      }
      queued = service_->search()->TrySubmit(
          [this, run = std::move(run), id](SearchContext& context) {
            v1::StreamPathResponse answer;
            answer.set_request_id(id);
            run(context, &answer);
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
      fail(s, &answer);
      Answer(std::move(answer), /*was_task=*/false);
    }
    ReadNext();
  }

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
