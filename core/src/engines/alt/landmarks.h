// Landmarks: alt's differential heuristic data for one version of a map
// (Goldberg & Harrelson 2005), attached to it in Algorithm::kAlt's slot
// (map/attachment.h): `count` cells of the largest component picked far
// apart (the first is the cell farthest from an arbitrary one, each next the
// cell farthest from all before it) and the exact distance from each to
// every cell under one policy. Built by BuildLandmarks (landmarks.cc);
// versions whose costs only rose share it (ShareLandmarks,
// gridstar/engines/alt.h).
//
// Thread-safety: immutable once attached.

#ifndef GRIDSTAR_SRC_ENGINES_ALT_LANDMARKS_H_
#define GRIDSTAR_SRC_ENGINES_ALT_LANDMARKS_H_

#include <cstddef>
#include <cstdint>
#include <memory>
#include <utility>
#include <vector>

#include "gridstar/derived_structure.h"
#include "gridstar/grid_map.h"
#include "gridstar/types.h"
#include "map/attachment.h"

namespace gridstar::internal {

class Landmarks final : public MapAttachment {
 public:
  // REQUIRES: distances.size() == padded cells * cells.size().
  Landmarks(std::vector<Cell> cells, DiagonalPolicy policy,
            std::vector<double> distances)
      : cells_(std::move(cells)),
        policy_(policy),
        distances_(std::move(distances)) {}

  int count() const { return static_cast<int>(cells_.size()); }
  DiagonalPolicy policy() const { return policy_; }
  const std::vector<Cell>& cells() const { return cells_; }
  // count() distances to the cell at a padded index, -1 for a cell no
  // landmark reaches (another component, or blocked).
  const double* distances(uint32_t padded_index) const {
    return distances_.data() +
           static_cast<size_t>(padded_index) * cells_.size();
  }
  bool SameAs(const Landmarks& other) const {
    return cells_ == other.cells_ && policy_ == other.policy_ &&
           distances_ == other.distances_;
  }

  // The distances (what BytesFor promised before building).
  size_t HeldBytes() const override {
    return distances_.capacity() * sizeof(double);
  }

 private:
  const std::vector<Cell> cells_;
  const DiagonalPolicy policy_;
  const std::vector<double> distances_;
};

// Its DerivedStructure (derived_structure.h) when `options` ask for it,
// else null.
std::unique_ptr<const DerivedStructure> LandmarksStructure(const DerivedOptions& options);

// map's landmarks, null without them.
inline const Landmarks* LandmarksOf(const GridMap& map) {
  return AttachedTo<Landmarks>(map, Algorithm::kAlt);
}

}  // namespace gridstar::internal

#endif  // GRIDSTAR_SRC_ENGINES_ALT_LANDMARKS_H_
