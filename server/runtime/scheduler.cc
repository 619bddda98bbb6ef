#include "runtime/scheduler.h"

#include <sched.h>
#include <sys/resource.h>
#include <sys/syscall.h>
#include <unistd.h>

#include <algorithm>
#include <cerrno>
#include <chrono>
#include <utility>

namespace gridstar::server {

Scheduler::Scheduler(int workers, size_t capacity,
                     SearchContextOptions context_options, int nice_increment,
                     int realtime_priority)
    : capacity_(capacity),
      nice_increment_(nice_increment),
      realtime_priority_(realtime_priority),
      context_bytes_(static_cast<size_t>(workers)),
      context_options_(context_options) {
  for (int i = 0; i < workers; ++i) {
    threads_.emplace_back([this, i] { WorkerLoop(static_cast<size_t>(i)); });
  }
  std::unique_lock<std::mutex> lock(mu_);
  all_started_.wait(lock, [&] { return started_ == workers; });
}

Scheduler::~Scheduler() { Shutdown(); }

bool Scheduler::TrySubmit(Task task) {
  {
    std::lock_guard<std::mutex> lock(mu_);
    if (stopping_ || queue_.size() >= capacity_) return false;
    queue_.push_back(std::move(task));
  }
  ready_.notify_one();
  return true;
}

// Safe to call more than once: joined threads are no longer joinable.
void Scheduler::Shutdown() {
  {
    std::lock_guard<std::mutex> lock(mu_);
    stopping_ = true;
  }
  ready_.notify_all();
  for (std::thread& t : threads_) {
    if (t.joinable()) t.join();
  }
}

size_t Scheduler::depth() const {
  std::lock_guard<std::mutex> lock(mu_);
  return queue_.size();
}

size_t Scheduler::context_memory_bytes() const {
  size_t sum = 0;
  for (const auto& b : context_bytes_) sum += b.load(std::memory_order_relaxed);
  return sum;
}

void Scheduler::WorkerLoop(size_t index) {
  if (nice_increment_ > 0) {
    // Per thread on Linux: PRIO_PROCESS with a thread id names the thread.
    // Best effort: a refusal leaves the worker at the process's priority.
    const id_t tid = static_cast<id_t>(::syscall(SYS_gettid));
    errno = 0;
    const int base = ::getpriority(PRIO_PROCESS, tid);
    if (errno == 0) {
      (void)::setpriority(PRIO_PROCESS, tid,
                          std::min(19, base + nice_increment_));
    }
  }
  if (realtime_priority_ > 0) {
    sched_param param{};
    param.sched_priority = realtime_priority_;
    // Threads it starts (none today) would begin as ordinary ones.
    if (::sched_setscheduler(0, SCHED_FIFO | SCHED_RESET_ON_FORK, &param) ==
        0) {
      realtime_.fetch_add(1, std::memory_order_relaxed);
    }
  }
  {
    std::lock_guard<std::mutex> lock(mu_);
    ++started_;
  }
  all_started_.notify_all();
  SearchContext context(context_options_);
  // Measuring a context costs a system call over its arrays: at most every
  // 100 ms, so that small searches do not pay for it.
  auto next_report = std::chrono::steady_clock::now();
  for (;;) {
    Task task;
    {
      std::unique_lock<std::mutex> lock(mu_);
      ready_.wait(lock, [this] { return stopping_ || !queue_.empty(); });
      // Stopping still drains what was accepted.
      if (queue_.empty()) return;
      task = std::move(queue_.front());
      queue_.pop_front();
    }
    busy_.fetch_add(1, std::memory_order_relaxed);
    task(context);
    busy_.fetch_sub(1, std::memory_order_relaxed);
    const auto now = std::chrono::steady_clock::now();
    if (now >= next_report) {
      context_bytes_[index].store(context.MemoryBytes(),
                                  std::memory_order_relaxed);
      next_report = now + std::chrono::milliseconds(100);
    }
  }
}

}  // namespace gridstar::server
