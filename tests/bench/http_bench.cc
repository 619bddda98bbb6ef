// grpc-http-bench: FindPath over gridstar-server's HTTP/JSON port against the
// same query over its gRPC port, measured in one run and alternated round by
// round: one call in flight, `--calls` sequential calls each, the same small
// query (a 49 x 49 open map, ends 29 cells apart). The gRPC side is a sync
// stub on one channel; the HTTP side one libcurl handle that keeps its
// connection (as an HTTP client library does), posting the request's JSON.
// Prints each round's p50 and p99 and the median over rounds of the ratio
// HTTP p50 / gRPC p50 (target: at most 1.5). Figures only: nothing here
// decides a test verdict.
//
// Usage: grpc-http-bench --grpc=HOST:PORT --http=HOST:PORT
//          [--rounds=3] [--calls=2000]
#include <curl/curl.h>

#include <algorithm>
#include <chrono>
#include <cstdio>
#include <string>
#include <vector>

#include "absl/flags/flag.h"
#include "absl/flags/parse.h"
#include "absl/flags/usage.h"
#include "absl/strings/str_cat.h"
#include "absl/strings/str_format.h"
#include "gridstar/v1/gridstar.grpc.pb.h"
#include "grpcpp/grpcpp.h"

ABSL_FLAG(std::string, grpc, "", "gridstar-server's gRPC address");
ABSL_FLAG(std::string, http, "", "gridstar-server's HTTP/JSON address");
ABSL_FLAG(int, rounds, 3, "rounds; each measures both ports, alternating");
ABSL_FLAG(int, calls, 2000, "sequential calls per measurement");

namespace {

using Clock = std::chrono::steady_clock;
constexpr char kMapId[] = "http-bench";
constexpr int kSide = 49;

double Percentile(std::vector<double> v, double p) {
  if (v.empty()) return 0;
  std::sort(v.begin(), v.end());
  return v[static_cast<size_t>(p * (v.size() - 1))];
}

size_t Collect(char* data, size_t size, size_t n, void* out) {
  static_cast<std::string*>(out)->append(data, size * n);
  return size * n;
}

struct Counts {
  long calls = 0;
  long failures = 0;
  std::string first_failure;
};

std::vector<double> GrpcCalls(gridstar::v1::Pathfinding::Stub& stub,
                              const gridstar::v1::PathRequest& request, int n,
                              Counts* counts) {
  std::vector<double> us;
  us.reserve(n);
  for (int i = 0; i < n; ++i) {
    grpc::ClientContext ctx;
    ctx.set_deadline(std::chrono::system_clock::now() +
                     std::chrono::seconds(60));
    gridstar::v1::PathResponse response;
    const Clock::time_point start = Clock::now();
    const grpc::Status s = stub.FindPath(&ctx, request, &response);
    us.push_back(std::chrono::duration<double, std::micro>(Clock::now() - start)
                     .count());
    ++counts->calls;
    if (!s.ok() && counts->failures++ == 0)
      counts->first_failure = s.error_message();
  }
  return us;
}

std::vector<double> HttpCalls(CURL* curl, const std::string& json, int n,
                              Counts* counts) {
  std::vector<double> us;
  us.reserve(n);
  std::string body;
  curl_easy_setopt(curl, CURLOPT_POSTFIELDS, json.c_str());
  curl_easy_setopt(curl, CURLOPT_POSTFIELDSIZE, static_cast<long>(json.size()));
  curl_easy_setopt(curl, CURLOPT_WRITEFUNCTION, &Collect);
  curl_easy_setopt(curl, CURLOPT_WRITEDATA, &body);
  for (int i = 0; i < n; ++i) {
    body.clear();
    const Clock::time_point start = Clock::now();
    const CURLcode c = curl_easy_perform(curl);
    us.push_back(std::chrono::duration<double, std::micro>(Clock::now() - start)
                     .count());
    long status = 0;
    curl_easy_getinfo(curl, CURLINFO_RESPONSE_CODE, &status);
    ++counts->calls;
    if ((c != CURLE_OK || status != 200) && counts->failures++ == 0) {
      counts->first_failure = c != CURLE_OK ? curl_easy_strerror(c) : body;
    }
  }
  return us;
}

}  // namespace

int main(int argc, char** argv) {
  absl::SetProgramUsageMessage(
      "grpc-http-bench --grpc=HOST:PORT --http=HOST:PORT [--rounds=3] "
      "[--calls=2000]");
  absl::ParseCommandLine(argc, argv);
  auto channel = grpc::CreateChannel(absl::GetFlag(FLAGS_grpc),
                                     grpc::InsecureChannelCredentials());
  auto stub = gridstar::v1::Pathfinding::NewStub(channel);
  {
    gridstar::v1::RegisterMapRequest r;
    r.set_id(kMapId);
    r.set_raw(std::string(kSide * kSide, '\1'));
    r.set_width(kSide);
    r.set_height(kSide);
    r.set_replace(true);
    grpc::ClientContext ctx;
    gridstar::v1::MapInfo info;
    const grpc::Status s = stub->RegisterMap(&ctx, r, &info);
    if (!s.ok()) {
      std::fprintf(stderr, "grpc-http-bench: RegisterMap: %s\n",
                   s.error_message().c_str());
      return 1;
    }
  }
  gridstar::v1::PathRequest request;
  request.set_map_id(kMapId);
  request.mutable_start()->set_x(5);
  request.mutable_start()->set_y(5);
  request.mutable_goal()->set_x(34);
  request.mutable_goal()->set_y(20);
  const std::string json = absl::StrCat(
      "{\"mapId\": \"", kMapId,
      "\", \"start\": {\"x\": 5, \"y\": 5}, \"goal\": {\"x\": 34, \"y\": 20}}");

  curl_global_init(CURL_GLOBAL_DEFAULT);
  CURL* curl = curl_easy_init();
  const std::string url = absl::StrCat("http://", absl::GetFlag(FLAGS_http),
                                       "/gridstar.v1.Pathfinding/FindPath");
  curl_easy_setopt(curl, CURLOPT_URL, url.c_str());
  curl_slist* headers =
      curl_slist_append(nullptr, "Content-Type: application/json");
  curl_easy_setopt(curl, CURLOPT_HTTPHEADER, headers);
  curl_easy_setopt(curl, CURLOPT_TCP_NODELAY, 1L);

  const int calls = absl::GetFlag(FLAGS_calls);
  Counts grpc_counts, http_counts;
  // Warm both (connections, the inline contexts, the JSON descriptors).
  GrpcCalls(*stub, request, std::max(1, calls / 10), &grpc_counts);
  HttpCalls(curl, json, std::max(1, calls / 10), &http_counts);
  std::vector<double> ratios;
  for (int round = 1; round <= absl::GetFlag(FLAGS_rounds); ++round) {
    const std::vector<double> g =
        GrpcCalls(*stub, request, calls, &grpc_counts);
    const std::vector<double> h = HttpCalls(curl, json, calls, &http_counts);
    const double g50 = Percentile(g, 0.5), h50 = Percentile(h, 0.5);
    std::printf(
        "round %d: gRPC p50 %.1f us p99 %.1f us | HTTP/JSON p50 %.1f us p99 "
        "%.1f us | HTTP/gRPC p50 %.2fx\n",
        round, g50, Percentile(g, 0.99), h50, Percentile(h, 0.99), h50 / g50);
    ratios.push_back(h50 / g50);
  }
  curl_slist_free_all(headers);
  curl_easy_cleanup(curl);
  curl_global_cleanup();
  std::printf(
      "http: HTTP/gRPC p50 %.2fx (median of %zu rounds, target <= 1.5x) "
      "calls=%ld failures=%ld\n",
      Percentile(ratios, 0.5), ratios.size(),
      grpc_counts.calls + http_counts.calls,
      grpc_counts.failures + http_counts.failures);
  for (const Counts* c : {&grpc_counts, &http_counts}) {
    if (c->failures > 0) {
      std::printf("first failure: %s\n", c->first_failure.c_str());
    }
  }
  return grpc_counts.failures + http_counts.failures == 0 ? 0 : 1;
}
