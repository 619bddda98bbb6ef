// Parser for Moving AI scenario files (`.map.scen`): a `version 1` (or
// `version 1.0`) line, then one query per line with nine fields separated by
// tabs or spaces:
//   bucket map-path map-width map-height start-x start-y goal-x goal-y optimal
// Blank lines are skipped. The map-path column is kept but callers should pair
// a scenario with the map beside it. An optimal length of -1 means the query
// has no path. Pure and thread-safe.

#ifndef GRIDSTAR_SCENARIO_H_
#define GRIDSTAR_SCENARIO_H_

#include <cstdint>
#include <string>
#include <vector>

#include "absl/status/statusor.h"
#include "absl/strings/string_view.h"
#include "gridstar/types.h"

namespace gridstar {

struct ScenarioQuery {
  int line = 0;  // 1-based line number in the file.
  int64_t bucket = 0;
  std::string map_path;
  int64_t map_width = 0;
  int64_t map_height = 0;
  Cell start;
  Cell goal;
  double optimal = -1;  // -1: no path.
};

// InvalidArgument naming the line and field for any malformed line.
absl::StatusOr<std::vector<ScenarioQuery>> ParseScenario(
    absl::string_view text);

// True when `length` matches `optimal` within the benchmark's rounding:
// |length - optimal| <= 0.01 + 1e-5 * optimal. -1 matches only -1.
bool LengthMatches(double length, double optimal);

}  // namespace gridstar

#endif  // GRIDSTAR_SCENARIO_H_
