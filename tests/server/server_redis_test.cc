// The real server on a real redis-server (--store=redis://...): maps and
// updates outlive kill -9 of every replica, a replica started later loads
// what the store holds, and replicas follow each other's writes.
#include <unistd.h>

#include <atomic>
#include <cstdlib>
#include <memory>
#include <set>
#include <string>
#include <thread>
#include <vector>

#include "absl/strings/str_cat.h"
#include "client.h"
#include "gtest/gtest.h"
#include "server/server_test_util.h"
#include "testing/redis_process.h"
#include "testing/redis_raw.h"

namespace gridstar {
namespace {

using namespace testing::server_suite;  // NOLINT(build/namespaces)
using testing::RedisProcess;

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
  GRIDSTAR_REQUIRE_REDIS(redis);
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

v1::MapInfo InfoOf(v1::Pathfinding::Stub& stub, const std::string& id,
                   std::string* raw = nullptr) {
  grpc::ClientContext ctx;
  SetDeadline(&ctx);
  v1::GetMapRequest g;
  g.set_id(id);
  g.set_include_cells(raw != nullptr);
  v1::GetMapResponse got;
  if (!stub.GetMap(&ctx, g, &got).ok()) return {};
  if (raw != nullptr) *raw = got.raw();
  return got.info();
}

// Two replicas on one store: whatever is written through either (register,
// update, replace, delete) reaches the other, which searches the new
// version; updates through both stay in one order.
TEST(ServerRedisTest, WritesThroughOneReplicaReachTheOther) {
  RedisProcess redis;
  GRIDSTAR_REQUIRE_REDIS(redis);
  const std::string store = absl::StrCat("--store=", redis.url());
  ServerProcess a({store}), b({store});
  ASSERT_TRUE(a.started());
  ASSERT_TRUE(b.started());
  v1::MapInfo info;
  ASSERT_TRUE(Register(a.stub(), "m", ReadSample("dungeon.map"), &info).ok());
  ASSERT_TRUE(WaitFor([&] { return InfoOf(b.stub(), "m").version() == 1; }));
  // An update through a: b serves version 2 with a's cells.
  ASSERT_TRUE(UpdateCorner(a.stub(), "m", 7, &info).ok());
  ASSERT_TRUE(WaitFor([&] { return InfoOf(b.stub(), "m").version() == 2; }));
  std::string raw;
  InfoOf(b.stub(), "m", &raw);
  ASSERT_FALSE(raw.empty());
  EXPECT_EQ(static_cast<uint8_t>(raw[0]), 7);
  // An update through b, made on the version it follows, reaches a.
  ASSERT_TRUE(UpdateCorner(b.stub(), "m", 9, &info).ok());
  EXPECT_EQ(info.version(), 3u);
  ASSERT_TRUE(WaitFor([&] { return InfoOf(a.stub(), "m").version() == 3; }));
  InfoOf(a.stub(), "m", &raw);
  EXPECT_EQ(static_cast<uint8_t>(raw[0]), 9);
  // A replacement through a (other content) and a new map reach b.
  const std::string small =
      "type octile\nheight 3\nwidth 5\nmap\n.....\n.@@..\n.....\n";
  ASSERT_TRUE(Register(a.stub(), "m", small, &info, true).ok());
  const uint64_t replaced = info.version();
  const int32_t width = info.width();
  ASSERT_TRUE(Register(a.stub(), "n", ReadSample("dungeon.map"), &info).ok());
  ASSERT_TRUE(WaitFor([&] {
    const v1::MapInfo got = InfoOf(b.stub(), "m");
    return got.version() == replaced && got.width() == width &&
           InfoOf(b.stub(), "n").version() == 1;
  }));
  // A deletion through b reaches a.
  grpc::ClientContext ctx;
  v1::DeleteMapRequest d;
  d.set_id("n");
  v1::DeleteMapResponse dr;
  ASSERT_TRUE(b.stub().DeleteMap(&ctx, d, &dr).ok());
  ASSERT_TRUE(WaitFor([&] { return List(a.stub()).size() == 1; }));
  EXPECT_EQ(List(a.stub()).at(0).id(), "m");
  // What each brought over is counted (the new map and the replacement
  // loaded whole, updates from the stream, the deletion).
  const std::string page_a = Scrape(a.metrics_port());
  const std::string page_b = Scrape(b.metrics_port());
  EXPECT_GE(testing::MetricValue(
                page_b, "gridstar_store_followed_total{kind=\"content\"} "),
            2);
  EXPECT_GE(testing::MetricValue(
                page_b, "gridstar_store_followed_total{kind=\"updates\"} "),
            1);
  EXPECT_GE(testing::MetricValue(
                page_a, "gridstar_store_followed_total{kind=\"updates\"} "),
            1);
  EXPECT_EQ(testing::MetricValue(
                page_a, "gridstar_store_followed_total{kind=\"drop\"} "),
            1);
  EXPECT_GE(
      testing::MetricValue(page_b, "gridstar_store_follow_lag_versions_count "),
      3);
}

bool HasLine(const std::string& page, const std::string& line) {
  return page.find("\n" + line + "\n") != std::string::npos;
}

// A map whose stream this replica cannot follow (a corrupt record put there
// behind the servers' backs) shows its lag in versions, by map, while its
// searches go on at the held version; once the map is replaced its lag is
// 0 again, and a deleted map's series goes away.
TEST(ServerRedisTest, StoreLagIsReportedPerMap) {
  RedisProcess redis;
  GRIDSTAR_REQUIRE_REDIS(redis);
  ServerProcess a({absl::StrCat("--store=", redis.url())});
  ASSERT_TRUE(a.started());
  const std::string dungeon = ReadSample("dungeon.map");
  v1::MapInfo info;
  ASSERT_TRUE(Register(a.stub(), "good", dungeon, &info).ok());
  ASSERT_TRUE(Register(a.stub(), "stuck", dungeon, &info).ok());
  ASSERT_TRUE(WaitFor([&] {
    const std::string page = Scrape(a.metrics_port());
    return HasLine(page, "gridstar_store_lag_versions{map=\"good\"} 0") &&
           HasLine(page, "gridstar_store_lag_versions{map=\"stuck\"} 0");
  }));
  testing::RedisRaw raw(redis.port());
  ASSERT_TRUE(raw.Ok({"XADD", "gridstar:log:stuck", "2-1", "u", "no record"}));
  ASSERT_TRUE(raw.Ok({"SET", "gridstar:ver:stuck", "2"}));
  ASSERT_TRUE(raw.Ok({"XADD", "gridstar:events", "*", "id", "stuck"}));
  ASSERT_TRUE(WaitFor([&] {
    return HasLine(Scrape(a.metrics_port()),
                   "gridstar_store_lag_versions{map=\"stuck\"} 1");
  }));
  const std::string page = Scrape(a.metrics_port());
  EXPECT_TRUE(HasLine(page, "gridstar_store_lag_versions{map=\"good\"} 0"))
      << page;
  EXPECT_GE(testing::MetricValue(
                page, "gridstar_store_errors_total{operation=\"follow\"} "),
            1);
  {
    grpc::ClientContext ctx;
    SetDeadline(&ctx);
    v1::PathResponse out;
    ASSERT_TRUE(a.stub().FindPath(&ctx, Path("stuck", 1, 1, 1, 1), &out).ok());
    EXPECT_EQ(out.map_version(), 1u);
  }
  // Replaced: the new content is followed, the lag is gone. Deleted: so is
  // the map's series.
  const std::string small =
      "type octile\nheight 3\nwidth 5\nmap\n.....\n.@@..\n.....\n";
  ASSERT_TRUE(Register(a.stub(), "stuck", small, &info, true).ok());
  grpc::ClientContext ctx;
  v1::DeleteMapRequest d;
  d.set_id("good");
  v1::DeleteMapResponse dr;
  ASSERT_TRUE(a.stub().DeleteMap(&ctx, d, &dr).ok());
  std::string now;
  ASSERT_TRUE(WaitFor([&] {
    now = Scrape(a.metrics_port());
    return HasLine(now, "gridstar_store_lag_versions{map=\"stuck\"} 0") &&
           now.find("gridstar_store_lag_versions{map=\"good\"}") ==
               std::string::npos;
  }))
      << now;
}

grpc::Status PathOn(v1::Pathfinding::Stub& stub, const std::string& id) {
  grpc::ClientContext ctx;
  SetDeadline(&ctx);
  v1::PathResponse out;
  return stub.FindPath(&ctx, Path(id, 1, 1, 1, 1), &out);
}

// The maps loaded on a replica (ListMaps lists the others with id and
// version only).
std::set<std::string> Held(v1::Pathfinding::Stub& stub) {
  std::set<std::string> ids;
  for (const v1::MapInfo& m : List(stub)) {
    if (m.width() > 0) ids.insert(m.id());
  }
  return ids;
}

// A replica holds the maps it was asked about: each is loaded from the store
// on first use (concurrent first calls load it once), and past
// --max_total_cells the map used longest ago leaves memory (not the store)
// and comes back on its next use. Held maps follow updates made elsewhere.
TEST(ServerRedisTest, MapsLoadOnFirstUseAndLeaveMemoryPastTheCellLimit) {
  RedisProcess redis;
  GRIDSTAR_REQUIRE_REDIS(redis);
  const std::string store = absl::StrCat("--store=", redis.url());
  ServerProcess a({store});
  // Two 128 x 128 maps fit, three do not.
  ServerProcess b({store, "--max_total_cells=40000"});
  ServerProcess c({store});
  ASSERT_TRUE(a.started() && b.started() && c.started());
  const std::string dungeon = ReadSample("dungeon.map");
  v1::MapInfo info;
  for (const char* id : {"m1", "m2", "m3"}) {
    ASSERT_TRUE(Register(a.stub(), id, dungeon, &info).ok());
  }
  EXPECT_TRUE(Held(b.stub()).empty());
  // Listed all the same: what the store holds.
  const std::vector<v1::MapInfo> listed = List(b.stub());
  ASSERT_EQ(listed.size(), 3u);
  EXPECT_EQ(listed[0].id(), "m1");
  EXPECT_EQ(listed[2].id(), "m3");
  EXPECT_EQ(listed[1].version(), 1u);
  ASSERT_TRUE(PathOn(b.stub(), "m1").ok());
  EXPECT_EQ(InfoOf(b.stub(), "m2").version(), 1u);
  EXPECT_EQ(Held(b.stub()), (std::set<std::string>{"m1", "m2"}));
  ASSERT_TRUE(PathOn(b.stub(), "m3").ok());  // m1 was used longest ago.
  EXPECT_EQ(Held(b.stub()), (std::set<std::string>{"m2", "m3"}));
  ASSERT_TRUE(PathOn(b.stub(), "m1").ok());  // Back; m2 goes.
  EXPECT_EQ(Held(b.stub()), (std::set<std::string>{"m3", "m1"}));
  EXPECT_EQ(List(b.stub()).size(), 3u);
  const std::string page = Scrape(b.metrics_port());
  EXPECT_EQ(testing::MetricValue(
                page, "gridstar_store_followed_total{kind=\"content\"} "),
            4);
  EXPECT_EQ(testing::MetricValue(page, "gridstar_store_load_seconds_count "),
            4);
  EXPECT_GT(testing::MetricValue(page, "gridstar_store_load_seconds_sum "), 0);
  // A held map follows an update made through another replica.
  ASSERT_TRUE(UpdateCorner(a.stub(), "m1", 7, &info).ok());
  ASSERT_TRUE(WaitFor([&] { return InfoOf(b.stub(), "m1").version() == 2; }));
  // Four calls at once on a replica that holds nothing: one load.
  std::vector<std::thread> callers;
  std::atomic<int> answered{0};
  for (int i = 0; i < 4; ++i) {
    callers.emplace_back([&] { answered += PathOn(c.stub(), "m2").ok(); });
  }
  for (std::thread& t : callers) t.join();
  EXPECT_EQ(answered.load(), 4);
  EXPECT_EQ(
      testing::MetricValue(Scrape(c.metrics_port()),
                           "gridstar_store_followed_total{kind=\"content\"} "),
      1);
  // Unknown everywhere: NOT_FOUND, as without a store.
  EXPECT_EQ(PathOn(c.stub(), "nowhere").error_code(),
            grpc::StatusCode::NOT_FOUND);
  // Redis away: held maps are served, a first use is UNAVAILABLE (not
  // NOT_FOUND: the map may well exist).
  redis.Stop();
  EXPECT_TRUE(PathOn(c.stub(), "m2").ok());
  const grpc::Status away = PathOn(c.stub(), "m3");
  EXPECT_EQ(away.error_code(), grpc::StatusCode::UNAVAILABLE)
      << away.error_message();
  EXPECT_NE(away.error_message().find("loading map 'm3' from the store"),
            std::string::npos)
      << away.error_message();
}

// The client library heals NOT_FOUND by registering the map again; on a
// shared store that would bring back a map another client deleted, so the
// servers say they are on one and the client believes NOT_FOUND there.
TEST(ServerRedisTest, TheClientDoesNotBringBackAMapDeletedElsewhere) {
  RedisProcess redis;
  GRIDSTAR_REQUIRE_REDIS(redis);
  const std::string store = absl::StrCat("--store=", redis.url());
  ServerProcess a({store}), b({store});
  ASSERT_TRUE(a.started() && b.started());
  ClientOptions options;
  options.deadline = absl::Seconds(300);
  Client mine(absl::StrCat("127.0.0.1:", a.port()), options);
  Client other(absl::StrCat("127.0.0.1:", b.port()), options);
  v1::RegisterMapRequest r;
  r.set_id("m");
  r.set_movingai(ReadSample("dungeon.map"));
  ASSERT_TRUE(mine.RegisterMap(r).ok());
  ASSERT_TRUE(other.DeleteMap("m").ok());
  ASSERT_TRUE(WaitFor([&] { return List(a.stub()).empty(); }));
  absl::StatusOr<v1::PathResponse> path = mine.FindPath(Path("m", 1, 1, 2, 1));
  EXPECT_TRUE(absl::IsNotFound(path.status())) << path.status();
  EXPECT_EQ(mine.reregistrations(), 0u);
  EXPECT_TRUE(List(b.stub()).empty());
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
       {absl::StrCat("--store=redis://127.0.0.1:", testing::FreePort()),
        "--store_connect_timeout=1s"},
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
