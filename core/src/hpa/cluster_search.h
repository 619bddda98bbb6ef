// ClusterSearch: Dijkstra and A* confined to one rectangle of at most
// kClusterSize x kClusterSize cells, the workhorse of HPA*: the costs between
// a cluster's entrances (build and repair), the start's and goal's ways into
// the abstract graph, and the refinement of abstract edges into cells.
//
// Cells are addressed by their local index ly * kClusterSize + lx. Moves and
// costs are FindPath's (find_path.h) under the policy given to Begin; a
// diagonal's orthogonal cells lie in the rectangle whenever both its ends do.
//
// Thread-safety: one object per thread.

#ifndef GRIDSTAR_SRC_HPA_CLUSTER_SEARCH_H_
#define GRIDSTAR_SRC_HPA_CLUSTER_SEARCH_H_

#include <cstdint>
#include <utility>
#include <vector>

#include "absl/types/span.h"
#include "gridstar/grid_map.h"
#include "gridstar/types.h"
#include "hpa/hpa.h"
#include "open_lists.h"

namespace gridstar::internal {

class ClusterSearch {
 public:
  static constexpr int kCells = kClusterSize * kClusterSize;

  ClusterSearch();

  // Confines the next searches to [x0, x0 + w) x [y0, y0 + h) of `map`.
  // REQUIRES: 1 <= w, h <= kClusterSize, the rectangle inside the map.
  void Begin(const GridMap& map, DiagonalPolicy policy, int32_t x0,
             int32_t y0, int32_t w, int32_t h);

  // Dijkstra from `source` until every one of `targets` is settled or
  // nothing is left. Returns the cells expanded.
  uint64_t Dijkstra(uint16_t source, absl::Span<const uint16_t> targets);
  // A* from `source` to `goal`; returns the cells expanded. Distance(goal) is
  // then the least cost inside the rectangle, or -1.
  uint64_t AStar(uint16_t source, uint16_t goal);

  // On a map of uniform costs, any legal path of octile (Manhattan, under
  // kNever) shape is a least-cost one: tries the one of diagonal moves
  // first, then the one of straight moves first, from `from` to `to`, and
  // appends the first legal one's cells after `from` to *out. False (and
  // *out unchanged) when neither is legal.
  bool StraightPath(uint16_t from, uint16_t to, std::vector<Cell>* out) const;

  // The settled cost of `local` after the last search, or -1.
  double Distance(uint16_t local) const {
    return stamp_[local] == closed_ ? g_[local] : -1.0;
  }
  // The cells from the last search's source to `local` (settled), source
  // first, appended to *out; without the source when `skip_source`.
  void AppendPathTo(uint16_t local, bool skip_source,
                    std::vector<Cell>* out) const;
  // The same, from `local` back to the source (source last).
  void AppendPathFrom(uint16_t local, bool skip_local,
                      std::vector<Cell>* out) const;

  Cell CellOf(uint16_t local) const {
    return Cell{x0_ + local % kClusterSize, y0_ + local / kClusterSize};
  }
  size_t MemoryBytes() const {
    return kCells * (sizeof(double) + sizeof(uint16_t) + 2 * sizeof(uint32_t)) +
           open_list_.MemoryBytes();
  }

 private:
  template <bool kAStar>
  uint64_t Run(uint16_t source, uint16_t goal,
               absl::Span<const uint16_t> targets);

  const uint8_t* costs_ = nullptr;  // The map's padded costs.
  int32_t padded_width_ = 0;
  DiagonalPolicy policy_ = DiagonalPolicy::kNoCornerCutting;
  double min_cost_ = 1;
  int32_t x0_ = 0, y0_ = 0, w_ = 0, h_ = 0;
  std::vector<double> g_;
  std::vector<uint16_t> parent_;
  std::vector<uint32_t> stamp_;
  std::vector<uint32_t> target_;  // == open_: a target of this search.
  uint32_t open_ = 0, closed_ = 1;
  RadixQueue open_list_;  // Keys never fall: Dijkstra, and A* on octile.
};

}  // namespace gridstar::internal

#endif  // GRIDSTAR_SRC_HPA_CLUSTER_SEARCH_H_
