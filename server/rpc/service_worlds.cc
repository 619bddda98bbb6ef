// Worlds of linked maps: RegisterWorld, UpdateLinks, GetWorld, ListWorlds,
// DeleteWorld (writes on the admin scheduler, as map writes), and
// FindWorldPath, FindWorldPaths (searches on the workers).

#include <atomic>
#include <memory>
#include <string>
#include <utility>
#include <vector>

#include "absl/strings/str_cat.h"
#include "absl/time/clock.h"
#include "rpc/calls.h"
#include "rpc/service.h"
#include "rpc/world_requests.h"

namespace gridstar::server {
namespace {

absl::Status NoWorld(absl::string_view field, const std::string& id) {
  return absl::NotFoundError(
      absl::StrCat(field, ": no world '", id.substr(0, 128), "'"));
}

// One world query on a worker: the maps read (Prepare), the ends checked
// for the agent, the search, the answer.
absl::Status RunWorldPath(WorldRegistry& worlds,
                          std::shared_ptr<const WorldSnapshot> world,
                          WorldAsk ask, absl::Time deadline,
                          const CancelFlag& cancelled, absl::Time enqueued,
                          SearchContext& context, WorldPathAnswer* out) {
  out->queue_micros = absl::ToDoubleMicroseconds(absl::Now() - enqueued);
  if (cancelled != nullptr && cancelled->load()) {
    return absl::CancelledError("the call was cancelled before it ran");
  }
  absl::StatusOr<PreparedWorld> prepared = worlds.Prepare(
      world, ask.query.start.map, ask.areas, ask.area_costs, ask.agent_size);
  if (!prepared.ok()) return prepared.status();
  WorldQuery& q = ask.query;
  if (ask.diagonal_from_map) {
    q.leg.movement.diagonal =
        prepared->maps[q.start.map]->options.default_diagonal;
  }
  q.agent = prepared->link_agent;
  q.leg.movement.diagonal = AgentPolicy(q.leg.movement.diagonal, q.agent.size);
  q.leg.budget.deadline = deadline;
  q.leg.budget.cancelled = cancelled.get();
  for (const auto& [name, end] :
       {std::make_pair("start", q.start), std::make_pair("goal", q.goal)}) {
    const GridMap& map = *prepared->views[end.map].map;
    if (map.Passable(end.cell)) continue;
    return absl::InvalidArgumentError(absl::StrCat(
        name, ".cell: (", end.cell.x, ", ", end.cell.y, ") is ",
        map.InBounds(end.cell) ? std::string("blocked")
                               : absl::StrCat("outside the ", map.width(),
                                              " x ", map.height(), " map"),
        " on map '", world->maps[end.map], "'",
        prepared->agent_maps[end.map] != nullptr ? " for this agent" : ""));
  }
  absl::StatusOr<std::shared_ptr<const WorldIndex>> index =
      worlds.IndexFor(*prepared, q.agent, q.leg.movement.diagonal);
  if (!index.ok()) return index.status();
  WorldResult result;
  absl::Status s = FindWorldPath(**index, q, context, &result);
  if (absl::IsNotFound(s)) {
    // Core names maps by index; the caller knows them by id.
    return absl::FailedPreconditionError(absl::StrCat(
        "no path: no route of maps and usable links (open, admitting this "
        "agent) leads from the start (",
        q.start.cell.x, ", ", q.start.cell.y, ") on map '",
        world->maps[q.start.map], "' to the goal (", q.goal.cell.x, ", ",
        q.goal.cell.y, ") on map '", world->maps[q.goal.map], "' in world '",
        world->id, "' version ", world->version));
  }
  if (!s.ok()) return s;
  const PartialReason partial = result.partial_reason;
  const uint64_t expanded = result.expanded;
  const double queue_micros = out->queue_micros;
  *out = WorldPathAnswerFrom(std::move(result), *prepared);
  out->queue_micros = queue_micros;
  return PartialStatus(partial, q.leg.budget, expanded, ask.allow_partial);
}

}  // namespace

void SetWorldItem(const absl::Status& s, v1::WorldPathItemResult* item) {
  item->set_code(static_cast<int>(s.code()));
  item->set_message(std::string(s.message()));
  if (!s.ok()) item->clear_path();
}

absl::StatusOr<PathfindingService::WorldJob> PathfindingService::MakeWorldJob(
    const v1::WorldPathRequest& request, absl::string_view prefix,
    absl::Time deadline, CancelFlag cancelled) const {
  WorldRegistry* worlds = options_.worlds;
  if (worlds == nullptr) {
    return absl::FailedPreconditionError(
        "this server was built without a world registry");
  }
  std::shared_ptr<const WorldSnapshot> world = worlds->Find(request.world_id());
  if (world == nullptr) {
    return NoWorld(absl::StrCat(prefix, "world_id"), request.world_id());
  }
  WorldAsk ask;
  if (absl::Status s = WorldAskFromProto(request, *world, prefix, &ask);
      !s.ok()) {
    return s;
  }
  return WorldJob([worlds, world, ask = std::move(ask), deadline,
                   cancelled = std::move(cancelled), enqueued = absl::Now()](
                      SearchContext& context, WorldPathAnswer* out) {
    return RunWorldPath(*worlds, world, ask, deadline, cancelled, enqueued,
                        context, out);
  });
}

absl::Status PathfindingService::RunWorldJob(const WorldJob& job,
                                             SearchContext& context,
                                             v1::WorldPathResponse* out) {
  WorldPathAnswer answer;
  absl::Status s = job(context, &answer);
  WorldPathAnswerToProto(answer, out);
  return s;
}

WorldRegistry* PathfindingService::WorldsOrFinish(Call* call) const {
  if (options_.worlds != nullptr) return options_.worlds;
  call->Done(absl::FailedPreconditionError(
      "this server was built without a world registry"));
  return nullptr;
}

void PathfindingService::ServeRegisterWorld(
    Call* call, const v1::RegisterWorldRequest* request,
    v1::WorldInfo* response) {
  if (!Admit(call, AccessLevel::kAdmin)) return;
  WorldRegistry* worlds = WorldsOrFinish(call);
  if (worlds == nullptr) return;
  absl::StatusOr<StoredWorld> world = WorldOfRequest(*request);
  if (!world.ok()) {
    call->Done(world.status());
    return;
  }
  const bool queued = admin_->TrySubmit(
      [this, worlds, call, world = *std::move(world),
       replace = request->replace(), response](SearchContext&) mutable {
        const std::string id = world.id;
        absl::StatusOr<std::shared_ptr<const WorldSnapshot>> s =
            worlds->Register(std::move(world), replace);
        if (s.ok()) WorldInfoToProto(**s, worlds->Tables(**s), true, response);
        call->Done(s.status());
        if (s.ok()) CompactWorldAfterAnswer(*worlds, id);
      });
  if (!queued) call->Done(Overloaded(*admin_));
}

void PathfindingService::ServeUpdateLinks(Call* call,
                                          const v1::UpdateLinksRequest* request,
                                          v1::WorldInfo* response) {
  if (!Admit(call, AccessLevel::kAdmin)) return;
  WorldRegistry* worlds = WorldsOrFinish(call);
  if (worlds == nullptr) return;
  absl::StatusOr<std::vector<LinkEdit>> edits = LinkEditsOfRequest(*request);
  if (!edits.ok()) {
    call->Done(edits.status());
    return;
  }
  // On the updates thread: it waits for the write to be durable without
  // holding a gRPC thread, and wakes first when it is.
  const bool queued =
      updates_->TrySubmit([this, worlds, call, request, response,
                           edits = *std::move(edits)](SearchContext&) {
        const std::string id = request->id();  // Dies with the call.
        absl::StatusOr<std::shared_ptr<const WorldSnapshot>> s =
            worlds->UpdateLinks(id, edits, request->expected_version());
        if (s.ok()) WorldInfoToProto(**s, worlds->Tables(**s), true, response);
        call->Done(s.status());
        // The world's history folded in on the admin thread (when its queue
        // is full, after a later write).
        if (s.ok()) {
          admin_->TrySubmit([this, worlds, id](SearchContext&) {
            CompactWorldAfterAnswer(*worlds, id);
          });
        }
      });
  if (!queued) call->Done(Overloaded(*updates_));
}

void PathfindingService::CompactWorldAfterAnswer(WorldRegistry& worlds,
                                                 const std::string& id) {
  // A failed compaction leaves the file as it was, to be folded in after a
  // later write.
  if (!worlds.CompactIfWanted(id).ok()) metrics_->StoreError("compact");
}

void PathfindingService::ServeGetWorld(Call* call,
                                       const v1::GetWorldRequest* request,
                                       v1::WorldInfo* response) {
  if (!Admit(call, AccessLevel::kQuery)) return;
  WorldRegistry* worlds = WorldsOrFinish(call);
  if (worlds == nullptr) return;
  std::shared_ptr<const WorldSnapshot> w = worlds->Find(request->id());
  if (w == nullptr) {
    call->Done(NoWorld("id", request->id()));
    return;
  }
  WorldInfoToProto(*w, worlds->Tables(*w), true, response);
  call->Done(absl::OkStatus());
}

void PathfindingService::ServeListWorlds(Call* call,
                                         const v1::ListWorldsRequest*,
                                         v1::ListWorldsResponse* response) {
  if (!Admit(call, AccessLevel::kQuery)) return;
  WorldRegistry* worlds = WorldsOrFinish(call);
  if (worlds == nullptr) return;
  for (const auto& w : worlds->List()) {
    WorldInfoToProto(*w, worlds->Tables(*w), false, response->add_worlds());
  }
  call->Done(absl::OkStatus());
}

void PathfindingService::ServeDeleteWorld(Call* call,
                                          const v1::DeleteWorldRequest* request,
                                          v1::DeleteWorldResponse*) {
  if (!Admit(call, AccessLevel::kAdmin)) return;
  WorldRegistry* worlds = WorldsOrFinish(call);
  if (worlds == nullptr) return;
  call->Done(worlds->Delete(request->id()));
}

void PathfindingService::ServeFindWorldPath(Call* call,
                                            const v1::WorldPathRequest* request,
                                            v1::WorldPathResponse* response) {
  if (!Admit(call, AccessLevel::kQuery)) return;
  absl::StatusOr<WorldJob> job =
      MakeWorldJob(*request, "", CallDeadline(*call, options_.max_search_time),
                   call->cancelled());
  if (!job.ok()) {
    call->Done(job.status());
    return;
  }
  const bool queued = search_->TrySubmit(
      [job = *std::move(job), call, response](SearchContext& context) {
        call->Done(RunWorldJob(job, context, response));
      });
  if (!queued) call->Done(Overloaded(*search_));
}

void PathfindingService::ServeFindWorldPaths(
    Call* call, const v1::FindWorldPathsRequest* request,
    v1::FindWorldPathsResponse* response) {
  if (!Admit(call, AccessLevel::kQuery)) return;
  WorldRegistry* worlds = WorldsOrFinish(call);
  if (worlds == nullptr) return;
  const size_t n = static_cast<size_t>(request->items_size());
  if (!BatchFits(call, n)) return;
  if (worlds->Find(request->world_id()) == nullptr) {
    call->Done(NoWorld("world_id", request->world_id()));
    return;
  }
  for (size_t i = 0; i < n; ++i) response->add_results();
  // One count per item plus one for this handler, so that the call
  // finishes once, after the last item and after the loop below.
  auto remaining = std::make_shared<std::atomic<size_t>>(n + 1);
  auto finish_one = [call, remaining] {
    if (remaining->fetch_sub(1) == 1) call->Done(absl::OkStatus());
  };
  const absl::Time deadline = CallDeadline(*call, options_.max_search_time);
  for (size_t i = 0; i < n; ++i) {
    v1::WorldPathItemResult* item =
        response->mutable_results(static_cast<int>(i));
    v1::WorldPathRequest one = request->items(static_cast<int>(i));
    one.set_world_id(request->world_id());
    absl::StatusOr<WorldJob> job = MakeWorldJob(
        one, absl::StrCat("items[", i, "]."), deadline, call->cancelled());
    if (!job.ok()) {
      SetWorldItem(job.status(), item);
      finish_one();
      continue;
    }
    const bool queued = search_->TrySubmit(
        [job = *std::move(job), item, finish_one](SearchContext& context) {
          SetWorldItem(RunWorldJob(job, context, item->mutable_path()), item);
          finish_one();
        });
    if (!queued) {
      SetWorldItem(Overloaded(*search_), item);
      finish_one();
    }
  }
  finish_one();
}

}  // namespace gridstar::server
