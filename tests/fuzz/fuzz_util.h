// Helpers shared by the fuzz targets. A failed check aborts, which libFuzzer
// (and the replay driver) report as a crash with the input saved.

#ifndef GRIDSTAR_TESTS_FUZZ_FUZZ_UTIL_H_
#define GRIDSTAR_TESTS_FUZZ_FUZZ_UTIL_H_

#include <cstdio>
#include <cstdlib>

#define FUZZ_CHECK(cond)                                                   \
  do {                                                                     \
    if (!(cond)) {                                                         \
      std::fprintf(stderr, "%s:%d: FUZZ_CHECK failed: %s\n", __FILE__,     \
                   __LINE__, #cond);                                       \
      std::abort();                                                        \
    }                                                                      \
  } while (0)

#endif  // GRIDSTAR_TESTS_FUZZ_FUZZ_UTIL_H_
