// What gridstar's competition entries search with: the engine named by the
// environment variable GRIDSTAR_GPPC_ALGORITHM (an algorithm name as the API
// spells it: auto, jps+, jps, subgoal, astar, ...; default `fallback`) and
// the structures it keeps, so that one built entry runs each engine.
//
// Thread-safety: reads the environment.
#ifndef GRIDSTAR_TESTS_BENCH_GPPC_ENTRY_OPTIONS_H_
#define GRIDSTAR_TESTS_BENCH_GPPC_ENTRY_OPTIONS_H_

#include <string>

#include "gridstar/derived_structure.h"
#include "gridstar/types.h"

namespace gridstar::gppc {

struct EntryOptions {
  Algorithm algorithm = Algorithm::kAuto;
  std::string name;  // "gridstar-jps+".
  DerivedOptions structures;
};

// Aborts naming the variable when it names no algorithm.
EntryOptions EntryOptionsFromEnv(Algorithm fallback);

}  // namespace gridstar::gppc

#endif  // GRIDSTAR_TESTS_BENCH_GPPC_ENTRY_OPTIONS_H_
