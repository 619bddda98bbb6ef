// Scale-out behind a real load balancer, on loopback: three gridstar-server
// replicas with their own data directories behind nginx running
// deploy/nginx/nginx.conf (replica addresses and listen port substituted),
// driven through gridstar::Client, which names each call's map in the
// x-gridstar-map header and re-registers remembered maps on NOT_FOUND.
#include <sys/stat.h>

#include <algorithm>
#include <atomic>
#include <cstdlib>
#include <map>
#include <mutex>
#include <regex>
#include <set>
#include <string>
#include <thread>
#include <vector>

#include "absl/strings/str_cat.h"
#include "absl/time/clock.h"
#include "client.h"
#include "gridstar/find_path.h"
#include "gridstar/map_io.h"
#include "gtest/gtest.h"
#include "server/server_process.h"
#include "testing/reference.h"

namespace gridstar {
namespace {

namespace v1 = ::gridstar::v1;
using testing::FreePort;
using testing::PortOpen;
using testing::ReadSample;
using testing::Scrape;
using testing::MetricValue;
using testing::ServerProcess;
using testing::WaitFor;

std::string Nginx() {
  for (const char* path : {"/usr/sbin/nginx", "/usr/bin/nginx"}) {
    if (access(path, X_OK) == 0) return path;
  }
  return "";
}

// nginx as a child process, in the foreground.
class NginxProcess {
 public:
  NginxProcess(const std::string& binary, const std::string& dir,
               const std::string& conf) {
    pid_ = fork();
    if (pid_ == 0) {
      execl(binary.c_str(), binary.c_str(), "-p", dir.c_str(), "-c",
            conf.c_str(), "-g", "daemon off;", static_cast<char*>(nullptr));
      _exit(127);
    }
  }
  ~NginxProcess() {
    kill(pid_, SIGQUIT);
    waitpid(pid_, nullptr, 0);
  }

 private:
  pid_t pid_;
};

// The value of a metric line starting with `prefix` in a /metrics page.
std::vector<std::string> MapsOf(ServerProcess& replica) {
  grpc::ClientContext ctx;
  ctx.set_deadline(std::chrono::system_clock::now() + std::chrono::seconds(120));
  v1::ListMapsResponse list;
  std::vector<std::string> ids;
  if (!replica.stub().ListMaps(&ctx, {}, &list).ok()) return ids;
  for (const v1::MapInfo& m : list.maps()) ids.push_back(m.id());
  return ids;
}

TEST(ScaleOutTest, MapsStickToOneReplicaAndHealAfterAKill) {
  const std::string nginx = Nginx();
  if (nginx.empty()) {
    if (std::getenv("CI") != nullptr) {
      FAIL() << "nginx is not installed (scripts/install-deps.sh --test), and "
                "CI is set";
    }
    GTEST_SKIP()
        << "nginx is not installed: run scripts/install-deps.sh --test";
  }
  const std::string dir =
      absl::StrCat(::testing::TempDir(), "/scaleout.", getpid());
  ASSERT_EQ(
      std::system(absl::StrCat("rm -rf ", dir, " && mkdir -p ", dir).c_str()),
      0);
  chmod(dir.c_str(), 0755);  // nginx's workers run as another user.

  constexpr int kReplicas = 3;
  int ports[kReplicas] = {0, 0, 0};
  std::unique_ptr<ServerProcess> replicas[kReplicas];
  // A replica's first start picks its own port (a port chosen beforehand
  // may be taken by a parallel test before the server binds it); a
  // restart takes the port nginx was given.
  auto start = [&](int i) {
    std::vector<std::string> flags = {
        absl::StrCat("--data_dir=", dir, "/data", i), "--workers=1"};
    if (ports[i] != 0) flags.push_back(absl::StrCat("--port=", ports[i]));
    replicas[i] = std::make_unique<ServerProcess>(flags);
  };
  for (int i = 0; i < kReplicas; ++i) {
    ASSERT_EQ(std::system(absl::StrCat("mkdir -p ", dir, "/data", i).c_str()),
              0);
    start(i);
    ASSERT_TRUE(replicas[i]->started());
    ports[i] = replicas[i]->port();
  }

  // deploy/nginx/nginx.conf with this test's ports and paths.
  std::string conf = ReadSample("../../deploy/nginx/nginx.conf");
  ASSERT_FALSE(conf.empty());
  const int lb_port = FreePort();
  int next = 0;
  std::string rendered;
  std::istringstream lines(conf);
  std::string line;
  const std::regex server_line(R"(^(\s*server\s+)127\.0\.0\.1:\d+(.*)$)");
  while (std::getline(lines, line)) {
    std::smatch m;
    if (std::regex_match(line, m, server_line)) {
      line = absl::StrCat(m[1].str(), "127.0.0.1:", ports[next++], m[2].str());
    }
    line = std::regex_replace(line, std::regex(R"(listen 127\.0\.0\.1:\d+)"),
                              absl::StrCat("listen 127.0.0.1:", lb_port));
    line = std::regex_replace(line, std::regex(R"(/tmp/gridstar-nginx)"),
                              absl::StrCat(dir, "/nginx"));
    rendered += line + "\n";
  }
  ASSERT_EQ(next, kReplicas)
      << "deploy/nginx/nginx.conf should list 3 replicas";
  const std::string conf_path = absl::StrCat(dir, "/nginx.conf");
  std::ofstream(conf_path) << rendered;
  NginxProcess proxy(nginx, dir, conf_path);
  // Up to five minutes (the bound only ends a wait for an nginx that died):
  // a loaded machine never turns a slow start into the verdict.
  for (int i = 0; i < 15000 && !PortOpen(lb_port); ++i) {
    std::this_thread::sleep_for(std::chrono::milliseconds(20));
  }
  ASSERT_TRUE(PortOpen(lb_port)) << "nginx did not start";

  ClientOptions options;
  options.deadline = absl::Seconds(120);  // Generous: never the verdict.
  Client client(absl::StrCat("127.0.0.1:", lb_port), options);
  const std::string dungeon = ReadSample("dungeon.map");
  const GridMap map = *ParseMovingAiMap(dungeon);
  const auto [s, g] = testing::FarConnectedPair(map);
  SearchContext context;
  PathQuery q;
  q.start = s;
  q.goal = g;
  const double optimal = FindPath(map, q, context)->cost;

  constexpr int kMaps = 12, kQueries = 10;
  std::vector<std::string> ids;
  for (int m = 0; m < kMaps; ++m) {
    ids.push_back(absl::StrCat("map", m));
    v1::RegisterMapRequest r;
    r.set_id(ids.back());
    r.set_movingai(dungeon);
    ASSERT_TRUE(client.RegisterMap(r).ok()) << ids.back();
  }
  auto path = [&](const std::string& id) {
    v1::PathRequest r;
    r.set_map_id(id);
    r.mutable_start()->set_x(s.x);
    r.mutable_start()->set_y(s.y);
    r.mutable_goal()->set_x(g.x);
    r.mutable_goal()->set_y(g.y);
    return client.FindPath(r);
  };
  for (const std::string& id : ids) {
    for (int k = 0; k < kQueries; ++k) {
      absl::StatusOr<v1::PathResponse> out = path(id);
      ASSERT_TRUE(out.ok()) << id << ": " << out.status();
      EXPECT_NEAR(out->cost(), optimal, 1e-9);
    }
  }
  // Each map lives on exactly one replica, and that replica answered all of
  // its queries (read from its own /metrics): nothing was re-registered.
  std::map<std::string, int> home;
  for (int i = 0; i < kReplicas; ++i) {
    const std::vector<std::string> held = MapsOf(*replicas[i]);
    for (const std::string& id : held) {
      EXPECT_EQ(home.count(id), 0u) << id << " is on two replicas";
      home[id] = i;
    }
    const std::string page = Scrape(replicas[i]->metrics_port());
    EXPECT_EQ(
        MetricValue(
            page, "gridstar_requests_total{code=\"OK\",method=\"FindPath\"} "),
        static_cast<double>(kQueries * held.size()))
        << "replica " << i << " holds " << held.size() << " maps";
    std::printf("replica %d holds %zu maps\n", i, held.size());
  }
  EXPECT_EQ(home.size(), static_cast<size_t>(kMaps));
  EXPECT_EQ(client.reregistrations(), 0u);

  // Kill -9 the replica holding the most maps while two threads query every
  // map through nginx.
  int victim = 0;
  std::map<int, int> count;
  for (const auto& [id, i] : home) ++count[i];
  for (const auto& [i, n] : count) {
    if (n > count[victim]) victim = i;
  }
  std::atomic<bool> stop{false}, killed{false};
  std::atomic<int> ok_before{0}, ok_after{0}, failed{0};
  std::mutex mu;
  std::set<std::string> healed_maps;
  std::vector<std::string> failures;
  std::vector<std::thread> load;
  for (int t = 0; t < 2; ++t) {
    load.emplace_back([&, t] {
      for (int n = t; !stop.load(); ++n) {
        const std::string& id = ids[static_cast<size_t>(n) % ids.size()];
        const bool after = killed.load();
        absl::StatusOr<v1::PathResponse> out = path(id);
        std::lock_guard<std::mutex> lock(mu);
        if (!out.ok() || std::abs(out->cost() - optimal) > 1e-9) {
          ++failed;
          failures.push_back(absl::StrCat(id, ": ", out.status().ToString()));
        } else if (after) {
          ++ok_after;
          if (home[id] == victim) healed_maps.insert(id);
        } else {
          ++ok_before;
        }
      }
    });
  }
  // The load is running before the kill, and after it runs until every map
  // of the dead replica was served again and plenty of calls succeeded:
  // conditions, not sleeps, end each phase.
  EXPECT_TRUE(WaitFor([&] { return ok_before.load() >= 50; }));
  replicas[victim]->Kill9();
  killed.store(true);
  EXPECT_TRUE(WaitFor([&] {
    std::lock_guard<std::mutex> lock(mu);
    return ok_after.load() > 100 &&
           healed_maps.size() == static_cast<size_t>(count[victim]);
  }));
  stop.store(true);
  for (std::thread& t : load) t.join();
  std::printf(
      "kill -9 of replica %d (%d maps): %d calls ok before, %d after, %d "
      "failed, "
      "%llu maps re-registered by the client\n",
      victim, count[victim], ok_before.load(), ok_after.load(), failed.load(),
      static_cast<unsigned long long>(client.reregistrations()));
  for (const std::string& f : failures)
    std::printf("  failed: %s\n", f.c_str());
  // Only calls in flight at the kill may fail: one per load thread.
  EXPECT_LE(failed.load(), 2);
  EXPECT_GT(ok_after.load(), 100);
  // Every map of the dead replica was served again, from another replica.
  EXPECT_EQ(healed_maps.size(), static_cast<size_t>(count[victim]));
  EXPECT_GE(client.reregistrations(), static_cast<uint64_t>(count[victim]));

  // Restarted on its port and data directory, it holds its maps again.
  start(victim);
  ASSERT_TRUE(replicas[victim]->started());
  std::vector<std::string> back = MapsOf(*replicas[victim]);
  std::vector<std::string> want;
  for (const auto& [id, i] : home) {
    if (i == victim) want.push_back(id);
  }
  std::sort(back.begin(), back.end());
  EXPECT_EQ(back, want);
}

}  // namespace
}  // namespace gridstar
