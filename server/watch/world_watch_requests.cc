// WorldWatch: a stream's commands for world agents (ADD with world_path,
// MOVE, RETARGET, REMOVE).

#include <memory>
#include <string>
#include <utility>

#include "absl/strings/str_cat.h"
#include "watch/watch_hub.h"
#include "watch/world_watch.h"
#include "watch/world_watch_internal.h"

namespace gridstar::server {
namespace {

// InvalidArgument naming `field` unless `at` is a cell of a member map of
// `world` (registered, the cell on it); the map's snapshot in *map.
absl::Status CheckOnWorld(const WorldSnapshot& world, MapRegistry& maps,
                          const MapCell& at, const std::string& field,
                          std::shared_ptr<const MapSnapshot>* map) {
  if (world.MapIndex(at.map_id) < 0) {
    return absl::InvalidArgumentError(
        absl::StrCat(field, ".map_id: '", at.map_id.substr(0, 128),
                     "' is not a map of world '", world.id, "'"));
  }
  *map = maps.Find(at.map_id);
  if (*map == nullptr) return UnknownMap(field + ".map_id", at.map_id);
  if (!(*map)->map.InBounds(at.cell)) {
    return absl::InvalidArgumentError(
        absl::StrCat(field, ".cell: (", at.cell.x, ", ", at.cell.y,
                     ") is off map '", at.map_id, "' (", (*map)->map.width(),
                     " x ", (*map)->map.height(), ")"));
  }
  return absl::OkStatus();
}

// InvalidArgument naming `field` when an agent asking `r` cannot stand on
// `at` (of `map`).
absl::Status CheckStands(const WorldPathAsk& r, const MapSnapshot& map,
                         const MapCell& at, const std::string& field) {
  absl::StatusOr<ResolvedAgent> agent =
      ResolveAgent(map, r.areas, r.area_costs, r.agent_size, "world_path.");
  if (!agent.ok()) return agent.status();
  const GridMap& view = agent->map != nullptr ? *agent->map : map.map;
  return view.CheckPassable(field + ".cell", at.cell);
}

absl::Status NoWorld(const std::string& id) {
  return absl::NotFoundError(
      absl::StrCat("world_path.world_id: no world '", id.substr(0, 128), "'"));
}

}  // namespace

void WorldWatch::Handle(const std::shared_ptr<WatchSink>& sink,
                        const WatchCommand& command, size_t map_agents) {
  std::lock_guard<std::mutex> lock(mu_);
  HandleLocked(sink, command, map_agents);
  Settle();
}

void WorldWatch::HandleLocked(const std::shared_ptr<WatchSink>& sink,
                              const WatchCommand& command, size_t map_agents) {
  absl::flat_hash_map<uint64_t, Handle_t>& stream = StreamOf(sink.get());
  const uint64_t request_id = command.request_id;
  const uint64_t agent_id = command.agent_id;
  auto reply = [&](WatchReason reason, const absl::Status& s,
                   uint32_t leg_index = 0, uint64_t path_index = 0) {
    WatchEvent e;
    e.request_id = request_id;
    e.agent_id = agent_id;
    e.reason = reason;
    e.status = s;
    e.leg_index = leg_index;
    e.path_index = path_index;
    Reply(sink, std::move(e));
    Settle();
  };
  auto found = stream.find(agent_id);
  Handle_t h = found == stream.end() ? 0 : found->second;
  Agent* agent = h == 0 ? nullptr : Find(h);
  const std::string no_agent =
      absl::StrCat("agent_id: no agent ", agent_id, " in this stream");
  Started started;
  started.request_id = request_id;

  switch (command.action) {
    case WatchAction::kAdd: {
      const WatchReason reason = WatchReason::kAdded;
      if (command.world_path == nullptr) {
        return reply(reason, absl::InvalidArgumentError(
                                 "world_path: required for a world agent"));
      }
      const WorldPathAsk& r = *command.world_path;
      if (r.trace) {
        return reply(reason,
                     absl::InvalidArgumentError(
                         "world_path.trace: not allowed for watched agents"));
      }
      const double fraction = command.replan_if_cheaper;
      if (!(fraction >= 0 && fraction < 1)) {
        return reply(reason, absl::InvalidArgumentError(
                                 absl::StrCat("replan_if_cheaper: ", fraction,
                                              " is outside [0, 1)")));
      }
      // Checked as a search would check it, before anything changes.
      if (absl::StatusOr<Search> probe =
              make_search_(r, "world_path.", absl::InfiniteFuture(), nullptr);
          !probe.ok()) {
        return reply(reason, probe.status());
      }
      std::shared_ptr<const WorldSnapshot> world = worlds_->Find(r.world_id);
      if (world == nullptr) {
        return reply(reason, NoWorld(r.world_id));
      }
      for (const auto& [field, end] :
           {std::make_pair("world_path.start", r.start),
            std::make_pair("world_path.goal", r.goal)}) {
        std::shared_ptr<const MapSnapshot> map;
        absl::Status s = CheckOnWorld(*world, *maps_, end, field, &map);
        if (s.ok()) s = CheckStands(r, *map, end, field);
        if (!s.ok()) return reply(reason, s);
      }
      const bool is_new = agent == nullptr;
      if (is_new) {
        if (stream.size() + map_agents >= max_agents_per_stream_) {
          return reply(reason, absl::ResourceExhaustedError(absl::StrCat(
                                   "agent_id: the stream has ",
                                   stream.size() + map_agents,
                                   " agents, the limit (--watch_max_agents)")));
        }
        h = next_handle_++;
        auto owned = std::make_unique<Agent>();
        agent = owned.get();
        agents_[h] = std::move(owned);
        stream[agent_id] = h;
        agent->sink = sink;
        agent->id = agent_id;
        agent->cancelled = cancelled_[sink.get()];
      } else if (agent->request.world_id != r.world_id) {
        if (auto it = by_world_.find(agent->request.world_id);
            it != by_world_.end()) {
          it->second.erase(h);
          if (it->second.empty()) {
            last_worlds_.erase(it->first);
            by_world_.erase(it);
          }
        }
      }
      by_world_[r.world_id].insert(h);
      std::shared_ptr<const WorldSnapshot>& seen = last_worlds_[r.world_id];
      if (seen == nullptr || seen->version < world->version) seen = world;
      for (const std::string& m : world->maps) {
        std::shared_ptr<const MapSnapshot>& last = last_maps_[m];
        std::shared_ptr<const MapSnapshot> now = maps_->Find(m);
        if (last == nullptr ||
            (now != nullptr && now->version > last->version)) {
          last = std::move(now);
        }
      }
      agent->request = r;
      agent->classed =
          r.areas != 0 || !r.area_costs.empty() || r.agent_size > 1;
      agent->position = r.start;
      agent->replan_if_cheaper = fraction;
      agent->progressive = command.progressive_expansions;
      agent->no_path = false;
      ClearPath(*agent);
      started.reason = reason;
      if (absl::Status s = Submit(h, *agent, started); !s.ok()) {
        if (is_new) Remove(h);
        return reply(reason, s);
      }
      return;
    }
    case WatchAction::kMove: {
      const WatchReason reason = WatchReason::kMoved;
      if (agent == nullptr) return reply(reason, absl::NotFoundError(no_agent));
      const bool named = command.world_position.has_value();
      const MapCell at =
          named ? *command.world_position
                : MapCell{agent->position.map_id, command.position};
      std::shared_ptr<const WorldSnapshot> world =
          worlds_->Find(agent->request.world_id);
      if (world == nullptr) {
        return reply(reason, NoWorld(agent->request.world_id));
      }
      std::shared_ptr<const MapSnapshot> map;
      if (absl::Status s = CheckOnWorld(
              *world, *maps_, at, named ? "world_position" : "position", &map);
          !s.ok()) {
        return reply(reason, s);
      }
      agent->position = at;
      size_t leg = 0, index = 0;
      if (Locate(*agent, at, &leg, &index)) {
        agent->leg = leg;
        agent->progress = index;
        return reply(reason, absl::OkStatus(), static_cast<uint32_t>(leg),
                     index);
      }
      if (agent->in_flight) {
        // Its answer is installed from where the agent is then.
        return reply(reason, absl::OkStatus());
      }
      started.reason = WatchReason::kOffPath;
      if (absl::Status s = Submit(h, *agent, started); !s.ok()) {
        ClearPath(*agent);
        return reply(WatchReason::kOffPath, s);
      }
      return;
    }
    case WatchAction::kRetarget: {
      const WatchReason reason = WatchReason::kRetargeted;
      if (agent == nullptr) return reply(reason, absl::NotFoundError(no_agent));
      const bool named = command.world_goal.has_value();
      const MapCell goal =
          named ? *command.world_goal
                : MapCell{agent->request.goal.map_id, command.goal};
      const std::string field = named ? "world_goal" : "goal";
      std::shared_ptr<const WorldSnapshot> world =
          worlds_->Find(agent->request.world_id);
      if (world == nullptr) {
        return reply(reason, NoWorld(agent->request.world_id));
      }
      std::shared_ptr<const MapSnapshot> map;
      absl::Status s = CheckOnWorld(*world, *maps_, goal, field, &map);
      if (s.ok()) s = CheckStands(agent->request, *map, goal, field);
      if (!s.ok()) return reply(reason, s);
      agent->request.goal = goal;
      started.reason = reason;
      if (s = Submit(h, *agent, started); !s.ok()) {
        ClearPath(*agent);
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
