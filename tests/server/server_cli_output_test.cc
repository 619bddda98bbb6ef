// The CLI shows what it computed: waypoints, snapped ends, the trace, the
// any-angle cost of theta as cost=, why another engine ran (and the server's
// PathResponse.note itself); --json on every command parses as the answer's
// proto; failures exit non-zero with codes by name; local I/O errors carry
// errno text; a plaintext call to a TLS port says to pass --tls_ca; `watch`
// prints each event, a pushed BLOCKED included.
#include <cstdio>
#include <cstdlib>
#include <fstream>
#include <sstream>
#include <string>
#include <vector>

#include "absl/strings/match.h"
#include "absl/strings/str_cat.h"
#include "absl/strings/str_split.h"
#include "google/protobuf/util/json_util.h"
#include "gridstar/render.h"
#include "gtest/gtest.h"
#include "server/server_test_util.h"

namespace gridstar {
namespace {

using namespace testing::server_suite;  // NOLINT(build/namespaces)

struct Output {
  int code = -1;
  std::string out;  // stdout
  std::string all;  // stdout and stderr
};

// Runs the CLI once: standard output alone, and both streams.
Output Cli(int port, const std::string& args) {
  static int counter = 0;
  const std::string err =
      absl::StrCat(::testing::TempDir(), "/cli-err.", getpid(), ".", counter++);
  Output o;
  o.out = testing::RunAndCapture(
      absl::StrCat(GRIDSTAR_CLI_BINARY, " --server=127.0.0.1:", port, " ", args,
                   " 2>", err),
      &o.code);
  int ignored = 0;
  o.all = o.out + testing::RunAndCapture(absl::StrCat("cat ", err), &ignored);
  return o;
}

class CliOutputTest : public ::testing::Test {
 protected:
  void SetUp() override {
    server_ = std::make_unique<InProcessServer>(std::vector<std::string>{
        absl::StrCat("--preload=dungeon=", GRIDSTAR_SOURCE_DIR,
                     "/data/sample/dungeon.map")});
    ASSERT_TRUE(server_->started());
  }
  int port() const { return server_->port(); }
  std::unique_ptr<InProcessServer> server_;
};

TEST_F(CliOutputTest,
       PathShowsWaypointsSnappedEndsTraceAndWhyAnotherEngineRan) {
  Output o =
      Cli(port(), "path dungeon 57 73 77 77 --algo jps_plus --smooth --trace");
  ASSERT_EQ(o.code, 0) << o.all;
  EXPECT_TRUE(absl::StrContains(o.out, " algorithm=jps+ ")) << o.out;
  EXPECT_TRUE(absl::StrContains(o.out, "\nwaypoints (")) << o.out;
  EXPECT_TRUE(absl::StrContains(o.out, "\ntrace (")) << o.out;
  // (0, 0) is a wall of the sample; snapping moves the start.
  o = Cli(port(), "path dungeon 0 0 5 5 --snap_radius 3");
  ASSERT_EQ(o.code, 0) << o.all;
  EXPECT_TRUE(absl::StrContains(o.out, "snapped start: 0,0 -> ")) << o.out;
  o = Cli(port(), "path dungeon 57 73 77 77 --algo hpa");
  ASSERT_EQ(o.code, 0) << o.all;
  EXPECT_TRUE(absl::StrContains(o.out, "note: hpa ran as ")) << o.out;
  EXPECT_TRUE(absl::StrContains(o.out, "register --hpa")) << o.out;
}

TEST_F(CliOutputTest, ServerExplainsAFallbackInPathResponseNote) {
  struct Case {
    v1::Algorithm asked;
    const char* says;
  };
  for (const Case& c :
       {Case{v1::ALGORITHM_HPA, "RegisterMapRequest.hpa"},
        Case{v1::ALGORITHM_SUBGOAL, "RegisterMapRequest.subgoal_graph"},
        Case{v1::ALGORITHM_ALT, "RegisterMapRequest.landmarks"},
        Case{v1::ALGORITHM_JPS_PLUS, ""}, Case{v1::ALGORITHM_AUTO, ""}}) {
    SCOPED_TRACE(v1::Algorithm_Name(c.asked));
    v1::PathRequest r = Path("dungeon", 57, 73, 77, 77);
    r.set_algorithm(c.asked);
    v1::PathResponse out;
    grpc::ClientContext ctx;
    SetDeadline(&ctx);
    ASSERT_TRUE(server_->stub().FindPath(&ctx, r, &out).ok());
    if (c.says[0] == '\0') {
      EXPECT_EQ(out.note(), "");  // Preloaded with a jump table; auto never.
    } else {
      EXPECT_NE(out.algorithm(), c.asked);
      EXPECT_TRUE(absl::StrContains(out.note(), c.says)) << out.note();
    }
  }
}

TEST_F(CliOutputTest, ThetaPrintsItsAnyAngleCostAsCost) {
  Output o = Cli(port(), "path dungeon 57 73 77 77 --algo theta");
  ASSERT_EQ(o.code, 0) << o.all;
  double cost = 0, grid = 0;
  const size_t at = o.out.find("cost=");
  ASSERT_NE(at, std::string::npos) << o.out;
  ASSERT_EQ(
      std::sscanf(o.out.c_str() + at, "cost=%lf grid_cost=%lf", &cost, &grid),
      2)
      << o.out;
  EXPECT_LE(cost, grid);
  v1::PathRequest r = Path("dungeon", 57, 73, 77, 77);
  r.set_algorithm(v1::ALGORITHM_THETA);
  v1::PathResponse out;
  grpc::ClientContext ctx;
  SetDeadline(&ctx);
  ASSERT_TRUE(server_->stub().FindPath(&ctx, r, &out).ok());
  EXPECT_NEAR(cost, out.smoothed_cost(), 1e-3);
}

template <typename M>
void ExpectJsonOf(const std::string& line) {
  M m;
  google::protobuf::util::JsonParseOptions options;
  EXPECT_TRUE(
      google::protobuf::util::JsonStringToMessage(line, &m, options).ok())
      << line;
}

TEST_F(CliOutputTest, JsonOnEveryCommandIsOneObjectOfTheAnswersProto) {
  const std::string map =
      absl::StrCat(GRIDSTAR_SOURCE_DIR, "/data/sample/dungeon.map");
  struct Case {
    std::string args;
    void (*check)(const std::string&);
  };
  const std::vector<Case> cases = {
      {"maps", &ExpectJsonOf<v1::ListMapsResponse>},
      {absl::StrCat("register --id copy ", map), &ExpectJsonOf<v1::MapInfo>},
      {"update copy 1 1 0", &ExpectJsonOf<v1::MapInfo>},
      {"path copy 57 73 77 77 --smooth", &ExpectJsonOf<v1::PathResponse>},
      {"group copy 100 20 10 10 11 10", &ExpectJsonOf<v1::GroupPathsResponse>},
      {"flow copy 100 20", &ExpectJsonOf<v1::FlowFieldResponse>},
      {"delete copy", &ExpectJsonOf<v1::DeleteMapResponse>},
  };
  for (const Case& c : cases) {
    SCOPED_TRACE(c.args);
    Output o = Cli(port(), absl::StrCat("--json ", c.args));
    EXPECT_EQ(o.code, 0) << o.all;
    std::vector<std::string> lines =
        absl::StrSplit(o.out, '\n', absl::SkipEmpty());
    ASSERT_EQ(lines.size(), 1u) << o.out;
    c.check(lines[0]);
  }
  // A failure is one JSON error object, with the code by name.
  Output o = Cli(port(), "--json path nosuchmap 0 0 1 1");
  EXPECT_EQ(o.code, 1);
  EXPECT_TRUE(absl::StartsWith(
      o.out, "{\"error\":{\"code\":\"NOT_FOUND\",\"message\":"))
      << o.out;
  // A partial answer says why it stopped short, in both outputs.
  o = Cli(port(),
          "--json path dungeon 8 58 97 52 --algo astar --max_expansions 3 "
          "--allow_partial");
  EXPECT_TRUE(absl::StrContains(
      o.out, "\"partialReason\":\"PARTIAL_REASON_MAX_EXPANSIONS\""))
      << o.out;
  o = Cli(port(),
          "path dungeon 8 58 97 52 --algo astar --max_expansions 3 "
          "--allow_partial");
  EXPECT_TRUE(absl::StrContains(o.out, " partial=1 ")) << o.out;
  EXPECT_TRUE(absl::StrContains(o.out, " partial_reason=max-expansions"))
      << o.out;
  // Summaries and the rest are JSON objects too.
  const std::string scen =
      absl::StrCat(GRIDSTAR_SOURCE_DIR, "/data/sample/dungeon.map.scen");
  const std::string png =
      absl::StrCat(::testing::TempDir(), "/json.", getpid(), ".png");
  for (const std::string& args :
       {absl::StrCat("scen --map dungeon ", scen),
        absl::StrCat("render dungeon ", png), std::string("health"),
        std::string("names"),
        absl::StrCat("load --map dungeon --duration 0.2 ", scen)}) {
    SCOPED_TRACE(args);
    o = Cli(port(), absl::StrCat("--json ", args));
    EXPECT_EQ(o.code, 0) << o.all;
    for (absl::string_view line :
         absl::StrSplit(o.out, '\n', absl::SkipEmpty())) {
      EXPECT_TRUE(absl::StartsWith(line, "{") && absl::EndsWith(line, "}"))
          << line;
    }
  }
  // The path's JSON names the algorithm that ran and the ends searched.
  o = Cli(port(), "--json path dungeon 57 73 77 77 --algo jps");
  EXPECT_TRUE(absl::StrContains(o.out, "\"algorithm\":\"ALGORITHM_JPS\""))
      << o.out;
  EXPECT_TRUE(absl::StrContains(o.out, "\"start\":{\"x\":57,\"y\":73}"))
      << o.out;
}

TEST_F(CliOutputTest, GroupWithAFailedUnitExitsNonZeroNamingTheCode) {
  Output o = Cli(port(), "group dungeon 100 20 10 10 0 0");
  EXPECT_EQ(o.code, 1) << o.all;
  EXPECT_TRUE(absl::StrContains(o.out, "unit 1: INVALID_ARGUMENT: starts[1]"))
      << o.out;
  EXPECT_TRUE(absl::StrContains(o.all, "1 of 2 units failed")) << o.all;
  EXPECT_FALSE(absl::StrContains(o.out, "error 3")) << o.out;
}

TEST_F(CliOutputTest, LocalWriteErrorSaysWhatFailedAndWhy) {
  Output o = Cli(port(), "render dungeon /nonexistent-dir/x.png");
  EXPECT_EQ(o.code, 1);
  EXPECT_TRUE(absl::StrContains(
      o.all, "cannot write /nonexistent-dir/x.png: No such file or directory"))
      << o.all;
  EXPECT_FALSE(absl::StrContains(o.all, "UNAVAILABLE")) << o.all;
  o = Cli(port(), "register --id x /nonexistent-dir/x.map");
  EXPECT_EQ(o.code, 1);
  EXPECT_TRUE(absl::StrContains(o.all, "No such file or directory")) << o.all;
}

TEST(CliTlsHintTest, PlaintextCallToATlsPortSaysToPassTlsCa) {
  const std::string d =
      absl::StrCat(::testing::TempDir(), "/clitls.", getpid());
  const std::string ec = "-newkey ec -pkeyopt ec_paramgen_curve:P-256 -nodes";
  ASSERT_EQ(
      std::system(
          absl::StrCat(
              "set -e; rm -rf ", d, "; mkdir -p ", d, "; cd ", d,
              "; openssl req -x509 ", ec,
              " -keyout ca.key -out ca.crt -days 2 -subj /CN=ca 2>/dev/null; ",
              "openssl req ", ec,
              " -keyout s.key -out s.csr -subj /CN=localhost 2>/dev/null; "
              "printf 'subjectAltName=IP:127.0.0.1\\n' > ext; "
              "openssl x509 -req -in s.csr -CA ca.crt -CAkey ca.key "
              "-CAcreateserial "
              "-out s.crt -days 2 -extfile ext 2>/dev/null")
              .c_str()),
      0);
  InProcessServer server({absl::StrCat("--tls_cert=", d, "/s.crt"),
                        absl::StrCat("--tls_key=", d, "/s.key")});
  ASSERT_TRUE(server.started());
  Output o = Cli(server.port(), "--deadline=60s maps");
  EXPECT_EQ(o.code, 1);
  EXPECT_TRUE(absl::StrContains(o.all, "UNAVAILABLE")) << o.all;
  EXPECT_TRUE(absl::StrContains(o.all, "pass --tls_ca")) << o.all;
  o = Cli(server.port(), absl::StrCat("--tls_ca=", d, "/ca.crt maps"));
  EXPECT_EQ(o.code, 0) << o.all;
}

// `watch`: the answer to the add, then a push when an update blocks the
// agent's path.
TEST_F(CliOutputTest, WatchPrintsEachEventABlockedPushIncluded) {
  const std::string cmd =
      absl::StrCat(GRIDSTAR_CLI_BINARY, " --server=127.0.0.1:", port(),
                   " watch dungeon 7 57 73 77 77 --algo astar --events 2 "
                   "--watch_for 600s 2>&1");
  FILE* p = popen(cmd.c_str(), "r");
  ASSERT_NE(p, nullptr);
  char buf[4096];
  ASSERT_NE(fgets(buf, sizeof(buf), p), nullptr);
  const std::string added = buf;
  EXPECT_TRUE(absl::StartsWith(added, "agent=7 reason=added ")) << added;
  EXPECT_TRUE(absl::StrContains(added, " algorithm=astar")) << added;
  // Block a cell of its path.
  v1::PathRequest r = Path("dungeon", 57, 73, 77, 77);
  r.set_algorithm(v1::ALGORITHM_ASTAR);
  v1::PathResponse path;
  {
    grpc::ClientContext ctx;
    SetDeadline(&ctx);
    ASSERT_TRUE(server_->stub().FindPath(&ctx, r, &path).ok());
  }
  const std::vector<Cell> cells = Unpack(path.cells());
  const Cell mid = cells[cells.size() / 2];
  Output u =
      Cli(port(), absl::StrCat("update dungeon ", mid.x, " ", mid.y, " 0"));
  ASSERT_EQ(u.code, 0) << u.all;
  ASSERT_NE(fgets(buf, sizeof(buf), p), nullptr);
  const std::string pushed = buf;
  EXPECT_TRUE(absl::StartsWith(pushed, "agent=7 reason=blocked ")) << pushed;
  EXPECT_TRUE(absl::StrContains(pushed, " version=2 ")) << pushed;
  EXPECT_EQ(pclose(p), 0);
}

// register --structures asks for structures by name (NAME or NAME:COUNT);
// the map's line lists each with its bytes.
TEST_F(CliOutputTest, RegisterAsksForStructuresByNameAndListsThem) {
  const std::string file =
      absl::StrCat(GRIDSTAR_SOURCE_DIR, "/data/sample/lakeside.map");
  Output o = Cli(port(), absl::StrCat("register --id named --jump_table=false "
                                      "--structures hpa,landmarks:3 ",
                                      file));
  ASSERT_EQ(o.code, 0) << o.all;
  EXPECT_TRUE(absl::StrContains(o.out, " structures=landmarks:")) << o.out;
  EXPECT_TRUE(absl::StrContains(o.out, ",hpa:")) << o.out;
  EXPECT_FALSE(absl::StrContains(o.out, "jump_table:")) << o.out;
  v1::GetMapRequest get;
  get.set_id("named");
  v1::GetMapResponse got;
  grpc::ClientContext ctx;
  SetDeadline(&ctx);
  ASSERT_TRUE(server_->stub().GetMap(&ctx, get, &got).ok());
  EXPECT_EQ(got.info().landmarks(), 3);
  EXPECT_TRUE(got.info().hpa());
  o = Cli(port(),
          absl::StrCat("register --id bad --structures landmarks:x ", file));
  EXPECT_EQ(o.code, 2) << o.all;
  EXPECT_TRUE(absl::StrContains(o.all, "the count after ':' is not a number"))
      << o.all;
  o = Cli(port(),
          absl::StrCat("register --id bad --structures nothing ", file));
  EXPECT_NE(o.code, 0) << o.all;
  EXPECT_TRUE(absl::StrContains(o.all, "known: ")) << o.all;
}

// The picture: trees (and water) were drawn white like floor. A
// Moving AI map with trees, water and swamp, rendered through the CLI and
// decoded: blocked areas hatched in their colours, a legend strip below.
TEST_F(CliOutputTest, RenderDrawsBlockedAreasDistinctlyWithALegend) {
  const std::string file =
      absl::StrCat(GRIDSTAR_SOURCE_DIR, "/data/sample/lakeside.map");
  Output o = Cli(port(), absl::StrCat("register --id lakeside ", file));
  ASSERT_EQ(o.code, 0) << o.all;
  const std::string png =
      absl::StrCat(::testing::TempDir(), "/lakeside.", getpid(), ".png");
  o = Cli(port(),
          absl::StrCat("render lakeside ", png, " 4 40 92 20 --cell_pixels 4"));
  ASSERT_EQ(o.code, 0) << o.all;
  std::ifstream in(png, std::ios::binary);
  std::stringstream bytes;
  bytes << in.rdbuf();
  absl::StatusOr<render::Image> image = render::DecodePng(bytes.str());
  ASSERT_TRUE(image.ok()) << image.status();
  EXPECT_GT(image->height, 64 * 4 + 20);  // The legend strip.
  // Find one cell of each kind in the file and check its pixels.
  std::vector<std::string> rows;
  {
    std::ifstream text(file);
    std::string line;
    int skip = 4;
    while (std::getline(text, line)) {
      if (skip > 0) {
        --skip;
      } else {
        rows.push_back(line);
      }
    }
  }
  struct Kind {
    char symbol;
    render::Rgb colour;
    bool blocked;
  };
  for (const Kind& k : {Kind{'T', render::kTreeColour, true},
                        Kind{'W', render::kWaterColour, true},
                        Kind{'S', render::kSwampColour, false},
                        Kind{'@', render::kWallColour, false}}) {
    SCOPED_TRACE(std::string(1, k.symbol));
    bool found = false;
    for (int y = 0; y < static_cast<int>(rows.size()) && !found; ++y) {
      const int x = static_cast<int>(rows[y].find(k.symbol));
      if (x < 0) continue;
      found = true;
      // Pixels of the cell off and on the hatch's diagonals.
      int off_x = x * 4, on_x = x * 4;
      while (render::HatchPixel(off_x, y * 4)) ++off_x;
      while (!render::HatchPixel(on_x, y * 4)) ++on_x;
      EXPECT_EQ(image->At(off_x, y * 4), k.colour);
      EXPECT_EQ(image->At(on_x, y * 4),
                k.blocked ? render::kWallColour : k.colour);
    }
    EXPECT_TRUE(found);
  }
}

TEST_F(CliOutputTest, WatchRefusesMalformedAgentsNamingThem) {
  Output o = Cli(port(), "watch dungeon 7 57 73 77");
  EXPECT_EQ(o.code, 2);
  EXPECT_TRUE(absl::StrContains(o.all, "five numbers an agent")) << o.all;
}

}  // namespace
}  // namespace gridstar
