#include "gppc/entry_options.h"

#include <cstdio>
#include <cstdlib>

#include "absl/strings/str_cat.h"
#include "gridstar/auto_choice.h"
#include "gridstar/engines/jps.h"
#include "gridstar/engines/subgoal.h"
#include "gridstar/find_path.h"

namespace gridstar::gppc {

EntryOptions EntryOptionsFromEnv(Algorithm fallback) {
  EntryOptions o;
  o.algorithm = fallback;
  if (const char* name = std::getenv("GRIDSTAR_GPPC_ALGORITHM")) {
    absl::StatusOr<Algorithm> a = ParseAlgorithm(name);
    if (!a.ok() || !IsOptimal(*a)) {
      std::fprintf(stderr,
                   "GRIDSTAR_GPPC_ALGORITHM: '%s' is not an exact algorithm\n",
                   name);
      std::abort();
    }
    o.algorithm = *a;
  }
  o.name = absl::StrCat("gridstar-", AlgorithmName(o.algorithm));
  if (o.algorithm == Algorithm::kAuto) {
    // auto races every exact engine whose structure is there.
    o.structures.Ask(kJumpTableName)
        .Ask(kSubgoalGraphName)
        .Ask(kAutoChoiceName);
  } else if (absl::string_view s = StructureOf(o.algorithm); !s.empty()) {
    o.structures.Ask(s);
  }
  return o;
}

}  // namespace gridstar::gppc
