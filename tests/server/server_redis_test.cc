// The real server on a real redis-server (--store=redis://...): maps and
// updates outlive kill -9 of every replica, a replica started later loads
// what the store holds, and a replica that missed an update cannot append
// over it (the store's version check keeps the update stream in one order).
#include <unistd.h>

#include <cstdlib>
#include <memory>
#include <string>
#include <vector>

#include "absl/strings/str_cat.h"
#include "gtest/gtest.h"
#include "server/server_test_util.h"
#include "testing/redis_process.h"

namespace gridstar {
namespace {

using namespace testing::server_suite;  // NOLINT(build/namespaces)
using testing::RedisProcess;

#define REQUIRE_REDIS(redis)                                       \
  do {                                                             \
    if (!(redis).error().empty()) {                                \
      if (std::getenv("CI") != nullptr) FAIL() << (redis).error(); \
      GTEST_SKIP() << (redis).error();                             \
    }                                                              \
  } while (0)

grpc::Status UpdateCorner(v1::Pathfinding::Stub& stub, const std::string& id,
                          uint32_t cost, v1::MapInfo* info) {
  v1::UpdateCellsRequest u;
  u.set_id(id);
  v1::RectUpdate* rect = u.add_rects();
  rect->mutable_rect()->mutable_max()->set_x(3);
  rect->mutable_rect()->mutable_max()->set_y(3);
  rect->set_cost(cost);
  grpc::ClientContext ctx;
  SetDeadline(&ctx);
  return stub.UpdateCells(&ctx, u, info);
}

std::vector<v1::MapInfo> List(v1::Pathfinding::Stub& stub) {
  grpc::ClientContext ctx;
  SetDeadline(&ctx);
  v1::ListMapsResponse list;
  EXPECT_TRUE(stub.ListMaps(&ctx, {}, &list).ok());
  return {list.maps().begin(), list.maps().end()};
}

TEST(ServerRedisTest, MapsAndUpdatesOutliveKillNineOfEveryReplica) {
  RedisProcess redis;
  REQUIRE_REDIS(redis);
  const std::string store = absl::StrCat("--store=", redis.url());
  const std::string dungeon = ReadSample("dungeon.map");
  uint64_t version = 0;
  {
    ServerProcess a({store});
    ASSERT_TRUE(a.started());
    v1::MapInfo info;
    ASSERT_TRUE(Register(a.stub(), "kept", dungeon, &info).ok());
    ASSERT_TRUE(Register(a.stub(), "gone", dungeon, &info).ok());
    ASSERT_TRUE(Register(a.stub(), "fast", dungeon, &info, false, true).ok());
    for (uint32_t cost : {7u, 9u, 7u}) {
      ASSERT_TRUE(UpdateCorner(a.stub(), "kept", cost, &info).ok());
    }
    version = info.version();
    grpc::ClientContext ctx;
    v1::DeleteMapRequest d;
    d.set_id("gone");
    v1::DeleteMapResponse dr;
    ASSERT_TRUE(a.stub().DeleteMap(&ctx, d, &dr).ok());
    a.Kill9();
  }
  ServerProcess b({store});
  ASSERT_TRUE(b.started());
  const std::vector<v1::MapInfo> maps = List(b.stub());
  ASSERT_EQ(maps.size(), 2u);
  EXPECT_EQ(maps[0].id(), "fast");
  EXPECT_TRUE(maps[0].jump_table());
  EXPECT_EQ(maps[1].id(), "kept");
  EXPECT_EQ(maps[1].version(), version);
  grpc::ClientContext ctx;
  v1::GetMapRequest g;
  g.set_id("kept");
  g.set_include_cells(true);
  v1::GetMapResponse got;
  ASSERT_TRUE(b.stub().GetMap(&ctx, g, &got).ok());
  EXPECT_EQ(static_cast<uint8_t>(got.raw()[0]), 7);
}

// Replica b loaded the map at version 1; replica a then updated it. b's own
// update of version 1 is refused (FAILED_PRECONDITION), leaving b at its
// version and the stream as a wrote it; a restarted b loads a's version.
TEST(ServerRedisTest, AReplicaThatMissedAnUpdateCannotAppendOverIt) {
  RedisProcess redis;
  REQUIRE_REDIS(redis);
  const std::string store = absl::StrCat("--store=", redis.url());
  ServerProcess a({store});
  ASSERT_TRUE(a.started());
  v1::MapInfo info;
  ASSERT_TRUE(Register(a.stub(), "m", ReadSample("dungeon.map"), &info).ok());
  auto b = std::make_unique<ServerProcess>(std::vector<std::string>{store});
  ASSERT_TRUE(b->started());
  ASSERT_EQ(List(b->stub()).size(), 1u);
  ASSERT_TRUE(UpdateCorner(a.stub(), "m", 5, &info).ok());
  EXPECT_EQ(info.version(), 2u);
  v1::MapInfo stale;
  grpc::Status st = UpdateCorner(b->stub(), "m", 9, &stale);
  EXPECT_EQ(st.error_code(), grpc::StatusCode::FAILED_PRECONDITION)
      << st.error_message();
  EXPECT_NE(st.error_message().find("stored at version 2"), std::string::npos)
      << st.error_message();
  EXPECT_EQ(List(b->stub()).at(0).version(), 1u);
  b->Kill9();
  b = std::make_unique<ServerProcess>(std::vector<std::string>{store});
  ASSERT_TRUE(b->started());
  EXPECT_EQ(List(b->stub()).at(0).version(), 2u);
}

TEST(ServerRedisTest, BadOrUnreachableStoreRefusesToStart) {
  struct Case {
    const char* name;
    std::vector<std::string> flags;
    const char* message;
  } cases[] = {
      {"not a url", {"--store=http://x"}, "--store: 'http://x'"},
      {"bad port", {"--store=redis://127.0.0.1:0"}, "port outside"},
      {"nobody listening",
       {absl::StrCat("--store=redis://127.0.0.1:", testing::FreePort())},
       "cannot connect"},
      {"both stores", {"--store=redis://h", "--data_dir=/tmp"}, "choose one"},
  };
  for (const Case& c : cases) {
    SCOPED_TRACE(c.name);
    std::string command = absl::StrCat(GRIDSTAR_SERVER_BINARY,
                                       " --host=127.0.0.1 --port=0 "
                                       "--metrics_port=0");
    for (const std::string& f : c.flags) absl::StrAppend(&command, " ", f);
    int code = 0;
    const std::string out =
        testing::RunAndCapture(absl::StrCat(command, " 2>&1"), &code);
    EXPECT_NE(code, 0) << out;
    EXPECT_NE(out.find(c.message), std::string::npos) << out;
  }
}

}  // namespace
}  // namespace gridstar
