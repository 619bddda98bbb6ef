// Subgoal graph (Uras, Koenig & Hernandez 2013, "Subgoal Graphs for Optimal
// Pathfinding in Eight-Neighbor Grids") with a differential heuristic
// (ALT, Goldberg & Harrelson 2005) over it: the exact method for huge
// uniform-cost maps (Algorithm::kSubgoal).
//
// Subgoals are the convex corners of obstacles: a passable cell with a
// blocked diagonal neighbour whose two orthogonal cells between are both
// passable. Under kNoCornerCutting a shortest path only bends at subgoals,
// and between two consecutive bends it is an octile straight line (some
// path of octile length, "h-reachable"). The graph joins every subgoal to
// the subgoals it reaches directly: along the diagonal-first lines of the
// clearance scan (Scan below), which stop at the first subgoal or
// obstacle, each later line of a quadrant no longer than the ones before
// (cells behind a line's end are reached through the subgoal or the corner
// that ended it). A query joins its start and goal the same way, searches
// the graph with A*, and refines each edge into cells: every edge is an
// octile-length move sequence (diagonal first from one end or the other),
// so the refined path's cost is the graph path's.
//
// Heuristic: the larger of the octile distance and the differential bound
// of kSubgoalLandmarks landmark subgoals (exact graph distances from each,
// computed by Build, picked far apart); the goal's distances are those of
// its direct subgoals plus the octile step. Consistent up to float
// rounding, which the search absorbs by reopening a closed node reached
// cheaper (never needed in exact arithmetic). Optimal.
//
// Built for uniform-cost maps under kNoCornerCutting only (costs scale by
// the map's one cost). Immutable once built: an update makes the next
// version without one (the owner rebuilds it, in the background on the
// server; searches run jps meanwhile). Memory: 3 bits a padded cell (the
// row and column stop lines, the subgoal bits) and 4 bytes per 64 padded
// cells (NodeOf's counts), then per subgoal 12 bytes + 4 per edge end + 4
// per landmark.
//
// Thread-safety: a SubgoalGraph is read by any number of searches at once.
// SubgoalScratch belongs to one thread (it lives in its SearchState).

#ifndef GRIDSTAR_SRC_ENGINES_SUBGOAL_SUBGOAL_GRAPH_H_
#define GRIDSTAR_SRC_ENGINES_SUBGOAL_SUBGOAL_GRAPH_H_

#include <cstddef>
#include <cstdint>
#include <functional>
#include <memory>
#include <vector>

#include "absl/status/status.h"
#include "base/geometry.h"
#include "gridstar/derived_structure.h"
#include "gridstar/grid_map.h"
#include "gridstar/path_query.h"
#include "map/attachment.h"

namespace gridstar::internal {

struct SearchParams;
struct SearchState;

inline constexpr int kSubgoalLandmarks = 8;

class SubgoalGraph final : public MapAttachment {
 public:
  // Builds the graph of `map`. REQUIRES: map.uniform_cost(). `abandon`
  // (when set) is polled every kAbandonPoll subgoals scanned and before the
  // landmarks: once true, the build stops and returns null.
  static std::shared_ptr<const SubgoalGraph> Build(
      const GridMap& map, const std::function<bool()>& abandon = nullptr);
  static constexpr uint32_t kAbandonPoll = 64;

  uint32_t node_count() const { return static_cast<uint32_t>(cells_.size()); }
  size_t edge_count() const { return targets_.size(); }
  size_t MemoryBytes() const;
  size_t HeldBytes() const override { return MemoryBytes(); }
  // Landmarks actually placed (fewer than kSubgoalLandmarks on a map with
  // few subgoals; 0 without any).
  int landmark_count() const { return landmark_count_; }

  // Node on padded cell `cell`, or -1 when that cell is no subgoal (its
  // bit and the subgoals before it counted: no search).
  int64_t NodeOf(uint32_t cell) const {
    const uint32_t pw = static_cast<uint32_t>(padded_width_);
    return NodeAt(static_cast<int32_t>(cell % pw),
                  static_cast<int32_t>(cell / pw));
  }
  // NodeOf the cell at padded (x, y).
  int64_t NodeAt(int32_t x, int32_t y) const {
    const size_t word = static_cast<size_t>(y) * row_words_ + (x >> 6);
    const uint64_t bits = node_bits_[word];
    if (((bits >> (x & 63)) & 1) == 0) return -1;
    const uint64_t below = (uint64_t{1} << (x & 63)) - 1;
    return static_cast<int64_t>(word_rank_[word]) +
           __builtin_popcountll(bits & below);
  }
  uint32_t CellOf(uint32_t node) const { return cells_[node]; }
  int32_t XOf(uint32_t node) const { return xy_[node] & 0xffff; }
  int32_t YOf(uint32_t node) const { return xy_[node] >> 16; }
  const uint32_t* EdgesBegin(uint32_t node) const {
    return targets_.data() + edge_begin_[node];
  }
  const uint32_t* EdgesEnd(uint32_t node) const {
    return targets_.data() + edge_begin_[node + 1];
  }
  // landmark_count() distances (cells of octile length; +infinity where
  // the landmark is in another component).
  const float* Landmarks(uint32_t node) const {
    return landmarks_.data() +
           static_cast<size_t>(node) * static_cast<size_t>(landmark_count_);
  }

  // Calls visit(node) for every subgoal `cell` (padded index) reaches
  // directly, and returns true when `target` (a padded index, or UINT32_MAX)
  // lies on the scanned lines (reached from `cell` by an octile-length
  // diagonal-first move sequence with no subgoal before it). A subgoal may
  // be visited more than once. `cell` must be passable.
  template <typename Visit>
  bool Scan(const GridMap& map, uint32_t cell, uint32_t target,
            const Visit& visit) const;

  // True when both hold the same subgoals and edges (tests compare a graph
  // of an updated map with one built from scratch).
  bool SameAs(const SubgoalGraph& other) const;

 private:
  // Free cells (passable, no subgoal) from padded (x, y) stepping by
  // (dx, dy) (one of the four straight moves) before the first blocked
  // cell or subgoal; *stop is that cell's padded index.
  int32_t Clearance(int32_t x, int32_t y, int dx, int dy, uint32_t* stop) const;
  void PickLandmarks(const GridMap& map);

  int32_t padded_width_ = 0;
  int32_t padded_height_ = 0;
  // Bit lines of "blocked or subgoal", one per padded row and one per padded
  // column (the transpose); bit i of a line is padded cell i.
  size_t row_words_ = 0;
  size_t column_words_ = 0;
  std::vector<uint64_t> row_stops_;
  std::vector<uint64_t> column_stops_;
  // Nodes in ascending padded index.
  std::vector<uint32_t> cells_;
  // The subgoals' bits, laid out as row_stops_, and for each word of them
  // the count of subgoals before it (nodes are in ascending padded index,
  // so that count plus the bits below a subgoal's is its node).
  std::vector<uint64_t> node_bits_;
  std::vector<uint32_t> word_rank_;
  std::vector<uint32_t> xy_;  // Padded x | padded y << 16.
  std::vector<uint32_t> edge_begin_;
  std::vector<uint32_t> targets_;
  int landmark_count_ = 0;
  std::vector<float> landmarks_;
};

// Octile distance (cells) between padded coordinates: geometry.h's.
inline double OctileSteps(int32_t ax, int32_t ay, int32_t bx, int32_t by) {
  return GridDistance(ax - bx, ay - by, true);
}

// Whether passable padded cell `i` of `costs` (padded width `pw`) is a
// subgoal: a blocked diagonal neighbour whose two orthogonal cells between
// are both passable. Build and CountSubgoals (the size estimates) both count by
// it.
inline bool IsConvexCorner(const uint8_t* costs, size_t i, int32_t pw) {
  const uint8_t* cell = costs + i;
  for (int q = 0; q < 4; ++q) {
    const int64_t dx = (q & 1) ? -1 : 1, dy = (q & 2) ? -pw : pw;
    if (cell[dx + dy] == 0 && cell[dx] != 0 && cell[dy] != 0) {
      return true;
    }
  }
  return false;
}

template <typename Visit>
bool SubgoalGraph::Scan(const GridMap& map, uint32_t cell, uint32_t target,
                        const Visit& visit) const {
  const uint8_t* costs = map.padded_costs();
  const int32_t pw = padded_width_;
  const int32_t x = static_cast<int32_t>(cell % static_cast<uint32_t>(pw));
  const int32_t y = static_cast<int32_t>(cell / static_cast<uint32_t>(pw));
  int32_t tx = -1, ty = -1;
  if (target != UINT32_MAX) {
    tx = static_cast<int32_t>(target % static_cast<uint32_t>(pw));
    ty = static_cast<int32_t>(target / static_cast<uint32_t>(pw));
  }
  bool found = false;
  // Straight lines: E, W, S, N (kMoveDx / kMoveDy order).
  static constexpr int kDx[4] = {1, -1, 0, 0};
  static constexpr int kDy[4] = {0, 0, 1, -1};
  int32_t straight[4];
  for (int m = 0; m < 4; ++m) {
    uint32_t stop;
    straight[m] = Clearance(x, y, kDx[m], kDy[m], &stop);
    if (costs[stop] != 0) {
      visit(static_cast<uint32_t>(NodeAt(x + kDx[m] * (straight[m] + 1),
                                         y + kDy[m] * (straight[m] + 1))));
    }
    if (target != UINT32_MAX) {
      const int32_t ox = (tx - x) * kDx[m] + (ty - y) * kDy[m];
      const bool on_line = kDx[m] != 0 ? ty == y : tx == x;
      if (on_line && ox >= 1 && ox <= straight[m]) found = true;
    }
  }
  // Quadrants: each diagonal with its two straight moves.
  for (int q = 0; q < 4; ++q) {
    const int dx = (q & 1) ? -1 : 1;
    const int dy = (q & 2) ? -1 : 1;
    const int mx = dx > 0 ? 0 : 1;  // The straight move along x.
    const int my = dy > 0 ? 2 : 3;
    int32_t max_x = straight[mx], max_y = straight[my];
    int32_t cx = x, cy = y;
    // The target's diagonal steps from here and what is left after them.
    int32_t t_diag = -1, t_rest_x = 0, t_rest_y = 0;
    if (target != UINT32_MAX) {
      const int32_t ax = (tx - x) * dx, ay = (ty - y) * dy;
      if (ax >= 1 && ay >= 1) {
        t_diag = ax < ay ? ax : ay;
        t_rest_x = ax - t_diag;
        t_rest_y = ay - t_diag;
      }
    }
    for (int32_t i = 1;; ++i) {
      // A diagonal needs both orthogonal cells passable.
      const uint32_t here =
          static_cast<uint32_t>(cy) * static_cast<uint32_t>(pw) +
          static_cast<uint32_t>(cx);
      const uint32_t next = here + static_cast<uint32_t>(dy * pw + dx);
      if (costs[here + dx] == 0 || costs[here + dy * pw] == 0 ||
          costs[next] == 0) {
        break;
      }
      cx += dx;
      cy += dy;
      if (const int64_t node = NodeAt(cx, cy); node >= 0) {
        visit(static_cast<uint32_t>(node));
        break;
      }
      uint32_t stop;
      const int32_t jx = Clearance(cx, cy, dx, 0, &stop);
      if (jx < max_x) {
        if (costs[stop] != 0) {
          visit(static_cast<uint32_t>(NodeAt(cx + dx * (jx + 1), cy)));
        }
      }
      uint32_t stop_y;
      const int32_t jy = Clearance(cx, cy, 0, dy, &stop_y);
      if (jy < max_y) {
        if (costs[stop_y] != 0) {
          visit(static_cast<uint32_t>(NodeAt(cx, cy + dy * (jy + 1))));
        }
      }
      if (i == t_diag) {
        if (t_rest_x == 0 && t_rest_y == 0) found = true;
        if (t_rest_x > 0 && t_rest_x <= (jx < max_x ? jx : max_x)) found = true;
        if (t_rest_y > 0 && t_rest_y <= (jy < max_y ? jy : max_y)) found = true;
      }
      if (jx < max_x) max_x = jx;
      if (jy < max_y) max_y = jy;
    }
  }
  return found;
}

// The subgoals of `map` (one pass, by IsConvexCorner), and
// SubgoalGraphBytesFor's estimate for that many: the bit lines, and per
// subgoal its records, its landmark distances and 80 edges.
size_t CountSubgoals(const GridMap& map);
size_t SubgoalGraphBytesForCount(const GridMap& map, size_t subgoals);

// Searches from p.start to p.goal (padded indices, same component) over
// `graph` and writes the refined path into *r (cells, cost, expanded =
// graph nodes taken off the open list, generated, partial when the budget
// ran out: the path to the expanded node nearest the goal).
void RunSubgoal(const GridMap& map, const SubgoalGraph& graph,
                const SearchParams& p, SearchState& state, PathResult* r);

// BuildSubgoalGraph (gridstar/engines/subgoal.h) that stops when `abandon`
// (when set) says so: CANCELLED, the map left without a graph.
absl::Status BuildSubgoalGraphUnless(GridMap* map,
                                     const std::function<bool()>& abandon);

// Its DerivedStructure (derived_structure.h) when `options` ask for it
// (building under options.abandon), else null.
std::unique_ptr<const DerivedStructure> SubgoalGraphStructure(const DerivedOptions& options);

// map's subgoal graph (Algorithm::kSubgoal's attachment), null without one.
inline const SubgoalGraph* SubgoalGraphOf(const GridMap& map) {
  return AttachedTo<SubgoalGraph>(map, Algorithm::kSubgoal);
}

}  // namespace gridstar::internal

#endif  // GRIDSTAR_SRC_ENGINES_SUBGOAL_SUBGOAL_GRAPH_H_
