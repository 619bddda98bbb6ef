// Worlds of linked maps: least-cost paths across several maps joined by
// links (stairs, portals, doors, one-way drops, teleporters inside a map).
//
// A world is a list of maps (indexed 0..n-1 here; the server names them)
// and a list of links. A link joins a cell of one map to a cell of the same
// or another map: an agent standing on one end may move to the other at
// the link's cost (>= 0, finite; a zone edge may cost 0), in both
// directions or only from `from` to `to`, while the link is open, and only
// if the agent may use it: its size is at most max_agent_size and it may
// enter at least one of the link's areas (a ferry for agents that may
// enter water, say). A link's cost is not scaled by area costs. An end is
// usable when its cell is passable on its map as the agent sees it (the
// agent map, agents.h).
//
// Within a map, moves and their costs are find_path.h's. A world path is a
// sequence of legs (a path on one map) joined by the links taken; its cost
// is the sum of the legs' and the links'.
//
// How FindWorldPath answers, exactly. The abstract graph has a node for the
// start, the goal and each usable link end, and edges for the usable links
// and for every pair of nodes on one map (the start to its map's ends, its
// ends to the goal, the start to the goal when they share a map, and end to
// end within a map). An edge within a map has a weight that is either exact
// (a LinkEndTable built from this very version of the map, or a leg already
// searched in this query) or a lower bound (octile distance times the map's
// cheapest cost, raised by a fresh table's block bounds; infinite across
// components). The least path over those weights is found (Dijkstra, or
// with a WorldIndex of all pairs the best join of start, ends and goal);
// one of its edges that is only a lower bound is then searched on its map
// by FindPath with the query's algorithm, and the least path is found
// again, until it holds no lower bound. Every other
// path then costs at least as much, so the answer is exact whenever the
// query's algorithm is (types.h: IsOptimal). A stale table (built from
// another version of the map) is never read: its map is searched lazily.
//
// "No path" is decided without searching: the components of each map (as
// the agent sees it) joined by the usable links, in their directions,
// must lead from the start's component to the goal's.
//
// Thread-safety: pure functions of their arguments; a LinkEndTable and a
// WorldIndex are immutable once built and may be read by any number of
// threads. One
// SearchContext per calling thread, as FindPath.

#ifndef GRIDSTAR_WORLD_H_
#define GRIDSTAR_WORLD_H_

#include <cstddef>
#include <cstdint>
#include <memory>
#include <vector>

#include "absl/status/status.h"
#include "absl/status/statusor.h"
#include "absl/types/span.h"
#include "gridstar/agents.h"
#include "gridstar/grid_map.h"
#include "gridstar/path_query.h"
#include "gridstar/search_context.h"
#include "gridstar/types.h"

namespace gridstar {

// A cell of one of the world's maps.
struct WorldCell {
  int32_t map = 0;
  Cell cell;

  friend bool operator==(const WorldCell& a, const WorldCell& b) {
    return a.map == b.map && a.cell == b.cell;
  }
  friend bool operator!=(const WorldCell& a, const WorldCell& b) {
    return !(a == b);
  }
};

inline constexpr double kMaxLinkCost = 1e9;

struct WorldLink {
  WorldCell from;
  WorldCell to;
  // In [0, kMaxLinkCost].
  double cost = 1;
  // False: only from `from` to `to` (a drop, a one-way portal).
  bool both_ways = true;
  // A closed door: no one passes.
  bool open = true;
  // The agent must be allowed in at least one of these areas.
  uint64_t areas = kAllAreas;
  // Agents larger than this may not use the link; 1 to kMaxAgentSize.
  int32_t max_agent_size = kMaxAgentSize;
};

// OkStatus when every link's ends lie on `maps` (by index) and are
// passable there, its cost is finite and in range, its areas mask is not
// empty and its max_agent_size is in [1, kMaxAgentSize]; else
// InvalidArgument naming "<field>[i].<member>" (field "links" when empty),
// e.g. "links[3].to: (9, 2) is blocked on map 1".
absl::Status ValidateWorldLinks(absl::Span<const GridMap* const> maps,
                                absl::Span<const WorldLink> links,
                                absl::string_view field = "links");

// True when an agent of `agent`'s class may use the link at all (open,
// size, areas); its ends' cells are checked on the agent maps separately.
bool LinkAdmits(const WorldLink& link, const AgentClass& agent);

// Exact least costs between given cells of one map (the link ends), under
// one diagonal policy, and for each of them bounds on its cost to any cell:
// one Dijkstra from each end over the map, recording the exact costs to the
// other ends and, per square block of block() x block() cells, the
// least and the greatest cost to a cell of the block that the end reaches
// (so the cost from an end to a cell is within its block's bounds). On a map
// of more than `max_bounded_cells` cells there are no bounds, and the costs
// between ends come from one search per pair (FindPath, auto) instead.
// Holds a copy of the map (sharing its storage), so `BuiltFrom` can tell
// the very version it was built from.
class LinkEndTable {
 public:
  // The blocks' side: the smallest power of two from kMinBoundBlock whose
  // bounds take at most kMaxBoundBytesPerEnd an end (4 on maps up to 512 x
  // 512, 8 up to 1024 x 1024, 16 up to 2048 x 2048).
  static constexpr int32_t kMinBoundBlock = 4;
  static constexpr size_t kMaxBoundBytesPerEnd = size_t{256} << 10;
  static constexpr int64_t kDefaultMaxBoundedCells = int64_t{2048} * 2048;

  // `cells` may repeat and hold blocked cells (their rows are infinite).
  // REQUIRES: every cell InBounds of `map`.
  static std::shared_ptr<const LinkEndTable> Build(
      const GridMap& map, DiagonalPolicy policy, absl::Span<const Cell> cells,
      int64_t max_bounded_cells = kDefaultMaxBoundedCells);

  // True when `map` is the version this table was built from (the same
  // storage, not merely equal costs).
  bool BuiltFrom(const GridMap& map) const {
    return map.padded_costs() == map_.padded_costs();
  }
  DiagonalPolicy policy() const { return policy_; }
  // The table's cells, sorted (by y, then x), without repeats.
  const std::vector<Cell>& cells() const { return cells_; }
  // Index of `c` in cells(), or -1.
  int IndexOf(Cell c) const;
  // Least cost from cells()[i] to cells()[j]; +infinity when no path.
  double Cost(int i, int j) const { return costs_[i * cells_.size() + j]; }
  bool has_bounds() const { return !lower_.empty(); }
  int32_t block() const { return block_; }
  // Bounds on the least cost between cells()[i] and `c`. REQUIRES:
  // has_bounds(); c connected to cells()[i] (else they mean nothing).
  double LowerBound(int i, Cell c) const { return lower_[BoundAt(i, c)]; }
  double UpperBound(int i, Cell c) const { return upper_[BoundAt(i, c)]; }
  size_t MemoryBytes() const;

 private:
  LinkEndTable(const GridMap& map, DiagonalPolicy policy)
      : map_(map), policy_(policy) {}
  void BuildBySearches();
  void BuildByDistances();
  size_t BoundAt(int i, Cell c) const {
    return static_cast<size_t>(i) * blocks_per_end_ +
           static_cast<size_t>(c.y / block_) * blocks_across_ +
           static_cast<size_t>(c.x / block_);
  }
  GridMap map_;
  DiagonalPolicy policy_;
  std::vector<Cell> cells_;
  std::vector<double> costs_;
  int32_t block_ = kMinBoundBlock;
  size_t blocks_across_ = 0;
  size_t blocks_per_end_ = 0;
  // Per end, per block: the bounds, rounded outward to float.
  std::vector<float> lower_;
  std::vector<float> upper_;
};

// One map of a world as a query sees it.
struct WorldMapView {
  // The map as the query's agent sees it (its agent map, or the map itself
  // when AgentSeesMapAsIs). Never null.
  const GridMap* map = nullptr;
  // Optional: exact distances between link ends, read only when BuiltFrom
  // this very `map` and built under the query's policy.
  const LinkEndTable* ends = nullptr;
};

struct WorldQuery {
  WorldCell start;
  WorldCell goal;
  // Per leg: the algorithm, its weight, the movement (the policy the agent
  // maps are searched under: AgentPolicy), smoothing and tracing. The
  // budget is the whole query's (expansions summed over the legs searched).
  // snap_radius must be 0 (ends are not snapped across a world).
  PathQuery leg;
  // Which links the agent may use (LinkAdmits). Its maps are the views'.
  AgentClass agent;
};

struct WorldLeg {
  int32_t map = 0;
  // cells, cost, waypoints with smoothing, the algorithm that ran, ...
  PathResult path;
};

struct WorldResult {
  // legs.size() == links.size() + 1: leg i ends where link links[i] is
  // entered and leg i + 1 starts where it leads. A leg may be one cell.
  std::vector<WorldLeg> legs;
  // Indices into the world's links, in the order taken.
  std::vector<int32_t> links;
  // Legs' costs plus links' costs.
  double cost = 0;
  bool partial = false;
  PartialReason partial_reason = PartialReason::kNone;
  // Searches run on maps (legs and lower-bound edges evaluated), their
  // expansions summed, and the abstract graph's rounds.
  uint32_t searches = 0;
  uint64_t expanded = 0;
  uint32_t rounds = 0;
  double micros = 0;
};

namespace internal {
struct WorldIndexData;
}  // namespace internal

// What FindWorldPath reads of a world that no query's ends change: the
// usable link ends and links for one agent class and policy, the weights
// between ends of one map, the component graph that decides "no path", and
// (`all_pairs`, when every such weight is exact and there are at most
// kMaxAllPairsEnds ends) the least costs between every two ends, so that a
// query only joins its start and goal to them. Built once per world
// version, map versions, tables, agent and policy, and read by any number
// of queries at once. Holds copies of the maps (sharing their storage, so
// BuiltFrom tells their versions) but not the tables: REQUIRES the views'
// tables outlive the index.
class WorldIndex {
 public:
  static constexpr int kMaxAllPairsEnds = 1024;

  // InvalidArgument naming links[i] when an end lies outside the maps.
  static absl::StatusOr<std::shared_ptr<const WorldIndex>> Build(
      absl::Span<const WorldMapView> maps, absl::Span<const WorldLink> links,
      const AgentClass& agent, DiagonalPolicy policy, bool all_pairs);
  ~WorldIndex();
  WorldIndex(const WorldIndex&) = delete;
  WorldIndex& operator=(const WorldIndex&) = delete;

  // True when `maps` are the very versions and tables it was built from.
  bool BuiltFrom(absl::Span<const WorldMapView> maps) const;
  bool all_pairs() const;
  int ends() const;
  size_t MemoryBytes() const;
  const internal::WorldIndexData& data() const { return *data_; }

 private:
  WorldIndex();
  std::unique_ptr<internal::WorldIndexData> data_;
};

// OkStatus, or InvalidArgument naming the field: ValidatePathQuery of the
// leg, snap_radius 0, ValidateAgentClass, start and goal on the maps and
// passable there ("start: (x, y) is blocked on map m").
absl::Status ValidateWorldQuery(absl::Span<const WorldMapView> maps,
                                const WorldQuery& query);

// The least-cost world path (see the top). Errors: ValidateWorldQuery's,
// InvalidArgument for a link end outside the maps, NotFound "no path" when
// the components of the maps joined by the usable links, in their
// directions, do not lead from the start to the goal (decided without
// searching), and
// FindPath's ResourceExhausted for a map larger than the context. Out of
// budget: the legs found so far along the best route, the last one partial,
// flagged partial.
absl::Status FindWorldPath(absl::Span<const WorldMapView> maps,
                           absl::Span<const WorldLink> links,
                           const WorldQuery& query, SearchContext& context,
                           WorldResult* result);

// The same, on an index: the query's agent and policy must be the index's
// (InvalidArgument otherwise). With all pairs, the least route is the best
// of the start's ends, the least cost between ends and the goal's ends,
// each edge of the start and the goal searched only when that best needs
// it; without, as above.
absl::Status FindWorldPath(const WorldIndex& index, const WorldQuery& query,
                           SearchContext& context, WorldResult* result);

// The reference: Dijkstra over the union of every map's cells and the
// links, no abstraction. The least cost, or +infinity when no path. Tests
// and benchmarks compare FindWorldPath with it. REQUIRES:
// ValidateWorldQuery passed; every link's ends on the maps.
double WorldDijkstraCost(absl::Span<const WorldMapView> maps,
                         absl::Span<const WorldLink> links,
                         const WorldQuery& query);

}  // namespace gridstar

#endif  // GRIDSTAR_WORLD_H_
