// Searches as the service runs them: a validated request becomes a PathJob
// on the handler's thread, a worker runs it, and the outcome becomes the
// RPC's status through the one translation below.
//
// Thread-safety: a PathJob is immutable once made; RunJob runs on a worker
// with that worker's SearchContext.
#ifndef GRIDSTAR_SERVER_SEARCH_JOBS_H_
#define GRIDSTAR_SERVER_SEARCH_JOBS_H_

#include <cstdint>
#include <memory>

#include "absl/status/status.h"
#include "absl/strings/string_view.h"
#include "absl/time/time.h"
#include "absl/types/optional.h"
#include "gridstar/find_path.h"
#include "gridstar/query.h"
#include "gridstar/search_context.h"
#include "gridstar/v1/gridstar.pb.h"
#include "maps/map_registry.h"
#include "rpc/calls.h"
#include "runtime/metrics.h"

namespace gridstar::server {

// The one translation of a core search outcome into the RPC's status:
//   - NotFound (no path joins the ends) is FAILED_PRECONDITION, the map's
//     state forbidding the request (NOT_FOUND is for unknown map ids only),
//     its message naming the map and version searched;
//   - a search stopped early: Cancelled always; otherwise, unless the caller
//     allows partial results, StopStatus's code with the hint to set
//     allow_partial;
//   - anything else as core says it.
absl::Status SearchStatus(const absl::Status& core,
                          const MapSnapshot& snapshot);
absl::Status PartialStatus(PartialReason reason, const SearchBudget& budget,
                           uint64_t expanded, bool allow_partial);

// "ok", "partial", "no_path", "deadline", "cancelled", "error": a search's
// outcome label in metrics.
absl::string_view Outcome(const absl::Status& s, PartialReason stop);

// A request's agent class (its areas, area_costs and agent_size) on
// `snapshot`: the class in canonical form (areas 0 resolved to the map's
// default) and the map its searches run on (null: snapshot.map, the
// default class). The agent map is built now on the class's first query of
// this version. InvalidArgument naming "<prefix>area_costs[i]" or
// "<prefix>agent_size".
struct ResolvedAgent {
  AgentClass agent;
  uint64_t asked_areas = 0;  // The areas as the request gave them, resolved.
  std::shared_ptr<const GridMap> map;
};
absl::StatusOr<ResolvedAgent> ResolveAgent(
    const MapSnapshot& snapshot, uint64_t areas,
    const google::protobuf::RepeatedField<double>& area_costs,
    int32_t agent_size, absl::string_view prefix);

// A validated path request, ready for a worker.
struct PathJob {
  std::shared_ptr<const MapSnapshot> snapshot;
  // The agent map the query's class searches (MapSnapshot::AgentMapFor);
  // null for the default class, which searches snapshot->map.
  std::shared_ptr<const GridMap> agent_map;
  const GridMap& map() const {
    return agent_map != nullptr ? *agent_map : snapshot->map;
  }
  PathQuery query;
  bool allow_partial = false;
  // With query.trace, at most this many cells of the trace are returned
  // (MaxTraceCells of --max_message_bytes).
  size_t max_trace_cells = 0;
  absl::Time enqueued;
  CancelFlag cancelled;
};

// Validates a request against its map; `prefix` ("items[3].") goes before
// every field name. `max_message_bytes` (the server's flag) caps the trace.
// A request naming an agent class other than the map's default gets its
// agent map (built now on its first query of this map version) and the
// class's policy (AgentPolicy).
absl::Status MakeJob(const v1::PathRequest& request,
                     std::shared_ptr<const MapSnapshot> snapshot,
                     absl::Time deadline, CancelFlag cancelled,
                     absl::string_view prefix, size_t max_message_bytes,
                     PathJob* job);

// The most trace cells one path answer carries: a quarter of the message
// limit, at 10 bytes a packed cell (two varints of coordinates < 2^28 take
// at most 8, plus room for field overhead).
inline size_t MaxTraceCells(size_t max_message_bytes) {
  return max_message_bytes / 40;
}

// Runs one validated job on a worker and fills `out`.
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
