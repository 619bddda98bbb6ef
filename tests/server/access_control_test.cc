// AccessControl on its own: token files, every level against every token,
// reloads that fail keep the keys they had.
#include "auth/access_control.h"

#include <atomic>
#include <cstdio>
#include <fstream>
#include <string>
#include <thread>
#include <vector>

#include "absl/strings/str_cat.h"
#include "gtest/gtest.h"
#include "testing/status_matchers.h"

namespace gridstar::server {
namespace {

std::string WriteFile(const std::string& name, const std::string& text) {
  const std::string path = absl::StrCat(::testing::TempDir(), "/", name);
  std::ofstream(path, std::ios::binary) << text;
  return path;
}

TEST(AccessControlTest, TokenFilesSkipCommentsAndBlanksAndTrim) {
  const std::string path = WriteFile(
      "tokens.a",
      "# keys\n\n  first-token-0123456789  \r\nsecond-token-0123456789\n");
  absl::StatusOr<std::vector<std::string>> tokens =
      AccessControl::ReadTokenFile(path, "admin_token_file");
  ASSERT_OK(tokens.status());
  EXPECT_EQ(*tokens, (std::vector<std::string>{"first-token-0123456789",
                                               "second-token-0123456789"}));
}

TEST(AccessControlTest, MalformedTokenFilesAreRefusedWithoutEchoingThem) {
  struct Case {
    const char* name;
    std::string text;
    const char* message;
  };
  const std::vector<Case> cases = {
      {"empty", "", "holds no token"},
      {"comments only", "# a\n\n# b\n", "holds no token"},
      {"too short", "short-secret\n", "line 1"},
      {"too long", std::string(AccessControl::kMaxTokenBytes + 1, 'x') + "\n",
       "line 1"},
      {"space inside", "good-token-0123456789\nbad token 0123456789\n",
       "line 2"},
      {"control character", "bad\x01token-0123456789\n", "line 1"},
  };
  for (const Case& c : cases) {
    SCOPED_TRACE(c.name);
    const std::string path = WriteFile(absl::StrCat("tokens.", c.name), c.text);
    absl::StatusOr<std::vector<std::string>> tokens =
        AccessControl::ReadTokenFile(path, "query_token_file");
    ASSERT_FALSE(tokens.ok());
    EXPECT_EQ(tokens.status().code(), absl::StatusCode::kInvalidArgument);
    const std::string message(tokens.status().message());
    EXPECT_NE(message.find("--query_token_file"), std::string::npos) << message;
    EXPECT_NE(message.find(c.message), std::string::npos) << message;
    EXPECT_EQ(message.find("0123456789"), std::string::npos) << message;
  }
  absl::StatusOr<std::vector<std::string>> missing =
      AccessControl::ReadTokenFile("/nonexistent/tokens", "admin_token_file");
  EXPECT_EQ(missing.status().code(), absl::StatusCode::kFailedPrecondition);
}

TEST(AccessControlTest, EveryLevelAgainstEveryToken) {
  const std::string admin =
      WriteFile("admin.tokens", "admin-token-0123456789\n");
  const std::string query =
      WriteFile("query.tokens", "query-token-0123456789\n");
  absl::StatusOr<std::unique_ptr<AccessControl>> access =
      AccessControl::Create(admin, query);
  ASSERT_OK(access.status());
  ASSERT_TRUE((*access)->enabled());
  EXPECT_EQ((*access)->admin_tokens(), 1u);
  EXPECT_EQ((*access)->query_tokens(), 1u);
  using C = absl::StatusCode;
  const std::string kLong = absl::StrCat("Bearer ", std::string(300, 'a'));
  struct Case {
    const char* name;
    absl::optional<absl::string_view> authorization;
    C query;  // The code for a call that needs a query token.
    C admin;  // ... and for one that needs an admin token.
  };
  const std::vector<Case> cases = {
      {"none", absl::nullopt, C::kUnauthenticated, C::kUnauthenticated},
      {"empty", "", C::kUnauthenticated, C::kUnauthenticated},
      {"scheme only", "Bearer ", C::kUnauthenticated, C::kUnauthenticated},
      {"query", "Bearer query-token-0123456789", C::kOk, C::kPermissionDenied},
      {"admin", "Bearer admin-token-0123456789", C::kOk, C::kOk},
      {"admin, scheme in capitals", "BEARER admin-token-0123456789", C::kOk,
       C::kOk},
      {"unknown", "Bearer other-token-0123456789", C::kUnauthenticated,
       C::kUnauthenticated},
      {"admin without the last character", "Bearer admin-token-012345678",
       C::kUnauthenticated, C::kUnauthenticated},
      {"admin and one more", "Bearer admin-token-01234567890",
       C::kUnauthenticated, C::kUnauthenticated},
      {"longer than any token", kLong, C::kUnauthenticated,
       C::kUnauthenticated},
      {"no scheme", "admin-token-0123456789", C::kUnauthenticated,
       C::kUnauthenticated},
  };
  for (const Case& c : cases) {
    SCOPED_TRACE(c.name);
    EXPECT_EQ((*access)
                  ->Authorize(c.authorization, AccessLevel::kQuery, "GetMap")
                  .code(),
              c.query);
    const absl::Status s =
        (*access)->Authorize(c.authorization, AccessLevel::kAdmin, "DeleteMap");
    EXPECT_EQ(s.code(), c.admin);
    EXPECT_EQ(std::string(s.message()).find("0123456789"), std::string::npos)
        << s;
    EXPECT_OK(
        (*access)->Authorize(c.authorization, AccessLevel::kNone, "Check"));
  }
}

TEST(AccessControlTest, WithoutFilesEverythingIsAdmitted) {
  absl::StatusOr<std::unique_ptr<AccessControl>> access =
      AccessControl::Create("", "");
  ASSERT_OK(access.status());
  EXPECT_FALSE((*access)->enabled());
  EXPECT_OK(
      (*access)->Authorize(absl::nullopt, AccessLevel::kAdmin, "DeleteMap"));
  EXPECT_OK((*access)->Reload());
}

TEST(AccessControlTest, OneFileAloneGivesOnlyItsLevel) {
  const std::string query =
      WriteFile("only-query.tokens", "query-token-0123456789\n");
  absl::StatusOr<std::unique_ptr<AccessControl>> access =
      AccessControl::Create("", query);
  ASSERT_OK(access.status());
  const absl::string_view token = "Bearer query-token-0123456789";
  EXPECT_OK((*access)->Authorize(token, AccessLevel::kQuery, "FindPath"));
  EXPECT_EQ(
      (*access)->Authorize(token, AccessLevel::kAdmin, "RegisterMap").code(),
      absl::StatusCode::kPermissionDenied);
}

TEST(AccessControlTest, AFailedReloadKeepsTheKeysItHad) {
  const std::string path =
      WriteFile("reload.tokens", "first-token-0123456789\n");
  absl::StatusOr<std::unique_ptr<AccessControl>> access =
      AccessControl::Create(path, "");
  ASSERT_OK(access.status());
  WriteFile("reload.tokens", "second-token-0123456789\nshort\n");
  EXPECT_FALSE((*access)->Reload().ok());
  EXPECT_OK((*access)->Authorize("Bearer first-token-0123456789",
                                 AccessLevel::kAdmin, "x"));
  WriteFile("reload.tokens", "second-token-0123456789\n");
  ASSERT_OK((*access)->Reload());
  EXPECT_OK((*access)->Authorize("Bearer second-token-0123456789",
                                 AccessLevel::kAdmin, "x"));
  EXPECT_EQ(
      (*access)
          ->Authorize("Bearer first-token-0123456789", AccessLevel::kAdmin, "x")
          .code(),
      absl::StatusCode::kUnauthenticated);
}

// Calls see the keys before or after a reload, never a mix, while reloads
// swap them (the TSan stage runs this: the lock must be one TSan sees).
TEST(AccessControlTest, CallsDuringReloadsSeeOneSetOfKeys) {
  const std::string path = WriteFile(
      "racing.tokens", "stable-token-0123456789\nold-token-0123456789\n");
  absl::StatusOr<std::unique_ptr<AccessControl>> access =
      AccessControl::Create(path, "");
  ASSERT_OK(access.status());
  // The file always holds the stable token and one of two others; a
  // reload reads it whole (written aside, then renamed into place).
  const std::string tmp = path + ".tmp";
  std::atomic<bool> stop{false};
  std::atomic<int> refused{0};
  std::vector<std::thread> callers;
  for (int t = 0; t < 2; ++t) {
    callers.emplace_back([&] {
      while (!stop.load()) {
        if (!(*access)
                 ->Authorize("Bearer stable-token-0123456789",
                             AccessLevel::kAdmin, "x")
                 .ok()) {
          refused.fetch_add(1);
        }
      }
    });
  }
  for (int i = 0; i < 200; ++i) {
    std::ofstream(tmp, std::ios::binary)
        << "stable-token-0123456789\n"
        << (i % 2 ? "old-token-0123456789\n" : "new-token-0123456789\n");
    ASSERT_EQ(std::rename(tmp.c_str(), path.c_str()), 0);
    ASSERT_OK((*access)->Reload());
  }
  stop.store(true);
  for (std::thread& t : callers) t.join();
  EXPECT_EQ(refused.load(), 0);
  // The last reload's keys are the ones in force.
  EXPECT_OK((*access)->Authorize("Bearer old-token-0123456789",
                                 AccessLevel::kAdmin, "x"));
  EXPECT_EQ((*access)
                ->Authorize("Bearer new-token-0123456789", AccessLevel::kAdmin,
                            "x")
                .code(),
            absl::StatusCode::kUnauthenticated);
}

}  // namespace
}  // namespace gridstar::server
