// Searches as the service runs them, in core and registry types: a request
// read from the API (a PathAsk) becomes a PathJob against a map snapshot on
// the handler's thread, and a worker runs it into a PathAnswer. The RPC
// layer (rpc/search_jobs.h) reads requests into PathAsks and writes
// answers as PathResponses; the watch hub uses these types alone.
//
// Thread-safety: a PathJob is immutable once made; RunJob runs on a worker
// with that worker's SearchContext.
#ifndef GRIDSTAR_SERVER_MAPS_PATH_JOBS_H_
#define GRIDSTAR_SERVER_MAPS_PATH_JOBS_H_

#include <atomic>
#include <cstdint>
#include <memory>
#include <string>
#include <vector>

#include "absl/status/status.h"
#include "absl/status/statusor.h"
#include "absl/strings/string_view.h"
#include "absl/time/time.h"
#include "absl/types/optional.h"
#include "absl/types/span.h"
#include "gridstar/find_path.h"
#include "gridstar/query.h"
#include "gridstar/search_context.h"
#include "maps/map_registry.h"
#include "runtime/metrics.h"
#include "runtime/scheduler.h"

namespace gridstar::server {

// Set when the caller of a search is gone (its call or stream ended).
using CancelFlag = std::shared_ptr<std::atomic<bool>>;

// NotFound "<field>: no map 'id'" (InvalidArgument for a malformed id).
absl::Status UnknownMap(absl::string_view field, absl::string_view id);

// ResourceExhausted: the scheduler's queue is full; retry later.
absl::Status Overloaded(const Scheduler& scheduler);

// The one translation of a core search outcome into the service's status:
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
absl::StatusOr<ResolvedAgent> ResolveAgent(const MapSnapshot& snapshot,
                                           uint64_t areas,
                                           absl::Span<const double> area_costs,
                                           int32_t agent_size,
                                           absl::string_view prefix);

// A path request as read from the API (rpc/search_jobs.h,
// PathAskFromProto), before it meets its map.
struct PathAsk {
  std::string map_id;
  // Checked on its own (ValidatePathQuery); its budget's deadline and
  // cancel flag are the job's.
  PathQuery query;
  // The request named no diagonal policy: the map's default applies
  // (MakeJob fills query.movement from the map).
  bool diagonal_from_map = false;
  // The agent class as given (ResolveAgent reads it on the map).
  uint64_t areas = 0;
  std::vector<double> area_costs;
  int32_t agent_size = 0;
  bool allow_partial = false;
};

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

// The most trace cells one path answer carries: a quarter of the message
// limit, at 10 bytes a packed cell (two varints of coordinates < 2^28 take
// at most 8, plus room for field overhead).
inline size_t MaxTraceCells(size_t max_message_bytes) {
  return max_message_bytes / 40;
}

// Validates a request against its map; `prefix` ("items[3].") goes before
// every field name. `max_message_bytes` (the server's flag) caps the trace.
// A request naming an agent class other than the map's default gets its
// agent map (built now on its first query of this map version) and the
// class's policy (AgentPolicy).
absl::Status MakeJob(const PathAsk& ask,
                     std::shared_ptr<const MapSnapshot> snapshot,
                     absl::Time deadline, CancelFlag cancelled,
                     absl::string_view prefix, size_t max_message_bytes,
                     PathJob* job);

// Why another algorithm answered than the one asked (PathResponse.note
// says it in words, at the RPC edge).
struct Fallback {
  enum class Why : uint8_t {
    kNone,           // The asked algorithm ran (or auto was asked).
    kServes,         // The asked engine does not serve this query or map.
    kNotRegistered,  // The map was registered without its structure.
    kPending,        // Its structure is being finished after an update.
    kAgentMap,       // As kServes, on the agent class's own map.
  };
  Why why = Why::kNone;
  Algorithm asked{};
  Algorithm ran{};
  std::string map_id;  // With kNotRegistered.
};

// What a search answered besides its PathResult: the facts a PathResponse
// carries about the search, and which of the result's parts it carries.
struct AnswerFacts {
  // False for a job whose caller was gone before a worker took it: nothing
  // but its status is answered.
  bool searched = false;
  uint64_t map_version = 0;
  double queue_micros = 0;
  double search_micros = 0;
  Fallback fallback;
  // The query smoothed or its algorithm is any-angle: waypoints and
  // smoothed_cost are part of the answer.
  bool waypoints = false;
  // The query asked for its trace; at most max_trace_cells are answered.
  bool trace = false;
  size_t max_trace_cells = 0;
};

// A search's answer: the result (its path is the answer's only when the
// search's status was OK) and its facts.
struct PathAnswer {
  PathResult result;
  AnswerFacts facts;
};

// Runs one validated job on a worker: the status, with `result` and
// `facts` filled. With `inline_cap` > 0 the search may expand at most that
// many cells, and one that needed more is abandoned (nullopt: nothing
// recorded, so that the job can go to a worker as it is).
absl::optional<absl::Status> SearchJob(const PathJob& job, Metrics* metrics,
                                       SearchContext& context,
                                       uint64_t inline_cap, PathResult& result,
                                       AnswerFacts& facts);

// SearchJob without a cap, into an answer of its own.
absl::Status RunJob(const PathJob& job, Metrics* metrics,
                    SearchContext& context, PathAnswer* out);

}  // namespace gridstar::server

#endif  // GRIDSTAR_SERVER_MAPS_PATH_JOBS_H_
