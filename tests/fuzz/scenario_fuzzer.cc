// Fuzzes the scenario parser: queries or InvalidArgument naming a line.

#include <cstddef>
#include <cstdint>

#include "absl/strings/match.h"
#include "fuzz_util.h"
#include "gridstar/scenario.h"

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
  const absl::string_view text(reinterpret_cast<const char*>(data), size);
  auto queries = gridstar::ParseScenario(text);
  if (!queries.ok()) {
    FUZZ_CHECK(absl::IsInvalidArgument(queries.status()));
    FUZZ_CHECK(absl::StartsWith(queries.status().message(), "line "));
    return 0;
  }
  int last = 0;
  for (const auto& q : *queries) {
    FUZZ_CHECK(q.line > last);
    last = q.line;
    FUZZ_CHECK(q.optimal >= 0 || q.optimal == -1);
  }
  return 0;
}
