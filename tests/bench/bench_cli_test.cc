// Runs the real gridstar-bench binary and checks its interface: the last line,
// the CSV, the handling of invalid queries and the exit statuses.

#include <sys/wait.h>

#include <cstdio>
#include <fstream>
#include <regex>
#include <sstream>
#include <string>
#include <vector>

#include "absl/strings/str_cat.h"
#include "absl/strings/str_split.h"
#include "gtest/gtest.h"

namespace gridstar {
namespace {

struct BenchRun {
  int exit_code = -1;
  std::string out;  // stdout and stderr, merged.
  std::string last_line;
};

BenchRun RunBench(const std::string& args) {
  const std::string cmd =
      absl::StrCat(GRIDSTAR_BENCH_BINARY, " ", args, " 2>&1");
  BenchRun r;
  FILE* p = popen(cmd.c_str(), "r");
  if (p == nullptr) return r;
  char buf[4096];
  size_t got;
  while ((got = fread(buf, 1, sizeof(buf), p)) > 0) r.out.append(buf, got);
  const int status = pclose(p);
  r.exit_code = WIFEXITED(status) ? WEXITSTATUS(status) : -1;
  std::vector<std::string> lines =
      absl::StrSplit(r.out, '\n', absl::SkipEmpty());
  if (!lines.empty()) r.last_line = lines.back();
  return r;
}

std::string Sample(const std::string& name) {
  return absl::StrCat(GRIDSTAR_SOURCE_DIR, "/data/sample/", name);
}

std::string WriteTemp(const std::string& name, const std::string& content) {
  const std::string path = absl::StrCat(::testing::TempDir(), "/", name);
  std::ofstream(path) << content;
  return path;
}

const char kLastLinePattern[] =
    R"(queries=(\d+) mismatches=(\d+) mean_us=[0-9.]+ p50_us=[0-9.]+ )"
    R"(p99_us=[0-9.]+ expanded_mean=[0-9.]+ generated_mean=[0-9.]+)";

// Matches the whole last line; *queries and *mismatches get its counts.
bool ParseLastLine(const std::string& line, int* queries, int* mismatches) {
  static const std::regex re(kLastLinePattern);
  std::smatch m;
  if (!std::regex_match(line, m, re)) return false;
  *queries = std::stoi(m[1]);
  *mismatches = std::stoi(m[2]);
  return true;
}

TEST(BenchCliTest, EveryAlgorithmMatchesTheSampleScenario) {
  // hpa: found whenever the scenario has a path, never shorter than it.
  for (const char* algo : {"astar", "weighted", "dijkstra", "baseline", "hpa"}) {
    SCOPED_TRACE(algo);
    BenchRun r =
        RunBench(absl::StrCat("--map ", Sample("dungeon.map"), " --scen ",
                              Sample("dungeon.map.scen"), " --algo ", algo));
    EXPECT_EQ(r.exit_code, 0) << r.out;
    int queries = 0, mismatches = -1;
    ASSERT_TRUE(ParseLastLine(r.last_line, &queries, &mismatches))
        << r.last_line;
    EXPECT_EQ(queries, 200);
    EXPECT_EQ(mismatches, 0);
  }
}

TEST(BenchCliTest, TerrainPgmMatchesItsScenario) {
  BenchRun r = RunBench(absl::StrCat("--map ", Sample("terrain.pgm"),
                                     " --scen ", Sample("terrain.pgm.scen")));
  EXPECT_EQ(r.exit_code, 0) << r.out;
  int queries = 0, mismatches = -1;
  ASSERT_TRUE(ParseLastLine(r.last_line, &queries, &mismatches));
  EXPECT_EQ(queries, 100);
  EXPECT_EQ(mismatches, 0);
}

TEST(BenchCliTest, CsvHasOneRowPerQueryInOrder) {
  const std::string csv = absl::StrCat(::testing::TempDir(), "/out.csv");
  BenchRun r =
      RunBench(absl::StrCat("--map ", Sample("dungeon.map"), " --scen ",
                            Sample("dungeon.map.scen"), " --csv ", csv));
  ASSERT_EQ(r.exit_code, 0) << r.out;
  std::ifstream in(csv);
  std::string line;
  std::getline(in, line);
  EXPECT_EQ(line, "query,length,expanded,micros");
  int rows = 0, no_path = 0;
  while (std::getline(in, line)) {
    static const std::regex row(R"((\d+),(-1\.000000|\d+\.\d{6}),\d+,[0-9.]+)");
    std::smatch m;
    ASSERT_TRUE(std::regex_match(line, m, row)) << line;
    EXPECT_EQ(std::stoi(m[1]), rows);
    if (m[2] == "-1.000000") ++no_path;
    ++rows;
  }
  EXPECT_EQ(rows, 200);
  EXPECT_GT(no_path, 0);  // The sample's sealed vault.
}

TEST(BenchCliTest, InvalidQueryIsReportedWithItsLineAndTheRunGoesOn) {
  const std::string scen = WriteTemp("invalid.scen",
                                     "version 1\n"
                                     "0 dungeon.map 128 128 1 1 2 1 1\n"
                                     "0 dungeon.map 128 128 500 1 2 1 -1\n"
                                     "0 dungeon.map 128 128 0 0 2 1 -1\n"
                                     "0 dungeon.map 128 128 1 1 3 1 2\n");
  const std::string csv = absl::StrCat(::testing::TempDir(), "/invalid.csv");
  BenchRun r = RunBench(absl::StrCat("--map ", Sample("dungeon.map"),
                                     " --scen ", scen, " --csv ", csv));
  EXPECT_EQ(r.exit_code, 0) << r.out;
  EXPECT_NE(r.out.find("line 3: start: (500, 1) is outside"), std::string::npos)
      << r.out;
  EXPECT_NE(r.out.find("line 4: start: (0, 0) is blocked"), std::string::npos)
      << r.out;
  EXPECT_TRUE(
      std::regex_search(r.last_line, std::regex("^queries=4 mismatches=0 ")));
  std::ifstream in(csv);
  std::stringstream all;
  all << in.rdbuf();
  EXPECT_NE(all.str().find("\n1,-1.000000,0,"), std::string::npos) << all.str();
  EXPECT_NE(all.str().find("\n3,2.000000,"), std::string::npos) << all.str();
}

TEST(BenchCliTest, WrongOptimalLengthIsAMismatchAndExitsOne) {
  const std::string scen =
      WriteTemp("wrong.scen", "version 1\n0 d.map 128 128 1 1 3 1 2.5\n");
  BenchRun r =
      RunBench(absl::StrCat("--map ", Sample("dungeon.map"), " --scen ", scen));
  EXPECT_EQ(r.exit_code, 1) << r.out;
  EXPECT_TRUE(
      std::regex_search(r.last_line, std::regex("^queries=1 mismatches=1 ")));
}

TEST(BenchCliTest, AgentSizeRunsBothSizesOnTheSameQueries) {
  BenchRun r = RunBench(absl::StrCat("--map ", Sample("dungeon.map"),
                                     " --scen ", Sample("dungeon.map.scen"),
                                     " --agent_size 2 --areas 0x3"));
  EXPECT_EQ(r.exit_code, 0) << r.out;
  static const std::regex re(
      R"(agents: size 1 mean [0-9.]+ us \([0-9]+ expanded\); size 2 mean )"
      R"([0-9.]+ us \([0-9]+ expanded\); time ratio size 2 / size 1 = )"
      R"([0-9.]+; mean cost ratio ([0-9.]+))");
  std::smatch m;
  ASSERT_TRUE(std::regex_match(r.last_line, m, re)) << r.out;
  // A bigger agent never finds a cheaper path.
  EXPECT_GE(std::stod(m[1]), 1.0);
  static const std::regex count(R"(agents: ([0-9]+) queries \()");
  std::smatch c;
  ASSERT_TRUE(std::regex_search(r.out, c, count)) << r.out;
  EXPECT_GT(std::stoi(c[1]), 0);
}

// --progressive N: a cap small enough leaves first answers partial (each
// then searched whole again, every length checked), one large enough none.
TEST(BenchCliTest, ProgressiveRepeatsTheSearchesItsCapLeftPartial) {
  static const std::regex re(
      R"(progressive=([0-9]+) algo=astar queries=200 unreachable=([0-9]+) )"
      R"(partial_first=([0-9]+) )"
      R"(whole_mean_us=[0-9.]+ progressive_mean_us=[0-9.]+ )"
      R"(progressive_over_whole=[0-9.]+ first_answer_mean_us=[0-9.]+ )"
      R"(repeated_share=([0-9.]+))");
  for (const char* cap : {"5", "100000000"}) {
    SCOPED_TRACE(cap);
    BenchRun r = RunBench(absl::StrCat("--map ", Sample("dungeon.map"),
                                       " --scen ", Sample("dungeon.map.scen"),
                                       " --algo astar --progressive ", cap));
    EXPECT_EQ(r.exit_code, 0) << r.out;
    std::smatch m;
    ASSERT_TRUE(std::regex_match(r.last_line, m, re)) << r.out;
    EXPECT_EQ(m[1], cap);
    // The sample's few queries between components are left out.
    EXPECT_LT(std::stoi(m[2]), 20);
    if (std::string(cap) == "5") {
      EXPECT_GT(std::stoi(m[3]), 100);
      EXPECT_GT(std::stod(m[4]), 0.0);
    } else {
      EXPECT_EQ(std::stoi(m[3]), 0);
      EXPECT_EQ(std::stod(m[4]), 0.0);
    }
  }
}

// --help on every binary: the bench's own usage, every option listed.
TEST(BenchCliTest, HelpPrintsTheUsageAndExitsZero) {
  for (const char* spelling : {"--help", "-h"}) {
    BenchRun r = RunBench(spelling);
    EXPECT_EQ(r.exit_code, 0) << r.out;
    for (const char* option : {"--map", "--scen", "--algo", "--diagonal", "--csv"}) {
      EXPECT_NE(r.out.find(option), std::string::npos) << option << "\n" << r.out;
    }
  }
}

TEST(BenchCliTest, BadArgumentsAndUnreadableFilesExitTwo) {
  const std::string map = Sample("dungeon.map");
  const std::string scen = Sample("dungeon.map.scen");
  const std::string bad_scen = WriteTemp("bad.scen", "version 1\n1 2 3\n");
  const std::string bad_map = WriteTemp("bad.map", "type octile\nheight 2\n");
  const std::vector<std::pair<std::string, std::string>> cases = {
      {"", "--map is required"},
      {absl::StrCat("--map ", map), "--scen is required"},
      {absl::StrCat("--map ", map, " --scen ", scen, " --algo fast"),
       "unknown name 'fast'"},
      {absl::StrCat("--map ", map, " --scen ", scen, " --diagonal sometimes"),
       "unknown policy"},
      {absl::StrCat("--map ", map, " --scen ", scen, " --weight 0.5"),
       "--weight"},
      {absl::StrCat("--map ", map, " --scen ", scen, " --bogus 1"),
       "unknown flag --bogus"},
      {absl::StrCat("--map ", map, " --scen"), "missing value for --scen"},
      {absl::StrCat("--map /nonexistent.map --scen ", scen), "cannot open"},
      {absl::StrCat("--map ", map, " --scen /nonexistent.scen"), "cannot open"},
      {absl::StrCat("--map ", bad_map, " --scen ", scen), "truncated header"},
      {absl::StrCat("--map ", map, " --scen ", bad_scen), "expected 9 fields"},
      {absl::StrCat("--map ", map, " --scen ", scen, " --agent_size 9"),
       "--agent_size: '9' is not in [1, 8]"},
      {absl::StrCat("--map ", map, " --scen ", scen, " --agent_size 2",
                    " --areas 0x"),
       "--areas: '0x' is not a non-zero mask"},
  };
  for (const auto& [args, message] : cases) {
    SCOPED_TRACE(args);
    BenchRun r = RunBench(args);
    EXPECT_EQ(r.exit_code, 2) << r.out;
    EXPECT_NE(r.out.find(message), std::string::npos) << r.out;
  }
}

}  // namespace
}  // namespace gridstar
