// Landmark selection and distances for the differential heuristic (ALT,
// Goldberg & Harrelson 2005), computed with the exhaustive Dijkstra of
// flow fields.

#include "engines/alt/landmarks.h"

#include <algorithm>
#include <cassert>
#include <limits>
#include <memory>
#include <vector>

#include "absl/strings/str_cat.h"
#include "gridstar/engines/alt.h"
#include "gridstar/grid_map.h"
#include "gridstar/query.h"
#include "gridstar/search_context.h"
#include "search/search_loop.h"

namespace gridstar {

using internal::Landmarks;
using internal::LandmarksOf;

absl::Status BuildLandmarks(GridMap* map, int count, DiagonalPolicy policy) {
  if (count < 1 || count > kMaxLandmarks) {
    return absl::InvalidArgumentError(absl::StrCat(
        "landmarks: ", count, " is out of range [1, ", kMaxLandmarks, "]"));
  }
  if (absl::Status s = ValidateMovement(MovementModel{policy}); !s.ok()) {
    return s;
  }
  if (map->passable_count() == 0) {
    return absl::FailedPreconditionError(
        "landmarks: the map has no passable cell");
  }
  // Landmarks go into the largest component, where most queries are.
  const std::vector<int64_t> sizes = map->ComponentSizes();
  const uint32_t largest = static_cast<uint32_t>(
      std::max_element(sizes.begin() + 1, sizes.end()) - sizes.begin());
  Cell from;
  const int32_t width = map->width();
  for (int64_t i = 0; i < map->cell_count(); ++i) {
    from =
        Cell{static_cast<int32_t>(i % width), static_cast<int32_t>(i / width)};
    if (map->component(from) == largest) break;
  }

  SearchContextOptions options;
  options.max_cells = static_cast<int64_t>(map->padded_size());
  SearchContext context(options);
  internal::SearchState& state = context.state();
  const size_t n = map->padded_size();
  std::vector<double> distances(n * count, -1.0);
  // Distance from each cell to the nearest landmark chosen so far.
  std::vector<double> nearest(n, std::numeric_limits<double>::infinity());

  // Runs Dijkstra from `source`; returns the reached cell farthest from all
  // landmarks so far (by `nearest`, after `record` has updated it).
  auto sweep = [&](Cell source, int record) {
    uint64_t expanded = 0;
    const PartialReason stop = internal::RunDistanceSearch(
        *map, source, policy, std::numeric_limits<double>::infinity(),
        SearchBudget(), 0, state, &expanded);
    assert(stop == PartialReason::kNone);
    (void)stop;
    uint32_t farthest = map->PaddedIndex(source);
    double best = -1;
    for (uint32_t pi = 0; pi < n; ++pi) {
      const internal::Node& node = state.nodes[pi];
      if (node.stamp != state.closed_mark) continue;
      double d = node.g;
      if (record >= 0) {
        distances[size_t{pi} * count + record] = d;
        nearest[pi] = std::min(nearest[pi], d);
        d = nearest[pi];
      }
      if (d > best) {
        best = d;
        farthest = pi;
      }
    }
    return map->CellOfPaddedIndex(farthest);
  };

  std::vector<Cell> chosen;
  from = sweep(from, -1);
  for (int k = 0; k < count; ++k) {
    chosen.push_back(from);
    from = sweep(from, k);
  }
  map->Attach(Algorithm::kAlt,
              std::make_shared<const Landmarks>(std::move(chosen), policy,
                                                std::move(distances)));
  return absl::OkStatus();
}

void ShareLandmarks(const GridMap& from, GridMap* to) {
  assert(from.width() == to->width() && from.height() == to->height());
  to->Attach(Algorithm::kAlt, from.shared_attachment(Algorithm::kAlt));
}

int LandmarkCount(const GridMap& map) {
  const Landmarks* l = LandmarksOf(map);
  return l == nullptr ? 0 : l->count();
}

DiagonalPolicy LandmarkPolicy(const GridMap& map) {
  return LandmarksOf(map)->policy();
}

const std::vector<Cell>& LandmarkCells(const GridMap& map) {
  static const std::vector<Cell>* const kNone = new std::vector<Cell>();
  const Landmarks* l = LandmarksOf(map);
  return l == nullptr ? *kNone : l->cells();
}

size_t LandmarkBytes(const GridMap& map) {
  return internal::HeldBytesOf(map, Algorithm::kAlt);
}

bool LandmarksEqual(const GridMap& a, const GridMap& b) {
  const Landmarks* x = LandmarksOf(a);
  const Landmarks* y = LandmarksOf(b);
  if (x == nullptr || y == nullptr) return x == y;
  return x == y || x->SameAs(*y);
}

namespace {

// Landmark distances for the differential heuristic (8 bytes a padded cell
// per landmark).
class LandmarksDerived final : public DerivedStructure {
 public:
  LandmarksDerived(int count, DiagonalPolicy policy, bool defer)
      : count_(count), policy_(policy), defer_(defer) {}
  absl::string_view name() const override { return kLandmarksName; }
  int default_count() const override { return kDefaultLandmarks; }
  int max_count() const override { return kMaxLandmarks; }
  size_t HeldBytes(const GridMap& map) const override {
    return LandmarkBytes(map);
  }
  bool AppliesTo(const GridMap& map) const override {
    return map.passable_count() > 0;
  }
  size_t BytesFor(const GridMap& map) const override {
    return AppliesTo(map) ? map.padded_size() * sizeof(double) *
                                static_cast<size_t>(count_)
                          : 0;
  }
  absl::StatusOr<DerivedOutcome> Build(GridMap* map) const override {
    if (!AppliesTo(*map)) return DerivedOutcome::kAbsent;
    if (absl::Status s = BuildLandmarks(map, count_, policy_); !s.ok()) {
      return s;
    }
    return DerivedOutcome::kBuilt;
  }
  absl::StatusOr<DerivedOutcome> Repair(const GridMap& previous,
                                        const ChangeSummary& summary,
                                        GridMap* next) const override {
    if (!AppliesTo(*next)) return DerivedOutcome::kAbsent;
    // Distances only grow when costs only rise: the old bounds stay
    // admissible and consistent, and nothing is searched.
    if (summary.only_raised && LandmarkCount(previous) == count_ &&
        LandmarkPolicy(previous) == policy_) {
      ShareLandmarks(previous, next);
      return DerivedOutcome::kKept;
    }
    if (defer_) return DerivedOutcome::kDeferred;
    return Build(next);
  }
  void Share(const GridMap& from, GridMap* to) const override {
    ShareLandmarks(from, to);
  }

 private:
  const int count_;
  const DiagonalPolicy policy_;
  const bool defer_;
};

}  // namespace

namespace internal {

std::unique_ptr<const DerivedStructure> LandmarksStructure(
    const DerivedOptions& options) {
  const StructureRequest* request = options.Find(kLandmarksName);
  if (request == nullptr) return nullptr;
  return std::make_unique<LandmarksDerived>(
      request->count > 0 ? request->count : kDefaultLandmarks, request->policy,
      options.defer_slow_repairs);
}

}  // namespace internal

}  // namespace gridstar
