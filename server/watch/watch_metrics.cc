#include "watch/watch_metrics.h"

#include <string>
#include <utility>

namespace gridstar::server {
namespace {

prometheus::Gauge* MakeGauge(prometheus::Registry& registry, const char* name,
                             const char* help) {
  return &prometheus::BuildGauge().Name(name).Help(help).Register(registry).Add(
      {});
}

prometheus::Counter* MakeCounter(prometheus::Registry& registry,
                                 const char* name, const char* help) {
  return &prometheus::BuildCounter()
              .Name(name)
              .Help(help)
              .Register(registry)
              .Add({});
}

}  // namespace

WatchMetrics::WatchMetrics(prometheus::Registry& registry) {
  agents_ = MakeGauge(registry, "gridstar_watch_agents",
                      "Agents watched by WatchPaths streams");
  streams_ = MakeGauge(registry, "gridstar_watch_streams",
                       "Open WatchPaths streams that have sent a request");
  memory_ = MakeGauge(registry, "gridstar_watch_memory_bytes",
                      "Memory of the watched agents, their paths and the "
                      "tile index");
  dstar_memory_ = MakeGauge(registry, "gridstar_watch_dstar_memory_bytes",
                            "Memory of the watched agents' D* Lite planners "
                            "(part of gridstar_watch_memory_bytes)");
  world_agents_ = MakeGauge(registry, "gridstar_watch_world_agents",
                            "Agents watched by WatchPaths streams that walk "
                            "worlds of linked maps (not in "
                            "gridstar_watch_agents)");
  world_memory_ = MakeGauge(registry, "gridstar_watch_world_memory_bytes",
                            "Memory of the world agents and their paths");
  repaired_ = MakeCounter(registry, "gridstar_watch_incremental_total",
                          "Replans answered by repairing the agent's D* "
                          "Lite search instead of a fresh search");
  checked_ = MakeCounter(registry, "gridstar_watch_checked_total",
                         "Agents looked at after map changes (their paths' "
                         "tiles held a changed cell)");
  crossing_ = MakeCounter(registry, "gridstar_watch_crossing_total",
                          "Agents whose remaining path crossed a changed "
                          "cell");
  auto& replans = prometheus::BuildCounter()
                      .Name("gridstar_watch_replans_total")
                      .Help("Searches for watched agents by reason")
                      .Register(registry);
  // The reasons a search is started for (MOVED, REMOVED and MAP_DELETED
  // never search), labelled by the proto's names in lower case.
  const std::pair<WatchReason, const char*> searched[] = {
      {WatchReason::kAdded, "added"},
      {WatchReason::kOffPath, "off_path"},
      {WatchReason::kRetargeted, "retargeted"},
      {WatchReason::kBlocked, "blocked"},
      {WatchReason::kCheaper, "cheaper"},
      {WatchReason::kReachable, "reachable"},
  };
  for (const auto& [reason, name] : searched) {
    replans_[static_cast<int>(reason)] = &replans.Add({{"reason", name}});
  }
  prometheus::Histogram::BucketBoundaries buckets;
  for (double v = 1e-4; v < 12; v *= 1.5) buckets.push_back(v);
  push_latency_ = &prometheus::BuildHistogram()
                       .Name("gridstar_watch_push_latency_seconds")
                       .Help("From a map change being applied to the pushed "
                             "path it caused being queued for its stream")
                       .Register(registry)
                       .Add({}, buckets);
  fell_behind_ = MakeCounter(registry, "gridstar_watch_streams_closed_total",
                             "WatchPaths streams closed because their "
                             "reader fell more than --watch_max_pending "
                             "events behind");
}

void WatchMetrics::SetState(size_t agents, size_t streams,
                            size_t memory_bytes, size_t dstar_bytes) {
  dstar_memory_->Set(static_cast<double>(dstar_bytes));
  agents_->Set(static_cast<double>(agents));
  streams_->Set(static_cast<double>(streams));
  memory_->Set(static_cast<double>(memory_bytes));
}

void WatchMetrics::SetWorldState(size_t agents, size_t memory_bytes) {
  world_agents_->Set(static_cast<double>(agents));
  world_memory_->Set(static_cast<double>(memory_bytes));
}

void WatchMetrics::Checked(uint64_t agents, uint64_t crossing) {
  checked_->Increment(static_cast<double>(agents));
  crossing_->Increment(static_cast<double>(crossing));
}

void WatchMetrics::Replan(WatchReason reason) {
  if (prometheus::Counter* c = replans_[static_cast<int>(reason)]) {
    c->Increment();
  }
}

}  // namespace gridstar::server
