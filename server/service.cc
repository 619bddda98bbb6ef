#include "service.h"

#include <cmath>

#include <algorithm>
#include <atomic>
#include <chrono>
#include <deque>
#include <memory>
#include <mutex>
#include <string>
#include <utility>
#include <vector>

#include "absl/status/status.h"
#include "absl/strings/match.h"
#include "absl/strings/numbers.h"
#include "absl/strings/str_cat.h"
#include "absl/time/clock.h"
#include "gridstar/find_path.h"
#include "gridstar/group_paths.h"
#include "gridstar/map_io.h"

namespace gridstar::server {
namespace {

using CancelFlag = std::shared_ptr<std::atomic<bool>>;

// absl and gRPC share the canonical status codes, so the mapping is 1:1.
grpc::Status ToGrpc(const absl::Status& s) {
  if (s.ok()) return grpc::Status::OK;
  return grpc::Status(static_cast<grpc::StatusCode>(s.code()),
                      std::string(s.message()));
}

std::string CodeName(grpc::StatusCode code) {
  std::string name = absl::StatusCodeToString(static_cast<absl::StatusCode>(code));
  return name.empty() ? "UNKNOWN" : name;
}

absl::Status Prefixed(absl::string_view prefix, const absl::Status& s) {
  if (s.ok() || prefix.empty()) return s;
  return absl::Status(s.code(), absl::StrCat(prefix, s.message()));
}

// A unary call: finishes exactly once, records its metrics, and lends its
// searches a cancellation flag that outlives it.
class UnaryCall : public grpc::ServerUnaryReactor {
 public:
  UnaryCall(Metrics* metrics, absl::string_view method)
      : metrics_(metrics), method_(method), start_(absl::Now()),
        cancelled_(std::make_shared<std::atomic<bool>>(false)) {}

  void Done(const grpc::Status& s) {
    metrics_->Request(method_, CodeName(s.error_code()),
                      absl::ToDoubleSeconds(absl::Now() - start_));
    Finish(s);
  }
  void Done(const absl::Status& s) { Done(ToGrpc(s)); }

  const CancelFlag& cancelled() const { return cancelled_; }

  void OnCancel() override { cancelled_->store(true); }
  void OnDone() override { delete this; }

 private:
  Metrics* const metrics_;
  const std::string method_;
  const absl::Time start_;
  const CancelFlag cancelled_;
};

// The call's deadline, capped by the server's budget for one call.
absl::Time CallDeadline(const grpc::CallbackServerContext* ctx,
                        absl::Duration max_search_time) {
  const absl::Time cap = absl::Now() + max_search_time;
  const auto d = ctx->deadline();
  if (d == std::chrono::system_clock::time_point::max()) return cap;
  return std::min(cap, absl::FromChrono(d));
}

void ToProto(const MapSnapshot& s, v1::MapInfo* info) {
  info->set_id(s.id);
  info->set_version(s.version);
  info->set_width(s.map.width());
  info->set_height(s.map.height());
  info->set_passable_cells(s.map.passable_count());
  info->set_components(s.map.component_count());
  info->set_memory_bytes(s.map.MemoryBytes());
  info->set_default_diagonal(static_cast<v1::DiagonalPolicy>(
      static_cast<int>(s.options.default_diagonal) + 1));
  info->set_jump_table(s.options.jump_table);
  info->set_jump_table_bytes(s.map.JumpTableBytes());
  info->set_jump_table_build_micros(s.jump_table_build_micros);
  info->set_landmarks(s.options.landmarks);
  info->set_landmark_bytes(s.map.LandmarkBytes());
  info->set_landmark_build_micros(s.landmark_build_micros);
}

// The proto enum is the core enum plus one, with 0 for the default.
absl::StatusOr<Algorithm> ToAlgorithm(int value, absl::string_view field) {
  if (value == v1::ALGORITHM_UNSPECIFIED) return Algorithm::kAuto;
  for (Algorithm a : kAllAlgorithms) {
    if (value == static_cast<int>(a) + 1) return a;
  }
  return absl::InvalidArgumentError(
      absl::StrCat(field, ": unknown value ", value));
}

v1::Algorithm ToProto(Algorithm a) {
  return static_cast<v1::Algorithm>(static_cast<int>(a) + 1);
}

// UNSPECIFIED gives `fallback`.
absl::StatusOr<DiagonalPolicy> ToPolicy(int value, absl::string_view field,
                                        DiagonalPolicy fallback) {
  switch (value) {
    case v1::DIAGONAL_POLICY_UNSPECIFIED:
      return fallback;
    case v1::DIAGONAL_POLICY_NEVER:
      return DiagonalPolicy::kNever;
    case v1::DIAGONAL_POLICY_NO_CORNER_CUTTING:
      return DiagonalPolicy::kNoCornerCutting;
    case v1::DIAGONAL_POLICY_ALLOW_CORNER_CUTTING:
      return DiagonalPolicy::kAllowCornerCutting;
    default:
      return absl::InvalidArgumentError(
          absl::StrCat(field, ": unknown value ", value));
  }
}

// A validated path request, ready for a worker.
struct PathJob {
  std::shared_ptr<const MapSnapshot> snapshot;
  PathQuery query;
  bool allow_partial = false;
  absl::Time enqueued;
  CancelFlag cancelled;
};

// Validates a request against its map; `prefix` ("items[3].") goes before
// every field name.
absl::Status MakeJob(const v1::PathRequest& r,
                     std::shared_ptr<const MapSnapshot> snapshot,
                     absl::Time deadline, CancelFlag cancelled,
                     absl::string_view prefix, PathJob* job) {
  PathQuery& q = job->query;
  if (!r.has_start()) {
    return absl::InvalidArgumentError(absl::StrCat(prefix, "start: required"));
  }
  if (!r.has_goal()) {
    return absl::InvalidArgumentError(absl::StrCat(prefix, "goal: required"));
  }
  q.start = {r.start().x(), r.start().y()};
  q.goal = {r.goal().x(), r.goal().y()};
  absl::StatusOr<Algorithm> a =
      ToAlgorithm(r.algorithm(), absl::StrCat(prefix, "algorithm"));
  if (!a.ok()) return a.status();
  q.algorithm = *a;
  absl::StatusOr<DiagonalPolicy> p = ToPolicy(
      r.diagonal(), absl::StrCat(prefix, "diagonal"),
      snapshot->options.default_diagonal);
  if (!p.ok()) return p.status();
  q.diagonal = *p;
  q.weight = r.weight() == 0 ? 1.5 : r.weight();
  q.snap_radius = r.snap_radius();
  if (absl::Status s = ValidatePathQuery(q); !s.ok()) return Prefixed(prefix, s);
  const GridMap& map = snapshot->map;
  // Without snapping, ends must be on the map and passable.
  if (q.snap_radius == 0) {
    if (absl::Status s = map.CheckPassable(absl::StrCat(prefix, "start"), q.start);
        !s.ok()) {
      return s;
    }
    if (absl::Status s = map.CheckPassable(absl::StrCat(prefix, "goal"), q.goal);
        !s.ok()) {
      return s;
    }
  }
  q.max_expansions = r.max_expansions();
  q.smooth = r.smooth();
  q.deadline = deadline;
  q.cancelled = cancelled.get();
  job->allow_partial = r.allow_partial();
  job->snapshot = std::move(snapshot);
  job->cancelled = std::move(cancelled);
  job->enqueued = absl::Now();
  return absl::OkStatus();
}

void PackCells(const std::vector<Cell>& cells,
               google::protobuf::RepeatedField<int32_t>* out) {
  out->Reserve(static_cast<int>(cells.size() * 2));
  for (const Cell& c : cells) {
    out->AddAlreadyReserved(c.x);
    out->AddAlreadyReserved(c.y);
  }
}

absl::string_view Outcome(const absl::Status& s, PartialReason stop) {
  if (absl::IsNotFound(s)) return "no_path";
  if (!s.ok()) return "error";
  switch (stop) {
    case PartialReason::kNone:
      return "ok";
    case PartialReason::kDeadline:
      return "deadline";
    case PartialReason::kCancelled:
      return "cancelled";
    case PartialReason::kMaxExpansions:
      return "partial";
  }
  return "ok";
}

// Runs one validated job on a worker and fills `out`.
absl::Status RunJob(const PathJob& job, Metrics* metrics, SearchContext& context,
                    v1::PathResponse* out) {
  const absl::Time begin = absl::Now();
  const double queue_seconds = absl::ToDoubleSeconds(begin - job.enqueued);
  metrics->QueueWait(queue_seconds);
  out->set_queue_micros(queue_seconds * 1e6);
  if (job.cancelled->load()) return absl::CancelledError("the call was cancelled");
  // Reused by each worker thread: FindPath then allocates nothing once the
  // vectors have grown (only the response's own storage is new).
  thread_local PathResult r;
  absl::Status s = gridstar::FindPath(job.snapshot->map, job.query, context, &r);
  const double search_seconds = absl::ToDoubleSeconds(absl::Now() - begin);
  // Labelled by the algorithm that ran, so auto's choices show.
  metrics->Search(AlgorithmName(r.algorithm), Outcome(s, r.partial_reason), search_seconds,
                  r.expanded);
  out->set_algorithm(ToProto(r.algorithm));
  out->set_search_micros(search_seconds * 1e6);
  out->set_map_version(job.snapshot->version);
  if (absl::IsNotFound(s)) {
    return absl::FailedPreconditionError(absl::StrCat(
        "no path: goal (", job.query.goal.x, ", ", job.query.goal.y,
        ") cannot be reached from start (", job.query.start.x, ", ",
        job.query.start.y, ") on map '", job.snapshot->id, "' version ",
        job.snapshot->version));
  }
  if (!s.ok()) return s;
  if (r.partial_reason == PartialReason::kCancelled) {
    return absl::CancelledError("the call was cancelled");
  }
  if (r.partial && !job.allow_partial) {
    if (r.partial_reason == PartialReason::kDeadline) {
      return absl::DeadlineExceededError(absl::StrCat(
          "the deadline passed after ", r.expanded,
          " expansions; set allow_partial for the partial path"));
    }
    return absl::ResourceExhaustedError(absl::StrCat(
        "max_expansions: ", job.query.max_expansions,
        " reached before the goal; set allow_partial for the partial path"));
  }
  PackCells(r.cells, out->mutable_cells());
  if (job.query.smooth) PackCells(r.waypoints, out->mutable_waypoints());
  out->set_cost(r.cost);
  out->set_smoothed_cost(r.smoothed_cost);
  out->set_expanded(r.expanded);
  out->set_partial(r.partial);
  out->mutable_start()->set_x(r.start.x);
  out->mutable_start()->set_y(r.start.y);
  out->mutable_goal()->set_x(r.goal.x);
  out->mutable_goal()->set_y(r.goal.y);
  return absl::OkStatus();
}

absl::Status UnknownMap(absl::string_view field, absl::string_view id) {
  if (absl::Status s = ValidateMapId(id, field); !s.ok()) return s;
  return absl::NotFoundError(absl::StrCat(field, ": no map '", id, "'"));
}

// The map's current snapshot, or null after finishing the call with
// NOT_FOUND (INVALID_ARGUMENT for a malformed id) naming `field`.
std::shared_ptr<const MapSnapshot> SnapshotOrFinish(const MapRegistry& registry,
                                                    absl::string_view field,
                                                    const std::string& id,
                                                    UnaryCall* call) {
  std::shared_ptr<const MapSnapshot> snapshot = registry.Find(id);
  if (snapshot == nullptr) call->Done(UnknownMap(field, id));
  return snapshot;
}

absl::Status Overloaded(const Scheduler& s) {
  return absl::ResourceExhaustedError(
      absl::StrCat("the server's queue is full (", s.capacity(),
                   " tasks); retry later"));
}

void SetItem(const absl::Status& s, v1::PathItemResult* item) {
  item->set_code(static_cast<int>(s.code()));
  item->set_message(std::string(s.message()));
  if (!s.ok()) item->clear_path();
}

// The readers say "W x H = N cells is over the limit" or "width: W is out of
// range [1, MAX]"; a positive size beyond the maximum is a limit, not a
// malformed map.
bool IsOverLimit(absl::string_view message) {
  if (absl::StrContains(message, "over the limit")) return true;
  const size_t range = message.find(" is out of range [1, ");
  if (range == absl::string_view::npos) return false;
  const size_t colon = message.rfind(": ", range);
  if (colon == absl::string_view::npos) return false;
  const absl::string_view field = message.substr(0, colon);
  if (!absl::EndsWith(field, "width") && !absl::EndsWith(field, "height")) {
    return false;
  }
  int64_t value = 0;
  return absl::SimpleAtoi(message.substr(colon + 2, range - colon - 2), &value) &&
         value > 0;
}

absl::StatusOr<GridMap> MapOfRequest(const v1::RegisterMapRequest& r,
                                     const MapLimits& limits) {
  absl::StatusOr<GridMap> map;
  switch (r.cells_case()) {
    case v1::RegisterMapRequest::kRaw:
      if (r.width() <= 0 || r.height() <= 0) {
        return absl::InvalidArgumentError(
            "width, height: required (positive) with raw cells");
      }
      map = ParseRawMap(r.width(), r.height(), r.raw(), limits);
      break;
    case v1::RegisterMapRequest::kMovingai:
      map = ParseMovingAiMap(r.movingai(), limits);
      break;
    case v1::RegisterMapRequest::kPgm:
      map = ParsePgm(r.pgm(), limits);
      break;
    default:
      return absl::InvalidArgumentError(
          "cells: one of raw, movingai or pgm is required");
  }
  if (!map.ok()) {
    // Size limits are limits, not malformation.
    if (IsOverLimit(map.status().message())) {
      return absl::ResourceExhaustedError(
          absl::StrCat("cells: ", map.status().message(),
                       " (--max_map_side, --max_map_cells)"));
    }
    return Prefixed("cells: ", map.status());
  }
  if ((r.width() != 0 && r.width() != map->width()) ||
      (r.height() != 0 && r.height() != map->height())) {
    return absl::InvalidArgumentError(absl::StrCat(
        "width, height: ", r.width(), " x ", r.height(), " given but the data is ",
        map->width(), " x ", map->height()));
  }
  return map;
}

}  // namespace

PathfindingService::PathfindingService(MapRegistry* registry, Scheduler* search,
                                       Scheduler* admin, Metrics* metrics,
                                       FlowFieldCache* flow_fields,
                                       ServiceOptions options)
    : registry_(registry), search_(search), admin_(admin), metrics_(metrics),
      flow_fields_(flow_fields), options_(options) {}

absl::Status PathfindingService::CheckDerivedBytes(
    const GridMap& map, const MapOptions& options) const {
  // A jump table is 8 int16 a padded cell (uniform maps only), a landmark one
  // double a padded cell.
  const size_t cells = map.padded_size();
  const size_t table = options.jump_table && map.uniform_cost() ? cells * 16 : 0;
  const size_t landmarks = cells * 8 * static_cast<size_t>(options.landmarks);
  if (table + landmarks <= options_.max_derived_bytes) return absl::OkStatus();
  return absl::ResourceExhaustedError(absl::StrCat(
      landmarks > 0 ? "landmarks, jump_table" : "jump_table", ": the ",
      map.width(), " x ", map.height(), " map's jump table (", table,
      " bytes) and ", options.landmarks, " landmarks (", landmarks,
      " bytes) exceed --max_derived_bytes (", options_.max_derived_bytes, ")"));
}

grpc::ServerUnaryReactor* PathfindingService::RegisterMap(
    grpc::CallbackServerContext*, const v1::RegisterMapRequest* request,
    v1::MapInfo* response) {
  auto* call = new UnaryCall(metrics_, "RegisterMap");
  if (absl::Status s = ValidateMapId(request->id(), "id"); !s.ok()) {
    call->Done(s);
    return call;
  }
  absl::StatusOr<DiagonalPolicy> policy =
      ToPolicy(request->default_diagonal(), "default_diagonal",
               DiagonalPolicy::kNoCornerCutting);
  if (!policy.ok()) {
    call->Done(policy.status());
    return call;
  }
  if (request->landmarks() < 0 || request->landmarks() > GridMap::kMaxLandmarks) {
    call->Done(absl::InvalidArgumentError(
        absl::StrCat("landmarks: ", request->landmarks(), " is out of range [0, ",
                     GridMap::kMaxLandmarks, "]")));
    return call;
  }
  MapOptions map_options;
  map_options.default_diagonal = *policy;
  map_options.jump_table = request->jump_table();
  map_options.landmarks = request->landmarks();
  // Parsing, labelling, jump tables and fsync are too slow for a gRPC thread.
  const bool queued = admin_->TrySubmit([this, call, request, response,
                                         map_options](SearchContext&) {
    absl::StatusOr<GridMap> map = MapOfRequest(*request, options_.map_limits);
    if (!map.ok()) {
      call->Done(map.status());
      return;
    }
    if (absl::Status s = CheckDerivedBytes(*map, map_options); !s.ok()) {
      call->Done(s);
      return;
    }
    absl::StatusOr<std::shared_ptr<const MapSnapshot>> s =
        registry_->Register(request->id(), *std::move(map), map_options,
                            request->replace());
    if (s.ok()) {
      // A replaced map's fields are stale (and unreachable by version).
      if ((*s)->version > 1) flow_fields_->DropMap(request->id());
      ToProto(**s, response);
    }
    call->Done(s.status());
  });
  if (!queued) call->Done(Overloaded(*admin_));
  return call;
}

grpc::ServerUnaryReactor* PathfindingService::UpdateCells(
    grpc::CallbackServerContext*, const v1::UpdateCellsRequest* request,
    v1::MapInfo* response) {
  auto* call = new UnaryCall(metrics_, "UpdateCells");
  const size_t n = static_cast<size_t>(request->cells_size() + request->rects_size());
  if (n > options_.max_updates) {
    call->Done(absl::ResourceExhaustedError(
        absl::StrCat("cells, rects: ", n, " changes, more than the limit of ",
                     options_.max_updates)));
    return call;
  }
  std::vector<CellChange> changes;
  changes.reserve(n);
  for (int i = 0; i < request->cells_size(); ++i) {
    const v1::CellUpdate& u = request->cells(i);
    if (u.cost() > 255) {
      call->Done(absl::InvalidArgumentError(
          absl::StrCat("cells[", i, "].cost: ", u.cost(), " is more than 255")));
      return call;
    }
    const Cell c{u.cell().x(), u.cell().y()};
    changes.push_back({c, {c.x + 1, c.y + 1}, static_cast<uint8_t>(u.cost())});
  }
  for (int i = 0; i < request->rects_size(); ++i) {
    const v1::RectUpdate& u = request->rects(i);
    if (u.cost() > 255) {
      call->Done(absl::InvalidArgumentError(
          absl::StrCat("rects[", i, "].cost: ", u.cost(), " is more than 255")));
      return call;
    }
    changes.push_back({{u.rect().min().x(), u.rect().min().y()},
                       {u.rect().max().x(), u.rect().max().y()},
                       static_cast<uint8_t>(u.cost())});
  }
  const bool queued = admin_->TrySubmit(
      [this, call, request, response, changes = std::move(changes)](SearchContext&) {
        absl::StatusOr<std::shared_ptr<const MapSnapshot>> s = registry_->Update(
            request->id(), changes, request->expected_version());
        if (s.ok()) {
          flow_fields_->DropMap(request->id());
          ToProto(**s, response);
        }
        // Name the field the way the request does.
        absl::Status status = s.status();
        if (absl::IsInvalidArgument(status) &&
            absl::StartsWith(status.message(), "change ")) {
          const int cells = request->cells_size();
          const int index = std::atoi(std::string(status.message().substr(7)).c_str());
          status = absl::InvalidArgumentError(absl::StrCat(
              index < cells ? absl::StrCat("cells[", index, "]")
                            : absl::StrCat("rects[", index - cells, "]"),
              status.message().substr(status.message().find(':'))));
        }
        call->Done(status);
      });
  if (!queued) call->Done(Overloaded(*admin_));
  return call;
}

grpc::ServerUnaryReactor* PathfindingService::GetMap(
    grpc::CallbackServerContext*, const v1::GetMapRequest* request,
    v1::GetMapResponse* response) {
  auto* call = new UnaryCall(metrics_, "GetMap");
  std::shared_ptr<const MapSnapshot> s =
      SnapshotOrFinish(*registry_, "id", request->id(), call);
  if (s == nullptr) return call;
  ToProto(*s, response->mutable_info());
  if (!request->include_cells()) {
    call->Done(grpc::Status::OK);
    return call;
  }
  const bool queued = admin_->TrySubmit([call, s, response](SearchContext&) {
    const std::vector<uint8_t> costs = s->map.CopyCosts();
    response->set_raw(std::string(costs.begin(), costs.end()));
    call->Done(grpc::Status::OK);
  });
  if (!queued) call->Done(Overloaded(*admin_));
  return call;
}

grpc::ServerUnaryReactor* PathfindingService::ListMaps(
    grpc::CallbackServerContext*, const v1::ListMapsRequest*,
    v1::ListMapsResponse* response) {
  auto* call = new UnaryCall(metrics_, "ListMaps");
  for (const auto& s : registry_->List()) ToProto(*s, response->add_maps());
  call->Done(grpc::Status::OK);
  return call;
}

grpc::ServerUnaryReactor* PathfindingService::DeleteMap(
    grpc::CallbackServerContext*, const v1::DeleteMapRequest* request,
    v1::DeleteMapResponse*) {
  auto* call = new UnaryCall(metrics_, "DeleteMap");
  if (absl::Status s = ValidateMapId(request->id(), "id"); !s.ok()) {
    call->Done(s);
    return call;
  }
  const bool queued = admin_->TrySubmit([this, call, request](SearchContext&) {
    absl::Status s = registry_->Delete(request->id());
    if (s.ok()) flow_fields_->DropMap(request->id());
    call->Done(s);
  });
  if (!queued) call->Done(Overloaded(*admin_));
  return call;
}

grpc::ServerUnaryReactor* PathfindingService::FindPath(
    grpc::CallbackServerContext* ctx, const v1::PathRequest* request,
    v1::PathResponse* response) {
  auto* call = new UnaryCall(metrics_, "FindPath");
  std::shared_ptr<const MapSnapshot> snapshot =
      SnapshotOrFinish(*registry_, "map_id", request->map_id(), call);
  if (snapshot == nullptr) return call;
  auto job = std::make_shared<PathJob>();
  absl::Status s = MakeJob(*request, std::move(snapshot),
                           CallDeadline(ctx, options_.max_search_time),
                           call->cancelled(), "", job.get());
  if (!s.ok()) {
    call->Done(s);
    return call;
  }
  const bool queued =
      search_->TrySubmit([this, call, job, response](SearchContext& context) {
        call->Done(RunJob(*job, metrics_, context, response));
      });
  if (!queued) call->Done(Overloaded(*search_));
  return call;
}

grpc::ServerUnaryReactor* PathfindingService::FindPaths(
    grpc::CallbackServerContext* ctx, const v1::FindPathsRequest* request,
    v1::FindPathsResponse* response) {
  auto* call = new UnaryCall(metrics_, "FindPaths");
  const size_t n = static_cast<size_t>(request->items_size());
  if (n > options_.max_batch) {
    call->Done(absl::ResourceExhaustedError(absl::StrCat(
        "items: ", n, " items, more than the limit of ", options_.max_batch,
        " (--max_batch)")));
    return call;
  }
  std::shared_ptr<const MapSnapshot> snapshot =
      SnapshotOrFinish(*registry_, "map_id", request->map_id(), call);
  if (snapshot == nullptr) return call;
  for (size_t i = 0; i < n; ++i) response->add_results();
  // One count per item plus one for this handler, so the call finishes once,
  // after the last item and after the loop below.
  auto remaining = std::make_shared<std::atomic<size_t>>(n + 1);
  auto finish_one = [call, remaining] {
    if (remaining->fetch_sub(1) == 1) call->Done(grpc::Status::OK);
  };
  const absl::Time deadline = CallDeadline(ctx, options_.max_search_time);
  // Items go out in chunks, two per worker, so that every worker gets a
  // share while a batch of cheap searches does not pay one task each.
  const size_t tasks = 2 * static_cast<size_t>(search_->workers());
  const size_t chunk = std::max<size_t>(1, (n + tasks - 1) / tasks);
  using Item = std::pair<std::shared_ptr<PathJob>, v1::PathItemResult*>;
  std::vector<Item> pending;
  auto submit = [&] {
    if (pending.empty()) return;
    auto items = std::make_shared<std::vector<Item>>(std::move(pending));
    pending.clear();
    const bool queued =
        search_->TrySubmit([this, items, finish_one](SearchContext& context) {
          for (auto& [job, item] : *items) {
            SetItem(RunJob(*job, metrics_, context, item->mutable_path()), item);
            finish_one();
          }
        });
    if (!queued) {
      for (auto& [job, item] : *items) {
        SetItem(Overloaded(*search_), item);
        finish_one();
      }
    }
  };
  for (size_t i = 0; i < n; ++i) {
    v1::PathItemResult* item = response->mutable_results(static_cast<int>(i));
    auto job = std::make_shared<PathJob>();
    absl::Status s =
        MakeJob(request->items(static_cast<int>(i)), snapshot, deadline,
                call->cancelled(), absl::StrCat("items[", i, "]."), job.get());
    if (!s.ok()) {
      SetItem(s, item);
      finish_one();
      continue;
    }
    pending.emplace_back(std::move(job), item);
    if (pending.size() == chunk) submit();
  }
  submit();
  finish_one();
  return call;
}

grpc::ServerUnaryReactor* PathfindingService::FindGroupPaths(
    grpc::CallbackServerContext* ctx, const v1::GroupPathsRequest* request,
    v1::GroupPathsResponse* response) {
  auto* call = new UnaryCall(metrics_, "FindGroupPaths");
  std::shared_ptr<const MapSnapshot> snapshot =
      SnapshotOrFinish(*registry_, "map_id", request->map_id(), call);
  if (snapshot == nullptr) return call;
  if (static_cast<size_t>(request->starts_size()) > options_.max_group) {
    call->Done(absl::ResourceExhaustedError(absl::StrCat(
        "starts: ", request->starts_size(), " units, more than the limit of ",
        options_.max_group, " (--max_group)")));
    return call;
  }
  auto q = std::make_shared<GroupQuery>();
  for (const v1::Cell& c : request->starts()) q->starts.push_back({c.x(), c.y()});
  for (const v1::Cell& c : request->goals()) q->goals.push_back({c.x(), c.y()});
  absl::StatusOr<Algorithm> a = ToAlgorithm(request->algorithm(), "algorithm");
  absl::StatusOr<DiagonalPolicy> p =
      ToPolicy(request->diagonal(), "diagonal", snapshot->options.default_diagonal);
  if (!a.ok() || !p.ok()) {
    call->Done(!a.ok() ? a.status() : p.status());
    return call;
  }
  q->algorithm = *a;
  q->diagonal = *p;
  q->report_overhead = request->report_overhead();
  q->max_splice_distance = request->max_splice_distance() == 0
                               ? kDefaultSpliceDistance
                               : request->max_splice_distance();
  switch (request->method()) {
    case v1::GROUP_METHOD_AUTO:
      q->method = GroupMethod::kAuto;
      break;
    case v1::GROUP_METHOD_SPLICE:
      q->method = GroupMethod::kSplice;
      break;
    case v1::GROUP_METHOD_FLOW_FIELD:
      q->method = GroupMethod::kFlowField;
      break;
    default:
      call->Done(absl::InvalidArgumentError(
          absl::StrCat("method: unknown value ", request->method())));
      return call;
  }
  q->flow_field_min_units = request->flow_field_min_units() == 0
                                ? kDefaultFlowFieldMinUnits
                                : request->flow_field_min_units();
  // A cached field of the shared goal answers the whole group.
  std::shared_ptr<const FlowField> cached;
  FlowFieldKey key;
  if (q->goals.size() == 1 && q->method != GroupMethod::kSplice) {
    key = {snapshot->id, snapshot->version, q->goals[0], q->diagonal, 0};
    cached = flow_fields_->Find(key);
    q->flow_field = cached.get();
  }
  q->deadline = CallDeadline(ctx, options_.max_search_time);
  CancelFlag cancelled = call->cancelled();
  q->cancelled = cancelled.get();
  const absl::Time enqueued = absl::Now();
  const bool queued = search_->TrySubmit([this, call, q, snapshot, cancelled,
                                          response, enqueued, cached,
                                          key](SearchContext& context) {
    const absl::Time begin = absl::Now();
    GroupResult r;
    absl::Status s = gridstar::FindGroupPaths(snapshot->map, *q, context, &r);
    if (!s.ok()) {
      call->Done(s);
      return;
    }
    // Counted only for groups that followed a field, so that the hit ratio
    // is not diluted by spliced groups that never wanted one.
    if (r.used_flow_field) metrics_->FlowFieldLookup(cached != nullptr);
    if (r.computed_flow_field != nullptr) {
      flow_fields_->Insert(key, std::move(r.computed_flow_field));
    }
    response->set_flow_field(r.used_flow_field);
    response->set_flow_field_cached(r.used_flow_field && cached != nullptr);
    const double seconds = absl::ToDoubleSeconds(absl::Now() - begin);
    metrics_->QueueWait(absl::ToDoubleSeconds(begin - enqueued));
    for (const UnitPath& u : r.units) {
      v1::UnitPath* out = response->add_units();
      absl::Status us = u.status;
      if (absl::IsNotFound(us)) {
        us = absl::FailedPreconditionError(absl::StrCat("no path: ", us.message()));
      }
      out->set_code(static_cast<int>(us.code()));
      out->set_message(std::string(us.message()));
      out->set_spliced(u.spliced);
      out->set_independent_cost(u.independent_cost);
      if (!us.ok()) continue;
      v1::PathResponse* path = out->mutable_path();
      PackCells(u.path.cells, path->mutable_cells());
      path->set_cost(u.path.cost);
      path->set_expanded(u.path.expanded);
      path->set_map_version(snapshot->version);
      path->mutable_start()->set_x(u.path.cells.front().x);
      path->mutable_start()->set_y(u.path.cells.front().y);
      path->mutable_goal()->set_x(u.path.cells.back().x);
      path->mutable_goal()->set_y(u.path.cells.back().y);
    }
    metrics_->Search(absl::StrCat(AlgorithmName(q->algorithm), "_group"), "ok",
                     seconds, 0);
    response->set_searches(r.searches);
    response->set_spliced_units(r.spliced_units);
    response->set_mean_cost_overhead(r.mean_cost_overhead);
    response->set_max_cost_overhead(r.max_cost_overhead);
    response->set_queue_micros(absl::ToDoubleMicroseconds(begin - enqueued));
    response->set_search_micros(seconds * 1e6);
    call->Done(grpc::Status::OK);
  });
  if (!queued) call->Done(Overloaded(*search_));
  return call;
}

namespace {

// A bidirectional stream: each read becomes a task; answers are written in
// the order they finish, one write in flight at a time. At most
// max_stream_inflight tasks per stream: beyond that reading pauses, which
// pushes back on the client through gRPC flow control.
class StreamCall
    : public grpc::ServerBidiReactor<v1::StreamPathRequest, v1::StreamPathResponse> {
 public:
  StreamCall(PathfindingService* service, grpc::CallbackServerContext* ctx)
      : service_(service), ctx_(ctx), start_(absl::Now()),
        cancelled_(std::make_shared<std::atomic<bool>>(false)) {
    StartRead(&request_);
  }

  void OnReadDone(bool ok) override {
    if (!ok) {
      std::unique_lock<std::mutex> lock(mu_);
      reads_done_ = true;
      MaybeFinish(lock);
      return;
    }
    const uint64_t id = request_.request_id();
    const v1::PathRequest& r = request_.request();
    std::shared_ptr<const MapSnapshot> snapshot =
        service_->registry()->Find(r.map_id());
    auto job = std::make_shared<PathJob>();
    absl::Status s = snapshot == nullptr
                         ? UnknownMap("request.map_id", r.map_id())
                         : MakeJob(r, std::move(snapshot),
                                   CallDeadline(ctx_, service_->options().max_search_time),
                                   cancelled_, "request.", job.get());
    bool queued = false;
    if (s.ok()) {
      {
        std::lock_guard<std::mutex> lock(mu_);
        ++inflight_;
      }
      queued = service_->search()->TrySubmit([this, job, id](SearchContext& context) {
        v1::StreamPathResponse answer;
        answer.set_request_id(id);
        v1::PathItemResult* item = answer.mutable_result();
        SetItem(RunJob(*job, service_->metrics(), context, item->mutable_path()),
                item);
        Answer(std::move(answer), /*was_task=*/true);
      });
      if (!queued) {
        std::lock_guard<std::mutex> lock(mu_);
        --inflight_;
        s = Overloaded(*service_->search());
      }
    }
    if (!queued) {
      v1::StreamPathResponse answer;
      answer.set_request_id(id);
      SetItem(s, answer.mutable_result());
      Answer(std::move(answer), /*was_task=*/false);
    }
    bool read = false;
    {
      std::lock_guard<std::mutex> lock(mu_);
      if (inflight_ < service_->options().max_stream_inflight) {
        read = true;
      } else {
        read_paused_ = true;
      }
    }
    if (read) StartRead(&request_);
  }

  void OnWriteDone(bool ok) override {
    std::unique_lock<std::mutex> lock(mu_);
    writes_.pop_front();
    if (!ok) {
      write_failed_ = true;
      writes_.clear();
    }
    writing_ = !writes_.empty();
    v1::StreamPathResponse* next = writing_ ? &writes_.front() : nullptr;
    if (next != nullptr) {
      lock.unlock();
      StartWrite(next);
      return;
    }
    MaybeFinish(lock);
  }

  void OnCancel() override { cancelled_->store(true); }

  void OnDone() override {
    service_->metrics()->Request("FindPathsStream", "OK",
                                 absl::ToDoubleSeconds(absl::Now() - start_));
    delete this;
  }

 private:
  // Queues an answer; starts a write if none is in flight, and resumes
  // reading if it was paused for this task's slot.
  void Answer(v1::StreamPathResponse answer, bool was_task) {
    std::unique_lock<std::mutex> lock(mu_);
    if (was_task) --inflight_;
    bool resume = false;
    if (read_paused_ && inflight_ < service_->options().max_stream_inflight) {
      read_paused_ = false;
      resume = true;
    }
    v1::StreamPathResponse* to_write = nullptr;
    if (!write_failed_) {
      writes_.push_back(std::move(answer));
      if (!writing_) {
        writing_ = true;
        to_write = &writes_.front();
      }
    }
    if (to_write == nullptr && !resume) {
      MaybeFinish(lock);
      return;
    }
    lock.unlock();
    if (to_write != nullptr) StartWrite(to_write);
    if (resume) StartRead(&request_);
  }

  // Finishes once every read, task and write is done.
  void MaybeFinish(std::unique_lock<std::mutex>& lock) {
    if (!reads_done_ || inflight_ != 0 || writing_ || finished_) return;
    finished_ = true;
    lock.unlock();
    Finish(grpc::Status::OK);
  }

  PathfindingService* const service_;
  grpc::CallbackServerContext* const ctx_;
  const absl::Time start_;
  const CancelFlag cancelled_;
  v1::StreamPathRequest request_;  // The one read in flight.
  std::mutex mu_;
  std::deque<v1::StreamPathResponse> writes_;  // Front is being written.
  size_t inflight_ = 0;
  bool reads_done_ = false;
  bool read_paused_ = false;
  bool writing_ = false;
  bool write_failed_ = false;
  bool finished_ = false;
};

}  // namespace

grpc::ServerBidiReactor<v1::StreamPathRequest, v1::StreamPathResponse>*
PathfindingService::FindPathsStream(grpc::CallbackServerContext* ctx) {
  return new StreamCall(this, ctx);
}

grpc::ServerUnaryReactor* PathfindingService::ComputeFlowField(
    grpc::CallbackServerContext* ctx, const v1::FlowFieldRequest* request,
    v1::FlowFieldResponse* response) {
  auto* call = new UnaryCall(metrics_, "ComputeFlowField");
  std::shared_ptr<const MapSnapshot> snapshot =
      SnapshotOrFinish(*registry_, "map_id", request->map_id(), call);
  if (snapshot == nullptr) return call;
  const GridMap& map = snapshot->map;
  FlowFieldQuery fq;
  absl::Status s;
  absl::StatusOr<DiagonalPolicy> policy = ToPolicy(
      request->diagonal(), "diagonal", snapshot->options.default_diagonal);
  if (!request->has_goal()) {
    s = absl::InvalidArgumentError("goal: required");
  } else if (!policy.ok()) {
    s = policy.status();
  } else if (!(request->max_cost() >= 0) || !std::isfinite(request->max_cost())) {
    s = absl::InvalidArgumentError(absl::StrCat(
        "max_cost: ", request->max_cost(), " must be 0 (no bound) or positive"));
  } else {
    fq.goal = {request->goal().x(), request->goal().y()};
    s = map.CheckPassable("goal", fq.goal);
  }
  // Four bytes of cost and one of direction a cell, plus headers.
  const int64_t answer_bytes = map.cell_count() * 5 + 1024;
  if (s.ok() && answer_bytes > static_cast<int64_t>(options_.max_message_bytes)) {
    s = absl::ResourceExhaustedError(absl::StrCat(
        "map_id: the field of the ", map.width(), " x ", map.height(),
        " map takes ", answer_bytes, " bytes, over --max_message_bytes (",
        options_.max_message_bytes, ")"));
  }
  if (!s.ok()) {
    call->Done(s);
    return call;
  }
  fq.diagonal = *policy;
  fq.max_cost = request->max_cost();
  fq.deadline = CallDeadline(ctx, options_.max_search_time);
  CancelFlag cancelled = call->cancelled();
  fq.cancelled = cancelled.get();
  const FlowFieldKey key{snapshot->id, snapshot->version, fq.goal, fq.diagonal,
                         fq.max_cost};
  std::shared_ptr<const FlowField> cached = flow_fields_->Find(key);
  metrics_->FlowFieldLookup(cached != nullptr);
  const bool allow_partial = request->allow_partial();
  const absl::Time enqueued = absl::Now();
  // Packing a field is O(cells) too: it runs on a worker either way.
  const bool queued = search_->TrySubmit([this, call, snapshot, fq, key, cached,
                                          cancelled, allow_partial, response,
                                          enqueued](SearchContext& context) {
    const absl::Time begin = absl::Now();
    metrics_->QueueWait(absl::ToDoubleSeconds(begin - enqueued));
    std::shared_ptr<const FlowField> field = cached;
    if (field == nullptr) {
      absl::StatusOr<FlowField> computed =
          gridstar::ComputeFlowField(snapshot->map, fq, context);
      const double seconds = absl::ToDoubleSeconds(absl::Now() - begin);
      if (!computed.ok()) {
        metrics_->Search("flow_field", "error", seconds, 0);
        call->Done(computed.status());
        return;
      }
      field = std::make_shared<const FlowField>(*std::move(computed));
      metrics_->Search("flow_field",
                       Outcome(absl::OkStatus(), field->stop_reason()), seconds,
                       static_cast<uint64_t>(field->reached()));
      if (field->complete()) {
        flow_fields_->Insert(key, field);
      } else if (!allow_partial) {
        call->Done(field->stop_reason() == PartialReason::kCancelled
                       ? absl::CancelledError("the call was cancelled")
                       : absl::DeadlineExceededError(absl::StrCat(
                             "the deadline passed with ", field->reached(),
                             " cells of the field reached; set allow_partial "
                             "for them")));
        return;
      }
    }
    response->set_width(field->width());
    response->set_height(field->height());
    response->mutable_goal()->set_x(fq.goal.x);
    response->mutable_goal()->set_y(fq.goal.y);
    response->set_map_version(snapshot->version);
    response->set_diagonal(
        static_cast<v1::DiagonalPolicy>(static_cast<int>(fq.diagonal) + 1));
    google::protobuf::RepeatedField<float>* costs = response->mutable_costs();
    costs->Reserve(static_cast<int>(field->costs().size()));
    for (double c : field->costs()) {
      costs->AddAlreadyReserved(std::isinf(c) ? -1.0f : static_cast<float>(c));
    }
    response->set_directions(std::string(field->directions().begin(),
                                         field->directions().end()));
    response->set_reached_cells(field->reached());
    response->set_complete(field->complete());
    response->set_cached(cached != nullptr);
    response->set_queue_micros(absl::ToDoubleMicroseconds(begin - enqueued));
    response->set_search_micros(absl::ToDoubleMicroseconds(absl::Now() - begin));
    call->Done(grpc::Status::OK);
  });
  if (!queued) call->Done(Overloaded(*search_));
  return call;
}

}  // namespace gridstar::server
