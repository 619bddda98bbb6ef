// The web console's routes on the real server (in process), under every
// sanitizer stage: the page and its files under their policy, tiles equal
// to the renderer's own drawing of the map, precise errors for bad
// parameters, keys guarding the data, and the flag's own rule. The page's
// behaviour in a browser: tests/browser/console.test.mjs.

#include "http/console.h"

#include <httplib.h>
#include <sys/stat.h>
#include <unistd.h>

#include <fstream>
#include <string>
#include <vector>

#include "absl/strings/match.h"
#include "absl/strings/str_cat.h"
#include "gridstar/map_import.h"
#include "gridstar/render.h"
#include "gtest/gtest.h"
#include "in_process_server.h"
#include "runtime/server.h"
#include "server_test_util.h"

namespace gridstar::server {
namespace {

using testing::InProcessServer;
using namespace testing::server_suite;  // NOLINT(build/namespaces)

void RegisterTavern(v1::Pathfinding::Stub& stub) {
  v1::RegisterMapRequest r;
  r.set_id("tavern");
  r.mutable_tiled()->set_data(ReadSample("tavern.tmx"));
  v1::TiledFile* f = r.mutable_tiled()->add_tilesets();
  f->set_source("tavern.tsx");
  f->set_data(ReadSample("tavern.tsx"));
  grpc::ClientContext ctx;
  testing::SetDeadline(&ctx);
  v1::MapInfo info;
  ASSERT_TRUE(stub.RegisterMap(&ctx, r, &info).ok());
}

TEST(ConsoleTest, PageAndItsFilesAreServedUnderThePolicy) {
  InProcessServer server({"--http_port=-1", "--http_console"});
  ASSERT_TRUE(server.started());
  httplib::Client http("127.0.0.1", server.server().http_port());
  for (const auto& [path, type, fragment] :
       {std::tuple{"/console", "text/html", "<script src=\"/console/app.js\""},
        {"/console/app.js", "text/javascript", "gridstarConsole"},
        {"/console/panels.js", "text/javascript", "refreshAgents"},
        {"/console/app.css", "text/css", "#maps"}}) {
    SCOPED_TRACE(path);
    httplib::Result r = http.Get(path);
    ASSERT_TRUE(r);
    EXPECT_EQ(r->status, 200);
    EXPECT_TRUE(absl::StartsWith(r->get_header_value("Content-Type"), type));
    EXPECT_EQ(r->get_header_value("Content-Security-Policy"), kConsoleCsp);
    EXPECT_EQ(r->get_header_value("X-Content-Type-Options"), "nosniff");
    EXPECT_TRUE(absl::StrContains(r->body, fragment));
  }
  // The files are the repository's, built in.
  std::ifstream in(
      absl::StrCat(GRIDSTAR_SOURCE_DIR, "/server/http/console/app.js"));
  std::stringstream js;
  js << in.rdbuf();
  EXPECT_EQ(http.Get("/console/app.js")->body, js.str());
}

TEST(ConsoleTest, WithoutTheFlagThereIsNoConsole) {
  InProcessServer server({"--http_port=-1"});
  ASSERT_TRUE(server.started());
  httplib::Client http("127.0.0.1", server.server().http_port());
  EXPECT_EQ(http.Get("/console")->status, 404);
  EXPECT_EQ(http.Get("/console/tile?map=x&x0=0&y0=0&span=4")->status, 404);
}

TEST(ConsoleTest, TheFlagNeedsTheHttpPort) {
  ServerOptions options;
  options.host = "127.0.0.1";
  options.port = 0;
  options.metrics_port = 0;
  options.http_console = true;
  absl::StatusOr<std::unique_ptr<Server>> server =
      Server::BuildAndStart(options);
  ASSERT_FALSE(server.ok());
  EXPECT_TRUE(absl::StrContains(server.status().message(),
                                "--http_console: needs --http_port"));
}

TEST(ConsoleTest, ATileIsTheRenderersDrawingOfTheMap) {
  InProcessServer server({"--http_port=-1", "--http_console"});
  ASSERT_TRUE(server.started());
  RegisterTavern(server.stub());
  TiledOptions options;
  options.tilesets["tavern.tsx"] = ReadSample("tavern.tsx");
  absl::StatusOr<MapWithAreas> tavern =
      ParseTiledMap(ReadSample("tavern.tmx"), options);
  ASSERT_TRUE(tavern.ok());
  httplib::Client http("127.0.0.1", server.server().http_port());
  for (const auto& [x0, y0, span, px] :
       {std::tuple{0, 0, 32, 256}, {-8, 4, 16, 64}, {20, 10, 64, 128}}) {
    SCOPED_TRACE(absl::StrCat(x0, ",", y0, " span ", span, " px ", px));
    httplib::Result r =
        http.Get(absl::StrCat("/console/tile?map=tavern&x0=", x0, "&y0=", y0,
                              "&span=", span, "&px=", px));
    ASSERT_TRUE(r);
    ASSERT_EQ(r->status, 200) << r->body;
    EXPECT_EQ(r->get_header_value("Content-Type"), "image/png");
    EXPECT_EQ(r->get_header_value("X-Map-Version"), "1");
    EXPECT_TRUE(
        absl::StartsWith(r->get_header_value("Server-Timing"), "draw;dur="));
    absl::StatusOr<std::string> want =
        render::RenderTilePng(tavern->map, tavern->areas, x0, y0, span, px);
    ASSERT_TRUE(want.ok());
    EXPECT_EQ(r->body, *want);
  }
}

// Every client's watched agents on a map, with the rest of their paths.
TEST(ConsoleTest, AgentsOfEveryStreamAreListed) {
  InProcessServer server({"--http_port=-1", "--http_console"});
  ASSERT_TRUE(server.started());
  RegisterTavern(server.stub());
  httplib::Client http("127.0.0.1", server.server().http_port());
  EXPECT_EQ(http.Get("/console/agents?map=tavern")->body,
            "{\"agents\":[],\"truncated\":false}\n");
  grpc::ClientContext ctx;
  auto stream = server.stub().WatchPaths(&ctx);
  v1::WatchRequest add;
  add.set_request_id(1);
  add.set_agent_id(5);
  add.set_action(v1::WATCH_ACTION_ADD);
  *add.mutable_path() = Path("tavern", 2, 2, 30, 17);
  ASSERT_TRUE(stream->Write(add));
  v1::WatchEvent added;
  ASSERT_TRUE(stream->Read(&added));
  ASSERT_EQ(added.reason(), v1::WATCH_REASON_ADDED);
  httplib::Result r = http.Get("/console/agents?map=tavern");
  ASSERT_TRUE(r);
  EXPECT_EQ(r->status, 200);
  std::string remaining;
  for (int i = 0; i < added.path().cells_size(); ++i) {
    absl::StrAppend(&remaining, i ? "," : "", added.path().cells(i));
  }
  EXPECT_TRUE(absl::StrContains(
      r->body, absl::StrCat("{\"agentId\":\"5\",\"position\":{\"x\":2,\"y\":2},"
                            "\"goal\":{\"x\":30,\"y\":17},\"remaining\":[",
                            remaining, "]")))
      << r->body;
  EXPECT_EQ(http.Get("/console/agents?map=elsewhere")->body,
            "{\"agents\":[],\"truncated\":false}\n");
  EXPECT_EQ(http.Get("/console/agents")->status, 400);
  stream->WritesDone();
  ctx.TryCancel();
}

TEST(ConsoleTest, BadTileParametersNameTheParameter) {
  InProcessServer server({"--http_port=-1", "--http_console"});
  ASSERT_TRUE(server.started());
  RegisterTavern(server.stub());
  httplib::Client http("127.0.0.1", server.server().http_port());
  for (const auto& [query, status, fragment] :
       {std::tuple{"x0=0&y0=0&span=4", 400, "map: required"},
        {"map=tavern&y0=0&span=4", 400, "x0: required"},
        {"map=tavern&x0=0&y0=0&span=0", 400, "span: '0' is not a whole number"},
        {"map=tavern&x0=0&y0=zz&span=4", 400, "y0: 'zz'"},
        {"map=tavern&x0=0&y0=0&span=4&px=2000", 400, "px: '2000'"},
        {"map=nowhere&x0=0&y0=0&span=4", 404, "no map 'nowhere'"}}) {
    SCOPED_TRACE(query);
    httplib::Result r = http.Get(absl::StrCat("/console/tile?", query));
    ASSERT_TRUE(r);
    EXPECT_EQ(r->status, status);
    EXPECT_TRUE(absl::StrContains(r->body, fragment)) << r->body;
  }
}

TEST(ConsoleTest, KeysGuardTheTilesAndFiguresNotThePage) {
  const std::string dir =
      absl::StrCat(::testing::TempDir(), "/console_keys.", getpid());
  mkdir(dir.c_str(), 0700);
  const std::string query = "query-token-0123456789";
  const std::string admin = "admin-token-0123456789";
  std::ofstream(dir + "/query") << query << "\n";
  std::ofstream(dir + "/admin") << admin << "\n";
  InProcessServer server({"--http_port=-1", "--http_console",
                          "--query_token_file=" + dir + "/query",
                          "--admin_token_file=" + dir + "/admin"});
  ASSERT_TRUE(server.started());
  httplib::Client http("127.0.0.1", server.server().http_port());
  EXPECT_EQ(http.Get("/console")->status, 200);
  for (const char* path :
       {"/console/tile?map=x&x0=0&y0=0&span=4", "/console/metrics"}) {
    SCOPED_TRACE(path);
    EXPECT_EQ(http.Get(path)->status, 401);
    EXPECT_EQ(http.Get(path, {{"Authorization", "Bearer wrong-token-012345"}})
                  ->status,
              401);
  }
  httplib::Result metrics =
      http.Get("/console/metrics", {{"Authorization", "Bearer " + query}});
  ASSERT_TRUE(metrics);
  EXPECT_EQ(metrics->status, 200);
  EXPECT_TRUE(absl::StrContains(metrics->body, "gridstar_maps 0"));
  // With a key, a tile of a map that is not there is NOT_FOUND, not denied.
  EXPECT_EQ(http.Get("/console/tile?map=x&x0=0&y0=0&span=4",
                     {{"Authorization", "Bearer " + query}})
                ->status,
            404);
}

}  // namespace
}  // namespace gridstar::server
