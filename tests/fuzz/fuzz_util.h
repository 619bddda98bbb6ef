// Helpers shared by the fuzz targets. A failed check aborts, which libFuzzer
// (and the replay driver) report as a crash with the input saved.

#ifndef GRIDSTAR_TESTS_FUZZ_FUZZ_UTIL_H_
#define GRIDSTAR_TESTS_FUZZ_FUZZ_UTIL_H_

#include <cstddef>
#include <cstdint>
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

// The input's bytes in order, then zeros once they run out.
class Bytes {
 public:
  Bytes(const uint8_t* data, size_t size) : data_(data), size_(size) {}
  uint8_t Next() { return at_ < size_ ? data_[at_++] : 0; }

 private:
  const uint8_t* data_;
  size_t size_;
  size_t at_ = 0;
};

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
