// Landmark selection and distances for the differential heuristic (ALT,
// Goldberg & Harrelson 2005), computed with the exhaustive Dijkstra of
// flow fields.

#include <algorithm>
#include <cassert>
#include <limits>
#include <memory>
#include <vector>

#include "absl/strings/str_cat.h"
#include "gridstar/grid_map.h"
#include "gridstar/search_context.h"
#include "search/search_loop.h"

namespace gridstar {

absl::Status GridMap::BuildLandmarks(int count, DiagonalPolicy policy) {
  if (count < 1 || count > kMaxLandmarks) {
    return absl::InvalidArgumentError(absl::StrCat(
        "landmarks: ", count, " is out of range [1, ", kMaxLandmarks, "]"));
  }
  if (absl::Status s = ValidateMovement(MovementModel{policy}); !s.ok()) {
    return s;
  }
  if (passable_count_ == 0) {
    return absl::FailedPreconditionError(
        "landmarks: the map has no passable cell");
  }
  // Landmarks go into the largest component, where most queries are.
  const std::vector<int64_t> sizes = ComponentSizes();
  const uint32_t largest = static_cast<uint32_t>(
      std::max_element(sizes.begin() + 1, sizes.end()) - sizes.begin());
  Cell from;
  for (int64_t i = 0; i < cell_count(); ++i) {
    from = Cell{static_cast<int32_t>(i % width_),
                static_cast<int32_t>(i / width_)};
    if (component(from) == largest) break;
  }

  SearchContextOptions options;
  options.max_cells = static_cast<int64_t>(padded_size());
  SearchContext context(options);
  internal::SearchState& state = context.state();
  const size_t n = padded_size();
  auto distances = std::make_shared<std::vector<double>>(n * count, -1.0);
  // Distance from each cell to the nearest landmark chosen so far.
  std::vector<double> nearest(n, std::numeric_limits<double>::infinity());

  // Runs Dijkstra from `source`; returns the reached cell farthest from all
  // landmarks so far (by `nearest`, after `record` has updated it).
  auto sweep = [&](Cell source, int record) {
    uint64_t expanded = 0;
    const PartialReason stop = internal::RunDistanceSearch(
        *this, source, policy, std::numeric_limits<double>::infinity(),
        SearchBudget(), 0, state, &expanded);
    assert(stop == PartialReason::kNone);
    (void)stop;
    uint32_t farthest = PaddedIndex(source);
    double best = -1;
    for (uint32_t pi = 0; pi < n; ++pi) {
      const internal::Node& node = state.nodes[pi];
      if (node.stamp != state.closed_mark) continue;
      double d = node.g;
      if (record >= 0) {
        (*distances)[size_t{pi} * count + record] = d;
        nearest[pi] = std::min(nearest[pi], d);
        d = nearest[pi];
      }
      if (d > best) {
        best = d;
        farthest = pi;
      }
    }
    return CellOfPaddedIndex(farthest);
  };

  std::vector<Cell> chosen;
  from = sweep(from, -1);
  for (int k = 0; k < count; ++k) {
    chosen.push_back(from);
    from = sweep(from, k);
  }
  landmark_count_ = count;
  landmark_policy_ = policy;
  landmarks_ = std::move(chosen);
  landmark_distances_ = std::move(distances);
  return absl::OkStatus();
}

void GridMap::ShareLandmarksOf(const GridMap& other) {
  assert(other.width_ == width_ && other.height_ == height_);
  landmark_count_ = other.landmark_count_;
  landmark_policy_ = other.landmark_policy_;
  landmarks_ = other.landmarks_;
  landmark_distances_ = other.landmark_distances_;
}

}  // namespace gridstar
