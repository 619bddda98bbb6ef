// The MapStore contract, run against every store (the directory store and
// the Redis store, on a real redis-server started here), plus the directory
// store's own
// recovery rules: torn tails dropped, corruption reported, compaction folds
// the log in, a crash between compaction steps loses nothing.
#include "store/map_store.h"

#include <sys/stat.h>
#include <unistd.h>

#include <cstdio>
#include <cstdlib>
#include <fstream>
#include <functional>
#include <memory>
#include <random>
#include <string>
#include <vector>

#include "absl/strings/str_cat.h"
#include "gtest/gtest.h"
#include "store/directory_store.h"
#include "store/map_codec.h"
#include "store/redis_store.h"
#include "testing/redis_process.h"
#include "testing/status_matchers.h"

namespace gridstar::server {
namespace {

// A fresh directory under the test's temp dir.
std::string FreshDir(const std::string& name) {
  static int counter = 0;
  const std::string dir = absl::StrCat(::testing::TempDir(), "/store.",
                                       getpid(), ".", name, ".", counter++);
  std::system(absl::StrCat("rm -rf '", dir, "'").c_str());
  ::mkdir(dir.c_str(), 0755);
  return dir;
}

StoredMap MakeMap(const std::string& id, int32_t w, int32_t h, uint32_t seed) {
  StoredMap m;
  m.id = id;
  m.version = 1;
  m.options.Set("jump_table", (seed % 2 == 0) ? 1 : 0);
  m.options.Set("landmarks", static_cast<int>(seed % 3));
  m.options.Set("hpa", (seed % 4 < 2) ? 1 : 0);
  m.options.Set("subgoal_graph", (seed % 5 < 2) ? 1 : 0);
  // A structure of an engine the first format had no header bit for.
  m.options.Set("some_later_structure", static_cast<int>(seed % 4));
  m.options.default_diagonal = kAllDiagonalPolicies[seed % 3];
  m.width = w;
  m.height = h;
  std::mt19937 rng(seed);
  m.costs.resize(static_cast<size_t>(w) * h);
  for (uint8_t& c : m.costs) c = rng() % 4 == 0 ? 0 : 1 + rng() % 5;
  return m;
}

StoredUpdate RandomUpdate(const StoredMap& m, uint64_t version,
                          std::mt19937& rng) {
  StoredUpdate u;
  u.id = m.id;
  u.version = version;
  for (int k = 1 + static_cast<int>(rng() % 3); k > 0; --k) {
    CellChange c;
    c.min = {static_cast<int32_t>(rng() % m.width),
             static_cast<int32_t>(rng() % m.height)};
    c.max = {c.min.x + 1 + static_cast<int32_t>(rng() % 3),
             c.min.y + 1 + static_cast<int32_t>(rng() % 3)};
    c.max.x = std::min(c.max.x, m.width);
    c.max.y = std::min(c.max.y, m.height);
    c.cost = static_cast<uint8_t>(rng() % 6);
    u.changes.push_back(c);
  }
  return u;
}

// What a store must hold after an update: the reference applies it too.
void Apply(const StoredUpdate& u, StoredMap* m) {
  ApplyChangesToCosts(m->width, u.changes, absl::MakeSpan(m->costs));
  m->version = u.version;
}

void ExpectSame(const StoredMap& want, const StoredMap& got) {
  EXPECT_EQ(got.id, want.id);
  EXPECT_EQ(got.version, want.version);
  EXPECT_TRUE(got.options == want.options);
  EXPECT_EQ(got.width, want.width);
  EXPECT_EQ(got.height, want.height);
  EXPECT_TRUE(got.costs == want.costs) << "costs differ for " << want.id;
}

// A store under test, reopened as a new process would open it.
struct StoreFactory {
  std::string name;
  // Makes a store over fresh storage named `name`, or reopens that storage.
  std::function<std::unique_ptr<MapStore>(const std::string& storage)> open;
  std::function<std::string(const std::string& name)> fresh;
};

// The binary's one redis-server (each storage is a key prefix).
testing::RedisProcess& SharedRedis() { return testing::SharedRedisProcess(); }

std::vector<StoreFactory> Factories() {
  return {{"directory",
           [](const std::string& dir) -> std::unique_ptr<MapStore> {
             return std::make_unique<DirectoryStore>(dir);
           },
           [](const std::string& name) { return FreshDir(name); }},
          {"redis",
           [](const std::string& prefix) -> std::unique_ptr<MapStore> {
             RedisStore::Options options;
             options.address.host = "127.0.0.1";
             options.address.port = SharedRedis().port();
             options.key_prefix = prefix;
             return std::make_unique<RedisStore>(options);
           },
           [](const std::string& name) {
             static int counter = 0;
             return absl::StrCat("test.", getpid(), ".", name, ".",
                                 counter++, ":");
           }}};
}

class MapStoreContract : public ::testing::TestWithParam<size_t> {
 protected:
  void SetUp() override {
    if (factory().name != "redis" || SharedRedis().error().empty()) return;
    if (std::getenv("CI") != nullptr) {
      FAIL() << SharedRedis().error() << ", and CI is set";
    }
    GTEST_SKIP() << SharedRedis().error();
  }
  const StoreFactory& factory() const { return factories_[GetParam()]; }
  std::unique_ptr<MapStore> Open(const std::string& storage) const {
    return factory().open(storage);
  }
  std::vector<StoredMap> LoadAll(const std::string& storage,
                                 std::vector<std::string>* errors) const {
    std::vector<StoredMap> maps;
    EXPECT_OK(Open(storage)->LoadAll(&maps, errors));
    return maps;
  }
  std::vector<StoreFactory> factories_ = Factories();
};

TEST_P(MapStoreContract, PutThenLoadReturnsTheContent) {
  const std::string storage = factory().fresh("put");
  auto store = Open(storage);
  const StoredMap a = MakeMap("a", 7, 5, 1), b = MakeMap("b", 1, 1, 2);
  ASSERT_OK(store->Put(a));
  ASSERT_OK(store->Put(b));
  std::vector<std::string> errors;
  const std::vector<StoredMap> maps = LoadAll(storage, &errors);
  EXPECT_TRUE(errors.empty());
  ASSERT_EQ(maps.size(), 2u);
  ExpectSame(a, maps[0]);
  ExpectSame(b, maps[1]);
}

TEST_P(MapStoreContract, EmptyStoreLoadsNothing) {
  std::vector<std::string> errors;
  EXPECT_TRUE(LoadAll(factory().fresh("empty"), &errors).empty());
  EXPECT_TRUE(errors.empty());
}

TEST_P(MapStoreContract, UpdatesReplayInOrderAcrossReopen) {
  const std::string storage = factory().fresh("updates");
  StoredMap want = MakeMap("m", 20, 13, 3);
  {
    auto store = Open(storage);
    ASSERT_OK(store->Put(want));
    std::mt19937 rng(7);
    for (uint64_t v = 2; v <= 40; ++v) {
      const StoredUpdate u = RandomUpdate(want, v, rng);
      ASSERT_OK(store->AppendUpdate(u));
      Apply(u, &want);
    }
  }
  std::vector<std::string> errors;
  const std::vector<StoredMap> maps = LoadAll(storage, &errors);
  EXPECT_TRUE(errors.empty());
  ASSERT_EQ(maps.size(), 1u);
  ExpectSame(want, maps[0]);
  // A reopened store keeps appending where it left off.
  auto store = Open(storage);
  std::vector<StoredMap> again;
  ASSERT_OK(store->LoadAll(&again, &errors));
  std::mt19937 rng(8);
  const StoredUpdate u = RandomUpdate(want, want.version + 1, rng);
  ASSERT_OK(store->AppendUpdate(u));
  Apply(u, &want);
  ExpectSame(want, LoadAll(storage, &errors).at(0));
}

TEST_P(MapStoreContract, PutReplacesContentAndUpdates) {
  const std::string storage = factory().fresh("replace");
  auto store = Open(storage);
  StoredMap first = MakeMap("m", 9, 9, 4);
  ASSERT_OK(store->Put(first));
  std::mt19937 rng(9);
  ASSERT_OK(store->AppendUpdate(RandomUpdate(first, 2, rng)));
  StoredMap second = MakeMap("m", 4, 6, 5);
  second.version = 3;
  ASSERT_OK(store->Put(second));
  std::vector<std::string> errors;
  const std::vector<StoredMap> maps = LoadAll(storage, &errors);
  ASSERT_EQ(maps.size(), 1u);
  ExpectSame(second, maps[0]);
}

TEST_P(MapStoreContract, DeleteRemovesContentAndUpdates) {
  const std::string storage = factory().fresh("delete");
  auto store = Open(storage);
  StoredMap m = MakeMap("gone", 5, 5, 6);
  ASSERT_OK(store->Put(m));
  std::mt19937 rng(10);
  ASSERT_OK(store->AppendUpdate(RandomUpdate(m, 2, rng)));
  ASSERT_OK(store->Put(MakeMap("kept", 3, 3, 7)));
  ASSERT_OK(store->Delete("gone"));
  ASSERT_OK(store->Delete("never-there"));
  std::vector<std::string> errors;
  const std::vector<StoredMap> maps = LoadAll(storage, &errors);
  ASSERT_EQ(maps.size(), 1u);
  EXPECT_EQ(maps[0].id, "kept");
  // The id can be registered afresh, with no old updates attached.
  StoredMap fresh = MakeMap("gone", 2, 2, 8);
  ASSERT_OK(store->Put(fresh));
  ExpectSame(fresh, LoadAll(storage, &errors).at(0));
}

TEST_P(MapStoreContract, CompactionKeepsTheLatestVersion) {
  const std::string storage = factory().fresh("compact");
  auto store = Open(storage);
  StoredMap want = MakeMap("m", 30, 30, 11);
  ASSERT_OK(store->Put(want));
  std::mt19937 rng(12);
  for (uint64_t v = 2; v <= 20; ++v) {
    const StoredUpdate u = RandomUpdate(want, v, rng);
    ASSERT_OK(store->AppendUpdate(u));
    Apply(u, &want);
  }
  ASSERT_OK(store->Compact(want));
  for (uint64_t v = 21; v <= 25; ++v) {
    const StoredUpdate u = RandomUpdate(want, v, rng);
    ASSERT_OK(store->AppendUpdate(u));
    Apply(u, &want);
  }
  std::vector<std::string> errors;
  ExpectSame(want, LoadAll(storage, &errors).at(0));
  EXPECT_TRUE(errors.empty());
}

INSTANTIATE_TEST_SUITE_P(Stores, MapStoreContract,
                         ::testing::Range<size_t>(0, Factories().size()),
                         [](const ::testing::TestParamInfo<size_t>& param) {
                           return Factories()[param.param].name;
                         });

// The directory store's own rules.

std::string ReadAll(const std::string& path) {
  std::ifstream in(path, std::ios::binary);
  return std::string(std::istreambuf_iterator<char>(in), {});
}
void WriteAll(const std::string& path, const std::string& data) {
  std::ofstream(path, std::ios::binary | std::ios::trunc) << data;
}

class DirectoryStoreTest : public ::testing::Test {
 protected:
  void SetUp() override {
    dir_ = FreshDir("dir");
    map_ = MakeMap("m", 12, 10, 21);
    DirectoryStore store(dir_);
    ASSERT_OK(store.Put(map_));
    std::mt19937 rng(22);
    for (uint64_t v = 2; v <= 6; ++v) {
      const StoredUpdate u = RandomUpdate(map_, v, rng);
      ASSERT_OK(store.AppendUpdate(u));
      Apply(u, &map_);
      record_ = codec::EncodeUpdateRecord(u);
    }
  }
  std::string log_path() const { return dir_ + "/m.gslog"; }
  std::vector<StoredMap> Load(std::vector<std::string>* errors) {
    std::vector<StoredMap> maps;
    EXPECT_OK(DirectoryStore(dir_).LoadAll(&maps, errors));
    return maps;
  }

  std::string dir_;
  StoredMap map_;       // At version 6.
  std::string record_;  // The last record written.
};

TEST_F(DirectoryStoreTest, TornLastRecordIsDroppedAtEveryCut) {
  const std::string log = ReadAll(log_path());
  StoredMap at5 = map_;
  // Version 5's content: replay the log without its last record.
  {
    StoredMap base = codec::DecodeMapFile(ReadAll(dir_ + "/m.gsmap")).value();
    size_t valid = 0;
    ASSERT_OK(codec::ReplayLog(
        absl::string_view(log).substr(0, log.size() - record_.size()), &base,
        &valid));
    at5 = base;
  }
  ASSERT_EQ(at5.version, 5u);
  for (size_t cut = 1; cut < record_.size(); ++cut) {
    SCOPED_TRACE(absl::StrCat("cut ", cut, " bytes into the last record"));
    WriteAll(log_path(), log.substr(0, log.size() - record_.size() + cut));
    std::vector<std::string> errors;
    const std::vector<StoredMap> maps = Load(&errors);
    EXPECT_TRUE(errors.empty()) << errors[0];
    ASSERT_EQ(maps.size(), 1u);
    ExpectSame(at5, maps[0]);
    // The torn bytes were cut, so the next append follows version 5.
    EXPECT_EQ(ReadAll(log_path()).size(), log.size() - record_.size());
  }
}

TEST_F(DirectoryStoreTest, CorruptLastRecordIsDropped) {
  std::string log = ReadAll(log_path());
  log[log.size() - 3] ^= 0x40;  // A payload byte of the last record.
  WriteAll(log_path(), log);
  std::vector<std::string> errors;
  const std::vector<StoredMap> maps = Load(&errors);
  EXPECT_TRUE(errors.empty());
  ASSERT_EQ(maps.size(), 1u);
  EXPECT_EQ(maps[0].version, 5u);
}

TEST_F(DirectoryStoreTest, CorruptMiddleRecordSkipsTheMap) {
  std::string log = ReadAll(log_path());
  log[codec::kRecordHeaderBytes + 2] ^= 0x01;  // Inside the first record.
  WriteAll(log_path(), log);
  std::vector<std::string> errors;
  EXPECT_TRUE(Load(&errors).empty());
  ASSERT_EQ(errors.size(), 1u);
  EXPECT_NE(errors[0].find("checksum"), std::string::npos) << errors[0];
}

TEST_F(DirectoryStoreTest, VersionGapSkipsTheMap) {
  StoredUpdate gap;
  gap.id = "m";
  gap.version = 9;
  gap.changes = {{{0, 0}, {1, 1}, 3}};
  WriteAll(log_path(), ReadAll(log_path()) + codec::EncodeUpdateRecord(gap));
  std::vector<std::string> errors;
  EXPECT_TRUE(Load(&errors).empty());
  ASSERT_EQ(errors.size(), 1u);
  EXPECT_NE(errors[0].find("version 9 after 6"), std::string::npos)
      << errors[0];
}

TEST_F(DirectoryStoreTest, ChangeOutsideTheMapSkipsTheMap) {
  StoredUpdate bad;
  bad.id = "m";
  bad.version = 7;
  bad.changes = {{{0, 0}, {13, 1}, 3}};  // The map is 12 wide.
  WriteAll(log_path(), ReadAll(log_path()) + codec::EncodeUpdateRecord(bad));
  std::vector<std::string> errors;
  EXPECT_TRUE(Load(&errors).empty());
  ASSERT_EQ(errors.size(), 1u);
}

TEST_F(DirectoryStoreTest, CorruptMapFileIsReportedAndOthersLoad) {
  ASSERT_OK(DirectoryStore(dir_).Put(MakeMap("other", 3, 3, 23)));
  std::string file = ReadAll(dir_ + "/m.gsmap");
  file[20] ^= 0x10;
  WriteAll(dir_ + "/m.gsmap", file);
  std::vector<std::string> errors;
  const std::vector<StoredMap> maps = Load(&errors);
  ASSERT_EQ(maps.size(), 1u);
  EXPECT_EQ(maps[0].id, "other");
  ASSERT_EQ(errors.size(), 1u);
  EXPECT_NE(errors[0].find("checksum mismatch"), std::string::npos);
}

TEST_F(DirectoryStoreTest, CrashBetweenCompactionStepsLosesNothing) {
  // Compaction wrote the map file at version 6 but died before removing the
  // log: every record is at or below the file's version and is skipped.
  const std::string log = ReadAll(log_path());
  ASSERT_OK(DirectoryStore(dir_).Compact(map_));
  WriteAll(log_path(), log);
  std::vector<std::string> errors;
  std::vector<StoredMap> maps = Load(&errors);
  ASSERT_EQ(maps.size(), 1u);
  ExpectSame(map_, maps[0]);
  // And later appends follow on.
  DirectoryStore store(dir_);
  ASSERT_OK(store.LoadAll(&maps, &errors));
  std::mt19937 rng(24);
  const StoredUpdate u = RandomUpdate(map_, 7, rng);
  ASSERT_OK(store.AppendUpdate(u));
  Apply(u, &map_);
  ExpectSame(map_, Load(&errors).at(0));
}

TEST_F(DirectoryStoreTest, WantsCompactionPastHalfTheMapAndTheMinimum) {
  DirectoryStore store(dir_);
  std::vector<StoredMap> maps;
  std::vector<std::string> errors;
  ASSERT_OK(store.LoadAll(&maps, &errors));
  // A few records on a small map: below kMinCompactBytes.
  EXPECT_FALSE(store.WantsCompaction("m"));
  // One large update past the minimum and past half of this small map.
  StoredUpdate big;
  big.id = "m";
  big.version = 7;
  big.changes.assign(DirectoryStore::kMinCompactBytes / 17 + 1,
                     CellChange{{0, 0}, {1, 1}, 2});
  ASSERT_OK(store.AppendUpdate(big));
  EXPECT_TRUE(store.WantsCompaction("m"));
  Apply(big, &map_);
  ASSERT_OK(store.Compact(map_));
  EXPECT_FALSE(store.WantsCompaction("m"));
  EXPECT_FALSE(store.WantsCompaction("unknown"));
}

TEST_F(DirectoryStoreTest, FailedWriteReportsUnavailable) {
  DirectoryStore missing(dir_ + "/does-not-exist");
  absl::Status s = missing.Put(MakeMap("x", 2, 2, 25));
  EXPECT_TRUE(absl::IsUnavailable(s)) << s;
  StoredUpdate u;
  u.id = "x";
  u.version = 2;
  s = missing.AppendUpdate(u);
  EXPECT_TRUE(absl::IsUnavailable(s)) << s;
}

TEST(MapCodecTest, MapFileRoundTripsAndRejectsDamage) {
  const StoredMap m = MakeMap("codec", 17, 3, 26);
  const std::string data = codec::EncodeMapFile(m);
  absl::StatusOr<StoredMap> back = codec::DecodeMapFile(data);
  ASSERT_OK(back);
  ExpectSame(m, *back);
  for (size_t i = 0; i < data.size(); i += 7) {
    std::string broken = data;
    broken[i] ^= 0x20;
    EXPECT_FALSE(codec::DecodeMapFile(broken).ok()) << "byte " << i;
  }
  EXPECT_FALSE(codec::DecodeMapFile(data.substr(0, data.size() - 1)).ok());
  EXPECT_FALSE(codec::DecodeMapFile("").ok());
}

TEST(MapCodecTest, Crc32cMatchesTheStandardCheckValue) {
  // The CRC-32C check value of "123456789".
  EXPECT_EQ(codec::Crc32c("123456789"), 0xe3069283u);
}

}  // namespace
}  // namespace gridstar::server
