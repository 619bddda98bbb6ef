// WorldWatch: what changes of member maps and of worlds' links do to the
// world agents (world_watch.h).

#include <algorithm>
#include <cstdint>
#include <memory>
#include <string>
#include <vector>

#include "gridstar/world.h"
#include "watch/watch_hub.h"
#include "watch/world_watch.h"
#include "watch/world_watch_internal.h"

namespace gridstar::server {
namespace {

// Rectangles larger than this are not compared cell by cell with the
// version before: one that sets a passable cost counts as cheaper.
constexpr int64_t kMaxComparedCells = 4096;

// Whether a leg's tiles (sorted) hold a cell of a changed rectangle.
bool LegTouches(const std::vector<uint32_t>& tiles, int32_t width, int32_t side,
                const std::vector<CellChange>& changes) {
  if (width <= 0) return true;
  const int32_t per_row = (width + side - 1) / side;
  for (const CellChange& c : changes) {
    for (int32_t ty = c.min.y / side; ty <= (c.max.y - 1) / side; ++ty) {
      for (int32_t tx = c.min.x / side; tx <= (c.max.x - 1) / side; ++tx) {
        if (tx >= per_row) break;
        if (std::binary_search(tiles.begin(), tiles.end(),
                               static_cast<uint32_t>(ty * per_row + tx))) {
          return true;
        }
      }
    }
  }
  return false;
}

// What a map's change did: some cell opened (was blocked), some cell got
// cheaper or opened. Without a version just before to compare with (or
// for a big rectangle), a passable cost set counts as both.
struct Opened {
  bool opened = false;
  bool cheaper = false;
};
Opened WhatOpened(const MapSnapshot* before, const MapSnapshot& now,
                  const std::vector<CellChange>* changes) {
  Opened o;
  if (changes == nullptr) return Opened{true, true};
  if (before != nullptr && (before->version >= now.version ||
                            before->map.width() != now.map.width() ||
                            before->map.height() != now.map.height())) {
    before = nullptr;
  }
  for (const CellChange& c : *changes) {
    if (c.cost == 0) continue;
    const int64_t area = int64_t{c.max.x - c.min.x} * (c.max.y - c.min.y);
    if (before == nullptr || area > kMaxComparedCells)
      return Opened{true, true};
    for (int32_t y = c.min.y; y < c.max.y; ++y) {
      for (int32_t x = c.min.x; x < c.max.x; ++x) {
        const uint8_t old_cost = before->map.cost(Cell{x, y});
        if (old_cost == 0) o.opened = true;
        if (old_cost == 0 || c.cost < old_cost) o.cheaper = true;
      }
    }
  }
  return o;
}

// Whether `now` offers what `before` did not: a link added, opened, made
// cheaper or admitting more agents, or other maps.
bool LinksOpened(const WorldSnapshot* before, const WorldSnapshot& now) {
  if (before == nullptr || before->maps != now.maps) return true;
  for (const StoredLink& link : now.links) {
    if (!link.open) continue;
    const int i = before->LinkIndex(link.id);
    if (i < 0) return true;
    const StoredLink& was = before->links[i];
    if (!was.open || link.cost < was.cost || (link.areas & ~was.areas) != 0 ||
        link.max_agent_size > was.max_agent_size ||
        (link.both_ways && !was.both_ways) || !(link.from == was.from) ||
        !(link.to == was.to) || link.from_map != was.from_map ||
        link.to_map != was.to_map) {
      return true;
    }
  }
  return false;
}

}  // namespace

double WorldWatch::Remaining(const Agent& agent, const WorldSnapshot& world,
                             std::string* broken_map,
                             uint64_t* broken_version) const {
  double total = 0;
  for (size_t k = agent.leg; k < agent.legs.size(); ++k) {
    const Agent::Leg& leg = agent.legs[k];
    std::shared_ptr<const MapSnapshot> snapshot =
        world.MapIndex(leg.map_id) < 0 ? nullptr : maps_->Find(leg.map_id);
    auto broken_leg = [&] {
      if (broken_map != nullptr) *broken_map = leg.map_id;
      if (broken_version != nullptr) {
        *broken_version = snapshot == nullptr ? 0 : snapshot->version;
      }
      return -1.0;
    };
    if (snapshot == nullptr) return broken_leg();
    const GridMap* view = &snapshot->map;
    std::shared_ptr<const GridMap> hold;
    if (agent.classed) {
      const WorldPathAsk& r = agent.request;
      absl::StatusOr<ResolvedAgent> resolved =
          ResolveAgent(*snapshot, r.areas, r.area_costs, r.agent_size, "");
      // A class that no longer resolves is checked on the view; its next
      // search answers the error.
      if (resolved.ok() && resolved->map != nullptr) {
        hold = std::move(resolved->map);
        view = hold.get();
      }
    }
    const double cost = RemainingCost(
        *view, leg.path, k == agent.leg ? agent.progress : 0, agent.policy);
    if (cost < 0) return broken_leg();
    total += cost;
    if (k + 1 == agent.legs.size()) break;
    const int l = world.LinkIndex(agent.links[k]);
    if (l < 0) return -1;
    const StoredLink& link = world.links[l];
    WorldLink use;
    use.open = link.open;
    use.areas = link.areas;
    use.max_agent_size = link.max_agent_size;
    if (!LinkAdmits(use, agent.link_agent)) return -1;
    const Agent::Leg& next = agent.legs[k + 1];
    const Cell a = leg.path.last(), b = next.path.CellAt(0);
    const bool forward = link.from_map == leg.map_id && link.from == a &&
                         link.to_map == next.map_id && link.to == b;
    const bool back = link.both_ways && link.to_map == leg.map_id &&
                      link.to == a && link.from_map == next.map_id &&
                      link.from == b;
    if (!forward && !back) return -1;
    total += link.cost;
  }
  return total;
}

void WorldWatch::MapChanged(const std::string& id,
                            const std::vector<CellChange>* changes) {
  const absl::Time since = absl::Now();
  std::lock_guard<std::mutex> lock(mu_);
  ++totals_.changes;
  auto seen = last_maps_.find(id);
  if (seen == last_maps_.end()) return;  // No agent's world holds it.
  std::shared_ptr<const MapSnapshot> before = seen->second;
  std::shared_ptr<const MapSnapshot> now = maps_->Find(id);
  if (now != nullptr && (before == nullptr || now->version > before->version ||
                         changes == nullptr)) {
    seen->second = now;
  }
  const Opened opened =
      now == nullptr ? Opened{} : WhatOpened(before.get(), *now, changes);
  const uint64_t version = now == nullptr ? 0 : now->version;
  std::vector<std::string> worlds;
  for (const auto& [world_id, handles] : by_world_) worlds.push_back(world_id);
  for (const std::string& world_id : worlds) {
    std::shared_ptr<const WorldSnapshot> world = worlds_->Find(world_id);
    if (world == nullptr || world->MapIndex(id) < 0) continue;
    for (Handle_t h : AgentsOf(world_id)) {
      Agent* agent = Find(h);
      if (agent == nullptr || agent->in_flight) continue;
      if (agent->legs.empty()) {
        if (agent->no_path && opened.opened) {
          SubmitPush(h, *agent, WatchReason::kReachable, since, id, version);
        }
        continue;
      }
      bool touched = false;
      for (size_t k = agent->leg; k < agent->legs.size() && !touched; ++k) {
        const Agent::Leg& leg = agent->legs[k];
        if (leg.map_id != id) continue;
        touched = changes == nullptr || agent->classed ||
                  (now != nullptr && leg.tiles_width != now->map.width()) ||
                  LegTouches(leg.tiles, leg.tiles_width, kTileSide, *changes);
      }
      if (touched && Remaining(*agent, *world) < 0) {
        SubmitPush(h, *agent, WatchReason::kBlocked, since, id, version);
      } else if (agent->replan_if_cheaper > 0 && (touched || opened.cheaper)) {
        SubmitPush(h, *agent, WatchReason::kCheaper, since, id, version);
      }
    }
  }
  Settle();
}

void WorldWatch::WorldChanged(const std::string& id) {
  const absl::Time since = absl::Now();
  std::lock_guard<std::mutex> lock(mu_);
  ++totals_.changes;
  const std::vector<Handle_t> handles = AgentsOf(id);
  if (handles.empty()) return;
  std::shared_ptr<const WorldSnapshot> world = worlds_->Find(id);
  if (world == nullptr) {
    for (Handle_t h : handles) {
      Agent* agent = Find(h);
      if (agent == nullptr) continue;
      Answer(*agent, 0, WatchReason::kWorldDeleted,
             absl::NotFoundError("world_path.world_id: world '" + id +
                                 "' was deleted; the agent is dropped"));
      Remove(h);
    }
    Settle();
    return;
  }
  std::shared_ptr<const WorldSnapshot>& seen = last_worlds_[id];
  const std::shared_ptr<const WorldSnapshot> before = seen;
  const bool opened = LinksOpened(before.get(), *world);
  if (before == nullptr || before->maps != world->maps) {
    for (const std::string& m : world->maps) {
      if (!last_maps_.contains(m)) last_maps_[m] = maps_->Find(m);
    }
  }
  seen = world;
  // A link of the agent's remaining path re-costed: the path is re-priced
  // (another may now beat it).
  auto recosted = [&](const Agent& agent) {
    if (before == nullptr) return true;
    for (size_t k = agent.leg; k < agent.links.size(); ++k) {
      const int was = before->LinkIndex(agent.links[k]);
      const int is = world->LinkIndex(agent.links[k]);
      if (was < 0 || is < 0 ||
          before->links[was].cost != world->links[is].cost) {
        return true;
      }
    }
    return false;
  };
  for (Handle_t h : handles) {
    Agent* agent = Find(h);
    if (agent == nullptr || agent->in_flight) continue;
    if (agent->legs.empty()) {
      if (agent->no_path && opened) {
        SubmitPush(h, *agent, WatchReason::kReachable, since, "",
                   world->version);
      }
      continue;
    }
    const double remaining = Remaining(*agent, *world);
    if (remaining < 0) {
      SubmitPush(h, *agent, WatchReason::kBlocked, since, "", world->version);
    } else if (agent->replan_if_cheaper > 0 && (opened || recosted(*agent))) {
      SubmitPush(h, *agent, WatchReason::kCheaper, since, "", world->version);
    }
  }
  Settle();
}

}  // namespace gridstar::server
