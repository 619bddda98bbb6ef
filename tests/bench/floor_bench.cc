// grpc-floor-bench: gridstar-server against the cheapest call this gRPC can
// make (grpc-echo-server), measured in one run, alternated round by round, by
// one completion-queue client thread sending the same prepared request bytes
// (a one-step FindPath on a 49 x 49 open map) to both:
//   - one call in flight: p50 and p99 of `--calls` sequential calls;
//   - `--inflight` calls in flight for `--seconds`: completed calls a second.
// Both are also asked about a map neither holds, answered NOT_FOUND with a
// message (gRPC's error path): the ratio of those shows what gridstar's
// handler adds without any search.
// Prints each round and the medians of the ratios gridstar / echo (p50) and
// gridstar / echo (rate). Figures only: nothing here decides a test verdict.
//
// Usage: grpc-floor-bench --echo=HOST:PORT --gridstar=HOST:PORT
//          [--rounds=3] [--calls=3000] [--seconds=3] [--inflight=32]
#include <algorithm>
#include <chrono>
#include <cstdio>
#include <memory>
#include <string>
#include <vector>

#include "absl/flags/flag.h"
#include "absl/flags/parse.h"
#include "absl/flags/usage.h"
#include "absl/strings/str_format.h"
#include "absl/strings/str_join.h"
#include "gridstar/v1/gridstar.grpc.pb.h"
#include "grpcpp/generic/generic_stub.h"
#include "grpcpp/grpcpp.h"

ABSL_FLAG(std::string, echo, "", "grpc-echo-server address");
ABSL_FLAG(std::string, gridstar, "", "gridstar-server address");
ABSL_FLAG(int, rounds, 3, "rounds; each measures both servers, alternating");
ABSL_FLAG(int, calls, 3000, "sequential calls per latency measurement");
ABSL_FLAG(double, seconds, 3, "seconds per rate measurement");
ABSL_FLAG(int, inflight, 32, "calls in flight for the rate");
ABSL_FLAG(int, map_side, 49, "side of the open map registered on gridstar");

namespace {

using Clock = std::chrono::steady_clock;
constexpr char kMethod[] = "/gridstar.v1.Pathfinding/FindPath";
constexpr char kMapId[] = "floor-bench";

struct Call {
  grpc::ClientContext ctx;
  grpc::ByteBuffer reply;
  grpc::Status status;
  std::unique_ptr<grpc::GenericClientAsyncResponseReader> rpc;
  Clock::time_point start;
};

class Target {
 public:
  Target(std::string name, const std::string& address,
         const grpc::ByteBuffer& request)
      : name_(std::move(name)),
        channel_(
            grpc::CreateChannel(address, grpc::InsecureChannelCredentials())),
        stub_(channel_),
        request_(request) {}

  const std::string& name() const { return name_; }
  const std::shared_ptr<grpc::Channel>& channel() const { return channel_; }

  // Latencies in microseconds of `n` calls, one at a time.
  std::vector<double> Sequential(int n) {
    std::vector<double> us;
    us.reserve(n);
    for (int i = 0; i < n; ++i) {
      Start();
      Call* call = Next();
      us.push_back(
          std::chrono::duration<double, std::micro>(Clock::now() - call->start)
              .count());
      delete call;
    }
    return us;
  }

  // Completed calls a second with `inflight` outstanding for `seconds`.
  double Rate(int inflight, double seconds) {
    for (int i = 0; i < inflight; ++i) Start();
    const Clock::time_point begin = Clock::now();
    const auto end = begin + std::chrono::duration_cast<Clock::duration>(
                                 std::chrono::duration<double>(seconds));
    long done = 0;
    Clock::time_point last = begin;
    for (int outstanding = inflight; outstanding > 0;) {
      delete Next();
      --outstanding;
      last = Clock::now();
      if (last < end) {
        ++done;
        Start();
        ++outstanding;
      }
    }
    return done / std::chrono::duration<double>(end - begin).count();
  }

  long calls() const { return calls_; }
  long failures() const { return failures_; }
  grpc::StatusCode first_code() const { return first_code_; }
  const std::string& first_failure() const { return first_failure_; }

 private:
  void Start() {
    auto* call = new Call;
    call->ctx.set_deadline(std::chrono::system_clock::now() +
                           std::chrono::seconds(60));
    call->start = Clock::now();
    call->rpc = stub_.PrepareUnaryCall(&call->ctx, kMethod, request_, &cq_);
    call->rpc->StartCall();
    call->rpc->Finish(&call->reply, &call->status, call);
  }

  Call* Next() {
    void* tag = nullptr;
    bool ok = false;
    cq_.Next(&tag, &ok);
    Call* call = static_cast<Call*>(tag);
    ++calls_;
    if (!call->status.ok()) {
      if (failures_++ == 0) {
        first_failure_ = call->status.error_message();
        first_code_ = call->status.error_code();
      }
    }
    return call;
  }

  const std::string name_;
  std::shared_ptr<grpc::Channel> channel_;
  grpc::GenericStub stub_;
  const grpc::ByteBuffer request_;
  grpc::CompletionQueue cq_;
  long calls_ = 0;
  long failures_ = 0;
  grpc::StatusCode first_code_ = grpc::StatusCode::OK;
  std::string first_failure_;
};

double Quantile(std::vector<double> v, double q) {
  std::sort(v.begin(), v.end());
  return v[static_cast<size_t>(q * (v.size() - 1))];
}

double Median(std::vector<double> v) { return Quantile(std::move(v), 0.5); }

std::string Figures(const std::vector<double>& v) {
  return absl::StrJoin(v, " ", [](std::string* out, double x) {
    absl::StrAppendFormat(out, "%.2f", x);
  });
}

}  // namespace

int main(int argc, char** argv) {
  absl::SetProgramUsageMessage(
      "grpc-floor-bench --echo=HOST:PORT --gridstar=HOST:PORT [--rounds=3] "
      "[--calls=3000] [--seconds=3] [--inflight=32]");
  absl::ParseCommandLine(argc, argv);
  if (absl::GetFlag(FLAGS_echo).empty() ||
      absl::GetFlag(FLAGS_gridstar).empty()) {
    std::fprintf(stderr,
                 "grpc-floor-bench: --echo and --gridstar are required\n");
    return 2;
  }
  const int side = absl::GetFlag(FLAGS_map_side);
  gridstar::v1::PathRequest request;
  request.set_map_id(kMapId);
  request.mutable_start()->set_x(side / 2);
  request.mutable_start()->set_y(side / 2);
  request.mutable_goal()->set_x(side / 2 + 1);
  request.mutable_goal()->set_y(side / 2);
  grpc::ByteBuffer bytes;
  bool own = false;
  if (!grpc::SerializationTraits<gridstar::v1::PathRequest>::Serialize(
           request, &bytes, &own)
           .ok()) {
    return 1;
  }
  request.set_map_id("floor-bench-unknown");
  grpc::ByteBuffer unknown_bytes;
  if (!grpc::SerializationTraits<gridstar::v1::PathRequest>::Serialize(
           request, &unknown_bytes, &own)
           .ok()) {
    return 1;
  }
  // 0, 1: the one-step path; 2, 3: NOT_FOUND for a map neither holds.
  Target echo("echo", absl::GetFlag(FLAGS_echo), bytes);
  Target star("gridstar", absl::GetFlag(FLAGS_gridstar), bytes);
  Target echo_unknown("echo, unknown map", absl::GetFlag(FLAGS_echo),
                      unknown_bytes);
  Target star_unknown("gridstar, unknown map", absl::GetFlag(FLAGS_gridstar),
                      unknown_bytes);
  Target* targets[4] = {&echo, &star, &echo_unknown, &star_unknown};

  {  // The map, as the CLI registers maps (with a jump table).
    gridstar::v1::RegisterMapRequest r;
    r.set_id(kMapId);
    r.set_raw(std::string(static_cast<size_t>(side) * side, '\x01'));
    r.set_width(side);
    r.set_height(side);
    r.set_jump_table(true);
    r.set_replace(true);
    gridstar::v1::MapInfo info;
    grpc::ClientContext ctx;
    ctx.set_deadline(std::chrono::system_clock::now() +
                     std::chrono::seconds(300));
    const grpc::Status s = gridstar::v1::Pathfinding::NewStub(star.channel())
                               ->RegisterMap(&ctx, r, &info);
    if (!s.ok()) {
      std::fprintf(stderr, "grpc-floor-bench: RegisterMap: %s\n",
                   s.error_message().c_str());
      return 1;
    }
  }
  for (Target* t : targets) t->Sequential(300);  // Warm up.

  const int rounds = absl::GetFlag(FLAGS_rounds);
  const int inflight = absl::GetFlag(FLAGS_inflight);
  const int calls = absl::GetFlag(FLAGS_calls);
  const double seconds = absl::GetFlag(FLAGS_seconds);
  std::vector<double> p50_ratios, rate_ratios;
  for (int round = 1; round <= rounds; ++round) {
    // The targets take turns in short slices (100 calls, 0.25 s), so that
    // the machine's drift within a round reaches all alike, and who goes
    // first alternates from round to round.
    int order[4] = {0, 1, 2, 3};
    if (round % 2 == 0) {
      std::swap(order[0], order[1]);
      std::swap(order[2], order[3]);
    }
    std::vector<double> us[4];
    double done[4] = {0, 0, 0, 0}, spent[4] = {0, 0, 0, 0};
    for (int sent = 0; sent < calls; sent += 100) {
      for (int i : order) {
        const std::vector<double> slice =
            targets[i]->Sequential(std::min(100, calls - sent));
        us[i].insert(us[i].end(), slice.begin(), slice.end());
      }
    }
    for (double run = 0; run < seconds; run += 0.25) {
      for (int i : order) {
        const double slice = std::min(0.25, seconds - run);
        done[i] += targets[i]->Rate(inflight, slice) * slice;
        spent[i] += slice;
      }
    }
    double p50[4], p99[4], rate[4];
    for (int i = 0; i < 4; ++i) {
      p50[i] = Quantile(us[i], 0.5);
      p99[i] = Quantile(us[i], 0.99);
      rate[i] = done[i] / spent[i];
    }
    p50_ratios.push_back(p50[1] / p50[0]);
    rate_ratios.push_back(rate[1] / rate[0]);
    std::printf(
        "round %d: echo p50_us=%.0f p99_us=%.0f qps@%d=%.0f | gridstar "
        "p50_us=%.0f "
        "p99_us=%.0f qps@%d=%.0f | p50 ratio %.2f, rate ratio %.2f | NOT_FOUND "
        "(unknown map) p50 ratio %.2f, rate ratio %.2f\n",
        round, p50[0], p99[0], inflight, rate[0], p50[1], p99[1], inflight,
        rate[1], p50_ratios.back(), rate_ratios.back(), p50[3] / p50[2],
        rate[3] / rate[2]);
    std::fflush(stdout);
  }
  std::printf(
      "floor: gridstar/echo p50 at 1 in flight median=%.2f [%s] (target <= "
      "1.15); "
      "rate at %d in flight median=%.2f [%s] (target >= 0.85); failures=%ld\n",
      Median(p50_ratios), Figures(p50_ratios).c_str(), inflight,
      Median(rate_ratios), Figures(rate_ratios).c_str(),
      echo.failures() + star.failures());
  // The unknown map must have been answered NOT_FOUND by both, every time.
  for (Target* t : {&echo_unknown, &star_unknown}) {
    if (t->failures() != t->calls() ||
        t->first_code() != grpc::StatusCode::NOT_FOUND) {
      std::fprintf(stderr,
                   "grpc-floor-bench: %s: not answered NOT_FOUND every time\n",
                   t->name().c_str());
      return 1;
    }
  }
  for (Target* t : {&echo, &star}) {
    if (t->failures() > 0) {
      std::fprintf(
          stderr, "grpc-floor-bench: %s: %ld failed calls, first: %s\n",
          t->name().c_str(), t->failures(), t->first_failure().c_str());
      return 1;
    }
  }
  return 0;
}
