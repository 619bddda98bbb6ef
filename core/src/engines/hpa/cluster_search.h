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

#ifndef GRIDSTAR_SRC_ENGINES_HPA_CLUSTER_SEARCH_H_
#define GRIDSTAR_SRC_ENGINES_HPA_CLUSTER_SEARCH_H_

#include <cstdint>
#include <utility>
#include <vector>

#include "absl/types/span.h"
#include "engines/hpa/hpa.h"
#include "gridstar/grid_map.h"
#include "gridstar/types.h"
#include "search/open_lists.h"

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

  // The settled cost of `local` after the last search, or -1.
  double Distance(uint16_t local) const {
    return stamp_[local] == closed_ ? g_[local] : -1.0;
  }
  // The cells from the last search's source to `local` (settled), source
  // first, appended to *out; without the source when `skip_source`.
  void AppendPathTo(uint16_t local, bool skip_source,
                    std::vector<Cell>* out) const;
  // Appends the turning cells (where the move changes; ends excluded) of the
  // last search's path to `local` (settled), from `local` back to the
  // source, to *out and returns true; false (and *out unchanged) when there
  // are more than `max_turns`.
  bool AppendTurnsFrom(uint16_t local, size_t max_turns,
                       std::vector<uint16_t>* out) const;
  // Appends the cells after `from` of the path that runs straight from
  // `from` through each of `turns` to `to` (each leg one repeated move) to
  // *out. REQUIRES: the turns of a legal path, as AppendTurnsFrom gives.
  void AppendTurnPath(uint16_t from, absl::Span<const uint16_t> turns,
                      uint16_t to, std::vector<Cell>* out) const;
  // The same, from `local` back to the source (source last).
  void AppendPathFrom(uint16_t local, bool skip_local,
                      std::vector<Cell>* out) const;

  Cell CellOf(uint16_t local) const {
    return Cell{x0_ + local % kClusterSize, y0_ + local / kClusterSize};
  }
  size_t MemoryBytes() const {
    return kCells * (sizeof(double) + sizeof(uint16_t) + 2 * sizeof(uint32_t)) +
           local_.capacity() +
           (fifo_[0].capacity() + fifo_[1].capacity()) * sizeof(QueuedCell) +
           open_list_.MemoryBytes();
  }

 private:
  // Cells of the rectangle with a ring of walls around it, (lx + 1, ly + 1)
  // at (ly + 1) * kStride + lx + 1.
  static constexpr int kStride = kClusterSize + 2;

  template <bool kAStar>
  uint64_t Run(uint16_t source, uint16_t goal,
               absl::Span<const uint16_t> targets);
  template <bool kAStar, DiagonalPolicy kPolicy>
  uint64_t RunWith(uint16_t source, uint16_t goal);
  // Dijkstra when every passable cell of the rectangle costs the same:
  // steps then cost c or c * sqrt(2), so one FIFO queue per step cost stays
  // sorted (each appends keys no smaller than the last popped one plus its
  // step), and the least head is the next cell: exact, without a heap.
  template <DiagonalPolicy kPolicy>
  uint64_t UniformDijkstra(uint16_t source);
  // Copies the rectangle's costs into local_ (once per Begin: refinement
  // that finds a straight path never needs them).
  void CopyRectangle();

  const uint8_t* costs_ = nullptr;  // The map's padded costs.
  int32_t padded_width_ = 0;
  DiagonalPolicy policy_ = DiagonalPolicy::kNoCornerCutting;
  double min_cost_ = 1;
  int32_t x0_ = 0, y0_ = 0, w_ = 0, h_ = 0;
  std::vector<uint8_t> local_;
  bool local_current_ = false;
  uint8_t uniform_cost_ = 0;  // Of every passable cell in local_, or 0.
  struct QueuedCell {
    double g;
    uint16_t local;
  };
  std::vector<QueuedCell> fifo_[2];  // Straight and diagonal steps.
  size_t targets_left_ = 0;
  std::vector<double> g_;
  std::vector<uint16_t> parent_;
  std::vector<uint32_t> stamp_;
  std::vector<uint32_t> target_;  // == open_: a target of this search.
  uint32_t open_ = 0, closed_ = 1;
  RadixQueue open_list_;  // Keys never fall: Dijkstra, and A* on octile.
};

}  // namespace gridstar::internal

#endif  // GRIDSTAR_SRC_ENGINES_HPA_CLUSTER_SEARCH_H_
