// Map administration: RegisterMap, UpdateCells, GetMap, ListMaps, DeleteMap.
// Parsing, building derived data and writing to the store are too slow for a
// gRPC thread: they run as tasks on the admin scheduler, but for small
// UpdateCells calls on the updates scheduler, which nothing slow holds up.

#include <algorithm>
#include <cstdint>
#include <memory>
#include <string>
#include <utility>
#include <vector>

#include "absl/strings/str_cat.h"
#include "convert/convert.h"
#include "rpc/calls.h"
#include "rpc/map_requests.h"
#include "rpc/service.h"

namespace gridstar::server {

void PathfindingService::ServeRegisterMap(Call* call,
                                          const v1::RegisterMapRequest* request,
                                          v1::MapInfo* response) {
  if (!Admit(call, AccessLevel::kAdmin)) return;
  if (absl::Status s = ValidateMapId(request->id(), "id"); !s.ok()) {
    call->Done(s);
    return;
  }
  absl::StatusOr<MapOptions> map_options = MapOptionsOfRequest(*request);
  if (!map_options.ok()) {
    call->Done(map_options.status());
    return;
  }
  const bool queued = admin_->TrySubmit(
      [this, call, request, response, options = *map_options](SearchContext&) {
        absl::StatusOr<MapWithAreas> map =
            MapOfRequest(*request, options_.map_limits);
        if (!map.ok()) {
          call->Done(map.status());
          return;
        }
        // A map stored but not held here is loaded first: its id is taken
        // (replace rules apply) whichever replica registers.
        if (absl::Status l = registry_->FindOrLoad(request->id()).status();
            !l.ok()) {
          call->Done(l);
          return;
        }
        absl::StatusOr<std::shared_ptr<const MapSnapshot>> s =
            registry_->Register(request->id(), std::move(map->map), options,
                                request->replace(), std::move(map->areas));
        const std::string id = request->id();  // Dies with the call.
        const bool replaced = s.ok() && (*s)->version > 1;
        if (s.ok()) {
          // A replaced map's fields are stale (and unreachable by version).
          if (replaced) flow_fields_->DropMap(id);
          MapInfoToProto(**s, response);
        }
        call->Done(s.status());
        // Watched agents re-check their paths on the new content.
        if (replaced) watch_.MapReplaced(id);
      });
  if (!queued) call->Done(Overloaded(*admin_));
}

void PathfindingService::ServeUpdateCells(Call* call,
                                          const v1::UpdateCellsRequest* request,
                                          v1::MapInfo* response) {
  if (!Admit(call, AccessLevel::kAdmin)) return;
  const size_t n =
      static_cast<size_t>(request->cells_size() + request->rects_size());
  if (n > options_.max_updates) {
    call->Done(absl::ResourceExhaustedError(
        absl::StrCat("cells, rects: ", n, " changes, more than the limit of ",
                     options_.max_updates)));
    return;
  }
  std::vector<CellChange> changes;
  std::vector<AreaChange> area_changes;
  if (absl::Status s =
          convert::ChangesFromProto(*request, &changes, &area_changes);
      !s.ok()) {
    call->Done(s);
    return;
  }
  // Small updates (the common case: a door, a wall, a few cells) run on the
  // update thread, at real-time priority when granted; a large one could
  // hold a core for a long time there, and goes to the admin thread.
  // (Changes are half-open rectangles, not yet validated: any int32 ends,
  // so each side is clamped, and the sum stays far from overflowing.)
  int64_t cells = 0;
  auto side = [](int32_t from, int32_t to) {
    return std::clamp<int64_t>(int64_t{to} - from, 0, int64_t{1} << 20);
  };
  auto add_area = [&](Cell min, Cell max) {
    cells += side(min.x, max.x) * side(min.y, max.y);
  };
  for (const CellChange& c : changes) add_area(c.min, c.max);
  for (const AreaChange& c : area_changes) add_area(c.min, c.max);
  Scheduler* const runs_on = cells <= kRealtimeUpdateCells ? updates_ : admin_;
  const bool queued = runs_on->TrySubmit(
      [this, call, request, response, changes = std::move(changes),
       area_changes = std::move(area_changes)](SearchContext&) {
        // The request dies with the call: keep what is needed after Done.
        const std::string id = request->id();
        // Held until after the answer, so that unmapping the version this
        // update replaces (when no search holds it) is not the caller's wait.
        // (Loaded first when stored but not held here.)
        absl::StatusOr<std::shared_ptr<const MapSnapshot>> loaded =
            registry_->FindOrLoad(id);
        if (!loaded.ok()) {
          call->Done(loaded.status());
          return;
        }
        std::shared_ptr<const MapSnapshot> replaced = *std::move(loaded);
        absl::StatusOr<std::shared_ptr<const MapSnapshot>> s =
            registry_->Update(
                id, changes, request->expected_version(),
                [&](size_t i) { return convert::ChangeFieldName(*request, i); },
                area_changes);
        if (s.ok()) {
          flow_fields_->DropMap(id);
          MapInfoToProto(**s, response);
        }
        call->Done(s.status());
        // After the answer: the agents whose paths the change broke are
        // replanned (their searches are tasks: this only decides).
        if (s.ok()) NotifyWatchers(**s, changes, !area_changes.empty());
        if (s.ok()) {
          ClaimBackgroundWork(id);
          // Nobody waits for a compaction, and it rewrites the whole map: on
          // the admin thread, not this one. A failed one (or one the full
          // queue refused) leaves the log as it was, to be folded in after a
          // later update.
          admin_->TrySubmit([this, id](SearchContext&) {
            if (absl::Status c = registry_->CompactIfWanted(id); !c.ok()) {
              metrics_->StoreError("compact");
            }
          });
        }
        replaced.reset();
      });
  if (!queued) call->Done(Overloaded(*runs_on));
}

void PathfindingService::NotifyWatchers(const MapSnapshot& s,
                                        const std::vector<CellChange>& changes,
                                        bool areas_changed) {
  if (s.terrain == nullptr && !areas_changed) {
    watch_.MapUpdated(s.id, s.version, changes);
    return;
  }
  // Watched paths run on the view, whose changes are not the terrain's:
  // the view's changed cells one by one at their new cost, or, beyond a few
  // thousand, every agent of the map re-checked.
  constexpr int64_t kMostCells = 4096;
  int64_t cells = 0;
  for (const CellRect& r : s.view_rects) {
    cells += int64_t{r.max.x - r.min.x} * (r.max.y - r.min.y);
  }
  if (cells > kMostCells) {
    watch_.MapReplaced(s.id);
    return;
  }
  std::vector<CellChange> view_changes;
  view_changes.reserve(static_cast<size_t>(cells));
  for (const CellRect& r : s.view_rects) {
    for (int32_t y = r.min.y; y < r.max.y; ++y) {
      for (int32_t x = r.min.x; x < r.max.x; ++x) {
        view_changes.push_back({{x, y}, {x + 1, y + 1}, s.map.cost({x, y})});
      }
    }
  }
  watch_.MapUpdated(s.id, s.version, view_changes);
}

void PathfindingService::MapChangedElsewhere(const std::string& id) {
  flow_fields_->DropMap(id);
  watch_.MapReplaced(id);
  ClaimBackgroundWork(id);
}

void PathfindingService::ClaimBackgroundWork(const std::string& id) {
  if (registry_->ClaimRebuild(id)) RebuildLater(id);
}

void PathfindingService::RebuildLater(const std::string& id) {
  // A full queue drops the claim: the next update of the map claims the job
  // again. A failed job leaves the version without the structure, as it was
  // (its engine runs what it stands in for: alt as A*, jps+ as jps, subgoal
  // as jps+), and the next update claims again from the same base. When
  // newer versions came while it ran, they were re-based on what it
  // finished: claim again for them.
  if (!background_.TrySubmit([this, id](SearchContext&) {
        absl::StatusOr<bool> again = registry_->RebuildPending(id);
        metrics_->BackgroundRebuild(again.ok());
        if (again.ok() && *again && registry_->ClaimRebuild(id)) {
          RebuildLater(id);
        }
      })) {
    registry_->DropRebuildClaim(id);
  }
}

void PathfindingService::ServeGetMap(Call* call,
                                     const v1::GetMapRequest* request,
                                     v1::GetMapResponse* response) {
  if (!Admit(call, AccessLevel::kQuery)) return;
  std::shared_ptr<const MapSnapshot> s =
      SnapshotOrFinish(*registry_, "id", request->id(), call);
  if (s == nullptr) return;
  MapInfoToProto(*s, response->mutable_info());
  if (!request->include_cells()) {
    call->Done(absl::OkStatus());
    return;
  }
  const bool queued = admin_->TrySubmit([call, s, response](SearchContext&) {
    const std::vector<uint8_t> costs = s->Terrain().CopyCosts();
    response->set_raw(std::string(costs.begin(), costs.end()));
    if (s->areas != nullptr) {
      response->set_areas(std::string(s->areas->begin(), s->areas->end()));
    }
    call->Done(absl::OkStatus());
  });
  if (!queued) call->Done(Overloaded(*admin_));
}

void PathfindingService::ServeListMaps(Call* call, const v1::ListMapsRequest*,
                                       v1::ListMapsResponse* response) {
  if (!Admit(call, AccessLevel::kQuery)) return;
  std::vector<std::shared_ptr<const MapSnapshot>> held = registry_->List();
  // With a shared store, the maps stored but not loaded here are listed too,
  // with their id and version only; with Redis away, the maps held here.
  absl::StatusOr<std::vector<std::pair<std::string, uint64_t>>> stored =
      registry_->StoredVersions();
  if (!stored.ok()) {
    metrics_->StoreError("follow");
    stored = std::vector<std::pair<std::string, uint64_t>>();
  }
  auto next_held = held.begin();
  auto next_stored = stored->begin();
  while (next_held != held.end() || next_stored != stored->end()) {
    if (next_stored == stored->end() ||
        (next_held != held.end() && (*next_held)->id <= next_stored->first)) {
      if (next_stored != stored->end() &&
          (*next_held)->id == next_stored->first) {
        ++next_stored;
      }
      MapInfoToProto(**next_held++, response->add_maps());
    } else {
      v1::MapInfo* info = response->add_maps();
      info->set_id(next_stored->first);
      info->set_version(next_stored->second);
      ++next_stored;
    }
  }
  call->Done(absl::OkStatus());
}

void PathfindingService::ServeDeleteMap(Call* call,
                                        const v1::DeleteMapRequest* request,
                                        v1::DeleteMapResponse*) {
  if (!Admit(call, AccessLevel::kAdmin)) return;
  if (absl::Status s = ValidateMapId(request->id(), "id"); !s.ok()) {
    call->Done(s);
    return;
  }
  const bool queued = admin_->TrySubmit([this, call, request](SearchContext&) {
    // A map stored but not held here is loaded first.
    absl::Status s = registry_->FindOrLoad(request->id()).status();
    if (s.ok()) s = registry_->Delete(request->id());
    if (s.ok()) flow_fields_->DropMap(request->id());
    const std::string id = request->id();  // The request dies with the call.
    call->Done(s);
    if (s.ok()) watch_.MapDeleted(id);
  });
  if (!queued) call->Done(Overloaded(*admin_));
}

}  // namespace gridstar::server
