// The gridstar CLI against the real server.
#include <signal.h>
#include <sys/wait.h>
#include <unistd.h>

#include <algorithm>
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
#include "gridstar/render.h"
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
  InProcessServer server({absl::StrCat("--preload=dungeon=", GRIDSTAR_SOURCE_DIR,
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
  // a loaded machine once, 0 on a machine loaded more before every thread
  // sent at least one), not this test's.
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
  EXPECT_EQ(group.rfind("units=3 failed=0 searches=", 0), 0u) << group;
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

std::string ReadWhole(const std::string& path) {
  std::ifstream in(path, std::ios::binary);
  std::ostringstream s;
  s << in.rdbuf();
  return s.str();
}

// gridstar render: the picture of a traced JPS search, decoded, shows a wall,
// the start, the goal, a path cell and an expanded cell in their colours (the
// same search asked of the server directly says which cells those are); a
// flow field draws arrows; .svg writes SVG; bad use exits non-zero.
TEST(ClientCliTest, RenderDrawsSearchesAndFlowFields) {
  InProcessServer server({absl::StrCat("--preload=dungeon=", GRIDSTAR_SOURCE_DIR,
                                     "/data/sample/dungeon.map")});
  ASSERT_TRUE(server.started());
  const std::string cli = absl::StrCat(GRIDSTAR_CLI_BINARY,
                                       " --server=127.0.0.1:", server.port());
  absl::StatusOr<GridMap> map = ParseMovingAiMap(
      ReadSample("dungeon.map"));
  ASSERT_TRUE(map.ok());
  const auto [s, g] = testing::FarConnectedPair(*map);
  const std::string png = absl::StrCat(::testing::TempDir(), "/render.",
                                       getpid(), ".png");
  int code = 0;
  const std::string line = LastLine(
      absl::StrCat(cli, " render dungeon ", png, " ", s.x, " ", s.y, " ", g.x,
                   " ", g.y, " --algo jps --trace --cell_pixels 3"),
      &code);
  ASSERT_EQ(code, 0) << line;
  EXPECT_EQ(line.rfind(absl::StrCat("wrote ", png, " (png, 384x384 px, "), 0),
            0u)
      << line;
  EXPECT_NE(line.find(" algorithm=jps "), std::string::npos) << line;
  absl::StatusOr<render::Image> image = render::DecodePng(ReadWhole(png));
  ASSERT_TRUE(image.ok()) << image.status();
  auto centre = [&](Cell c) { return image->At(c.x * 3 + 1, c.y * 3 + 1); };
  EXPECT_EQ(centre(s), render::kStartColour);
  EXPECT_EQ(centre(g), render::kGoalColour);
  v1::PathRequest r = Path("dungeon", s.x, s.y, g.x, g.y);
  r.set_algorithm(v1::ALGORITHM_JPS);
  r.set_trace(true);
  v1::PathResponse out;
  {
    grpc::ClientContext ctx;
    SetDeadline(&ctx);
    ASSERT_TRUE(server.stub().FindPath(&ctx, r, &out).ok());
  }
  const std::vector<Cell> cells = Unpack(out.cells());
  const std::vector<Cell> trace = Unpack(out.trace());
  EXPECT_EQ(centre(cells[cells.size() / 2]), render::kPathColour);
  bool checked_trace = false;
  for (size_t i = 1; i < trace.size() && !checked_trace; ++i) {
    if (std::find(cells.begin(), cells.end(), trace[i]) != cells.end()) {
      continue;
    }
    // The last time this cell was expanded decides its colour.
    size_t last = i;
    for (size_t j = i; j < trace.size(); ++j) {
      if (trace[j] == trace[i]) last = j;
    }
    EXPECT_EQ(centre(trace[i]), render::TraceColour(last, trace.size()));
    checked_trace = true;
  }
  EXPECT_TRUE(checked_trace) << "every expanded cell lies on the path";
  for (int32_t y = 0; y < map->height(); ++y) {
    for (int32_t x = 0; x < map->width(); ++x) {
      if (map->Passable({x, y})) continue;
      EXPECT_EQ(centre({x, y}), render::kWallColour);
      y = map->height();
      break;
    }
  }

  // A flow field: arrows.
  const std::string flow_png = png + ".flow.png";
  LastLine(absl::StrCat(cli, " render dungeon ", flow_png, " ", g.x, " ", g.y,
                        " --flow --cell_pixels 4"),
           &code);
  ASSERT_EQ(code, 0);
  absl::StatusOr<render::Image> flow = render::DecodePng(ReadWhole(flow_png));
  ASSERT_TRUE(flow.ok()) << flow.status();
  int arrow_pixels = 0;
  for (int y = 0; y < flow->height; ++y) {
    for (int x = 0; x < flow->width; ++x) {
      arrow_pixels += flow->At(x, y) == render::kArrowColour;
    }
  }
  EXPECT_GT(arrow_pixels, 100);
  EXPECT_EQ(flow->At(g.x * 4 + 2, g.y * 4 + 2), render::kGoalColour);

  // SVG by the file's name.
  const std::string svg = png + ".svg";
  LastLine(absl::StrCat(cli, " render dungeon ", svg, " ", s.x, " ", s.y, " ",
                        g.x, " ", g.y, " --algo theta"),
           &code);
  ASSERT_EQ(code, 0);
  const std::string text = ReadWhole(svg);
  EXPECT_EQ(text.rfind("<svg ", 0), 0u);
  EXPECT_NE(text.find("<polyline id=\"waypoints\""), std::string::npos);

  // Bad use: a missing map exits 1 with the server's message, bad arguments
  // and an unwritable file exit non-zero.
  LastLine(absl::StrCat(cli, " render nosuchmap ", png, " 2>/dev/null"), &code);
  EXPECT_EQ(code, 1);
  LastLine(absl::StrCat(cli, " render dungeon ", png, " 1 2 3 2>/dev/null"),
           &code);
  EXPECT_EQ(code, 2);
  LastLine(cli + " render dungeon /nonexistent/dir/x.png 2>/dev/null", &code);
  EXPECT_EQ(code, 1);
  for (const std::string& f : {png, flow_png, svg}) std::remove(f.c_str());
}

}  // namespace
}  // namespace gridstar
