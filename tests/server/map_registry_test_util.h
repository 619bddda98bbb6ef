// What the MapRegistry tests share: small maps and the field namer of
// updates.
#ifndef GRIDSTAR_TESTS_SERVER_MAP_REGISTRY_TEST_UTIL_H_
#define GRIDSTAR_TESTS_SERVER_MAP_REGISTRY_TEST_UTIL_H_

#include <cstdint>
#include <random>
#include <string>
#include <vector>

#include "absl/strings/str_cat.h"
#include "gridstar/grid_map.h"

namespace gridstar::server::registry_testing {

inline GridMap Uniform(int32_t w, int32_t h, uint8_t cost = 1) {
  return GridMap::FromCosts(w, h, std::vector<uint8_t>(size_t(w) * h, cost))
      .value();
}

inline GridMap Random(int32_t w, int32_t h, uint32_t seed, bool uniform) {
  std::mt19937 rng(seed);
  std::vector<uint8_t> costs(size_t(w) * h);
  for (uint8_t& c : costs) {
    c = rng() % 5 == 0 ? 0 : (uniform ? 1 : 1 + rng() % 6);
  }
  return GridMap::FromCosts(w, h, costs).value();
}

inline std::string Field(size_t i) { return absl::StrCat("changes[", i, "]"); }

}  // namespace gridstar::server::registry_testing

#endif  // GRIDSTAR_TESTS_SERVER_MAP_REGISTRY_TEST_UTIL_H_
