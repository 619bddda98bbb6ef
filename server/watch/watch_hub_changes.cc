// WatchHub: what changes of a map do to the agents on it.

#include <algorithm>
#include <cmath>
#include <cstdint>
#include <memory>
#include <string>
#include <vector>

#include "absl/container/flat_hash_set.h"
#include "watch/watch_hub.h"
#include "watch/watch_hub_internal.h"

namespace gridstar::server {
namespace {

double Octile(Cell a, Cell b) {
  const double dx = std::abs(a.x - b.x);
  const double dy = std::abs(a.y - b.y);
  return std::max(dx, dy) + (std::sqrt(2.0) - 1) * std::min(dx, dy);
}

Cell Clamp(Cell c, const CellChange& r) {
  return Cell{std::clamp(c.x, r.min.x, r.max.x - 1),
              std::clamp(c.y, r.min.y, r.max.y - 1)};
}

bool Inside(Cell c, const CellChange& r) {
  return c.x >= r.min.x && c.x < r.max.x && c.y >= r.min.y && c.y < r.max.y;
}

// Rectangles larger than this are not compared cell by cell with the
// version before: one that sets a passable cost counts as cheaper.
constexpr int64_t kMaxComparedCells = 4096;

uint64_t CellKey(Cell c) {
  return (static_cast<uint64_t>(static_cast<uint32_t>(c.y)) << 32) |
         static_cast<uint32_t>(c.x);
}

}  // namespace

void WatchHub::MapUpdated(const std::string& id, uint64_t version,
                          const std::vector<CellChange>& changes) {
  if (world_ != nullptr) world_->MapChanged(id, &changes);
  const absl::Time since = absl::Now();
  std::lock_guard<std::mutex> lock(mu_);
  auto mit = maps_.find(id);
  if (mit == maps_.end()) return;
  MapWatch& watch = *mit->second;
  // The change log of D* Lite repairs: consecutive versions only (a gap
  // restarts it, and planners older than it plan afresh).
  if (version > watch.logged + 1) watch.log.clear();
  if (version > watch.logged) {
    watch.log.emplace_back(version, changes);
    watch.logged = version;
    while (watch.log.size() > kChangeLog) watch.log.pop_front();
  }
  std::shared_ptr<const MapSnapshot> before = watch.last;
  std::shared_ptr<const MapSnapshot> now = Refresh(watch, id);
  if (now == nullptr) return;
  if (before != nullptr && (before->version >= now->version ||
                            before->map.width() != now->map.width() ||
                            before->map.height() != now->map.height())) {
    before = nullptr;  // Not a version before this one: compare nothing.
  }
  const GridMap& map = now->map;

  // The changes that could open a cheaper path: a cell made passable or
  // cheaper than it was.
  std::vector<CellChange> cheaper;
  bool opened = false;
  for (const CellChange& c : changes) {
    if (c.cost == 0) continue;
    const int64_t area = int64_t{c.max.x - c.min.x} * (c.max.y - c.min.y);
    if (before == nullptr || area > kMaxComparedCells) {
      cheaper.push_back(c);
      opened = true;
      continue;
    }
    bool any = false;
    for (int32_t y = c.min.y; y < c.max.y; ++y) {
      for (int32_t x = c.min.x; x < c.max.x; ++x) {
        const uint8_t old_cost = before->map.cost(Cell{x, y});
        if (old_cost == 0) opened = true;
        if (old_cost == 0 || c.cost < old_cost) any = true;
      }
    }
    if (any) cheaper.push_back(c);
  }

  // Agents listed in a changed cell's tile.
  absl::flat_hash_set<Handle_t> candidates;
  const int32_t per_row = (map.width() + kTileSide - 1) / kTileSide;
  absl::flat_hash_set<uint64_t> single_cells;
  std::vector<const CellChange*> rects;
  for (const CellChange& c : changes) {
    if (c.max.x - c.min.x == 1 && c.max.y - c.min.y == 1) {
      single_cells.insert(CellKey(c.min));
    } else {
      rects.push_back(&c);
    }
    for (int32_t ty = c.min.y / kTileSide; ty <= (c.max.y - 1) / kTileSide;
         ++ty) {
      for (int32_t tx = c.min.x / kTileSide; tx <= (c.max.x - 1) / kTileSide;
           ++tx) {
        auto it = watch.tiles.find(static_cast<uint32_t>(ty * per_row + tx));
        if (it == watch.tiles.end()) continue;
        candidates.insert(it->second.begin(), it->second.end());
      }
    }
  }
  uint64_t crossing = 0;
  for (Handle_t h : candidates) {
    Agent* agent = Find(h);
    if (agent == nullptr || agent->path.empty() || agent->in_flight ||
        agent->classed) {
      continue;
    }
    bool touches = false;
    agent->path.ForEachTouchedCell(agent->progress, [&](Cell c) {
      if (touches) return;
      if (single_cells.contains(CellKey(c))) {
        touches = true;
        return;
      }
      for (const CellChange* r : rects) {
        if (Inside(c, *r)) {
          touches = true;
          return;
        }
      }
    });
    if (!touches) continue;
    ++crossing;
    if (RemainingCost(map, agent->path, agent->progress, agent->policy) < 0) {
      // Where along the remaining path the change lies: the first cell next
      // to (or on) a changed one.
      size_t index = 0;
      size_t at = SIZE_MAX;
      agent->path.ForEachCell(agent->progress, [&](Cell c) {
        if (at == SIZE_MAX) {
          for (int dy = -1; dy <= 1 && at == SIZE_MAX; ++dy) {
            for (int dx = -1; dx <= 1; ++dx) {
              const Cell n{c.x + dx, c.y + dy};
              bool hit = single_cells.contains(CellKey(n));
              for (const CellChange* r : rects) hit = hit || Inside(n, *r);
              if (hit) {
                at = index;
                break;
              }
            }
          }
        }
        ++index;
      });
      const bool near =
          at != SIZE_MAX && static_cast<double>(at) <=
                                kDStarNearShare * static_cast<double>(index);
      SubmitPush(h, *agent, WatchReason::kBlocked, since, now->version, near);
      ++agent->blocked;
    } else if (agent->replan_if_cheaper > 0) {
      // Its path was re-priced: another may now beat it by the fraction.
      SubmitPush(h, *agent, WatchReason::kCheaper, since, now->version);
    }
  }

  // Agents of other classes: their maps change where the view's does not
  // (cells of other areas, whole squares), so each is re-checked on its
  // class's map at every update of the map.
  size_t classed = 0;
  for (Handle_t h : watch.agents) {
    Agent* agent = Find(h);
    if (agent == nullptr || !agent->classed) continue;
    ++classed;
    Recheck(h, *agent, *now, since);
  }

  if (!cheaper.empty() || opened) {
    const double min_cost = std::max<double>(1, map.min_cost());
    for (Handle_t h : watch.agents) {
      Agent* agent = Find(h);
      if (agent == nullptr || agent->in_flight || agent->classed) continue;
      if (agent->path.empty()) {
        if (opened && agent->no_path) {
          SubmitPush(h, *agent, WatchReason::kReachable, since, now->version);
        }
        continue;
      }
      if (agent->replan_if_cheaper <= 0) continue;
      // A path through a cheaper cell q costs at least min_cost times the
      // octile distance from the agent to q and on to the goal; the
      // remaining path costs at most what the whole path did.
      const Cell goal = agent->path.last();
      const double limit = (1 - agent->replan_if_cheaper) * agent->path_cost;
      for (const CellChange& c : cheaper) {
        const double bound =
            min_cost * (Octile(agent->position, Clamp(agent->position, c)) +
                        Octile(Clamp(goal, c), goal));
        if (bound < limit) {
          SubmitPush(h, *agent, WatchReason::kCheaper, since, now->version);
          break;
        }
      }
    }
  }
  totals_.checked += candidates.size() + classed;
  totals_.crossing += crossing + classed;
  watch_metrics_.Checked(candidates.size() + classed, crossing + classed);
  Settle();
  Publish();
}

void WatchHub::MapReplaced(const std::string& id) {
  if (world_ != nullptr) world_->MapChanged(id, nullptr);
  const absl::Time since = absl::Now();
  std::lock_guard<std::mutex> lock(mu_);
  auto mit = maps_.find(id);
  if (mit == maps_.end()) return;
  std::shared_ptr<const MapSnapshot> now = Refresh(*mit->second, id);
  if (now == nullptr) {
    Settle();
    return;
  }
  // Changed wholesale: planners older than this plan afresh.
  mit->second->log.clear();
  mit->second->logged = now->version;
  uint64_t crossing = 0;
  for (Handle_t h : mit->second->agents) {
    Agent* agent = Find(h);
    if (agent == nullptr) continue;
    ++crossing;
    Recheck(h, *agent, *now, since);
  }
  totals_.checked += crossing;
  totals_.crossing += crossing;
  watch_metrics_.Checked(crossing, crossing);
  Settle();
  Publish();
}

void WatchHub::MapDeleted(const std::string& id) {
  if (world_ != nullptr) world_->MapChanged(id, nullptr);
  std::lock_guard<std::mutex> lock(mu_);
  auto mit = maps_.find(id);
  if (mit == maps_.end()) return;
  const std::vector<Handle_t> handles(mit->second->agents.begin(),
                                      mit->second->agents.end());
  for (Handle_t h : handles) {
    Agent* agent = Find(h);
    if (agent == nullptr) continue;
    Answer(*agent, 0, WatchReason::kMapDeleted,
           absl::NotFoundError("path.map_id: map '" + id +
                               "' was deleted; the agent is dropped"));
    Remove(h);
  }
  Settle();
  Publish();
}

}  // namespace gridstar::server
