// InlineSearches: the fast path of FindPath. A fixed pool of search contexts
// that the gRPC threads borrow, so that a cheap search is answered on the
// thread that received the call, without the hop to a worker and back (two
// thread wake-ups: tests/bench/floor_bench.sh measures what they cost).
//
// The worker pool and its bounded queue stay in charge of everything else:
// a search tried here may expand at most `max_expansions` cells and is
// abandoned beyond (TryRunJobWithin, search_jobs.h), then queued for a worker
// as if it had never been tried; a call whose ends lie further apart than
// `max_distance` (octile, in cells), or that snaps its ends, is never tried;
// and when every context is lent out the call is queued at once. So a gRPC
// thread never spends more than one capped search on a call.
//
// Thread-safety: every method may be called from any thread. A Lease is used
// by one thread at a time, as a SearchContext must be.
#ifndef GRIDSTAR_SERVER_INLINE_SEARCHES_H_
#define GRIDSTAR_SERVER_INLINE_SEARCHES_H_

#include <atomic>
#include <chrono>
#include <cstddef>
#include <cstdint>
#include <memory>
#include <vector>

#include "gridstar/search_context.h"
#include "rpc/search_jobs.h"

namespace gridstar::server {

struct InlineOptions {
  // Contexts in the pool (searches run inline at once); 0 turns the fast
  // path off.
  int contexts = 0;
  // Cells one inline attempt may expand before it goes to a worker.
  uint64_t max_expansions = 128;
  // Octile distance between the ends beyond which no attempt is made.
  int32_t max_distance = 256;
  SearchContextOptions context_options;
};

class InlineSearches {
 public:
  explicit InlineSearches(InlineOptions options);
  InlineSearches(const InlineSearches&) = delete;
  InlineSearches& operator=(const InlineSearches&) = delete;

  // Whether `job` is worth an inline attempt (ends close, no snapping).
  bool Eligible(const PathJob& job) const;

  // One context of the pool, lent to one thread until the lease ends (then
  // its memory is measured, at most every 100 ms).
  class Lease {
   public:
    Lease(Lease&& other) noexcept : slot_(other.slot_) {
      other.slot_ = nullptr;
    }
    Lease& operator=(Lease&&) = delete;
    ~Lease();
    SearchContext& context() { return slot_->context; }

   private:
    friend class InlineSearches;
    struct Slot {
      explicit Slot(const SearchContextOptions& o) : context(o) {}
      std::atomic<bool> busy{false};
      SearchContext context;
      std::atomic<size_t> bytes{0};
      // Written by the lease holder only.
      std::chrono::steady_clock::time_point next_report{};
    };
    explicit Lease(Slot* slot) : slot_(slot) {}
    Slot* slot_;
  };
  // A free context; nullopt when every one is lent out.
  absl::optional<Lease> TryAcquire();

  // Tries `job` on a free context of the pool: nullopt when none was free or
  // the search needed more than max_expansions (then `out` is untouched and
  // the job goes to a worker); the call's status otherwise.
  absl::optional<absl::Status> TryRun(const PathJob& job, Metrics* metrics,
                                      v1::PathResponse* out);

  // Contexts' memory, as last measured by each (at most every 100 ms).
  size_t memory_bytes() const;
  // Attempts answered inline, and attempts handed on to a worker (too
  // expensive, or no context free).
  uint64_t answered() const {
    return answered_.load(std::memory_order_relaxed);
  }
  uint64_t handed_on() const {
    return handed_on_.load(std::memory_order_relaxed);
  }

 private:
  const InlineOptions options_;
  std::vector<std::unique_ptr<Lease::Slot>> slots_;
  std::atomic<size_t> next_{0};
  std::atomic<uint64_t> answered_{0};
  std::atomic<uint64_t> handed_on_{0};
};

}  // namespace gridstar::server

#endif  // GRIDSTAR_SERVER_INLINE_SEARCHES_H_
