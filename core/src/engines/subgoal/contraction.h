// Contraction hierarchy over the subgoal graph (Algorithm::kContraction):
// the contraction tier. Subgoal graphs with contraction hierarchies follow
// Uras & Koenig ("Subgoal Graphs for Fast Optimal Pathfinding", 2017: SG-CH)
// and Geisberger, Sanders, Schultes & Delling ("Contraction Hierarchies",
// WEA 2008).
//
// Build, from the map's subgoal graph (subgoal_graph.h):
//   1. Redundant edges dropped: an edge (u, w) for which a path of two
//      edges through another subgoal is as short carries nothing a search
//      needs. Every dropped edge is strictly longer than each edge of the
//      path that replaces it, so dropping them all at once keeps every
//      distance (by induction on length).
//   2. Contraction, least important node first (edge difference plus
//      contracted neighbours, and on graphs of up to 32768 nodes its depth,
//      lazily re-evaluated): a node's neighbours
//      still in the graph are joined by a shortcut through it unless a
//      path avoiding it is as short: a straight octile line between them
//      shorter than the way through it (the graph keeps grid distances), or
//      a witness path: one of the neighbour's own arcs, or found by an A*
//      search towards the node (every other neighbour lies within its
//      longest arc of it), bounded by length and by nodes settled; not found
//      means a shortcut, never a wrong distance.
//   3. The upward graph kept: each node's arcs to neighbours contracted
//      after it (its rank is its contraction order), with length and, for a
//      shortcut, the node it bypasses, and whether an octile-shaped move
//      sequence of its length joins its ends (a query then refines it into
//      cells at once, without unpacking it: Uras & Koenig's R-refine). Nodes
//      are numbered by rank here (the searches' busiest nodes, the highest, lie
//      together in memory); NodeOfRank / RankOf translate to and from the
//      subgoal graph's.
// Lengths are octile cell counts (straight + diagonal * sqrt 2) in double:
// two different counts of at most 2^20 moves differ by far more than the
// 1e-9 the comparisons allow, so ties are exact ties.
//
// A query joins its start and goal to the subgoals they reach directly
// (SubgoalGraph::Scan; and to each other when one reaches the other), runs
// A* upwards from both sides at once (no stall on demand) until neither
// side's smallest key can beat the best meeting, unpacks the shortcuts of
// the path through their bypassed nodes into subgoal edges (a shortcut
// marked straight is one such piece as it is) and refines those into cells.
// Each side's heuristic is the larger of the octile distance to the other
// side's end and the subgoal graph's landmark bound (its differential
// heuristic; an end that is no subgoal has the least landmark distances through
// the subgoals it is joined to), less the float error of the landmark
// distances: admissible, consistent up to that rounding (a settled node reached
// cheaper is reopened). Exact (every distance between subgoals is kept, and a
// least path between any two subgoals climbs then descends in rank). A side may
// stop at the bound: a node on a least path that it has yet to settle has, or
// follows one that has, a key of at most that path's length, so once its
// smallest key reaches the best meeting that meeting is a least one.
//
// Uniform-cost maps under kNoCornerCutting only, as the subgoal graph.
// Immutable once built: an update makes the next version without one (the
// owner rebuilds it, in the background on the server; kSubgoal or jps+
// answer meanwhile). Memory: the subgoal graph it contracts (shared with the
// map's own when the map has one), 16 bytes an upward arc and 16 a node.
//
// Thread-safety: a ContractionHierarchy is read by any number of searches
// at once; its scratch lives in the calling thread's SearchState.

#ifndef GRIDSTAR_SRC_ENGINES_SUBGOAL_CONTRACTION_H_
#define GRIDSTAR_SRC_ENGINES_SUBGOAL_CONTRACTION_H_

#include <cstddef>
#include <cstdint>
#include <functional>
#include <memory>
#include <vector>

#include "absl/status/status.h"
#include "engines/subgoal/subgoal_graph.h"
#include "gridstar/derived_structure.h"
#include "gridstar/engines/subgoal.h"
#include "gridstar/grid_map.h"
#include "map/attachment.h"

namespace gridstar::internal {

struct SearchParams;
struct SearchState;

class ContractionHierarchy final : public MapAttachment {
 public:
  // One arc of the upward graph: to a node of higher rank. Nodes here are
  // ranks (0 contracted first); NodeOfRank gives the subgoal graph's node.
  struct Arc {
    double length;  // Octile cells.
    uint32_t to;    // A rank above the arc's own.
    // The bypassed rank of a shortcut, kNoVia for an edge; for a shortcut
    // whose ends an octile-shaped move sequence of its length joins (one
    // AppendOctilePath refines it, as an edge), with kStraightBit set.
    uint32_t via;
    bool IsShortcut() const { return via != kNoVia; }
    uint32_t Via() const { return via & ~kStraightBit; }
    // Refined by one octile-shaped move sequence: an edge, or a shortcut
    // marked so.
    bool RefinesStraight() const {
      return via == kNoVia || (via & kStraightBit) != 0;
    }
  };
  static constexpr uint32_t kNoVia = UINT32_MAX;
  static constexpr uint32_t kStraightBit = 0x80000000u;

  // Contracts `graph` (the subgoal graph of `map`, shared). REQUIRES:
  // map.uniform_cost(). `owns_graph`: whether the graph is this
  // structure's alone (counted in HeldBytes) or the map's subgoal graph.
  // `abandon` (when set) is polled every kAbandonPoll contracted subgoals
  // (and as often while redundant edges are dropped and every 64 first
  // priorities): once true, the build stops and returns null. The first
  // priorities (every node's, before any is contracted: the graph is only
  // read) are computed by `threads` threads (0: one for every 1024 nodes, at
  // most kBuildThreads and the machine's cores); the hierarchy is the same
  // whatever the number.
  static std::shared_ptr<const ContractionHierarchy> Build(
      const GridMap& map, std::shared_ptr<const SubgoalGraph> graph,
      bool owns_graph, const std::function<bool()>& abandon = nullptr,
      int threads = 0);
  static constexpr int kBuildThreads = 4;
  static constexpr uint32_t kAbandonPoll = 16;

  const SubgoalGraph& graph() const { return *graph_; }
  uint32_t node_count() const { return graph_->node_count(); }
  size_t arc_count() const { return arcs_.size(); }
  // Shortcuts among the arcs, and the subgoal graph's edges dropped as
  // redundant before contracting (both directions counted once).
  size_t shortcut_count() const { return shortcuts_; }
  size_t dropped_edge_count() const { return dropped_edges_; }
  // The subgoal graph's node of `rank`, and the rank of its node `node`.
  uint32_t NodeOfRank(uint32_t rank) const { return node_of_rank_[rank]; }
  uint32_t RankOf(uint32_t node) const { return rank_of_node_[node]; }
  // Padded coordinates of rank `rank`'s subgoal.
  int32_t XOfRank(uint32_t rank) const { return xy_of_rank_[rank] & 0xffff; }
  int32_t YOfRank(uint32_t rank) const { return xy_of_rank_[rank] >> 16; }
  // The upward arcs of rank `rank`.
  const Arc* ArcsBegin(uint32_t rank) const {
    return arcs_.data() + arc_begin_[rank];
  }
  const Arc* ArcsEnd(uint32_t rank) const {
    return arcs_.data() + arc_begin_[rank + 1];
  }
  // The upward arc from rank `low` to rank `high`, null when there is none.
  const Arc* FindArc(uint32_t low, uint32_t high) const;
  size_t MemoryBytes() const;
  size_t HeldBytes() const override { return MemoryBytes(); }

  // True when both hold the same arcs (tests: a deterministic build).
  bool SameAs(const ContractionHierarchy& other) const;

 private:
  std::shared_ptr<const SubgoalGraph> graph_;
  bool owns_graph_ = false;
  std::vector<uint32_t> node_of_rank_;
  std::vector<uint32_t> rank_of_node_;
  std::vector<uint32_t> xy_of_rank_;  // Padded x | padded y << 16.
  std::vector<uint32_t> arc_begin_;
  std::vector<Arc> arcs_;
  size_t shortcuts_ = 0;
  size_t dropped_edges_ = 0;
};

// Octile length (cells) of the subgoal graph's edge between nodes a and b.
inline double EdgeLength(const SubgoalGraph& g, uint32_t a, uint32_t b) {
  return OctileSteps(g.XOf(a), g.YOf(a), g.XOf(b), g.YOf(b));
}

// Searches from p.start to p.goal (padded indices, same component) over
// `ch` and writes the refined path into *r (cells, cost, expanded = nodes
// settled on both sides, generated). When the query's budget runs out
// first, the subgoal graph's own search answers instead (partially, as it
// does; r->algorithm says kSubgoal).
void RunContraction(const GridMap& map, const ContractionHierarchy& ch,
                    const SearchParams& p, SearchState& state, PathResult* r);

// BuildContraction (gridstar/engines/subgoal.h) that stops when `abandon`
// (when set) says so: CANCELLED, the map left without a hierarchy; and
// refuses a subgoal graph of more than `max_edge_pairs` edge pairs.
absl::Status BuildContractionUnless(
    GridMap* map, const std::function<bool()>& abandon,
    double max_edge_pairs = kMaxContractionEdgePairs);

// The pairs of edges that meet at a corner of `graph`, over all its corners
// (the sum of the squared edge counts).
double EdgePairs(const SubgoalGraph& graph);

// Its DerivedStructure (derived_structure.h) when `options` ask for it
// (building under options.abandon), else null.
std::unique_ptr<const DerivedStructure> ContractionStructure(
    const DerivedOptions& options);

// map's contraction hierarchy (Algorithm::kContraction's attachment), null
// without one.
inline const ContractionHierarchy* ContractionOf(const GridMap& map) {
  return AttachedTo<ContractionHierarchy>(map, Algorithm::kContraction);
}

}  // namespace gridstar::internal

#endif  // GRIDSTAR_SRC_ENGINES_SUBGOAL_CONTRACTION_H_
