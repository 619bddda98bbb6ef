// GridMap's subgoal graph members (grid_map.h), kept with the graph they
// hold.

#include "absl/strings/str_cat.h"
#include "engines/subgoal/subgoal_graph.h"
#include "gridstar/grid_map.h"

namespace gridstar {

absl::Status GridMap::BuildSubgoalGraph() {
  if (!uniform_cost()) {
    return absl::FailedPreconditionError(
        "subgoal_graph: the map has cells of different costs (subgoal graphs "
        "need one cost)");
  }
  subgoal_graph_ = internal::SubgoalGraph::Build(*this);
  return absl::OkStatus();
}

size_t GridMap::SubgoalGraphBytes() const {
  return subgoal_graph_ == nullptr ? 0 : subgoal_graph_->MemoryBytes();
}

size_t GridMap::SubgoalGraphNodes() const {
  return subgoal_graph_ == nullptr ? 0 : subgoal_graph_->node_count();
}

size_t GridMap::SubgoalGraphEdges() const {
  return subgoal_graph_ == nullptr ? 0 : subgoal_graph_->edge_count();
}

size_t GridMap::SubgoalGraphBytesFor() const {
  if (!uniform_cost()) return 0;
  const int32_t pw = padded_width();
  const int32_t ph = height_ + 2;
  size_t subgoals = 0;
  for (int32_t y = 1; y < ph - 1; ++y) {
    const uint8_t* row = padded_costs_ + static_cast<size_t>(y) * pw;
    for (int32_t x = 1; x < pw - 1; ++x) {
      if (row[x] != 0 &&
          internal::IsConvexCorner(row, static_cast<size_t>(x), pw)) {
        ++subgoals;
      }
    }
  }
  const size_t lines = (static_cast<size_t>(pw) + 63) / 64 * ph * 8 +
                       (static_cast<size_t>(ph) + 63) / 64 * pw * 8;
  return lines + subgoals * (3 * sizeof(uint32_t) +
                             internal::kSubgoalLandmarks * sizeof(float) +
                             80 * sizeof(uint32_t));
}

bool GridMap::SubgoalGraphEquals(const GridMap& other) const {
  if (subgoal_graph_ == nullptr || other.subgoal_graph_ == nullptr) {
    return subgoal_graph_ == nullptr && other.subgoal_graph_ == nullptr;
  }
  return subgoal_graph_->SameAs(*other.subgoal_graph_);
}

}  // namespace gridstar
