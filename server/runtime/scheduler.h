// Scheduler: a bounded task queue served by a fixed set of worker threads,
// each owning one SearchContext for its whole life.
//
// Every search the server runs is a task here except FindPath's capped fast
// path (inline_searches.h), which a gRPC thread may run for a cheap search
// of at most InlineSearches' expansion cap before it queues the call here
// instead; so a gRPC thread never runs an uncapped search. TrySubmit never
// blocks: a full queue refuses the task at once
// (load shedding) and the caller answers RESOURCE_EXHAUSTED.
//
// Thread-safety: every method may be called from any thread.
#ifndef GRIDSTAR_SERVER_SCHEDULER_H_
#define GRIDSTAR_SERVER_SCHEDULER_H_

#include <atomic>
#include <condition_variable>
#include <cstddef>
#include <cstdint>
#include <deque>
#include <functional>
#include <memory>
#include <mutex>
#include <thread>
#include <vector>

#include "gridstar/search_context.h"

namespace gridstar::server {

class Scheduler {
 public:
  // Runs on a worker with that worker's context.
  using Task = std::function<void(SearchContext&)>;

  // Each worker owns one context made with `context_options`. Workers run
  // `nice_increment` nice levels below the process (0 = as it; a positive
  // increment lets other threads, such as the map writers, go first; a
  // thread may always lower its own priority). With `realtime_priority` > 0
  // each worker asks instead for SCHED_FIFO at that priority, so that it
  // takes a core the moment it has work, ahead of every ordinary thread:
  // best effort (refused without CAP_SYS_NICE, as in an unprivileged
  // container, the worker runs as the process does); the constructor
  // returns once every worker has asked, and realtime_workers() says how
  // many were granted it. REQUIRES: workers >= 1, capacity >= 1,
  // nice_increment >= 0, 0 <= realtime_priority <= 99, not both set.
  Scheduler(int workers, size_t capacity, SearchContextOptions context_options,
            int nice_increment = 0, int realtime_priority = 0);
  // Runs every queued task, then joins the workers.
  ~Scheduler();

  Scheduler(const Scheduler&) = delete;
  Scheduler& operator=(const Scheduler&) = delete;

  // Queues a task; false when the queue is full or the scheduler is stopping.
  bool TrySubmit(Task task);

  // Stops taking tasks, runs those queued, and joins the workers.
  void Shutdown();

  size_t depth() const;
  int busy_workers() const { return busy_.load(std::memory_order_relaxed); }
  int workers() const { return static_cast<int>(threads_.size()); }
  int realtime_workers() const {
    return realtime_.load(std::memory_order_relaxed);
  }
  size_t capacity() const { return capacity_; }
  // Sum of the workers' search context memory, as last reported by each
  // (a worker measures its context at most every 100 ms, after a task).
  size_t context_memory_bytes() const;

 private:
  void WorkerLoop(size_t index);

  const size_t capacity_;
  const int nice_increment_;
  const int realtime_priority_;
  // Workers that have set their priority, and those granted SCHED_FIFO.
  int started_ = 0;  // Guarded by mu_.
  std::condition_variable all_started_;
  std::atomic<int> realtime_{0};
  mutable std::mutex mu_;
  std::condition_variable ready_;
  std::deque<Task> queue_;
  bool stopping_ = false;
  std::atomic<int> busy_{0};
  std::vector<std::atomic<size_t>> context_bytes_;
  const SearchContextOptions context_options_;
  std::vector<std::thread> threads_;
};

}  // namespace gridstar::server

#endif  // GRIDSTAR_SERVER_SCHEDULER_H_
