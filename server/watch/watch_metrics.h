// WatchMetrics: the Prometheus series of WatchPaths (watch_hub.h), in the
// service's registry: watched agents and streams, the hub's memory, agents
// checked and crossing per change, replans by reason, update-to-push
// latency, and streams closed for reading too slowly.
//
// Thread-safety: every method may be called from any thread.
#ifndef GRIDSTAR_SERVER_WATCH_WATCH_METRICS_H_
#define GRIDSTAR_SERVER_WATCH_WATCH_METRICS_H_

#include <cstddef>
#include <cstdint>

#include "prometheus/counter.h"
#include "prometheus/gauge.h"
#include "prometheus/histogram.h"
#include "prometheus/registry.h"
#include "watch/watch_events.h"

namespace gridstar::server {

class WatchMetrics {
 public:
  explicit WatchMetrics(prometheus::Registry& registry);

  void SetState(size_t agents, size_t streams, size_t memory_bytes,
                size_t dstar_bytes);
  // The agents that walk worlds (world_watch.h) and their memory.
  void SetWorldState(size_t agents, size_t memory_bytes);
  // A replan answered by a D* Lite repair.
  void Repaired() { repaired_->Increment(); }
  // One change of a watched map: agents looked at (their tiles hold a
  // changed cell) and those whose remaining path crosses a changed cell.
  void Checked(uint64_t agents, uint64_t crossing);
  // A search started for an agent, by the reason its answer will carry.
  void Replan(WatchReason reason);
  // A push queued `seconds` after the change that caused it was applied.
  void PushLatency(double seconds) { push_latency_->Observe(seconds); }
  // A stream closed because its reader fell too far behind.
  void StreamFellBehind() { fell_behind_->Increment(); }

 private:
  prometheus::Gauge* agents_;
  prometheus::Gauge* streams_;
  prometheus::Gauge* memory_;
  prometheus::Gauge* dstar_memory_;
  prometheus::Gauge* world_agents_;
  prometheus::Gauge* world_memory_;
  prometheus::Counter* repaired_;
  prometheus::Counter* checked_;
  prometheus::Counter* crossing_;
  prometheus::Counter* replans_[kWatchReasons] = {};
  prometheus::Histogram* push_latency_;
  prometheus::Counter* fell_behind_;
};

}  // namespace gridstar::server

#endif  // GRIDSTAR_SERVER_WATCH_WATCH_METRICS_H_
