#include "rpc/inline_searches.h"

#include <algorithm>
#include <cstdlib>

namespace gridstar::server {

InlineSearches::InlineSearches(InlineOptions options) : options_(options) {
  for (int i = 0; i < options_.contexts; ++i) {
    slots_.push_back(std::make_unique<Lease::Slot>(options_.context_options));
  }
}

bool InlineSearches::Eligible(const PathJob& job) const {
  if (slots_.empty() || job.query.snap_radius != 0) return false;
  const int64_t dx = std::abs(int64_t{job.query.start.x} - job.query.goal.x);
  const int64_t dy = std::abs(int64_t{job.query.start.y} - job.query.goal.y);
  // Octile distance, rounded up: max + (sqrt(2) - 1) * min < max + min / 2.
  return std::max(dx, dy) + std::min(dx, dy) / 2 <= options_.max_distance;
}

InlineSearches::Lease::~Lease() {
  if (slot_ == nullptr) return;
  const auto now = std::chrono::steady_clock::now();
  if (now >= slot_->next_report) {
    slot_->bytes.store(slot_->context.MemoryBytes(), std::memory_order_relaxed);
    slot_->next_report = now + std::chrono::milliseconds(100);
  }
  slot_->busy.store(false, std::memory_order_release);
}

absl::optional<InlineSearches::Lease> InlineSearches::TryAcquire() {
  // Start where the last borrower did, so that threads spread over the pool.
  const size_t n = slots_.size();
  const size_t first = next_.fetch_add(1, std::memory_order_relaxed);
  for (size_t i = 0; i < n; ++i) {
    Lease::Slot* s = slots_[(first + i) % n].get();
    if (!s->busy.load(std::memory_order_relaxed) &&
        !s->busy.exchange(true, std::memory_order_acquire)) {
      return Lease(s);
    }
  }
  return absl::nullopt;
}

absl::optional<absl::Status> InlineSearches::TryRun(const PathJob& job,
                                                    Metrics* metrics,
                                                    v1::PathResponse* out) {
  absl::optional<absl::Status> s;
  if (absl::optional<Lease> lease = TryAcquire()) {
    s = TryRunJobWithin(job, options_.max_expansions, metrics, lease->context(),
                        out);
  }
  (s.has_value() ? answered_ : handed_on_)
      .fetch_add(1, std::memory_order_relaxed);
  metrics->InlineSearch(s.has_value());
  return s;
}

size_t InlineSearches::memory_bytes() const {
  size_t sum = 0;
  for (const auto& s : slots_) sum += s->bytes.load(std::memory_order_relaxed);
  return sum;
}

}  // namespace gridstar::server
