// The parts every query shares: how the agent moves (MovementModel), how much
// a search may spend (SearchBudget), and how a search that stopped early is
// told to its caller (StopStatus).
//
// PathQuery (find_path.h), GroupQuery (group_paths.h) and FlowFieldQuery
// (flow_field.h) each hold one MovementModel and one SearchBudget, validated by
// the one validator of each part, so a new movement field (agent size, allowed
// areas) is added, checked and converted in one place.
//
// Thread-safety: plain values. A SearchBudget's cancellation flag is read
// (relaxed) by the searching thread while another thread may set it.

#ifndef GRIDSTAR_QUERY_H_
#define GRIDSTAR_QUERY_H_

#include <atomic>
#include <cstdint>

#include "absl/status/status.h"
#include "absl/strings/string_view.h"
#include "absl/time/clock.h"
#include "absl/time/time.h"
#include "gridstar/types.h"

namespace gridstar {

// How the agent moves: which diagonals it may take. An agent's size and the
// areas it may enter are not here: they make a map of their own
// (agents.h, BuildAgentMap), which the query then searches as any map.
struct MovementModel {
  DiagonalPolicy diagonal = DiagonalPolicy::kNoCornerCutting;

  friend bool operator==(const MovementModel& a, const MovementModel& b) {
    return a.diagonal == b.diagonal;
  }
  friend bool operator!=(const MovementModel& a, const MovementModel& b) {
    return !(a == b);
  }
};

// InvalidArgument "diagonal: unknown value N" for a policy outside the enum.
absl::Status ValidateMovement(const MovementModel& movement);

// Why a search stopped before it was done.
enum class PartialReason : uint8_t {
  kNone,
  kMaxExpansions,
  kDeadline,
  kCancelled,
  // The search needed more node records than its context allows
  // (SearchContextOptions::max_search_nodes).
  kMemory,
};

// What a search may spend. A search out of budget is not an error: it
// returns its best partial result, flagged with the PartialReason.
struct SearchBudget {
  // At most this many cells are expanded by one search; 0 means no limit.
  uint64_t max_expansions = 0;
  // The search stops once this time has passed (checked every 256
  // expansions).
  absl::Time deadline = absl::InfiniteFuture();
  // When non-null, the search stops once this flag reads true (checked with
  // the deadline). A server sets it when the call is cancelled; the flag must
  // outlive the search.
  const std::atomic<bool>* cancelled = nullptr;

  // True when a deadline or a cancellation flag is set: the clock and the
  // flag must then be read now and then.
  bool timed() const {
    return deadline != absl::InfiniteFuture() || cancelled != nullptr;
  }
  // kCancelled when the flag is set, else kDeadline when the deadline has
  // passed, else kNone. Reads the clock only when a deadline is set.
  PartialReason CheckNow() const {
    if (cancelled != nullptr && cancelled->load(std::memory_order_relaxed)) {
      return PartialReason::kCancelled;
    }
    if (deadline != absl::InfiniteFuture() && absl::Now() >= deadline) {
      return PartialReason::kDeadline;
    }
    return PartialReason::kNone;
  }
};

// The one translation of a stop reason into a status, by what the caller
// should do: kNone is OK; kCancelled is Cancelled; kDeadline is
// DeadlineExceeded ("the deadline passed after N expansions"); kMaxExpansions
// is ResourceExhausted ("max_expansions: M reached before the goal"); kMemory
// is ResourceExhausted ("max_search_nodes: the search needed more node
// records than its context allows"). N is `expanded`, M the budget's
// max_expansions.
absl::Status StopStatus(PartialReason reason, const SearchBudget& budget,
                        uint64_t expanded);

// "none", "max_expansions", "deadline", "cancelled", "memory".
absl::string_view PartialReasonName(PartialReason reason);

}  // namespace gridstar

#endif  // GRIDSTAR_QUERY_H_
