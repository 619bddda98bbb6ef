// What no configuration may lose: a stored map wins over a --preload of the
// same id (its updates kept), --preload_replace forces the file and says so,
// a missing --data_dir is made (parents too, mode 0700), and the
// Dockerfile's own defaults (its ENV and ENTRYPOINT, read from the file) keep
// a volume's maps and updates across a restart. Everything runs the real
// gridstar-server binary.
#include <sys/stat.h>
#include <unistd.h>

#include <cstdlib>
#include <fstream>
#include <map>
#include <sstream>
#include <string>
#include <vector>

#include "absl/strings/match.h"
#include "absl/strings/str_cat.h"
#include "absl/strings/str_split.h"
#include "absl/strings/strip.h"
#include "gtest/gtest.h"
#include "server/server_test_util.h"

namespace gridstar {
namespace {

using namespace testing::server_suite;  // NOLINT(build/namespaces)

std::string FreshDir(const std::string& name) {
  const std::string dir =
      absl::StrCat(::testing::TempDir(), "/", name, ".", getpid());
  EXPECT_EQ(std::system(absl::StrCat("rm -rf ", dir).c_str()), 0);
  return dir;
}

std::string ReadAll(const std::string& path) {
  std::ifstream in(path);
  std::stringstream s;
  s << in.rdbuf();
  return s.str();
}

std::string SamplePath(const std::string& name) {
  return absl::StrCat(GRIDSTAR_SOURCE_DIR, "/data/sample/", name);
}

// Blocks cell (1, 1) of `id`, as `gridstar update dungeon 1 1 0` does.
grpc::Status BlockOneCell(v1::Pathfinding::Stub& stub, const std::string& id,
                          v1::MapInfo* info) {
  v1::UpdateCellsRequest u;
  u.set_id(id);
  v1::CellUpdate* c = u.add_cells();
  c->mutable_cell()->set_x(1);
  c->mutable_cell()->set_y(1);
  c->set_cost(0);
  grpc::ClientContext ctx;
  SetDeadline(&ctx);
  return stub.UpdateCells(&ctx, u, info);
}

v1::MapInfo InfoOf(v1::Pathfinding::Stub& stub, const std::string& id) {
  v1::GetMapResponse got;
  EXPECT_TRUE(GetMapWithCells(stub, id, &got).ok());
  return got.info();
}

// The data loss: update a preloaded map, restart with the same
// command line; the update must still be there and the log must say why the
// file was not read.
TEST(ServerPersistenceTest, StoredMapWinsOverPreloadOfTheSameId) {
  const std::string dir = FreshDir("gs-preload");
  const std::vector<std::string> flags = {
      absl::StrCat("--data_dir=", dir),
      absl::StrCat("--preload=dungeon=", SamplePath("dungeon.map"))};
  v1::MapInfo updated;
  {
    ServerProcess server(flags);
    ASSERT_TRUE(server.started());
    const v1::MapInfo first = InfoOf(server.stub(), "dungeon");
    EXPECT_EQ(first.version(), 1u);
    ASSERT_TRUE(BlockOneCell(server.stub(), "dungeon", &updated).ok());
    EXPECT_EQ(updated.version(), 2u);
    EXPECT_EQ(updated.passable_cells(), first.passable_cells() - 1);
    server.Kill9();
  }
  const std::string log = absl::StrCat(dir, ".log");
  ServerProcess server(flags, log);
  ASSERT_TRUE(server.started());
  const v1::MapInfo after = InfoOf(server.stub(), "dungeon");
  EXPECT_EQ(after.version(), updated.version());
  EXPECT_EQ(after.passable_cells(), updated.passable_cells());
  const std::string text = ReadAll(log);
  EXPECT_TRUE(absl::StrContains(
      text, "skipped, the store holds map 'dungeon' at version 2"))
      << text;
}

TEST(ServerPersistenceTest, PreloadReplaceRegistersTheFileOverTheStoredMap) {
  const std::string dir = FreshDir("gs-preload-replace");
  const std::string preload =
      absl::StrCat("--preload=dungeon=", SamplePath("dungeon.map"));
  v1::MapInfo first, updated;
  {
    ServerProcess server({absl::StrCat("--data_dir=", dir), preload});
    ASSERT_TRUE(server.started());
    first = InfoOf(server.stub(), "dungeon");
    ASSERT_TRUE(BlockOneCell(server.stub(), "dungeon", &updated).ok());
  }
  const std::string log = absl::StrCat(dir, ".log");
  ServerProcess server(
      {absl::StrCat("--data_dir=", dir), preload, "--preload_replace"}, log);
  ASSERT_TRUE(server.started());
  const v1::MapInfo after = InfoOf(server.stub(), "dungeon");
  // The file's content, as the next version (never a silent rewind).
  EXPECT_EQ(after.version(), 3u);
  EXPECT_EQ(after.passable_cells(), first.passable_cells());
  const std::string text = ReadAll(log);
  EXPECT_TRUE(absl::StrContains(
      text,
      "--preload_replace: the file replaces stored map 'dungeon' at version 2"))
      << text;
}

// A preload of an id the store does not hold is registered as before, beside
// the stored maps.
TEST(ServerPersistenceTest, PreloadOfANewIdIsRegisteredBesideStoredMaps) {
  const std::string dir = FreshDir("gs-preload-new");
  {
    ServerProcess server(
        {absl::StrCat("--data_dir=", dir),
         absl::StrCat("--preload=dungeon=", SamplePath("dungeon.map"))});
    ASSERT_TRUE(server.started());
  }
  ServerProcess server(
      {absl::StrCat("--data_dir=", dir),
       absl::StrCat("--preload=dungeon=", SamplePath("dungeon.map"),
                    ",terrain=", SamplePath("terrain.pgm"))});
  ASSERT_TRUE(server.started());
  EXPECT_EQ(InfoOf(server.stub(), "dungeon").version(), 1u);
  EXPECT_EQ(InfoOf(server.stub(), "terrain").version(), 1u);
}

TEST(ServerPersistenceTest, MissingDataDirIsCreatedWithItsParents) {
  const std::string root = FreshDir("gs-newdir");
  const std::string dir = absl::StrCat(root, "/a/b/maps");
  {
    ServerProcess server({absl::StrCat("--data_dir=", dir)});
    ASSERT_TRUE(server.started());
    v1::MapInfo info;
    ASSERT_TRUE(
        Register(server.stub(), "kept", ReadSample("dungeon.map"), &info).ok());
    server.Kill9();
  }
  struct stat st;
  ASSERT_EQ(stat(dir.c_str(), &st), 0);
  EXPECT_TRUE(S_ISDIR(st.st_mode));
  EXPECT_EQ(st.st_mode & 0777, 0700u);
  ASSERT_EQ(stat(absl::StrCat(root, "/a").c_str(), &st), 0);
  EXPECT_EQ(st.st_mode & 0777, 0700u);
  ServerProcess server({absl::StrCat("--data_dir=", dir)});
  ASSERT_TRUE(server.started());
  EXPECT_EQ(InfoOf(server.stub(), "kept").version(), 1u);
}

TEST(ServerPersistenceTest, DataDirThatIsAFileIsRefusedNamingIt) {
  const std::string path = FreshDir("gs-notadir");
  std::ofstream(path) << "a file";
  int code = 0;
  const std::string out = testing::RunAndCapture(
      absl::StrCat(GRIDSTAR_SERVER_BINARY,
                   " --host=127.0.0.1 --port=0 --metrics_port=0 --data_dir=",
                   path, "/maps 2>&1"),
      &code);
  EXPECT_NE(code, 0) << out;
  EXPECT_TRUE(absl::StrContains(out, "--data_dir:")) << out;
  EXPECT_TRUE(absl::StrContains(out, "is not a directory")) << out;
}

// The Dockerfile's defaults, read from the Dockerfile itself: its ENV lines
// and the flags its ENTRYPOINT takes from the environment. With the data
// directory redirected to a temp "volume" and a preload as the README's
// container example has it, an update survives a restart of the same
// configuration.
TEST(ServerPersistenceTest, DockerfileDefaultsKeepAVolumesMapsAcrossRestart) {
  const std::string dockerfile =
      ReadAll(absl::StrCat(GRIDSTAR_SOURCE_DIR, "/Dockerfile"));
  ASSERT_FALSE(dockerfile.empty());
  // ENV KEY=VALUE \ KEY=VALUE ... in the runtime stage.
  std::map<std::string, std::string> env;
  std::vector<std::string> lines = absl::StrSplit(dockerfile, '\n');
  bool in_env = false;
  for (std::string line : lines) {
    absl::string_view l = absl::StripAsciiWhitespace(line);
    if (absl::ConsumePrefix(&l, "ENV ")) in_env = true;
    if (!in_env) continue;
    in_env = absl::EndsWith(l, "\\");
    l = absl::StripSuffix(l, "\\");
    for (absl::string_view kv :
         absl::StrSplit(l, ' ', absl::SkipWhitespace())) {
      std::vector<std::string> p = absl::StrSplit(kv, absl::MaxSplits('=', 1));
      if (p.size() == 2) env[p[0]] = p[1];
    }
  }
  ASSERT_TRUE(env.count("FLAGS_data_dir"))
      << "the image must keep maps by default";
  const std::string volume = FreshDir("gs-volume");
  env["FLAGS_data_dir"] = volume;
  env["FLAGS_preload"] = absl::StrCat("dungeon=", SamplePath("dungeon.map"));
  // The container's ports are the test's free ones (ServerProcess's flags
  // win over the environment, as a command line does).
  std::string prefix = "env";
  for (const auto& [k, v] : env) {
    if (absl::StartsWith(k, "FLAGS_")) prefix += absl::StrCat(" ", k, "=", v);
  }
  for (const auto& [k, v] : env) setenv(k.c_str(), v.c_str(), 1);
  v1::MapInfo updated;
  {
    ServerProcess server;
    ASSERT_TRUE(server.started()) << prefix;
    ASSERT_TRUE(BlockOneCell(server.stub(), "dungeon", &updated).ok());
    EXPECT_EQ(updated.version(), 2u);
    EXPECT_EQ(server.SignalAndWait(SIGTERM), 0);
  }
  ServerProcess server;
  for (const auto& [k, v] : env) unsetenv(k.c_str());
  ASSERT_TRUE(server.started()) << prefix;
  const v1::MapInfo after = InfoOf(server.stub(), "dungeon");
  EXPECT_EQ(after.version(), 2u);
  EXPECT_EQ(after.passable_cells(), updated.passable_cells());
}

}  // namespace
}  // namespace gridstar
