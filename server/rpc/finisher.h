// Finisher: one thread that ends calls whose responses are big, so that a
// search worker does not spend its time serialising and sending them.
//
// Ending a unary call (UnaryCall::Done) serialises the response and writes it
// to the socket on the thread that calls it. For a batch of 64 paths that is
// about 8% of what the worker spends on the batch (its searches included;
// perf on tests/bench/service_bench.sh), time no other search can use. A
// worker hands such a call here and goes on searching; on a machine whose
// cores are not all searching, the finisher runs on a free one.
//
// The queue has no fixed capacity, but every entry is a call the scheduler
// admitted (one entry per call, queued once its searches are done), so it is
// bounded by the calls in flight, which the scheduler's queue and gRPC's
// stream limit bound.
//
// Thread-safety: every method may be called from any thread. Closures run
// one at a time, in the order they were handed over.
#ifndef GRIDSTAR_SERVER_FINISHER_H_
#define GRIDSTAR_SERVER_FINISHER_H_

#include <condition_variable>
#include <cstddef>
#include <deque>
#include <functional>
#include <mutex>
#include <thread>

namespace gridstar::server {

class Finisher {
 public:
  Finisher();
  // Runs whatever is still queued, then joins the thread.
  ~Finisher();
  Finisher(const Finisher&) = delete;
  Finisher& operator=(const Finisher&) = delete;

  // Runs `done` on the finisher's thread, soon. After Shutdown it runs on
  // the caller's thread at once: a call is never left unfinished.
  void Run(std::function<void()> done);

  // Runs what is queued and joins the thread. Idempotent.
  void Shutdown();

  // Closures run so far (for tests).
  size_t finished() const;

 private:
  void Loop();

  // std::mutex, which TSan sees (Debian's Abseil is not instrumented).
  mutable std::mutex mu_;
  std::condition_variable ready_;  // Queue not empty, or stopping.
  // Guarded by mu_.
  std::deque<std::function<void()>> queue_;
  bool stopping_ = false;
  size_t finished_ = 0;
  std::thread thread_;
};

}  // namespace gridstar::server

#endif  // GRIDSTAR_SERVER_FINISHER_H_
