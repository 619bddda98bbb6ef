#include "gridstar/types.h"

#include "absl/status/status.h"
#include <string>

#include "absl/strings/ascii.h"
#include "absl/strings/match.h"
#include "absl/strings/str_cat.h"
#include "absl/strings/strip.h"

namespace gridstar {

std::string NormalizeEnumName(absl::string_view text, absl::string_view prefix) {
  std::string out;
  for (char c : absl::StripAsciiWhitespace(text)) {
    if (c == '+') {
      absl::StrAppend(&out, "_plus");
    } else if (c == '-' || c == ' ') {
      out.push_back('_');
    } else {
      out.push_back(absl::ascii_tolower(static_cast<unsigned char>(c)));
    }
  }
  const std::string lower_prefix = absl::AsciiStrToLower(prefix);
  absl::string_view v = out;
  if (!lower_prefix.empty() && absl::ConsumePrefix(&v, lower_prefix)) {
    return std::string(v);
  }
  return out;
}

std::string CanonicalEnumName(absl::string_view text, absl::string_view prefix) {
  std::string snake = NormalizeEnumName(text, prefix);
  absl::string_view v = snake;
  std::string out;
  const bool plus = absl::ConsumeSuffix(&v, "_plus");
  for (char c : v) out.push_back(c == '_' ? '-' : c);
  if (plus) out.push_back('+');
  return out;
}

absl::string_view AlgorithmName(Algorithm a) {
  switch (a) {
#define GRIDSTAR_ALGORITHM(enumerator, value, name, optimal, any_angle) \
  case Algorithm::enumerator:                               \
    return name;
#include "gridstar/algorithms.inc"
#undef GRIDSTAR_ALGORITHM
  }
  return "unknown";
}

absl::string_view DiagonalPolicyName(DiagonalPolicy p) {
  switch (p) {
    case DiagonalPolicy::kNever:
      return "never";
    case DiagonalPolicy::kNoCornerCutting:
      return "no-corner-cutting";
    case DiagonalPolicy::kAllowCornerCutting:
      return "allow-corner-cutting";
  }
  return "unknown";
}

absl::StatusOr<Algorithm> ParseAlgorithm(absl::string_view name) {
  const std::string typed = NormalizeEnumName(name, "algorithm_");
  for (Algorithm a : kAllAlgorithms) {
    if (typed == NormalizeEnumName(AlgorithmName(a), "")) return a;
  }
  std::string names;
  for (Algorithm a : kAllAlgorithms) {
    absl::StrAppend(&names, names.empty() ? "" : ", ", AlgorithmName(a));
  }
  return absl::InvalidArgumentError(absl::StrCat(
      "algorithm: unknown name '", name, "' (expected one of ", names, ")"));
}

absl::StatusOr<DiagonalPolicy> ParseDiagonalPolicy(absl::string_view name) {
  const std::string typed = NormalizeEnumName(name, "diagonal_policy_");
  for (DiagonalPolicy p : kAllDiagonalPolicies) {
    if (typed == NormalizeEnumName(DiagonalPolicyName(p), "")) return p;
  }
  return absl::InvalidArgumentError(absl::StrCat(
      "diagonal: unknown policy '", name,
      "' (expected never, no-corner-cutting or allow-corner-cutting)"));
}

}  // namespace gridstar
