#include "watch/watch_hub.h"

#include "watch/watch_hub_internal.h"

#include <algorithm>
#include <cmath>
#include <utility>

#include "absl/strings/str_cat.h"
#include "convert/convert.h"

namespace gridstar::server {

namespace {

void SetCode(const absl::Status& s, v1::WatchEvent* e) {
  e->set_code(static_cast<int32_t>(s.code()));
  e->set_message(std::string(s.message()));
}

}  // namespace

WatchHub::WatchHub(MapRegistry* registry, Scheduler* search, Metrics* metrics,
                   WatchOptions options)
    : registry_(registry),
      search_(search),
      metrics_(metrics),
      watch_metrics_(*metrics->registry()),
      options_(options) {}

WatchHub::~WatchHub() = default;

WatchHub::Agent* WatchHub::Find(Handle_t h) {
  auto it = agents_.find(h);
  return it == agents_.end() ? nullptr : it->second.get();
}

void WatchHub::PushTo(const std::shared_ptr<WatchSink>& sink,
                      v1::WatchEvent event, bool coalesce) {
  if (!sink->Push(std::move(event), coalesce)) dead_sinks_.push_back(sink.get());
}

void WatchHub::Answer(Agent& agent, uint64_t request_id,
                      v1::WatchReason reason, const absl::Status& s) {
  v1::WatchEvent e;
  e.set_request_id(request_id);
  e.set_agent_id(agent.id);
  e.set_reason(reason);
  SetCode(s, &e);
  PushTo(agent.sink, std::move(e), request_id == 0);
}

void WatchHub::Settle() {
  while (!dead_sinks_.empty()) {
    const WatchSink* sink = dead_sinks_.back();
    dead_sinks_.pop_back();
    DropStreamLocked(sink);
  }
}

void WatchHub::Account(Agent& agent) {
  const size_t bytes = sizeof(Agent) + agent.request.SpaceUsedLong() +
                       agent.path.memory_bytes() +
                       agent.tiles.capacity() * sizeof(uint32_t) +
                       // The index's entries and the hash slots naming it.
                       agent.tiles.size() * sizeof(Handle_t) +
                       3 * (sizeof(Handle_t) + sizeof(void*));
  memory_bytes_ = memory_bytes_ + bytes - agent.bytes;
  agent.bytes = bytes;
}

void WatchHub::Publish() {
  watch_metrics_.SetState(agents_.size(), streams_.size(), memory_bytes_);
}

WatchHub::Stats WatchHub::stats() const {
  std::lock_guard<std::mutex> lock(mu_);
  Stats s = totals_;
  s.agents = agents_.size();
  s.streams = streams_.size();
  s.memory_bytes = memory_bytes_;
  return s;
}

void WatchHub::Index(Handle_t h, Agent& agent) {
  MapWatch& watch = *maps_[agent.map_id];
  const int32_t width = watch.last != nullptr ? watch.last->map.width() : 0;
  agent.tiles = agent.path.Tiles(width, kTileSide);
  agent.tiles_width = width;
  for (uint32_t t : agent.tiles) watch.tiles[t].push_back(h);
}

void WatchHub::Deindex(Handle_t h, Agent& agent) {
  auto mit = maps_.find(agent.map_id);
  if (mit != maps_.end()) {
    for (uint32_t t : agent.tiles) {
      auto it = mit->second->tiles.find(t);
      if (it == mit->second->tiles.end()) continue;
      std::vector<Handle_t>& list = it->second;
      auto pos = std::find(list.begin(), list.end(), h);
      if (pos != list.end()) {
        *pos = list.back();
        list.pop_back();
      }
      if (list.empty()) mit->second->tiles.erase(it);
    }
  }
  agent.tiles.clear();
  agent.tiles.shrink_to_fit();
}

void WatchHub::SetPath(Handle_t h, Agent& agent, AgentPath path,
                       double cost) {
  Deindex(h, agent);
  agent.path = std::move(path);
  agent.path_cost = cost;
  agent.no_path = false;
  agent.progress = agent.path.Locate(agent.position, 0).value_or(0);
  Index(h, agent);
  Account(agent);
}

void WatchHub::ClearPath(Handle_t h, Agent& agent) {
  Deindex(h, agent);
  agent.path = AgentPath();
  agent.progress = 0;
  agent.path_cost = 0;
  Account(agent);
}

void WatchHub::Remove(Handle_t h) {
  Agent* agent = Find(h);
  if (agent == nullptr) return;
  Deindex(h, *agent);
  if (auto mit = maps_.find(agent->map_id); mit != maps_.end()) {
    mit->second->agents.erase(h);
    if (mit->second->agents.empty()) maps_.erase(mit);
  }
  if (auto sit = streams_.find(agent->sink.get()); sit != streams_.end()) {
    sit->second->agents.erase(agent->id);
  }
  memory_bytes_ -= agent->bytes;
  agents_.erase(h);
}

void WatchHub::DropStream(const WatchSink* sink) {
  std::lock_guard<std::mutex> lock(mu_);
  DropStreamLocked(sink);
  Settle();
  Publish();
}

void WatchHub::DropStreamLocked(const WatchSink* sink) {
  auto sit = streams_.find(sink);
  if (sit == streams_.end()) return;
  sit->second->cancelled->store(true);
  std::vector<Handle_t> handles;
  for (const auto& [id, h] : sit->second->agents) handles.push_back(h);
  for (Handle_t h : handles) Remove(h);
  streams_.erase(sink);
}

std::shared_ptr<const MapSnapshot> WatchHub::Refresh(MapWatch& watch,
                                                     const std::string& id) {
  std::shared_ptr<const MapSnapshot> snapshot = registry_->Find(id);
  if (snapshot == nullptr) return nullptr;
  if (watch.last != nullptr && watch.last->version >= snapshot->version) {
    return watch.last;
  }
  const bool resized = watch.last == nullptr ||
                       watch.last->map.width() != snapshot->map.width();
  watch.last = snapshot;
  if (resized) {
    for (Handle_t h : watch.agents) {
      Agent* agent = Find(h);
      if (agent == nullptr || agent->tiles_width == snapshot->map.width()) {
        continue;
      }
      Deindex(h, *agent);
      Index(h, *agent);
      Account(*agent);
    }
  }
  return snapshot;
}

absl::Status WatchHub::Submit(Handle_t h, Agent& agent, v1::WatchReason reason,
                              uint64_t request_id, absl::Time since,
                              uint64_t cause_version) {
  std::shared_ptr<const MapSnapshot> snapshot = registry_->Find(agent.map_id);
  if (snapshot == nullptr) return UnknownMap("path.map_id", agent.map_id);
  v1::PathRequest r = agent.request;
  r.mutable_start()->set_x(agent.position.x);
  r.mutable_start()->set_y(agent.position.y);
  auto job = std::make_shared<PathJob>();
  if (absl::Status s =
          MakeJob(r, std::move(snapshot),
                  absl::Now() + options_.max_search_time, agent.cancelled,
                  "path.", options_.max_message_bytes, job.get());
      !s.ok()) {
    return s;
  }
  const uint64_t seq = next_seq_++;
  const uint64_t progressive = agent.progressive;
  if (!search_->TrySubmit([this, h, seq, job, reason, request_id, since,
                           cause_version, progressive](SearchContext& c) {
        Run(h, seq, job, reason, request_id, since, cause_version,
            progressive, c);
      })) {
    return Overloaded(*search_);
  }
  agent.latest_seq = seq;
  agent.in_flight = true;
  ++totals_.searches[reason];
  ++totals_.searches_started;
  watch_metrics_.Replan(reason);
  return absl::OkStatus();
}

void WatchHub::SubmitPush(Handle_t h, Agent& agent, v1::WatchReason reason,
                          absl::Time since, uint64_t cause_version) {
  absl::Status s = Submit(h, agent, reason, 0, since, cause_version);
  if (s.ok() || reason == v1::WATCH_REASON_CHEAPER) return;
  // The agent's path is broken (or it has none) and no search could
  // start: say so, and keep no path (a MOVE or RETARGET asks again).
  ClearPath(h, agent);
  Answer(agent, 0, reason, s);
}

void WatchHub::Run(Handle_t h, uint64_t seq, std::shared_ptr<PathJob> job,
                   v1::WatchReason reason, uint64_t request_id,
                   absl::Time since, uint64_t cause_version,
                   uint64_t progressive, SearchContext& context) {
  v1::PathResponse response;
  if (progressive > 0) {
    PathJob first = *job;
    uint64_t& cap = first.query.budget.max_expansions;
    cap = cap == 0 ? progressive : std::min(cap, progressive);
    first.allow_partial = true;
    absl::Status s = RunJob(first, metrics_, context, &response);
    if (s.ok() && !response.partial()) {
      Installed(h, seq, reason, request_id, since, cause_version, s,
                std::move(response));
      return;
    }
    if (s.ok()) {
      std::lock_guard<std::mutex> lock(mu_);
      Agent* agent = Find(h);
      if (agent != nullptr && agent->latest_seq == seq) {
        v1::WatchEvent e;
        e.set_request_id(request_id);
        e.set_agent_id(agent->id);
        e.set_reason(reason);
        e.set_map_version(cause_version);
        *e.mutable_path() = std::move(response);
        PushTo(agent->sink, std::move(e), request_id == 0);
        Settle();
      }
    }
    response.Clear();
  }
  absl::Status s = RunJob(*job, metrics_, context, &response);
  Installed(h, seq, reason, request_id, since, cause_version, s,
            std::move(response));
}

void WatchHub::Installed(Handle_t h, uint64_t seq, v1::WatchReason reason,
                         uint64_t request_id, absl::Time since,
                         uint64_t cause_version, const absl::Status& s,
                         v1::PathResponse response) {
  std::lock_guard<std::mutex> lock(mu_);
  ++totals_.searches_done;
  Agent* agent = Find(h);
  if (agent == nullptr) return;
  if (seq != agent->latest_seq) {
    if (request_id != 0) {
      Answer(*agent, request_id, reason,
             absl::AbortedError("superseded by a newer request for this "
                                "agent, whose answer follows"));
    }
    Settle();
    return;
  }
  agent->in_flight = false;
  auto mit = maps_.find(agent->map_id);
  std::shared_ptr<const MapSnapshot> now =
      mit == maps_.end() ? nullptr : Refresh(*mit->second, agent->map_id);
  if (!s.ok()) {
    ClearPath(h, *agent);
    agent->no_path = s.code() == absl::StatusCode::kFailedPrecondition;
    Answer(*agent, request_id, reason, s);
    Settle();
    Publish();
    return;
  }
  if (reason == v1::WATCH_REASON_CHEAPER && !agent->path.empty() &&
      now != nullptr) {
    const double remaining = RemainingCost(now->map, agent->path,
                                           agent->progress, agent->policy);
    if (remaining >= 0 &&
        !(response.cost() < (1 - agent->replan_if_cheaper) * remaining)) {
      return;  // Not cheaper by enough: the agent keeps its path.
    }
  }
  SetPath(h, *agent, AgentPath(convert::UnpackCells(response.cells())),
          response.cost());
  const uint64_t searched = response.map_version();
  v1::WatchEvent e;
  e.set_request_id(request_id);
  e.set_agent_id(agent->id);
  e.set_reason(reason);
  e.set_map_version(cause_version);
  if (since != absl::InfinitePast()) {
    const double seconds = absl::ToDoubleSeconds(absl::Now() - since);
    e.set_since_update_micros(seconds * 1e6);
    watch_metrics_.PushLatency(seconds);
  }
  *e.mutable_path() = std::move(response);
  PushTo(agent->sink, std::move(e), request_id == 0);
  // Changes applied while it searched: the path must hold on the newest.
  if (now != nullptr && now->version > searched) {
    Recheck(h, *agent, *now, absl::Now());
  }
  Settle();
  Publish();
}

void WatchHub::Recheck(Handle_t h, Agent& agent, const MapSnapshot& snapshot,
                       absl::Time since) {
  if (agent.in_flight) return;
  if (agent.path.empty()) {
    if (agent.no_path) {
      SubmitPush(h, agent, v1::WATCH_REASON_REACHABLE, since,
                 snapshot.version);
    }
    return;
  }
  if (RemainingCost(snapshot.map, agent.path, agent.progress, agent.policy) <
      0) {
    SubmitPush(h, agent, v1::WATCH_REASON_BLOCKED, since, snapshot.version);
  } else if (agent.replan_if_cheaper > 0) {
    SubmitPush(h, agent, v1::WATCH_REASON_CHEAPER, since, snapshot.version);
  }
}

}  // namespace gridstar::server
