#include "gridstar/types.h"

#include "absl/status/status.h"
#include <string>

#include "absl/strings/str_cat.h"

namespace gridstar {

absl::string_view AlgorithmName(Algorithm a) {
  switch (a) {
    case Algorithm::kAStar:
      return "astar";
    case Algorithm::kWeighted:
      return "weighted";
    case Algorithm::kDijkstra:
      return "dijkstra";
    case Algorithm::kBaseline:
      return "baseline";
    case Algorithm::kJps:
      return "jps";
    case Algorithm::kJpsPlus:
      return "jps+";
    case Algorithm::kAuto:
      return "auto";
    case Algorithm::kAlt:
      return "alt";
    case Algorithm::kBidirectional:
      return "bidirectional";
    case Algorithm::kHpa:
      return "hpa";
    case Algorithm::kTheta:
      return "theta";
    case Algorithm::kSubgoal:
      return "subgoal";
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
  for (Algorithm a : kAllAlgorithms) {
    if (name == AlgorithmName(a)) return a;
  }
  std::string names;
  for (Algorithm a : kAllAlgorithms) {
    absl::StrAppend(&names, names.empty() ? "" : ", ", AlgorithmName(a));
  }
  return absl::InvalidArgumentError(absl::StrCat(
      "algorithm: unknown name '", name, "' (expected one of ", names, ")"));
}

absl::StatusOr<DiagonalPolicy> ParseDiagonalPolicy(absl::string_view name) {
  for (DiagonalPolicy p : kAllDiagonalPolicies) {
    if (name == DiagonalPolicyName(p)) return p;
  }
  return absl::InvalidArgumentError(absl::StrCat(
      "diagonal: unknown policy '", name,
      "' (expected never, no-corner-cutting or allow-corner-cutting)"));
}

}  // namespace gridstar
