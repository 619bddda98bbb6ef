// The HTTP/JSON port (server/http/http_gateway.h) on an in-process server,
// called by curl as a user calls it: answers equal the gRPC port's for every
// algorithm, errors carry the mapped HTTP status and the gRPC code's name,
// deadlines, keys and TLS hold as on the gRPC port, metrics count the calls.
#include <httplib.h>
#include <sys/stat.h>
#include <unistd.h>

#include <condition_variable>
#include <cstdio>
#include <fstream>
#include <mutex>
#include <string>
#include <thread>
#include <vector>

#include "absl/strings/ascii.h"
#include "absl/strings/match.h"
#include "absl/strings/str_cat.h"
#include "absl/strings/str_join.h"
#include "absl/strings/str_replace.h"
#include "convert/json_codec.h"
#include "google/protobuf/util/json_util.h"
#include "gtest/gtest.h"
#include "http/http_gateway.h"
#include "in_process_server.h"
#include "nlohmann/json.hpp"
#include "server_test_util.h"

namespace gridstar::server {
namespace {

using testing::InProcessServer;
using namespace testing::server_suite;  // NOLINT(build/namespaces)

// A room with a wall and a gap, and a walled-off corner (no path to (0, 4)).
constexpr char kRoom[] =
    "type octile\nheight 5\nwidth 8\nmap\n"
    "........\n"
    "...@....\n"
    "...@....\n"
    "@@......\n"
    ".@......\n";

std::string Quote(const std::string& s) {
  return absl::StrCat("'", absl::StrReplaceAll(s, {{"'", "'\\''"}}), "'");
}

struct Answer {
  int status = 0;
  std::string body;
};

// curl with `args`; the body and the HTTP status.
Answer Curl(const std::string& args) {
  int code = 0;
  const std::string out = testing::RunAndCapture(
      absl::StrCat("curl -sS --max-time 300 -w '\\n%{http_code}' ", args,
                   " 2>&1"),
      &code);
  Answer a;
  const size_t nl = out.rfind('\n');
  a.body = out.substr(0, nl == std::string::npos ? 0 : nl);
  a.status =
      std::atoi(out.substr(nl == std::string::npos ? 0 : nl + 1).c_str());
  return a;
}

std::string Url(int port, const std::string& method, bool tls = false) {
  return absl::StrCat(tls ? "https" : "http", "://127.0.0.1:", port,
                      "/gridstar.v1.Pathfinding/", method);
}

Answer Post(int port, const std::string& method, const std::string& json,
            const std::string& extra = "") {
  return Curl(absl::StrCat(extra, " -H 'Content-Type: application/json' -d ",
                           Quote(json), " ", Quote(Url(port, method))));
}

template <typename M>
M Parse(const std::string& json) {
  M m;
  EXPECT_TRUE(google::protobuf::util::JsonStringToMessage(json, &m).ok())
      << json;
  return m;
}

std::string RegisterJson(const std::string& id) {
  return absl::StrCat("{\"id\": \"", id, "\", \"movingai\": ", "\"",
                      absl::StrReplaceAll(kRoom, {{"\n", "\\n"}}),
                      "\", \"replace\": true}");
}

class HttpTest : public ::testing::Test {
 protected:
  void SetUp() override {
    ASSERT_TRUE(server_.started());
    ASSERT_GT(server_.server().http_port(), 0);
    const Answer a = Post(port(), "RegisterMap", RegisterJson("room"));
    ASSERT_EQ(a.status, 200) << a.body;
  }
  int port() { return server_.server().http_port(); }

  InProcessServer server_{{"--http_port=-1"}};
};

TEST_F(HttpTest, EveryAlgorithmAnswersAsTheGrpcPortDoes) {
  const google::protobuf::EnumDescriptor* algorithms =
      v1::Algorithm_descriptor();
  for (int i = 0; i < algorithms->value_count(); ++i) {
    const std::string name = algorithms->value(i)->name();
    SCOPED_TRACE(name);
    // Original field names, the enum by name.
    const Answer a = Post(
        port(), "FindPath",
        absl::StrCat("{\"map_id\": \"room\", \"start\": {\"x\": 0, \"y\": 0}, "
                     "\"goal\": {\"x\": 7, \"y\": 4}, \"algorithm\": \"",
                     name, "\"}"));
    ASSERT_EQ(a.status, 200) << a.body;
    const v1::PathResponse http = Parse<v1::PathResponse>(a.body);
    v1::PathRequest r = Path("room", 0, 0, 7, 4);
    r.set_algorithm(static_cast<v1::Algorithm>(algorithms->value(i)->number()));
    grpc::ClientContext ctx;
    SetDeadline(&ctx);
    v1::PathResponse grpc_answer;
    ASSERT_TRUE(server_.stub().FindPath(&ctx, r, &grpc_answer).ok());
    EXPECT_EQ(http.algorithm(), grpc_answer.algorithm());
    EXPECT_EQ(http.cost(), grpc_answer.cost());
    EXPECT_EQ(Unpack(http.cells()), Unpack(grpc_answer.cells()));
    EXPECT_EQ(http.map_version(), grpc_answer.map_version());
    // Every field is written, 64-bit integers as strings.
    EXPECT_TRUE(absl::StrContains(a.body, "\"mapVersion\":\"1\"")) << a.body;
    EXPECT_TRUE(absl::StrContains(a.body, "\"partial\":false")) << a.body;
  }
}

TEST_F(HttpTest, CamelCaseNamesAndEnumNumbersAreRead) {
  const Answer a =
      Post(port(), "FindPath",
           absl::StrCat(
               "{\"mapId\": \"room\", \"start\": {\"x\": 0, \"y\": 0}, "
               "\"goal\": {\"x\": 7, \"y\": 4}, \"algorithm\": ",
               static_cast<int>(v1::ALGORITHM_ASTAR), ", \"snapRadius\": 0}"));
  ASSERT_EQ(a.status, 200) << a.body;
  EXPECT_EQ(Parse<v1::PathResponse>(a.body).algorithm(), v1::ALGORITHM_ASTAR);
  EXPECT_EQ(Parse<v1::PathResponse>(a.body).cost(),
            CoreAStarCost(*ParseMovingAiMap(kRoom), {0, 0}, {7, 4}));
}

TEST_F(HttpTest, ErrorsAnswerTheMappedStatusWithTheCodeAndMessage) {
  struct Case {
    const char* name;
    std::string method;
    std::string body;
    std::string extra;  // More curl arguments.
    int status;
    const char* code;
    const char* message_has;
  };
  const Case cases[] = {
      {"unknown map", "FindPath",
       "{\"mapId\": \"nowhere\", \"start\": {}, \"goal\": {}}", "", 404,
       "NOT_FOUND", "map_id: no map 'nowhere'"},
      {"not JSON", "FindPath", "{\"mapId\": ", "", 400, "INVALID_ARGUMENT",
       "body: not a PathRequest in JSON"},
      {"unknown field", "FindPath", "{\"mapIdd\": \"room\"}", "", 400,
       "INVALID_ARGUMENT", "mapIdd"},
      {"bad enum name", "FindPath",
       "{\"mapId\": \"room\", \"algorithm\": \"ALGORITHM_NOPE\"}", "", 400,
       "INVALID_ARGUMENT", "body"},
      {"off the map", "FindPath",
       "{\"mapId\": \"room\", \"start\": {\"x\": 0, \"y\": 0}, "
       "\"goal\": {\"x\": 70, \"y\": 0}}",
       "", 400, "INVALID_ARGUMENT", "goal"},
      {"no path", "FindPath",
       "{\"mapId\": \"room\", \"start\": {\"x\": 0, \"y\": 0}, "
       "\"goal\": {\"x\": 0, \"y\": 4}}",
       "", 400, "FAILED_PRECONDITION", "no path"},
      {"stale expected_version", "UpdateCells",
       "{\"id\": \"room\", \"expectedVersion\": \"9\", \"cells\": "
       "[{\"cell\": {\"x\": 1, \"y\": 1}, \"cost\": 0}]}",
       "", 409, "ABORTED", "expected_version"},
      {"already registered", "RegisterMap",
       absl::StrReplaceAll(
           RegisterJson("room"),
           {{"true", "false"}, {"map\\n........", "map\\n@......."}}),
       "", 409, "ALREADY_EXISTS", "room"},
      {"unknown method", "FindAPath", "{}", "", 404, "NOT_FOUND",
       "no method 'FindAPath'"},
      {"a stream", "FindPathsStream", "{}", "", 501, "UNIMPLEMENTED",
       "FindPaths batch"},
      {"a watch request that does not read", "WatchPaths", "{\"agentId\": []}",
       "", 400, "INVALID_ARGUMENT", "body: not a WatchRequest in JSON"},
      {"an unknown watch stream", "WatchPaths?stream=0123", "{}", "", 404,
       "NOT_FOUND", "stream: no open WatchPaths stream '0123'"},
      {"GET", "FindPath", "", "-G", 405, "UNIMPLEMENTED", "calls are POST"},
      {"bad timeout header", "FindPath", "{}", "-H 'X-Server-Timeout: soon'",
       400, "INVALID_ARGUMENT", "X-Server-Timeout: 'soon'"},
  };
  for (const Case& c : cases) {
    SCOPED_TRACE(c.name);
    const Answer a =
        c.extra == "-G"
            ? Curl(absl::StrCat("-G ", Quote(Url(port(), c.method))))
            : Post(port(), c.method, c.body, c.extra);
    EXPECT_EQ(a.status, c.status) << a.body;
    EXPECT_TRUE(
        absl::StrContains(a.body, absl::StrCat("\"code\":", c.status, ",")))
        << a.body;
    EXPECT_TRUE(
        absl::StrContains(a.body, absl::StrCat("\"status\":\"", c.code, "\"")))
        << a.body;
    EXPECT_TRUE(absl::StrContains(a.body, c.message_has)) << a.body;
  }
}

TEST_F(HttpTest, MarkupAndQuotesInAMessageStayText) {
  // The parser's message repeats the value as JSON (`"<b>\"x"`): the body
  // stays one JSON object whose message holds that text.
  const Answer a = Post(port(), "FindPath",
                        "{\"mapId\": \"room\", \"algorithm\": \"<b>\\\"x\"}");
  EXPECT_EQ(a.status, 400) << a.body;
  const nlohmann::json body = nlohmann::json::parse(a.body, nullptr, false);
  ASSERT_TRUE(body.is_object()) << a.body;
  const std::string message = body["error"]["message"].get<std::string>();
  EXPECT_TRUE(absl::StrContains(message, "\"<b>\\\"x\"")) << message;
}

TEST(HttpDeadlineTest, FromTheHeaderOrTheQuery) {
  // A 1000 x 1000 terrain (costs 1..9, no wall) searched by Dijkstra corner
  // to corner: a million expansions through the open list, far longer than
  // the 5 ms deadlines below on any machine. Preloaded from a file.
  const int side = 1000;
  const std::string file = WriteTerrainPgm(side, "http_big");
  InProcessServer server({"--http_port=-1",
                          absl::StrCat("--preload=big=", file),
                          "--preload_landmarks=0"});
  ASSERT_TRUE(server.started());
  std::remove(file.c_str());
  const int port = server.server().http_port();
  const std::string query = absl::StrCat(
      "{\"mapId\": \"big\", \"start\": {\"x\": 0, \"y\": 0}, \"goal\": "
      "{\"x\": ",
      side - 1, ", \"y\": ", side - 1,
      "}, \"algorithm\": \"ALGORITHM_DIJKSTRA\"");
  Answer a =
      Post(port, "FindPath", query + "}", "-H 'X-Server-Timeout: 0.005'");
  EXPECT_EQ(a.status, 504) << a.body;
  EXPECT_TRUE(absl::StrContains(a.body, "\"status\":\"DEADLINE_EXCEEDED\""))
      << a.body;
  // With allowPartial the search stops at the deadline with its partial
  // path, which reaches the gateway before or after the call's own deadline
  // (as on the gRPC port): either answer says the timeout was applied.
  a = Curl(absl::StrCat("-d ", Quote(query + ", \"allowPartial\": true}"), " ",
                        Quote(Url(port, "FindPath") + "?timeout=0.005")));
  EXPECT_TRUE(a.status == 504 ||
              (a.status == 200 &&
               absl::StrContains(
                   a.body, "\"partialReason\":\"PARTIAL_REASON_DEADLINE\"")))
      << a.status << " " << a.body;
  for (const char* bad : {"-3", "0", "soon"}) {
    SCOPED_TRACE(bad);
    a = Curl(absl::StrCat("-d ", Quote(query + "}"), " ",
                          Quote(Url(port, "FindPath") + "?timeout=" + bad)));
    EXPECT_EQ(a.status, 400) << a.body;
    EXPECT_TRUE(absl::StrContains(a.body, absl::StrCat("timeout: '", bad, "'")))
        << a.body;
  }
}

TEST_F(HttpTest, AGenerousDeadlineIsMet) {
  const Answer a =
      Post(port(), "FindPath",
           "{\"mapId\": \"room\", \"start\": {\"x\": 0, \"y\": 0}, "
           "\"goal\": {\"x\": 7, \"y\": 4}}",
           "-H 'X-Server-Timeout: 300'");
  EXPECT_EQ(a.status, 200) << a.body;
}

TEST_F(HttpTest, MetricsCountHttpCalls) {
  ASSERT_EQ(Post(port(), "ListMaps", "{}").status, 200);
  ASSERT_EQ(Post(port(), "GetMap", "{\"id\": \"none\"}").status, 404);
  const std::string page = ScrapeUntil(
      server_.metrics_port(),
      {"gridstar_http_requests_total{code=\"200\",method=\"ListMaps\"} 1",
       "gridstar_http_requests_total{code=\"404\",method=\"GetMap\"} 1",
       "gridstar_http_request_duration_seconds_count{method=\"ListMaps\"} 1",
       // The call also counts as its RPC.
       "gridstar_requests_total{code=\"OK\",method=\"ListMaps\"} 1"});
  for (const char* line :
       {"gridstar_http_requests_total{code=\"200\",method=\"ListMaps\"} 1",
        "gridstar_http_requests_total{code=\"404\",method=\"GetMap\"} 1",
        "gridstar_requests_total{code=\"OK\",method=\"ListMaps\"} 1"}) {
    EXPECT_TRUE(absl::StrContains(page, line)) << line << "\n" << page;
  }
}

TEST(HttpStatusTest, EveryGrpcCodeHasTheGuidesStatus) {
  const int expected[] = {200, 499, 500, 400, 504, 404, 409, 403, 429,
                          400, 409, 400, 501, 500, 503, 500, 401};
  for (int code = 0; code <= 16; ++code) {
    SCOPED_TRACE(code);
    EXPECT_EQ(HttpGateway::HttpStatusOf(code), expected[code]);
  }
  EXPECT_EQ(HttpGateway::HttpStatusOf(17), 500);
  EXPECT_EQ(HttpGateway::HttpStatusOf(-1), 500);
}

TEST(HttpLimitsTest, ABodyOverTheMessageLimitAndAnUnknownRoute) {
  InProcessServer server({"--http_port=-1", "--max_message_bytes=1000"});
  ASSERT_TRUE(server.started());
  const int port = server.server().http_port();
  Answer a = Post(port, "ListMaps",
                  absl::StrCat("{\"pad\": \"", std::string(2000, 'x'), "\"}"));
  EXPECT_EQ(a.status, 429) << a.body;
  EXPECT_TRUE(absl::StrContains(a.body, "\"status\":\"RESOURCE_EXHAUSTED\""))
      << a.body;
  EXPECT_TRUE(absl::StrContains(a.body, "--max_message_bytes")) << a.body;
  a = Curl(absl::StrCat("-d '{}' http://127.0.0.1:", port, "/other/Path"));
  EXPECT_EQ(a.status, 404) << a.body;
  EXPECT_TRUE(absl::StrContains(a.body, "\"status\":\"NOT_FOUND\"")) << a.body;
  EXPECT_TRUE(absl::StrContains(a.body, "no route /other/Path")) << a.body;
  // The server still answers.
  EXPECT_EQ(Post(port, "ListMaps", "{}").status, 200);
}

// A WatchPaths event stream read by cpp-httplib's client on a thread of its
// own: the events (the stream's first, its id, apart) as they come.
class EventStream {
 public:
  EventStream(int port, const std::string& body) : client_("127.0.0.1", port) {
    client_.set_read_timeout(300);
    reader_ = std::thread([this, body] {
      httplib::Request request;
      request.method = "POST";
      request.path = "/gridstar.v1.Pathfinding/WatchPaths";
      request.body = body;
      request.set_header("Content-Type", "application/json");
      request.content_receiver = [this](const char* data, size_t n, uint64_t,
                                        uint64_t) {
        std::lock_guard<std::mutex> lock(mu_);
        text_.append(data, n);
        for (size_t end; (end = text_.find("\n\n")) != std::string::npos;) {
          const std::string event = text_.substr(0, end);
          text_.erase(0, end + 2);
          if (absl::StartsWith(event, "event: stream\ndata: ")) {
            const size_t at = event.find("\"streamId\":\"") + 12;
            id_ = event.substr(at, event.find('"', at) - at);
          } else if (absl::StartsWith(event, "data: ")) {
            v1::WatchEvent e;
            EXPECT_TRUE(convert::JsonToMessage(event.substr(6), &e).ok())
                << event;
            events_.push_back(e);
          }
        }
        changed_.notify_all();
        return !leave_;
      };
      httplib::Response response;
      httplib::Error error;
      client_.send(request, response, error);
    });
  }
  ~EventStream() {
    Leave();
    reader_.join();
  }
  // Waits for the stream's id, then for `count` events; returns them all.
  std::string Id() {
    std::unique_lock<std::mutex> lock(mu_);
    changed_.wait_for(lock, std::chrono::seconds(300),
                      [&] { return !id_.empty(); });
    return id_;
  }
  std::vector<v1::WatchEvent> WaitFor(size_t count) {
    std::unique_lock<std::mutex> lock(mu_);
    changed_.wait_for(lock, std::chrono::seconds(300),
                      [&] { return events_.size() >= count; });
    return events_;
  }
  // The client leaves: its connection is closed now.
  void Leave() {
    {
      std::lock_guard<std::mutex> lock(mu_);
      leave_ = true;
    }
    client_.stop();
  }

 private:
  httplib::Client client_;
  std::thread reader_;
  std::mutex mu_;
  std::condition_variable changed_;
  std::string text_, id_;
  std::vector<v1::WatchEvent> events_;
  bool leave_ = false;
};

TEST_F(HttpTest, WatchPathsStreamsEventsAndTakesPostedRequests) {
  const std::string add =
      "[{\"requestId\": 1, \"agentId\": 7, \"action\": \"WATCH_ACTION_ADD\", "
      "\"path\": {\"mapId\": \"room\", \"start\": {\"x\": 0, \"y\": 0}, "
      "\"goal\": {\"x\": 7, \"y\": 0}, \"algorithm\": \"ALGORITHM_ASTAR\"}}]";
  EventStream stream(port(), add);
  const std::string id = stream.Id();
  ASSERT_EQ(id.size(), 32u);
  std::vector<v1::WatchEvent> events = stream.WaitFor(1);
  ASSERT_EQ(events.size(), 1u);
  EXPECT_EQ(events[0].reason(), v1::WATCH_REASON_ADDED);
  EXPECT_EQ(events[0].code(), 0) << events[0].message();
  EXPECT_EQ(events[0].path().cost(), 7);
  // A change of the map over HTTP: the agent's path is blocked, a new one
  // is pushed on the stream.
  Answer a =
      Post(port(), "UpdateCells",
           "{\"id\": \"room\", \"cells\": [{\"cell\": {\"x\": 4, \"y\": 0}, "
           "\"cost\": 0}]}");
  ASSERT_EQ(a.status, 200) << a.body;
  events = stream.WaitFor(2);
  ASSERT_EQ(events.size(), 2u);
  EXPECT_EQ(events[1].reason(), v1::WATCH_REASON_BLOCKED);
  EXPECT_EQ(events[1].request_id(), 0u);
  EXPECT_EQ(events[1].path().cost(),
            CoreAStarCost(*ParseMovingAiMap(absl::StrReplaceAll(
                              kRoom, {{"map\n........", "map\n....@..."}})),
                          {0, 0}, {7, 0}));
  // A request posted to the stream is answered on it.
  a = Post(port(), absl::StrCat("WatchPaths?stream=", id),
           "{\"requestId\": 2, \"agentId\": 7, \"action\": "
           "\"WATCH_ACTION_REMOVE\"}");
  ASSERT_EQ(a.status, 200) << a.body;
  EXPECT_EQ(a.body, "{\"accepted\":1}\n");
  events = stream.WaitFor(3);
  ASSERT_EQ(events.size(), 3u);
  EXPECT_EQ(events[2].reason(), v1::WATCH_REASON_REMOVED);
  EXPECT_EQ(events[2].request_id(), 2u);
  // The client leaves: the stream is dropped (noticed at its next write).
  stream.Leave();
  const auto end = std::chrono::steady_clock::now() + std::chrono::seconds(300);
  while (Post(port(), absl::StrCat("WatchPaths?stream=", id), "[]").status !=
             404 &&
         std::chrono::steady_clock::now() < end) {
    std::this_thread::sleep_for(std::chrono::milliseconds(50));
  }
  EXPECT_EQ(Post(port(), absl::StrCat("WatchPaths?stream=", id), "[]").status,
            404);
}

// The response headers and status of curl `args` (-i: headers in the
// output), in lower case.
std::string Headers(const std::string& args) {
  int code = 0;
  return absl::AsciiStrToLower(testing::RunAndCapture(
      absl::StrCat("curl -sS -i --max-time 300 ", args, " 2>&1"), &code));
}

TEST(HttpCorsTest, AllowedOriginsGetTheHeadersAndPreflightsOthersNone) {
  InProcessServer server(
      {"--http_port=-1",
       "--http_cors_origins=https://tools.example, https://b.example"});
  ASSERT_TRUE(server.started());
  const std::string url = Url(server.server().http_port(), "ListMaps");
  // A preflight from an allowed page.
  std::string h =
      Headers(absl::StrCat("-X OPTIONS -H 'Origin: https://tools.example' "
                           "-H 'Access-Control-Request-Method: POST' ",
                           url));
  EXPECT_TRUE(absl::StrContains(h, "http/1.1 204")) << h;
  EXPECT_TRUE(absl::StrContains(
      h, "access-control-allow-origin: https://tools.example"))
      << h;
  EXPECT_TRUE(absl::StrContains(h, "access-control-allow-methods: post")) << h;
  EXPECT_TRUE(absl::StrContains(h,
                                "access-control-allow-headers: authorization, "
                                "content-type, x-server-timeout"))
      << h;
  // A call from the second allowed page, and one from elsewhere.
  h = Headers(absl::StrCat("-H 'Origin: https://b.example' -d '{}' ", url));
  EXPECT_TRUE(absl::StrContains(h, "http/1.1 200")) << h;
  EXPECT_TRUE(
      absl::StrContains(h, "access-control-allow-origin: https://b.example"))
      << h;
  EXPECT_TRUE(absl::StrContains(h, "vary: origin")) << h;
  h = Headers(absl::StrCat("-H 'Origin: https://evil.example' -d '{}' ", url));
  EXPECT_TRUE(absl::StrContains(h, "http/1.1 200"))
      << h;  // Not a browser: answered.
  EXPECT_FALSE(absl::StrContains(h, "access-control-allow-origin")) << h;
  // Without the flag no page is allowed.
  InProcessServer plain({"--http_port=-1"});
  ASSERT_TRUE(plain.started());
  h = Headers(absl::StrCat("-H 'Origin: https://tools.example' -d '{}' ",
                           Url(plain.server().http_port(), "ListMaps")));
  EXPECT_FALSE(absl::StrContains(h, "access-control-allow-origin")) << h;
}

std::string WriteFile(const std::string& dir, const std::string& name,
                      const std::string& text) {
  const std::string path = absl::StrCat(dir, "/", name);
  std::ofstream(path) << text;
  return path;
}

TEST(HttpKeysTest, BearerTokensAsOnTheGrpcPort) {
  const std::string dir =
      absl::StrCat(::testing::TempDir(), "/http_keys.", getpid());
  mkdir(dir.c_str(), 0700);
  const std::string admin = "admin-token-0123456789";
  const std::string query = "query-token-0123456789";
  InProcessServer server({"--http_port=-1",
                          absl::StrCat("--admin_token_file=",
                                       WriteFile(dir, "admin", admin + "\n")),
                          absl::StrCat("--query_token_file=",
                                       WriteFile(dir, "query", query + "\n"))});
  ASSERT_TRUE(server.started());
  const int port = server.server().http_port();
  const auto bearer = [](const std::string& t) {
    return absl::StrCat("-H 'Authorization: Bearer ", t, "'");
  };
  Answer a = Post(port, "RegisterMap", RegisterJson("k"));
  EXPECT_EQ(a.status, 401) << a.body;
  EXPECT_TRUE(absl::StrContains(a.body, "UNAUTHENTICATED")) << a.body;
  a = Post(port, "RegisterMap", RegisterJson("k"), bearer(query));
  EXPECT_EQ(a.status, 403) << a.body;
  EXPECT_TRUE(absl::StrContains(a.body, "PERMISSION_DENIED")) << a.body;
  a = Post(port, "RegisterMap", RegisterJson("k"), bearer(admin));
  EXPECT_EQ(a.status, 200) << a.body;
  const std::string path =
      "{\"mapId\": \"k\", \"start\": {\"x\": 0, \"y\": 0}, \"goal\": {\"x\": "
      "7, \"y\": 4}}";
  EXPECT_EQ(Post(port, "FindPath", path).status, 401);
  EXPECT_EQ(
      Post(port, "FindPath", path, bearer("wrong-token-0123456789")).status,
      401);
  a = Post(port, "FindPath", path, bearer(query));
  EXPECT_EQ(a.status, 200) << a.body;
}

TEST(HttpTlsTest, HttpsWithTheServersCertificateAndClientCertificates) {
  const std::string d =
      absl::StrCat(::testing::TempDir(), "/http_tls.", getpid());
  mkdir(d.c_str(), 0700);
  const std::string ec =
      "-newkey ec -pkeyopt ec_paramgen_curve:prime256v1 -nodes";
  const std::string script = absl::StrCat(
      "set -e; cd ", d, "; openssl req -x509 ", ec,
      " -keyout ca.key -out ca.crt -days 2 -subj /CN=test-ca 2>/dev/null; ",
      "printf 'subjectAltName=IP:127.0.0.1\\n' > san.ext; ", "openssl req ", ec,
      " -keyout server.key -out server.csr -subj /CN=gridstar 2>/dev/null; ",
      "openssl x509 -req -in server.csr -CA ca.crt -CAkey ca.key "
      "-CAcreateserial "
      "-out server.crt -days 2 -extfile san.ext 2>/dev/null; ",
      "openssl req ", ec,
      " -keyout client.key -out client.csr -subj /CN=client 2>/dev/null; ",
      "openssl x509 -req -in client.csr -CA ca.crt -CAkey ca.key "
      "-CAcreateserial "
      "-out client.crt -days 2 2>/dev/null");
  ASSERT_EQ(std::system(script.c_str()), 0);
  const std::string list = "{}";
  {
    InProcessServer server({"--http_port=-1",
                            absl::StrCat("--tls_cert=", d, "/server.crt"),
                            absl::StrCat("--tls_key=", d, "/server.key")});
    ASSERT_TRUE(server.started());
    const int port = server.server().http_port();
    Answer a = Curl(absl::StrCat("--cacert ", d, "/ca.crt -d '{}' ",
                                 Url(port, "ListMaps", /*tls=*/true)));
    EXPECT_EQ(a.status, 200) << a.body;
    // Plain HTTP on the TLS port gets no answer.
    a = Curl(absl::StrCat("-d '{}' ", Url(port, "ListMaps")));
    EXPECT_NE(a.status, 200) << a.body;
  }
  InProcessServer server({"--http_port=-1",
                          absl::StrCat("--tls_cert=", d, "/server.crt"),
                          absl::StrCat("--tls_key=", d, "/server.key"),
                          absl::StrCat("--tls_client_ca=", d, "/ca.crt")});
  ASSERT_TRUE(server.started());
  const int port = server.server().http_port();
  Answer a = Curl(absl::StrCat("--cacert ", d, "/ca.crt -d '{}' ",
                               Url(port, "ListMaps", true)));
  EXPECT_NE(a.status, 200) << "no client certificate: " << a.body;
  a = Curl(absl::StrCat("--cacert ", d, "/ca.crt --cert ", d,
                        "/client.crt --key ", d, "/client.key -d '{}' ",
                        Url(port, "ListMaps", true)));
  EXPECT_EQ(a.status, 200) << a.body;
}

}  // namespace
}  // namespace gridstar::server
