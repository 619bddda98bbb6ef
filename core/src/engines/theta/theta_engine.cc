// Theta* (theta.cc), checked against A*'s optimal grid path string-pulled
// (A* + smooth): where that is the cheaper any-angle path, it is the answer.
// Theta*'s corners are cell centres it reached by its own search, which now
// and then (a few percent of queries on cluttered maps, by under 2% in cost)
// misses a line that string-pulling finds; with the check, kTheta is never
// above A* + smooth. Both searches' work counts in expanded and generated,
// and both share max_expansions (the check runs on what Theta* left); the
// trace is Theta*'s. An out-of-budget Theta* answers as it is; an
// out-of-budget grid search leaves Theta*'s answer.

#include <atomic>
#include <cstdint>
#include <utility>
#include <vector>

#include "engines/engine.h"
#include "engines/theta/theta.h"
#include "search/path_tools.h"

namespace gridstar::internal {
namespace {

std::atomic<bool> theta_grid_check{true};

// Theta*'s answer while the grid path is checked against it.
struct ThetaScratch final : EngineScratch {
  std::vector<Cell> held_cells;
  std::vector<Cell> held_waypoints;
  size_t MemoryBytes() const override {
    return (held_cells.capacity() + held_waypoints.capacity()) * sizeof(Cell);
  }
};

class ThetaEngine final : public Engine {
 public:
  Algorithm algorithm() const override { return Algorithm::kTheta; }
  void Run(const GridMap& map, const PathQuery& q, const SearchParams& p,
           SearchState& state, PathResult* r) const override {
    const DiagonalPolicy policy = q.movement.diagonal;
    RunTheta(map, policy, p, state, r);
    if (r->partial || !theta_grid_check.load(std::memory_order_relaxed)) {
      return;
    }
    // Both searches share max_expansions: the check gets what Theta* left.
    const uint64_t limit = q.budget.max_expansions;
    if (limit != 0 && r->expanded >= limit) return;
    // A*'s parameters between the same ends, untraced.
    SearchParams grid = p;
    if (limit != 0) grid.budget.max_expansions = limit - r->expanded;
    grid.trace = nullptr;
    // Theta*'s answer waits in the engine's scratch.
    ThetaScratch& held = state.Scratch<ThetaScratch>(Algorithm::kTheta);
    std::swap(r->cells, held.held_cells);
    std::swap(r->waypoints, held.held_waypoints);
    const double cost = r->cost, smoothed_cost = r->smoothed_cost;
    const uint64_t expanded = r->expanded, generated = r->generated;
    state.BeginSearch(map);
    RunBestFirst(map, policy, grid, state, r);
    bool grid_wins = false;
    if (!r->partial) {
      SmoothPath(map, policy, state, r);
      grid_wins = r->smoothed_cost < smoothed_cost;
    }
    r->expanded += expanded;
    r->generated += generated;
    r->partial = false;
    r->partial_reason = PartialReason::kNone;
    if (grid_wins) return;
    std::swap(r->cells, held.held_cells);
    std::swap(r->waypoints, held.held_waypoints);
    r->cost = cost;
    r->smoothed_cost = smoothed_cost;
  }
};

}  // namespace

void SetThetaGridCheckForTesting(bool enabled) {
  theta_grid_check.store(enabled);
}

GRIDSTAR_DEFINE_ENGINE(kTheta, ThetaEngine)

}  // namespace gridstar::internal
