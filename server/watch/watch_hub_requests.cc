// WatchHub: a stream's commands (ADD, MOVE, RETARGET, REMOVE).

#include <memory>
#include <string>
#include <utility>

#include "absl/strings/str_cat.h"
#include "watch/watch_hub.h"
#include "watch/watch_hub_internal.h"

namespace gridstar::server {

void WatchHub::EnableWorlds(WorldRegistry* worlds,
                            WorldWatch::SearchMaker make_search) {
  world_ = std::make_unique<WorldWatch>(
      registry_, worlds, search_, &watch_metrics_, std::move(make_search),
      options_.max_agents_per_stream, options_.max_search_time);
}

void WatchHub::WorldChanged(const std::string& id) {
  if (world_ != nullptr) world_->WorldChanged(id);
}

void WatchHub::Handle(const std::shared_ptr<WatchSink>& sink,
                      const WatchCommand& command) {
  const bool world_add =
      command.action == WatchAction::kAdd && command.world_path != nullptr;
  if (world_add && world_ == nullptr) {
    WatchEvent e;
    e.request_id = command.request_id;
    e.agent_id = command.agent_id;
    e.reason = WatchReason::kAdded;
    e.status = absl::FailedPreconditionError(
        "world_path: this server was built without a world registry");
    if (!sink->Push(std::move(e), /*coalesce=*/false)) DropStream(sink.get());
    return;
  }
  if (world_ != nullptr) {
    if (world_add) {
      // An agent of the stream by that id is replaced, whatever its kind.
      size_t map_agents = 0;
      {
        std::lock_guard<std::mutex> lock(mu_);
        if (auto sit = streams_.find(sink.get()); sit != streams_.end()) {
          if (auto a = sit->second->agents.find(command.agent_id);
              a != sit->second->agents.end()) {
            Remove(a->second);
          }
          map_agents = sit->second->agents.size();
        }
        Publish();
      }
      world_->Handle(sink, command, map_agents);
      return;
    }
    if (command.action == WatchAction::kAdd) {
      world_->Forget(sink.get(), command.agent_id);
    } else if (world_->Has(sink.get(), command.agent_id)) {
      world_->Handle(sink, command, 0);
      return;
    }
  }
  const size_t world_agents =
      world_ == nullptr ? 0 : world_->AgentsIn(sink.get());
  // A map held only in a shared store is loaded before the hub's lock is
  // taken (that may wait for Redis); the lock then only reads it.
  if (command.action == WatchAction::kAdd) {
    (void)registry_->FindOrLoad(command.path.map_id);
  }
  std::lock_guard<std::mutex> lock(mu_);
  HandleLocked(sink, command, world_agents);
  Settle();
  Publish();
}

void WatchHub::HandleLocked(const std::shared_ptr<WatchSink>& sink,
                            const WatchCommand& command, size_t world_agents) {
  std::unique_ptr<Stream>& stream_slot = streams_[sink.get()];
  if (stream_slot == nullptr) stream_slot = std::make_unique<Stream>();
  Stream& stream = *stream_slot;
  const uint64_t request_id = command.request_id;
  const uint64_t agent_id = command.agent_id;
  auto reply = [&](WatchReason reason, const absl::Status& s,
                   uint64_t path_index = 0) {
    WatchEvent e;
    e.request_id = request_id;
    e.agent_id = agent_id;
    e.reason = reason;
    e.status = s;
    e.path_index = path_index;
    PushTo(sink, std::move(e), /*coalesce=*/false);
  };
  auto found = stream.agents.find(agent_id);
  Handle_t h = found == stream.agents.end() ? 0 : found->second;
  Agent* agent = h == 0 ? nullptr : Find(h);
  const std::string no_agent =
      absl::StrCat("agent_id: no agent ", agent_id, " in this stream");

  switch (command.action) {
    case WatchAction::kAdd: {
      const PathAsk& path = command.path;
      const WatchReason reason = WatchReason::kAdded;
      if (path.query.trace) {
        return reply(reason, absl::InvalidArgumentError(
                                 "path.trace: not allowed for watched agents"));
      }
      const double fraction = command.replan_if_cheaper;
      if (!(fraction >= 0 && fraction < 1)) {
        return reply(reason, absl::InvalidArgumentError(absl::StrCat(
                                 "replan_if_cheaper: ", fraction,
                                 " is outside [0, 1)")));
      }
      std::shared_ptr<const MapSnapshot> snapshot =
          registry_->Find(path.map_id);
      if (snapshot == nullptr) {
        return reply(reason, UnknownMap("path.map_id", path.map_id));
      }
      // Checked as a search would check it, before anything changes.
      PathJob probe;
      if (absl::Status s = MakeJob(path, snapshot, absl::InfiniteFuture(),
                                   stream.cancelled, "path.",
                                   options_.max_message_bytes, &probe);
          !s.ok()) {
        return reply(reason, s);
      }
      const bool is_new = agent == nullptr;
      if (is_new) {
        if (stream.agents.size() + world_agents >=
            options_.max_agents_per_stream) {
          return reply(reason, absl::ResourceExhaustedError(absl::StrCat(
                                   "agent_id: the stream has ",
                                   stream.agents.size() + world_agents,
                                   " agents, the limit (--watch_max_agents)")));
        }
        h = next_handle_++;
        auto owned = std::make_unique<Agent>();
        agent = owned.get();
        agents_[h] = std::move(owned);
        stream.agents[agent_id] = h;
        agent->sink = sink;
        agent->id = agent_id;
        agent->cancelled = stream.cancelled;
      } else if (agent->map_id != path.map_id) {
        // Onto another map: out of the old one's index.
        ClearPath(h, *agent);
        if (auto mit = maps_.find(agent->map_id); mit != maps_.end()) {
          mit->second->agents.erase(h);
          if (mit->second->agents.empty()) maps_.erase(mit);
        }
      }
      agent->map_id = path.map_id;
      std::unique_ptr<MapWatch>& watch = maps_[agent->map_id];
      if (watch == nullptr) {
        watch = std::make_unique<MapWatch>();
        watch->logged = snapshot->version;  // No change before is known.
      }
      watch->agents.insert(h);
      Refresh(*watch, agent->map_id);
      agent->request = path;
      agent->policy = probe.query.movement.diagonal;
      agent->classed = probe.agent_map != nullptr;
      agent->position = path.query.start;
      agent->replan_if_cheaper = fraction;
      agent->progressive = command.progressive_expansions;
      agent->no_path = false;
      agent->blocked = 0;
      agent->fresh_micros = agent->repair_micros = 0;
      DropPlanner(*agent);
      ClearPath(h, *agent);
      if (absl::Status s = Submit(h, *agent, reason, request_id,
                                  absl::InfinitePast(), 0);
          !s.ok()) {
        if (is_new) Remove(h);
        return reply(reason, s);
      }
      return;
    }
    case WatchAction::kMove: {
      if (agent == nullptr) {
        return reply(WatchReason::kMoved, absl::NotFoundError(no_agent));
      }
      std::shared_ptr<const MapSnapshot> snapshot =
          registry_->Find(agent->map_id);
      if (snapshot == nullptr) {
        return reply(WatchReason::kMoved,
                     UnknownMap("path.map_id", agent->map_id));
      }
      const Cell position = command.position;
      if (!snapshot->map.InBounds(position)) {
        return reply(WatchReason::kMoved,
                     absl::InvalidArgumentError(absl::StrCat(
                         "position: (", position.x, ", ", position.y,
                         ") is off the map (", snapshot->map.width(), " x ",
                         snapshot->map.height(), ")")));
      }
      agent->position = position;
      if (!agent->path.empty()) {
        if (absl::optional<size_t> at =
                agent->path.Locate(position, agent->progress)) {
          agent->progress = *at;
          return reply(WatchReason::kMoved, absl::OkStatus(), *at);
        }
      }
      if (agent->in_flight) {
        // Its answer is installed from where the agent is then.
        return reply(WatchReason::kMoved, absl::OkStatus());
      }
      if (absl::Status s = Submit(h, *agent, WatchReason::kOffPath, request_id,
                                  absl::InfinitePast(), 0);
          !s.ok()) {
        ClearPath(h, *agent);
        return reply(WatchReason::kOffPath, s);
      }
      return;
    }
    case WatchAction::kRetarget: {
      const WatchReason reason = WatchReason::kRetargeted;
      if (agent == nullptr) return reply(reason, absl::NotFoundError(no_agent));
      PathAsk retargeted = agent->request;
      retargeted.query.goal = command.goal;
      std::shared_ptr<const MapSnapshot> snapshot =
          registry_->Find(agent->map_id);
      if (snapshot == nullptr) {
        return reply(reason, UnknownMap("path.map_id", agent->map_id));
      }
      if (agent->request.query.snap_radius == 0) {
        std::shared_ptr<const GridMap> hold;
        if (absl::Status s = MapOf(*agent, *snapshot, &hold)
                                 .CheckPassable("goal", command.goal);
            !s.ok()) {
          return reply(reason, s);
        }
      }
      agent->request = std::move(retargeted);
      DropPlanner(*agent);  // Planned for the old goal.
      if (absl::Status s = Submit(h, *agent, reason, request_id,
                                  absl::InfinitePast(), 0);
          !s.ok()) {
        ClearPath(h, *agent);
        return reply(reason, s);
      }
      return;
    }
    case WatchAction::kRemove:
      if (agent == nullptr) {
        return reply(WatchReason::kRemoved, absl::NotFoundError(no_agent));
      }
      Remove(h);
      return reply(WatchReason::kRemoved, absl::OkStatus());
  }
}

}  // namespace gridstar::server
