// Helpers shared by the fuzz targets. A failed check aborts, which libFuzzer
// (and the replay driver) report as a crash with the input saved.

#ifndef GRIDSTAR_TESTS_FUZZ_FUZZ_UTIL_H_
#define GRIDSTAR_TESTS_FUZZ_FUZZ_UTIL_H_

#include <cstdio>
#include <cstdlib>

#include "gridstar/grid_map.h"

#define FUZZ_CHECK(cond)                                               \
  do {                                                                 \
    if (!(cond)) {                                                     \
      std::fprintf(stderr, "%s:%d: FUZZ_CHECK failed: %s\n", __FILE__, \
                   __LINE__, #cond);                                   \
      std::abort();                                                    \
    }                                                                  \
  } while (0)

namespace gridstar::fuzz {

// Limits for the readers under fuzzing: small enough that no input makes a
// slow or huge map, large enough to cover every code path.
inline MapLimits SmallLimits() {
  MapLimits limits;
  limits.max_width = limits.max_height = 512;
  limits.max_cells = 1 << 16;
  return limits;
}

}  // namespace gridstar::fuzz

#endif  // GRIDSTAR_TESTS_FUZZ_FUZZ_UTIL_H_
