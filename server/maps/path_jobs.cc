#include "maps/path_jobs.h"

#include <string>
#include <utility>

#include "absl/strings/str_cat.h"
#include "absl/time/clock.h"
#include "gridstar/derived_data.h"
#include "gridstar/find_path.h"

namespace gridstar::server {

absl::Status UnknownMap(absl::string_view field, absl::string_view id) {
  if (absl::Status s = ValidateMapId(id, field); !s.ok()) return s;
  return absl::NotFoundError(absl::StrCat(field, ": no map '", id, "'"));
}

absl::Status Overloaded(const Scheduler& s) {
  return absl::ResourceExhaustedError(absl::StrCat(
      "the server's queue is full (", s.capacity(), " tasks); retry later"));
}

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

namespace {

// An agent class from a request's areas, area_costs and agent_size
// (0 = the map's default areas, missing or 0 multipliers = 1, size 0 = 1),
// validated. areas stays 0 for "the map's default".
absl::StatusOr<AgentClass> AgentClassOf(uint64_t areas,
                                        absl::Span<const double> area_costs,
                                        int32_t agent_size,
                                        absl::string_view prefix) {
  AgentClass agent;
  agent.areas = areas;
  agent.size = agent_size == 0 ? 1 : agent_size;
  if (area_costs.size() > kMaxAreas) {
    return absl::InvalidArgumentError(
        absl::StrCat(prefix, "area_costs: ", area_costs.size(),
                     " entries, at most one per area (", kMaxAreas, ")"));
  }
  for (size_t i = 0; i < area_costs.size(); ++i) {
    agent.area_costs[i] = area_costs[i] == 0 ? 1 : area_costs[i];
  }
  if (absl::Status s = ValidateAgentClass(agent); !s.ok()) {
    return absl::InvalidArgumentError(absl::StrCat(prefix, s.message()));
  }
  return agent;
}

}  // namespace

absl::StatusOr<ResolvedAgent> ResolveAgent(const MapSnapshot& snapshot,
                                           uint64_t areas,
                                           absl::Span<const double> area_costs,
                                           int32_t agent_size,
                                           absl::string_view prefix) {
  ResolvedAgent out;
  // Most requests name no class: the map's default, searched on its view.
  if (areas == 0 && area_costs.empty() &&
      (agent_size == 0 || agent_size == 1)) {
    out.agent = snapshot.DefaultClass();
    out.asked_areas = snapshot.options.default_areas;
    return out;
  }
  absl::StatusOr<AgentClass> agent =
      AgentClassOf(areas, area_costs, agent_size, prefix);
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

absl::Status MakeJob(const PathAsk& ask,
                     std::shared_ptr<const MapSnapshot> snapshot,
                     absl::Time deadline, CancelFlag cancelled,
                     absl::string_view prefix, size_t max_message_bytes,
                     PathJob* job) {
  PathQuery& q = job->query;
  q = ask.query;
  if (ask.diagonal_from_map) {
    q.movement.diagonal = snapshot->options.default_diagonal;
  }
  absl::StatusOr<ResolvedAgent> resolved = ResolveAgent(
      *snapshot, ask.areas, ask.area_costs, ask.agent_size, prefix);
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
  job->allow_partial = ask.allow_partial;
  job->max_trace_cells = MaxTraceCells(max_message_bytes);
  job->snapshot = std::move(snapshot);
  job->cancelled = std::move(cancelled);
  job->enqueued = absl::Now();
  return absl::OkStatus();
}

namespace {

// Why `ran` answered a query that asked for another algorithm: what the
// asked engine's structure lacks, or what the engine serves.
void FallbackOf(const PathJob& job, Algorithm ran, Fallback* out) {
  const Algorithm asked = job.query.algorithm;
  out->asked = asked;
  out->ran = ran;
  out->why = Fallback::Why::kNone;
  if (asked == ran || asked == Algorithm::kAuto) return;
  out->why = Fallback::Why::kServes;
  const absl::string_view structure_name = StructureOf(asked);
  if (structure_name.empty()) return;
  DerivedOptions probe;
  probe.Ask(structure_name);
  const auto structures = DerivedStructuresFor(probe);
  if (structures.size() == 1 && !structures[0]->AppliesTo(job.map())) return;
  const MapSnapshot& snapshot = *job.snapshot;
  if (!snapshot.options.Asks(structure_name)) {
    out->why = Fallback::Why::kNotRegistered;
    out->map_id = snapshot.id;
  } else if (snapshot.Pending(structure_name)) {
    out->why = Fallback::Why::kPending;
  } else if (job.agent_map != nullptr) {
    out->why = Fallback::Why::kAgentMap;
  }
}

// A job whose caller is gone by the time a worker takes it: its status,
// and nothing else is answered.
absl::optional<absl::Status> CancelledBeforeRun(const PathJob& job,
                                                Metrics* metrics) {
  if (!job.cancelled->load()) return absl::nullopt;
  metrics->QueueWait(absl::ToDoubleSeconds(absl::Now() - job.enqueued));
  return StopStatus(PartialReason::kCancelled, job.query.budget, 0);
}

}  // namespace

absl::optional<absl::Status> SearchJob(const PathJob& job, Metrics* metrics,
                                       SearchContext& context,
                                       uint64_t inline_cap, PathResult& r,
                                       AnswerFacts& facts) {
  facts.searched = false;
  if (auto cancelled = CancelledBeforeRun(job, metrics)) return cancelled;
  const absl::Time begin = absl::Now();
  const double queue_seconds = absl::ToDoubleSeconds(begin - job.enqueued);
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
  facts.queue_micros = queue_seconds * 1e6;
  const double search_seconds = absl::ToDoubleSeconds(absl::Now() - begin);
  // Labelled by the algorithm that ran, so auto's choices show.
  metrics->Search(AlgorithmName(r.algorithm), Outcome(s, r.partial_reason),
                  search_seconds, r.expanded);
  facts.searched = true;
  FallbackOf(job, r.algorithm, &facts.fallback);
  facts.search_micros = search_seconds * 1e6;
  facts.map_version = job.snapshot->version;
  facts.waypoints = job.query.smooth || IsAnyAngle(r.algorithm);
  facts.trace = job.query.trace;
  facts.max_trace_cells = job.max_trace_cells;
  if (!s.ok()) return SearchStatus(s, *job.snapshot);
  return PartialStatus(r.partial_reason, job.query.budget, r.expanded,
                       job.allow_partial);
}

absl::Status RunJob(const PathJob& job, Metrics* metrics,
                    SearchContext& context, PathAnswer* out) {
  return *SearchJob(job, metrics, context, 0, out->result, out->facts);
}

}  // namespace gridstar::server
