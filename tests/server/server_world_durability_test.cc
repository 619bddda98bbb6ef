// Worlds of linked maps through the real server, kept: the limit of link
// ends a map may hold, a world outliving kill -9 of the server (directory
// store) at its last acknowledged version, and one followed by a second
// replica on a real redis-server.

#include <algorithm>
#include <cstdlib>
#include <map>
#include <random>
#include <string>
#include <tuple>
#include <utility>
#include <vector>

#include "absl/strings/str_cat.h"
#include "gtest/gtest.h"
#include "server/world_test_util.h"
#include "testing/redis_process.h"

namespace gridstar {
namespace {

using namespace testing::server_suite;  // NOLINT(build/namespaces)
using namespace testing::worlds;        // NOLINT(build/namespaces)

TEST(WorldLimitsTest, LinkEndsPerMapAreLimitedNamingTheFlag) {
  InProcessServer server({"--max_map_link_ends=4"});
  ASSERT_TRUE(server.started());
  const Maps maps = MakeMaps(41);
  for (size_t i = 0; i < maps.ids.size(); ++i) {
    ASSERT_TRUE(RegisterRaw(server.stub(), maps.ids[i], maps.grids[i]).ok());
  }
  std::mt19937 rng(4);
  v1::RegisterWorldRequest r;
  r.set_id("tower");
  for (const std::string& id : maps.ids) r.add_map_ids(id);
  // Four links from distinct cells of floor0: four ends there, the limit.
  std::vector<Cell> ends;
  while (ends.size() < 5) {
    const Cell c = Passable(maps.grids[0], rng);
    if (std::find(ends.begin(), ends.end(), c) == ends.end()) ends.push_back(c);
  }
  for (int i = 0; i < 4; ++i) {
    *r.add_links() = MakeLink(absl::StrCat("l", i), "floor0", ends[i], "floor1",
                              Passable(maps.grids[1], rng), 1);
  }
  v1::WorldInfo info;
  ASSERT_TRUE(RegisterWorld(server.stub(), r, &info).ok());
  v1::UpdateLinksRequest u;
  u.set_id("tower");
  v1::LinkUpdate* e = u.add_updates();
  e->set_link_id("l4");
  *e->mutable_add() = MakeLink("l4", "floor0", ends[4], "floor2",
                               Passable(maps.grids[2], rng), 1);
  grpc::Status s = UpdateLinks(server.stub(), u, &info);
  EXPECT_EQ(s.error_code(), grpc::StatusCode::RESOURCE_EXHAUSTED);
  EXPECT_NE(s.error_message().find("map 'floor0' would hold 5 link ends"),
            std::string::npos)
      << s.error_message();
  EXPECT_NE(s.error_message().find("--max_map_link_ends"), std::string::npos);
  *r.add_links() = e->add();
  r.set_replace(true);
  s = RegisterWorld(server.stub(), r, &info);
  EXPECT_EQ(s.error_code(), grpc::StatusCode::RESOURCE_EXHAUSTED);
  EXPECT_EQ(GetWorld(server.stub(), "tower").version(), 1u);
}

TEST(WorldPersistenceTest, AWorldOutlivesKillNineAtItsLastAcknowledgedVersion) {
  const std::string dir =
      absl::StrCat(::testing::TempDir(), "/worlds.kill9.", getpid());
  std::system(absl::StrCat("rm -rf '", dir, "'").c_str());
  const Maps maps = MakeMaps(21);
  v1::WorldInfo last;
  {
    ServerProcess server({absl::StrCat("--data_dir=", dir)});
    ASSERT_TRUE(server.started());
    for (size_t i = 0; i < maps.ids.size(); ++i) {
      ASSERT_TRUE(RegisterRaw(server.stub(), maps.ids[i], maps.grids[i]).ok());
    }
    ASSERT_TRUE(RegisterWorld(server.stub(), RandomWorld(maps, 8), &last).ok());
    for (int i = 0; i < 40; ++i) {
      v1::UpdateLinksRequest u;
      u.set_id("tower");
      v1::LinkUpdate* e = u.add_updates();
      e->set_link_id(absl::StrCat("l", i % 10));
      e->set_state(i % 2 ? v1::LinkUpdate::STATE_OPEN
                         : v1::LinkUpdate::STATE_CLOSED);
      e->set_cost(i);
      ASSERT_TRUE(UpdateLinks(server.stub(), u, &last).ok());
    }
    server.Kill9();
  }
  ServerProcess server({absl::StrCat("--data_dir=", dir)});
  ASSERT_TRUE(server.started());
  const v1::WorldInfo back = GetWorld(server.stub(), "tower");
  EXPECT_EQ(back.version(), last.version());
  EXPECT_EQ(back.SerializeAsString(), [&] {
    v1::WorldInfo l = last;
    // Table fields depend on when the builder ran; compare the content.
    l.clear_table_map_versions();
    l.clear_tables_current();
    l.clear_memory_bytes();
    l.clear_bytes_per_link();
    v1::WorldInfo b = back;
    b.clear_table_map_versions();
    b.clear_tables_current();
    b.clear_memory_bytes();
    b.clear_bytes_per_link();
    EXPECT_EQ(b.SerializeAsString(), l.SerializeAsString());
    return back.SerializeAsString();
  }());
  ExpectExact(server.stub(), maps, back, 77, 12);
}

// gridstar_store_write_seconds counts each durable write once, under its
// kind, and a server without a store counts none.
TEST(StoreWriteMetricsTest, EveryDurableWriteIsTimedByKind) {
  const std::string dir =
      absl::StrCat(::testing::TempDir(), "/store.metrics.", getpid());
  std::system(absl::StrCat("rm -rf '", dir, "'").c_str());
  InProcessServer stored({absl::StrCat("--data_dir=", dir)});
  InProcessServer memory;
  ASSERT_TRUE(stored.started());
  ASSERT_TRUE(memory.started());
  const char* kinds[] = {"map", "update", "world", "delete", "compact"};
  auto counts = [&](InProcessServer& server) {
    const std::string page = Scrape(server.metrics_port());
    std::map<std::string, double> out;
    for (const char* kind : kinds) {
      const std::string line = absl::StrCat(
          "gridstar_store_write_seconds_count{write=\"", kind, "\"}");
      EXPECT_NE(page.find(line), std::string::npos) << line;
      out[kind] = testing::MetricValue(page, line);
    }
    return out;
  };
  for (InProcessServer* server : {&stored, &memory}) {
    SCOPED_TRACE(server == &stored ? "--data_dir" : "memory only");
    const Maps maps = MakeMaps(5);
    for (size_t i = 0; i < maps.ids.size(); ++i) {
      ASSERT_TRUE(RegisterRaw(server->stub(), maps.ids[i], maps.grids[i]).ok());
    }
    v1::UpdateCellsRequest cells;
    cells.set_id(maps.ids[0]);
    v1::CellUpdate* c = cells.add_cells();
    c->mutable_cell()->set_x(0);
    c->mutable_cell()->set_y(0);
    c->set_cost(0);
    for (int i = 0; i < 2; ++i) {
      grpc::ClientContext ctx;
      SetDeadline(&ctx);
      v1::MapInfo info;
      ASSERT_TRUE(server->stub().UpdateCells(&ctx, cells, &info).ok());
    }
    v1::WorldInfo info;
    ASSERT_TRUE(
        RegisterWorld(server->stub(), RandomWorld(maps, 3), &info).ok());
    v1::UpdateLinksRequest u;
    u.set_id("tower");
    v1::LinkUpdate* e = u.add_updates();
    e->set_link_id("l0");
    e->set_state(v1::LinkUpdate::STATE_CLOSED);
    ASSERT_TRUE(UpdateLinks(server->stub(), u, &info).ok());
    // Refused before the store: not a write.
    e->set_link_id("no such link");
    EXPECT_FALSE(UpdateLinks(server->stub(), u, &info).ok());
    grpc::ClientContext ctx;
    SetDeadline(&ctx);
    v1::DeleteWorldRequest d;
    d.set_id("tower");
    v1::DeleteWorldResponse deleted;
    ASSERT_TRUE(server->stub().DeleteWorld(&ctx, d, &deleted).ok());
    const std::map<std::string, double> want =
        server == &stored ? std::map<std::string, double>{{"map", 3},
                                                          {"update", 2},
                                                          {"world", 2},
                                                          {"delete", 1},
                                                          {"compact", 0}}
                          : std::map<std::string, double>{{"map", 0},
                                                          {"update", 0},
                                                          {"world", 0},
                                                          {"delete", 0},
                                                          {"compact", 0}};
    EXPECT_EQ(counts(*server), want);
  }
}

// UpdateLinks and small UpdateCells calls run on their own thread: at
// real-time priority when the server may raise it (the gauge says which), at
// normal priority with --noupdate_thread_realtime; larger updates on the
// admin thread. Either way, one after the other, each is answered at the
// next version, and the logs they grow are compacted (on the admin thread).
TEST(UpdateThreadTest, UpdatesAreAnsweredAtEitherPriorityAndTheGaugeSaysWhich) {
  for (const bool realtime : {true, false}) {
    SCOPED_TRACE(realtime ? "--update_thread_realtime" : "normal priority");
    const std::string dir = absl::StrCat(::testing::TempDir(), "/updates.",
                                         getpid(), ".", realtime);
    std::system(absl::StrCat("rm -rf '", dir, "'").c_str());
    InProcessServer server(
        {absl::StrCat("--data_dir=", dir),
         realtime ? "--update_thread_realtime" : "--noupdate_thread_realtime"});
    ASSERT_TRUE(server.started());
    if (!realtime) EXPECT_FALSE(server.server().update_thread_realtime());
    EXPECT_EQ(testing::MetricValue(Scrape(server.metrics_port()),
                                   "gridstar_update_thread_realtime "),
              server.server().update_thread_realtime() ? 1 : 0);
    const Maps maps = MakeMaps(6);
    for (size_t i = 0; i < maps.ids.size(); ++i) {
      ASSERT_TRUE(RegisterRaw(server.stub(), maps.ids[i], maps.grids[i]).ok());
    }
    v1::WorldInfo world;
    ASSERT_TRUE(
        RegisterWorld(server.stub(), RandomWorld(maps, 3), &world).ok());
    // Updates of many cells on a 512 x 512 map, enough to grow its log past
    // a compaction's threshold (1 MiB and half the map).
    {
      v1::RegisterMapRequest big;
      big.set_id("big");
      std::string text = "type octile\nheight 512\nwidth 512\nmap\n";
      for (int y = 0; y < 512; ++y) text += std::string(512, '.') + "\n";
      big.set_movingai(text);
      grpc::ClientContext ctx;
      SetDeadline(&ctx);
      v1::MapInfo info;
      ASSERT_TRUE(server.stub().RegisterMap(&ctx, big, &info).ok());
    }
    for (int i = 0; i < 8; ++i) {
      v1::UpdateCellsRequest cells;
      cells.set_id("big");
      for (int y = 0; y < 128; ++y) {
        for (int x = 0; x < 512; ++x) {
          v1::CellUpdate* c = cells.add_cells();
          c->mutable_cell()->set_x(x);
          c->mutable_cell()->set_y(y + 128 * (i % 4));
          c->set_cost(1 + (i + x) % 3);
        }
      }
      grpc::ClientContext ctx;
      SetDeadline(&ctx);
      v1::MapInfo info;
      ASSERT_TRUE(server.stub().UpdateCells(&ctx, cells, &info).ok());
      EXPECT_EQ(info.version(), 2u + i);
    }
    // Small ones after them (the update thread), then a large one again.
    for (int i = 0; i < 4; ++i) {
      v1::UpdateCellsRequest cells;
      cells.set_id("big");
      v1::CellUpdate* c = cells.add_cells();
      c->mutable_cell()->set_x(i);
      c->mutable_cell()->set_y(511);
      c->set_cost(i == 3 ? 1 : 0);
      if (i == 3) {
        v1::RectUpdate* r = cells.add_rects();
        r->mutable_rect()->mutable_min()->set_x(0);
        r->mutable_rect()->mutable_min()->set_y(200);
        r->mutable_rect()->mutable_max()->set_x(512);
        r->mutable_rect()->mutable_max()->set_y(300);
        r->set_cost(2);
      }
      grpc::ClientContext ctx;
      SetDeadline(&ctx);
      v1::MapInfo info;
      ASSERT_TRUE(server.stub().UpdateCells(&ctx, cells, &info).ok());
      EXPECT_EQ(info.version(), 10u + i);
    }
    v1::UpdateLinksRequest u;
    u.set_id("tower");
    v1::LinkUpdate* e = u.add_updates();
    e->set_link_id("l0");
    e->set_state(v1::LinkUpdate::STATE_CLOSED);
    v1::WorldInfo after;
    ASSERT_TRUE(UpdateLinks(server.stub(), u, &after).ok());
    EXPECT_EQ(after.version(), world.version() + 1);
    // The compactions were queued on the admin thread after the answers;
    // a registration queued behind them returns once they ran.
    ASSERT_TRUE(RegisterRaw(server.stub(), "last", maps.grids[1]).ok());
    EXPECT_GE(testing::MetricValue(
                  Scrape(server.metrics_port()),
                  "gridstar_store_write_seconds_count{write=\"compact\"}"),
              1);
  }
}

TEST(WorldRedisTest, WorldWritesThroughOneReplicaReachTheOther) {
  testing::RedisProcess redis;
  GRIDSTAR_REQUIRE_REDIS(redis);
  const std::string store = absl::StrCat("--store=", redis.url());
  ServerProcess a({store}), b({store});
  ASSERT_TRUE(a.started());
  ASSERT_TRUE(b.started());
  const Maps maps = MakeMaps(31);
  for (size_t i = 0; i < maps.ids.size(); ++i) {
    ASSERT_TRUE(RegisterRaw(a.stub(), maps.ids[i], maps.grids[i]).ok());
  }
  v1::WorldInfo info;
  ASSERT_TRUE(RegisterWorld(a.stub(), RandomWorld(maps, 3), &info).ok());
  ASSERT_TRUE(
      WaitFor([&] { return GetWorld(b.stub(), "tower").version() == 1; }));
  // A door closed through b reaches a; b answers on its own maps (loaded
  // on first use) exactly.
  v1::UpdateLinksRequest u;
  u.set_id("tower");
  v1::LinkUpdate* e = u.add_updates();
  e->set_link_id("l0");
  e->set_state(v1::LinkUpdate::STATE_CLOSED);
  ASSERT_TRUE(UpdateLinks(b.stub(), u, &info).ok());
  EXPECT_EQ(info.version(), 2u);
  ASSERT_TRUE(
      WaitFor([&] { return GetWorld(a.stub(), "tower").version() == 2; }));
  ExpectExact(b.stub(), maps, info, 5, 10);
  // A write made on a stale version is refused, not forked.
  u.set_expected_version(1);
  EXPECT_EQ(UpdateLinks(a.stub(), u, &info).error_code(),
            grpc::StatusCode::ABORTED);
  // A deletion through a reaches b.
  {
    grpc::ClientContext ctx;
    SetDeadline(&ctx);
    v1::DeleteWorldRequest d;
    d.set_id("tower");
    v1::DeleteWorldResponse dr;
    ASSERT_TRUE(a.stub().DeleteWorld(&ctx, d, &dr).ok());
  }
  ASSERT_TRUE(
      WaitFor([&] { return GetWorld(b.stub(), "tower").version() == 0; }));
  // Each replica timed the writes it made to Redis, and only those (what
  // it followed is not its write; the refused one never reached the store).
  for (const auto& [server, map, world, deleted] :
       {std::make_tuple(&a, 3, 1, 1), std::make_tuple(&b, 0, 1, 0)}) {
    const std::string page = Scrape(server->metrics_port());
    for (const auto& [kind, want] :
         {std::make_pair("map", map), std::make_pair("world", world),
          std::make_pair("delete", deleted), std::make_pair("update", 0)}) {
      EXPECT_EQ(testing::MetricValue(
                    page, absl::StrCat("gridstar_store_write_seconds_count{"
                                       "write=\"",
                                       kind, "\"}")),
                want)
          << (server == &a ? "a " : "b ") << kind;
    }
  }
}

}  // namespace
}  // namespace gridstar
