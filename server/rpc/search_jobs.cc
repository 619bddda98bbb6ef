#include "rpc/search_jobs.h"

#include <algorithm>
#include <string>
#include <utility>

#include "absl/strings/str_cat.h"
#include "convert/convert.h"
#include "google/protobuf/descriptor.h"

namespace gridstar::server {

absl::Status PathAskFromProto(const v1::PathRequest& r,
                              absl::string_view prefix, PathAsk* ask) {
  // The default policy stands in until the map is known (MakeJob); every
  // policy passes ValidatePathQuery alike.
  ask->query = PathQuery{};
  if (absl::Status s = convert::PathQueryFromProto(
          r, DiagonalPolicy::kNoCornerCutting, prefix, &ask->query);
      !s.ok()) {
    return s;
  }
  ask->diagonal_from_map = r.diagonal() == v1::DIAGONAL_POLICY_UNSPECIFIED;
  ask->map_id = r.map_id();
  ask->areas = r.areas();
  ask->area_costs.assign(r.area_costs().begin(), r.area_costs().end());
  ask->agent_size = r.agent_size();
  ask->allow_partial = r.allow_partial();
  return absl::OkStatus();
}

absl::Status MakeJob(const v1::PathRequest& r,
                     std::shared_ptr<const MapSnapshot> snapshot,
                     absl::Time deadline, CancelFlag cancelled,
                     absl::string_view prefix, size_t max_message_bytes,
                     PathJob* job) {
  thread_local PathAsk ask;
  if (absl::Status s = PathAskFromProto(r, prefix, &ask); !s.ok()) return s;
  return MakeJob(ask, std::move(snapshot), deadline, std::move(cancelled),
                 prefix, max_message_bytes, job);
}

namespace {

// How a client asks for structure `name` at registration: its own
// RegisterMapRequest field and CLI flag where the API has one (the four of
// the first version), else `structures`.
std::string HowToAsk(absl::string_view name) {
  const google::protobuf::FieldDescriptor* field =
      v1::RegisterMapRequest::descriptor()->FindFieldByName(std::string(name));
  if (field == nullptr) {
    return absl::StrCat("RegisterMapRequest.structures \"", name,
                        "\"; CLI register --structures ", name,
                        "; Python register_map(structures={'", name, "': 0})");
  }
  const bool is_bool =
      field->cpp_type() == google::protobuf::FieldDescriptor::CPPTYPE_BOOL;
  return absl::StrCat("RegisterMapRequest.", name, "; CLI register --", name,
                      is_bool ? "" : " 8", "; Python register_map(", name,
                      is_bool ? "=True" : "=8", ")");
}

// PathResponse.note: why `f.ran` answered a query that asked for
// `f.asked`, in words.
std::string NoteOf(const Fallback& f) {
  const std::string head = absl::StrCat(AlgorithmName(f.asked), " ran as ",
                                        AlgorithmName(f.ran), ": ");
  const std::string serves = absl::StrCat(head, AlgorithmName(f.asked),
                                          " serves ", AlgorithmServes(f.asked));
  const absl::string_view structure_name = StructureOf(f.asked);
  switch (f.why) {
    case Fallback::Why::kNone:
      return "";
    case Fallback::Why::kServes:
      return serves;
    case Fallback::Why::kNotRegistered:
      return absl::StrCat(head, "map '", f.map_id,
                          "' was registered without its ", structure_name, " (",
                          HowToAsk(structure_name), ")");
    case Fallback::Why::kPending:
      return absl::StrCat(
          head, "the map's ", structure_name,
          " is being finished in the background after an update");
    case Fallback::Why::kAgentMap:
      return absl::StrCat(serves,
                          " (queries naming an agent class search that "
                          "class's own map)");
  }
  return serves;
}

// SearchJob, answered on the wire.
absl::optional<absl::Status> RunToProto(const PathJob& job, Metrics* metrics,
                                        SearchContext& context,
                                        uint64_t inline_cap,
                                        v1::PathResponse* out) {
  // Reused by each thread: FindPath then allocates nothing once the vectors
  // have grown (only the response's own storage is new).
  thread_local PathResult r;
  thread_local AnswerFacts facts;
  absl::optional<absl::Status> s =
      SearchJob(job, metrics, context, inline_cap, r, facts);
  if (s.has_value() && facts.searched) PathResponseFrom(r, facts, s->ok(), out);
  return s;
}

}  // namespace

void PathResponseFrom(const PathResult& r, const AnswerFacts& facts,
                      bool with_path, v1::PathResponse* out) {
  out->set_queue_micros(facts.queue_micros);
  out->set_algorithm(convert::AlgorithmToProto(r.algorithm));
  if (facts.fallback.why != Fallback::Why::kNone) {
    out->set_note(NoteOf(facts.fallback));
  }
  out->set_search_micros(facts.search_micros);
  out->set_map_version(facts.map_version);
  if (!with_path) return;
  convert::PackCells(r.cells, out->mutable_cells());
  if (facts.waypoints) {
    convert::PackCells(r.waypoints, out->mutable_waypoints());
    out->set_smoothed_cost(r.smoothed_cost);
  }
  out->set_cost(r.cost);
  if (facts.trace) {
    const size_t n = std::min(r.trace.size(), facts.max_trace_cells);
    auto* packed = out->mutable_trace();
    packed->Reserve(static_cast<int>(2 * n));
    for (size_t i = 0; i < n; ++i) {
      packed->AddAlreadyReserved(r.trace[i].x);
      packed->AddAlreadyReserved(r.trace[i].y);
    }
    out->set_trace_truncated(n < r.trace.size());
  }
  out->set_expanded(r.expanded);
  out->set_partial(r.partial);
  out->set_partial_reason(convert::PartialReasonToProto(r.partial_reason));
  convert::CellToProto(r.start, out->mutable_start());
  convert::CellToProto(r.goal, out->mutable_goal());
}

absl::Status RunJob(const PathJob& job, Metrics* metrics,
                    SearchContext& context, v1::PathResponse* out) {
  return *RunToProto(job, metrics, context, 0, out);
}

absl::optional<absl::Status> TryRunJobWithin(const PathJob& job,
                                             uint64_t max_expansions,
                                             Metrics* metrics,
                                             SearchContext& context,
                                             v1::PathResponse* out) {
  const uint64_t own = job.query.budget.max_expansions;
  // The job's own limit is no larger: its outcome is final either way.
  if (own != 0 && own <= max_expansions)
    return RunJob(job, metrics, context, out);
  return RunToProto(job, metrics, context, max_expansions, out);
}

void SetItem(const absl::Status& s, v1::PathItemResult* item) {
  item->set_code(static_cast<int>(s.code()));
  item->set_message(std::string(s.message()));
  if (!s.ok()) item->clear_path();
}

}  // namespace gridstar::server
