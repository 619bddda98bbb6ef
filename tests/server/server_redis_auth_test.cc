// The Redis store as production runs it: a server that starts before its
// Redis waits for it (bounded, logged); an ACL user with its password in a
// file (never on the command line or in the log), wrong or missing
// credentials refused clearly at start, the file re-read on SIGHUP.
#include <signal.h>
#include <unistd.h>

#include <atomic>
#include <chrono>
#include <fstream>
#include <memory>
#include <sstream>
#include <string>
#include <thread>
#include <vector>

#include "absl/strings/match.h"
#include "absl/strings/str_cat.h"
#include "gtest/gtest.h"
#include "server/server_test_util.h"
#include "testing/redis_process.h"
#include "testing/redis_raw.h"

namespace gridstar {
namespace {

using namespace testing::server_suite;  // NOLINT(build/namespaces)
using testing::RedisProcess;
using testing::RedisRaw;

constexpr char kAdminPassword[] = "default-pw-0123456789";
constexpr char kAlicePassword[] = "alice-secret-0123456789";

std::string ReadAll(const std::string& path) {
  std::ifstream in(path);
  std::stringstream s;
  s << in.rdbuf();
  return s.str();
}

std::string TempPath(const std::string& name) {
  static int counter = 0;
  return absl::StrCat(::testing::TempDir(), "/", name, ".", getpid(), ".",
                      counter++);
}

// A Redis whose default user has a password and whose user alice may do
// everything with her own.
std::unique_ptr<RedisProcess> RedisWithAcl(int port = 0) {
  return std::make_unique<RedisProcess>(
      port, std::vector<std::string>{
                "--requirepass", kAdminPassword, "--user", "alice", "on",
                absl::StrCat(">", kAlicePassword), "~*", "&*", "+@all"});
}

std::string PasswordFile(const std::string& password) {
  const std::string path = TempPath("store-pw");
  std::ofstream(path) << "# the store's password\n" << password << "\n";
  return path;
}

grpc::Status BlockCell(ServerProcess& server, int x, v1::MapInfo* info) {
  v1::UpdateCellsRequest u;
  u.set_id("m");
  v1::CellUpdate* c = u.add_cells();
  c->mutable_cell()->set_x(x);
  c->mutable_cell()->set_y(1);
  c->set_cost(0);
  grpc::ClientContext ctx;
  SetDeadline(&ctx);
  return server.stub().UpdateCells(&ctx, u, info);
}

TEST(ServerRedisAuthTest, AServerStartedBeforeItsRedisWaitsForIt) {
  const int port = testing::FreePort();
  const std::string log = TempPath("wait-log");
  std::atomic<bool> done{false};
  std::unique_ptr<RedisProcess> redis;
  // Redis starts once the server has said it is waiting for it.
  std::thread starter([&] {
    while (!done.load() && !absl::StrContains(ReadAll(log), "trying again")) {
      std::this_thread::sleep_for(std::chrono::milliseconds(20));
    }
    if (!done.load()) redis = std::make_unique<RedisProcess>(port);
  });
  ServerProcess server({absl::StrCat("--store=redis://127.0.0.1:", port),
                        "--store_connect_timeout=600s"},
                       log);
  done.store(true);
  starter.join();
  ASSERT_NE(redis, nullptr);
  GRIDSTAR_REQUIRE_REDIS(*redis);
  ASSERT_TRUE(server.started()) << ReadAll(log);
  v1::MapInfo info;
  ASSERT_TRUE(
      Register(server.stub(), "m", ReadSample("dungeon.map"), &info).ok());
  const std::string text = ReadAll(log);
  EXPECT_TRUE(absl::StrContains(text, "cannot connect")) << text;
  EXPECT_TRUE(absl::StrContains(text, "reached after")) << text;
}

TEST(ServerRedisAuthTest, AnAclUserWithItsPasswordInAFileServes) {
  std::unique_ptr<RedisProcess> redis = RedisWithAcl();
  GRIDSTAR_REQUIRE_REDIS(*redis);
  const std::string log = TempPath("acl-log");
  ServerProcess server(
      {absl::StrCat("--store=redis://alice@127.0.0.1:", redis->port()),
       absl::StrCat("--store_password_file=", PasswordFile(kAlicePassword))},
      log);
  ASSERT_TRUE(server.started()) << ReadAll(log);
  v1::MapInfo info;
  ASSERT_TRUE(
      Register(server.stub(), "m", ReadSample("dungeon.map"), &info).ok());
  ASSERT_TRUE(BlockCell(server, 1, &info).ok());
  EXPECT_EQ(info.version(), 2u);
  // Written as alice, into Redis.
  RedisRaw raw(redis->port());
  ASSERT_TRUE(raw.Ok({"AUTH", "alice", kAlicePassword}));
  EXPECT_EQ(raw.Integer({"SISMEMBER", "gridstar:maps", "m"}), 1);
  EXPECT_FALSE(absl::StrContains(ReadAll(log), kAlicePassword));
}

TEST(ServerRedisAuthTest, WrongOrMissingCredentialsFailClearlyAtStart) {
  std::unique_ptr<RedisProcess> redis = RedisWithAcl();
  GRIDSTAR_REQUIRE_REDIS(*redis);
  const std::string url =
      absl::StrCat("redis://alice@127.0.0.1:", redis->port());
  const std::string wrong = "not-the-password-42";
  struct Case {
    const char* name;
    std::vector<std::string> flags;
    const char* message;
  } cases[] = {
      {"wrong password",
       {absl::StrCat("--store=", url),
        absl::StrCat("--store_password_file=", PasswordFile(wrong))},
       "refused the credentials of user 'alice'"},
      {"no password", {absl::StrCat("--store=", url)}, "wants a password"},
      {"unknown user",
       {absl::StrCat("--store=redis://bob@127.0.0.1:", redis->port()),
        absl::StrCat("--store_password_file=", PasswordFile(wrong))},
       "refused the credentials of user 'bob'"},
      {"password in the url",
       {absl::StrCat("--store=redis://alice:", wrong,
                     "@127.0.0.1:", redis->port())},
       "give it in --store_password_file"},
      {"password file missing",
       {absl::StrCat("--store=", url), "--store_password_file=/nonexistent/pw"},
       "--store_password_file: cannot read"},
  };
  for (const Case& c : cases) {
    SCOPED_TRACE(c.name);
    std::string command =
        absl::StrCat(GRIDSTAR_SERVER_BINARY,
                     " --host=127.0.0.1 --port=0 --metrics_port=0 "
                     "--store_connect_timeout=600s");
    for (const std::string& f : c.flags) absl::StrAppend(&command, " ", f);
    int code = 0;
    const std::string out =
        testing::RunAndCapture(absl::StrCat(command, " 2>&1"), &code);
    EXPECT_NE(code, 0) << out;
    EXPECT_TRUE(absl::StrContains(out, c.message)) << out;
    // Refused credentials end the start at once, without retrying.
    EXPECT_FALSE(absl::StrContains(out, "trying again")) << out;
    if (c.flags.size() == 2 || absl::StrContains(c.flags[0], wrong)) {
      const size_t shown = out.find(wrong);
      EXPECT_TRUE(shown == std::string::npos ||
                  absl::StrContains(c.name, "url"))
          << out;
    }
  }
}

TEST(ServerRedisAuthTest, SighupRereadsThePasswordFile) {
  std::unique_ptr<RedisProcess> redis = RedisWithAcl();
  GRIDSTAR_REQUIRE_REDIS(*redis);
  const std::string file = PasswordFile(kAlicePassword);
  const std::string log = TempPath("sighup-log");
  ServerProcess server(
      {absl::StrCat("--store=redis://alice@127.0.0.1:", redis->port()),
       absl::StrCat("--store_password_file=", file)},
      log);
  ASSERT_TRUE(server.started());
  v1::MapInfo info;
  ASSERT_TRUE(
      Register(server.stub(), "m", ReadSample("dungeon.map"), &info).ok());
  // The password is rotated in Redis and in the file; the server is told.
  const std::string rotated = "alice-rotated-9876543210";
  RedisRaw raw(redis->port());
  ASSERT_TRUE(raw.Ok({"AUTH", "default", kAdminPassword}));
  ASSERT_TRUE(raw.Ok(
      {"ACL", "SETUSER", "alice", "resetpass", absl::StrCat(">", rotated)}));
  std::ofstream(file) << rotated << "\n";
  ASSERT_EQ(kill(server.pid(), SIGHUP), 0);
  // Once the server says it re-read the file (the bound only ends a wait
  // for a server that never does), drop alice's connections: the next
  // write connects again with the new password.
  for (int i = 0;
       i < 15000 && !absl::StrContains(ReadAll(log), "store password re-read");
       ++i) {
    std::this_thread::sleep_for(std::chrono::milliseconds(20));
  }
  ASSERT_TRUE(absl::StrContains(ReadAll(log), "store password re-read"))
      << ReadAll(log);
  raw.Run({"CLIENT", "KILL", "USER", "alice"});
  const grpc::Status written = BlockCell(server, 2, &info);
  EXPECT_TRUE(written.ok()) << written.error_message();
  EXPECT_EQ(info.version(), 2u);
  EXPECT_FALSE(absl::StrContains(ReadAll(log), rotated));
}

}  // namespace
}  // namespace gridstar
