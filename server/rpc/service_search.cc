// The searching RPCs answered by workers: FindPath, FindPaths,
// FindGroupPaths and ComputeFlowField. (FindPathsStream: service_stream.cc.)

#include <algorithm>
#include <atomic>
#include <cmath>
#include <memory>
#include <string>
#include <utility>
#include <vector>

#include "absl/strings/str_cat.h"
#include "absl/time/clock.h"
#include "convert/convert.h"
#include "gridstar/group_paths.h"
#include "rpc/calls.h"
#include "rpc/search_jobs.h"
#include "rpc/service.h"

namespace gridstar::server {

void PathfindingService::ServeFindPath(Call* call,
                                       const v1::PathRequest* request,
                                       v1::PathResponse* response) {
  if (!Admit(call, AccessLevel::kQuery)) return;
  std::shared_ptr<const MapSnapshot> snapshot =
      SnapshotOrFinish(*registry_, "map_id", request->map_id(), call);
  if (snapshot == nullptr) return;
  PathJob inline_job;
  absl::Status s =
      MakeJob(*request, std::move(snapshot),
              CallDeadline(*call, options_.max_search_time), call->cancelled(),
              "", options_.max_message_bytes, &inline_job);
  if (!s.ok()) {
    call->Done(s);
    return;
  }
  // A cheap search is answered here, without the hop to a worker.
  if (options_.inline_searches != nullptr &&
      options_.inline_searches->Eligible(inline_job)) {
    if (absl::optional<absl::Status> done =
            options_.inline_searches->TryRun(inline_job, metrics_, response)) {
      call->Done(*done);
      return;
    }
  }
  auto job = std::make_shared<PathJob>(std::move(inline_job));
  const bool queued =
      search_->TrySubmit([this, call, job, response](SearchContext& context) {
        call->Done(RunJob(*job, metrics_, context, response));
      });
  if (!queued) call->Done(Overloaded(*search_));
}

void PathfindingService::ServeFindPaths(Call* call,
                                        const v1::FindPathsRequest* request,
                                        v1::FindPathsResponse* response) {
  if (!Admit(call, AccessLevel::kQuery)) return;
  const size_t n = static_cast<size_t>(request->items_size());
  if (!BatchFits(call, n)) return;
  std::shared_ptr<const MapSnapshot> snapshot =
      SnapshotOrFinish(*registry_, "map_id", request->map_id(), call);
  if (snapshot == nullptr) return;
  for (size_t i = 0; i < n; ++i) response->add_results();
  // One count per item plus one for this handler, so the call finishes once,
  // after the last item and after the loop below.
  auto remaining = std::make_shared<std::atomic<size_t>>(n + 1);
  // A batch's response is big: a worker that ran its last item leaves the
  // serialising and sending to the finisher (finisher.h).
  Finisher* finisher = n > 1 ? options_.finisher : nullptr;
  auto finish_one = [call, remaining, finisher] {
    if (remaining->fetch_sub(1) != 1) return;
    if (finisher != nullptr) {
      finisher->Run([call] { call->Done(absl::OkStatus()); });
    } else {
      call->Done(absl::OkStatus());
    }
  };
  const absl::Time deadline = CallDeadline(*call, options_.max_search_time);
  // Items go out in chunks, two per worker, so that every worker gets a
  // share while a batch of cheap searches does not pay one task each.
  const size_t tasks = 2 * static_cast<size_t>(search_->workers());
  const size_t chunk = std::max<size_t>(1, (n + tasks - 1) / tasks);
  using Item = std::pair<std::shared_ptr<PathJob>, v1::PathItemResult*>;
  std::vector<Item> pending;
  auto submit = [&] {
    if (pending.empty()) return;
    auto items = std::make_shared<std::vector<Item>>(std::move(pending));
    pending.clear();
    const bool queued =
        search_->TrySubmit([this, items, finish_one](SearchContext& context) {
          for (auto& [job, item] : *items) {
            SetItem(RunJob(*job, metrics_, context, item->mutable_path()),
                    item);
            finish_one();
          }
        });
    if (!queued) {
      for (auto& [job, item] : *items) {
        SetItem(Overloaded(*search_), item);
        finish_one();
      }
    }
  };
  for (size_t i = 0; i < n; ++i) {
    v1::PathItemResult* item = response->mutable_results(static_cast<int>(i));
    auto job = std::make_shared<PathJob>();
    absl::Status s =
        MakeJob(request->items(static_cast<int>(i)), snapshot, deadline,
                call->cancelled(), absl::StrCat("items[", i, "]."),
                options_.max_message_bytes, job.get());
    if (!s.ok()) {
      SetItem(s, item);
      finish_one();
      continue;
    }
    pending.emplace_back(std::move(job), item);
    if (pending.size() == chunk) submit();
  }
  submit();
  finish_one();
}

namespace {

// A unit's path as the API returns it.
void UnitToProto(const UnitPath& u, const MapSnapshot& snapshot,
                 v1::UnitPath* out) {
  const absl::Status us = SearchStatus(u.status, snapshot);
  out->set_code(static_cast<int>(us.code()));
  out->set_message(std::string(us.message()));
  out->set_spliced(u.spliced);
  out->set_independent_cost(u.independent_cost);
  if (!us.ok()) return;
  v1::PathResponse* path = out->mutable_path();
  convert::PackCells(u.path.cells, path->mutable_cells());
  path->set_cost(u.path.cost);
  path->set_expanded(u.path.expanded);
  path->set_map_version(snapshot.version);
  convert::CellToProto(u.path.cells.front(), path->mutable_start());
  convert::CellToProto(u.path.cells.back(), path->mutable_goal());
}

}  // namespace

void PathfindingService::ServeFindGroupPaths(
    Call* call, const v1::GroupPathsRequest* request,
    v1::GroupPathsResponse* response) {
  if (!Admit(call, AccessLevel::kQuery)) return;
  std::shared_ptr<const MapSnapshot> snapshot =
      SnapshotOrFinish(*registry_, "map_id", request->map_id(), call);
  if (snapshot == nullptr) return;
  if (static_cast<size_t>(request->starts_size()) > options_.max_group) {
    call->Done(absl::ResourceExhaustedError(absl::StrCat(
        "starts: ", request->starts_size(), " units, more than the limit of ",
        options_.max_group, " (--max_group)")));
    return;
  }
  auto q = std::make_shared<GroupQuery>();
  if (absl::Status s = convert::GroupQueryFromProto(
          *request, snapshot->options.default_diagonal, q.get());
      !s.ok()) {
    call->Done(s);
    return;
  }
  absl::StatusOr<ResolvedAgent> agent =
      ResolveAgent(*snapshot, request->areas(), request->area_costs(),
                   request->agent_size(), "");
  if (!agent.ok()) {
    call->Done(agent.status());
    return;
  }
  q->movement.diagonal = AgentPolicy(q->movement.diagonal, agent->agent.size);
  // Held by the task: the agent map lives as long as the search.
  std::shared_ptr<const GridMap> agent_map = agent->map;
  // A cached field of the shared goal answers the whole group.
  std::shared_ptr<const FlowField> cached;
  FlowFieldKey key;
  if (q->goals.size() == 1 && q->method != GroupMethod::kSplice) {
    key = {snapshot->id, snapshot->version, q->goals[0], q->movement, 0,
           agent->agent};
    cached = flow_fields_->Find(key);
    q->flow_field = cached.get();
  }
  q->budget.deadline = CallDeadline(*call, options_.max_search_time);
  CancelFlag cancelled = call->cancelled();
  q->budget.cancelled = cancelled.get();
  const absl::Time enqueued = absl::Now();
  const bool queued = search_->TrySubmit([this, call, q, snapshot, agent_map,
                                          cancelled, response, enqueued, cached,
                                          key](SearchContext& context) {
    const absl::Time begin = absl::Now();
    GroupResult r;
    absl::Status s = gridstar::FindGroupPaths(
        agent_map != nullptr ? *agent_map : snapshot->map, *q, context, &r);
    if (!s.ok()) {
      call->Done(s);
      return;
    }
    // Counted only for groups that followed a field, so that the hit ratio
    // is not diluted by spliced groups that never wanted one.
    if (r.used_flow_field) metrics_->FlowFieldLookup(cached != nullptr);
    if (r.computed_flow_field != nullptr) {
      flow_fields_->Insert(key, std::move(r.computed_flow_field));
    }
    response->set_flow_field(r.used_flow_field);
    response->set_flow_field_cached(r.used_flow_field && cached != nullptr);
    const double seconds = absl::ToDoubleSeconds(absl::Now() - begin);
    metrics_->QueueWait(absl::ToDoubleSeconds(begin - enqueued));
    for (const UnitPath& u : r.units) {
      UnitToProto(u, *snapshot, response->add_units());
    }
    metrics_->Search(absl::StrCat(AlgorithmName(q->algorithm), "_group"), "ok",
                     seconds, 0);
    response->set_searches(r.searches);
    response->set_spliced_units(r.spliced_units);
    response->set_mean_cost_overhead(r.mean_cost_overhead);
    response->set_max_cost_overhead(r.max_cost_overhead);
    response->set_queue_micros(absl::ToDoubleMicroseconds(begin - enqueued));
    response->set_search_micros(seconds * 1e6);
    call->Done(absl::OkStatus());
  });
  if (!queued) call->Done(Overloaded(*search_));
}

void PathfindingService::ServeComputeFlowField(
    Call* call, const v1::FlowFieldRequest* request,
    v1::FlowFieldResponse* response) {
  if (!Admit(call, AccessLevel::kQuery)) return;
  std::shared_ptr<const MapSnapshot> snapshot =
      SnapshotOrFinish(*registry_, "map_id", request->map_id(), call);
  if (snapshot == nullptr) return;
  FlowFieldQuery fq;
  absl::Status s = convert::FlowFieldQueryFromProto(
      *request, snapshot->options.default_diagonal, &fq);
  absl::StatusOr<ResolvedAgent> agent =
      s.ok() ? ResolveAgent(*snapshot, request->areas(), request->area_costs(),
                            request->agent_size(), "")
             : absl::StatusOr<ResolvedAgent>(s);
  if (!agent.ok()) {
    call->Done(agent.status());
    return;
  }
  fq.movement.diagonal = AgentPolicy(fq.movement.diagonal, agent->agent.size);
  // Held by the task: the agent map lives as long as the search.
  std::shared_ptr<const GridMap> agent_map = agent->map;
  const GridMap& map = agent_map != nullptr ? *agent_map : snapshot->map;
  s = map.CheckPassable("goal", fq.goal);
  // Four bytes of cost and one of direction a cell, plus headers.
  const int64_t answer_bytes = map.cell_count() * 5 + 1024;
  if (s.ok() &&
      answer_bytes > static_cast<int64_t>(options_.max_message_bytes)) {
    s = absl::ResourceExhaustedError(absl::StrCat(
        "map_id: the field of the ", map.width(), " x ", map.height(),
        " map takes ", answer_bytes, " bytes, over --max_message_bytes (",
        options_.max_message_bytes, ")"));
  }
  if (!s.ok()) {
    call->Done(s);
    return;
  }
  fq.budget.deadline = CallDeadline(*call, options_.max_search_time);
  CancelFlag cancelled = call->cancelled();
  fq.budget.cancelled = cancelled.get();
  const FlowFieldKey key{snapshot->id, snapshot->version, fq.goal,
                         fq.movement,  fq.max_cost,       agent->agent};
  std::shared_ptr<const FlowField> cached = flow_fields_->Find(key);
  metrics_->FlowFieldLookup(cached != nullptr);
  const bool allow_partial = request->allow_partial();
  const absl::Time enqueued = absl::Now();
  // Packing a field is O(cells) too: it runs on a worker either way.
  const bool queued = search_->TrySubmit([this, call, snapshot, agent_map, fq,
                                          key, cached, cancelled, allow_partial,
                                          response,
                                          enqueued](SearchContext& context) {
    const absl::Time begin = absl::Now();
    metrics_->QueueWait(absl::ToDoubleSeconds(begin - enqueued));
    std::shared_ptr<const FlowField> field = cached;
    if (field == nullptr) {
      absl::StatusOr<FlowField> computed = gridstar::ComputeFlowField(
          agent_map != nullptr ? *agent_map : snapshot->map, fq, context);
      const double seconds = absl::ToDoubleSeconds(absl::Now() - begin);
      if (!computed.ok()) {
        metrics_->Search("flow_field", "error", seconds, 0);
        call->Done(computed.status());
        return;
      }
      field = std::make_shared<const FlowField>(*std::move(computed));
      metrics_->Search("flow_field",
                       Outcome(absl::OkStatus(), field->stop_reason()), seconds,
                       static_cast<uint64_t>(field->reached()));
      if (field->complete()) flow_fields_->Insert(key, field);
      if (absl::Status p = PartialStatus(
              field->stop_reason(), fq.budget,
              static_cast<uint64_t>(field->reached()), allow_partial);
          !p.ok()) {
        call->Done(p);
        return;
      }
    }
    response->set_width(field->width());
    response->set_height(field->height());
    convert::CellToProto(fq.goal, response->mutable_goal());
    response->set_map_version(snapshot->version);
    response->set_diagonal(convert::PolicyToProto(fq.movement.diagonal));
    google::protobuf::RepeatedField<float>* costs = response->mutable_costs();
    costs->Reserve(static_cast<int>(field->costs().size()));
    for (double c : field->costs()) {
      costs->AddAlreadyReserved(std::isinf(c) ? -1.0f : static_cast<float>(c));
    }
    response->set_directions(
        std::string(field->directions().begin(), field->directions().end()));
    response->set_reached_cells(field->reached());
    response->set_complete(field->complete());
    response->set_cached(cached != nullptr);
    response->set_queue_micros(absl::ToDoubleMicroseconds(begin - enqueued));
    response->set_search_micros(
        absl::ToDoubleMicroseconds(absl::Now() - begin));
    call->Done(absl::OkStatus());
  });
  if (!queued) call->Done(Overloaded(*search_));
}

}  // namespace gridstar::server
