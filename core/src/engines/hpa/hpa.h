// HPA* (Botea, Müller & Schaeffer 2004): a map cut into square clusters,
// entrances where two clusters' border cells are both passable, the exact
// costs between a cluster's entrances inside it, and a search of that small
// graph refined into a cell path. Bounded-suboptimal: paths are confined to
// entrance cells at cluster borders and to cluster interiors between them.
//
// The abstraction (HpaAbstraction) is built for one DiagonalPolicy and is
// immutable once built; an update makes a new one that shares every cluster
// the update does not reach (Repair). Clusters are kClusterSize cells a side
// (the last row and column of clusters may be smaller).
//
// Entrances: along each border between two clusters, every maximal run of
// rows (columns) where both sides are passable gives one transition (its
// middle) when shorter than kSplitRun, else two (its ends); a transition is a
// node on each side, joined by the straight move across. Every crossing of a
// border by a legal path implies a straight crossing in some run (a diagonal
// crossing needs an orthogonal cell passable, which is then a straight
// crossing next to it), and a run's cells are joined along the border, so
// the abstraction finds a path whenever one exists.
//
// The entrance search is weighted A* (g + kHpaWeight * h), h the larger of
// the octile bound and the differential bound of kHpaLandmarks landmarks of
// the entrance graph, computed by Build. Refinement walks the turns of each
// intra-cluster edge's least path that the build stored (HpaCluster::turns),
// and searches the cluster only for paths that turn more often.
// Repair leaves a rebuilt cluster without landmark data (octile bound only
// there) and keeps the rest, which stay lower bounds while costs only rise
// and may overestimate after an update that shortened distances: that can
// lengthen a path, never make it illegal or lose it.
//
// Thread-safety: an HpaAbstraction is read by any number of searches at once.
// HpaScratch belongs to one thread (it lives in its SearchState).

#ifndef GRIDSTAR_SRC_ENGINES_HPA_HPA_H_
#define GRIDSTAR_SRC_ENGINES_HPA_HPA_H_

#include <algorithm>
#include <cassert>
#include <cstddef>
#include <cstdint>
#include <memory>
#include <vector>

#include "absl/status/statusor.h"
#include "absl/types/span.h"
#include "gridstar/derived_structure.h"
#include "gridstar/grid_map.h"
#include "gridstar/path_query.h"
#include "gridstar/types.h"
#include "map/attachment.h"

namespace gridstar::internal {

struct SearchParams;
struct SearchState;

inline constexpr int32_t kClusterSize = 64;
inline constexpr int32_t kSplitRun = 6;
// Landmarks of the entrance graph (ALT's differential heuristic over it).
inline constexpr int kHpaLandmarks = 8;
// Least paths along a cluster's edges are stored when they turn at most this
// many times (cities: most turn once or twice; refinement searches the rest).
inline constexpr int kMaxStoredTurns = 16;
// The entrance A* orders nodes by g + kHpaWeight * h (weighted A*): a path
// found costs at most kHpaWeight times the abstract graph's least one. On
// the world, near-exact bounds (octile distance within 0.1% of the optimum)
// left thousands of entrances tied near the straight line; 1.05 expands a
// third as many (measured at commit ea7feb9: docs/performance.md, HPA*).
inline constexpr double kHpaWeight = 1.05;

// The cells of cluster `index` (row-major among clusters_x a row):
// [x0, x0 + w) x [y0, y0 + h), smaller than kClusterSize at the map's edges.
struct ClusterRect {
  int32_t x0, y0, w, h;
};
inline ClusterRect ClusterRectOf(const GridMap& map, int32_t clusters_x,
                                 int32_t index) {
  const int32_t x0 = (index % clusters_x) * kClusterSize;
  const int32_t y0 = (index / clusters_x) * kClusterSize;
  return ClusterRect{x0, y0, std::min(kClusterSize, map.width() - x0),
                     std::min(kClusterSize, map.height() - y0)};
}

// One cluster's entrances and the costs between them inside it.
struct HpaCluster {
  struct Edge {
    float cost;
    uint16_t to;  // Local index of the other node.
    // How many turning cells of a least path along the edge are stored (see
    // turns): 0 when the path is one straight run or turns more than
    // kMaxStoredTurns times (refinement then searches).
    uint16_t turn_count;
  };
  // Each node's cell as a cluster-local index (ly * kClusterSize + lx),
  // ascending (looked up by binary search).
  std::vector<uint16_t> nodes;
  // Node i's crossings: bit m (m < 4) when the cell across by move m is an
  // entrance of the neighbouring cluster. A change on a border line rebuilds
  // the clusters on both sides of it, so both agree.
  std::vector<uint8_t> crossings;
  // Node i's cell cost (the straight move across costs the mean of both
  // ends').
  std::vector<uint8_t> node_costs;
  // Node i's edges are edges[edge_begin[i], edge_begin[i + 1]).
  std::vector<uint32_t> edge_begin;
  std::vector<Edge> edges;
  // The turning cells (where the move changes; ends excluded) of the least
  // path the build's Dijkstra found along each edge, in order from the
  // edge's node to its `to`: node i's edges' turns are consecutive from
  // turns[turn_begin[i]], in the order of its edges. Refinement walks them
  // instead of searching the cluster again.
  std::vector<uint32_t> turn_begin;
  std::vector<uint16_t> turns;
  // Node i's distance in the entrance graph from each landmark, at
  // landmarks[i * kHpaLandmarks + k] (infinity: not reached). Empty for a
  // cluster rebuilt since they were computed (its nodes then use the octile
  // heuristic alone).
  std::vector<float> landmarks;

  size_t MemoryBytes() const {
    return sizeof(*this) + nodes.capacity() * sizeof(uint16_t) +
           crossings.capacity() + node_costs.capacity() +
           edge_begin.capacity() * sizeof(uint32_t) +
           edges.capacity() * sizeof(Edge) +
           turn_begin.capacity() * sizeof(uint32_t) +
           turns.capacity() * sizeof(uint16_t) +
           landmarks.capacity() * sizeof(float);
  }
  // Local index of the node on cell `local`, or -1.
  int Find(uint16_t local) const;
  // The stored turns of the edge from node i to node j, empty when none are
  // stored (or there is no such edge).
  absl::Span<const uint16_t> TurnsOf(uint32_t i, uint32_t j) const;
};

class HpaAbstraction final : public MapAttachment {
 public:
  // Builds the abstraction of `map` for `policy`.
  static std::shared_ptr<const HpaAbstraction> Build(const GridMap& map,
                                                     DiagonalPolicy policy);
  // The abstraction of `next`, which is `previous_map` with the cells of
  // `rects` changed: the clusters holding changed cells are rebuilt, and so
  // are their neighbours across a border on which a changed cell lies; the
  // others are shared with `previous`.
  static std::shared_ptr<const HpaAbstraction> Repair(
      const HpaAbstraction& previous, const GridMap& next,
      absl::Span<const CellRect> rects);

  // At least MemoryBytes() of Build(map, any policy): every pair of a
  // cluster's entrances counted as joined.
  static size_t BytesUpperBound(const GridMap& map);

  DiagonalPolicy policy() const { return policy_; }
  int32_t clusters_x() const { return clusters_x_; }
  int32_t clusters_y() const { return clusters_y_; }
  int32_t ClusterOf(Cell c) const {
    return (c.y / kClusterSize) * clusters_x_ + c.x / kClusterSize;
  }
  const HpaCluster& cluster(int32_t index) const { return *clusters_[index]; }
  // Dense numbering of every node: cluster c's node i is node_offset(c) + i.
  uint32_t node_offset(int32_t cluster) const { return offsets_[cluster]; }
  uint32_t node_count() const { return offsets_.back(); }
  size_t edge_count() const;
  size_t MemoryBytes() const;
  size_t HeldBytes() const override { return MemoryBytes(); }
  // Clusters rebuilt by the Repair that made this abstraction (all of them
  // for Build).
  size_t clusters_built() const { return clusters_built_; }

  // True when both hold the same nodes and edges (tests compare a repaired
  // abstraction with one built from scratch; landmark data is not compared:
  // a repair keeps it for the clusters it does not rebuild).
  bool SameAs(const HpaAbstraction& other) const;

  Cell CellOf(int32_t cluster, uint16_t local) const {
    return Cell{(cluster % clusters_x_) * kClusterSize + local % kClusterSize,
                (cluster / clusters_x_) * kClusterSize + local / kClusterSize};
  }
  static uint16_t LocalOf(Cell c) {
    return static_cast<uint16_t>((c.y % kClusterSize) * kClusterSize +
                                 c.x % kClusterSize);
  }
  // Calls visit(cluster, local index, cost) for each neighbour of node
  // `i` of `cluster` in the entrance graph: the cluster's other entrances
  // it reaches inside, and the entrance across a border by a straight move.
  // Reads only the abstraction (not the map's cells).
  template <typename Visit>
  void ForEachNeighbour(int32_t cluster, uint32_t i, const Visit& visit) const;

 private:
  void ComputeOffsets();
  // Picks kHpaLandmarks entrances far apart (each the farthest from those
  // before) and stores every node's distance from each in its cluster.
  // REQUIRES: the clusters not yet shared (called by Build).
  void BuildLandmarks();

  DiagonalPolicy policy_ = DiagonalPolicy::kNoCornerCutting;
  int32_t clusters_x_ = 0;
  int32_t clusters_y_ = 0;
  std::vector<std::shared_ptr<const HpaCluster>> clusters_;
  std::vector<uint32_t> offsets_;
  size_t clusters_built_ = 0;
};

template <typename Visit>
void HpaAbstraction::ForEachNeighbour(int32_t cluster, uint32_t i,
                                      const Visit& visit) const {
  const HpaCluster& c = *clusters_[cluster];
  for (uint32_t e = c.edge_begin[i]; e < c.edge_begin[i + 1]; ++e) {
    visit(cluster, uint32_t{c.edges[e].to}, double{c.edges[e].cost});
  }
  const Cell cell = CellOf(cluster, c.nodes[i]);
  for (unsigned bits = c.crossings[i]; bits != 0; bits &= bits - 1) {
    const int m = __builtin_ctz(bits);
    const Cell next{cell.x + kMoveDx[m], cell.y + kMoveDy[m]};
    const int32_t other = ClusterOf(next);
    const HpaCluster& across = *clusters_[other];
    const int j = across.Find(LocalOf(next));
    assert(j >= 0);
    if (j >= 0) {
      visit(other, static_cast<uint32_t>(j),
            0.5 * (c.node_costs[i] + across.node_costs[j]));
    }
  }
}

// Per-thread buffers of HPA* searches (HpaScratch, hpa_search.cc: the
// engine's EngineScratch in the SearchState): three cluster-sized local
// searches (from the start, from the goal, refinement) and the abstract
// search's records, sized by the abstraction's node count.

// Ends at most 2 * kClusterSize apart first get an exact A* of at most
// kClusterSize^2 expansions (its path is returned when it finishes). Tests
// turn that off to exercise the abstract search on small maps.
void SetHpaNearSearchForTesting(bool enabled);

// Searches from p.start to p.goal (padded indices, same component) with the
// abstraction and refines the result into *r (cells, cost, expanded,
// generated, partial when the budget ran out).
void RunHpa(const GridMap& map, const HpaAbstraction& hpa,
            const SearchParams& p, SearchState& state, PathResult* r);

// Its DerivedStructure (derived_structure.h) when `options` ask for it,
// else null.
std::unique_ptr<const DerivedStructure> HpaStructure(const DerivedOptions& options);

// map's abstraction (Algorithm::kHpa's attachment), null without one.
inline const HpaAbstraction* HpaOf(const GridMap& map) {
  return AttachedTo<HpaAbstraction>(map, Algorithm::kHpa);
}

}  // namespace gridstar::internal

#endif  // GRIDSTAR_SRC_ENGINES_HPA_HPA_H_
