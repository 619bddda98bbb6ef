// Redis that fails over: a master (append-only, fsync always), two replicas
// and three Redis Sentinels on loopback; two gridstar replicas on
// --store=redis-sentinel://... with --store_min_replicas=1. An update storm
// runs through both; the master is killed -9 in the middle. Updates resume on
// the promoted master, nothing acknowledged is lost, and both gridstar
// replicas converge to the same version and cells. The time from the kill
// to the first accepted update is printed (a figure, not a verdict).
#include <signal.h>
#include <sys/wait.h>
#include <unistd.h>

#include <atomic>
#include <chrono>
#include <cstdio>
#include <fstream>
#include <memory>
#include <mutex>
#include <set>
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

constexpr int kSide = 64;

// redis-sentinel (Debian's package; else redis-server --sentinel) on a free
// port watching the master `master_port` as "mymaster".
class SentinelProcess {
 public:
  SentinelProcess(const std::string& dir, int master_port)
      : port_(testing::FreePort()) {
    const std::string conf = absl::StrCat(dir, "/sentinel.", port_, ".conf");
    std::ofstream(conf) << "port " << port_ << "\nbind 127.0.0.1\n"
                        << "sentinel monitor mymaster 127.0.0.1 " << master_port
                        << " 2\n"
                        << "sentinel down-after-milliseconds mymaster 1000\n"
                        << "sentinel failover-timeout mymaster 10000\n"
                        << "sentinel parallel-syncs mymaster 1\n";
    const std::string binary = testing::RedisServerBinary();
    log_ = absl::StrCat(dir, "/sentinel.", port_, ".log");
    pid_ = fork();
    if (pid_ == 0) {
      if (std::freopen(log_.c_str(), "w", stdout) == nullptr) _exit(126);
      execl(binary.c_str(), binary.c_str(), conf.c_str(), "--sentinel",
            static_cast<char*>(nullptr));
      _exit(127);
    }
  }
  ~SentinelProcess() {
    if (pid_ > 0) {
      kill(pid_, SIGKILL);
      waitpid(pid_, nullptr, 0);
    }
  }
  int port() const { return port_; }
  const std::string& log() const { return log_; }

 private:
  int port_;
  std::string log_;
  pid_t pid_ = -1;
};

// Polls `done` every 20 ms up to five minutes (the bound only ends a wait
// for something that never happens).
template <typename F>
bool Eventually(F done) {
  for (int i = 0; i < 15000; ++i) {
    if (done()) return true;
    std::this_thread::sleep_for(std::chrono::milliseconds(20));
  }
  return false;
}

grpc::Status SetCell(ServerProcess& server, int index, v1::MapInfo* info) {
  v1::UpdateCellsRequest u;
  u.set_id("m");
  v1::CellUpdate* c = u.add_cells();
  c->mutable_cell()->set_x(index % kSide);
  c->mutable_cell()->set_y(index / kSide);
  c->set_cost(2);
  grpc::ClientContext ctx;
  SetDeadline(&ctx);
  return server.stub().UpdateCells(&ctx, u, info);
}

TEST(ServerSentinelTest, KilledMasterFailsOverAndNothingAcknowledgedIsLost) {
  const std::string dir =
      absl::StrCat(::testing::TempDir(), "/sentinel.", getpid());
  ASSERT_EQ(
      std::system(absl::StrCat("rm -rf ", dir, " && mkdir -p ", dir).c_str()),
      0);
  auto master = std::make_unique<RedisProcess>(
      0,
      std::vector<std::string>{"--appendonly", "yes", "--appendfsync", "always",
                               "--dir", dir, "--appendfilename", "master.aof"});
  GRIDSTAR_REQUIRE_REDIS(*master);
  const std::string master_port = absl::StrCat(master->port());
  RedisProcess replica1(0, {"--replicaof", "127.0.0.1", master_port});
  RedisProcess replica2(0, {"--replicaof", "127.0.0.1", master_port});
  ASSERT_TRUE(Eventually([&] {
    RedisRaw raw(master->port());
    return absl::StrContains(raw.Text({"INFO", "replication"}),
                             "connected_slaves:2");
  }));
  std::vector<std::unique_ptr<SentinelProcess>> sentinels;
  std::string store = "--store=redis-sentinel://";
  for (int i = 0; i < 3; ++i) {
    sentinels.push_back(std::make_unique<SentinelProcess>(dir, master->port()));
    absl::StrAppend(&store, i ? "," : "",
                    "127.0.0.1:", sentinels.back()->port());
  }
  absl::StrAppend(&store, "/mymaster");
  // Every sentinel has found both replicas and the others.
  for (const auto& s : sentinels) {
    ASSERT_TRUE(Eventually([&] {
      RedisRaw raw(s->port());  // Anew each time: it may not listen yet.
      const std::string info = raw.Text({"SENTINEL", "MASTER", "mymaster"});
      return absl::StrContains(info, "num-slaves\n2") &&
             absl::StrContains(info, "num-other-sentinels\n2");
    }));
  }
  const std::vector<std::string> flags = {store, "--store_min_replicas=1",
                                          "--store_replica_timeout=5s"};
  ServerProcess a(flags), b(flags);
  ASSERT_TRUE(a.started() && b.started());
  {
    v1::RegisterMapRequest r;
    r.set_id("m");
    r.set_raw(std::string(kSide * kSide, '\1'));
    r.set_width(kSide);
    r.set_height(kSide);
    grpc::ClientContext ctx;
    SetDeadline(&ctx);
    v1::MapInfo info;
    ASSERT_TRUE(a.stub().RegisterMap(&ctx, r, &info).ok());
  }
  // The storm: each thread sets its own cells through its own replica.
  std::mutex mu;
  std::set<int> acked;
  std::atomic<bool> stop{false}, killed{false};
  std::atomic<int> after_kill{0};
  std::chrono::steady_clock::time_point kill_time, first_after;
  std::atomic<int> failed{0};
  std::string last_error;
  auto storm = [&](ServerProcess& server, int first) {
    // A cell is retried until its update is acknowledged: the cells must
    // not run out while the store fails over.
    for (int i = first; i < kSide * kSide && !stop.load();) {
      // Only updates sent after the kill count towards the time to resume.
      const bool sent_after_kill = killed.load();
      v1::MapInfo info;
      const grpc::Status s = SetCell(server, i, &info);
      std::lock_guard<std::mutex> lock(mu);
      if (!s.ok()) {
        ++failed;
        last_error = s.error_message();
        continue;
      }
      acked.insert(i);
      i += 2;
      if (sent_after_kill && after_kill.fetch_add(1) == 0) {
        first_after = std::chrono::steady_clock::now();
      }
    }
  };
  std::thread ta(storm, std::ref(a), 0), tb(storm, std::ref(b), 1);
  ASSERT_TRUE(Eventually([&] {
    std::lock_guard<std::mutex> lock(mu);
    return acked.size() >= 40;
  }));
  kill_time = std::chrono::steady_clock::now();
  killed.store(true);
  master->Stop();  // SIGKILL.
  // Updates resume on the promoted master.
  const bool resumed = Eventually([&] { return after_kill.load() >= 40; });
  stop.store(true);
  ta.join();
  tb.join();
  if (!resumed) {
    for (const auto& s : sentinels) {
      std::ifstream in(s->log());
      std::string line;
      while (std::getline(in, line))
        std::fprintf(stderr, "sentinel %d: %s\n", s->port(), line.c_str());
    }
  }
  ASSERT_TRUE(resumed) << failed.load()
                       << " updates failed, the last with: " << last_error;
  std::printf(
      "sentinel failover: first update accepted %.2f s after kill -9 of the "
      "master; "
      "%zu updates acknowledged\n",
      std::chrono::duration<double>(first_after - kill_time).count(),
      acked.size());
  // Both replicas converge, and every acknowledged cell is set on both.
  v1::GetMapResponse got_a, got_b;
  ASSERT_TRUE(Eventually([&] {
    return GetMapWithCells(a.stub(), "m", &got_a).ok() &&
           GetMapWithCells(b.stub(), "m", &got_b).ok() &&
           got_a.info().version() == got_b.info().version() &&
           got_a.raw() == got_b.raw();
  }));
  size_t lost = 0;
  for (int i : acked) lost += static_cast<uint8_t>(got_a.raw()[i]) != 2;
  EXPECT_EQ(lost, 0u) << "of " << acked.size() << " acknowledged updates";
  EXPECT_GE(got_a.info().version(), acked.size() + 1);
}

}  // namespace
}  // namespace gridstar
