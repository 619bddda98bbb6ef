// The gridstar CLI against the real server.
#include <signal.h>
#include <sys/wait.h>
#include <unistd.h>

#include <atomic>
#include <chrono>
#include <cmath>
#include <cstdio>
#include <cstdlib>
#include <fstream>
#include <limits>
#include <map>
#include <mutex>
#include <random>
#include <set>
#include <sstream>
#include <string>
#include <thread>
#include <vector>

#include "absl/strings/str_cat.h"
#include "gridstar/find_path.h"
#include "gridstar/flow_field.h"
#include "gridstar/map_io.h"
#include "gtest/gtest.h"
#include "server/server_test_util.h"
#include "testing/reference.h"

namespace gridstar {
namespace {

// The suites' shared names (server_test_util.h).
using namespace testing::server_suite;  // NOLINT(build/namespaces)

// Runs a command, returns its stdout's last line and sets *code to its exit
// status.
std::string LastLine(const std::string& command, int* code) {
  FILE* p = popen(command.c_str(), "r");
  std::string out, line;
  char buf[4096];
  while (fgets(buf, sizeof(buf), p) != nullptr) out += buf;
  const int status = pclose(p);
  *code = WIFEXITED(status) ? WEXITSTATUS(status) : -1;
  std::istringstream in(out);
  while (std::getline(in, out)) {
    if (!out.empty()) line = out;
  }
  return line;
}

TEST(ClientCliTest, ScenAndLoadThroughTheRealServer) {
  ServerProcess server({absl::StrCat("--preload=dungeon=", GRIDSTAR_SOURCE_DIR,
                                     "/data/sample/dungeon.map")});
  ASSERT_TRUE(server.started());
  const std::string cli = absl::StrCat(GRIDSTAR_CLI_BINARY, " --server=127.0.0.1:",
                                       server.port());
  const std::string scen = absl::StrCat(GRIDSTAR_SOURCE_DIR, "/data/sample/dungeon.map.scen");
  int code = 0;
  EXPECT_EQ(LastLine(cli + " health", &code), "SERVING");
  EXPECT_EQ(code, 0);
  for (const char* batch : {"1", "16"}) {
    SCOPED_TRACE(batch);
    const std::string line = LastLine(
        absl::StrCat(cli, " scen --map dungeon --concurrency 2 --batch ", batch, " ", scen),
        &code);
    EXPECT_EQ(code, 0) << line;
    EXPECT_EQ(line.rfind("queries=200 mismatches=0 errors=0 qps=", 0), 0u) << line;
  }
  const std::string line = LastLine(
      absl::StrCat(cli, " load --map dungeon --concurrency 2 --duration 1s --batch 4 ", scen),
      &code);
  EXPECT_EQ(code, 0) << line;
  EXPECT_EQ(line.rfind("requests=", 0), 0u) << line;
  EXPECT_NE(line.find(" errors=0 "), std::string::npos) << line;
  EXPECT_NE(line.find(" p999_us="), std::string::npos) << line;
  // The same through FindPathsStream, 8 requests in flight per thread; every
  // answer is matched by id and its length checked against the scenario.
  const std::string streamed = LastLine(
      absl::StrCat(cli, " load --stream --map dungeon --concurrency 2 --duration 1s --batch 8 ",
                   scen),
      &code);
  EXPECT_EQ(code, 0) << streamed;
  uint64_t requests = 0;
  ASSERT_EQ(std::sscanf(streamed.c_str(), "requests=%lu ", &requests), 1) << streamed;
  // How many fit in the second is the machine's business (62 under TSan on
  // a loaded machine once), not this test's.
  EXPECT_GT(requests, 0u) << streamed;
  EXPECT_NE(streamed.find(" errors=0 "), std::string::npos) << streamed;
  // A paced stream never sends more than --rps requests a second (fewer
  // when the server is slower, as under the sanitizers: no lower bound).
  const std::string paced = LastLine(
      absl::StrCat(cli, " load --stream --map dungeon --concurrency 2 --duration 1s --rps 200 ",
                   scen),
      &code);
  EXPECT_EQ(code, 0) << paced;
  ASSERT_EQ(std::sscanf(paced.c_str(), "requests=%lu ", &requests), 1) << paced;
  EXPECT_GT(requests, 0u) << paced;
  EXPECT_LE(requests, 210u) << paced;
  const std::string group = LastLine(
      absl::StrCat(cli, " group dungeon ", 100, " ", 20, " 10 10 11 10 12 11"), &code);
  EXPECT_EQ(group.rfind("units=3 searches=", 0), 0u) << group;
  const std::string compared = LastLine(
      absl::StrCat(cli, " group --compare dungeon ", 100, " ", 20, " 10 10 11 10 12 11"),
      &code);
  EXPECT_EQ(code, 0) << compared;
  EXPECT_EQ(compared.rfind("group_wall_us=", 0), 0u) << compared;
  EXPECT_NE(compared.find(" independent_wall_us="), std::string::npos) << compared;
  const std::string flow = LastLine(absl::StrCat(cli, " flow dungeon 100 20"), &code);
  EXPECT_EQ(code, 0) << flow;
  EXPECT_EQ(flow.rfind("size=128x128 reached=", 0), 0u) << flow;
  EXPECT_NE(flow.find(" complete=1 cached=0 "), std::string::npos) << flow;
  const std::string update = LastLine(cli + " update dungeon 0 0 0 1 0 0", &code);
  EXPECT_EQ(update.rfind("dungeon version=2 ", 0), 0u) << update;
  // Errors exit non-zero with the server's message.
  LastLine(cli + " path nosuchmap 0 0 1 1 2>/dev/null", &code);
  EXPECT_EQ(code, 1);
}

}  // namespace
}  // namespace gridstar
