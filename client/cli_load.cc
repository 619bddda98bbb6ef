// The CLI's load generators: `scen` (every query of a scenario once) and
// `load` (a timed run at a rate, unary, batched or streamed).

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
#include "absl/strings/numbers.h"
#include "absl/strings/str_cat.h"
#include "absl/strings/str_format.h"
#include "absl/time/clock.h"
#include "cli_common.h"
#include "client.h"
#include "gridstar/map_io.h"
#include "gridstar/scenario.h"
#include "gridstar/types.h"

namespace gridstar::cli {
namespace {

double Percentile(std::vector<double>& v, double p) {
  if (v.empty()) return 0;
  const size_t k = std::min(
      v.size() - 1, static_cast<size_t>(p * static_cast<double>(v.size())));
  std::nth_element(v.begin(), v.begin() + static_cast<std::ptrdiff_t>(k),
                   v.end());
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
      if (!(q.optimal < 0 &&
            code == static_cast<int>(absl::StatusCode::kFailedPrecondition))) {
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
                const std::vector<ScenarioQuery>& scen,
                const v1::PathRequest& base, size_t begin, size_t end,
                size_t stride, Tally* t) {
  const size_t batch =
      static_cast<size_t>(std::max(1, absl::GetFlag(FLAGS_batch)));
  for (size_t i = begin; i < end; i += stride * batch) {
    const auto t0 = std::chrono::steady_clock::now();
    std::vector<size_t> items;
    for (size_t k = 0; k < batch && i + k * stride < end; ++k)
      items.push_back(i + k * stride);
    auto check = [&](size_t q, int code, double cost) {
      t->Check(scen[q], code, cost);
    };
    if (batch == 1) {
      v1::PathRequest r = base;
      r.set_map_id(map_id);
      SetEnds(scen[items[0]], &r);
      absl::StatusOr<v1::PathResponse> out = client.FindPath(r);
      check(items[0], static_cast<int>(out.status().code()),
            out.ok() ? out->cost() : 0);
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

void StreamLoad(Client& client, const std::vector<ScenarioQuery>& scen,
                const v1::PathRequest& base, size_t next, int threads,
                absl::Time end, Tally* t, std::atomic<uint64_t>* done) {
  using Clock = std::chrono::steady_clock;
  const size_t window =
      static_cast<size_t>(std::max(1, absl::GetFlag(FLAGS_batch)));
  const double rps = absl::GetFlag(FLAGS_rps);
  grpc::ClientContext ctx;
  // Long enough for the run and for the last answers to drain.
  ctx.set_deadline(absl::ToChronoTime(end + client.options().deadline));
  ctx.AddMetadata(kMapHeader, absl::GetFlag(FLAGS_map));
  client.AddToken(&ctx);
  std::unique_ptr<
      grpc::ClientReaderWriter<v1::StreamPathRequest, v1::StreamPathResponse>>
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
      t->latencies_us.push_back(
          std::chrono::duration<double, std::micro>(now - at).count());
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
  // At least one request, however late the thread starts: a load run always
  // measures something.
  while (open && (sent.empty() || absl::Now() < end)) {
    if (interval > 0) {
      std::this_thread::sleep_until(due);
      due += std::chrono::duration_cast<Clock::duration>(
          std::chrono::duration<double>(interval));
    }
    {
      std::unique_lock<std::mutex> lock(mu);
      // Re-checked at least every 100 ms so that the run ends on time.
      if (!cv.wait_for(lock, std::chrono::milliseconds(100),
                       [&] { return inflight < window; })) {
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
                 static_cast<int>(status.error_code()),
                 status.error_message().c_str());
  }
}

}  // namespace

int Scen(Client& client, const std::vector<std::string>& args) {
  if (args.size() != 1 || absl::GetFlag(FLAGS_map).empty()) {
    std::fprintf(
        stderr,
        "usage: gridstar scen --map ID SCEN [--batch N] [--concurrency C]\n");
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
      RunQueries(client, absl::GetFlag(FLAGS_map), *scen, *base,
                 static_cast<size_t>(i), scen->size(), static_cast<size_t>(c),
                 &tallies[static_cast<size_t>(i)]);
    });
  }
  for (std::thread& t : threads) t.join();
  const double seconds =
      std::chrono::duration<double>(std::chrono::steady_clock::now() - t0)
          .count();
  Tally all;
  for (const Tally& t : tallies) all.Add(t);
  std::printf(
      absl::GetFlag(FLAGS_json)
          ? "{\"queries\":%llu,\"mismatches\":%llu,\"errors\":%llu,\"qps\":%.0f,"
            "\"p50Us\":%.0f,\"p99Us\":%.0f}\n"
          : "queries=%llu mismatches=%llu errors=%llu qps=%.0f p50_us=%.0f "
            "p99_us=%.0f\n",
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
int Load(Client& client, const std::vector<std::string>& args) {
  if (args.size() != 1 || absl::GetFlag(FLAGS_map).empty()) {
    std::fprintf(
        stderr,
        "usage: gridstar load --map ID SCEN --concurrency C --duration S "
        "[--batch N] [--rps R] [--stream]\n");
    return 2;
  }
  absl::StatusOr<std::vector<ScenarioQuery>> scen = LoadScen(args[0]);
  if (!scen.ok()) return Fail(scen.status());
  if (scen->empty())
    return Fail(absl::InvalidArgumentError("the scenario is empty"));
  absl::StatusOr<v1::PathRequest> base = BaseRequest();
  if (!base.ok()) return Fail(base.status());
  const int c = std::max(1, absl::GetFlag(FLAGS_concurrency));
  const size_t batch =
      static_cast<size_t>(std::max(1, absl::GetFlag(FLAGS_batch)));
  const double rps = absl::GetFlag(FLAGS_rps);
  absl::StatusOr<absl::Duration> duration = LoadDuration();
  if (!duration.ok()) return Fail(duration.status());
  const absl::Time end = absl::Now() + *duration;
  std::vector<Tally> tallies(static_cast<size_t>(c));
  std::atomic<uint64_t> done{0};
  const auto t0 = std::chrono::steady_clock::now();
  std::vector<std::thread> threads;
  for (int i = 0; i < c; ++i) {
    if (absl::GetFlag(FLAGS_stream)) {
      threads.emplace_back([&, i] {
        StreamLoad(client, *scen, *base,
                   static_cast<size_t>(i) * 7919 % scen->size(), c, end,
                   &tallies[static_cast<size_t>(i)], &done);
      });
      continue;
    }
    threads.emplace_back([&, i] {
      Tally& t = tallies[static_cast<size_t>(i)];
      size_t next = static_cast<size_t>(i) * 7919 % scen->size();
      // With --rps each thread paces its calls to its share of the rate.
      const double interval =
          rps > 0 ? c * static_cast<double>(batch) / rps : 0;
      auto due = std::chrono::steady_clock::now();
      // At least one call, however late the thread starts.
      for (bool first_call = true; first_call || absl::Now() < end; first_call = false) {
        if (interval > 0) {
          std::this_thread::sleep_until(due);
          due +=
              std::chrono::duration_cast<std::chrono::steady_clock::duration>(
                  std::chrono::duration<double>(interval));
        }
        const size_t first = next;
        next = (next + batch) % scen->size();
        Tally one;
        std::vector<ScenarioQuery> slice;
        for (size_t k = 0; k < batch; ++k)
          slice.push_back((*scen)[(first + k) % scen->size()]);
        RunQueries(client, absl::GetFlag(FLAGS_map), slice, *base, 0,
                   slice.size(), 1, &one);
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
      std::chrono::duration<double>(std::chrono::steady_clock::now() - t0)
          .count();
  Tally all;
  for (const Tally& t : tallies) all.Add(t);
  // Under load a wrong length counts as an error.
  all.errors += all.mismatches;
  std::printf(
      absl::GetFlag(FLAGS_json)
          ? "{\"requests\":%llu,\"errors\":%llu,\"qps\":%.0f,\"p50Us\":%.0f,"
            "\"p90Us\":%.0f,\"p99Us\":%.0f,\"p999Us\":%.0f}\n"
          : "requests=%llu errors=%llu qps=%.0f p50_us=%.0f p90_us=%.0f "
            "p99_us=%.0f p999_us=%.0f\n",
      static_cast<unsigned long long>(all.queries),
      static_cast<unsigned long long>(all.errors), all.queries / seconds,
      Percentile(all.latencies_us, 0.5), Percentile(all.latencies_us, 0.9),
      Percentile(all.latencies_us, 0.99), Percentile(all.latencies_us, 0.999));
  return all.errors == 0 ? 0 : 1;
}

}  // namespace gridstar::cli
