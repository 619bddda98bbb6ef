// DStarLite: incremental replanning for one agent (D* Lite, Koenig &
// Likhachev 2002), for units that walk while their map changes.
//
// The planner searches backwards from the goal and keeps what it learnt
// (g and rhs values of the cells it touched) between calls. After the
// agent moved (MoveStart) and cells changed (the `changed` rectangles given
// to Plan), the next Plan repairs only what the changes made inconsistent,
// which costs far less than a fresh search when the changes are few and
// near the agent's long path, and more when they are many or near the goal
// (tests/bench: `gridstar-bench --replan` measures both).
//
// Paths are optimal under the query's policy and the cost model of
// find_path.h (every policy, terrain costs). The heuristic is the octile
// (Manhattan under kNever) distance times the map's cheapest cost when the
// planner started; a change that makes some cell cheaper than that
// restarts the plan from scratch (a fresh D* Lite search), as does a map of
// other dimensions.
//
// Memory: a node record per touched cell (about 40 bytes in a hash map) and
// the open list; at most Options::max_nodes records, beyond which Plan
// drops everything and answers ResourceExhausted (the caller then runs a
// fresh search). memory_bytes() reports what is held.
//
// Thread-safety: one planner per agent; not safe for concurrent calls. The
// map passed to Plan is only read during the call.
#ifndef GRIDSTAR_INCREMENTAL_H_
#define GRIDSTAR_INCREMENTAL_H_

#include <cstddef>
#include <cstdint>
#include <memory>

#include "absl/status/status.h"
#include "absl/types/span.h"
#include "gridstar/grid_map.h"
#include "gridstar/map_update.h"
#include "gridstar/path_query.h"
#include "gridstar/types.h"

namespace gridstar {

class DStarLite {
 public:
  struct Options {
    DiagonalPolicy diagonal = DiagonalPolicy::kNoCornerCutting;
    // Most node records held; 0 = no limit.
    size_t max_nodes = size_t{1} << 20;
  };

  // REQUIRES: nothing of the map yet; Plan checks the ends.
  DStarLite(Cell start, Cell goal, Options options);
  ~DStarLite();
  DStarLite(DStarLite&&) noexcept;
  DStarLite& operator=(DStarLite&&) noexcept;

  // The agent is now at `start` (anywhere: Plan checks it).
  void MoveStart(Cell start);
  Cell start() const;
  Cell goal() const;

  // Plans (the first call) or replans on `map`, the newest version, after
  // `changed` (the rectangles changed since the previous call; empty for
  // the first). Fills out->cells (start to goal), out->cost, out->expanded
  // (cells taken off the open list by this call); out->algorithm is kAStar
  // (the optimal family). InvalidArgument for an end off the map or
  // blocked; NotFound when no path joins them (decided from the map's
  // components, without searching; the state is kept); ResourceExhausted beyond
  // max_nodes (the state is dropped).
  absl::Status Plan(const GridMap& map, absl::Span<const CellChange> changed,
                    PathResult* out);

  // Node records held and their bytes (with the open list).
  size_t nodes() const;
  size_t memory_bytes() const;

 private:
  struct State;
  std::unique_ptr<State> state_;
};

}  // namespace gridstar

#endif  // GRIDSTAR_INCREMENTAL_H_
