// The binaries' command lines: --help lists each program's own flags
// (every one --helpfull shows from the program's sources) with defaults,
// grouped; every gridstar-server flag can be set from the environment as
// FLAGS_<name> (the command line winning); a bad environment value is
// refused naming the variable; negative numbers are arguments, not flags.
#include <cstdlib>
#include <map>
#include <regex>
#include <set>
#include <string>
#include <vector>

#include "absl/flags/reflection.h"
#include "absl/strings/match.h"
#include "absl/strings/numbers.h"
#include "absl/strings/str_cat.h"
#include "absl/strings/str_split.h"
#include "gtest/gtest.h"
#include "server/server_test_util.h"

namespace gridstar {
namespace {

using namespace testing::server_suite;  // NOLINT(build/namespaces)

std::string RunCommand(const std::string& command, int* code) {
  return testing::RunAndCapture(absl::StrCat(command, " 2>&1"), code);
}

// Flags --helpfull lists under a source file whose path contains `source`.
std::set<std::string> HelpfullFlags(const std::string& binary,
                                    const std::string& source) {
  int code = 0;
  const std::string out =
      RunCommand(absl::StrCat(binary, " --helpfull"), &code);
  std::set<std::string> names;
  bool in_source = false;
  for (absl::string_view line : absl::StrSplit(out, '\n')) {
    if (absl::StartsWith(line, "  Flags from ")) {
      in_source = absl::StrContains(line, source);
      continue;
    }
    static const std::regex kFlag("^    --([a-z_0-9]+) ");
    std::cmatch m;
    const std::string l(line);
    if (in_source && std::regex_search(l.c_str(), m, kFlag)) names.insert(m[1]);
  }
  return names;
}

// name -> value, from --show_config.
std::map<std::string, std::string> ShowConfig(const std::string& env) {
  int code = -1;
  const std::string out = RunCommand(
      absl::StrCat("env ", env, " ", GRIDSTAR_SERVER_BINARY, " --show_config"),
      &code);
  EXPECT_EQ(code, 0) << out;
  std::map<std::string, std::string> values;
  for (absl::string_view line : absl::StrSplit(out, '\n', absl::SkipEmpty())) {
    if (!absl::ConsumePrefix(&line, "--")) continue;
    std::vector<std::string> kv = absl::StrSplit(line, absl::MaxSplits('=', 1));
    if (kv.size() == 2) values[kv[0]] = kv[1];
  }
  return values;
}

struct HelpCase {
  std::string binary;
  std::string source;  // Where the program's own flags are defined.
};

// An in-process server takes the flags it is given (a batch over
// --max_batch is refused) and leaves every flag as it was, so that the next
// test's server starts from the defaults.
TEST(ServerFlagsTest, InProcessServerFlagsAreRestoredAfterTheStart) {
  absl::CommandLineFlag* max_batch = absl::FindCommandLineFlag("max_batch");
  absl::CommandLineFlag* port = absl::FindCommandLineFlag("port");
  ASSERT_NE(max_batch, nullptr);
  ASSERT_NE(port, nullptr);
  const std::string batch_before = max_batch->CurrentValue();
  const std::string port_before = port->CurrentValue();
  testing::InProcessServer server({"--max_batch=2", "--max_batch=1"});
  ASSERT_TRUE(server.started());
  EXPECT_EQ(max_batch->CurrentValue(), batch_before);
  EXPECT_EQ(port->CurrentValue(), port_before);
  v1::MapInfo info;
  ASSERT_TRUE(testing::Register(server.stub(), "dungeon",
                                testing::ReadSample("dungeon.map"), &info)
                  .ok());
  v1::FindPathsRequest batch;
  batch.set_map_id("dungeon");
  for (int i = 0; i < 2; ++i) {
    *batch.add_items() = testing::Path("dungeon", 1, 1, 2, 2);
  }
  grpc::ClientContext ctx;
  testing::SetDeadline(&ctx);
  v1::FindPathsResponse out;
  const grpc::Status st = server.stub().FindPaths(&ctx, batch, &out);
  EXPECT_FALSE(st.ok());
  EXPECT_TRUE(absl::StrContains(st.error_message(), "1 (--max_batch)"))
      << st.error_message();
}

TEST(ServerFlagsTest, HelpListsEveryOwnFlagWithItsDefault) {
  for (const HelpCase& c : {HelpCase{GRIDSTAR_SERVER_BINARY, "server/"},
                            HelpCase{GRIDSTAR_CLI_BINARY, "client/"}}) {
    SCOPED_TRACE(c.binary);
    const std::set<std::string> own = HelpfullFlags(c.binary, c.source);
    ASSERT_GE(own.size(), 10u);
    for (const char* spelling : {"--help", "-h", "--helpshort"}) {
      int code = -1;
      const std::string help =
          RunCommand(absl::StrCat(c.binary, " ", spelling), &code);
      EXPECT_EQ(code, 0) << help;
      EXPECT_FALSE(absl::StrContains(help, "No flags matched")) << help;
      for (const std::string& name : own) {
        EXPECT_TRUE(
            absl::StrContains(help, absl::StrCat("  --", name, " (default ")))
            << spelling << " lacks --" << name;
      }
    }
  }
  int code = -1;
  const std::string server_help =
      RunCommand(absl::StrCat(GRIDSTAR_SERVER_BINARY, " --help"), &code);
  // Grouped by concern, and the environment rule said once.
  for (const char* title : {"Listening:", "Maps kept and loaded:", "Security:",
                            "Searching:", "FLAGS_<name>"}) {
    EXPECT_TRUE(absl::StrContains(server_help, title)) << title;
  }
  EXPECT_TRUE(absl::StrContains(server_help, "  --port (default 50051)"))
      << server_help;
}

// Every flag the server defines, each set to a value other than its
// default through FLAGS_<name>, all at once: --show_config reports each as
// set. The values come from the defaults' kinds, so a new flag is covered
// without editing this test.
TEST(ServerFlagsTest, EveryServerFlagCanBeSetFromTheEnvironment) {
  const std::map<std::string, std::string> defaults = ShowConfig("");
  const std::set<std::string> own =
      HelpfullFlags(GRIDSTAR_SERVER_BINARY, "server/");
  ASSERT_GE(defaults.size(), 30u);
  for (const std::string& name : own) {
    if (name != "show_config") {
      EXPECT_TRUE(defaults.count(name)) << name;
    }
  }
  std::map<std::string, std::string> wanted;
  std::string env;
  for (const auto& [name, value] : defaults) {
    std::string v;
    int64_t n = 0;
    if (value == "true" || value == "false") {
      v = value == "true" ? "false" : "true";
    } else if (absl::SimpleAtoi(value, &n)) {
      v = absl::StrCat(n + 3);
    } else if (std::regex_match(value, std::regex("^[0-9.]+(ms|s|m|h)$"))) {
      v = "7s";
    } else {
      v = absl::StrCat("env-", name);
    }
    wanted[name] = v;
    absl::StrAppend(&env, " FLAGS_", name, "='", v, "'");
  }
  const std::map<std::string, std::string> got = ShowConfig(env);
  for (const auto& [name, v] : wanted) {
    SCOPED_TRACE(name);
    ASSERT_TRUE(got.count(name));
    EXPECT_EQ(got.at(name), v);
  }
  // The command line wins over the environment.
  int code = -1;
  const std::string out =
      RunCommand(absl::StrCat("env FLAGS_workers=5 ", GRIDSTAR_SERVER_BINARY,
                              " --workers=3 --show_config"),
                 &code);
  EXPECT_TRUE(absl::StrContains(out, "--workers=3\n")) << out;
}

TEST(ServerFlagsTest, BadEnvironmentValueIsRefusedNamingTheVariable) {
  int code = -1;
  const std::string out =
      RunCommand(absl::StrCat("env FLAGS_workers=many ", GRIDSTAR_SERVER_BINARY,
                              " --show_config"),
                 &code);
  EXPECT_EQ(code, 2) << out;
  EXPECT_TRUE(absl::StrContains(out, "FLAGS_workers='many'")) << out;
}

// "gridstar path m -1 5 2 2" once said "Unknown command line flag '1'".
TEST(ServerFlagsTest, NegativeNumbersAreArgumentsNotFlags) {
  ServerProcess server({absl::StrCat("--preload=dungeon=", GRIDSTAR_SOURCE_DIR,
                                     "/data/sample/dungeon.map")});
  ASSERT_TRUE(server.started());
  int code = -1;
  const std::string out = RunCommand(
      absl::StrCat(GRIDSTAR_CLI_BINARY, " --server=127.0.0.1:", server.port(),
                   " path dungeon -1 5 --algo astar 2 2"),
      &code);
  EXPECT_NE(code, 0) << out;
  EXPECT_FALSE(absl::StrContains(out, "Unknown command line flag")) << out;
  EXPECT_TRUE(absl::StrContains(out, "INVALID_ARGUMENT")) << out;
  EXPECT_TRUE(absl::StrContains(out, "start")) << out;
}

}  // namespace
}  // namespace gridstar
