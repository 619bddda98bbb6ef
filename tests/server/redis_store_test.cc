// The Redis store's own rules, on real redis-servers started here (the
// MapStore contract runs in map_store_test.cc): the URL flag, total order
// of updates across writers, corruption reported, compaction trimming the
// stream, and Redis down then back.
#include "store/redis_store.h"

#include <unistd.h>

#include <cstdlib>
#include <memory>
#include <string>
#include <vector>

#include "absl/strings/str_cat.h"
#include "gtest/gtest.h"
#include "store/map_codec.h"
#include "testing/redis_process.h"
#include "testing/redis_raw.h"
#include "testing/status_matchers.h"

namespace gridstar::server {
namespace {

using ::gridstar::testing::RedisProcess;
using ::gridstar::testing::StatusIs;


StoredMap SmallMap(const std::string& id, uint64_t version = 1) {
  StoredMap m;
  m.id = id;
  m.version = version;
  m.width = 4;
  m.height = 3;
  m.costs.assign(12, 1);
  return m;
}

StoredUpdate OneCell(const std::string& id, uint64_t version, int32_t x,
                     uint8_t cost) {
  StoredUpdate u;
  u.id = id;
  u.version = version;
  u.changes.push_back({{x, 0}, {x + 1, 1}, cost});
  return u;
}

std::unique_ptr<RedisStore> Store(const RedisProcess& redis,
                                  const std::string& prefix) {
  RedisStore::Options options;
  options.address.host = "127.0.0.1";
  options.address.port = redis.port();
  options.key_prefix = prefix;
  options.timeout = absl::Seconds(30);
  return std::make_unique<RedisStore>(options);
}

using Raw = ::gridstar::testing::RedisRaw;

TEST(RedisUrlTest, ParsesUsersAndSentinels) {
  absl::StatusOr<RedisAddress> a = ParseRedisUrl("redis://alice@cache:7000/3", "store");
  ASSERT_OK(a);
  EXPECT_EQ(a->user, "alice");
  EXPECT_EQ(a->host, "cache");
  EXPECT_EQ(a->port, 7000);
  EXPECT_EQ(a->db, 3);
  EXPECT_TRUE(a->sentinels.empty());
  a = ParseRedisUrl("redis-sentinel://gs@s1,s2:26380,10.0.0.3:5000/mymaster/2", "store");
  ASSERT_OK(a);
  EXPECT_EQ(a->user, "gs");
  EXPECT_EQ(a->master_name, "mymaster");
  EXPECT_EQ(a->db, 2);
  const std::vector<std::pair<std::string, int>> want = {
      {"s1", 26379}, {"s2", 26380}, {"10.0.0.3", 5000}};
  EXPECT_EQ(a->sentinels, want);
  a = ParseRedisUrl("redis-sentinel://s1/m", "store");
  ASSERT_OK(a);
  EXPECT_EQ(a->db, 0);
  for (const char* bad :
       {"redis://alice:pw@h", "redis://@h", "redis-sentinel://s1", "redis-sentinel://s1/",
        "redis-sentinel://s1:0/m", "redis-sentinel://,s2/m", "redis-sentinel://s1/m/16",
        "redis://h/1/2"}) {
    SCOPED_TRACE(bad);
    EXPECT_TRUE(StatusIs(ParseRedisUrl(bad, "store"), absl::StatusCode::kInvalidArgument,
                         "store: '"));
  }
  EXPECT_TRUE(StatusIs(ParseRedisUrl("redis://alice:pw@h", "store"),
                       absl::StatusCode::kInvalidArgument, "--store_password_file"));
}

TEST(RedisUrlTest, ParsesHostPortAndDatabase) {
  struct Case {
    const char* url;
    const char* host;
    int port, db;
  } good[] = {{"redis://127.0.0.1:6380/2", "127.0.0.1", 6380, 2},
              {"redis://redis", "redis", 6379, 0},
              {"redis://cache.internal:7000", "cache.internal", 7000, 0},
              {"redis://h/15", "h", 6379, 15}};
  for (const Case& c : good) {
    SCOPED_TRACE(c.url);
    absl::StatusOr<RedisAddress> a = ParseRedisUrl(c.url, "store");
    ASSERT_OK(a);
    EXPECT_EQ(a->host, c.host);
    EXPECT_EQ(a->port, c.port);
    EXPECT_EQ(a->db, c.db);
  }
  for (const char* bad : {"", "http://h:1", "redis://", "redis://:6379",
                          "redis://h:0", "redis://h:70000", "redis://h:x",
                          "redis://h/16", "redis://h/-1", "redis://h/db"}) {
    SCOPED_TRACE(bad);
    EXPECT_TRUE(StatusIs(ParseRedisUrl(bad, "store"),
                         absl::StatusCode::kInvalidArgument, "store: '"));
  }
}

// Two replicas write one map: each update lands only on the version it was
// made from, so the second writer of a version is refused, not appended.
TEST(RedisStoreTest, UpdatesFromTwoWritersAreTotallyOrdered) {
  RedisProcess redis;
  GRIDSTAR_REQUIRE_REDIS(redis);
  auto a = Store(redis, "order:"), b = Store(redis, "order:");
  ASSERT_OK(a->Put(SmallMap("m")));
  ASSERT_OK(b->AppendUpdate(OneCell("m", 2, 0, 0)));
  EXPECT_TRUE(StatusIs(a->AppendUpdate(OneCell("m", 2, 1, 0)),
                       absl::StatusCode::kAborted,
                       "stored at version 2"));
  ASSERT_OK(a->AppendUpdate(OneCell("m", 3, 2, 0)));
  EXPECT_TRUE(StatusIs(b->AppendUpdate(OneCell("unknown", 2, 0, 0)),
                       absl::StatusCode::kAborted, "not stored"));
  std::vector<StoredMap> maps;
  std::vector<std::string> errors;
  ASSERT_OK(Store(redis, "order:")->LoadAll(&maps, &errors));
  ASSERT_EQ(maps.size(), 1u);
  EXPECT_EQ(maps[0].version, 3u);
  const std::vector<uint8_t> want = {0, 1, 0, 1, 1, 1, 1, 1, 1, 1, 1, 1};
  EXPECT_EQ(maps[0].costs, want);
}

TEST(RedisStoreTest, CorruptContentOrUpdateIsReportedAndTheMapSkipped) {
  RedisProcess redis;
  GRIDSTAR_REQUIRE_REDIS(redis);
  auto store = Store(redis, "corrupt:");
  for (const char* id : {"good", "bad-content", "bad-update"}) {
    ASSERT_OK(store->Put(SmallMap(id)));
    ASSERT_OK(store->AppendUpdate(OneCell(id, 2, 1, 0)));
  }
  Raw raw(redis.port());
  ASSERT_TRUE(raw.Ok({"SET", "corrupt:map:bad-content", "not a map file"}));
  std::string record =
      codec::EncodeUpdateRecord(OneCell("bad-update", 3, 2, 0));
  record.back() ^= 0x55;  // The checksum no longer matches.
  ASSERT_TRUE(raw.Ok({"XADD", "corrupt:log:bad-update", "3-1", "u", record}));
  std::vector<StoredMap> maps;
  std::vector<std::string> errors;
  ASSERT_OK(Store(redis, "corrupt:")->LoadAll(&maps, &errors));
  ASSERT_EQ(maps.size(), 1u);
  EXPECT_EQ(maps[0].id, "good");
  ASSERT_EQ(errors.size(), 2u);
  EXPECT_EQ(errors[0].rfind("bad-content: ", 0), 0u) << errors[0];
  EXPECT_EQ(errors[1].rfind("bad-update: ", 0), 0u) << errors[1];
}

TEST(RedisStoreTest, CompactionTrimsTheStreamAndWaitsForItsBound) {
  RedisProcess redis;
  GRIDSTAR_REQUIRE_REDIS(redis);
  auto store = Store(redis, "compact:");
  StoredMap m = SmallMap("m");
  ASSERT_OK(store->Put(m));
  for (uint64_t v = 2; v <= 9; ++v) {
    ASSERT_OK(store->AppendUpdate(OneCell("m", v, static_cast<int32_t>(v % 4),
                                          static_cast<uint8_t>(v % 2))));
  }
  // A few small records: far below max(1 MiB, half the content).
  EXPECT_FALSE(store->WantsCompaction("m"));
  Raw raw(redis.port());
  EXPECT_EQ(raw.Integer({"XLEN", "compact:log:m"}), 8);
  std::vector<StoredMap> maps;
  std::vector<std::string> errors;
  ASSERT_OK(Store(redis, "compact:")->LoadAll(&maps, &errors));
  ASSERT_EQ(maps.size(), 1u);
  // Compacting at a version that is not the latest is refused.
  StoredMap stale = maps[0];
  stale.version = 5;
  EXPECT_TRUE(StatusIs(store->Compact(stale),
                       absl::StatusCode::kAborted,
                       "stored at version 9"));
  ASSERT_OK(store->Compact(maps[0]));
  EXPECT_EQ(raw.Integer({"XLEN", "compact:log:m"}), 0);
  ASSERT_OK(store->AppendUpdate(OneCell("m", 10, 0, 0)));
  EXPECT_EQ(raw.Integer({"XLEN", "compact:log:m"}), 1);
  std::vector<StoredMap> again;
  ASSERT_OK(Store(redis, "compact:")->LoadAll(&again, &errors));
  ASSERT_EQ(again.size(), 1u);
  EXPECT_EQ(again[0].version, 10u);
  EXPECT_EQ(again[0].costs[0], 0);
  EXPECT_TRUE(errors.empty());
}

// A follower (another replica's view) catches a held map up by the updates
// after its version when the stream still has them, else by the content
// (new to it, compacted past, or deleted and registered again at the same
// version), and says when a map is gone.
TEST(RedisStoreTest, FollowerCatchesUpByUpdatesOrByContent) {
  RedisProcess redis;
  GRIDSTAR_REQUIRE_REDIS(redis);
  auto writer = Store(redis, "follow:");
  auto reader = Store(redis, "follow:");
  absl::StatusOr<std::unique_ptr<MapStoreFollower>> f = reader->NewFollower();
  ASSERT_OK(f);
  MapStoreFollower& follower = **f;
  std::vector<StoredMap> maps;
  std::vector<std::string> errors;
  ASSERT_OK(reader->LoadAll(&maps, &errors));
  ASSERT_OK(writer->Put(SmallMap("m")));
  absl::StatusOr<std::vector<std::string>> written =
      follower.WaitForWrites(absl::Seconds(60));
  ASSERT_OK(written);
  ASSERT_EQ(*written, std::vector<std::string>{"m"});
  absl::StatusOr<StoreCatchUp> c = follower.CatchUp("m", 0);
  ASSERT_OK(c);
  EXPECT_TRUE(c->stored);
  ASSERT_TRUE(c->has_content);
  EXPECT_EQ(c->content.version, 1u);
  // Current: nothing to do.
  c = follower.CatchUp("m", 1);
  ASSERT_OK(c);
  EXPECT_FALSE(c->has_content);
  EXPECT_TRUE(c->updates.empty());
  ASSERT_OK(writer->AppendUpdate(OneCell("m", 2, 0, 0)));
  ASSERT_OK(writer->AppendUpdate(OneCell("m", 3, 1, 0)));
  c = follower.CatchUp("m", 1);
  ASSERT_OK(c);
  EXPECT_FALSE(c->has_content);
  ASSERT_EQ(c->updates.size(), 2u);
  EXPECT_EQ(c->updates[0].version, 2u);
  EXPECT_EQ(c->updates[1].version, 3u);
  // Compacted at 3, then 4: a replica at 2 needs the content.
  StoredMap at3 = SmallMap("m", 3);
  at3.costs[0] = at3.costs[1] = 0;
  ASSERT_OK(writer->Compact(at3));
  ASSERT_OK(writer->AppendUpdate(OneCell("m", 4, 2, 0)));
  c = follower.CatchUp("m", 2);
  ASSERT_OK(c);
  ASSERT_TRUE(c->has_content);
  EXPECT_EQ(c->content.version, 4u);
  EXPECT_EQ(c->content.costs[2], 0);
  c = follower.CatchUp("m", 3);  // The stream starts right after 3.
  ASSERT_OK(c);
  EXPECT_FALSE(c->has_content);
  ASSERT_EQ(c->updates.size(), 1u);
  // Deleted and registered again at version 1 with other cells.
  ASSERT_OK(writer->Delete("m"));
  StoredMap again = SmallMap("m");
  again.costs.assign(12, 3);
  ASSERT_OK(writer->Put(again));
  c = follower.CatchUp("m", 1);
  ASSERT_OK(c);
  ASSERT_TRUE(c->has_content);
  EXPECT_EQ(c->content.costs[5], 3);
  ASSERT_OK(writer->Delete("m"));
  c = follower.CatchUp("m", 1);
  ASSERT_OK(c);
  EXPECT_FALSE(c->stored);
  // Every write since was an event (three updates, delete, put, delete; a
  // compaction changes no version and tells nobody).
  written = follower.WaitForWrites(absl::Seconds(60));
  ASSERT_OK(written);
  EXPECT_EQ(written->size(), 6u);
}

// Redis down: every call answers Unavailable naming the address; once a
// server listens there again the store reconnects by itself.
TEST(RedisStoreTest, RedisDownIsUnavailableThenReconnects) {
  auto redis = std::make_unique<RedisProcess>();
  GRIDSTAR_REQUIRE_REDIS(*redis);
  const int port = redis->port();
  RedisStore::Options options;
  options.address.host = "127.0.0.1";
  options.address.port = port;
  options.key_prefix = "down:";
  options.timeout = absl::Seconds(30);
  RedisStore store(options);
  ASSERT_OK(store.Put(SmallMap("m")));
  redis->Stop();
  const std::string where = absl::StrCat("redis 127.0.0.1:", port);
  EXPECT_TRUE(StatusIs(store.AppendUpdate(OneCell("m", 2, 0, 0)),
                       absl::StatusCode::kUnavailable, where));
  std::vector<StoredMap> maps;
  std::vector<std::string> errors;
  EXPECT_TRUE(StatusIs(store.LoadAll(&maps, &errors),
                       absl::StatusCode::kUnavailable, where));
  // The same port again (this server keeps nothing: a fresh store).
  redis = std::make_unique<RedisProcess>(port);
  GRIDSTAR_REQUIRE_REDIS(*redis);
  ASSERT_OK(store.Put(SmallMap("m")));
  ASSERT_OK(store.AppendUpdate(OneCell("m", 2, 0, 0)));
  ASSERT_OK(store.LoadAll(&maps, &errors));
  ASSERT_EQ(maps.size(), 1u);
  EXPECT_EQ(maps[0].version, 2u);
}

}  // namespace
}  // namespace gridstar::server
