#include "gridstar/scenario.h"

#include <cmath>
#include <limits>

#include "absl/status/status.h"
#include "absl/strings/numbers.h"
#include "absl/strings/str_cat.h"
#include "absl/strings/str_split.h"
#include "absl/strings/strip.h"
#include "io/text_util.h"

namespace gridstar {
namespace {

using internal::LineReader;
using internal::ParseStrictInt;
using internal::Quote;

absl::Status FieldError(int line, absl::string_view field,
                        absl::string_view got) {
  return absl::InvalidArgumentError(
      absl::StrCat("line ", line, ": ", field, ": invalid value ", Quote(got)));
}

absl::Status ParseCoordinate(int line, absl::string_view field,
                             absl::string_view token, int32_t* out) {
  int64_t v = 0;
  if (!ParseStrictInt(token, &v) || v < std::numeric_limits<int32_t>::min() ||
      v > std::numeric_limits<int32_t>::max()) {
    return FieldError(line, field, token);
  }
  *out = static_cast<int32_t>(v);
  return absl::OkStatus();
}

}  // namespace

absl::StatusOr<std::vector<ScenarioQuery>> ParseScenario(
    absl::string_view text) {
  LineReader lines(text);
  absl::string_view line;
  std::vector<ScenarioQuery> out;
  bool saw_version = false;
  while (lines.Next(&line)) {
    const int n = lines.line_number();
    absl::string_view stripped = absl::StripAsciiWhitespace(line);
    if (stripped.empty()) continue;
    std::vector<absl::string_view> f =
        absl::StrSplit(stripped, absl::ByAnyChar(" \t"), absl::SkipEmpty());
    if (!saw_version) {
      if (f.size() != 2 || f[0] != "version" ||
          (f[1] != "1" && f[1] != "1.0")) {
        return absl::InvalidArgumentError(absl::StrCat(
            "line ", n, ": expected 'version 1', got ", Quote(stripped)));
      }
      saw_version = true;
      continue;
    }
    if (f.size() != 9) {
      return absl::InvalidArgumentError(
          absl::StrCat("line ", n,
                       ": expected 9 fields (bucket map width "
                       "height start-x start-y goal-x goal-y optimal), got ",
                       f.size()));
    }
    ScenarioQuery q;
    q.line = n;
    if (!ParseStrictInt(f[0], &q.bucket)) return FieldError(n, "bucket", f[0]);
    q.map_path = std::string(f[1]);
    if (!ParseStrictInt(f[2], &q.map_width) || q.map_width < 0) {
      return FieldError(n, "map-width", f[2]);
    }
    if (!ParseStrictInt(f[3], &q.map_height) || q.map_height < 0) {
      return FieldError(n, "map-height", f[3]);
    }
    const struct {
      const char* name;
      absl::string_view token;
      int32_t* out;
    } coordinates[] = {{"start-x", f[4], &q.start.x},
                       {"start-y", f[5], &q.start.y},
                       {"goal-x", f[6], &q.goal.x},
                       {"goal-y", f[7], &q.goal.y}};
    for (const auto& c : coordinates) {
      if (absl::Status s = ParseCoordinate(n, c.name, c.token, c.out);
          !s.ok()) {
        return s;
      }
    }
    if (!absl::SimpleAtod(f[8], &q.optimal) || !std::isfinite(q.optimal) ||
        (q.optimal < 0 && q.optimal != -1)) {
      return FieldError(n, "optimal-length", f[8]);
    }
    out.push_back(std::move(q));
  }
  if (!saw_version) {
    return absl::InvalidArgumentError(
        "line 1: expected 'version 1', got an empty file");
  }
  return out;
}

bool LengthMatches(double length, double optimal) {
  if (optimal < 0 || length < 0) return optimal < 0 && length < 0;
  return std::fabs(length - optimal) <= 0.01 + 1e-5 * optimal;
}

}  // namespace gridstar
