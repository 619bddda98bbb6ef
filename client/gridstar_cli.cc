// gridstar: command-line client of gridstar-server.
//   gridstar maps | health
//   gridstar register --id ID [--replace] [--landmarks K] FILE
//   gridstar delete ID
//   gridstar update ID X Y COST [X Y COST ...]
//   gridstar group ID GX GY SX SY [SX SY ...] [--method M]
//   gridstar flow ID GX GY [--max_cost C]
//   gridstar path ID SX SY GX GY [--algo A] [--diagonal P] [--smooth] ...
//   gridstar scen --map ID SCEN [--batch N] [--concurrency C]
//   gridstar load --map ID SCEN --concurrency C --duration S [--batch N]
//                 [--rps R] [--stream]
#include <algorithm>
#include <atomic>
#include <chrono>
#include <condition_variable>
#include <cstdio>
#include <mutex>
#include <string>
#include <thread>
#include <vector>

#include "absl/flags/flag.h"
#include "absl/flags/parse.h"
#include "absl/flags/usage.h"
#include "absl/strings/numbers.h"
#include "absl/strings/str_cat.h"
#include "absl/strings/str_format.h"
#include "absl/time/clock.h"
#include "client.h"
#include "gridstar/map_io.h"
#include "gridstar/scenario.h"
#include "gridstar/types.h"

ABSL_FLAG(std::string, server, "localhost:50051", "Server address host:port");
ABSL_FLAG(absl::Duration, deadline, absl::Seconds(10), "Deadline of each call");
ABSL_FLAG(std::string, id, "", "register: the map id");
ABSL_FLAG(bool, replace, false, "register: replace other content under the id");
ABSL_FLAG(std::string, map, "", "scen, load: the registered map id to query");
ABSL_FLAG(std::string, algo, "auto",
          "auto, astar, jps, jps+, weighted, dijkstra or baseline");
ABSL_FLAG(int, landmarks, 0,
          "register: landmarks for the differential heuristic (0 to 32), built "
          "for the map's default policy");
ABSL_FLAG(std::string, method, "auto", "group: auto, splice or flow_field");
ABSL_FLAG(double, max_cost, 0, "flow: leave out cells dearer than this (0 = none)");
ABSL_FLAG(bool, jump_table, true,
          "register: precompute jump distances for jps+ (16 bytes a cell; "
          "kept only on uniform-cost maps)");
ABSL_FLAG(std::string, diagonal, "", "never, no-corner-cutting, allow-corner-cutting "
          "(default: the map's)");
ABSL_FLAG(double, weight, 0, "Weight of --algo weighted (0 = server default 1.5)");
ABSL_FLAG(bool, smooth, false, "path: also return smoothed waypoints");
ABSL_FLAG(bool, allow_partial, false, "path: accept a partial path on budget");
ABSL_FLAG(uint64_t, max_expansions, 0, "path: expansion budget (0 = none)");
ABSL_FLAG(int, snap_radius, 0, "path: snap blocked ends within this radius");
ABSL_FLAG(int, batch, 1, "scen, load: queries per FindPaths call (1 = FindPath)");
ABSL_FLAG(int, concurrency, 1, "scen, load: client threads");
ABSL_FLAG(absl::Duration, duration, absl::Seconds(10), "load: how long to run");
ABSL_FLAG(double, rps, 0, "load: target queries per second in all (0 = as fast as possible)");
ABSL_FLAG(bool, stream, false,
          "load: send through one FindPathsStream per thread, keeping --batch "
          "requests in flight on each (latency per request)");
ABSL_FLAG(bool, compare, false,
          "group: also time one FindPath call per unit, one after another from "
          "this process, and print both wall times");
ABSL_FLAG(bool, overhead, true,
          "group: also search each unit on its own and report the splicing overhead");

namespace gridstar {
namespace {

namespace v1 = ::gridstar::v1;

int Fail(const absl::Status& s) {
  std::fprintf(stderr, "gridstar: %s\n", s.ToString().c_str());
  return 1;
}

absl::StatusOr<v1::PathRequest> BaseRequest() {
  v1::PathRequest r;
  absl::StatusOr<Algorithm> a = ParseAlgorithm(absl::GetFlag(FLAGS_algo));
  if (!a.ok()) return a.status();
  r.set_algorithm(static_cast<v1::Algorithm>(static_cast<int>(*a) + 1));
  if (!absl::GetFlag(FLAGS_diagonal).empty()) {
    absl::StatusOr<DiagonalPolicy> p = ParseDiagonalPolicy(absl::GetFlag(FLAGS_diagonal));
    if (!p.ok()) return p.status();
    r.set_diagonal(static_cast<v1::DiagonalPolicy>(static_cast<int>(*p) + 1));
  }
  r.set_weight(absl::GetFlag(FLAGS_weight));
  r.set_smooth(absl::GetFlag(FLAGS_smooth));
  r.set_allow_partial(absl::GetFlag(FLAGS_allow_partial));
  r.set_max_expansions(absl::GetFlag(FLAGS_max_expansions));
  r.set_snap_radius(absl::GetFlag(FLAGS_snap_radius));
  return r;
}

void SetEnds(const ScenarioQuery& q, v1::PathRequest* r) {
  r->mutable_start()->set_x(q.start.x);
  r->mutable_start()->set_y(q.start.y);
  r->mutable_goal()->set_x(q.goal.x);
  r->mutable_goal()->set_y(q.goal.y);
}

double Percentile(std::vector<double>& v, double p) {
  if (v.empty()) return 0;
  const size_t k = std::min(v.size() - 1, static_cast<size_t>(p * static_cast<double>(v.size())));
  std::nth_element(v.begin(), v.begin() + static_cast<std::ptrdiff_t>(k), v.end());
  return v[k];
}

// Per-thread tallies of scen and load.
struct Tally {
  uint64_t queries = 0, mismatches = 0, errors = 0;
  std::vector<double> latencies_us;  // One per call.

  // Counts one answer to `q`: code is its google.rpc.Code, cost its length.
  void Check(const ScenarioQuery& q, int code, double cost) {
    ++queries;
    if (code != 0) {
      // A scenario's "no path" is answered FAILED_PRECONDITION.
      if (!(q.optimal < 0 && code == static_cast<int>(absl::StatusCode::kFailedPrecondition))) {
        ++errors;
      }
    } else if (!LengthMatches(cost, q.optimal)) {
      ++mismatches;
    }
  }

  void Add(const Tally& other) {
    queries += other.queries;
    mismatches += other.mismatches;
    errors += other.errors;
    latencies_us.insert(latencies_us.end(), other.latencies_us.begin(),
                        other.latencies_us.end());
  }
};

// Sends queries [begin, end) of `scen` (by --batch) and checks their lengths.
void RunQueries(Client& client, const std::string& map_id,
                const std::vector<ScenarioQuery>& scen, const v1::PathRequest& base,
                size_t begin, size_t end, size_t stride, Tally* t) {
  const size_t batch = static_cast<size_t>(std::max(1, absl::GetFlag(FLAGS_batch)));
  for (size_t i = begin; i < end; i += stride * batch) {
    const auto t0 = std::chrono::steady_clock::now();
    std::vector<size_t> items;
    for (size_t k = 0; k < batch && i + k * stride < end; ++k) items.push_back(i + k * stride);
    auto check = [&](size_t q, int code, double cost) { t->Check(scen[q], code, cost); };
    if (batch == 1) {
      v1::PathRequest r = base;
      r.set_map_id(map_id);
      SetEnds(scen[items[0]], &r);
      absl::StatusOr<v1::PathResponse> out = client.FindPath(r);
      check(items[0], static_cast<int>(out.status().code()), out.ok() ? out->cost() : 0);
    } else {
      v1::FindPathsRequest r;
      r.set_map_id(map_id);
      for (size_t q : items) SetEnds(scen[q], &(*r.add_items() = base));
      absl::StatusOr<v1::FindPathsResponse> out = client.FindPaths(r);
      for (size_t k = 0; k < items.size(); ++k) {
        if (!out.ok()) {
          check(items[k], static_cast<int>(out.status().code()), 0);
        } else {
          check(items[k], out->results(static_cast<int>(k)).code(),
                out->results(static_cast<int>(k)).path().cost());
        }
      }
    }
    t->latencies_us.push_back(std::chrono::duration<double, std::micro>(
                                  std::chrono::steady_clock::now() - t0)
                                  .count());
  }
}

absl::StatusOr<std::vector<ScenarioQuery>> LoadScen(const std::string& path) {
  absl::StatusOr<std::string> text = ReadFile(path, int64_t{1} << 30);
  if (!text.ok()) return text.status();
  return ParseScenario(*text);
}

int Scen(Client& client, const std::vector<std::string>& args) {
  if (args.size() != 1 || absl::GetFlag(FLAGS_map).empty()) {
    std::fprintf(stderr, "usage: gridstar scen --map ID SCEN [--batch N] [--concurrency C]\n");
    return 2;
  }
  absl::StatusOr<std::vector<ScenarioQuery>> scen = LoadScen(args[0]);
  if (!scen.ok()) return Fail(scen.status());
  absl::StatusOr<v1::PathRequest> base = BaseRequest();
  if (!base.ok()) return Fail(base.status());
  const int c = std::max(1, absl::GetFlag(FLAGS_concurrency));
  std::vector<Tally> tallies(static_cast<size_t>(c));
  const auto t0 = std::chrono::steady_clock::now();
  std::vector<std::thread> threads;
  for (int i = 0; i < c; ++i) {
    threads.emplace_back([&, i] {
      RunQueries(client, absl::GetFlag(FLAGS_map), *scen, *base, static_cast<size_t>(i),
                 scen->size(), static_cast<size_t>(c), &tallies[static_cast<size_t>(i)]);
    });
  }
  for (std::thread& t : threads) t.join();
  const double seconds =
      std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count();
  Tally all;
  for (const Tally& t : tallies) all.Add(t);
  std::printf("queries=%llu mismatches=%llu errors=%llu qps=%.0f p50_us=%.0f p99_us=%.0f\n",
              static_cast<unsigned long long>(all.queries),
              static_cast<unsigned long long>(all.mismatches),
              static_cast<unsigned long long>(all.errors), all.queries / seconds,
              Percentile(all.latencies_us, 0.5), Percentile(all.latencies_us, 0.99));
  return all.mismatches == 0 && all.errors == 0 ? 0 : 1;
}

// One thread of `load --stream`: opens a FindPathsStream and keeps up to
// --batch requests in flight on it until `end`, pacing sends to its share of
// --rps. A reader thread matches answers to their send times by request_id,
// so each latency is one request's, however the answers are ordered.
void StreamLoad(Client& client, const std::vector<ScenarioQuery>& scen,
                const v1::PathRequest& base, size_t next, int threads, absl::Time end,
                Tally* t, std::atomic<uint64_t>* done) {
  using Clock = std::chrono::steady_clock;
  const size_t window = static_cast<size_t>(std::max(1, absl::GetFlag(FLAGS_batch)));
  const double rps = absl::GetFlag(FLAGS_rps);
  grpc::ClientContext ctx;
  // Long enough for the run and for the last answers to drain.
  ctx.set_deadline(absl::ToChronoTime(end + client.options().deadline));
  ctx.AddMetadata(kMapHeader, absl::GetFlag(FLAGS_map));
  std::unique_ptr<grpc::ClientReaderWriter<v1::StreamPathRequest, v1::StreamPathResponse>>
      stream = client.stub().FindPathsStream(&ctx);

  std::mutex mu;
  std::condition_variable cv;
  size_t inflight = 0;
  // Send time and scenario index of every request, by request_id.
  std::vector<std::pair<Clock::time_point, size_t>> sent;
  uint64_t answered = 0;

  std::thread reader([&] {
    v1::StreamPathResponse answer;
    while (stream->Read(&answer)) {
      const Clock::time_point now = Clock::now();
      std::lock_guard<std::mutex> lock(mu);
      if (answer.request_id() >= sent.size()) {
        ++t->errors;  // An id never sent: a server bug.
        continue;
      }
      const auto& [at, q] = sent[answer.request_id()];
      t->Check(scen[q], answer.result().code(), answer.result().path().cost());
      t->latencies_us.push_back(std::chrono::duration<double, std::micro>(now - at).count());
      ++answered;
      done->fetch_add(1);
      --inflight;
      cv.notify_one();
    }
  });

  const double interval = rps > 0 ? threads / rps : 0;
  Clock::time_point due = Clock::now();
  v1::StreamPathRequest request;
  *request.mutable_request() = base;
  request.mutable_request()->set_map_id(absl::GetFlag(FLAGS_map));
  bool open = true;
  while (open && absl::Now() < end) {
    if (interval > 0) {
      std::this_thread::sleep_until(due);
      due += std::chrono::duration_cast<Clock::duration>(std::chrono::duration<double>(interval));
    }
    {
      std::unique_lock<std::mutex> lock(mu);
      // Re-checked at least every 100 ms so that the run ends on time.
      if (!cv.wait_for(lock, std::chrono::milliseconds(100), [&] { return inflight < window; })) {
        continue;
      }
      request.set_request_id(sent.size());
      sent.emplace_back(Clock::now(), next);
      ++inflight;
    }
    SetEnds(scen[next], request.mutable_request());
    next = (next + 1) % scen.size();
    open = stream->Write(request);
  }
  stream->WritesDone();
  reader.join();
  const grpc::Status status = stream->Finish();
  // Requests never answered (the stream broke) are errors too.
  std::lock_guard<std::mutex> lock(mu);
  t->errors += sent.size() - answered;
  if (!status.ok()) {
    std::fprintf(stderr, "gridstar load: stream ended with %d %s\n",
                 static_cast<int>(status.error_code()), status.error_message().c_str());
  }
}

int Load(Client& client, const std::vector<std::string>& args) {
  if (args.size() != 1 || absl::GetFlag(FLAGS_map).empty()) {
    std::fprintf(stderr,
                 "usage: gridstar load --map ID SCEN --concurrency C --duration S "
                 "[--batch N] [--rps R] [--stream]\n");
    return 2;
  }
  absl::StatusOr<std::vector<ScenarioQuery>> scen = LoadScen(args[0]);
  if (!scen.ok()) return Fail(scen.status());
  if (scen->empty()) return Fail(absl::InvalidArgumentError("the scenario is empty"));
  absl::StatusOr<v1::PathRequest> base = BaseRequest();
  if (!base.ok()) return Fail(base.status());
  const int c = std::max(1, absl::GetFlag(FLAGS_concurrency));
  const size_t batch = static_cast<size_t>(std::max(1, absl::GetFlag(FLAGS_batch)));
  const double rps = absl::GetFlag(FLAGS_rps);
  const absl::Time end = absl::Now() + absl::GetFlag(FLAGS_duration);
  std::vector<Tally> tallies(static_cast<size_t>(c));
  std::atomic<uint64_t> done{0};
  const auto t0 = std::chrono::steady_clock::now();
  std::vector<std::thread> threads;
  for (int i = 0; i < c; ++i) {
    if (absl::GetFlag(FLAGS_stream)) {
      threads.emplace_back([&, i] {
        StreamLoad(client, *scen, *base, static_cast<size_t>(i) * 7919 % scen->size(),
                   c, end, &tallies[static_cast<size_t>(i)], &done);
      });
      continue;
    }
    threads.emplace_back([&, i] {
      Tally& t = tallies[static_cast<size_t>(i)];
      size_t next = static_cast<size_t>(i) * 7919 % scen->size();
      // With --rps each thread paces its calls to its share of the rate.
      const double interval = rps > 0 ? c * static_cast<double>(batch) / rps : 0;
      auto due = std::chrono::steady_clock::now();
      while (absl::Now() < end) {
        if (interval > 0) {
          std::this_thread::sleep_until(due);
          due += std::chrono::duration_cast<std::chrono::steady_clock::duration>(
              std::chrono::duration<double>(interval));
        }
        const size_t first = next;
        next = (next + batch) % scen->size();
        Tally one;
        std::vector<ScenarioQuery> slice;
        for (size_t k = 0; k < batch; ++k) slice.push_back((*scen)[(first + k) % scen->size()]);
        RunQueries(client, absl::GetFlag(FLAGS_map), slice, *base, 0, slice.size(), 1, &one);
        t.Add(one);
        done.fetch_add(one.queries);
      }
    });
  }
  // A progress line every few seconds on long runs.
  std::thread progress([&] {
    while (absl::Now() + absl::Seconds(5) < end) {
      absl::SleepFor(absl::Seconds(5));
      std::fprintf(stderr, "gridstar load: %llu queries so far\n",
                   static_cast<unsigned long long>(done.load()));
    }
  });
  for (std::thread& t : threads) t.join();
  progress.join();
  const double seconds =
      std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count();
  Tally all;
  for (const Tally& t : tallies) all.Add(t);
  // Under load a wrong length counts as an error.
  all.errors += all.mismatches;
  std::printf(
      "requests=%llu errors=%llu qps=%.0f p50_us=%.0f p90_us=%.0f p99_us=%.0f "
      "p999_us=%.0f\n",
      static_cast<unsigned long long>(all.queries),
      static_cast<unsigned long long>(all.errors), all.queries / seconds,
      Percentile(all.latencies_us, 0.5), Percentile(all.latencies_us, 0.9),
      Percentile(all.latencies_us, 0.99), Percentile(all.latencies_us, 0.999));
  return all.errors == 0 ? 0 : 1;
}

int Run(const std::vector<std::string>& argv) {
  if (argv.empty()) {
    std::fprintf(stderr, "gridstar: give a command (see --help)\n");
    return 2;
  }
  ClientOptions options;
  options.deadline = absl::GetFlag(FLAGS_deadline);
  Client client(absl::GetFlag(FLAGS_server), options);
  const std::string& cmd = argv[0];
  const std::vector<std::string> args(argv.begin() + 1, argv.end());
  if (cmd == "health") {
    absl::Status s = client.Health();
    if (!s.ok()) return Fail(s);
    std::printf("SERVING\n");
    return 0;
  }
  if (cmd == "maps") {
    absl::StatusOr<v1::ListMapsResponse> list = client.ListMaps();
    if (!list.ok()) return Fail(list.status());
    for (const v1::MapInfo& m : list->maps()) {
      std::printf(
          "%s version=%llu size=%dx%d passable=%lld components=%u bytes=%llu "
          "jump_table_bytes=%llu\n",
          m.id().c_str(), static_cast<unsigned long long>(m.version()), m.width(),
          m.height(), static_cast<long long>(m.passable_cells()), m.components(),
          static_cast<unsigned long long>(m.memory_bytes()),
          static_cast<unsigned long long>(m.jump_table_bytes()));
    }
    return 0;
  }
  if (cmd == "register") {
    if (args.size() != 1 || absl::GetFlag(FLAGS_id).empty()) {
      std::fprintf(stderr, "usage: gridstar register --id ID [--replace] FILE\n");
      return 2;
    }
    absl::StatusOr<std::string> data = ReadFile(args[0], int64_t{1} << 30);
    if (!data.ok()) return Fail(data.status());
    v1::RegisterMapRequest r;
    r.set_id(absl::GetFlag(FLAGS_id));
    r.set_replace(absl::GetFlag(FLAGS_replace));
    r.set_jump_table(absl::GetFlag(FLAGS_jump_table));
    r.set_landmarks(absl::GetFlag(FLAGS_landmarks));
    if (data->rfind("P5", 0) == 0 || data->rfind("P2", 0) == 0) {
      r.set_pgm(*data);
    } else {
      r.set_movingai(*data);
    }
    absl::StatusOr<v1::MapInfo> info = client.RegisterMap(r);
    if (!info.ok()) return Fail(info.status());
    std::printf("%s version=%llu size=%dx%d\n", info->id().c_str(),
                static_cast<unsigned long long>(info->version()), info->width(),
                info->height());
    return 0;
  }
  if (cmd == "delete") {
    if (args.size() != 1) {
      std::fprintf(stderr, "usage: gridstar delete ID\n");
      return 2;
    }
    absl::Status s = client.DeleteMap(args[0]);
    return s.ok() ? 0 : Fail(s);
  }
  if (cmd == "path") {
    int v[4];
    if (args.size() != 5 || !absl::SimpleAtoi(args[1], &v[0]) ||
        !absl::SimpleAtoi(args[2], &v[1]) || !absl::SimpleAtoi(args[3], &v[2]) ||
        !absl::SimpleAtoi(args[4], &v[3])) {
      std::fprintf(stderr, "usage: gridstar path ID SX SY GX GY [options]\n");
      return 2;
    }
    absl::StatusOr<v1::PathRequest> r = BaseRequest();
    if (!r.ok()) return Fail(r.status());
    r->set_map_id(args[0]);
    r->mutable_start()->set_x(v[0]);
    r->mutable_start()->set_y(v[1]);
    r->mutable_goal()->set_x(v[2]);
    r->mutable_goal()->set_y(v[3]);
    absl::StatusOr<v1::PathResponse> out = client.FindPath(*r);
    if (!out.ok()) return Fail(out.status());
    std::string cells;
    for (int i = 0; i + 1 < out->cells_size(); i += 2) {
      absl::StrAppend(&cells, i ? " " : "", out->cells(i), ",", out->cells(i + 1));
    }
    std::printf("%s\n", cells.c_str());
    std::printf(
        "cost=%.4f cells=%d algorithm=%s expanded=%llu partial=%d version=%llu "
        "queue_us=%.0f search_us=%.0f\n",
        out->cost(), out->cells_size() / 2,
        v1::Algorithm_Name(out->algorithm()).c_str(),
        static_cast<unsigned long long>(out->expanded()), out->partial() ? 1 : 0,
        static_cast<unsigned long long>(out->map_version()), out->queue_micros(),
        out->search_micros());
    return 0;
  }
  if (cmd == "update") {
    // update ID X Y COST [X Y COST ...]
    v1::UpdateCellsRequest r;
    bool ok = args.size() >= 4 && (args.size() - 1) % 3 == 0;
    if (ok) r.set_id(args[0]);
    for (size_t i = 1; ok && i + 2 < args.size(); i += 3) {
      int x = 0, y = 0, cost = 0;
      ok = absl::SimpleAtoi(args[i], &x) && absl::SimpleAtoi(args[i + 1], &y) &&
           absl::SimpleAtoi(args[i + 2], &cost) && cost >= 0;
      v1::CellUpdate* u = r.add_cells();
      u->mutable_cell()->set_x(x);
      u->mutable_cell()->set_y(y);
      u->set_cost(static_cast<uint32_t>(cost));
    }
    if (!ok) {
      std::fprintf(stderr, "usage: gridstar update ID X Y COST [X Y COST ...]\n");
      return 2;
    }
    absl::StatusOr<v1::MapInfo> info = client.UpdateCells(r);
    if (!info.ok()) return Fail(info.status());
    std::printf("%s version=%llu passable=%lld components=%u\n", info->id().c_str(),
                static_cast<unsigned long long>(info->version()),
                static_cast<long long>(info->passable_cells()), info->components());
    return 0;
  }
  if (cmd == "group") {
    // group ID GX GY SX SY [SX SY ...]: one shared goal for every unit.
    std::vector<int> v;
    for (size_t i = 1; i < args.size(); ++i) {
      int n;
      if (!absl::SimpleAtoi(args[i], &n)) break;
      v.push_back(n);
    }
    if (args.empty() || v.size() < 4 || v.size() % 2 != 0 || v.size() + 1 != args.size()) {
      std::fprintf(stderr, "usage: gridstar group ID GX GY SX SY [SX SY ...]\n");
      return 2;
    }
    v1::GroupPathsRequest r;
    r.set_map_id(args[0]);
    r.add_goals()->set_x(v[0]);
    r.mutable_goals(0)->set_y(v[1]);
    for (size_t i = 2; i + 1 < v.size(); i += 2) {
      v1::Cell* c = r.add_starts();
      c->set_x(v[i]);
      c->set_y(v[i + 1]);
    }
    absl::StatusOr<v1::PathRequest> base = BaseRequest();
    if (!base.ok()) return Fail(base.status());
    r.set_algorithm(base->algorithm());
    r.set_diagonal(base->diagonal());
    r.set_report_overhead(absl::GetFlag(FLAGS_overhead));
    const std::string method = absl::GetFlag(FLAGS_method);
    if (method == "splice") {
      r.set_method(v1::GROUP_METHOD_SPLICE);
    } else if (method == "flow_field") {
      r.set_method(v1::GROUP_METHOD_FLOW_FIELD);
    } else if (method != "auto") {
      std::fprintf(stderr, "gridstar: --method: auto, splice or flow_field\n");
      return 2;
    }
    const auto group_start = std::chrono::steady_clock::now();
    absl::StatusOr<v1::GroupPathsResponse> out = client.FindGroupPaths(r);
    const double group_us = std::chrono::duration<double, std::micro>(
                                std::chrono::steady_clock::now() - group_start)
                                .count();
    if (!out.ok()) return Fail(out.status());
    for (int i = 0; i < out->units_size(); ++i) {
      const v1::UnitPath& u = out->units(i);
      if (u.code() != 0) {
        std::printf("unit %d: error %d %s\n", i, u.code(), u.message().c_str());
      } else {
        std::printf("unit %d: cost=%.4f cells=%d spliced=%d optimal=%.4f\n", i,
                    u.path().cost(), u.path().cells_size() / 2, u.spliced() ? 1 : 0,
                    u.independent_cost());
      }
    }
    std::printf("units=%d searches=%llu spliced=%u flow_field=%d cached=%d "
                "mean_overhead=%.4f max_overhead=%.4f search_us=%.0f\n",
                out->units_size(), static_cast<unsigned long long>(out->searches()),
                out->spliced_units(), out->flow_field() ? 1 : 0,
                out->flow_field_cached() ? 1 : 0, out->mean_cost_overhead(),
                out->max_cost_overhead(), out->search_micros());
    if (absl::GetFlag(FLAGS_compare)) {
      const auto t0 = std::chrono::steady_clock::now();
      for (const v1::Cell& c : r.starts()) {
        v1::PathRequest one = *base;
        one.set_map_id(r.map_id());
        *one.mutable_start() = c;
        *one.mutable_goal() = r.goals(0);
        absl::StatusOr<v1::PathResponse> path = client.FindPath(one);
        if (!path.ok()) return Fail(path.status());
      }
      const double each_us = std::chrono::duration<double, std::micro>(
                                 std::chrono::steady_clock::now() - t0)
                                 .count();
      std::printf("group_wall_us=%.0f independent_wall_us=%.0f ratio=%.3f\n", group_us,
                  each_us, group_us / each_us);
    }
    return 0;
  }
  if (cmd == "flow") {
    int gx = 0, gy = 0;
    if (args.size() != 3 || !absl::SimpleAtoi(args[1], &gx) ||
        !absl::SimpleAtoi(args[2], &gy)) {
      std::fprintf(stderr, "usage: gridstar flow ID GX GY [--diagonal P] [--max_cost C]\n");
      return 2;
    }
    v1::FlowFieldRequest r;
    r.set_map_id(args[0]);
    r.mutable_goal()->set_x(gx);
    r.mutable_goal()->set_y(gy);
    r.set_max_cost(absl::GetFlag(FLAGS_max_cost));
    absl::StatusOr<v1::PathRequest> base = BaseRequest();
    if (!base.ok()) return Fail(base.status());
    r.set_diagonal(base->diagonal());
    absl::StatusOr<v1::FlowFieldResponse> out = client.ComputeFlowField(r);
    if (!out.ok()) return Fail(out.status());
    float farthest = 0;
    for (float c : out->costs()) farthest = std::max(farthest, c);
    std::printf("size=%dx%d reached=%lld farthest_cost=%.4f complete=%d cached=%d "
                "version=%llu search_us=%.0f\n",
                out->width(), out->height(), static_cast<long long>(out->reached_cells()),
                farthest, out->complete() ? 1 : 0, out->cached() ? 1 : 0,
                static_cast<unsigned long long>(out->map_version()), out->search_micros());
    return 0;
  }
  if (cmd == "scen") return Scen(client, args);
  if (cmd == "load") return Load(client, args);
  std::fprintf(stderr, "gridstar: unknown command '%s' (see --help)\n", cmd.c_str());
  return 2;
}

}  // namespace
}  // namespace gridstar

int main(int argc, char** argv) {
  absl::SetProgramUsageMessage(
      "gridstar COMMAND [flags]: client of gridstar-server.\n"
      "  maps | health | register --id ID FILE | delete ID\n"
      "  update ID X Y COST [X Y COST ...]\n"
      "  group ID GX GY SX SY [SX SY ...]   (one shared goal; --method)\n"
      "  flow ID GX GY [--max_cost C]       (the goal's flow field, summarised)\n"
      "  path ID SX SY GX GY [--algo A --diagonal P --smooth --allow_partial ...]\n"
      "  scen --map ID SCEN [--batch N] [--concurrency C]\n"
      "  load --map ID SCEN --concurrency C --duration S [--batch N] [--rps R] [--stream]\n"
      "       (--stream: one FindPathsStream per thread, --batch requests in flight on each)");
  std::vector<char*> positional = absl::ParseCommandLine(argc, argv);
  std::vector<std::string> args(positional.begin() + 1, positional.end());
  return gridstar::Run(args);
}
