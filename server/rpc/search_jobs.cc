#include "rpc/search_jobs.h"

#include <algorithm>
#include <string>
#include <utility>

#include "absl/strings/str_cat.h"
#include "absl/time/clock.h"
#include "convert/convert.h"
#include "google/protobuf/descriptor.h"
#include "gridstar/derived_data.h"
#include "gridstar/find_path.h"

namespace gridstar::server {

absl::Status SearchStatus(const absl::Status& core,
                          const MapSnapshot& snapshot) {
  if (absl::IsNotFound(core)) {
    return absl::FailedPreconditionError(
        absl::StrCat(core.message(), " on map '", snapshot.id, "' version ",
                     snapshot.version));
  }
  return core;
}

absl::Status PartialStatus(PartialReason reason, const SearchBudget& budget,
                           uint64_t expanded, bool allow_partial) {
  if (reason == PartialReason::kNone) return absl::OkStatus();
  const absl::Status s = StopStatus(reason, budget, expanded);
  if (reason == PartialReason::kCancelled) return s;
  if (allow_partial) return absl::OkStatus();
  return absl::Status(s.code(), absl::StrCat(s.message(),
                                             "; set allow_partial for the "
                                             "partial path"));
}

absl::string_view Outcome(const absl::Status& s, PartialReason stop) {
  if (absl::IsNotFound(s)) return "no_path";
  if (!s.ok()) return "error";
  switch (stop) {
    case PartialReason::kNone:
      return "ok";
    case PartialReason::kDeadline:
      return "deadline";
    case PartialReason::kCancelled:
      return "cancelled";
    case PartialReason::kMaxExpansions:
      return "partial";
    case PartialReason::kMemory:
      return "memory";
  }
  return "ok";
}

absl::StatusOr<ResolvedAgent> ResolveAgent(
    const MapSnapshot& snapshot, uint64_t areas,
    const google::protobuf::RepeatedField<double>& area_costs,
    int32_t agent_size, absl::string_view prefix) {
  ResolvedAgent out;
  // Most requests name no class: the map's default, searched on its view.
  if (areas == 0 && area_costs.empty() &&
      (agent_size == 0 || agent_size == 1)) {
    out.agent = snapshot.DefaultClass();
    out.asked_areas = snapshot.options.default_areas;
    return out;
  }
  absl::StatusOr<AgentClass> agent =
      convert::AgentClassFromProto(areas, area_costs, agent_size, prefix);
  if (!agent.ok()) return agent.status();
  if (agent->areas == 0) agent->areas = snapshot.options.default_areas;
  out.asked_areas = agent->areas;
  out.agent = CanonicalAgentClass(*agent, snapshot.areas_present());
  absl::StatusOr<std::shared_ptr<const GridMap>> map =
      snapshot.AgentMapFor(out.agent);
  if (!map.ok()) {
    return absl::Status(map.status().code(),
                        absl::StrCat(prefix, map.status().message()));
  }
  out.map = *std::move(map);
  return out;
}

absl::Status MakeJob(const v1::PathRequest& r,
                     std::shared_ptr<const MapSnapshot> snapshot,
                     absl::Time deadline, CancelFlag cancelled,
                     absl::string_view prefix, size_t max_message_bytes,
                     PathJob* job) {
  PathQuery& q = job->query;
  if (absl::Status s = convert::PathQueryFromProto(
          r, snapshot->options.default_diagonal, prefix, &q);
      !s.ok()) {
    return s;
  }
  absl::StatusOr<ResolvedAgent> resolved = ResolveAgent(
      *snapshot, r.areas(), r.area_costs(), r.agent_size(), prefix);
  if (!resolved.ok()) return resolved.status();
  const AgentClass* agent = &resolved->agent;
  job->agent_map = std::move(resolved->map);
  q.movement.diagonal = AgentPolicy(q.movement.diagonal, agent->size);
  const GridMap& map =
      job->agent_map != nullptr ? *job->agent_map : snapshot->map;
  // Without snapping, ends must be on the map and passable (for the agent).
  if (q.snap_radius == 0) {
    const std::string for_agent =
        job->agent_map == nullptr
            ? ""
            : absl::StrCat(" for an agent of size ", agent->size,
                           " in areas 0x", absl::Hex(resolved->asked_areas));
    for (const auto& [field, cell] :
         {std::pair<const char*, Cell>{"start", q.start}, {"goal", q.goal}}) {
      if (absl::Status s = map.CheckPassable(absl::StrCat(prefix, field), cell);
          !s.ok()) {
        return absl::Status(s.code(), absl::StrCat(s.message(), for_agent));
      }
    }
  }
  q.budget.deadline = deadline;
  q.budget.cancelled = cancelled.get();
  job->allow_partial = r.allow_partial();
  job->max_trace_cells = MaxTraceCells(max_message_bytes);
  job->snapshot = std::move(snapshot);
  job->cancelled = std::move(cancelled);
  job->enqueued = absl::Now();
  return absl::OkStatus();
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

// Why `ran` answered a query that asked for `asked` (PathResponse.note):
// what the asked engine's structure lacks, or what the engine serves.
std::string FallbackNote(Algorithm asked, Algorithm ran,
                         const MapSnapshot& snapshot, const GridMap& searched,
                         bool agent_map) {
  if (asked == ran || asked == Algorithm::kAuto) return "";
  const std::string head =
      absl::StrCat(AlgorithmName(asked), " ran as ", AlgorithmName(ran), ": ");
  const std::string serves = absl::StrCat(head, AlgorithmName(asked),
                                          " serves ", AlgorithmServes(asked));
  const absl::string_view structure_name = StructureOf(asked);
  if (structure_name.empty()) return serves;
  DerivedOptions probe;
  probe.Ask(structure_name);
  const auto structures = DerivedStructuresFor(probe);
  if (structures.size() == 1 && !structures[0]->AppliesTo(searched)) {
    return serves;
  }
  if (!snapshot.options.Asks(structure_name)) {
    return absl::StrCat(head, "map '", snapshot.id,
                        "' was registered without its ", structure_name, " (",
                        HowToAsk(structure_name), ")");
  }
  if (snapshot.Pending(structure_name)) {
    return absl::StrCat(head, "the map's ", structure_name,
                        " is being finished in the background after an update");
  }
  return absl::StrCat(serves, agent_map
                                  ? " (queries naming an agent class search "
                                    "that class's own map)"
                                  : "");
}

// RunJob and TryRunJobWithin: with `inline_cap` > 0 the search may expand at
// most that many cells, and one that needed more is abandoned (nullopt).
absl::optional<absl::Status> Run(const PathJob& job, Metrics* metrics,
                                 SearchContext& context, uint64_t inline_cap,
                                 v1::PathResponse* out) {
  const absl::Time begin = absl::Now();
  const double queue_seconds = absl::ToDoubleSeconds(begin - job.enqueued);
  if (job.cancelled->load()) {
    metrics->QueueWait(queue_seconds);
    return StopStatus(PartialReason::kCancelled, job.query.budget, 0);
  }
  // Reused by each thread: FindPath then allocates nothing once the vectors
  // have grown (only the response's own storage is new).
  thread_local PathResult r;
  absl::Status s;
  if (inline_cap > 0) {
    thread_local PathQuery capped;
    capped = job.query;
    capped.budget.max_expansions = inline_cap;
    s = gridstar::FindPath(job.map(), capped, context, &r);
    if (s.ok() && r.partial_reason == PartialReason::kMaxExpansions) {
      return absl::nullopt;
    }
  } else {
    s = gridstar::FindPath(job.map(), job.query, context, &r);
  }
  metrics->QueueWait(queue_seconds);
  out->set_queue_micros(queue_seconds * 1e6);
  const double search_seconds = absl::ToDoubleSeconds(absl::Now() - begin);
  // Labelled by the algorithm that ran, so auto's choices show.
  metrics->Search(AlgorithmName(r.algorithm), Outcome(s, r.partial_reason),
                  search_seconds, r.expanded);
  out->set_algorithm(convert::AlgorithmToProto(r.algorithm));
  if (std::string note =
          FallbackNote(job.query.algorithm, r.algorithm, *job.snapshot,
                       job.map(), job.agent_map != nullptr);
      !note.empty()) {
    out->set_note(std::move(note));
  }
  out->set_search_micros(search_seconds * 1e6);
  out->set_map_version(job.snapshot->version);
  if (!s.ok()) return SearchStatus(s, *job.snapshot);
  if (absl::Status p = PartialStatus(r.partial_reason, job.query.budget,
                                     r.expanded, job.allow_partial);
      !p.ok()) {
    return p;
  }
  convert::PackCells(r.cells, out->mutable_cells());
  if (job.query.smooth || IsAnyAngle(r.algorithm)) {
    convert::PackCells(r.waypoints, out->mutable_waypoints());
  }
  out->set_cost(r.cost);
  if (job.query.smooth || IsAnyAngle(r.algorithm)) {
    out->set_smoothed_cost(r.smoothed_cost);
  }
  if (job.query.trace) {
    const size_t n = std::min(r.trace.size(), job.max_trace_cells);
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
  return absl::OkStatus();
}

}  // namespace

absl::Status RunJob(const PathJob& job, Metrics* metrics,
                    SearchContext& context, v1::PathResponse* out) {
  return *Run(job, metrics, context, 0, out);
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
  return Run(job, metrics, context, max_expansions, out);
}

void SetItem(const absl::Status& s, v1::PathItemResult* item) {
  item->set_code(static_cast<int>(s.code()));
  item->set_message(std::string(s.message()));
  if (!s.ok()) item->clear_path();
}

}  // namespace gridstar::server
