#include "watch/watch_hub.h"

#include <algorithm>
#include <cmath>
#include <utility>

#include "absl/strings/str_cat.h"
#include "watch/watch_hub_internal.h"

namespace gridstar::server {

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

void WatchHub::PushTo(const std::shared_ptr<WatchSink>& sink, WatchEvent event,
                      bool coalesce) {
  if (!sink->Push(std::move(event), coalesce)) dead_sinks_.push_back(sink.get());
}

void WatchHub::Answer(Agent& agent, uint64_t request_id, WatchReason reason,
                      const absl::Status& s) {
  WatchEvent e;
  e.request_id = request_id;
  e.agent_id = agent.id;
  e.reason = reason;
  e.status = s;
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
  const size_t bytes = sizeof(Agent) + agent.request.map_id.capacity() +
                       agent.request.area_costs.capacity() * sizeof(double) +
                       agent.path.memory_bytes() +
                       agent.tiles.capacity() * sizeof(uint32_t) +
                       // The index's entries and the hash slots naming it.
                       agent.tiles.size() * sizeof(Handle_t) +
                       3 * (sizeof(Handle_t) + sizeof(void*));
  memory_bytes_ = memory_bytes_ + bytes - agent.bytes;
  agent.bytes = bytes;
}

void WatchHub::Publish() {
  watch_metrics_.SetState(agents_.size(), streams_.size(), memory_bytes_,
                          dstar_bytes_);
}

WatchHub::Stats WatchHub::stats() const {
  Stats s;
  {
    std::lock_guard<std::mutex> lock(mu_);
    s = totals_;
    s.agents = agents_.size();
    s.streams = streams_.size();
    s.memory_bytes = memory_bytes_;
    s.dstar_bytes = dstar_bytes_;
  }
  if (world_ != nullptr) {
    const WorldWatch::Stats w = world_->stats();
    s.world_agents = w.agents;
    s.world_memory_bytes = w.memory_bytes;
    s.world_changes = w.changes;
    for (int i = 0; i < kWatchReasons; ++i) s.searches[i] += w.searches[i];
    s.searches_started += w.searches_started;
    s.searches_done += w.searches_done;
  }
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
  DropPlanner(*agent);
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
  {
    std::lock_guard<std::mutex> lock(mu_);
    DropStreamLocked(sink);
    Settle();
    Publish();
  }
  if (world_ != nullptr) world_->DropStream(sink);
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

absl::Status WatchHub::Submit(Handle_t h, Agent& agent, WatchReason reason,
                              uint64_t request_id, absl::Time since,
                              uint64_t cause_version, bool near_change) {
  std::shared_ptr<const MapSnapshot> snapshot = registry_->Find(agent.map_id);
  if (snapshot == nullptr) return UnknownMap("path.map_id", agent.map_id);
  PathAsk r = agent.request;
  r.query.start = agent.position;
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
  std::shared_ptr<Repair> repair =
      near_change ? PlanRepair(agent, *job) : nullptr;
  if (!search_->TrySubmit([this, h, seq, job, reason, request_id, since,
                           cause_version, progressive,
                           repair](SearchContext& c) {
        Run(h, seq, job, reason, request_id, since, cause_version,
            progressive, repair, c);
      })) {
    return Overloaded(*search_);  // A planner lent is dropped with it.
  }
  agent.latest_seq = seq;
  agent.in_flight = true;
  ++totals_.searches[static_cast<int>(reason)];
  ++totals_.searches_started;
  watch_metrics_.Replan(reason);
  return absl::OkStatus();
}

void WatchHub::DropPlanner(Agent& agent) {
  dstar_bytes_ -= agent.planner_bytes;
  memory_bytes_ -= agent.planner_bytes;
  agent.planner_bytes = 0;
  agent.planner.reset();
}

std::shared_ptr<WatchHub::Repair> WatchHub::PlanRepair(Agent& agent,
                                                       const PathJob& job) {
  if (options_.dstar_budget_bytes == 0 || agent.classed) return nullptr;
  const PathAsk& r = agent.request;
  if (r.query.smooth || r.query.snap_radius != 0 ||
      r.query.budget.max_expansions != 0 || r.allow_partial ||
      !IsOptimal(job.query.algorithm)) {
    return nullptr;
  }
  if (agent.blocked < kDStarAfterBlocks || agent.path.empty() ||
      agent.path.cell_count() - agent.progress < kDStarMinCells) {
    return nullptr;
  }
  if (agent.repair_micros > 0 && agent.fresh_micros > 0 &&
      agent.repair_micros > agent.fresh_micros) {
    return nullptr;  // Measured slower for this agent.
  }
  auto mit = maps_.find(agent.map_id);
  if (mit == maps_.end()) return nullptr;
  const MapWatch& watch = *mit->second;
  const uint64_t version = job.snapshot->version;
  if (version != watch.logged) return nullptr;  // Changes not all known.
  auto repair = std::make_shared<Repair>();
  repair->position = agent.position;
  const Cell goal = job.query.goal;
  if (agent.planner != nullptr && agent.planner->goal() == goal) {
    const uint64_t seen = agent.planner_version;
    const bool covered =
        seen == version ||
        (seen < version && !watch.log.empty() &&
         watch.log.front().first <= seen + 1);
    if (covered) {
      for (const auto& [v, changes] : watch.log) {
        if (v <= seen || v > version) continue;
        repair->changes.insert(repair->changes.end(), changes.begin(),
                               changes.end());
      }
      repair->planner = agent.planner;
    }
  }
  DropPlanner(agent);  // Lent (or stale): counted again when it returns.
  if (repair->planner == nullptr) {
    if (dstar_bytes_ >= options_.dstar_budget_bytes) return nullptr;
    // About 48 bytes a node record: the planner stops (and the search
    // runs afresh) before it would pass what is left of the budget.
    const size_t nodes =
        std::max<size_t>(1024, (options_.dstar_budget_bytes - dstar_bytes_) / 48);
    repair->planner = std::make_shared<DStarLite>(
        agent.position, goal,
        DStarLite::Options{agent.policy, std::min<size_t>(nodes, 1 << 22)});
    repair->build = true;
  }
  return repair;
}

void WatchHub::SubmitPush(Handle_t h, Agent& agent, WatchReason reason,
                          absl::Time since, uint64_t cause_version,
                          bool near_change) {
  absl::Status s =
      Submit(h, agent, reason, 0, since, cause_version, near_change);
  if (s.ok() || reason == WatchReason::kCheaper) return;
  // The agent's path is broken (or it has none) and no search could
  // start: say so, and keep no path (a MOVE or RETARGET asks again).
  ClearPath(h, agent);
  Answer(agent, 0, reason, s);
}

void WatchHub::Run(Handle_t h, uint64_t seq, std::shared_ptr<PathJob> job,
                   WatchReason reason, uint64_t request_id, absl::Time since,
                   uint64_t cause_version, uint64_t progressive,
                   std::shared_ptr<Repair> repair, SearchContext& context) {
  PathAnswer answer;
  Ran ran;
  if (repair != nullptr && !repair->build) {
    const absl::Time begin = absl::Now();
    repair->planner->MoveStart(repair->position);
    PathResult& r = answer.result;
    absl::Status s =
        repair->planner->Plan(job->snapshot->map, repair->changes, &r);
    repair->changes.clear();
    if (s.code() != absl::StatusCode::kResourceExhausted) {
      ran.repair = std::move(repair);
      ran.repaired = true;
      ran.micros = absl::ToDoubleMicroseconds(absl::Now() - begin);
      AnswerFacts& facts = answer.facts;
      facts.searched = true;
      facts.map_version = job->snapshot->version;
      facts.search_micros = ran.micros;
      facts.queue_micros = absl::ToDoubleMicroseconds(begin - job->enqueued);
      if (!s.ok()) s = SearchStatus(s, *job->snapshot);
      Installed(h, seq, reason, request_id, since, cause_version, s,
                std::move(answer), std::move(ran));
      return;
    }
    // Past its node limit: the planner is gone; a fresh search answers.
  }
  if (progressive > 0) {
    PathJob first = *job;
    uint64_t& cap = first.query.budget.max_expansions;
    cap = cap == 0 ? progressive : std::min(cap, progressive);
    first.allow_partial = true;
    absl::Status s = RunJob(first, metrics_, context, &answer);
    if (s.ok() && !answer.result.partial) {
      Installed(h, seq, reason, request_id, since, cause_version, s,
                std::move(answer), Ran{});
      return;
    }
    if (s.ok()) {
      std::lock_guard<std::mutex> lock(mu_);
      Agent* agent = Find(h);
      if (agent != nullptr && agent->latest_seq == seq) {
        WatchEvent e;
        e.request_id = request_id;
        e.agent_id = agent->id;
        e.reason = reason;
        e.map_version = cause_version;
        e.path = std::move(answer);
        PushTo(agent->sink, std::move(e), request_id == 0);
        Settle();
      }
    }
    answer = PathAnswer{};
  }
  const absl::Time begin = absl::Now();
  absl::Status s = RunJob(*job, metrics_, context, &answer);
  ran.micros = absl::ToDoubleMicroseconds(absl::Now() - begin);
  const bool build = repair != nullptr && repair->build;
  ran.done = !build;
  Installed(h, seq, reason, request_id, since, cause_version, s,
            std::move(answer), std::move(ran));
  if (!build) return;
  // The answer is out: now the planner's first plan, for the next time.
  repair->planner->MoveStart(repair->position);
  PathResult first;
  if (!s.ok() || !repair->planner->Plan(job->snapshot->map, {}, &first).ok()) {
    repair->planner = nullptr;
  }
  AdoptPlanner(h, std::move(repair->planner), job->snapshot->version);
}

void WatchHub::AdoptPlanner(Handle_t h, std::shared_ptr<DStarLite> planner,
                            uint64_t version) {
  std::lock_guard<std::mutex> lock(mu_);
  ++totals_.searches_done;  // The search this planner was built after.
  Agent* agent = Find(h);
  if (planner == nullptr || agent == nullptr || agent->planner != nullptr ||
      !(agent->request.query.goal == planner->goal())) {
    return;
  }
  agent->planner = std::move(planner);
  agent->planner_version = version;
  agent->planner_bytes = agent->planner->memory_bytes();
  dstar_bytes_ += agent->planner_bytes;
  memory_bytes_ += agent->planner_bytes;
  if (dstar_bytes_ > options_.dstar_budget_bytes) DropPlanner(*agent);
  Publish();
}

void WatchHub::Installed(Handle_t h, uint64_t seq, WatchReason reason,
                         uint64_t request_id, absl::Time since,
                         uint64_t cause_version, const absl::Status& s,
                         PathAnswer answer, Ran ran) {
  std::lock_guard<std::mutex> lock(mu_);
  if (ran.done) ++totals_.searches_done;
  Agent* agent = Find(h);
  if (agent == nullptr) return;
  if (seq == agent->latest_seq && reason != WatchReason::kAdded &&
      reason != WatchReason::kRetargeted && ran.micros > 0) {
    // Running means of the agent's replans, by kind (the choice above).
    double& mean = ran.repaired ? agent->repair_micros : agent->fresh_micros;
    mean = mean == 0 ? ran.micros : 0.7 * mean + 0.3 * ran.micros;
  }
  if (ran.repair != nullptr && seq == agent->latest_seq &&
      agent->planner == nullptr && s.ok()) {
    // The planner comes back, counted against the budget.
    agent->planner = std::move(ran.repair->planner);
    agent->planner_version = answer.facts.map_version;
    agent->planner_bytes = agent->planner->memory_bytes();
    dstar_bytes_ += agent->planner_bytes;
    memory_bytes_ += agent->planner_bytes;
    if (dstar_bytes_ > options_.dstar_budget_bytes) DropPlanner(*agent);
  }
  if (ran.repaired && s.ok() && seq == agent->latest_seq) {
    ++totals_.incremental;
    watch_metrics_.Repaired();
  }
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
  if (reason == WatchReason::kCheaper && !agent->path.empty() &&
      now != nullptr) {
    std::shared_ptr<const GridMap> hold;
    const double remaining = RemainingCost(MapOf(*agent, *now, &hold),
                                           agent->path, agent->progress,
                                           agent->policy);
    if (remaining >= 0 &&
        !(answer.result.cost < (1 - agent->replan_if_cheaper) * remaining)) {
      return;  // Not cheaper by enough: the agent keeps its path.
    }
  }
  SetPath(h, *agent, AgentPath(answer.result.cells), answer.result.cost);
  const uint64_t searched = answer.facts.map_version;
  WatchEvent e;
  e.request_id = request_id;
  e.agent_id = agent->id;
  e.reason = reason;
  e.map_version = cause_version;
  e.incremental = ran.repaired;
  if (since != absl::InfinitePast()) {
    const double seconds = absl::ToDoubleSeconds(absl::Now() - since);
    e.since_update_micros = seconds * 1e6;
    watch_metrics_.PushLatency(seconds);
  }
  e.path = std::move(answer);
  PushTo(agent->sink, std::move(e), request_id == 0);
  // Changes applied while it searched: the path must hold on the newest.
  if (now != nullptr && now->version > searched) {
    Recheck(h, *agent, *now, absl::Now());
  }
  Settle();
  Publish();
}

const GridMap& WatchHub::MapOf(const Agent& agent, const MapSnapshot& snapshot,
                              std::shared_ptr<const GridMap>* hold) const {
  if (!agent.classed) return snapshot.map;
  const PathAsk& r = agent.request;
  absl::StatusOr<ResolvedAgent> resolved =
      ResolveAgent(snapshot, r.areas, r.area_costs, r.agent_size, "path.");
  // A class that no longer resolves (a multiplier now overflows) is
  // checked on the view; its next search answers the error.
  if (!resolved.ok() || resolved->map == nullptr) return snapshot.map;
  *hold = std::move(resolved->map);
  return **hold;
}

void WatchHub::Recheck(Handle_t h, Agent& agent, const MapSnapshot& snapshot,
                       absl::Time since) {
  if (agent.in_flight) return;
  if (agent.path.empty()) {
    if (agent.no_path) {
      SubmitPush(h, agent, WatchReason::kReachable, since, snapshot.version);
    }
    return;
  }
  std::shared_ptr<const GridMap> hold;
  if (RemainingCost(MapOf(agent, snapshot, &hold), agent.path, agent.progress,
                    agent.policy) < 0) {
    SubmitPush(h, agent, WatchReason::kBlocked, since, snapshot.version);
  } else if (agent.replan_if_cheaper > 0) {
    SubmitPush(h, agent, WatchReason::kCheaper, since, snapshot.version);
  }
}

std::vector<WatchHub::AgentView> WatchHub::AgentsOn(const std::string& map_id,
                                                    size_t max,
                                                    size_t max_cells) const {
  std::vector<AgentView> out;
  std::lock_guard<std::mutex> lock(mu_);
  auto watch = maps_.find(map_id);
  if (watch == maps_.end()) return out;
  for (Handle_t h : watch->second->agents) {
    auto it = agents_.find(h);
    if (it == agents_.end()) continue;
    const Agent& a = *it->second;
    AgentView v;
    v.agent_id = a.id;
    v.position = a.position;
    v.goal = a.request.query.goal;
    for (size_t i = a.progress;
         i < a.path.cell_count() && v.remaining.size() < max_cells; ++i) {
      v.remaining.push_back(a.path.CellAt(i));
    }
    v.path_cost = a.path_cost;
    v.no_path = a.no_path;
    v.searching = a.in_flight;
    v.blocked = a.blocked;
    out.push_back(std::move(v));
  }
  std::sort(out.begin(), out.end(), [](const AgentView& x, const AgentView& y) {
    return x.agent_id < y.agent_id;
  });
  if (out.size() > max) out.resize(max);
  return out;
}

}  // namespace gridstar::server
