#include "gridstar/query.h"

#include "absl/strings/str_cat.h"

namespace gridstar {

absl::Status ValidateMovement(const MovementModel& m) {
  switch (m.diagonal) {
    case DiagonalPolicy::kNever:
    case DiagonalPolicy::kNoCornerCutting:
    case DiagonalPolicy::kAllowCornerCutting:
      return absl::OkStatus();
  }
  return absl::InvalidArgumentError(
      absl::StrCat("diagonal: unknown value ", static_cast<int>(m.diagonal)));
}

absl::Status StopStatus(PartialReason reason, const SearchBudget& budget,
                        uint64_t expanded) {
  switch (reason) {
    case PartialReason::kNone:
      return absl::OkStatus();
    case PartialReason::kCancelled:
      return absl::CancelledError("the call was cancelled");
    case PartialReason::kDeadline:
      return absl::DeadlineExceededError(
          absl::StrCat("the deadline passed after ", expanded, " expansions"));
    case PartialReason::kMaxExpansions:
      return absl::ResourceExhaustedError(
          absl::StrCat("max_expansions: ", budget.max_expansions,
                       " reached before the goal"));
    case PartialReason::kMemory:
      return absl::ResourceExhaustedError(absl::StrCat(
          "max_search_nodes: the search needed more node records than its "
          "context allows, after ",
          expanded, " expansions"));
  }
  return absl::InternalError("unknown stop reason");
}

absl::string_view PartialReasonName(PartialReason reason) {
  switch (reason) {
    case PartialReason::kNone:
      return "none";
    case PartialReason::kMaxExpansions:
      return "max_expansions";
    case PartialReason::kDeadline:
      return "deadline";
    case PartialReason::kCancelled:
      return "cancelled";
    case PartialReason::kMemory:
      return "memory";
  }
  return "unknown";
}

}  // namespace gridstar
