// TLS, mutual TLS and keys, against the real server: every transport with
// every kind of client, every RPC with every kind of token, rotation on
// SIGHUP, refusals in the metrics, flags that must stop a start. The
// certificates are made at test time by openssl (Debian's).
#include <sys/stat.h>

#include "client.h"
#include "grpcpp/generic/generic_stub.h"
#include "server/server_test_util.h"

namespace gridstar::testing {
namespace {

constexpr char kAdminToken[] = "admin-0123456789abcdef";
constexpr char kQueryToken[] = "query-0123456789abcdef";
constexpr char kUnknownToken[] = "nobody-0123456789abcdef";

std::string ReadAll(const std::string& path) {
  std::ifstream in(path, std::ios::binary);
  std::stringstream ss;
  ss << in.rdbuf();
  return ss.str();
}

void WriteAll(const std::string& path, const std::string& text) {
  const std::string tmp = path + ".tmp";
  std::ofstream(tmp, std::ios::binary) << text;
  std::rename(tmp.c_str(), path.c_str());
}

class SecurityTest : public ::testing::Test {
 protected:
  // Two CAs: `ca` signs the server's and a client's certificate; `rogue`
  // signs a client certificate the server must refuse.
  static void SetUpTestSuite() {
    dir_ = new std::string(
        absl::StrCat(::testing::TempDir(), "/security.", getpid()));
    mkdir(dir_->c_str(), 0700);
    const std::string d = *dir_;
    const std::string ec =
        "-newkey ec -pkeyopt ec_paramgen_curve:prime256v1 -nodes";
    const std::string script = absl::StrCat(
        "set -e; cd ", d, "; ", "openssl req -x509 ", ec,
        " -keyout ca.key -out ca.crt -days 2 -subj /CN=test-ca; ",
        "openssl req -x509 ", ec,
        " -keyout rogue.key -out rogue.crt -days 2 -subj /CN=rogue; ",
        "printf 'subjectAltName=DNS:localhost,DNS:gridstar,IP:127.0.0.1\\n' > "
        "san.ext; ",
        "openssl req ", ec,
        " -keyout server.key -out server.csr -subj /CN=gridstar; ",
        "openssl x509 -req -in server.csr -CA ca.crt -CAkey ca.key "
        "-CAcreateserial "
        "-out server.crt -days 2 -extfile san.ext; ",
        "openssl req ", ec,
        " -keyout client.key -out client.csr -subj /CN=client; ",
        "openssl x509 -req -in client.csr -CA ca.crt -CAkey ca.key "
        "-CAcreateserial "
        "-out client.crt -days 2; ",
        "openssl req ", ec,
        " -keyout stranger.key -out stranger.csr -subj /CN=stranger; ",
        "openssl x509 -req -in stranger.csr -CA rogue.crt -CAkey rogue.key "
        "-CAcreateserial -out stranger.crt -days 2");
    int code = 0;
    const std::string out =
        RunAndCapture(absl::StrCat("(", script, ") 2>&1"), &code);
    ASSERT_EQ(code, 0) << out;
  }
  static void TearDownTestSuite() { delete dir_; }

  static std::string File(const std::string& name) {
    return *dir_ + "/" + name;
  }

  // Token files with one admin and one query token; returns the flags.
  std::vector<std::string> KeyFlags() {
    WriteAll(File("admin.tokens"),
             absl::StrCat("# admins\n", kAdminToken, "\n"));
    WriteAll(File("query.tokens"), absl::StrCat("\n  ", kQueryToken, "  \n"));
    return {absl::StrCat("--admin_token_file=", File("admin.tokens")),
            absl::StrCat("--query_token_file=", File("query.tokens"))};
  }
  std::vector<std::string> TlsFlags(bool mutual) {
    std::vector<std::string> flags = {
        absl::StrCat("--tls_cert=", File("server.crt")),
        absl::StrCat("--tls_key=", File("server.key"))};
    if (mutual)
      flags.push_back(absl::StrCat("--tls_client_ca=", File("ca.crt")));
    return flags;
  }

  // What a client brings to the handshake.
  enum class Transport {
    kPlaintext,
    kTls,
    kTlsWithCert,
    kTlsWithRogueCert,
    kTlsUntrustingRoot
  };
  static std::unique_ptr<v1::Pathfinding::Stub> StubFor(int port, Transport t) {
    std::shared_ptr<grpc::ChannelCredentials> creds;
    if (t == Transport::kPlaintext) {
      creds = grpc::InsecureChannelCredentials();
    } else {
      grpc::SslCredentialsOptions ssl;
      ssl.pem_root_certs = ReadAll(
          File(t == Transport::kTlsUntrustingRoot ? "rogue.crt" : "ca.crt"));
      if (t == Transport::kTlsWithCert) {
        ssl.pem_cert_chain = ReadAll(File("client.crt"));
        ssl.pem_private_key = ReadAll(File("client.key"));
      } else if (t == Transport::kTlsWithRogueCert) {
        ssl.pem_cert_chain = ReadAll(File("stranger.crt"));
        ssl.pem_private_key = ReadAll(File("stranger.key"));
      }
      creds = grpc::SslCredentials(ssl);
    }
    return v1::Pathfinding::NewStub(
        grpc::CreateChannel(absl::StrCat("127.0.0.1:", port), creds));
  }

  static void WithToken(grpc::ClientContext* ctx, const std::string& token) {
    if (!token.empty())
      ctx->AddMetadata("authorization", absl::StrCat("Bearer ", token));
  }

  static grpc::StatusCode ListMapsCode(v1::Pathfinding::Stub& stub,
                                       const std::string& token) {
    grpc::ClientContext ctx;
    SetDeadline(&ctx);
    WithToken(&ctx, token);
    v1::ListMapsRequest r;
    v1::ListMapsResponse out;
    return stub.ListMaps(&ctx, r, &out).error_code();
  }

  static std::string* dir_;
};

std::string* SecurityTest::dir_ = nullptr;

// One RPC of the service, called with a given authorization value.
struct RpcCase {
  const char* name;
  bool admin;
  std::function<grpc::Status(v1::Pathfinding::Stub&, grpc::ClientContext*)>
      call;
};

std::vector<RpcCase> EveryRpc() {
  const std::string dungeon = ReadSample("dungeon.map");
  return {
      {"RegisterMap", true,
       [dungeon](v1::Pathfinding::Stub& s, grpc::ClientContext* c) {
         v1::RegisterMapRequest r;
         r.set_id("other");
         r.set_movingai(dungeon);
         r.set_replace(true);
         v1::MapInfo out;
         return s.RegisterMap(c, r, &out);
       }},
      {"UpdateCells", true,
       [](v1::Pathfinding::Stub& s, grpc::ClientContext* c) {
         v1::UpdateCellsRequest r;
         r.set_id("dungeon");
         auto* change = r.add_cells();
         change->mutable_cell()->set_x(8);
         change->mutable_cell()->set_y(58);
         change->set_cost(1);
         v1::MapInfo out;
         return s.UpdateCells(c, r, &out);
       }},
      {"DeleteMap", true,
       [](v1::Pathfinding::Stub& s, grpc::ClientContext* c) {
         v1::DeleteMapRequest r;
         r.set_id("victim");
         v1::DeleteMapResponse out;
         return s.DeleteMap(c, r, &out);
       }},
      {"GetMap", false,
       [](v1::Pathfinding::Stub& s, grpc::ClientContext* c) {
         v1::GetMapRequest r;
         r.set_id("dungeon");
         v1::GetMapResponse out;
         return s.GetMap(c, r, &out);
       }},
      {"ListMaps", false,
       [](v1::Pathfinding::Stub& s, grpc::ClientContext* c) {
         v1::ListMapsResponse out;
         return s.ListMaps(c, v1::ListMapsRequest(), &out);
       }},
      {"FindPath", false,
       [](v1::Pathfinding::Stub& s, grpc::ClientContext* c) {
         v1::PathResponse out;
         return s.FindPath(c, Path("dungeon", 8, 58, 97, 52), &out);
       }},
      {"FindPaths", false,
       [](v1::Pathfinding::Stub& s, grpc::ClientContext* c) {
         v1::FindPathsRequest r;
         r.set_map_id("dungeon");
         *r.add_items() = Path("dungeon", 8, 58, 97, 52);
         v1::FindPathsResponse out;
         return s.FindPaths(c, r, &out);
       }},
      {"FindGroupPaths", false,
       [](v1::Pathfinding::Stub& s, grpc::ClientContext* c) {
         v1::GroupPathsRequest r;
         r.set_map_id("dungeon");
         auto* unit = r.add_starts();
         unit->set_x(8);
         unit->set_y(58);
         auto* goal = r.add_goals();
         goal->set_x(97);
         goal->set_y(52);
         v1::GroupPathsResponse out;
         return s.FindGroupPaths(c, r, &out);
       }},
      {"ComputeFlowField", false,
       [](v1::Pathfinding::Stub& s, grpc::ClientContext* c) {
         v1::FlowFieldRequest r;
         r.set_map_id("dungeon");
         r.mutable_goal()->set_x(97);
         r.mutable_goal()->set_y(52);
         v1::FlowFieldResponse out;
         return s.ComputeFlowField(c, r, &out);
       }},
      {"FindPathsStream", false,
       [](v1::Pathfinding::Stub& s, grpc::ClientContext* c) {
         auto stream = s.FindPathsStream(c);
         v1::StreamPathRequest r;
         r.set_request_id(1);
         *r.mutable_request() = Path("dungeon", 8, 58, 97, 52);
         stream->Write(r);
         stream->WritesDone();
         v1::StreamPathResponse out;
         while (stream->Read(&out)) {
         }
         return stream->Finish();
       }},
  };
}

TEST_F(SecurityTest, EveryRpcNeedsItsLevel) {
  InProcessServer server(KeyFlags());
  ASSERT_TRUE(server.started());
  auto admin_call = [&](auto&& rpc) {
    grpc::ClientContext ctx;
    SetDeadline(&ctx);
    WithToken(&ctx, kAdminToken);
    return rpc(server.stub(), &ctx);
  };
  ASSERT_TRUE(admin_call([](v1::Pathfinding::Stub& s, grpc::ClientContext* c) {
                v1::MapInfo out;
                return s.RegisterMap(
                    c,
                    [] {
                      v1::RegisterMapRequest r;
                      r.set_id("dungeon");
                      r.set_movingai(ReadSample("dungeon.map"));
                      return r;
                    }(),
                    &out);
              }).ok());
  struct Token {
    const char* name;
    std::string metadata;  // Empty: no authorization metadata at all.
  };
  const std::vector<Token> tokens = {
      {"none", ""},
      {"query", absl::StrCat("Bearer ", kQueryToken)},
      {"admin", absl::StrCat("Bearer ", kAdminToken)},
      {"admin, lower-case scheme", absl::StrCat("bearer ", kAdminToken)},
      {"unknown", absl::StrCat("Bearer ", kUnknownToken)},
      {"admin token without scheme", kAdminToken},
      {"basic scheme", "Basic YWRtaW46YWRtaW4="},
      {"prefix of the admin token",
       absl::StrCat("Bearer ", std::string(kAdminToken).substr(0, 18))},
      {"admin token and more", absl::StrCat("Bearer ", kAdminToken, "x")},
  };
  for (const RpcCase& rpc : EveryRpc()) {
    for (const Token& token : tokens) {
      SCOPED_TRACE(absl::StrCat(rpc.name, " with token ", token.name));
      if (std::string(rpc.name) == "DeleteMap") {
        ASSERT_TRUE(
            admin_call([](v1::Pathfinding::Stub& s, grpc::ClientContext* c) {
              v1::RegisterMapRequest r;
              r.set_id("victim");
              r.set_movingai(ReadSample("dungeon.map"));
              r.set_replace(true);
              v1::MapInfo out;
              return s.RegisterMap(c, r, &out);
            }).ok());
      }
      grpc::ClientContext ctx;
      SetDeadline(&ctx);
      if (!token.metadata.empty())
        ctx.AddMetadata("authorization", token.metadata);
      const grpc::Status s = rpc.call(server.stub(), &ctx);
      const std::string name = token.name;
      grpc::StatusCode want = grpc::StatusCode::OK;
      if (name == "query" && rpc.admin)
        want = grpc::StatusCode::PERMISSION_DENIED;
      if (name != "query" && name.rfind("admin", 0) != 0) {
        want = grpc::StatusCode::UNAUTHENTICATED;
      }
      if (name == "admin token without scheme" ||
          name == "admin token and more") {
        want = grpc::StatusCode::UNAUTHENTICATED;
      }
      EXPECT_EQ(s.error_code(), want) << s.error_message();
      // A refusal names the RPC and never the token it carried.
      if (want != grpc::StatusCode::OK) {
        EXPECT_NE(s.error_message().find(rpc.name), std::string::npos)
            << s.error_message();
        for (const char* t : {kAdminToken, kQueryToken, kUnknownToken}) {
          EXPECT_EQ(s.error_message().find(std::string(t).substr(0, 10)),
                    std::string::npos)
              << s.error_message();
        }
      }
    }
  }
  // Health needs no key.
  EXPECT_TRUE(gridstar::Client(absl::StrCat("127.0.0.1:", server.port()))
                  .Health()
                  .ok());
  // Refusals are counted by their codes.
  const std::string page =
      ScrapeUntil(server.metrics_port(),
                  {"code=\"UNAUTHENTICATED\"", "code=\"PERMISSION_DENIED\"",
                   "method=\"FindPathsStream\""});
  EXPECT_GT(MetricValue(page,
                        "gridstar_requests_total{code=\"PERMISSION_DENIED\","
                        "method=\"DeleteMap\"} "),
            0);
  EXPECT_GT(MetricValue(page,
                        "gridstar_requests_total{code=\"UNAUTHENTICATED\","
                        "method=\"FindPathsStream\"} "),
            0);
}

TEST_F(SecurityTest, TransportsAdmitTheirClientsOnly) {
  using T = Transport;
  struct Case {
    const char* server;
    std::vector<std::string> flags;
    std::vector<std::pair<T, bool>> clients;  // Client, whether it gets in.
  };
  const std::vector<Case> cases = {
      {"plaintext", {}, {{T::kPlaintext, true}, {T::kTls, false}}},
      {"TLS",
       TlsFlags(false),
       {{T::kPlaintext, false},
        {T::kTls, true},
        {T::kTlsWithCert, true},
        {T::kTlsUntrustingRoot, false}}},
      {"mutual TLS",
       TlsFlags(true),
       {{T::kPlaintext, false},
        {T::kTls, false},
        {T::kTlsWithCert, true},
        {T::kTlsWithRogueCert, false},
        {T::kTlsUntrustingRoot, false}}},
  };
  for (const Case& c : cases) {
    std::vector<std::string> flags = KeyFlags();
    flags.insert(flags.end(), c.flags.begin(), c.flags.end());
    InProcessServer server(flags);
    ASSERT_TRUE(server.started()) << c.server;
    for (const auto& [transport, admitted] : c.clients) {
      SCOPED_TRACE(absl::StrCat(c.server, " server, client ",
                                static_cast<int>(transport)));
      auto stub = StubFor(server.port(), transport);
      EXPECT_EQ(
          ListMapsCode(*stub, kQueryToken),
          admitted ? grpc::StatusCode::OK : grpc::StatusCode::UNAVAILABLE);
      if (admitted) {
        // Keys are checked whatever the transport.
        EXPECT_EQ(ListMapsCode(*stub, ""), grpc::StatusCode::UNAUTHENTICATED);
      }
    }
  }
}

TEST_F(SecurityTest, KeysRotateOnSighupAndABadFileKeepsTheOldOnes) {
  ServerProcess server(KeyFlags());
  ASSERT_TRUE(server.started());
  EXPECT_EQ(ListMapsCode(server.stub(), kQueryToken), grpc::StatusCode::OK);
  const std::string rotated = "query-rotated-0123456789";
  auto reloads = [&](const char* result) {
    return MetricValue(
        Scrape(server.metrics_port()),
        absl::StrCat("gridstar_key_reloads_total{result=\"", result, "\"} "));
  };

  // A bad query file (a token too short): the reload fails, keys stay.
  WriteAll(File("query.tokens"), absl::StrCat(rotated, "\nshort\n"));
  kill(server.pid(), SIGHUP);
  ASSERT_TRUE(WaitFor([&] { return reloads("error") >= 1; }));
  EXPECT_EQ(ListMapsCode(server.stub(), kQueryToken), grpc::StatusCode::OK);
  EXPECT_EQ(ListMapsCode(server.stub(), rotated),
            grpc::StatusCode::UNAUTHENTICATED);
  EXPECT_EQ(reloads("ok"), 0);

  // A good one: the new token gets in, the old one no longer.
  WriteAll(File("query.tokens"), absl::StrCat(rotated, "\n"));
  kill(server.pid(), SIGHUP);
  ASSERT_TRUE(WaitFor([&] { return reloads("ok") >= 1; }));
  EXPECT_EQ(ListMapsCode(server.stub(), rotated), grpc::StatusCode::OK);
  EXPECT_EQ(ListMapsCode(server.stub(), kQueryToken),
            grpc::StatusCode::UNAUTHENTICATED);
  EXPECT_EQ(ListMapsCode(server.stub(), kAdminToken), grpc::StatusCode::OK);
}

TEST_F(SecurityTest, WithoutKeysEverythingIsAdmittedAndOpenAddressesWarn) {
  struct Case {
    const char* host;
    bool warns;
  };
  for (const Case& c : {Case{"127.0.0.1", false}, Case{"0.0.0.0", true}}) {
    SCOPED_TRACE(c.host);
    const std::string log = File(absl::StrCat("stderr.", c.host));
    ServerProcess server({absl::StrCat("--host=", c.host)}, log);
    ASSERT_TRUE(server.started());
    EXPECT_EQ(ListMapsCode(server.stub(), ""), grpc::StatusCode::OK);
    EXPECT_EQ(ListMapsCode(server.stub(), kUnknownToken), grpc::StatusCode::OK);
    // The warning comes before the port is announced.
    EXPECT_EQ(ReadAll(log).find("warning: no --admin_token_file") !=
                  std::string::npos,
              c.warns)
        << ReadAll(log);
  }
}

// Reflection, like health, needs no key: a server with keys answers a
// reflection request that carries none (list_services, sent as raw bytes
// through a generic call: Debian ships no reflection stubs).
TEST_F(SecurityTest, ReflectionNeedsNoKey) {
  InProcessServer server(KeyFlags());
  ASSERT_TRUE(server.started());
  ASSERT_EQ(ListMapsCode(server.stub(), ""),
            grpc::StatusCode::UNAUTHENTICATED);
  auto channel = grpc::CreateChannel(absl::StrCat("127.0.0.1:", server.port()),
                                     grpc::InsecureChannelCredentials());
  grpc::GenericStub stub(channel);
  grpc::CompletionQueue cq;
  grpc::ClientContext ctx;
  SetDeadline(&ctx);
  // Each step waits for its own tag; the deadline above ends a hung one.
  auto step = [&](intptr_t tag) {
    void* got = nullptr;
    bool ok = false;
    return cq.Next(&got, &ok) && got == reinterpret_cast<void*>(tag) && ok;
  };
  std::unique_ptr<grpc::GenericClientAsyncReaderWriter> call = stub.PrepareCall(
      &ctx, "/grpc.reflection.v1alpha.ServerReflection/ServerReflectionInfo",
      &cq);
  call->StartCall(reinterpret_cast<void*>(1));
  ASSERT_TRUE(step(1));
  // ServerReflectionRequest { list_services: "" } (field 7, a string).
  const std::string request("\x3a\x00", 2);
  grpc::Slice slice(request);
  call->Write(grpc::ByteBuffer(&slice, 1), reinterpret_cast<void*>(2));
  ASSERT_TRUE(step(2));
  grpc::ByteBuffer response;
  call->Read(&response, reinterpret_cast<void*>(3));
  ASSERT_TRUE(step(3));
  std::vector<grpc::Slice> slices;
  ASSERT_TRUE(response.Dump(&slices).ok());
  std::string bytes;
  for (const grpc::Slice& s : slices) {
    bytes.append(reinterpret_cast<const char*>(s.begin()), s.size());
  }
  EXPECT_NE(bytes.find("gridstar.v1.Pathfinding"), std::string::npos);
  call->WritesDone(reinterpret_cast<void*>(4));
  ASSERT_TRUE(step(4));
  grpc::Status status;
  call->Finish(&status, reinterpret_cast<void*>(5));
  ASSERT_TRUE(step(5));
  EXPECT_TRUE(status.ok()) << status.error_message();
}

TEST_F(SecurityTest, BadSecurityFlagsStopTheStartNamingTheFlag) {
  WriteAll(File("empty.tokens"), "# nobody yet\n\n");
  WriteAll(File("short.tokens"), "abc\n");
  WriteAll(File("spaced.tokens"), "one token with spaces in it\n");
  WriteAll(File("not.pem"), "hello\n");
  struct Case {
    std::string flags;
    std::string names;
  };
  const std::vector<Case> cases = {
      {absl::StrCat("--tls_cert=", File("server.crt")), "--tls_key"},
      {absl::StrCat("--tls_key=", File("server.key")), "--tls_cert"},
      {absl::StrCat("--tls_client_ca=", File("ca.crt")), "--tls_cert"},
      {absl::StrCat("--tls_cert=", File("missing.crt"),
                    " --tls_key=", File("server.key")),
       "--tls_cert: cannot read"},
      {absl::StrCat("--tls_cert=", File("not.pem"),
                    " --tls_key=", File("server.key")),
       "--tls_cert:"},
      {absl::StrCat("--admin_token_file=", File("missing.tokens")),
       "--admin_token_file"},
      {absl::StrCat("--admin_token_file=", File("empty.tokens")),
       "holds no token"},
      {absl::StrCat("--query_token_file=", File("short.tokens")),
       "--query_token_file: line 1"},
      {absl::StrCat("--query_token_file=", File("spaced.tokens")),
       "--query_token_file: line 1"},
  };
  for (const Case& c : cases) {
    SCOPED_TRACE(c.flags);
    int code = 0;
    const std::string out = RunAndCapture(
        absl::StrCat(GRIDSTAR_SERVER_BINARY,
                     " --host=127.0.0.1 --port=0 --metrics_port=0 ", c.flags,
                     " 2>&1"),
        &code);
    EXPECT_EQ(code, 2) << out;
    EXPECT_NE(out.find(c.names), std::string::npos) << out;
    EXPECT_EQ(out.find("abc"), std::string::npos)
        << "a token was echoed: " << out;
  }
}

TEST_F(SecurityTest, ClientLibraryAndCliSpeakMutualTlsWithTokens) {
  std::vector<std::string> flags = KeyFlags();
  for (const std::string& f : TlsFlags(true)) flags.push_back(f);
  InProcessServer server(flags);
  ASSERT_TRUE(server.started());
  WriteAll(File("admin.token"), absl::StrCat(kAdminToken, "\n"));
  WriteAll(File("query.token"),
           absl::StrCat("# the query key\n", kQueryToken, "\n"));
  // The library: certificate name checked against --tls_server_name.
  ClientOptions options;
  options.deadline = absl::Milliseconds(kGenerousMs);
  ASSERT_TRUE(LoadClientSecurity(File("ca.crt"), File("client.crt"),
                                 File("client.key"), File("admin.token"),
                                 &options)
                  .ok());
  options.tls_server_name = "gridstar";
  gridstar::Client admin(absl::StrCat("127.0.0.1:", server.port()), options);
  v1::RegisterMapRequest r;
  r.set_id("dungeon");
  r.set_movingai(ReadSample("dungeon.map"));
  ASSERT_TRUE(admin.RegisterMap(r).ok());
  absl::StatusOr<v1::PathResponse> path =
      admin.FindPath(Path("dungeon", 8, 58, 97, 52));
  ASSERT_TRUE(path.ok()) << path.status();
  EXPECT_GT(path->cost(), 0);
  // Missing key file and a certificate without its key are refused.
  ClientOptions bad;
  EXPECT_FALSE(LoadClientSecurity("", "", "", File("nope.token"), &bad).ok());
  EXPECT_FALSE(
      LoadClientSecurity(File("ca.crt"), File("client.crt"), "", "", &bad)
          .ok());

  // The CLI: a query key may search, not delete; GRIDSTAR_TOKEN works too.
  const std::string cli = absl::StrCat(
      GRIDSTAR_CLI_BINARY, " --server=127.0.0.1:", server.port(),
      " --deadline=300s", " --tls_ca=", File("ca.crt"),
      " --tls_cert=", File("client.crt"), " --tls_key=", File("client.key"),
      " --tls_server_name=gridstar");
  int code = 0;
  std::string out =
      RunAndCapture(absl::StrCat(cli, " --token_file=", File("query.token"),
                                 " path dungeon 8 58 97 52 2>&1"),
                    &code);
  EXPECT_EQ(code, 0) << out;
  EXPECT_NE(out.find("cost="), std::string::npos) << out;
  out = RunAndCapture(absl::StrCat(cli, " --token_file=", File("query.token"),
                                   " delete dungeon 2>&1"),
                      &code);
  EXPECT_NE(code, 0) << out;
  EXPECT_NE(out.find("PERMISSION_DENIED"), std::string::npos) << out;
  out = RunAndCapture(
      absl::StrCat("GRIDSTAR_TOKEN=", kAdminToken, " ", cli, " maps 2>&1"),
      &code);
  EXPECT_EQ(code, 0) << out;
  EXPECT_NE(out.find("dungeon"), std::string::npos) << out;
  out = RunAndCapture(absl::StrCat("env -u GRIDSTAR_TOKEN ", cli, " maps 2>&1"),
                      &code);
  EXPECT_NE(out.find("UNAUTHENTICATED"), std::string::npos) << out;
  out = RunAndCapture(
      absl::StrCat("env -u GRIDSTAR_TOKEN ", cli, " health 2>&1"), &code);
  EXPECT_EQ(code, 0) << out;
}

}  // namespace
}  // namespace gridstar::testing
