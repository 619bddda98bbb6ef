// Footprint: the world as an agent of some class sees it (agents.h),
// written plainly from the contract as a test oracle, independent of
// core/src: every cell of the agent's square checked one by one (on the
// map, passable, in an allowed area), diagonals checked square by square,
// costs the square's dearest cell times its area's multiplier. Used by the
// agent suites and the search fuzz target.
#ifndef GRIDSTAR_TESTS_TESTING_FOOTPRINT_H_
#define GRIDSTAR_TESTS_TESTING_FOOTPRINT_H_

#include <algorithm>
#include <cmath>
#include <cstdint>
#include <string>
#include <vector>

#include "gridstar/agents.h"
#include "gridstar/find_path.h"
#include "gridstar/grid_map.h"
#include "testing/reference.h"

namespace gridstar::testing {

// The world as an agent sees it, cell by cell (the oracle).
struct Footprint {
  const GridMap& map;
  const std::vector<uint8_t>& areas;
  const AgentClass& agent;

  uint8_t Area(int64_t x, int64_t y) const {
    return areas.empty() ? 0 : areas[static_cast<size_t>(y) * map.width() + x];
  }
  bool Allowed(int64_t x, int64_t y) const {
    if (x < 0 || y < 0 || x >= map.width() || y >= map.height()) return false;
    const Cell c{static_cast<int32_t>(x), static_cast<int32_t>(y)};
    return map.cost(c) != 0 && ((agent.areas >> Area(x, y)) & 1) != 0;
  }
  bool SquareFree(int64_t x, int64_t y) const {
    for (int dy = 0; dy < agent.size; ++dy) {
      for (int dx = 0; dx < agent.size; ++dx) {
        if (!Allowed(x + dx, y + dy)) return false;
      }
    }
    return true;
  }
  // A cell's cost times its area's multiplier, halves rounded up.
  // REQUIRES: (x, y) on the map.
  double CellCost(int64_t x, int64_t y) const {
    const Cell c{static_cast<int32_t>(x), static_cast<int32_t>(y)};
    return std::floor(map.cost(c) * agent.area_costs[Area(x, y)] + 0.5);
  }
  // REQUIRES: SquareFree(x, y).
  double SquareCost(int64_t x, int64_t y) const {
    double worst = 0;
    for (int dy = 0; dy < agent.size; ++dy) {
      for (int dx = 0; dx < agent.size; ++dx) {
        worst = std::max(worst, CellCost(x + dx, y + dy));
      }
    }
    return worst;
  }
  double Move(Cell a, Cell b, DiagonalPolicy policy) const {
    if (!SquareFree(a.x, a.y) || !SquareFree(b.x, b.y)) return -1;
    const int64_t dx = int64_t{b.x} - a.x, dy = int64_t{b.y} - a.y;
    if (dx < -1 || dx > 1 || dy < -1 || dy > 1 || (dx == 0 && dy == 0)) {
      return -1;
    }
    const double avg = (SquareCost(a.x, a.y) + SquareCost(b.x, b.y)) / 2;
    if (dx == 0 || dy == 0) return avg;
    if (policy == DiagonalPolicy::kNever) return -1;
    const bool side1 = SquareFree(b.x, a.y), side2 = SquareFree(a.x, b.y);
    const bool both_needed =
        policy == DiagonalPolicy::kNoCornerCutting || agent.size > 1;
    if (both_needed ? !(side1 && side2) : !(side1 || side2)) return -1;
    return std::sqrt(2.0) * avg;
  }
  std::vector<double> Distances(Cell start, DiagonalPolicy policy) const {
    return ReferenceDistancesWith(
        map.width(), map.height(), start, SquareFree(start.x, start.y),
        [&](Cell a, Cell b) { return Move(a, b, policy); });
  }
  // Empty when every move of r is legal for the agent and the costs add up.
  std::string Check(const PathResult& r, Cell start, Cell goal,
                    DiagonalPolicy policy) const {
    return CheckPathWith(r, start, goal, true, [&](Cell a, Cell b) {
      return Move(a, b, policy);
    });
  }
  // False when the cost of some passable cell in an allowed area, times
  // its multiplier, passes 255 (the agent map is then an error).
  bool Fits() const {
    for (int32_t y = 0; y < map.height(); ++y) {
      for (int32_t x = 0; x < map.width(); ++x) {
        if (Allowed(x, y) && CellCost(x, y) > 255) return false;
      }
    }
    return true;
  }
  // The agent map's costs, row-major: SquareCost where the square is free,
  // 0 elsewhere. REQUIRES: Fits().
  std::vector<uint8_t> Costs() const {
    std::vector<uint8_t> costs(static_cast<size_t>(map.cell_count()));
    for (int32_t y = 0; y < map.height(); ++y) {
      for (int32_t x = 0; x < map.width(); ++x) {
        costs[static_cast<size_t>(y) * map.width() + x] =
            SquareFree(x, y) ? static_cast<uint8_t>(SquareCost(x, y)) : 0;
      }
    }
    return costs;
  }
};

}  // namespace gridstar::testing

#endif  // GRIDSTAR_TESTS_TESTING_FOOTPRINT_H_
