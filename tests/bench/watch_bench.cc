// watch-bench: WatchPaths under a changing world (tests/bench/watch_bench.sh
// runs it against a real server on the big world).
//
// Adds --agents agents on one stream (random starts, goals at most
// --max_distance cells away in the same component), waits for their paths,
// then sends --updates one-cell UpdateCells at --rate per second, each
// blocking a cell on some agent's current path ("near their paths"). Prints:
//   - update-to-push latency of every push (UpdateCells sent -> push read by
//     the client), p50 / p99 / max, and the yardstick measured in the same
//     run: a FindPath of the same agents' kind (mean, p99);
//   - per update: agents whose current path (as the client last heard it)
//     crosses the changed cell, counted by brute force here, and pushes
//     received for that version (replans), with their ratio;
//   - memory per watched agent (gridstar_watch_memory_bytes /
//     gridstar_watch_agents from --metrics).
#include <algorithm>
#include <atomic>
#include <chrono>
#include <cmath>
#include <condition_variable>
#include <cstdio>
#include <map>
#include <memory>
#include <mutex>
#include <random>
#include <string>
#include <thread>
#include <vector>

#include "absl/flags/flag.h"
#include "absl/flags/parse.h"
#include "absl/strings/str_cat.h"
#include "absl/strings/str_format.h"
#include "gridstar/find_path.h"
#include "gridstar/grid_map.h"
#include "gridstar/v1/gridstar.grpc.pb.h"
#include "grpcpp/grpcpp.h"

ABSL_FLAG(std::string, target, "127.0.0.1:50051", "Server address");
ABSL_FLAG(std::string, map, "world", "Registered map id");
ABSL_FLAG(int, agents, 10000, "Watched agents");
ABSL_FLAG(int, updates, 300, "One-cell updates");
ABSL_FLAG(double, rate, 10, "Updates per second");
ABSL_FLAG(int, max_distance, 256, "Most cells between an agent and its goal");
ABSL_FLAG(std::string, algo, "astar", "astar, jps or auto");
ABSL_FLAG(std::string, metrics, "", "host:port of the server's /metrics");
ABSL_FLAG(uint32_t, seed, 1, "Random seed");

namespace gridstar::bench {
namespace {

namespace v1 = ::gridstar::v1;
using Clock = std::chrono::steady_clock;

double Ms(Clock::duration d) {
  return std::chrono::duration<double, std::milli>(d).count();
}

double Percentile(std::vector<double> v, double p) {
  if (v.empty()) return 0;
  std::sort(v.begin(), v.end());
  return v[std::min(v.size() - 1, static_cast<size_t>(p * v.size()))];
}

std::vector<Cell> Unpack(const google::protobuf::RepeatedField<int32_t>& p) {
  std::vector<Cell> out;
  for (int i = 0; i + 1 < p.size(); i += 2) out.push_back({p[i], p[i + 1]});
  return out;
}

bool Touches(const std::vector<Cell>& path, Cell c) {
  for (size_t i = 0; i < path.size(); ++i) {
    if (path[i] == c) return true;
    if (i + 1 < path.size()) {
      const int dx = path[i + 1].x - path[i].x;
      const int dy = path[i + 1].y - path[i].y;
      if (dx != 0 && dy != 0 &&
          (Cell{path[i].x + dx, path[i].y} == c ||
           Cell{path[i].x, path[i].y + dy} == c)) {
        return true;
      }
    }
  }
  return false;
}

std::string ScrapeMetrics(const std::string& hostport) {
  if (hostport.empty()) return "";
  const std::string cmd = absl::StrCat(
      "python3 -c 'import urllib.request; print(urllib.request.urlopen("
      "\"http://",
      hostport, "/metrics\").read().decode())'");
  std::string out;
  if (FILE* f = popen(cmd.c_str(), "r")) {
    char buf[4096];
    size_t n;
    while ((n = fread(buf, 1, sizeof buf, f)) > 0) out.append(buf, n);
    pclose(f);
  }
  return out;
}

double MetricValue(const std::string& page, const std::string& name) {
  const size_t at = page.find("\n" + name + " ");
  if (at == std::string::npos) return -1;
  return std::stod(page.substr(at + name.size() + 2));
}

int Run() {
  grpc::ChannelArguments args;
  args.SetMaxReceiveMessageSize(-1);
  auto channel = grpc::CreateCustomChannel(absl::GetFlag(FLAGS_target),
                                           grpc::InsecureChannelCredentials(),
                                           args);
  auto stub = v1::Pathfinding::NewStub(channel);
  const std::string map_id = absl::GetFlag(FLAGS_map);
  v1::GetMapRequest get;
  get.set_id(map_id);
  get.set_include_cells(true);
  v1::GetMapResponse got;
  {
    grpc::ClientContext ctx;
    grpc::Status s = stub->GetMap(&ctx, get, &got);
    if (!s.ok()) {
      std::fprintf(stderr, "GetMap: %s\n", s.error_message().c_str());
      return 1;
    }
  }
  const int32_t w = got.info().width(), h = got.info().height();
  std::vector<uint8_t> costs(got.raw().begin(), got.raw().end());
  absl::StatusOr<GridMap> map = GridMap::FromCosts(w, h, costs);
  if (!map.ok()) return 1;
  uint64_t version = got.info().version();

  std::mt19937 rng(absl::GetFlag(FLAGS_seed));
  auto passable = [&](int32_t x0, int32_t y0, int32_t x1, int32_t y1) {
    for (int tries = 0; tries < 1000; ++tries) {
      Cell c{x0 + static_cast<int32_t>(rng() % (x1 - x0)),
             y0 + static_cast<int32_t>(rng() % (y1 - y0))};
      if (map->Passable(c)) return c;
    }
    return Cell{-1, -1};
  };
  const int agents = absl::GetFlag(FLAGS_agents);
  const int d = absl::GetFlag(FLAGS_max_distance);
  v1::Algorithm algo = v1::ALGORITHM_ASTAR;
  if (absl::GetFlag(FLAGS_algo) == "jps") algo = v1::ALGORITHM_JPS;
  if (absl::GetFlag(FLAGS_algo) == "auto") algo = v1::ALGORITHM_AUTO;
  std::vector<std::pair<Cell, Cell>> ends;
  while (static_cast<int>(ends.size()) < agents) {
    const Cell s = passable(0, 0, w, h);
    if (s.x < 0) continue;
    const Cell g = passable(std::max(0, s.x - d), std::max(0, s.y - d),
                            std::min(w, s.x + d + 1), std::min(h, s.y + d + 1));
    if (g.x < 0 || g == s || map->component(s) != map->component(g)) continue;
    ends.push_back({s, g});
  }

  // Yardstick: plain FindPath calls for 200 of the same pairs.
  std::vector<double> find_ms;
  for (int i = 0; i < 200; ++i) {
    v1::PathRequest r;
    r.set_map_id(map_id);
    r.mutable_start()->set_x(ends[i].first.x);
    r.mutable_start()->set_y(ends[i].first.y);
    r.mutable_goal()->set_x(ends[i].second.x);
    r.mutable_goal()->set_y(ends[i].second.y);
    r.set_algorithm(algo);
    v1::PathResponse out;
    grpc::ClientContext ctx;
    const auto t0 = Clock::now();
    if (stub->FindPath(&ctx, r, &out).ok()) find_ms.push_back(Ms(Clock::now() - t0));
  }

  grpc::ClientContext watch_ctx;
  auto stream = stub->WatchPaths(&watch_ctx);
  std::mutex mu;
  std::condition_variable cv;
  std::map<uint64_t, std::vector<Cell>> paths;     // Agent -> latest path.
  std::map<uint64_t, Clock::time_point> sent_at;   // Version -> update sent.
  std::map<uint64_t, int> pushes_of;               // Version -> pushes.
  std::vector<double> latency_ms;
  int answers = 0, failed = 0, push_errors = 0;
  Clock::time_point last_event = Clock::now();
  std::thread reader([&] {
    v1::WatchEvent e;
    while (stream->Read(&e)) {
      const auto now = Clock::now();
      std::lock_guard<std::mutex> lock(mu);
      last_event = now;
      if (e.request_id() != 0) {
        ++answers;
        if (e.code() != 0) ++failed;
      } else {
        if (e.code() != 0) ++push_errors;
        ++pushes_of[e.map_version()];
        auto it = sent_at.find(e.map_version());
        if (it != sent_at.end()) latency_ms.push_back(Ms(now - it->second));
      }
      if (e.code() == 0 && !e.path().partial()) {
        paths[e.agent_id()] = Unpack(e.path().cells());
      }
      cv.notify_all();
    }
  });
  const auto add0 = Clock::now();
  for (int a = 0; a < agents; ++a) {
    v1::WatchRequest r;
    r.set_request_id(a + 1);
    r.set_agent_id(a + 1);
    r.set_action(v1::WATCH_ACTION_ADD);
    r.mutable_path()->set_map_id(map_id);
    r.mutable_path()->mutable_start()->set_x(ends[a].first.x);
    r.mutable_path()->mutable_start()->set_y(ends[a].first.y);
    r.mutable_path()->mutable_goal()->set_x(ends[a].second.x);
    r.mutable_path()->mutable_goal()->set_y(ends[a].second.y);
    r.mutable_path()->set_algorithm(algo);
    if (!stream->Write(r)) break;
  }
  {
    std::unique_lock<std::mutex> lock(mu);
    cv.wait(lock, [&] { return answers >= agents; });
  }
  const double add_s = Ms(Clock::now() - add0) / 1000;
  size_t total_cells = 0;
  for (const auto& [a, p] : paths) total_cells += p.size();
  std::printf("watch: agents=%d paths=%zu failed=%d mean_path_cells=%.0f "
              "add_all_s=%.1f\n",
              agents, paths.size(), failed,
              double(total_cells) / std::max<size_t>(1, paths.size()), add_s);
  const std::string page0 = ScrapeMetrics(absl::GetFlag(FLAGS_metrics));
  const double bytes = MetricValue(page0, "gridstar_watch_memory_bytes");
  const double watched = MetricValue(page0, "gridstar_watch_agents");
  if (bytes >= 0 && watched > 0) {
    std::printf("watch: memory_bytes=%.0f per_agent_bytes=%.0f\n", bytes,
                bytes / watched);
  }

  // The updates: each blocks a cell in the middle part of an agent's path.
  const int updates = absl::GetFlag(FLAGS_updates);
  const auto period = std::chrono::duration_cast<Clock::duration>(
      std::chrono::duration<double>(1.0 / absl::GetFlag(FLAGS_rate)));
  std::vector<int> crossing_of(updates);
  std::vector<uint64_t> version_of(updates);
  auto next = Clock::now();
  for (int u = 0; u < updates; ++u) {
    std::this_thread::sleep_until(next);
    next += period;
    Cell wall{-1, -1};
    int crossing = 0;
    {
      std::lock_guard<std::mutex> lock(mu);
      while (wall.x < 0) {
        auto it = std::next(paths.begin(), rng() % paths.size());
        const std::vector<Cell>& p = it->second;
        if (p.size() < 5) continue;
        wall = p[1 + rng() % (p.size() - 3)];
      }
      for (const auto& [a, p] : paths) crossing += Touches(p, wall);
      sent_at[version + 1] = Clock::now();
    }
    crossing_of[u] = crossing;
    version_of[u] = version + 1;
    v1::UpdateCellsRequest req;
    req.set_id(map_id);
    req.set_expected_version(version);
    v1::CellUpdate* c = req.add_cells();
    c->mutable_cell()->set_x(wall.x);
    c->mutable_cell()->set_y(wall.y);
    c->set_cost(0);
    v1::MapInfo info;
    grpc::ClientContext ctx;
    grpc::Status s = stub->UpdateCells(&ctx, req, &info);
    if (!s.ok()) {
      std::fprintf(stderr, "UpdateCells: %s\n", s.error_message().c_str());
      return 1;
    }
    version = info.version();
  }
  // Quiet for 3 s: every push has come.
  while (true) {
    std::this_thread::sleep_for(std::chrono::milliseconds(200));
    std::lock_guard<std::mutex> lock(mu);
    if (Clock::now() - last_event > std::chrono::seconds(3)) break;
  }
  std::lock_guard<std::mutex> lock(mu);
  double crossing_sum = 0, push_sum = 0;
  int pushes_max = 0;
  for (int u = 0; u < updates; ++u) {
    crossing_sum += crossing_of[u];
    push_sum += pushes_of[version_of[u]];
    pushes_max = std::max(pushes_max, pushes_of[version_of[u]]);
  }
  std::printf(
      "watch: updates=%d rate=%.0f/s crossing_per_update=%.2f "
      "pushes_per_update=%.2f (max %d) pushes/crossing=%.3f push_errors=%d\n",
      updates, absl::GetFlag(FLAGS_rate), crossing_sum / updates,
      push_sum / updates, pushes_max,
      crossing_sum > 0 ? push_sum / crossing_sum : 0, push_errors);
  std::printf(
      "watch: update_to_push_ms p50=%.2f p99=%.2f max=%.2f (n=%zu); "
      "yardstick FindPath_ms mean=%.2f p99=%.2f\n",
      Percentile(latency_ms, 0.5), Percentile(latency_ms, 0.99),
      Percentile(latency_ms, 1.0), latency_ms.size(),
      [&] {
        double t = 0;
        for (double v : find_ms) t += v;
        return find_ms.empty() ? 0 : t / find_ms.size();
      }(),
      Percentile(find_ms, 0.99));
  const std::string page1 = ScrapeMetrics(absl::GetFlag(FLAGS_metrics));
  std::printf("watch: incremental_repairs=%.0f dstar_memory_bytes=%.0f\n",
              MetricValue(page1, "gridstar_watch_incremental_total"),
              MetricValue(page1, "gridstar_watch_dstar_memory_bytes"));
  stream->WritesDone();
  watch_ctx.TryCancel();
  reader.detach();  // Ends with the process.
  return 0;
}

}  // namespace
}  // namespace gridstar::bench

int main(int argc, char** argv) {
  absl::ParseCommandLine(argc, argv);
  return gridstar::bench::Run();
}
