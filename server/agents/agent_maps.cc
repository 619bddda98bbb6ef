#include "agents/agent_maps.h"

#include <algorithm>
#include <chrono>
#include <utility>

#include "gridstar/structures.h"

namespace gridstar::server {
namespace {

double MicrosSince(std::chrono::steady_clock::time_point t0) {
  return std::chrono::duration<double, std::micro>(
             std::chrono::steady_clock::now() - t0)
      .count();
}

}  // namespace

AgentMaps::Entry* AgentMaps::FindLocked(const AgentClass& agent) {
  for (Entry& e : entries_) {
    if (e.agent == agent) return &e;
  }
  return nullptr;
}

void AgentMaps::InsertLocked(Entry entry) {
  entries_.push_back(std::move(entry));
  size_t unpinned = 0;
  for (const Entry& e : entries_) unpinned += e.pinned ? 0 : 1;
  while (unpinned > max_classes_) {
    auto oldest = entries_.end();
    for (auto it = entries_.begin(); it != entries_.end(); ++it) {
      if (!it->pinned &&
          (oldest == entries_.end() || it->last_used < oldest->last_used)) {
        oldest = it;
      }
    }
    entries_.erase(oldest);
    --unpinned;
  }
}

absl::Status AgentMaps::AddLandmarks(const AgentClass& agent,
                                     GridMap* map) const {
  if (!WantsLandmarks(*map)) return absl::OkStatus();
  return BuildLandmarks(map, derived_.landmarks,
                        AgentPolicy(derived_.landmark_policy, agent.size));
}

absl::Status AgentMaps::AddDerived(const AgentClass& agent,
                                   GridMap* map) const {
  if (derived_.jump_table && map->uniform_cost()) {
    if (absl::Status s = BuildJumpTable(map); !s.ok()) return s;
  }
  return AddLandmarks(agent, map);
}

bool AgentMaps::LandmarksPending() const {
  std::lock_guard<std::mutex> lock(mu_);
  for (const Entry& e : entries_) {
    if (WantsLandmarks(*e.map)) return true;
  }
  return false;
}

absl::Status AgentMaps::RebuildLandmarks() {
  std::vector<Entry> pending;
  {
    std::lock_guard<std::mutex> lock(mu_);
    for (const Entry& e : entries_) {
      if (WantsLandmarks(*e.map)) pending.push_back(e);
    }
  }
  for (Entry& e : pending) {
    GridMap map = *e.map;  // Shares every tile and the jump table.
    if (absl::Status s = AddLandmarks(e.agent, &map); !s.ok()) return s;
    auto built = std::make_shared<const GridMap>(std::move(map));
    std::lock_guard<std::mutex> lock(mu_);
    Entry* held = FindLocked(e.agent);
    if (held != nullptr && held->map == e.map) held->map = std::move(built);
  }
  return absl::OkStatus();
}

absl::StatusOr<std::shared_ptr<const GridMap>> AgentMaps::Get(
    const AgentClass& agent, const GridMap& terrain,
    absl::Span<const uint8_t> areas, double* built_micros) {
  if (built_micros != nullptr) *built_micros = 0;
  {
    std::lock_guard<std::mutex> lock(mu_);
    if (Entry* e = FindLocked(agent)) {
      e->last_used = ++uses_;
      return e->map;
    }
  }
  const auto t0 = std::chrono::steady_clock::now();
  absl::StatusOr<GridMap> built = BuildAgentMap(terrain, areas, agent);
  if (!built.ok()) return built.status();
  if (absl::Status s = AddDerived(agent, &*built); !s.ok()) return s;
  auto map = std::make_shared<const GridMap>(*std::move(built));
  const double micros = MicrosSince(t0);
  if (built_micros != nullptr) *built_micros = micros;
  std::lock_guard<std::mutex> lock(mu_);
  if (Entry* e = FindLocked(agent)) {  // Built meanwhile by another query.
    e->last_used = ++uses_;
    return e->map;
  }
  build_micros_ += micros;
  InsertLocked(Entry{agent, map, false, ++uses_});
  return map;
}

absl::Status AgentMaps::Pin(const AgentClass& agent, const GridMap& terrain,
                            absl::Span<const uint8_t> areas) {
  absl::StatusOr<std::shared_ptr<const GridMap>> map = Get(agent, terrain, areas);
  if (!map.ok()) return map.status();
  std::lock_guard<std::mutex> lock(mu_);
  if (Entry* e = FindLocked(agent)) e->pinned = true;
  return absl::OkStatus();
}

void AgentMaps::RepairInto(const GridMap& terrain,
                           absl::Span<const uint8_t> areas,
                           absl::Span<const CellRect> rects,
                           AgentMaps* next) const {
  std::vector<Entry> held;
  uint64_t uses = 0;
  {
    std::lock_guard<std::mutex> lock(mu_);
    held = entries_;
    uses = uses_;
  }
  const auto t0 = std::chrono::steady_clock::now();
  std::vector<Entry> repaired;
  for (Entry& e : held) {
    ChangeSummary summary;
    absl::StatusOr<GridMap> map =
        RepairAgentMap(*e.map, terrain, areas, e.agent, rects, &summary);
    if (!map.ok()) continue;
    // The table follows the agent map: repaired from the one before when
    // there was one, built when the map just became uniform.
    if (derived_.jump_table && map->uniform_cost()) {
      const absl::Status s = HasJumpTable(*e.map)
                                 ? RepairJumpTable(*e.map, summary.rects, &*map)
                                 : BuildJumpTable(&*map);
      if (!s.ok()) continue;
    }
    // Landmark distances stay lower bounds when nothing got cheaper.
    if (LandmarkCount(*e.map) > 0 && summary.only_raised) {
      ShareLandmarks(*e.map, &*map);
    }
    e.map = std::make_shared<const GridMap>(*std::move(map));
    repaired.push_back(std::move(e));
  }
  const double micros = MicrosSince(t0);
  std::lock_guard<std::mutex> lock(next->mu_);
  next->entries_ = std::move(repaired);
  next->uses_ = uses;
  next->build_micros_ = micros;
}

size_t AgentMaps::count() const {
  std::lock_guard<std::mutex> lock(mu_);
  return entries_.size();
}

size_t AgentMaps::bytes() const {
  std::lock_guard<std::mutex> lock(mu_);
  size_t sum = 0;
  for (const Entry& e : entries_) sum += e.map->MemoryBytes();
  return sum;
}

double AgentMaps::build_micros() const {
  std::lock_guard<std::mutex> lock(mu_);
  return build_micros_;
}

}  // namespace gridstar::server
