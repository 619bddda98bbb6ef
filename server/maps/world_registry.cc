#include "maps/world_registry.h"

#include <sys/resource.h>
#include <sys/syscall.h>
#include <unistd.h>

#include <algorithm>
#include <cerrno>
#include <cmath>
#include <set>
#include <utility>

#include "absl/strings/str_cat.h"
#include "maps/path_jobs.h"

namespace gridstar::server {
namespace {

std::string CellText(Cell c) { return absl::StrCat("(", c.x, ", ", c.y, ")"); }

absl::Status CheckCost(double cost, const std::string& field) {
  if (cost >= 0 && cost <= kMaxLinkCost) return absl::OkStatus();
  return absl::InvalidArgumentError(absl::StrCat(
      field, ": ", cost, " is outside [0, ", kMaxLinkCost, "] (finite)"));
}

}  // namespace

int WorldSnapshot::MapIndex(const std::string& map_id) const {
  for (size_t i = 0; i < maps.size(); ++i) {
    if (maps[i] == map_id) return static_cast<int>(i);
  }
  return -1;
}

int WorldSnapshot::LinkIndex(const std::string& link_id) const {
  for (size_t i = 0; i < links.size(); ++i) {
    if (links[i].id == link_id) return static_cast<int>(i);
  }
  return -1;
}

std::vector<Cell> WorldSnapshot::EndsOn(int m) const {
  std::vector<Cell> ends;
  for (const StoredLink& link : links) {
    if (link.from_map == maps[m]) ends.push_back(link.from);
    if (link.to_map == maps[m]) ends.push_back(link.to);
  }
  std::sort(ends.begin(), ends.end(),
            [](Cell a, Cell b) { return a.y != b.y ? a.y < b.y : a.x < b.x; });
  ends.erase(std::unique(ends.begin(), ends.end()), ends.end());
  return ends;
}

WorldRegistry::WorldRegistry(MapRegistry* maps, MapStore* store, Limits limits)
    : maps_(maps), store_(store), limits_(limits) {
  builder_ = std::thread([this] { BuildTables(); });
}

WorldRegistry::~WorldRegistry() {
  {
    std::lock_guard<std::mutex> lock(mu_);
    stopping_ = true;
  }
  work_.notify_all();
  builder_.join();
}

absl::Status WorldRegistry::LoadAll(std::vector<std::string>* errors) {
  if (store_ == nullptr) return absl::OkStatus();
  std::vector<StoredWorld> stored;
  if (absl::Status s = store_->LoadWorlds(&stored, errors); !s.ok()) return s;
  for (StoredWorld& w : stored) {
    auto snapshot = std::make_shared<WorldSnapshot>(
        WorldSnapshot{w.id, w.version, std::move(w.maps), std::move(w.links)});
    {
      std::lock_guard<std::mutex> lock(mu_);
      worlds_[snapshot->id] = snapshot;
    }
    QueueTables(*snapshot);
  }
  return absl::OkStatus();
}

absl::Status WorldRegistry::ValidateLink(const StoredWorld& world,
                                         const StoredLink& link,
                                         const std::string& field) const {
  if (absl::Status s = ValidateMapId(link.id, field + ".id"); !s.ok()) {
    return s;
  }
  for (const auto& [end_field, map_id, cell] :
       {std::make_tuple(".from", &link.from_map, link.from),
        std::make_tuple(".to", &link.to_map, link.to)}) {
    const std::string at = field + end_field;
    if (std::find(world.maps.begin(), world.maps.end(), *map_id) ==
        world.maps.end()) {
      return absl::InvalidArgumentError(
          absl::StrCat(at, ".map_id: '", map_id->substr(0, 128),
                       "' is not a map of the world (map_ids)"));
    }
    absl::StatusOr<std::shared_ptr<const MapSnapshot>> snapshot =
        maps_->FindOrLoad(*map_id);
    if (!snapshot.ok()) return snapshot.status();
    if (*snapshot == nullptr) {
      return absl::NotFoundError(
          absl::StrCat(at, ".map_id: no map '", *map_id, "'"));
    }
    const GridMap& terrain = (*snapshot)->Terrain();
    if (!terrain.Passable(cell)) {
      return absl::InvalidArgumentError(
          absl::StrCat(at, ".cell: ", CellText(cell), " is ",
                       terrain.InBounds(cell)
                           ? std::string("blocked")
                           : absl::StrCat("outside the ", terrain.width(),
                                          " x ", terrain.height(), " map"),
                       " on map '", *map_id, "'"));
    }
  }
  if (absl::Status s = CheckCost(link.cost, field + ".cost"); !s.ok()) {
    return s;
  }
  if (link.areas == 0) {
    return absl::InvalidArgumentError(
        absl::StrCat(field, ".areas: empty (the API's 0 means every area)"));
  }
  if (link.max_agent_size < 1 || link.max_agent_size > kMaxAgentSize) {
    return absl::InvalidArgumentError(
        absl::StrCat(field, ".max_agent_size: ", link.max_agent_size,
                     " is outside [1, ", kMaxAgentSize, "] (0 means any)"));
  }
  return absl::OkStatus();
}

absl::Status WorldRegistry::CheckEndsPerMap(const StoredWorld& world,
                                            absl::string_view field) const {
  const WorldSnapshot view{world.id, world.version, world.maps, world.links};
  for (size_t m = 0; m < world.maps.size(); ++m) {
    const size_t ends = view.EndsOn(static_cast<int>(m)).size();
    if (ends > limits_.max_map_link_ends) {
      return absl::ResourceExhaustedError(
          absl::StrCat(field, ": map '", world.maps[m], "' would hold ", ends,
                       " link ends, more than the limit of ",
                       limits_.max_map_link_ends, " (--max_map_link_ends)"));
    }
  }
  return absl::OkStatus();
}

absl::Status WorldRegistry::Validate(const StoredWorld& world) const {
  if (absl::Status s = ValidateMapId(world.id, "id"); !s.ok()) return s;
  if (world.maps.empty()) {
    return absl::InvalidArgumentError("map_ids: a world needs a map");
  }
  if (world.maps.size() > limits_.max_world_maps) {
    return absl::ResourceExhaustedError(absl::StrCat(
        "map_ids: ", world.maps.size(), " maps, more than the limit of ",
        limits_.max_world_maps, " (--max_world_maps)"));
  }
  if (world.links.size() > limits_.max_world_links) {
    return absl::ResourceExhaustedError(absl::StrCat(
        "links: ", world.links.size(), " links, more than the limit of ",
        limits_.max_world_links, " (--max_world_links)"));
  }
  std::set<std::string> seen;
  for (size_t i = 0; i < world.maps.size(); ++i) {
    const std::string field = absl::StrCat("map_ids[", i, "]");
    if (absl::Status s = ValidateMapId(world.maps[i], field); !s.ok()) {
      return s;
    }
    if (!seen.insert(world.maps[i]).second) {
      return absl::InvalidArgumentError(
          absl::StrCat(field, ": '", world.maps[i], "' is named twice"));
    }
    absl::StatusOr<std::shared_ptr<const MapSnapshot>> snapshot =
        maps_->FindOrLoad(world.maps[i]);
    if (!snapshot.ok()) return snapshot.status();
    if (*snapshot == nullptr) {
      return absl::NotFoundError(
          absl::StrCat(field, ": no map '", world.maps[i], "'"));
    }
  }
  seen.clear();
  for (size_t i = 0; i < world.links.size(); ++i) {
    const std::string field = absl::StrCat("links[", i, "]");
    if (absl::Status s = ValidateLink(world, world.links[i], field); !s.ok()) {
      return s;
    }
    if (!seen.insert(world.links[i].id).second) {
      return absl::InvalidArgumentError(absl::StrCat(
          field, ".id: '", world.links[i].id, "' is taken by another link"));
    }
  }
  return CheckEndsPerMap(world, "links");
}

absl::StatusOr<std::shared_ptr<const WorldSnapshot>> WorldRegistry::Install(
    StoredWorld next) {
  if (store_ != nullptr) {
    if (absl::Status s = store_->PutWorld(next); !s.ok()) return s;
  }
  auto snapshot = std::make_shared<const WorldSnapshot>(WorldSnapshot{
      next.id, next.version, std::move(next.maps), std::move(next.links)});
  std::shared_ptr<const WorldSnapshot> old;
  {
    std::lock_guard<std::mutex> lock(mu_);
    auto it = worlds_.find(snapshot->id);
    if (it != worlds_.end()) old = it->second;
    worlds_[snapshot->id] = snapshot;
  }
  // Tables hold every link end, open or closed: only maps whose ends
  // changed (a link added or removed, new maps) need theirs built again.
  for (size_t m = 0; m < snapshot->maps.size(); ++m) {
    const int was = old == nullptr ? -1 : old->MapIndex(snapshot->maps[m]);
    if (was < 0 || old->EndsOn(was) != snapshot->EndsOn(static_cast<int>(m))) {
      QueueTable(snapshot->id, snapshot->maps[m]);
    }
  }
  Changed(snapshot->id);
  return snapshot;
}

absl::StatusOr<std::shared_ptr<const WorldSnapshot>> WorldRegistry::Register(
    StoredWorld world, bool replace) {
  if (absl::Status s = Validate(world); !s.ok()) return s;
  std::lock_guard<std::mutex> write(write_mu_);
  std::shared_ptr<const WorldSnapshot> old = Find(world.id);
  if (old != nullptr) {
    if (old->maps == world.maps && old->links == world.links) return old;
    if (!replace) {
      return absl::AlreadyExistsError(absl::StrCat(
          "id: world '", world.id,
          "' exists with other maps or links (set replace to replace it)"));
    }
  } else if (world_count() >= limits_.max_worlds) {
    return absl::ResourceExhaustedError(
        absl::StrCat("id: the server holds ", limits_.max_worlds,
                     " worlds, the limit (--max_worlds)"));
  }
  world.version = old == nullptr ? 1 : old->version + 1;
  return Install(std::move(world));
}

absl::StatusOr<std::shared_ptr<const WorldSnapshot>> WorldRegistry::UpdateLinks(
    const std::string& id, const std::vector<LinkEdit>& edits,
    uint64_t expected_version) {
  std::lock_guard<std::mutex> write(write_mu_);
  std::shared_ptr<const WorldSnapshot> old = Find(id);
  if (old == nullptr) {
    return absl::NotFoundError(absl::StrCat("id: no world '", id, "'"));
  }
  if (expected_version != 0 && expected_version != old->version) {
    return absl::AbortedError(absl::StrCat(
        "expected_version: world '", id, "' is at version ", old->version,
        ", not ", expected_version, " (read it again and retry)"));
  }
  StoredWorld next = old->ToStored();
  for (size_t i = 0; i < edits.size(); ++i) {
    const LinkEdit& e = edits[i];
    const std::string field = absl::StrCat("updates[", i, "]");
    const auto at =
        std::find_if(next.links.begin(), next.links.end(),
                     [&](const StoredLink& l) { return l.id == e.link_id; });
    if (e.add.has_value()) {
      if (at != next.links.end()) {
        return absl::InvalidArgumentError(absl::StrCat(
            field, ".link_id: '", e.link_id, "' is taken by another link"));
      }
      if (e.add->id != e.link_id) {
        return absl::InvalidArgumentError(absl::StrCat(
            field, ".add.id: '", e.add->id.substr(0, 128),
            "' differs from link_id '", e.link_id.substr(0, 128), "'"));
      }
      if (next.links.size() >= limits_.max_world_links) {
        return absl::ResourceExhaustedError(
            absl::StrCat(field, ".add: the world has ", next.links.size(),
                         " links, the limit (--max_world_links)"));
      }
      if (absl::Status s = ValidateLink(next, *e.add, field + ".add");
          !s.ok()) {
        return s;
      }
      next.links.push_back(*e.add);
      continue;
    }
    if (at == next.links.end()) {
      return absl::InvalidArgumentError(
          absl::StrCat(field, ".link_id: no link '", e.link_id.substr(0, 128),
                       "' in world '", id, "'"));
    }
    if (e.remove) {
      next.links.erase(at);
      continue;
    }
    if (e.cost.has_value()) {
      if (absl::Status s = CheckCost(*e.cost, field + ".cost"); !s.ok()) {
        return s;
      }
      at->cost = *e.cost;
    }
    if (e.open.has_value()) at->open = *e.open;
  }
  if (absl::Status s = CheckEndsPerMap(next, "updates"); !s.ok()) return s;
  next.version = old->version + 1;
  return Install(std::move(next));
}

absl::Status WorldRegistry::CompactIfWanted(const std::string& id) {
  if (store_ == nullptr) return absl::OkStatus();
  std::lock_guard<std::mutex> write(write_mu_);
  std::shared_ptr<const WorldSnapshot> world = Find(id);
  if (world == nullptr) return absl::OkStatus();
  return store_->CompactWorld(world->ToStored());
}

absl::Status WorldRegistry::Delete(const std::string& id) {
  std::lock_guard<std::mutex> write(write_mu_);
  if (Find(id) == nullptr) {
    return absl::NotFoundError(absl::StrCat("id: no world '", id, "'"));
  }
  if (store_ != nullptr) {
    if (absl::Status s = store_->DeleteWorld(id); !s.ok()) return s;
  }
  {
    std::lock_guard<std::mutex> lock(mu_);
    worlds_.erase(id);
    indexes_.erase(id);
    for (auto it = tables_.begin(); it != tables_.end();) {
      it = it->first.first == id ? tables_.erase(it) : std::next(it);
    }
  }
  Changed(id);
  return absl::OkStatus();
}

void WorldRegistry::SetListener(Listener listener) {
  std::lock_guard<std::mutex> lock(listener_mu_);
  listener_ = std::move(listener);
}

void WorldRegistry::Changed(const std::string& id) {
  std::lock_guard<std::mutex> lock(listener_mu_);
  if (listener_) listener_(id);
}

absl::Status WorldRegistry::Follow(MapStoreFollower& follower,
                                   const std::string& id) {
  std::lock_guard<std::mutex> write(write_mu_);
  absl::StatusOr<StoredWorld> stored = follower.LoadWorld(id);
  if (absl::IsNotFound(stored.status())) {
    bool erased = false;
    {
      std::lock_guard<std::mutex> lock(mu_);
      erased = worlds_.erase(id) > 0;
    }
    if (erased) Changed(id);
    return absl::OkStatus();
  }
  if (!stored.ok()) return stored.status();
  auto snapshot = std::make_shared<const WorldSnapshot>(
      WorldSnapshot{stored->id, stored->version, std::move(stored->maps),
                    std::move(stored->links)});
  bool changed = true;
  {
    std::lock_guard<std::mutex> lock(mu_);
    std::shared_ptr<const WorldSnapshot>& held = worlds_[id];
    changed = held == nullptr || held->version != snapshot->version ||
              held->maps != snapshot->maps || !(held->links == snapshot->links);
    held = snapshot;
  }
  QueueTables(*snapshot);
  if (changed) Changed(id);
  return absl::OkStatus();
}

std::shared_ptr<const WorldSnapshot> WorldRegistry::Find(
    const std::string& id) const {
  std::lock_guard<std::mutex> lock(mu_);
  auto it = worlds_.find(id);
  return it == worlds_.end() ? nullptr : it->second;
}

std::vector<std::shared_ptr<const WorldSnapshot>> WorldRegistry::List() const {
  std::lock_guard<std::mutex> lock(mu_);
  std::vector<std::shared_ptr<const WorldSnapshot>> out;
  for (const auto& [id, w] : worlds_) out.push_back(w);
  return out;
}

size_t WorldRegistry::world_count() const {
  std::lock_guard<std::mutex> lock(mu_);
  return worlds_.size();
}

absl::StatusOr<PreparedWorld> WorldRegistry::Prepare(
    std::shared_ptr<const WorldSnapshot> world, int start_map, uint64_t areas,
    absl::Span<const double> area_costs, int32_t agent_size) {
  PreparedWorld p;
  const size_t n = world->maps.size();
  for (size_t m = 0; m < n; ++m) {
    absl::StatusOr<std::shared_ptr<const MapSnapshot>> snapshot =
        maps_->FindOrLoad(world->maps[m]);
    if (!snapshot.ok()) return snapshot.status();
    if (*snapshot == nullptr) {
      return absl::FailedPreconditionError(
          absl::StrCat("world '", world->id, "' names map '", world->maps[m],
                       "', which is no longer registered (register it, or "
                       "replace the world without it)"));
    }
    absl::StatusOr<ResolvedAgent> agent =
        ResolveAgent(**snapshot, areas, area_costs, agent_size, "");
    if (!agent.ok()) return agent.status();
    if (static_cast<int>(m) == start_map) {
      p.link_agent.size = agent->agent.size;
      p.link_agent.areas = agent->asked_areas;
    }
    if (agent->map != nullptr) p.default_class = false;
    p.maps.push_back(*std::move(snapshot));
    p.agent_maps.push_back(std::move(agent->map));
  }
  // The tables of the default class, where current for these versions.
  {
    std::lock_guard<std::mutex> lock(mu_);
    for (size_t m = 0; m < n; ++m) {
      std::shared_ptr<const LinkEndTable> table;
      auto it = tables_.find({world->id, world->maps[m]});
      if (p.agent_maps[m] == nullptr && it != tables_.end() &&
          it->second.table != nullptr &&
          it->second.table->BuiltFrom(p.maps[m]->map) &&
          it->second.ends == world->EndsOn(static_cast<int>(m))) {
        table = it->second.table;
      }
      p.tables.push_back(std::move(table));
    }
  }
  for (size_t m = 0; m < n; ++m) {
    const bool stale = p.agent_maps[m] == nullptr && p.tables[m] == nullptr;
    if (stale) QueueTable(world->id, world->maps[m]);
    p.views.push_back(WorldMapView{
        p.agent_maps[m] != nullptr ? p.agent_maps[m].get() : &p.maps[m]->map,
        p.tables[m].get()});
  }
  // Links whose ends lie on their maps now (a map replaced by a smaller one
  // leaves some off: they are not usable).
  for (size_t i = 0; i < world->links.size(); ++i) {
    const StoredLink& link = world->links[i];
    WorldLink w;
    w.from = WorldCell{world->MapIndex(link.from_map), link.from};
    w.to = WorldCell{world->MapIndex(link.to_map), link.to};
    if (w.from.map < 0 || w.to.map < 0 ||
        !p.views[w.from.map].map->InBounds(link.from) ||
        !p.views[w.to.map].map->InBounds(link.to)) {
      continue;
    }
    w.cost = link.cost;
    w.both_ways = link.both_ways;
    w.open = link.open;
    w.areas = link.areas;
    w.max_agent_size = link.max_agent_size;
    p.links.push_back(w);
    p.link_ids.push_back(static_cast<int>(i));
  }
  p.world = std::move(world);
  return p;
}

absl::StatusOr<std::shared_ptr<const WorldIndex>> WorldRegistry::IndexFor(
    const PreparedWorld& p, const AgentClass& agent, DiagonalPolicy policy) {
  const bool kept = p.default_class &&
                    std::all_of(p.tables.begin(), p.tables.end(),
                                [](const auto& t) { return t != nullptr; });
  if (!kept) {
    return WorldIndex::Build(p.views, p.links, agent, policy, false);
  }
  {
    std::lock_guard<std::mutex> lock(mu_);
    auto it = indexes_.find(p.world->id);
    if (it != indexes_.end() && it->second.world_version == p.world->version &&
        it->second.policy == policy && it->second.agent == agent &&
        it->second.index->BuiltFrom(p.views)) {
      return it->second.index;
    }
  }
  absl::StatusOr<std::shared_ptr<const WorldIndex>> index =
      WorldIndex::Build(p.views, p.links, agent, policy, true);
  if (!index.ok()) return index.status();
  std::lock_guard<std::mutex> lock(mu_);
  if (worlds_.count(p.world->id) != 0) {
    indexes_[p.world->id] =
        IndexEntry{p.world->version, policy, agent, *index, p.tables};
  }
  return index;
}

std::vector<WorldRegistry::TableState> WorldRegistry::Tables(
    const WorldSnapshot& world) {
  std::vector<TableState> out(world.maps.size());
  for (size_t m = 0; m < world.maps.size(); ++m) {
    std::shared_ptr<const MapSnapshot> snapshot = maps_->Find(world.maps[m]);
    std::lock_guard<std::mutex> lock(mu_);
    auto it = tables_.find({world.id, world.maps[m]});
    if (it == tables_.end() || it->second.table == nullptr) continue;
    out[m].map_version = it->second.map_version;
    out[m].bytes = it->second.table->MemoryBytes();
    out[m].current = snapshot != nullptr &&
                     it->second.table->BuiltFrom(snapshot->map) &&
                     it->second.ends == world.EndsOn(static_cast<int>(m));
  }
  return out;
}

void WorldRegistry::QueueTables(const WorldSnapshot& world) {
  for (const std::string& map : world.maps) QueueTable(world.id, map);
}

void WorldRegistry::QueueTable(const std::string& world,
                               const std::string& map) {
  {
    std::lock_guard<std::mutex> lock(mu_);
    if (!queued_.insert({world, map}).second) return;
    queue_.push_back({world, map});
  }
  work_.notify_one();
}

void WorldRegistry::WaitForTables() {
  std::unique_lock<std::mutex> lock(mu_);
  idle_.wait(lock, [this] { return queue_.empty() && !building_; });
}

void WorldRegistry::BuildTables() {
  // Beside the searches (which tables speed up, never change): the same
  // nice level as the search workers, below updates and the RPC threads.
  // Best effort, per thread on Linux.
  const id_t tid = static_cast<id_t>(::syscall(SYS_gettid));
  errno = 0;
  const int base = ::getpriority(PRIO_PROCESS, tid);
  if (errno == 0)
    (void)::setpriority(PRIO_PROCESS, tid, std::min(19, base + kBuilderNice));
  std::unique_lock<std::mutex> lock(mu_);
  for (;;) {
    work_.wait(lock, [this] { return stopping_ || !queue_.empty(); });
    if (stopping_) return;
    const TableKey key = queue_.front();
    queue_.pop_front();
    queued_.erase(key);
    building_ = true;
    auto wit = worlds_.find(key.first);
    std::shared_ptr<const WorldSnapshot> world =
        wit == worlds_.end() ? nullptr : wit->second;
    lock.unlock();
    std::shared_ptr<const MapSnapshot> map =
        world == nullptr ? nullptr : maps_->Find(key.second);
    const int m = world == nullptr ? -1 : world->MapIndex(key.second);
    TableEntry entry;
    bool build = map != nullptr && m >= 0;
    if (build) {
      entry.map_version = map->version;
      entry.ends = world->EndsOn(m);
      lock.lock();
      auto it = tables_.find(key);
      // Current already (queued twice across a write that kept it).
      build = it == tables_.end() || it->second.table == nullptr ||
              !it->second.table->BuiltFrom(map->map) ||
              it->second.ends != entry.ends;
      lock.unlock();
    }
    if (build) {
      entry.table = LinkEndTable::Build(map->map, map->options.default_diagonal,
                                        entry.ends);
    }
    lock.lock();
    if (build) {
      // Installed unless the world went meanwhile.
      if (worlds_.count(key.first) != 0) tables_[key] = std::move(entry);
    }
    building_ = false;
    if (queue_.empty()) idle_.notify_all();
  }
}

}  // namespace gridstar::server
