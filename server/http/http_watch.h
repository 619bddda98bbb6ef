// WatchPaths over HTTP: server-sent events (text/event-stream) for the
// events, plain POSTs for the requests, on the HTTP/JSON port
// (http_gateway.h). The same watch hub serves them as the gRPC stream.
//
//   POST /gridstar.v1.Pathfinding/WatchPaths            opens a stream
//     body: a WatchRequest or an array of them (may be empty), in JSON;
//     answer: text/event-stream; its first event is
//       event: stream   data: {"streamId": "<id>"}
//     and every WatchEvent follows as `data: <WatchEvent JSON>`; a comment
//     line keeps the connection alive every 5 s of silence.
//   POST /gridstar.v1.Pathfinding/WatchPaths?stream=<id> more requests
//     body: as above; answer {"accepted": N} (their events come on the
//     stream); 404 for a stream that is gone.
//
// A stream ends when its client disconnects (noticed at the next write, at
// most 5 s later; its agents are then dropped) or
// falls more than --watch_max_pending events behind (an event named
// `error` says so, then the stream closes). Stream ids are 128 random bits:
// who knows one controls its agents, and each request also needs a query
// key (Authorization: Bearer) when keys are on. Each open stream holds one
// of the port's threads; at most half of them serve streams (429 beyond).
//
// Thread-safety: every method may be called from any thread.
#ifndef GRIDSTAR_SERVER_HTTP_HTTP_WATCH_H_
#define GRIDSTAR_SERVER_HTTP_HTTP_WATCH_H_

#include <condition_variable>
#include <deque>
#include <map>
#include <memory>
#include <mutex>
#include <string>

#include "absl/base/thread_annotations.h"
#include "absl/container/flat_hash_map.h"
#include "absl/status/status.h"
#include "absl/strings/string_view.h"
#include "absl/time/time.h"
#include "rpc/service.h"
#include "watch/watch_hub.h"

namespace httplib {
struct Request;
struct Response;
}  // namespace httplib

namespace gridstar::server {

// One event stream's queue: filled by the watch hub (Push, under the hub's
// lock), drained by the connection's thread (Take). Pushes for an agent
// replace its unread push; a queue of `max_pending` events closes the
// stream (fell_behind). Thread-safety: every method from any thread.
class SseSink : public WatchSink {
 public:
  SseSink(std::string id, size_t max_pending)
      : id_(std::move(id)), max_pending_(max_pending) {}

  bool Push(WatchEvent event, bool coalesce) override {
    std::lock_guard<std::mutex> lock(mu_);
    if (closed_) return false;
    if (coalesce) {
      if (auto it = pushes_.find(event.agent_id); it != pushes_.end()) {
        *it->second = std::move(event);
        return true;
      }
    }
    if (queue_.size() >= max_pending_) {
      closed_ = fell_behind_ = true;
      queue_.clear();
      pushes_.clear();
      changed_.notify_all();
      return false;
    }
    queue_.push_back(std::move(event));
    if (coalesce) pushes_[queue_.back().agent_id] = &queue_.back();
    changed_.notify_all();
    return true;
  }

  enum class Next { kEvents, kIdle, kClosed };
  // Waits up to `wait` for events and moves them to *out.
  Next Take(std::deque<WatchEvent>* out, absl::Duration wait) {
    std::unique_lock<std::mutex> lock(mu_);
    changed_.wait_for(lock, absl::ToChronoSeconds(wait),
                      [this] { return closed_ || !queue_.empty(); });
    if (!queue_.empty()) {
      out->swap(queue_);
      queue_.clear();
      pushes_.clear();
      return Next::kEvents;
    }
    return closed_ ? Next::kClosed : Next::kIdle;
  }

  void Close() {
    std::lock_guard<std::mutex> lock(mu_);
    closed_ = true;
    changed_.notify_all();
  }
  bool fell_behind() {
    std::lock_guard<std::mutex> lock(mu_);
    return fell_behind_;
  }
  const std::string& id() const { return id_; }

 private:
  const std::string id_;
  const size_t max_pending_;
  std::mutex mu_;
  std::condition_variable changed_;
  std::deque<WatchEvent> queue_;
  absl::flat_hash_map<uint64_t, WatchEvent*> pushes_;
  bool closed_ = false;
  bool fell_behind_ = false;
};

class HttpWatchStreams {
 public:
  HttpWatchStreams(PathfindingService* service, size_t max_streams);
  ~HttpWatchStreams();  // Closes every stream (their threads then return).

  // Serves POST .../WatchPaths (above). The caller has checked the method.
  // Fills `response` (an event stream, or a JSON answer or error).
  void Serve(const httplib::Request& request, httplib::Response& response);
  // Closes every stream (Shutdown).
  void CloseAll();
  size_t open_streams() const;

 private:
  PathfindingService* const service_;
  const size_t max_streams_;
  mutable std::mutex mu_;
  std::map<std::string, std::shared_ptr<SseSink>, std::less<>> streams_
      ABSL_GUARDED_BY(mu_);
};

}  // namespace gridstar::server

#endif  // GRIDSTAR_SERVER_HTTP_HTTP_WATCH_H_
