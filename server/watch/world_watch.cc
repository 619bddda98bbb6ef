// WorldWatch: world agents' commands, searches and paths (world_watch.h).

#include "watch/world_watch.h"

#include <algorithm>
#include <utility>

#include "absl/strings/str_cat.h"
#include "gridstar/agents.h"
#include "watch/watch_hub.h"
#include "watch/world_watch_internal.h"

namespace gridstar::server {

WorldWatch::WorldWatch(MapRegistry* maps, WorldRegistry* worlds,
                       Scheduler* search, WatchMetrics* metrics,
                       SearchMaker make_search, size_t max_agents_per_stream,
                       absl::Duration max_search_time)
    : maps_(maps),
      worlds_(worlds),
      search_(search),
      metrics_(metrics),
      make_search_(std::move(make_search)),
      max_agents_per_stream_(max_agents_per_stream),
      max_search_time_(max_search_time) {}

WorldWatch::~WorldWatch() = default;

WorldWatch::Agent* WorldWatch::Find(Handle_t h) {
  auto it = agents_.find(h);
  return it == agents_.end() ? nullptr : it->second.get();
}

void WorldWatch::Reply(const std::shared_ptr<WatchSink>& sink,
                       WatchEvent event) {
  const bool coalesce = event.request_id == 0;
  if (!sink->Push(std::move(event), coalesce)) {
    dead_sinks_.push_back(sink.get());
  }
}

void WorldWatch::Answer(Agent& agent, uint64_t request_id, WatchReason reason,
                        const absl::Status& s) {
  WatchEvent e;
  e.request_id = request_id;
  e.agent_id = agent.id;
  e.reason = reason;
  e.status = s;
  Reply(agent.sink, std::move(e));
}

void WorldWatch::Settle() {
  while (!dead_sinks_.empty()) {
    const WatchSink* sink = dead_sinks_.back();
    dead_sinks_.pop_back();
    DropStreamLocked(sink);
  }
  metrics_->SetWorldState(agents_.size(), memory_bytes_);
}

void WorldWatch::Account(Agent& agent) {
  size_t bytes = sizeof(Agent) + agent.request.world_id.capacity() +
                 agent.request.start.map_id.capacity() +
                 agent.request.goal.map_id.capacity() +
                 agent.request.area_costs.capacity() * sizeof(double) +
                 agent.position.map_id.capacity() +
                 agent.legs.capacity() * sizeof(Agent::Leg) +
                 agent.links.capacity() * sizeof(std::string) +
                 // The hash slots naming it.
                 3 * (sizeof(Handle_t) + sizeof(void*));
  for (const Agent::Leg& leg : agent.legs) {
    bytes += leg.map_id.capacity() + leg.path.memory_bytes() +
             leg.tiles.capacity() * sizeof(uint32_t);
  }
  for (const std::string& link : agent.links) bytes += link.capacity();
  memory_bytes_ = memory_bytes_ + bytes - agent.bytes;
  agent.bytes = bytes;
}

WorldWatch::Stats WorldWatch::stats() const {
  std::lock_guard<std::mutex> lock(mu_);
  Stats s = totals_;
  s.agents = agents_.size();
  s.memory_bytes = memory_bytes_;
  return s;
}

absl::flat_hash_map<uint64_t, WorldWatch::Handle_t>& WorldWatch::StreamOf(
    const WatchSink* sink) {
  CancelFlag& flag = cancelled_[sink];
  if (flag == nullptr) flag = std::make_shared<std::atomic<bool>>(false);
  return streams_[sink];
}

bool WorldWatch::Has(const WatchSink* sink, uint64_t agent_id) const {
  std::lock_guard<std::mutex> lock(mu_);
  auto it = streams_.find(sink);
  return it != streams_.end() && it->second.contains(agent_id);
}

size_t WorldWatch::AgentsIn(const WatchSink* sink) const {
  std::lock_guard<std::mutex> lock(mu_);
  auto it = streams_.find(sink);
  return it == streams_.end() ? 0 : it->second.size();
}

void WorldWatch::Forget(const WatchSink* sink, uint64_t agent_id) {
  std::lock_guard<std::mutex> lock(mu_);
  auto it = streams_.find(sink);
  if (it == streams_.end()) return;
  auto a = it->second.find(agent_id);
  if (a != it->second.end()) Remove(a->second);
}

std::vector<WorldWatch::Handle_t> WorldWatch::AgentsOf(
    const std::string& world_id) const {
  auto it = by_world_.find(world_id);
  if (it == by_world_.end()) return {};
  return std::vector<Handle_t>(it->second.begin(), it->second.end());
}

void WorldWatch::Remove(Handle_t h) {
  Agent* agent = Find(h);
  if (agent == nullptr) return;
  const std::string& world_id = agent->request.world_id;
  if (auto it = by_world_.find(world_id); it != by_world_.end()) {
    it->second.erase(h);
    if (it->second.empty()) {
      by_world_.erase(it);
      last_worlds_.erase(world_id);
    }
  }
  if (auto it = streams_.find(agent->sink.get()); it != streams_.end()) {
    it->second.erase(agent->id);
  }
  memory_bytes_ -= agent->bytes;
  agents_.erase(h);
  // Maps no agent's world holds any more are not followed.
  if (agents_.empty()) last_maps_.clear();
}

void WorldWatch::DropStream(const WatchSink* sink) {
  std::lock_guard<std::mutex> lock(mu_);
  DropStreamLocked(sink);
  Settle();
}

void WorldWatch::DropStreamLocked(const WatchSink* sink) {
  if (auto c = cancelled_.find(sink); c != cancelled_.end()) {
    c->second->store(true);
    cancelled_.erase(c);
  }
  auto it = streams_.find(sink);
  if (it == streams_.end()) return;
  std::vector<Handle_t> handles;
  for (const auto& [id, h] : it->second) handles.push_back(h);
  for (Handle_t h : handles) Remove(h);
  streams_.erase(sink);
}

void WorldWatch::ClearPath(Agent& agent) {
  agent.legs.clear();
  agent.links.clear();
  agent.leg = agent.progress = 0;
  agent.path_cost = 0;
  Account(agent);
}

void WorldWatch::SetPath(Agent& agent, const WorldPathAnswer& answer,
                         const Started& started) {
  agent.legs.clear();
  agent.links = answer.link_ids;
  for (const WorldPathAnswer::Leg& l : answer.legs) {
    Agent::Leg leg;
    leg.map_id = l.map_id;
    leg.path = AgentPath(l.cells);
    std::shared_ptr<const MapSnapshot> map = maps_->Find(leg.map_id);
    leg.tiles_width = map != nullptr ? map->map.width() : 0;
    leg.tiles = leg.path.Tiles(leg.tiles_width, kTileSide);
    agent.legs.push_back(std::move(leg));
  }
  agent.policy = started.policy;
  agent.link_agent = started.link_agent;
  agent.path_cost = answer.cost;
  agent.no_path = false;
  agent.leg = agent.progress = 0;
  size_t leg = 0, index = 0;
  if (Locate(agent, agent.position, &leg, &index)) {
    agent.leg = leg;
    agent.progress = index;
  }
  Account(agent);
}

bool WorldWatch::Locate(const Agent& agent, const MapCell& at, size_t* leg,
                        size_t* index) const {
  auto on = [&](size_t k, size_t hint) {
    const Agent::Leg& l = agent.legs[k];
    if (l.map_id != at.map_id) return false;
    absl::optional<size_t> i = l.path.Locate(at.cell, hint);
    if (!i.has_value()) return false;
    *leg = k;
    *index = *i;
    return true;
  };
  // A unit walks forward: its leg from where it was, the legs after it,
  // then the ones before.
  for (size_t k = agent.leg; k < agent.legs.size(); ++k) {
    if (on(k, k == agent.leg ? agent.progress : 0)) return true;
  }
  for (size_t k = std::min(agent.leg, agent.legs.size()); k-- > 0;) {
    if (on(k, 0)) return true;
  }
  return false;
}

absl::Status WorldWatch::Submit(Handle_t h, Agent& agent, Started started) {
  WorldPathAsk r = agent.request;
  r.start = agent.position;
  // The policy and link class the search will use (as the world search
  // reads them from its start map), to check the path with later.
  std::shared_ptr<const MapSnapshot> start = maps_->Find(agent.position.map_id);
  if (start == nullptr) {
    return UnknownMap("world_path.start.map_id", agent.position.map_id);
  }
  const DiagonalPolicy policy =
      r.diagonal.value_or(start->options.default_diagonal);
  absl::StatusOr<ResolvedAgent> resolved =
      ResolveAgent(*start, r.areas, r.area_costs, r.agent_size, "world_path.");
  if (!resolved.ok()) return resolved.status();
  started.policy = AgentPolicy(policy, resolved->agent.size);
  started.link_agent.size = resolved->agent.size;
  started.link_agent.areas = resolved->asked_areas;

  const absl::Time deadline = absl::Now() + max_search_time_;
  absl::StatusOr<Search> full =
      make_search_(r, "world_path.", deadline, agent.cancelled);
  if (!full.ok()) return full.status();
  std::shared_ptr<Search> first;
  if (agent.progressive > 0) {
    WorldPathAsk capped = r;
    const uint64_t cap = r.max_expansions;
    capped.max_expansions =
        cap == 0 ? agent.progressive : std::min(cap, agent.progressive);
    capped.allow_partial = true;
    absl::StatusOr<Search> s =
        make_search_(capped, "world_path.", deadline, agent.cancelled);
    if (!s.ok()) return s.status();
    first = std::make_shared<Search>(*std::move(s));
  }
  started.seq = next_seq_++;
  started.changes = totals_.changes;
  auto search = std::make_shared<Search>(*std::move(full));
  if (!search_->TrySubmit([this, h, started, first, search](SearchContext& c) {
        Run(h, started, first, search, c);
      })) {
    return Overloaded(*search_);
  }
  agent.latest_seq = started.seq;
  agent.in_flight = true;
  ++totals_.searches[static_cast<int>(started.reason)];
  ++totals_.searches_started;
  metrics_->Replan(started.reason);
  return absl::OkStatus();
}

void WorldWatch::SubmitPush(Handle_t h, Agent& agent, WatchReason reason,
                            absl::Time since, const std::string& cause_map,
                            uint64_t cause_version) {
  Started started;
  started.reason = reason;
  started.since = since;
  started.cause_map = cause_map;
  started.cause_version = cause_version;
  absl::Status s = Submit(h, agent, started);
  if (s.ok() || reason != WatchReason::kBlocked) return;
  // Its path is broken and no search could start: say so, keep no path
  // (a MOVE or RETARGET asks again).
  ClearPath(agent);
  Tell(agent, started, s, nullptr);
}

void WorldWatch::Run(Handle_t h, Started started, std::shared_ptr<Search> first,
                     std::shared_ptr<Search> full, SearchContext& context) {
  WorldPathAnswer answer;
  if (first != nullptr) {
    absl::Status s = (*first)(context, &answer);
    if (s.ok() && !answer.partial) {
      Installed(h, started, s, std::move(answer));
      return;
    }
    if (s.ok()) {
      std::lock_guard<std::mutex> lock(mu_);
      Agent* agent = Find(h);
      if (agent != nullptr && agent->latest_seq == started.seq) {
        Tell(*agent, started, absl::OkStatus(),
             std::make_shared<const WorldPathAnswer>(std::move(answer)));
        Settle();
      }
    }
    answer = WorldPathAnswer();
  }
  absl::Status s = (*full)(context, &answer);
  Installed(h, started, s, std::move(answer));
}

void WorldWatch::Installed(Handle_t h, const Started& started,
                           const absl::Status& s, WorldPathAnswer answer) {
  std::lock_guard<std::mutex> lock(mu_);
  ++totals_.searches_done;
  Agent* agent = Find(h);
  if (agent == nullptr) return;
  if (started.seq != agent->latest_seq) {
    if (started.request_id != 0) {
      Answer(*agent, started.request_id, started.reason,
             absl::AbortedError("superseded by a newer request for this "
                                "agent, whose answer follows"));
    }
    Settle();
    return;
  }
  agent->in_flight = false;
  std::shared_ptr<const WorldSnapshot> world =
      worlds_->Find(agent->request.world_id);
  // Changes came while it searched (the watch skips agents in flight).
  const bool changed = totals_.changes != started.changes;
  if (!s.ok()) {
    const bool none = s.code() == absl::StatusCode::kFailedPrecondition;
    if (started.reason == WatchReason::kReachable && none) {
      // Still no path: nothing to tell, unless a change since opens one.
      if (changed) {
        SubmitPush(h, *agent, WatchReason::kReachable, absl::Now(), "",
                   world == nullptr ? 0 : world->version);
      }
      Settle();
      return;
    }
    // A failed search for a cheaper path leaves a path that still holds.
    const bool holds = started.reason == WatchReason::kCheaper &&
                       !agent->legs.empty() && world != nullptr &&
                       Remaining(*agent, *world) >= 0;
    if (!holds) {
      ClearPath(*agent);
      agent->no_path = none;
      Tell(*agent, started, s, nullptr);
      if (none && changed) {
        SubmitPush(h, *agent, WatchReason::kReachable, absl::Now(), "",
                   world == nullptr ? 0 : world->version);
      }
      Settle();
      return;
    }
  } else {
    bool keep = false;  // Not cheaper by enough: the agent keeps its path.
    if (started.reason == WatchReason::kCheaper && !agent->legs.empty() &&
        world != nullptr) {
      const double remaining = Remaining(*agent, *world);
      keep = remaining >= 0 &&
             !(answer.cost < (1 - agent->replan_if_cheaper) * remaining);
    }
    if (!keep) Push(*agent, started, std::move(answer));
  }
  // Changes applied while it searched: the path must hold on the newest
  // versions, and may no longer be the cheapest.
  if (changed && world != nullptr) {
    // Blocked: by the member map whose leg broke (with its version), else
    // by the world's links.
    std::string broken;
    uint64_t broken_version = 0;
    if (Remaining(*agent, *world, &broken, &broken_version) < 0) {
      SubmitPush(h, *agent, WatchReason::kBlocked, absl::Now(), broken,
                 broken.empty() ? world->version : broken_version);
    } else if (agent->replan_if_cheaper > 0) {
      SubmitPush(h, *agent, WatchReason::kCheaper, absl::Now(), "",
                 world->version);
    }
  }
  Settle();
}

void WorldWatch::Push(Agent& agent, const Started& started,
                      WorldPathAnswer answer) {
  SetPath(agent, answer, started);
  Tell(agent, started, absl::OkStatus(),
       std::make_shared<const WorldPathAnswer>(std::move(answer)));
}

void WorldWatch::Tell(Agent& agent, const Started& started,
                      const absl::Status& s,
                      std::shared_ptr<const WorldPathAnswer> path) {
  WatchEvent e;
  e.request_id = started.request_id;
  e.agent_id = agent.id;
  e.reason = started.reason;
  e.status = s;
  if (started.request_id == 0) {
    e.map_id = started.cause_map;
    (started.cause_map.empty() ? e.world_version : e.map_version) =
        started.cause_version;
  }
  if (started.since != absl::InfinitePast()) {
    const double seconds = absl::ToDoubleSeconds(absl::Now() - started.since);
    e.since_update_micros = seconds * 1e6;
    metrics_->PushLatency(seconds);
  }
  e.world_path = std::move(path);
  Reply(agent.sink, std::move(e));
}

}  // namespace gridstar::server
