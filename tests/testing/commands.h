// Running the real tools the tests drive (curl, tiled, ImageMagick's
// convert): a shell command with its output, and a guard that fails under CI
// and skips elsewhere when a tool is not installed (scripts/install-deps.sh
// --test installs them all). Header-only.
#ifndef GRIDSTAR_TESTS_TESTING_COMMANDS_H_
#define GRIDSTAR_TESTS_TESTING_COMMANDS_H_

#include <sys/wait.h>

#include <cstdio>
#include <cstdlib>
#include <string>

namespace gridstar::testing {

// Runs a shell command; returns everything it printed and sets *code to its
// exit status (-1 when it did not exit normally).
inline std::string RunAndCapture(const std::string& command, int* code) {
  FILE* p = popen(command.c_str(), "r");
  std::string out;
  char buf[4096];
  while (p != nullptr && fgets(buf, sizeof(buf), p) != nullptr) out += buf;
  const int status = p == nullptr ? -1 : pclose(p);
  *code = status != -1 && WIFEXITED(status) ? WEXITSTATUS(status) : -1;
  return out;
}

// Whether `program` is on the PATH.
inline bool HaveProgram(const std::string& program) {
  int code = 0;
  RunAndCapture("command -v " + program + " >/dev/null 2>&1", &code);
  return code == 0;
}

}  // namespace gridstar::testing

// In a test: fails under CI, else skips, when `program` is not installed.
#define GRIDSTAR_REQUIRE_PROGRAM(program)                                   \
  do {                                                                      \
    if (!::gridstar::testing::HaveProgram(program)) {                       \
      const std::string why = std::string(program) +                        \
                              " is not installed (scripts/install-deps.sh " \
                              "--test installs it)";                        \
      if (std::getenv("CI") != nullptr) FAIL() << why;                      \
      GTEST_SKIP() << why;                                                  \
    }                                                                       \
  } while (0)

#endif  // GRIDSTAR_TESTS_TESTING_COMMANDS_H_
