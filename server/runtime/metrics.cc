#include "runtime/metrics.h"

#include <cmath>
#include <string>

#include "convert/convert.h"
#include "gridstar/types.h"

namespace gridstar::server {
namespace {

// 5 us to about 10 s, 1.5x apart: fine enough to read a p99 of tens of
// microseconds.
prometheus::Histogram::BucketBoundaries TimeBuckets() {
  prometheus::Histogram::BucketBoundaries b;
  for (double v = 5e-6; v < 12; v *= 1.5) b.push_back(v);
  return b;
}

prometheus::Histogram::BucketBoundaries ExpansionBuckets() {
  prometheus::Histogram::BucketBoundaries b;
  for (double v = 1; v < 1e8; v *= 2) b.push_back(v);
  return b;
}

const prometheus::Histogram::BucketBoundaries& SharedTimeBuckets() {
  static const auto* buckets =
      new prometheus::Histogram::BucketBoundaries(TimeBuckets());
  return *buckets;
}

}  // namespace

Metrics::Metrics() : registry_(std::make_shared<prometheus::Registry>()) {
  request_seconds_ = &prometheus::BuildHistogram()
                          .Name("gridstar_request_duration_seconds")
                          .Help("Wall time of RPCs by method and status code")
                          .Register(*registry_);
  requests_ = &prometheus::BuildCounter()
                   .Name("gridstar_requests_total")
                   .Help("RPCs by method and status code")
                   .Register(*registry_);
  queue_wait_ = &prometheus::BuildHistogram()
                     .Name("gridstar_queue_wait_seconds")
                     .Help("Time a search task waited for a worker")
                     .Register(*registry_)
                     .Add({}, TimeBuckets());
  search_seconds_ = &prometheus::BuildHistogram()
                         .Name("gridstar_search_duration_seconds")
                         .Help("Time of one search by algorithm")
                         .Register(*registry_);
  searches_ = &prometheus::BuildCounter()
                   .Name("gridstar_searches_total")
                   .Help("Searches by algorithm and outcome")
                   .Register(*registry_);
  expansions_ = &prometheus::BuildHistogram()
                     .Name("gridstar_search_expansions")
                     .Help("Cells expanded per search")
                     .Register(*registry_)
                     .Add({}, ExpansionBuckets());
  auto gauge = [this](const char* name, const char* help) {
    return &prometheus::BuildGauge()
                .Name(name)
                .Help(help)
                .Register(*registry_)
                .Add({});
  };
  maps_ = gauge("gridstar_maps", "Registered maps");
  cells_ = gauge("gridstar_map_cells", "Cells of all registered maps");
  map_bytes_ = gauge("gridstar_map_memory_bytes",
                     "Memory of the registered maps and their derived data");
  queue_depth_ = gauge("gridstar_queue_depth", "Search tasks waiting");
  busy_workers_ = gauge("gridstar_busy_workers", "Workers running a task");
  context_bytes_ = gauge("gridstar_search_context_memory_bytes",
                         "Memory of the workers' search contexts");
  flow_field_bytes_ = gauge("gridstar_flow_field_cache_bytes",
                            "Memory of the cached flow fields");
  queue_capacity_ = gauge("gridstar_queue_capacity",
                          "Search tasks the queue holds before shedding load");
  update_thread_realtime_ =
      gauge("gridstar_update_thread_realtime",
            "1 when map and link updates run at real-time priority "
            "(--update_thread_realtime granted), else 0");
  in_flight_ = gauge("gridstar_requests_in_flight",
                     "RPCs begun and not yet finished (streams included)");
  for (Algorithm a : kAllAlgorithms) {
    SearchHandles h;
    h.algorithm = AlgorithmName(a);
    const std::string name(h.algorithm);
    h.seconds =
        &search_seconds_->Add({{"algorithm", name}}, SharedTimeBuckets());
    for (size_t o = 0; o < std::size(kOutcomes); ++o) {
      h.outcomes[o] = &searches_->Add(
          {{"algorithm", name}, {"outcome", std::string(kOutcomes[o])}});
    }
    search_handles_.push_back(h);
  }
  auto& lookups = prometheus::BuildCounter()
                      .Name("gridstar_flow_field_cache_lookups_total")
                      .Help("Flow-field cache lookups by result (hit, miss)")
                      .Register(*registry_);
  flow_field_hits_ = &lookups.Add({{"result", "hit"}});
  flow_field_misses_ = &lookups.Add({{"result", "miss"}});
  store_errors_ = &prometheus::BuildCounter()
                       .Name("gridstar_store_errors_total")
                       .Help(
                           "Failed map store calls outside a call, by "
                           "operation (compact: a background compaction; "
                           "follow: reading other replicas' writes)")
                       .Register(*registry_);
  // Present from the start, so that dashboards read 0, not "no data".
  store_errors_->Add({{"operation", "compact"}});
  store_errors_->Add({{"operation", "follow"}});
  auto& followed =
      prometheus::BuildCounter()
          .Name("gridstar_store_followed_total")
          .Help(
              "Maps brought over from the shared store after writes through "
              "other replicas, by kind (updates: applied from the stream; "
              "content: loaded whole; drop: deleted there)")
          .Register(*registry_);
  followed_updates_ = &followed.Add({{"kind", "updates"}});
  followed_contents_ = &followed.Add({{"kind", "content"}});
  followed_drops_ = &followed.Add({{"kind", "drop"}});
  follow_lag_versions_ =
      &prometheus::BuildHistogram()
           .Name("gridstar_store_follow_lag_versions")
           .Help(
               "Versions a map held here was behind the shared store when "
               "its writes were brought over (1: each update as it came)")
           .Register(*registry_)
           .Add({}, prometheus::Histogram::BucketBoundaries{1, 2, 4, 8, 16, 64,
                                                            256, 1024});
  store_lag_ = &prometheus::BuildGauge()
                    .Name("gridstar_store_lag_versions")
                    .Help(
                        "Versions a map held here is behind the shared store, "
                        "by map, measured every 5 s after the follower's pass "
                        "(not 0: following it fails, see "
                        "gridstar_store_errors_total{operation=\"follow\"})")
                    .Register(*registry_);
  load_seconds_ =
      &prometheus::BuildHistogram()
           .Name("gridstar_store_load_seconds")
           .Help(
               "Time to load a map whole from the shared store (read and "
               "build): first uses, replacements, catch-ups past a "
               "compaction")
           .Register(*registry_)
           .Add({}, prometheus::Histogram::BucketBoundaries{
                        0.001, 0.004, 0.016, 0.064, 0.25, 1, 4, 16, 64});
  auto& store_writes =
      prometheus::BuildHistogram()
          .Name("gridstar_store_write_seconds")
          .Help(
              "Time the store took to make a write durable (the data "
              "directory's fdatasync, or Redis's answer), by write: map "
              "(registered or replaced), update (UpdateCells), world "
              "(registered, replaced, links changed), delete, compact (a "
              "map's updates folded in, after the answer)")
          .Register(*registry_);
  for (StoreWrite w : kStoreWrites) {
    store_writes_[static_cast<int>(w)] =
        &store_writes.Add({{"write", StoreWriteName(w)}}, SharedTimeBuckets());
  }
  auto& repairs =
      prometheus::BuildCounter()
          .Name("gridstar_background_rebuilds_total")
          .Help(
              "Background jobs that finished the structures updates left "
              "pending (jump tables, landmarks, subgoal graphs, agent maps), "
              "by result (error: that version runs without them)")
          .Register(*registry_);
  rebuilds_ok_ = &repairs.Add({{"result", "ok"}});
  rebuilds_error_ = &repairs.Add({{"result", "error"}});
  auto& reloads = prometheus::BuildCounter()
                      .Name("gridstar_key_reloads_total")
                      .Help(
                          "Re-reads of the token files on SIGHUP by result "
                          "(ok; error: the old keys were kept)")
                      .Register(*registry_);
  key_reloads_ok_ = &reloads.Add({{"result", "ok"}});
  key_reloads_error_ = &reloads.Add({{"result", "error"}});
  auto& inline_searches =
      prometheus::BuildCounter()
          .Name("gridstar_inline_searches_total")
          .Help(
              "FindPath searches tried on the gRPC thread by result (answered; "
              "handed_on: too expensive or no inline context free, queued "
              "for a worker)")
          .Register(*registry_);
  inline_answered_ = &inline_searches.Add({{"result", "answered"}});
  inline_handed_on_ = &inline_searches.Add({{"result", "handed_on"}});
}

void Metrics::StoreFollowed(const MapRegistry::Followed& what) {
  using Kind = MapRegistry::Followed::Kind;
  switch (what.kind) {
    case Kind::kUpdates:
      followed_updates_->Increment();
      break;
    case Kind::kContent:
      followed_contents_->Increment();
      load_seconds_->Observe(what.load_seconds);
      break;
    case Kind::kDropped:
      followed_drops_->Increment();
      return;
    case Kind::kNothing:
      return;
  }
  follow_lag_versions_->Observe(static_cast<double>(what.versions_behind));
}

void Metrics::SetStoreLags(
    const std::vector<std::pair<std::string, uint64_t>>& lags) {
  std::lock_guard<std::mutex> lock(store_lag_mu_);
  std::map<std::string, prometheus::Gauge*> now;
  for (const auto& [id, versions] : lags) {
    auto it = store_lag_series_.find(id);
    prometheus::Gauge* gauge = nullptr;
    if (it != store_lag_series_.end()) {
      gauge = it->second;
      store_lag_series_.erase(it);
    } else {
      gauge = &store_lag_->Add({{"map", id}});
    }
    gauge->Set(static_cast<double>(versions));
    now.emplace(id, gauge);
  }
  for (const auto& [id, gauge] : store_lag_series_) store_lag_->Remove(gauge);
  store_lag_series_ = std::move(now);
}

void Metrics::StoreError(absl::string_view operation) {
  store_errors_->Add({{"operation", std::string(operation)}}).Increment();
}

void Metrics::SetQueueCapacity(double tasks) { queue_capacity_->Set(tasks); }

void Metrics::SetUpdateThreadRealtime(bool realtime) {
  update_thread_realtime_->Set(realtime ? 1 : 0);
}

void Metrics::FlowFieldLookup(bool hit) {
  (hit ? flow_field_hits_ : flow_field_misses_)->Increment();
}

Metrics::RequestHandles Metrics::RequestSeries(absl::string_view method,
                                               int code) {
  if (code < 0 || code >= kCodes)
    code = static_cast<int>(grpc::StatusCode::UNKNOWN);
  size_t m = 0;
  while (m < std::size(kMethods) && kMethods[m] != method) ++m;
  std::atomic<RequestHandles*>* slot =
      m < std::size(kMethods) ? &request_series_[m][code] : nullptr;
  if (slot != nullptr) {
    if (RequestHandles* h = slot->load(std::memory_order_acquire)) return *h;
  }
  const std::map<std::string, std::string> labels = {
      {"method", std::string(method)},
      {"code", convert::CodeName(static_cast<grpc::StatusCode>(code))}};
  // The families make each series once and return it after.
  const RequestHandles found{
      &request_seconds_->Add(labels, SharedTimeBuckets()),
      &requests_->Add(labels)};
  if (slot != nullptr) {
    std::lock_guard<std::mutex> lock(request_series_mu_);
    if (slot->load(std::memory_order_acquire) == nullptr) {
      request_series_owned_.push_back(std::make_unique<RequestHandles>(found));
      slot->store(request_series_owned_.back().get(),
                  std::memory_order_release);
    }
  }
  return found;
}

void Metrics::Request(absl::string_view method, int code, double seconds) {
  const RequestHandles h = RequestSeries(method, code);
  h.seconds->Observe(seconds);
  h.count->Increment();
  in_flight_->Decrement();
}

void Metrics::QueueWait(double seconds) { queue_wait_->Observe(seconds); }

void Metrics::Search(absl::string_view algorithm, absl::string_view outcome,
                     double seconds, uint64_t expanded) {
  expansions_->Observe(static_cast<double>(expanded));
  for (const SearchHandles& h : search_handles_) {
    if (h.algorithm != algorithm) continue;
    for (size_t o = 0; o < std::size(kOutcomes); ++o) {
      if (kOutcomes[o] != outcome) continue;
      h.seconds->Observe(seconds);
      h.outcomes[o]->Increment();
      return;
    }
  }
  // Other labels (groups, flow fields): through the families.
  search_seconds_
      ->Add({{"algorithm", std::string(algorithm)}}, SharedTimeBuckets())
      .Observe(seconds);
  searches_
      ->Add({{"algorithm", std::string(algorithm)},
             {"outcome", std::string(outcome)}})
      .Increment();
}

void Metrics::SetState(double maps, double cells, double map_bytes,
                       double queue_depth, double busy_workers,
                       double context_bytes, double flow_field_cache_bytes) {
  maps_->Set(maps);
  cells_->Set(cells);
  map_bytes_->Set(map_bytes);
  queue_depth_->Set(queue_depth);
  busy_workers_->Set(busy_workers);
  context_bytes_->Set(context_bytes);
  flow_field_bytes_->Set(flow_field_cache_bytes);
}

}  // namespace gridstar::server
