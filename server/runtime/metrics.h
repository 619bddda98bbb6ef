// Metrics: owns the Prometheus registry and hands out typed observations.
//
// Thread-safety: every method may be called from any thread (prometheus-cpp
// metrics are thread-safe; the label lookups take the family's mutex).
#ifndef GRIDSTAR_SERVER_METRICS_H_
#define GRIDSTAR_SERVER_METRICS_H_

#include <atomic>
#include <cstdint>
#include <iterator>
#include <map>
#include <memory>
#include <mutex>
#include <string>
#include <utility>
#include <vector>

#include "absl/strings/string_view.h"
#include "maps/map_registry.h"
#include "prometheus/counter.h"
#include "prometheus/family.h"
#include "prometheus/gauge.h"
#include "prometheus/histogram.h"
#include "prometheus/registry.h"
#include "store/timed_store.h"

namespace gridstar::server {

class Metrics {
 public:
  Metrics();

  std::shared_ptr<prometheus::Registry> registry() const { return registry_; }

  // An RPC began (counted in gridstar_requests_in_flight until Request
  // records its end).
  void RequestStarted() { in_flight_->Increment(); }
  // One finished RPC: its method, gRPC status code (0..16) and wall time.
  // The series of each (method, code) are looked up once, then kept.
  void Request(absl::string_view method, int code, double seconds);
  void QueueWait(double seconds);
  // One search: outcome is ok, partial, no_path, deadline, cancelled,
  // memory (over --max_search_nodes), error.
  void Search(absl::string_view algorithm, absl::string_view outcome,
              double seconds, uint64_t expanded);
  // The search queue's fixed capacity, for saturation ratios.
  void SetQueueCapacity(double tasks);
  // Whether map and link updates run at real-time priority
  // (--update_thread_realtime granted).
  void SetUpdateThreadRealtime(bool realtime);
  // A flow-field cache lookup (ComputeFlowField, FindGroupPaths).
  void FlowFieldLookup(bool hit);
  // A store write that failed outside a call (a background compaction).
  void StoreError(absl::string_view operation);
  // One store write made durable (or failed), by kind, and its wall time
  // (TimedStore).
  void StoreWriteTime(StoreWrite write, double seconds) {
    store_writes_[static_cast<int>(write)]->Observe(seconds);
  }
  // A map brought over from the shared store (StoreFollower).
  void StoreFollowed(const MapRegistry::Followed& what);
  // Every held map's versions behind the shared store (StoreFollower's
  // measurement): one gauge per map, those of maps no longer held removed.
  void SetStoreLags(const std::vector<std::pair<std::string, uint64_t>>& lags);
  // A background job that finished what updates left pending
  // (MapRegistry::RebuildPending): ok, or error (that version runs without
  // the structure; the next update claims the job again).
  void BackgroundRebuild(bool ok) {
    (ok ? rebuilds_ok_ : rebuilds_error_)->Increment();
  }
  // A re-read of the token files (SIGHUP): ok, or error (old keys kept).
  void KeyReload(bool ok) {
    (ok ? key_reloads_ok_ : key_reloads_error_)->Increment();
  }
  // A FindPath tried on the gRPC thread (inline_searches.h): answered there,
  // or handed on to a worker (too expensive, or no inline context free).
  void InlineSearch(bool answered) {
    (answered ? inline_answered_ : inline_handed_on_)->Increment();
  }
  void SetState(double maps, double cells, double map_bytes, double queue_depth,
                double busy_workers, double context_bytes,
                double flow_field_cache_bytes);

 private:
  std::shared_ptr<prometheus::Registry> registry_;
  prometheus::Family<prometheus::Histogram>* request_seconds_;
  prometheus::Family<prometheus::Counter>* requests_;
  prometheus::Histogram* queue_wait_;
  prometheus::Family<prometheus::Histogram>* search_seconds_;
  prometheus::Family<prometheus::Counter>* searches_;
  prometheus::Histogram* expansions_;
  prometheus::Gauge* maps_;
  prometheus::Gauge* cells_;
  prometheus::Gauge* map_bytes_;
  prometheus::Gauge* queue_depth_;
  prometheus::Gauge* busy_workers_;
  prometheus::Gauge* context_bytes_;
  prometheus::Counter* flow_field_hits_;
  prometheus::Counter* flow_field_misses_;
  prometheus::Gauge* flow_field_bytes_;
  prometheus::Gauge* queue_capacity_;
  prometheus::Gauge* update_thread_realtime_;
  prometheus::Gauge* in_flight_;
  prometheus::Family<prometheus::Counter>* store_errors_;
  prometheus::Counter* followed_updates_;
  prometheus::Counter* followed_contents_;
  prometheus::Counter* followed_drops_;
  prometheus::Histogram* follow_lag_versions_;
  prometheus::Family<prometheus::Gauge>* store_lag_;
  std::mutex store_lag_mu_;  // Guards store_lag_series_.
  std::map<std::string, prometheus::Gauge*> store_lag_series_;
  prometheus::Histogram* load_seconds_;
  prometheus::Histogram* store_writes_[std::size(kStoreWrites)];  // By kind.
  prometheus::Counter* rebuilds_ok_;
  prometheus::Counter* rebuilds_error_;
  prometheus::Counter* key_reloads_ok_;
  prometheus::Counter* key_reloads_error_;
  prometheus::Counter* inline_answered_;
  prometheus::Counter* inline_handed_on_;

  // Handles made once for every algorithm and outcome of single searches:
  // the hot path finds them by a short scan, without the families' locks.
  static constexpr absl::string_view kOutcomes[] = {
      "ok", "partial", "no_path", "deadline", "cancelled", "memory", "error"};
  struct SearchHandles {
    absl::string_view algorithm;
    prometheus::Histogram* seconds;
    prometheus::Counter* outcomes[std::size(kOutcomes)];
  };
  std::vector<SearchHandles> search_handles_;

  // The request series of each known method and code, made on first use
  // (so /metrics shows only what happened, as before) and then read without
  // the families' locks.
  static constexpr absl::string_view kMethods[] = {
      "RegisterMap",     "UpdateCells",      "GetMap",    "ListMaps",
      "DeleteMap",       "FindPath",         "FindPaths", "FindGroupPaths",
      "FindPathsStream", "ComputeFlowField", "WatchPaths", "RegisterWorld",
      "UpdateLinks",     "GetWorld",         "ListWorlds", "DeleteWorld",
      "FindWorldPath",   "FindWorldPaths"};
  static constexpr int kCodes = 17;
  struct RequestHandles {
    prometheus::Histogram* seconds;
    prometheus::Counter* count;
  };
  RequestHandles RequestSeries(absl::string_view method, int code);
  std::mutex request_series_mu_;  // Serialises making a (method, code) pair.
  std::atomic<RequestHandles*> request_series_[std::size(kMethods)][kCodes] =
      {};
  std::vector<std::unique_ptr<RequestHandles>> request_series_owned_;
};

}  // namespace gridstar::server

#endif  // GRIDSTAR_SERVER_METRICS_H_
