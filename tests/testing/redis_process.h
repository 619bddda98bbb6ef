// A real redis-server for tests: Debian's binary (scripts/install-deps.sh
// --test installs it) as a child process on a free loopback port, without
// persistence, killed when the object dies. Header-only.
#ifndef GRIDSTAR_TESTS_TESTING_REDIS_PROCESS_H_
#define GRIDSTAR_TESTS_TESTING_REDIS_PROCESS_H_

#include <signal.h>
#include <sys/wait.h>
#include <unistd.h>

#include <chrono>
#include <cstdio>
#include <cstdlib>
#include <string>
#include <thread>
#include <vector>

#include "absl/strings/str_cat.h"
#include "gtest/gtest.h"
#include "testing/loopback.h"

namespace gridstar::testing {

inline std::string RedisServerBinary() {
  for (const char* path : {"/usr/bin/redis-server", "/usr/sbin/redis-server"}) {
    if (access(path, X_OK) == 0) return path;
  }
  return "";
}

class RedisProcess {
 public:
  // Starts redis-server on `port` (0: a free one) and waits until it
  // answers PING (up to five minutes: the bound only ends a wait for a
  // server that died).
  // `extra`: more redis-server arguments (config directives such as
  // "--requirepass", "pw" or "--user", "alice", "on", ">pw", "~*", "+@all").
  explicit RedisProcess(int port = 0, std::vector<std::string> extra = {}) {
    const std::string binary = RedisServerBinary();
    if (binary.empty()) {
      error_ = "redis-server is not installed (scripts/install-deps.sh --test)";
      return;
    }
    port_ = port != 0 ? port : FreePort();
    pid_ = fork();
    if (pid_ == 0) {
      if (std::freopen("/dev/null", "w", stdout) == nullptr) _exit(126);
      // A directory of its own: a replica writes the master's snapshot
      // (dump.rdb) there, which another server started in the same
      // directory would load.
      const std::string dir =
          absl::StrCat(::testing::TempDir(), "/redis.", getpid(), ".", port_);
      if (std::system(absl::StrCat("mkdir -p ", dir).c_str()) != 0) _exit(125);
      std::vector<std::string> args = {binary, "--port", absl::StrCat(port_), "--bind",
                                       "127.0.0.1", "--save", "", "--appendonly", "no",
                                       "--daemonize", "no", "--dir", dir};
      args.insert(args.end(), extra.begin(), extra.end());
      std::vector<char*> argv;
      for (std::string& a : args) argv.push_back(a.data());
      argv.push_back(nullptr);
      execv(binary.c_str(), argv.data());
      _exit(127);
    }
    for (int i = 0; i < 15000; ++i) {
      if (Ping()) return;
      int status = 0;
      if (waitpid(pid_, &status, WNOHANG) == pid_) {
        pid_ = -1;
        error_ = "redis-server exited at start";
        return;
      }
      std::this_thread::sleep_for(std::chrono::milliseconds(20));
    }
    error_ = "redis-server did not answer PING";
  }
  ~RedisProcess() { Stop(); }
  RedisProcess(const RedisProcess&) = delete;
  RedisProcess& operator=(const RedisProcess&) = delete;

  // Empty when the server runs; else why not.
  const std::string& error() const { return error_; }
  int port() const { return port_; }
  std::string url() const { return absl::StrCat("redis://127.0.0.1:", port_); }

  void Stop() {
    if (pid_ > 0) {
      kill(pid_, SIGKILL);
      waitpid(pid_, nullptr, 0);
    }
    pid_ = -1;
  }

  // True when the server answers PING with PONG (or, with a password set,
  // refuses it for want of one: it is up).
  bool Ping() const {
    const int fd = ConnectLoopback(port_);
    if (fd < 0) return false;
    constexpr char kPing[] = "PING\r\n";
    bool pong = write(fd, kPing, sizeof(kPing) - 1) ==
                static_cast<ssize_t>(sizeof(kPing) - 1);
    char reply[8] = {};
    pong = pong && read(fd, reply, 7) >= 5 &&
           (std::string(reply, 5) == "+PONG" || std::string(reply, 7) == "-NOAUTH");
    close(fd);
    return pong;
  }

 private:
  pid_t pid_ = -1;
  int port_ = 0;
  std::string error_;
};

// One redis-server for a whole test binary, stopped at its exit; suites
// keep apart by key prefix.
inline RedisProcess& SharedRedisProcess() {
  static auto* redis = new RedisProcess();
  static const bool stop_at_exit = [] {
    std::atexit([] { SharedRedisProcess().Stop(); });
    return true;
  }();
  (void)stop_at_exit;
  return *redis;
}

}  // namespace gridstar::testing

// In a test: fails under CI, else skips, when `redis` (a RedisProcess)
// could not start (redis-server missing).
#define GRIDSTAR_REQUIRE_REDIS(redis)                              \
  do {                                                             \
    if (!(redis).error().empty()) {                                \
      if (std::getenv("CI") != nullptr) FAIL() << (redis).error(); \
      GTEST_SKIP() << (redis).error();                             \
    }                                                              \
  } while (0)

#endif  // GRIDSTAR_TESTS_TESTING_REDIS_PROCESS_H_
