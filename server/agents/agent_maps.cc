#include "agents/agent_maps.h"

#include <algorithm>
#include <chrono>
#include <string>
#include <utility>

#include "gridstar/auto_choice.h"
#include "gridstar/derived_data.h"

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

DerivedOptions AgentMaps::OptionsFor(const AgentClass& agent,
                                     bool deferring) const {
  DerivedOptions options = derived_;
  options.structures.erase(std::string(kAutoChoiceName));
  for (auto& [name, request] : options.structures) {
    request.policy = AgentPolicy(request.policy, agent.size);
  }
  options.defer_slow_repairs = deferring;
  return options;
}

bool AgentMaps::Pending() const {
  std::lock_guard<std::mutex> lock(mu_);
  for (const Entry& e : entries_) {
    if (!e.pending.empty()) return true;
  }
  return false;
}

absl::Status AgentMaps::FinishPending() {
  std::vector<Entry> pending;
  {
    std::lock_guard<std::mutex> lock(mu_);
    for (const Entry& e : entries_) {
      if (!e.pending.empty()) pending.push_back(e);
    }
  }
  for (Entry& e : pending) {
    GridMap map = *e.map;  // Shares every tile and structure.
    const DerivedOptions options = OptionsFor(e.agent, /*deferring=*/false);
    for (const auto& [name, entry] : e.pending) {
      if (absl::Status s =
              FinishPendingStructure(options, name, entry, &map).status();
          !s.ok()) {
        return s;
      }
    }
    auto finished = std::make_shared<const GridMap>(std::move(map));
    std::lock_guard<std::mutex> lock(mu_);
    Entry* held = FindLocked(e.agent);
    if (held != nullptr && held->map == e.map) {
      held->map = std::move(finished);
      held->pending.clear();
    }
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
  std::vector<DerivedReport> reports;
  if (absl::Status s = BuildDerived(OptionsFor(agent, /*deferring=*/false),
                                    &*built, &reports);
      !s.ok()) {
    return s;
  }
  auto map = std::make_shared<const GridMap>(*std::move(built));
  const double micros = MicrosSince(t0);
  if (built_micros != nullptr) *built_micros = micros;
  std::lock_guard<std::mutex> lock(mu_);
  if (Entry* e = FindLocked(agent)) {  // Built meanwhile by another query.
    e->last_used = ++uses_;
    return e->map;
  }
  build_micros_ += micros;
  InsertLocked(Entry{agent, map, false, ++uses_, {}});
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
    // The structures follow the agent map as the view's follow it (HPA*
    // repaired locally, landmarks kept when nothing got cheaper, what is
    // slow deferred, ...). One that waited for FinishPending waits on, from
    // the same base.
    DerivedOptions options = OptionsFor(e.agent, /*deferring=*/true);
    std::vector<DerivedReport> reports;
    if (!RepairDerived(options, *e.map, summary, &*map, &reports,
                       PendingNames(e.pending))
             .ok()) {
      continue;
    }
    e.pending = NextPending(e.pending, *e.map, 0, summary, reports);
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
