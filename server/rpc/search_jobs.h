// Searches at the RPC edge: a PathRequest is read into a PathAsk and made a
// PathJob (maps/path_jobs.h) on the handler's thread, a worker runs it, and
// its answer is written as a PathResponse.
//
// Thread-safety: as maps/path_jobs.h; every function may be called from
// any thread.
#ifndef GRIDSTAR_SERVER_SEARCH_JOBS_H_
#define GRIDSTAR_SERVER_SEARCH_JOBS_H_

#include <cstdint>
#include <memory>

#include "absl/status/status.h"
#include "absl/strings/string_view.h"
#include "absl/time/time.h"
#include "absl/types/optional.h"
#include "gridstar/search_context.h"
#include "gridstar/v1/gridstar.pb.h"
#include "maps/path_jobs.h"
#include "runtime/metrics.h"

namespace gridstar::server {

// Reads and checks `request` on its own; InvalidArgument naming
// "<prefix>field" (start, goal, algorithm, diagonal, snap_radius, ...).
absl::Status PathAskFromProto(const v1::PathRequest& request,
                              absl::string_view prefix, PathAsk* ask);

// PathAskFromProto, then MakeJob of the ask.
absl::Status MakeJob(const v1::PathRequest& request,
                     std::shared_ptr<const MapSnapshot> snapshot,
                     absl::Time deadline, CancelFlag cancelled,
                     absl::string_view prefix, size_t max_message_bytes,
                     PathJob* job);

// Writes a search's answer: the facts always (queue and search micros, the
// algorithm that ran, the note saying why when it is not the one asked,
// the map version); the path (cells, cost, waypoints, trace, ...) only
// when `with_path` (the search's status was OK).
void PathResponseFrom(const PathResult& result, const AnswerFacts& facts,
                      bool with_path, v1::PathResponse* out);

// Runs one validated job on a worker and fills `out` (nothing but the
// status for a job cancelled before it ran).
absl::Status RunJob(const PathJob& job, Metrics* metrics,
                    SearchContext& context, v1::PathResponse* out);

// Runs `job` as RunJob does, but lets the search expand at most
// `max_expansions` cells (REQUIRES: > 0): nullopt when that was not enough to
// finish, with nothing recorded and `out` untouched, so that the job can go
// to a worker as it is. The fast path of inline_searches.h.
absl::optional<absl::Status> TryRunJobWithin(const PathJob& job,
                                             uint64_t max_expansions,
                                             Metrics* metrics,
                                             SearchContext& context,
                                             v1::PathResponse* out);

// An item's code and message; a failed item carries no path.
void SetItem(const absl::Status& s, v1::PathItemResult* item);

}  // namespace gridstar::server

#endif  // GRIDSTAR_SERVER_SEARCH_JOBS_H_
