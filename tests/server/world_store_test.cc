// Worlds in the MapStore: the contract run against the directory store and
// the Redis store (a real redis-server started here): whole worlds at every
// version, a write only on top of the version before, apart from maps, and
// followed by replicas; plus the world file's recovery rules (torn tail
// dropped at every cut, corruption reported, compaction) and the record
// codec on seeded random worlds.
#include <sys/stat.h>
#include <unistd.h>

#include <algorithm>
#include <cstdlib>
#include <fstream>
#include <functional>
#include <memory>
#include <random>
#include <sstream>
#include <string>
#include <vector>

#include "absl/strings/str_cat.h"
#include "gtest/gtest.h"
#include "store/byte_io.h"
#include "store/directory_store.h"
#include "store/map_codec.h"
#include "store/map_store.h"
#include "store/redis_store.h"
#include "store/world_codec.h"
#include "testing/redis_process.h"
#include "testing/status_matchers.h"

namespace gridstar::server {
namespace {

using ::gridstar::testing::StatusIs;

std::string FreshDir(const std::string& name) {
  static int counter = 0;
  const std::string dir = absl::StrCat(::testing::TempDir(), "/worlds.",
                                       getpid(), ".", name, ".", counter++);
  std::system(absl::StrCat("rm -rf '", dir, "'").c_str());
  ::mkdir(dir.c_str(), 0755);
  return dir;
}

StoredWorld RandomWorld(const std::string& id, uint64_t version,
                        uint32_t seed) {
  std::mt19937 rng(seed);
  StoredWorld w;
  w.id = id;
  w.version = version;
  const int maps = 1 + static_cast<int>(rng() % 5);
  for (int m = 0; m < maps; ++m) w.maps.push_back(absl::StrCat("map-", m));
  const int links = static_cast<int>(rng() % 20);
  for (int i = 0; i < links; ++i) {
    StoredLink link;
    link.id = absl::StrCat("link.", i);
    link.from_map = w.maps[rng() % maps];
    link.to_map = w.maps[rng() % maps];
    link.from = {static_cast<int32_t>(rng() % 500),
                 static_cast<int32_t>(rng() % 500)};
    link.to = {static_cast<int32_t>(rng() % 500),
               static_cast<int32_t>(rng() % 500)};
    link.cost = rng() % 7 == 0 ? 0 : (rng() % 100000) / 7.0;
    link.both_ways = rng() % 3 != 0;
    link.open = rng() % 4 != 0;
    link.areas = rng() % 2 ? kAllAreas : (uint64_t{1} << (rng() % 64));
    link.max_agent_size = 1 + static_cast<int32_t>(rng() % kMaxAgentSize);
    w.links.push_back(link);
  }
  return w;
}

// The binary's one redis-server (each storage is a key prefix).
testing::RedisProcess& SharedRedis() { return testing::SharedRedisProcess(); }

std::unique_ptr<MapStore> OpenStore(bool redis, const std::string& storage) {
  if (!redis) return std::make_unique<DirectoryStore>(storage);
  RedisStore::Options options;
  options.address.host = "127.0.0.1";
  options.address.port = SharedRedis().port();
  options.key_prefix = storage;
  return std::make_unique<RedisStore>(options);
}

class WorldStoreContract : public ::testing::TestWithParam<bool> {
 protected:
  void SetUp() override {
    if (!GetParam() || SharedRedis().error().empty()) return;
    if (std::getenv("CI") != nullptr) {
      FAIL() << SharedRedis().error() << ", and CI is set";
    }
    GTEST_SKIP() << SharedRedis().error();
  }
  std::string Fresh(const std::string& name) {
    static int counter = 0;
    return GetParam() ? absl::StrCat("wtest.", getpid(), ".", name, ".",
                                     counter++, ":")
                      : FreshDir(name);
  }
  std::unique_ptr<MapStore> Open(const std::string& storage) {
    return OpenStore(GetParam(), storage);
  }
  std::vector<StoredWorld> Load(const std::string& storage,
                                std::vector<std::string>* errors) {
    std::vector<StoredWorld> worlds;
    EXPECT_OK(Open(storage)->LoadWorlds(&worlds, errors));
    return worlds;
  }
};

TEST_P(WorldStoreContract, PutThenLoadReturnsEveryWorldAtItsLastVersion) {
  const std::string storage = Fresh("put");
  auto store = Open(storage);
  std::vector<std::string> errors;
  ASSERT_TRUE(Load(storage, &errors).empty());
  StoredWorld b;
  for (uint64_t v = 1; v <= 5; ++v) {
    b = RandomWorld("b", v, static_cast<uint32_t>(v));
    ASSERT_OK(store->PutWorld(b));
  }
  const StoredWorld a = RandomWorld("a", 1, 99);
  ASSERT_OK(store->PutWorld(a));
  const std::vector<StoredWorld> worlds = Load(storage, &errors);
  EXPECT_TRUE(errors.empty());
  ASSERT_EQ(worlds.size(), 2u);
  EXPECT_EQ(worlds[0], a);
  EXPECT_EQ(worlds[1], b);
}

TEST_P(WorldStoreContract, AWriteMustFollowTheStoredVersion) {
  const std::string storage = Fresh("version");
  auto store = Open(storage);
  EXPECT_TRUE(StatusIs(store->PutWorld(RandomWorld("w", 2, 1)),
                       absl::StatusCode::kAborted, "version 0"));
  ASSERT_OK(store->PutWorld(RandomWorld("w", 1, 1)));
  // A second writer that read version 0 too (another replica).
  auto other = Open(storage);
  std::vector<StoredWorld> ignored;
  std::vector<std::string> errors;
  EXPECT_TRUE(StatusIs(other->PutWorld(RandomWorld("w", 1, 2)),
                       absl::StatusCode::kAborted, "version 1"));
  EXPECT_TRUE(StatusIs(store->PutWorld(RandomWorld("w", 3, 1)),
                       absl::StatusCode::kAborted, "version 1"));
  ASSERT_OK(store->PutWorld(RandomWorld("w", 2, 3)));
  const std::vector<StoredWorld> worlds = Load(storage, &errors);
  ASSERT_EQ(worlds.size(), 1u);
  EXPECT_EQ(worlds[0], RandomWorld("w", 2, 3));
}

TEST_P(WorldStoreContract, DeleteRemovesAndTheIdStartsAgain) {
  const std::string storage = Fresh("delete");
  auto store = Open(storage);
  ASSERT_OK(store->PutWorld(RandomWorld("w", 1, 1)));
  ASSERT_OK(store->PutWorld(RandomWorld("w", 2, 2)));
  ASSERT_OK(store->DeleteWorld("w"));
  ASSERT_OK(store->DeleteWorld("w"));  // Not stored: OK.
  std::vector<std::string> errors;
  EXPECT_TRUE(Load(storage, &errors).empty());
  ASSERT_OK(store->PutWorld(RandomWorld("w", 1, 3)));
  const std::vector<StoredWorld> worlds = Load(storage, &errors);
  ASSERT_EQ(worlds.size(), 1u);
  EXPECT_EQ(worlds[0].version, 1u);
}

TEST_P(WorldStoreContract, WorldsAndMapsAreApart) {
  const std::string storage = Fresh("apart");
  auto store = Open(storage);
  StoredMap map;
  map.id = "same";
  map.version = 1;
  map.width = map.height = 2;
  map.costs = {1, 1, 1, 1};
  ASSERT_OK(store->Put(map));
  ASSERT_OK(store->PutWorld(RandomWorld("same", 1, 5)));
  std::vector<StoredMap> maps;
  std::vector<std::string> errors;
  ASSERT_OK(Open(storage)->LoadAll(&maps, &errors));
  ASSERT_EQ(maps.size(), 1u);
  EXPECT_EQ(Load(storage, &errors).size(), 1u);
  ASSERT_OK(store->Delete("same"));
  EXPECT_EQ(Load(storage, &errors).size(), 1u);
  EXPECT_TRUE(errors.empty());
}

TEST_P(WorldStoreContract, ManyVersionsKeepTheLast) {
  const std::string storage = Fresh("many");
  auto store = Open(storage);
  for (uint64_t v = 1; v <= 300; ++v) {
    ASSERT_OK(store->PutWorld(RandomWorld("w", v, static_cast<uint32_t>(v))));
    // As the service does after answering each write.
    ASSERT_OK(
        store->CompactWorld(RandomWorld("w", v, static_cast<uint32_t>(v))));
  }
  std::vector<std::string> errors;
  const std::vector<StoredWorld> worlds = Load(storage, &errors);
  ASSERT_EQ(worlds.size(), 1u);
  EXPECT_EQ(worlds[0], RandomWorld("w", 300, 300));
  if (!GetParam()) {
    // Compacted along the way: far fewer than 300 records' bytes.
    std::ifstream file(storage + "/w.gsworld",
                       std::ios::binary | std::ios::ate);
    EXPECT_LT(static_cast<size_t>(file.tellg()),
              64 * codec::EncodeWorldRecord(RandomWorld("w", 300, 300)).size() +
                  DirectoryStore::kMinCompactBytes);
  }
}

// A write only appends (it never waits for a rewrite); CompactWorld, past
// the bound, leaves the last record alone, which a restart loads; below the
// bound, or for another version than the stored one, it does nothing.
TEST(WorldFileCompactionTest, WritesAppendAndCompactionFoldsPastTheBound) {
  const std::string dir = FreshDir("compact");
  DirectoryStore store(dir);
  const std::string path = dir + "/w.gsworld";
  auto size = [&] {
    std::ifstream file(path, std::ios::binary | std::ios::ate);
    return static_cast<uint64_t>(file.tellg());
  };
  uint64_t expected = 0, v = 0;
  std::unique_ptr<StoredWorld> before;
  while (expected <= DirectoryStore::kMinCompactBytes) {
    ++v;
    const StoredWorld w = RandomWorld("w", v, static_cast<uint32_t>(v));
    ASSERT_OK(store.PutWorld(w));
    bool whole = true;
    expected += codec::EncodeWorldStep(before.get(), w, &whole).size();
    before = std::make_unique<StoredWorld>(w);
    ASSERT_EQ(size(), expected) << "version " << v;
    if (expected <= DirectoryStore::kMinCompactBytes) {
      ASSERT_OK(store.CompactWorld(w));
      ASSERT_EQ(size(), expected) << "compacted below the bound, version " << v;
    }
  }
  const StoredWorld last = RandomWorld("w", v, static_cast<uint32_t>(v));
  // Not the stored version: nothing happens.
  ASSERT_OK(store.CompactWorld(RandomWorld("w", v - 1, 7)));
  EXPECT_EQ(size(), expected);
  ASSERT_OK(store.CompactWorld(last));
  EXPECT_EQ(size(), codec::EncodeWorldRecord(last).size());
  // The next write appends to the folded file; a restart loads it.
  const StoredWorld next = RandomWorld("w", v + 1, 99);
  ASSERT_OK(store.PutWorld(next));
  std::vector<StoredWorld> worlds;
  std::vector<std::string> errors;
  ASSERT_OK(DirectoryStore(dir).LoadWorlds(&worlds, &errors));
  EXPECT_TRUE(errors.empty());
  ASSERT_EQ(worlds.size(), 1u);
  EXPECT_EQ(worlds[0], next);
}

INSTANTIATE_TEST_SUITE_P(Stores, WorldStoreContract, ::testing::Bool(),
                         [](const ::testing::TestParamInfo<bool>& info) {
                           return info.param ? "redis" : "directory";
                         });

TEST(WorldStoreFollowerTest, ReplicasSeeWorldWritesAndLoadThem) {
  if (!SharedRedis().error().empty()) {
    if (std::getenv("CI") != nullptr) FAIL() << SharedRedis().error();
    GTEST_SKIP() << SharedRedis().error();
  }
  const std::string storage = absl::StrCat("wfollow.", getpid(), ":");
  auto store = OpenStore(true, storage);
  absl::StatusOr<std::unique_ptr<MapStoreFollower>> follower =
      store->NewFollower();
  ASSERT_OK(follower.status());
  ASSERT_OK(store->PutWorld(RandomWorld("w", 1, 7)));
  std::vector<std::string> seen;
  // Generous: the event is there already; the wait only bounds a broken run.
  for (int i = 0; i < 100 && seen.empty(); ++i) {
    absl::StatusOr<std::vector<std::string>> ids =
        (*follower)->WaitForWrites(absl::Seconds(5));
    ASSERT_OK(ids.status());
    seen = *ids;
  }
  ASSERT_EQ(seen, std::vector<std::string>{"world:w"});
  absl::StatusOr<StoredWorld> w = (*follower)->LoadWorld("w");
  ASSERT_OK(w.status());
  EXPECT_EQ(*w, RandomWorld("w", 1, 7));
  ASSERT_OK(store->DeleteWorld("w"));
  EXPECT_TRUE(StatusIs((*follower)->LoadWorld("w").status(),
                       absl::StatusCode::kNotFound, ""));
}

class WorldFileTest : public ::testing::Test {
 protected:
  void SetUp() override {
    dir_ = FreshDir("file");
    DirectoryStore store(dir_);
    for (uint64_t v = 1; v <= 4; ++v) {
      ASSERT_OK(store.PutWorld(RandomWorld("w", v, static_cast<uint32_t>(v))));
    }
  }
  std::string path() const { return dir_ + "/w.gsworld"; }
  std::string Read() const {
    std::ifstream in(path(), std::ios::binary);
    std::stringstream s;
    s << in.rdbuf();
    return s.str();
  }
  void Write(const std::string& data) const {
    std::ofstream(path(), std::ios::binary | std::ios::trunc) << data;
  }
  std::vector<StoredWorld> Load(std::vector<std::string>* errors) const {
    std::vector<StoredWorld> worlds;
    EXPECT_OK(DirectoryStore(dir_).LoadWorlds(&worlds, errors));
    return worlds;
  }
  std::string dir_;
};

TEST_F(WorldFileTest, TornLastRecordIsDroppedAtEveryCut) {
  const std::string good = Read();
  const std::string next = codec::EncodeWorldRecord(RandomWorld("w", 5, 5));
  for (size_t cut = 1; cut < next.size(); ++cut) {
    SCOPED_TRACE(absl::StrCat("cut at ", cut));
    Write(good + next.substr(0, cut));
    std::vector<std::string> errors;
    const std::vector<StoredWorld> worlds = Load(&errors);
    EXPECT_TRUE(errors.empty());
    ASSERT_EQ(worlds.size(), 1u);
    EXPECT_EQ(worlds[0], RandomWorld("w", 4, 4));
    // The tail was cut off, so the next write follows the last good record.
    EXPECT_EQ(Read(), good);
  }
  DirectoryStore store(dir_);
  std::vector<StoredWorld> worlds;
  std::vector<std::string> errors;
  ASSERT_OK(store.LoadWorlds(&worlds, &errors));
  ASSERT_OK(store.PutWorld(RandomWorld("w", 5, 5)));
  EXPECT_EQ(Load(&errors)[0], RandomWorld("w", 5, 5));
}

TEST_F(WorldFileTest, CorruptMiddleRecordSkipsTheWorld) {
  std::string data = Read();
  data[20] ^= 0x40;  // Inside the first record's payload.
  Write(data);
  std::vector<std::string> errors;
  EXPECT_TRUE(Load(&errors).empty());
  ASSERT_EQ(errors.size(), 1u);
  EXPECT_NE(errors[0].find("fails its checksum"), std::string::npos)
      << errors[0];
}

TEST_F(WorldFileTest, AFileHoldingAnotherWorldIsReported) {
  const std::string other = dir_ + "/x.gsworld";
  std::ofstream(other, std::ios::binary) << Read();
  std::vector<std::string> errors;
  EXPECT_EQ(Load(&errors).size(), 1u);
  ASSERT_EQ(errors.size(), 1u);
  EXPECT_NE(errors[0].find("holds world 'w'"), std::string::npos) << errors[0];
}

TEST(WorldCodecTest, RandomWorldsRoundTripAndDamageIsRefused) {
  for (uint32_t seed = 0; seed < 200; ++seed) {
    SCOPED_TRACE(seed);
    const StoredWorld w = RandomWorld(absl::StrCat("w", seed), 1 + seed, seed);
    const std::string record = codec::EncodeWorldRecord(w);
    EXPECT_EQ(codec::WholeWorldRecordBytes(w), record.size());
    absl::StatusOr<StoredWorld> back = codec::DecodeWorldRecord(record);
    ASSERT_OK(back.status());
    EXPECT_EQ(*back, w);
    std::string damaged = record;
    damaged[seed % record.size()] ^= static_cast<char>(1 + seed % 255);
    EXPECT_FALSE(codec::DecodeWorldRecord(damaged).ok());
    EXPECT_FALSE(
        codec::DecodeWorldRecord(record.substr(0, seed % record.size())).ok());
  }
}

// One random step of a world's life, as the registry makes them: mostly a
// link opened or closed or re-costed, sometimes one added or removed, now
// and then the links reordered or the member maps changed (a whole record).
StoredWorld NextWorld(const StoredWorld& w, std::mt19937& rng, int* added) {
  StoredWorld next = w;
  ++next.version;
  const int kind = static_cast<int>(rng() % 20);
  if (next.links.empty() || kind == 0) {
    StoredLink link;
    link.id = absl::StrCat("added.", (*added)++);
    link.from_map = next.maps[rng() % next.maps.size()];
    link.to_map = next.maps[rng() % next.maps.size()];
    link.from = {static_cast<int32_t>(rng() % 500), 7};
    link.to = {3, static_cast<int32_t>(rng() % 500)};
    link.cost = (rng() % 1000) / 3.0;
    next.links.insert(next.links.begin() + rng() % (next.links.size() + 1),
                      link);
  } else if (kind == 1) {
    next.links.erase(next.links.begin() + rng() % next.links.size());
  } else if (kind == 2) {
    std::shuffle(next.links.begin(), next.links.end(), rng);
  } else if (kind == 3) {
    next.maps.push_back(absl::StrCat("map-", next.maps.size()));
  } else if (kind < 8) {
    next.links[rng() % next.links.size()].cost = (rng() % 1000) / 7.0;
  } else {
    StoredLink& link = next.links[rng() % next.links.size()];
    link.open = !link.open;
  }
  return next;
}

// Seeded random lives of worlds written step by step (whole or edit
// records): after every step the file replays to the version just written,
// a toggle or a re-costing is an edit record of under 160 bytes, and a cut
// anywhere in the last record replays to the version before.
TEST(WorldCodecTest, EditRecordsReplayToEveryVersionOfRandomLives) {
  for (uint32_t seed = 0; seed < 40; ++seed) {
    SCOPED_TRACE(absl::StrCat("seed ", seed));
    std::mt19937 rng(seed);
    StoredWorld w = RandomWorld("w", 1, seed);
    bool whole = false;
    std::string file = codec::EncodeWorldStep(nullptr, w, &whole);
    EXPECT_TRUE(whole);
    int added = 0, edits = 0;
    for (int step = 0; step < 80; ++step) {
      SCOPED_TRACE(absl::StrCat("step ", step));
      const StoredWorld next = NextWorld(w, rng, &added);
      const std::string record = codec::EncodeWorldStep(&w, next, &whole);
      if (next.maps != w.maps) EXPECT_TRUE(whole);
      const bool small =
          next.maps == w.maps && next.links.size() == w.links.size() &&
          std::equal(next.links.begin(), next.links.end(), w.links.begin(),
                     [](const StoredLink& a, const StoredLink& b) {
                       return a.id == b.id;
                     });
      if (small && next.links != w.links && w.links.size() > 2) {
        EXPECT_FALSE(whole);
        EXPECT_LT(record.size(), 160u);
      }
      edits = whole ? 0 : edits + 1;
      const std::string before = file;
      file += record;
      codec::WorldFileShape shape;
      absl::StatusOr<StoredWorld> back = codec::ReplayWorldFile(file, &shape);
      ASSERT_OK(back.status());
      EXPECT_EQ(*back, next);
      EXPECT_EQ(shape.valid_bytes, file.size());
      EXPECT_EQ(shape.records, static_cast<size_t>(step) + 2);
      EXPECT_EQ(shape.edits_since_whole, static_cast<size_t>(edits));
      if (step % 10 == 0) {
        for (size_t cut = 1; cut < record.size(); ++cut) {
          back = codec::ReplayWorldFile(before + record.substr(0, cut), &shape);
          ASSERT_OK(back.status());
          EXPECT_EQ(*back, w);
          EXPECT_EQ(shape.valid_bytes, before.size());
        }
      }
      w = next;
    }
  }
}

// An edit record first in a file, or one written twice (the second does
// not follow the version before it), is corruption, not a torn tail.
TEST(WorldCodecTest, AnEditThatDoesNotFollowIsCorruption) {
  StoredWorld a = RandomWorld("w", 1, 3);
  a.links.resize(std::max<size_t>(a.links.size(), 3),
                 a.links.empty() ? StoredLink() : a.links[0]);
  for (size_t i = 0; i < a.links.size(); ++i) {
    a.links[i].id = absl::StrCat("l", i);
    a.links[i].from_map = a.links[i].to_map = a.maps[0];
  }
  StoredWorld b = a;
  b.version = 2;
  b.links[1].open = !b.links[1].open;
  bool whole = true;
  const std::string edit = codec::EncodeWorldStep(&a, b, &whole);
  ASSERT_FALSE(whole);
  const std::string first = codec::EncodeWorldRecord(a);
  codec::WorldFileShape shape;
  EXPECT_TRUE(StatusIs(codec::ReplayWorldFile(edit, &shape).status(),
                       absl::StatusCode::kDataLoss, "does not follow"));
  EXPECT_TRUE(
      StatusIs(codec::ReplayWorldFile(first + edit + edit, &shape).status(),
               absl::StatusCode::kDataLoss, "does not follow"));
  absl::StatusOr<StoredWorld> back =
      codec::ReplayWorldFile(first + edit, &shape);
  ASSERT_OK(back.status());
  EXPECT_EQ(*back, b);
  // Runs that copy the version before's links more than once between them
  // (which no writer makes, and which could multiply a world without bound).
  for (const uint32_t copies : {1u, 2u}) {
    SCOPED_TRACE(absl::StrCat(copies, " copies"));
    std::string payload;
    codec::PutU32(&payload, 0x31455347);  // "GSE1".
    codec::PutU64(&payload, 2);
    codec::PutString(&payload, "w");
    codec::PutU32(&payload, copies);
    for (uint32_t i = 0; i < copies; ++i) {
      codec::PutU32(&payload, 0);  // A run: all of the version before's links.
      codec::PutU32(&payload, 0);
      codec::PutU32(&payload, static_cast<uint32_t>(a.links.size()));
    }
    absl::StatusOr<StoredWorld> replayed =
        codec::ReplayWorldFile(first + codec::FrameRecord(payload), &shape);
    if (copies == 1) {
      ASSERT_OK(replayed.status());
      EXPECT_EQ(replayed->links, a.links);
      EXPECT_EQ(replayed->version, 2u);
    } else {
      EXPECT_TRUE(StatusIs(replayed.status(), absl::StatusCode::kDataLoss,
                           "does not follow"));
    }
  }
}

// Through the directory store: toggles of a 96-link world append edit
// records of about 120 bytes (not the 6 KB world), a restart loads the last
// version, and the next write after the restart is an edit again; replaying
// edits is bounded (kMaxEditReplayLinks) by compaction.
TEST(WorldFileCompactionTest,
     TogglesAppendEditRecordsAndCompactionBoundsReplay) {
  const std::string dir = FreshDir("edits");
  const std::string path = dir + "/w.gsworld";
  auto size = [&] {
    std::ifstream file(path, std::ios::binary | std::ios::ate);
    return static_cast<uint64_t>(file.tellg());
  };
  StoredWorld w;
  w.id = "w";
  w.version = 1;
  w.maps = {"a", "b"};
  for (int i = 0; i < 96; ++i) {
    StoredLink link;
    link.id = absl::StrCat("l", i / 6, ".", i % 6);
    link.from_map = "a";
    link.to_map = "b";
    link.from = {i, i};
    link.to = {i, 2 * i};
    w.links.push_back(link);
  }
  std::mt19937 rng(5);
  {
    DirectoryStore store(dir);
    ASSERT_OK(store.PutWorld(w));
    const uint64_t whole = size();
    EXPECT_GT(whole, 5000u);
    for (int i = 0; i < 20; ++i) {
      const uint64_t before = size();
      ++w.version;
      w.links[rng() % 96].open ^= true;
      ASSERT_OK(store.PutWorld(w));
      EXPECT_LT(size() - before, 160u) << "version " << w.version;
      ASSERT_OK(store.CompactWorld(w));  // Far below the bounds: nothing.
      EXPECT_GT(size(), before);
    }
  }
  DirectoryStore store(dir);
  std::vector<StoredWorld> worlds;
  std::vector<std::string> errors;
  ASSERT_OK(store.LoadWorlds(&worlds, &errors));
  EXPECT_TRUE(errors.empty());
  ASSERT_EQ(worlds.size(), 1u);
  EXPECT_EQ(worlds[0], w);
  uint64_t before = size();
  ++w.version;
  w.links[3].cost = 9;
  ASSERT_OK(store.PutWorld(w));
  EXPECT_LT(size() - before, 160u);
  // A world of 4096 links (its whole record 260 KB, so the bytes' bound is
  // 16 MiB): edits until replaying them would copy more than
  // kMaxEditReplayLinks links; then, and not before, CompactWorld folds the
  // file into one whole record.
  ++w.version;
  for (int i = 96; i < 4096; ++i) {
    StoredLink link = w.links[i % 96];
    link.id = absl::StrCat("m", i);
    w.links.push_back(link);
  }
  ASSERT_OK(store.PutWorld(w));
  const uint64_t edits_allowed = DirectoryStore::kMaxEditReplayLinks / 4096;
  for (uint64_t e = 1; e <= edits_allowed + 1; ++e) {
    ++w.version;
    w.links[rng() % 4096].open ^= true;
    ASSERT_OK(store.PutWorld(w));
    if (e % 128 == 0 || e >= edits_allowed) {
      before = size();
      ASSERT_OK(store.CompactWorld(w));
      if (e <= edits_allowed) {
        ASSERT_EQ(size(), before) << "compacted after " << e << " edits";
      }
    }
  }
  EXPECT_EQ(size(), codec::EncodeWorldRecord(w).size());
  worlds.clear();
  ASSERT_OK(DirectoryStore(dir).LoadWorlds(&worlds, &errors));
  ASSERT_EQ(worlds.size(), 1u);
  EXPECT_EQ(worlds[0], w);
}

}  // namespace
}  // namespace gridstar::server
