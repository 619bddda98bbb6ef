// What the subgoal engines' tests (subgoal_test.cc, contraction_test.cc)
// share: the seeded random map kinds they check against brute force,
// random update batches, and builds that DerivedOptions::abandon stops.
#ifndef GRIDSTAR_TESTS_CORE_SUBGOAL_TEST_MAPS_H_
#define GRIDSTAR_TESTS_CORE_SUBGOAL_TEST_MAPS_H_

#include <algorithm>
#include <cstdint>
#include <random>
#include <vector>

#include "absl/status/status.h"
#include "absl/strings/string_view.h"
#include "gridstar/derived_data.h"
#include "gridstar/map_update.h"
#include "testing/reference.h"

namespace gridstar::testing {

struct SubgoalMapCase {
  const char* name;
  RandomMapSpec spec;
};

// Open, cluttered, dense, a maze, uniform cost above 1, thin, one row.
inline constexpr SubgoalMapCase kSubgoalMaps[] = {
    {"open 90x70", {90, 70, 0.05, 1, false, 1}},
    {"cluttered 80x80", {80, 80, 0.3, 1, false, 1}},
    {"dense 60x60", {60, 60, 0.42, 1, false, 1}},
    {"maze 65x97", {65, 97, 0.0, 1, true, 1}},
    {"cost 4 70x50", {70, 50, 0.2, 4, false, 4}},
    {"thin 200x3", {200, 3, 0.15, 1, false, 1}},
    {"single row 50x1", {50, 1, 0.1, 1, false, 1}},
};

// One to three squares (side 1, or 1 to 8 one time in four) blocked or
// opened at random.
inline std::vector<CellChange> RandomSquareChanges(int32_t w, int32_t h,
                                                   std::mt19937& rng) {
  std::vector<CellChange> changes;
  for (int k = 1 + static_cast<int>(rng() % 3); k > 0; --k) {
    const int32_t side =
        rng() % 4 == 0 ? 1 + static_cast<int32_t>(rng() % 8) : 1;
    CellChange c;
    c.min = {static_cast<int32_t>(rng() % w), static_cast<int32_t>(rng() % h)};
    c.max = {std::min(w, c.min.x + side), std::min(h, c.min.y + side)};
    c.cost = static_cast<uint8_t>(rng() % 2);
    changes.push_back(c);
  }
  return changes;
}

// Builds structure `name` alone (BuildDerived) on *map, its
// DerivedOptions::abandon saying stop from its `stop_at`-th poll on (never
// when 0); *polls gets the polls made. Returns BuildDerived's status.
inline absl::Status BuildAbandoningAt(GridMap* map, absl::string_view name,
                                      int stop_at, int* polls) {
  DerivedOptions options;
  options.Ask(name);
  *polls = 0;
  options.abandon = [=] { return ++*polls >= stop_at && stop_at > 0; };
  std::vector<DerivedReport> reports;
  return BuildDerived(options, map, &reports);
}

}  // namespace gridstar::testing

#endif  // GRIDSTAR_TESTS_CORE_SUBGOAL_TEST_MAPS_H_
