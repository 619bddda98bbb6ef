// grpc-echo-server: the yardstick of the service bench (tests/bench/
// floor_bench.sh). The cheapest gridstar.v1.Pathfinding/FindPath this gRPC
// can serve: the callback API, answered on the gRPC thread with no map, no
// queue and no search; the response echoes the request's ends as a one-step
// path (NOT_FOUND for any map but the bench's). Same Debian gRPC, same
// messages, same machine as gridstar-server, so the ratio of the two measures
// what gridstar adds to a call.
//
// Usage: grpc-echo-server [--port=0] [--port_file=FILE]
#include <csignal>
#include <cstdio>
#include <fstream>
#include <memory>
#include <string>

#include "absl/flags/flag.h"
#include "absl/flags/parse.h"
#include "absl/flags/usage.h"
#include "absl/synchronization/mutex.h"
#include "gridstar/v1/gridstar.grpc.pb.h"
#include "grpcpp/grpcpp.h"

ABSL_FLAG(int, port, 0, "port on 127.0.0.1; 0 picks a free one");
ABSL_FLAG(std::string, port_file, "", "write the bound port here");

namespace {

class EchoService final : public gridstar::v1::Pathfinding::CallbackService {
 public:
  grpc::ServerUnaryReactor* FindPath(
      grpc::CallbackServerContext* ctx,
      const gridstar::v1::PathRequest* request,
      gridstar::v1::PathResponse* response) override {
    grpc::ServerUnaryReactor* reactor = ctx->DefaultReactor();
    // As gridstar answers a map it does not hold (the bench's own map is
    // "floor-bench").
    if (request->map_id() != "floor-bench") {
      reactor->Finish(
          grpc::Status(grpc::StatusCode::NOT_FOUND,
                       "map_id: no map '" + request->map_id() + "'"));
      return reactor;
    }
    response->add_cells(request->start().x());
    response->add_cells(request->start().y());
    response->add_cells(request->goal().x());
    response->add_cells(request->goal().y());
    response->set_cost(1);
    response->set_expanded(1);
    response->set_map_version(1);
    *response->mutable_start() = request->start();
    *response->mutable_goal() = request->goal();
    reactor->Finish(grpc::Status::OK);
    return reactor;
  }
};

}  // namespace

int main(int argc, char** argv) {
  absl::SetProgramUsageMessage(
      "grpc-echo-server [--port=0] [--port_file=FILE]");
  absl::ParseCommandLine(argc, argv);
  // As gridstar-server does: the floor is gRPC without Debian's debug-build
  // deadlock detector in absl::Mutex.
  absl::SetMutexDeadlockDetectionMode(absl::OnDeadlockCycle::kIgnore);
  sigset_t signals;
  sigemptyset(&signals);
  sigaddset(&signals, SIGTERM);
  sigaddset(&signals, SIGINT);
  pthread_sigmask(SIG_BLOCK, &signals, nullptr);

  EchoService service;
  grpc::ServerBuilder builder;
  int port = 0;
  builder.AddChannelArgument(GRPC_ARG_ALLOW_REUSEPORT, 0);
  builder.AddListeningPort(
      "127.0.0.1:" + std::to_string(absl::GetFlag(FLAGS_port)),
      grpc::InsecureServerCredentials(), &port);
  builder.RegisterService(&service);
  std::unique_ptr<grpc::Server> server = builder.BuildAndStart();
  if (server == nullptr || port == 0) {
    std::fprintf(stderr, "grpc-echo-server: cannot listen on port %d\n",
                 absl::GetFlag(FLAGS_port));
    return 1;
  }
  if (!absl::GetFlag(FLAGS_port_file).empty()) {
    const std::string tmp = absl::GetFlag(FLAGS_port_file) + ".tmp";
    std::ofstream(tmp) << port << "\n";
    std::rename(tmp.c_str(), absl::GetFlag(FLAGS_port_file).c_str());
  }
  std::fprintf(stderr, "grpc-echo-server: serving on 127.0.0.1:%d\n", port);
  int signal = 0;
  sigwait(&signals, &signal);
  server->Shutdown();
  return 0;
}
