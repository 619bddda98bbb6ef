// Test helpers shared by the core suites: maps drawn as text and queries
// built in one call.
#ifndef GRIDSTAR_TESTS_TESTING_DRAWN_MAPS_H_
#define GRIDSTAR_TESTS_TESTING_DRAWN_MAPS_H_

#include <cstdint>
#include <string>
#include <vector>

#include "gridstar/find_path.h"
#include "gridstar/grid_map.h"

namespace gridstar::testing {

// Builds a cost-1 map from rows of '.' (free) and '#' (blocked); digits give
// terrain costs. REQUIRES: rows of equal, non-zero length.
inline GridMap Draw(const std::vector<std::string>& rows) {
  std::vector<uint8_t> costs;
  for (const std::string& row : rows) {
    for (char c : row) {
      costs.push_back(c == '#'   ? 0
                      : c == '.' ? 1
                                 : static_cast<uint8_t>(c - '0'));
    }
  }
  return *GridMap::FromCosts(static_cast<int64_t>(rows[0].size()),
                             static_cast<int64_t>(rows.size()), costs);
}

inline PathQuery Query(Cell start, Cell goal, Algorithm a, DiagonalPolicy p) {
  PathQuery q;
  q.start = start;
  q.goal = goal;
  q.algorithm = a;
  q.movement.diagonal = p;
  return q;
}

}  // namespace gridstar::testing

#endif  // GRIDSTAR_TESTS_TESTING_DRAWN_MAPS_H_
