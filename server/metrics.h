// Metrics: owns the Prometheus registry and hands out typed observations.
//
// Thread-safety: every method may be called from any thread (prometheus-cpp
// metrics are thread-safe; the label lookups take the family's mutex).
#ifndef GRIDSTAR_SERVER_METRICS_H_
#define GRIDSTAR_SERVER_METRICS_H_

#include <cstdint>
#include <memory>
#include <iterator>
#include <string>
#include <vector>

#include "absl/strings/string_view.h"
#include "prometheus/counter.h"
#include "prometheus/family.h"
#include "prometheus/gauge.h"
#include "prometheus/histogram.h"
#include "prometheus/registry.h"

namespace gridstar::server {

class Metrics {
 public:
  Metrics();

  std::shared_ptr<prometheus::Registry> registry() const { return registry_; }

  // An RPC began (counted in gridstar_requests_in_flight until Request
  // records its end).
  void RequestStarted() { in_flight_->Increment(); }
  // One finished RPC: its method, gRPC code name and wall time.
  void Request(absl::string_view method, absl::string_view code, double seconds);
  void QueueWait(double seconds);
  // One search: outcome is ok, partial, no_path, deadline, cancelled,
  // memory (over --max_search_nodes), error.
  void Search(absl::string_view algorithm, absl::string_view outcome,
              double seconds, uint64_t expanded);
  // The search queue's fixed capacity, for saturation ratios.
  void SetQueueCapacity(double tasks);
  // A flow-field cache lookup (ComputeFlowField, FindGroupPaths).
  void FlowFieldLookup(bool hit);
  // A store write that failed outside a call (a background compaction).
  void StoreError(absl::string_view operation);
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
  prometheus::Gauge* in_flight_;
  prometheus::Family<prometheus::Counter>* store_errors_;

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
};

}  // namespace gridstar::server

#endif  // GRIDSTAR_SERVER_METRICS_H_
