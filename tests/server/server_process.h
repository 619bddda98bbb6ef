// Test helpers shared by the integration tests: the real gridstar-server as
// a child process on a free loopback port, the sample maps, and a /metrics
// scrape. Header-only; GRIDSTAR_SERVER_BINARY and GRIDSTAR_SOURCE_DIR come
// from CMake.
#ifndef GRIDSTAR_TESTS_SERVER_SERVER_PROCESS_H_
#define GRIDSTAR_TESTS_SERVER_SERVER_PROCESS_H_

#include <arpa/inet.h>
#include <netinet/in.h>
#include <signal.h>
#include <sys/socket.h>
#include <sys/time.h>
#include <sys/wait.h>
#include <unistd.h>

#include <chrono>
#include <cstdio>
#include <fstream>
#include <memory>
#include <sstream>
#include <string>
#include <thread>
#include <vector>

#include "absl/strings/str_cat.h"
#include "absl/time/clock.h"
#include "gridstar/v1/gridstar.grpc.pb.h"
#include "grpcpp/grpcpp.h"
#include "gtest/gtest.h"
#include "testing/commands.h"
#include "testing/loopback.h"

namespace gridstar::testing {

namespace v1 = ::gridstar::v1;

// The server binary as a child process.
class ServerProcess {
 public:
  // stderr_path: where the server's standard error goes (empty: the test's).
  explicit ServerProcess(std::vector<std::string> extra = {},
                         const std::string& stderr_path = "") {
    // A server that exits before it listens lost a port to another process
    // between FreePort and its bind (parallel tests pick ports too): start
    // it again with a fresh metrics port, a few times.
    for (int attempt = 0; attempt < 5 && port_ == 0; ++attempt) {
      if (attempt > 0) {
        std::fprintf(stderr,
                     "server_process: the server exited before it listened; "
                     "starting it again (attempt %d)\n",
                     attempt + 1);
      }
      Start(extra, stderr_path);
    }
  }
  ~ServerProcess() {
    if (pid_ > 0) {
      kill(pid_, SIGKILL);
      waitpid(pid_, nullptr, 0);
    }
  }

  bool started() const { return port_ != 0; }
  v1::Pathfinding::Stub& stub() { return *stub_; }
  int metrics_port() const { return metrics_port_; }
  int port() const { return port_; }
  pid_t pid() const { return pid_; }

  // Sends a signal and returns the exit status (-1 if it did not exit).
  int SignalAndWait(int sig) {
    if (pid_ <= 0) return -1;  // Never started (kill(-1) would hit all).
    kill(pid_, sig);
    int status = 0;
    waitpid(pid_, &status, 0);
    pid_ = -1;
    return WIFEXITED(status) ? WEXITSTATUS(status) : -1;
  }
  void Kill9() {
    if (pid_ <= 0) return;
    kill(pid_, SIGKILL);
    waitpid(pid_, nullptr, 0);
    pid_ = -1;
  }

 private:
  // One start: forks the server and waits until it writes its port file
  // (port_ set) or exits (pid_ reset, port_ 0).
  void Start(const std::vector<std::string>& extra,
             const std::string& stderr_path) {
    static int counter = 0;
    port_file_ =
        absl::StrCat(::testing::TempDir(), "/port.", getpid(), ".", counter++);
    std::remove(port_file_.c_str());
    metrics_port_ = FreePort();
    std::vector<std::string> args = {
        GRIDSTAR_SERVER_BINARY,
        "--host=127.0.0.1",
        "--port=0",
        absl::StrCat("--port_file=", port_file_),
        absl::StrCat("--metrics_port=", metrics_port_),
        "--workers=2",
        // The server caps every search at --max_search_time from the call's
        // arrival (30 s by default), queueing included: a sanitized build on
        // a loaded machine must not hit it unless a test means to.
        "--max_search_time=3600s"};
    args.insert(args.end(), extra.begin(), extra.end());
    pid_ = fork();
    if (pid_ == 0) {
      if (!stderr_path.empty() &&
          std::freopen(stderr_path.c_str(), "w", stderr) == nullptr) {
        _exit(126);
      }
      std::vector<char*> argv;
      for (std::string& a : args) argv.push_back(a.data());
      argv.push_back(nullptr);
      execv(argv[0], argv.data());
      _exit(127);
    }
    // Up to five minutes: a sanitizer build on a loaded machine starts
    // slowly (the bound only ends a wait for a server that hangs; one that
    // exits ends it at once).
    for (int i = 0; i < 15000 && port_ == 0; ++i) {
      std::ifstream in(port_file_);
      if (!(in >> port_)) port_ = 0;
      if (port_ != 0) break;
      if (waitpid(pid_, nullptr, WNOHANG) == pid_) {
        pid_ = -1;
        return;
      }
      std::this_thread::sleep_for(std::chrono::milliseconds(20));
    }
    channel_ = grpc::CreateChannel(absl::StrCat("127.0.0.1:", port_),
                                   grpc::InsecureChannelCredentials());
    stub_ = v1::Pathfinding::NewStub(channel_);
  }

  pid_t pid_ = -1;
  int port_ = 0;
  int metrics_port_ = 0;
  std::string port_file_;
  std::shared_ptr<grpc::Channel> channel_;
  std::unique_ptr<v1::Pathfinding::Stub> stub_;
};

inline std::string ReadSample(const std::string& name) {
  std::ifstream in(absl::StrCat(GRIDSTAR_SOURCE_DIR, "/data/sample/", name),
                   std::ios::binary);
  std::stringstream ss;
  ss << in.rdbuf();
  return ss.str();
}

inline std::string Scrape(int port) {
  const int fd = ConnectLoopback(port);
  if (fd < 0) return "";
  // A read never blocks for good: should another process have taken the
  // metrics port (FreePort races with parallel tests), it may never answer
  // HTTP. The caller's WaitFor asks again.
  timeval tv{30, 0};
  setsockopt(fd, SOL_SOCKET, SO_RCVTIMEO, &tv, sizeof(tv));
  const std::string req = "GET /metrics HTTP/1.0\r\nHost: localhost\r\n\r\n";
  if (write(fd, req.data(), req.size()) < 0) {
    close(fd);
    return "";
  }
  std::string out;
  char buf[4096];
  ssize_t n;
  while ((n = read(fd, buf, sizeof(buf))) > 0)
    out.append(buf, static_cast<size_t>(n));
  close(fd);
  return out;
}

// The value of the first sample line of `page` that starts with `prefix`
// (the metric name with its labels and the space), 0 when there is none.
inline double MetricValue(const std::string& page, const std::string& prefix) {
  std::istringstream in(page);
  std::string line;
  while (std::getline(in, line)) {
    if (line.rfind(prefix, 0) == 0) {
      return std::atof(line.substr(prefix.size()).c_str());
    }
  }
  return 0;
}

// Polls `done` every 10 ms until it holds or `timeout` passes; returns its
// last value. The condition decides the verdict, never the time it took: the
// timeout only ends a wait that would never succeed.
template <typename Done>
bool WaitFor(Done done, absl::Duration timeout = absl::Minutes(5)) {
  const absl::Time end = absl::Now() + timeout;
  while (!done()) {
    if (absl::Now() >= end) return done();
    absl::SleepFor(absl::Milliseconds(10));
  }
  return true;
}

// Scrapes /metrics until every needle appears (gauges are refreshed every
// half second) or five minutes pass; returns the last page.
inline std::string ScrapeUntil(int port, const std::vector<std::string>& needles) {
  std::string page;
  WaitFor([&] {
    page = Scrape(port);
    for (const std::string& n : needles) {
      if (page.find(n) == std::string::npos) return false;
    }
    return true;
  });
  return page;
}

}  // namespace gridstar::testing

#endif  // GRIDSTAR_TESTS_SERVER_SERVER_PROCESS_H_
