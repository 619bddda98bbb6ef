// InProcessServer: a gridstar server started in the test's own process, as
// main starts it (Server::BuildAndStart with the options its flags make),
// on a port gRPC picks and a metrics port the exposer picks: no process to
// spawn, no port file to wait for, no port race. Tests of what only a
// process has (kill -9, signals, restarts, flag parsing, its log) use
// ServerProcess (server_process.h) instead.
//
// `flags` are the server's own, as on its command line ("--max_batch=3",
// "--preload=id=path", "--noflag"); they are set for the start only and
// restored after it, so tests do not leak them into each other. The defaults
// are ServerProcess's: loopback, two workers, a search time of an hour.
#ifndef GRIDSTAR_TESTS_SERVER_IN_PROCESS_SERVER_H_
#define GRIDSTAR_TESTS_SERVER_IN_PROCESS_SERVER_H_

#include <memory>
#include <string>
#include <utility>
#include <vector>

#include "absl/flags/reflection.h"
#include "absl/strings/match.h"
#include "absl/strings/str_cat.h"
#include "absl/synchronization/mutex.h"
#include "gridstar/v1/gridstar.grpc.pb.h"
#include "grpcpp/grpcpp.h"
#include "gtest/gtest.h"
#include "runtime/server.h"
#include "runtime/server_flags.h"

namespace gridstar::testing {

class InProcessServer {
 public:
  explicit InProcessServer(std::vector<std::string> flags = {}) {
    // As main does: the lock order is fixed by design (TSan checks it).
    absl::SetMutexDeadlockDetectionMode(absl::OnDeadlockCycle::kIgnore);
    std::vector<std::string> all = {"--host=127.0.0.1", "--port=0",
                                    "--metrics_port=-1", "--workers=2",
                                    "--max_search_time=3600s"};
    all.insert(all.end(), flags.begin(), flags.end());
    std::vector<std::pair<absl::CommandLineFlag*, std::string>> saved;
    bool set = true;
    for (const std::string& flag : all) set = set && Set(flag, &saved);
    const server::ServerOptions options = server::ServerOptionsFromFlags();
    // Restored newest first, so that a flag set twice gets its first value.
    for (auto it = saved.rbegin(); it != saved.rend(); ++it) {
      std::string error;
      EXPECT_TRUE(it->first->ParseFrom(it->second, &error)) << error;
    }
    if (!set) return;
    absl::StatusOr<std::unique_ptr<server::Server>> made =
        server::Server::BuildAndStart(options);
    if (!made.ok()) {
      ADD_FAILURE() << "in-process server did not start: " << made.status();
      return;
    }
    server_ = *std::move(made);
    channel_ = grpc::CreateChannel(absl::StrCat("127.0.0.1:", server_->port()),
                                   grpc::InsecureChannelCredentials());
    stub_ = v1::Pathfinding::NewStub(channel_);
  }

  bool started() const { return server_ != nullptr; }
  v1::Pathfinding::Stub& stub() { return *stub_; }
  int port() const { return server_->port(); }
  int metrics_port() const { return server_->metrics_port(); }
  server::Server& server() { return *server_; }

 private:
  // "--name=value", "--name" (a bool: true) or "--noname" (false); the
  // flag's value before goes to *saved.
  static bool Set(
      const std::string& flag,
      std::vector<std::pair<absl::CommandLineFlag*, std::string>>* saved) {
    if (!absl::StartsWith(flag, "--")) {
      ADD_FAILURE() << "not a flag: " << flag;
      return false;
    }
    std::string name = flag.substr(2), value = "true";
    if (const size_t eq = name.find('='); eq != std::string::npos) {
      value = name.substr(eq + 1);
      name = name.substr(0, eq);
    }
    absl::CommandLineFlag* f = absl::FindCommandLineFlag(name);
    if (f == nullptr && absl::StartsWith(name, "no") && value == "true") {
      name = name.substr(2);
      value = "false";
      f = absl::FindCommandLineFlag(name);
    }
    std::string error;
    if (f != nullptr) saved->emplace_back(f, f->CurrentValue());
    if (f == nullptr || !f->ParseFrom(value, &error)) {
      ADD_FAILURE() << flag << ": " << (f == nullptr ? "no such flag" : error);
      return false;
    }
    return true;
  }

  std::unique_ptr<server::Server> server_;
  std::shared_ptr<grpc::Channel> channel_;
  std::unique_ptr<v1::Pathfinding::Stub> stub_;
};

}  // namespace gridstar::testing

#endif  // GRIDSTAR_TESTS_SERVER_IN_PROCESS_SERVER_H_
