#include "maps/map_registry.h"

#include <algorithm>
#include <chrono>
#include <utility>

#include "absl/cleanup/cleanup.h"
#include "absl/strings/str_cat.h"
#include "agents/map_view.h"
#include "gridstar/auto_choice.h"
#include "maps/map_registry_internal.h"

namespace gridstar::server {

double MapSnapshot::BuildMicros(absl::string_view structure) const {
  for (const DerivedReport& r : derived) {
    if (r.name == structure) return r.micros;
  }
  return 0;
}

AgentClass MapSnapshot::DefaultClass() const {
  return DefaultClassOf(options.default_areas, areas_present());
}

absl::StatusOr<std::shared_ptr<const GridMap>> MapSnapshot::AgentMapFor(
    const AgentClass& agent, double* built_micros) const {
  if (built_micros != nullptr) *built_micros = 0;
  const AgentClass canonical = CanonicalAgentClass(agent, areas_present());
  if (canonical == DefaultClass()) return std::shared_ptr<const GridMap>();
  return agent_maps->Get(canonical, Terrain(), AreaSpan(), built_micros);
}

size_t MapSnapshot::MemoryBytes() const {
  size_t bytes = map.MemoryBytes() + agent_maps->bytes();
  if (terrain != nullptr) bytes += terrain->MemoryBytes();
  if (areas != nullptr) bytes += areas->capacity();
  return bytes;
}

StoredMap MapSnapshot::ToStored() const {
  StoredMap s;
  s.id = id;
  s.version = version;
  s.options = options;
  s.width = map.width();
  s.height = map.height();
  s.costs = Terrain().CopyCosts();
  if (areas != nullptr) s.areas = *areas;
  return s;
}

absl::Status ValidateMapId(absl::string_view id, absl::string_view field) {
  if (id.empty() || id.size() > 128) {
    return absl::InvalidArgumentError(
        absl::StrCat(field, ": must be 1 to 128 characters, got ", id.size()));
  }
  for (char c : id) {
    const bool ok = (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') ||
                    (c >= '0' && c <= '9') || c == '_' || c == '.' || c == '-';
    if (!ok) {
      return absl::InvalidArgumentError(
          absl::StrCat(field, ": only [A-Za-z0-9_.-] are allowed"));
    }
  }
  return absl::OkStatus();
}

MapRegistry::MapRegistry(std::unique_ptr<MapStore> store, Limits limits)
    : store_(std::move(store)), limits_(limits) {}

absl::Status MapRegistry::LoadAll(std::vector<std::string>* errors) {
  if (store_ == nullptr) return absl::OkStatus();
  std::vector<StoredMap> stored;
  if (absl::Status s = store_->LoadAll(&stored, errors); !s.ok()) return s;
  for (StoredMap& m : stored) {
    if (loader_ != nullptr &&
        total_cells() + int64_t{m.width} * m.height > limits_.max_total_cells) {
      continue;  // Loaded on first use.
    }
    absl::StatusOr<std::shared_ptr<MapSnapshot>> next = SnapshotOfStored(m);
    if (!next.ok()) {
      errors->push_back(
          absl::StrCat("map '", m.id, "': ", next.status().message()));
      continue;
    }
    Swap(m.id, *std::move(next));
  }
  return absl::OkStatus();
}

absl::StatusOr<std::shared_ptr<MapSnapshot>> MapRegistry::SnapshotOfStored(
    const StoredMap& m) const {
  if (absl::Status s = ValidateMapId(m.id, "id"); !s.ok()) return s;
  // The stored size is valid whatever limits it was registered under.
  MapLimits same_size;
  same_size.max_width = m.width;
  same_size.max_height = m.height;
  same_size.max_cells = int64_t{m.width} * m.height;
  absl::StatusOr<GridMap> map =
      GridMap::FromCosts(m.width, m.height, m.costs, same_size);
  if (!map.ok()) return map.status();
  if (absl::Status s = ValidateAreas(m.width, m.height, m.areas, "areas");
      !s.ok()) {
    return s;
  }
  return NewSnapshot(m.id, m.version, m.options, *std::move(map), m.areas);
}

absl::StatusOr<std::shared_ptr<MapSnapshot>> MapRegistry::NewSnapshot(
    const std::string& id, uint64_t version, const MapOptions& options,
    GridMap terrain, std::vector<uint8_t> areas) const {
  absl::StatusOr<MapView> view =
      ViewOf(std::move(terrain), std::move(areas), options.default_areas);
  if (!view.ok()) return view.status();
  auto next = std::make_shared<MapSnapshot>(id, version, options,
                                            std::move(*view->view));
  next->terrain = std::move(view->terrain);
  next->areas = std::move(view->areas);
  next->agent_maps = std::make_shared<AgentMaps>(limits_.max_agent_maps,
                                                 next->options.derived());
  DerivedOptions derived = options.derived();
  if (limits_.auto_measure_queries > 0) {
    derived.Ask(kAutoChoiceName);
    derived.auto_measure.policy = options.default_diagonal;
    derived.auto_measure.queries = std::min(limits_.auto_measure_queries, 1000);
    derived.auto_measure.max_micros = limits_.auto_measure_micros;
  }
  if (absl::Status s = BuildDerived(derived, &next->map, &next->derived);
      !s.ok()) {
    return s;
  }
  if (absl::Status s = PinDefaultSizes(*next); !s.ok()) return s;
  return next;
}

absl::Status MapRegistry::PinDefaultSizes(const MapSnapshot& snapshot) {
  for (int size = 2; size <= snapshot.options.max_agent_size; ++size) {
    AgentClass agent = snapshot.DefaultClass();
    agent.size = size;
    if (absl::Status s = snapshot.agent_maps->Pin(agent, snapshot.Terrain(),
                                                  snapshot.AreaSpan());
        !s.ok()) {
      return s;
    }
  }
  return absl::OkStatus();
}

void MapRegistry::Swap(const std::string& id,
                       std::shared_ptr<const MapSnapshot> next) {
  std::shared_ptr<const MapSnapshot> old;  // Freed outside the lock.
  std::lock_guard<std::mutex> lock(mu_);
  auto& slot = maps_[id];
  old = std::move(slot);
  slot = std::move(next);
}

absl::Status MapRegistry::Reserve(bool new_id, int64_t old_cells,
                                  int64_t cells) {
  std::lock_guard<std::mutex> lock(mu_);
  if (new_id && maps_.size() + reserved_maps_ >= limits_.max_maps) {
    return absl::ResourceExhaustedError(absl::StrCat(
        "the server holds its maximum of ", limits_.max_maps, " maps"));
  }
  if (TotalCellsLocked() + reserved_cells_ - old_cells + cells >
      limits_.max_total_cells) {
    return absl::ResourceExhaustedError(absl::StrCat(
        "registering ", cells, " cells would exceed the server's ",
        limits_.max_total_cells, " cells of maps (--max_total_cells)"));
  }
  reserved_cells_ += cells - old_cells;
  if (new_id) ++reserved_maps_;
  return absl::OkStatus();
}

void MapRegistry::Unreserve(bool new_id, int64_t old_cells, int64_t cells) {
  std::lock_guard<std::mutex> lock(mu_);
  reserved_cells_ -= cells - old_cells;
  if (new_id) --reserved_maps_;
}

absl::StatusOr<std::shared_ptr<const MapSnapshot>> MapRegistry::Register(
    const std::string& id, GridMap map, MapOptions options, bool replace,
    std::vector<uint8_t> areas) {
  if (std::none_of(areas.begin(), areas.end(), [](uint8_t a) { return a; })) {
    areas.clear();
  }
  if (absl::Status s = ValidateMapId(id, "id"); !s.ok()) return s;
  const DerivedOptions derived = options.derived();
  if (absl::Status s = ValidateDerivedOptions(derived); !s.ok()) return s;
  WriteLock write(this, id);
  std::shared_ptr<const MapSnapshot> old = Find(id);
  if (old != nullptr) {
    const bool same =
        old->options == options && old->map.width() == map.width() &&
        old->map.height() == map.height() &&
        (old->areas == nullptr ? areas.empty() : *old->areas == areas) &&
        old->Terrain().CopyCosts() == map.CopyCosts();
    if (same) return old;
    if (!replace) {
      return absl::AlreadyExistsError(absl::StrCat(
          "id: map '", id, "' is registered with other content (version ",
          old->version, "); set replace to overwrite it"));
    }
  }
  // Limits first, before anything is built.
  const size_t derived_bytes = DerivedBytesFor(derived, map);
  if (derived_bytes > limits_.max_derived_bytes) {
    std::string parts;
    for (const auto& structure : DerivedStructuresFor(derived)) {
      absl::StrAppend(&parts, parts.empty() ? "" : ", ", structure->name(), " ",
                      structure->BytesFor(map), " bytes");
    }
    std::string fields;
    for (const auto& structure : DerivedStructuresFor(derived)) {
      absl::StrAppend(&fields, fields.empty() ? "" : ", ", structure->name());
    }
    return absl::ResourceExhaustedError(absl::StrCat(
        fields, ": the ", map.width(), " x ", map.height(),
        " map's derived data (", parts, ") exceeds --max_derived_bytes (",
        limits_.max_derived_bytes, ")"));
  }
  // Each pinned agent map is a map of its own, about the terrain's size,
  // with every structure its class allows.
  const size_t agent_bytes = static_cast<size_t>(options.max_agent_size - 1) *
                             (map.MemoryBytes() + derived_bytes);
  if (derived_bytes + agent_bytes > limits_.max_derived_bytes) {
    return absl::ResourceExhaustedError(
        absl::StrCat("max_agent_size: ", options.max_agent_size - 1,
                     " agent maps of the ", map.width(), " x ", map.height(),
                     " map (", agent_bytes, " bytes) and its derived data (",
                     derived_bytes, " bytes) exceed --max_derived_bytes (",
                     limits_.max_derived_bytes, ")"));
  }
  const bool new_id = old == nullptr;
  const int64_t old_cells = new_id ? 0 : old->map.cell_count();
  const int64_t cells = map.cell_count();
  if (absl::Status s = Reserve(new_id, old_cells, cells); !s.ok()) return s;
  absl::Cleanup unreserve = [&] { Unreserve(new_id, old_cells, cells); };

  absl::StatusOr<std::shared_ptr<MapSnapshot>> built =
      NewSnapshot(id, new_id ? 1 : old->version + 1, options, std::move(map),
                  std::move(areas));
  if (!built.ok()) return built.status();
  std::shared_ptr<MapSnapshot> next = *std::move(built);
  if (store_ != nullptr) {
    if (absl::Status s = store_->Put(next->ToStored()); !s.ok()) return s;
  }
  Swap(id, next);
  return std::shared_ptr<const MapSnapshot>(std::move(next));
}

absl::StatusOr<std::shared_ptr<const MapSnapshot>> MapRegistry::Update(
    const std::string& id, const std::vector<CellChange>& changes,
    uint64_t expected_version, absl::FunctionRef<std::string(size_t)> field_of,
    const std::vector<AreaChange>& area_changes) {
  if (absl::Status s = ValidateMapId(id, "id"); !s.ok()) return s;
  WriteLock write(this, id);
  std::shared_ptr<const MapSnapshot> old = Find(id);
  if (old == nullptr) {
    return absl::NotFoundError(absl::StrCat("id: no map '", id, "'"));
  }
  if (expected_version != 0 && expected_version != old->version) {
    return absl::AbortedError(absl::StrCat("expected_version: map '", id,
                                           "' is at version ", old->version,
                                           ", not ", expected_version));
  }
  if (absl::Status s = ValidateChanges(old->map.width(), old->map.height(),
                                       changes, field_of);
      !s.ok()) {
    return s;
  }
  if (absl::Status s = ValidateAreaChanges(
          old->map.width(), old->map.height(), area_changes,
          [&](size_t i) { return absl::StrCat("area change ", i); });
      !s.ok()) {
    return s;
  }
  absl::StatusOr<std::shared_ptr<MapSnapshot>> next =
      NextVersion(old, changes, area_changes);
  if (!next.ok()) return next.status();
  if (store_ != nullptr) {
    StoredUpdate update;
    update.id = id;
    update.version = (*next)->version;
    update.changes = changes;
    update.area_changes = area_changes;
    if (absl::Status s = store_->AppendUpdate(update); !s.ok()) return s;
  }
  Swap(id, *next);
  return std::shared_ptr<const MapSnapshot>(*std::move(next));
}

absl::StatusOr<std::shared_ptr<MapSnapshot>> MapRegistry::NextVersion(
    const std::shared_ptr<const MapSnapshot>& old,
    const std::vector<CellChange>& changes,
    const std::vector<AreaChange>& area_changes) {
  // The view's changes (what its derived data repairs) and the terrain's
  // (what agent maps repair).
  ChangeSummary summary;
  std::vector<CellRect> terrain_rects;
  absl::StatusOr<MapView> view =
      NextViewOf(*old, changes, area_changes, &summary, &terrain_rects);
  if (!view.ok()) return view.status();
  auto next = std::make_shared<MapSnapshot>(
      old->id, old->version + 1, old->options, std::move(*view->view));
  next->terrain = std::move(view->terrain);
  next->areas = std::move(view->areas);
  next->view_rects = summary.rects;
  next->agent_maps = std::make_shared<AgentMaps>(limits_.max_agent_maps,
                                                 next->options.derived());
  if (old->areas == nullptr && next->areas != nullptr) {
    // The first areas change every class's canonical form (its cache key):
    // the default sizes are built again, other classes on their next query.
    if (absl::Status s = PinDefaultSizes(*next); !s.ok()) return s;
  } else {
    old->agent_maps->RepairInto(next->Terrain(), next->AreaSpan(),
                                terrain_rects, next->agent_maps.get());
  }
  // What is slow to repair (landmarks that must be rebuilt, the jump
  // table, the subgoal graph) is finished in the background
  // (RebuildPending): an update costs what it changes. A structure still
  // pending in `old` stays pending, from the same base.
  DerivedOptions derived = old->options.derived();
  derived.defer_slow_repairs = true;
  if (absl::Status s =
          RepairDerived(derived, old->map, summary, &next->map, &next->derived,
                        PendingNames(old->pending));
      !s.ok()) {
    return s;
  }
  next->pending = NextPending(old->pending, old->map, next->version, summary,
                              next->derived);
  return next;
}

bool MapRegistry::Claim(absl::flat_hash_set<std::string>* claims,
                        const std::string& id, bool pending) {
  if (!pending) return false;
  std::lock_guard<std::mutex> lock(mu_);
  return claims->insert(id).second;
}

void MapRegistry::DropClaim(absl::flat_hash_set<std::string>* claims,
                            const std::string& id) {
  std::lock_guard<std::mutex> lock(mu_);
  claims->erase(id);
}

absl::Status MapRegistry::CompactIfWanted(const std::string& id) {
  if (store_ == nullptr) return absl::OkStatus();
  WriteLock write(this, id);
  if (!store_->WantsCompaction(id)) return absl::OkStatus();
  std::shared_ptr<const MapSnapshot> snapshot = Find(id);
  if (snapshot == nullptr) return absl::OkStatus();
  return store_->Compact(snapshot->ToStored());
}

absl::Status MapRegistry::Delete(const std::string& id) {
  if (absl::Status s = ValidateMapId(id, "id"); !s.ok()) return s;
  WriteLock write(this, id);
  if (Find(id) == nullptr) {
    return absl::NotFoundError(absl::StrCat("id: no map '", id, "'"));
  }
  if (store_ != nullptr) {
    if (absl::Status s = store_->Delete(id); !s.ok()) return s;
  }
  Drop(id);
  return absl::OkStatus();
}

void MapRegistry::Drop(const std::string& id) {
  std::shared_ptr<const MapSnapshot> old;  // Freed outside the lock.
  std::lock_guard<std::mutex> lock(mu_);
  auto it = maps_.find(id);
  old = std::move(it->second);
  maps_.erase(it);
  last_used_.erase(id);
}

std::shared_ptr<const MapSnapshot> MapRegistry::Find(
    const std::string& id) const {
  std::lock_guard<std::mutex> lock(mu_);
  auto it = maps_.find(id);
  return it == maps_.end() ? nullptr : it->second;
}

std::vector<std::shared_ptr<const MapSnapshot>> MapRegistry::List() const {
  std::lock_guard<std::mutex> lock(mu_);
  std::vector<std::shared_ptr<const MapSnapshot>> out;
  out.reserve(maps_.size());
  for (const auto& [id, s] : maps_) out.push_back(s);
  return out;
}

size_t MapRegistry::map_count() const {
  std::lock_guard<std::mutex> lock(mu_);
  return maps_.size();
}

int64_t MapRegistry::total_cells() const {
  std::lock_guard<std::mutex> lock(mu_);
  return TotalCellsLocked();
}

int64_t MapRegistry::TotalCellsLocked() const {
  int64_t sum = 0;
  for (const auto& [id, s] : maps_) sum += s->map.cell_count();
  return sum;
}

size_t MapRegistry::memory_bytes() const {
  std::lock_guard<std::mutex> lock(mu_);
  size_t sum = 0;
  for (const auto& [id, s] : maps_) sum += s->MemoryBytes();
  return sum;
}

}  // namespace gridstar::server
