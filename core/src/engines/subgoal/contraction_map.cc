// The contraction hierarchy as gridstar/engines/subgoal.h offers it to code
// outside the engines: built, shared and asked about on a map
// (Algorithm::kContraction's attachment), and its DerivedStructure.

#include <cstdint>
#include <functional>
#include <memory>
#include <utility>

#include "absl/strings/str_format.h"
#include "engines/subgoal/contraction.h"
#include "engines/subgoal/subgoal_graph.h"
#include "gridstar/engines/subgoal.h"
#include "gridstar/grid_map.h"
#include "map/attachment.h"

namespace gridstar {

using internal::ContractionHierarchy;
using internal::ContractionOf;

absl::Status BuildContraction(GridMap* map) {
  return internal::BuildContractionUnless(map, nullptr);
}

namespace internal {

double EdgePairs(const SubgoalGraph& graph) {
  double pairs = 0;
  for (uint32_t v = 0; v < graph.node_count(); ++v) {
    const double edges =
        static_cast<double>(graph.EdgesEnd(v) - graph.EdgesBegin(v));
    pairs += edges * edges;
  }
  return pairs;
}

absl::Status BuildContractionUnless(GridMap* map,
                                    const std::function<bool()>& abandon,
                                    double max_edge_pairs) {
  if (!map->uniform_cost()) {
    return absl::FailedPreconditionError(
        "contraction_hierarchy: the map has cells of different costs "
        "(subgoal graphs need one cost)");
  }
  std::shared_ptr<const internal::SubgoalGraph> graph =
      internal::SharedAttachedTo<internal::SubgoalGraph>(*map,
                                                         Algorithm::kSubgoal);
  const bool own = graph == nullptr;
  if (own) graph = internal::SubgoalGraph::Build(*map, abandon);
  // Contraction visits at least every pair of edges at a corner (the
  // redundant-edge pass, then the shortcut pairs): a graph with too many is
  // refused at once rather than contracted for longer than any registration
  // can wait.
  if (graph != nullptr) {
    if (const double pairs = EdgePairs(*graph); pairs > max_edge_pairs) {
      return absl::ResourceExhaustedError(absl::StrFormat(
          "contraction_hierarchy: the map's subgoal graph joins its %u "
          "corners by %u edges, %.3g pairs of edges at a shared corner, more "
          "than the %.3g the tier contracts (open maps join each corner to "
          "many others); register the map without it: auto runs jps+ or the "
          "subgoal graph there",
          graph->node_count(), static_cast<uint64_t>(graph->edge_count() / 2),
          pairs, max_edge_pairs));
    }
  }
  // Null when either build was abandoned.
  std::shared_ptr<const ContractionHierarchy> ch =
      graph == nullptr
          ? nullptr
          : ContractionHierarchy::Build(*map, std::move(graph), own, abandon);
  if (ch == nullptr) {
    return absl::CancelledError(
        "contraction_hierarchy: build abandoned (a newer version of the map "
        "made it moot)");
  }
  map->Attach(Algorithm::kContraction, std::move(ch));
  return absl::OkStatus();
}

}  // namespace internal

void ShareContraction(const GridMap& from, GridMap* to) {
  to->Attach(Algorithm::kContraction,
             from.shared_attachment(Algorithm::kContraction));
}

bool HasContraction(const GridMap& map) {
  return ContractionOf(map) != nullptr;
}

size_t ContractionBytes(const GridMap& map) {
  return internal::HeldBytesOf(map, Algorithm::kContraction);
}

size_t ContractionArcs(const GridMap& map) {
  const ContractionHierarchy* ch = ContractionOf(map);
  return ch == nullptr ? 0 : ch->arc_count();
}

size_t ContractionShortcuts(const GridMap& map) {
  const ContractionHierarchy* ch = ContractionOf(map);
  return ch == nullptr ? 0 : ch->shortcut_count();
}

size_t ContractionBytesFor(const GridMap& map) {
  if (!map.uniform_cost()) return 0;
  // The shared maps keep 1.8 (maze512-1) to 14 (Enigma) upward arcs a
  // subgoal: 32 is the estimate.
  const size_t subgoals = internal::CountSubgoals(map);
  return internal::SubgoalGraphBytesForCount(map, subgoals) +
         subgoals * 32 * sizeof(ContractionHierarchy::Arc);
}

bool ContractionEquals(const GridMap& a, const GridMap& b) {
  const ContractionHierarchy* x = ContractionOf(a);
  const ContractionHierarchy* y = ContractionOf(b);
  if (x == nullptr || y == nullptr) return x == y;
  return x->SameAs(*y);
}

namespace {

// The contraction hierarchy (engines/subgoal/contraction.h) on uniform-cost
// maps. Rebuilt whole after an update that changes cells (in the background
// when the owner defers slow repairs).
class ContractionDerived final : public DerivedStructure {
 public:
  ContractionDerived(bool defer, std::function<bool()> abandon)
      : defer_(defer), abandon_(std::move(abandon)) {}
  absl::string_view name() const override { return kContractionName; }
  size_t HeldBytes(const GridMap& map) const override {
    return ContractionBytes(map);
  }
  bool AppliesTo(const GridMap& map) const override {
    return map.uniform_cost();
  }
  size_t BytesFor(const GridMap& map) const override {
    return AppliesTo(map) ? ContractionBytesFor(map) : 0;
  }
  absl::StatusOr<DerivedOutcome> Build(GridMap* map) const override {
    if (!AppliesTo(*map)) return DerivedOutcome::kAbsent;
    if (absl::Status s = internal::BuildContractionUnless(map, abandon_);
        !s.ok()) {
      return s;
    }
    return DerivedOutcome::kBuilt;
  }
  absl::StatusOr<DerivedOutcome> Repair(const GridMap& previous,
                                        const ChangeSummary& summary,
                                        GridMap* next) const override {
    if (!AppliesTo(*next)) return DerivedOutcome::kAbsent;
    if (summary.cells_changed == 0 && HasContraction(previous)) {
      ShareContraction(previous, next);
      return DerivedOutcome::kKept;
    }
    if (defer_) return DerivedOutcome::kDeferred;
    return Build(next);
  }
  void Share(const GridMap& from, GridMap* to) const override {
    ShareContraction(from, to);
  }

 private:
  const bool defer_;
  const std::function<bool()> abandon_;
};

}  // namespace

namespace internal {

std::unique_ptr<const DerivedStructure> ContractionStructure(
    const DerivedOptions& options) {
  if (!options.Asks(kContractionName)) return nullptr;
  return std::make_unique<ContractionDerived>(options.defer_slow_repairs,
                                              options.abandon);
}

}  // namespace internal

}  // namespace gridstar
