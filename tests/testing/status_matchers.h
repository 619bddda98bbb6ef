// ASSERT_OK / EXPECT_OK for absl::Status and absl::StatusOr, and a check of
// a status's code and message, for the GoogleTest suites.

#ifndef GRIDSTAR_TESTS_TESTING_STATUS_MATCHERS_H_
#define GRIDSTAR_TESTS_TESTING_STATUS_MATCHERS_H_

#include <string>

#include "absl/status/status.h"
#include "absl/status/statusor.h"
#include "absl/strings/match.h"
#include "gtest/gtest.h"

namespace gridstar::testing {

inline const absl::Status& GetStatus(const absl::Status& s) { return s; }
template <typename T>
const absl::Status& GetStatus(const absl::StatusOr<T>& s) {
  return s.status();
}

template <typename T>
::testing::AssertionResult StatusIsOk(const char* expr, const T& value) {
  const absl::Status& s = GetStatus(value);
  if (s.ok()) return ::testing::AssertionSuccess();
  return ::testing::AssertionFailure() << expr << " is " << s.ToString();
}

// Passes when the status has `code` and its message contains `fragment`.
template <typename T>
::testing::AssertionResult StatusIs(const T& value, absl::StatusCode code,
                                    const std::string& fragment) {
  const absl::Status& s = GetStatus(value);
  if (s.code() == code && absl::StrContains(s.message(), fragment)) {
    return ::testing::AssertionSuccess();
  }
  return ::testing::AssertionFailure()
         << "got " << s.ToString() << ", expected code "
         << absl::StatusCodeToString(code) << " with '" << fragment << "'";
}

}  // namespace gridstar::testing

#define ASSERT_OK(expr) \
  ASSERT_PRED_FORMAT1(::gridstar::testing::StatusIsOk, expr)
#define EXPECT_OK(expr) \
  EXPECT_PRED_FORMAT1(::gridstar::testing::StatusIsOk, expr)

#endif  // GRIDSTAR_TESTS_TESTING_STATUS_MATCHERS_H_
