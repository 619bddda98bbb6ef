#include "rpc/finisher.h"

#include <utility>

namespace gridstar::server {

Finisher::Finisher() : thread_([this] { Loop(); }) {}

Finisher::~Finisher() { Shutdown(); }

void Finisher::Run(std::function<void()> done) {
  {
    std::lock_guard<std::mutex> lock(mu_);
    if (!stopping_) {
      queue_.push_back(std::move(done));
      ready_.notify_one();
      return;
    }
    ++finished_;
  }
  done();
}

void Finisher::Shutdown() {
  {
    std::lock_guard<std::mutex> lock(mu_);
    stopping_ = true;
    ready_.notify_one();
  }
  if (thread_.joinable()) thread_.join();
}

size_t Finisher::finished() const {
  std::lock_guard<std::mutex> lock(mu_);
  return finished_;
}

void Finisher::Loop() {
  std::unique_lock<std::mutex> lock(mu_);
  for (;;) {
    ready_.wait(lock, [this] { return stopping_ || !queue_.empty(); });
    if (queue_.empty()) return;  // Stopping, and nothing left to run.
    std::function<void()> done = std::move(queue_.front());
    queue_.pop_front();
    lock.unlock();
    done();
    lock.lock();
    ++finished_;
  }
}

}  // namespace gridstar::server
