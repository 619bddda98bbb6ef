// The subgoal graph as gridstar/engines/subgoal.h offers it to code outside the
// engines: built, shared and asked about on a map (Algorithm::kSubgoal's
// attachment).

#include <functional>
#include <memory>
#include <utility>

#include "absl/strings/str_cat.h"
#include "engines/subgoal/subgoal_graph.h"
#include "gridstar/engines/subgoal.h"
#include "gridstar/grid_map.h"

namespace gridstar {

using internal::SubgoalGraph;
using internal::SubgoalGraphOf;

absl::Status BuildSubgoalGraph(GridMap* map) {
  return internal::BuildSubgoalGraphUnless(map, nullptr);
}

namespace internal {

absl::Status BuildSubgoalGraphUnless(GridMap* map,
                                     const std::function<bool()>& abandon) {
  if (!map->uniform_cost()) {
    return absl::FailedPreconditionError(
        "subgoal_graph: the map has cells of different costs (subgoal graphs "
        "need one cost)");
  }
  std::shared_ptr<const SubgoalGraph> graph =
      SubgoalGraph::Build(*map, abandon);
  if (graph == nullptr) {
    return absl::CancelledError(
        "subgoal_graph: build abandoned (a newer version of the map made it "
        "moot)");
  }
  map->Attach(Algorithm::kSubgoal, std::move(graph));
  return absl::OkStatus();
}

}  // namespace internal

void ShareSubgoalGraph(const GridMap& from, GridMap* to) {
  to->Attach(Algorithm::kSubgoal, from.shared_attachment(Algorithm::kSubgoal));
}

bool HasSubgoalGraph(const GridMap& map) {
  return SubgoalGraphOf(map) != nullptr;
}

size_t SubgoalGraphBytes(const GridMap& map) {
  return internal::HeldBytesOf(map, Algorithm::kSubgoal);
}

size_t SubgoalGraphNodes(const GridMap& map) {
  const SubgoalGraph* graph = SubgoalGraphOf(map);
  return graph == nullptr ? 0 : graph->node_count();
}

size_t SubgoalGraphEdges(const GridMap& map) {
  const SubgoalGraph* graph = SubgoalGraphOf(map);
  return graph == nullptr ? 0 : graph->edge_count();
}

size_t SubgoalGraphBytesFor(const GridMap& map) {
  if (!map.uniform_cost()) return 0;
  return internal::SubgoalGraphBytesForCount(map, internal::CountSubgoals(map));
}

bool SubgoalGraphEquals(const GridMap& a, const GridMap& b) {
  const SubgoalGraph* x = SubgoalGraphOf(a);
  const SubgoalGraph* y = SubgoalGraphOf(b);
  if (x == nullptr || y == nullptr) return x == y;
  return x->SameAs(*y);
}

namespace {

// The subgoal graph (engines/subgoal/subgoal_graph.h) on uniform-cost maps.
class SubgoalGraphDerived final : public DerivedStructure {
 public:
  SubgoalGraphDerived(bool defer, std::function<bool()> abandon)
      : defer_(defer), abandon_(std::move(abandon)) {}
  absl::string_view name() const override { return kSubgoalGraphName; }
  size_t HeldBytes(const GridMap& map) const override {
    return SubgoalGraphBytes(map);
  }
  bool AppliesTo(const GridMap& map) const override {
    return map.uniform_cost();
  }
  size_t BytesFor(const GridMap& map) const override {
    return AppliesTo(map) ? SubgoalGraphBytesFor(map) : 0;
  }
  absl::StatusOr<DerivedOutcome> Build(GridMap* map) const override {
    if (!AppliesTo(*map)) return DerivedOutcome::kAbsent;
    if (absl::Status s = internal::BuildSubgoalGraphUnless(map, abandon_);
        !s.ok()) {
      return s;
    }
    return DerivedOutcome::kBuilt;
  }
  absl::StatusOr<DerivedOutcome> Repair(const GridMap& previous,
                                        const ChangeSummary& summary,
                                        GridMap* next) const override {
    if (!AppliesTo(*next)) return DerivedOutcome::kAbsent;
    if (summary.cells_changed == 0 && HasSubgoalGraph(previous)) {
      ShareSubgoalGraph(previous, next);
      return DerivedOutcome::kKept;
    }
    if (defer_) return DerivedOutcome::kDeferred;
    return Build(next);
  }
  void Share(const GridMap& from, GridMap* to) const override {
    ShareSubgoalGraph(from, to);
  }

 private:
  const bool defer_;
  const std::function<bool()> abandon_;
};

}  // namespace

namespace internal {

size_t CountSubgoals(const GridMap& map) {
  const int32_t pw = map.padded_width();
  const int32_t ph = map.height() + 2;
  const uint8_t* costs = map.padded_costs();
  size_t subgoals = 0;
  for (int32_t y = 1; y < ph - 1; ++y) {
    const uint8_t* row = costs + static_cast<size_t>(y) * pw;
    for (int32_t x = 1; x < pw - 1; ++x) {
      if (row[x] != 0 && IsConvexCorner(row, static_cast<size_t>(x), pw)) {
        ++subgoals;
      }
    }
  }
  return subgoals;
}

size_t SubgoalGraphBytesForCount(const GridMap& map, size_t subgoals) {
  const int32_t pw = map.padded_width();
  const int32_t ph = map.height() + 2;
  // Row stop lines and the subgoal bits with their word counts, column
  // stop lines.
  const size_t lines = (static_cast<size_t>(pw) + 63) / 64 * ph * (8 + 8 + 4) +
                       (static_cast<size_t>(ph) + 63) / 64 * pw * 8;
  return lines + subgoals * (3 * sizeof(uint32_t) +
                             kSubgoalLandmarks * sizeof(float) +
                             80 * sizeof(uint32_t));
}

std::unique_ptr<const DerivedStructure> SubgoalGraphStructure(
    const DerivedOptions& options) {
  if (!options.Asks(kSubgoalGraphName)) return nullptr;
  return std::make_unique<SubgoalGraphDerived>(options.defer_slow_repairs,
                                               options.abandon);
}

}  // namespace internal

}  // namespace gridstar
