// The main of every GoogleTest binary here. The tests put their scratch
// files (port files, stores, Redis directories, pictures) under
// ::testing::TempDir(), which reads TEST_TMPDIR: this main points it at a
// directory of the run's own (under an outer TEST_TMPDIR, else TMPDIR, else
// /tmp) and removes that directory when the run passes. A failed run keeps
// it, and says where, for whoever looks into the failure. Processes a test
// started inherit the variable.

#include <stdlib.h>
#include <sys/stat.h>

#include <cstdio>
#include <filesystem>
#include <string>
#include <system_error>
#include <vector>

#include "gtest/gtest.h"

namespace {

std::string ScratchParent() {
  for (const char* name : {"TEST_TMPDIR", "TMPDIR"}) {
    const char* value = std::getenv(name);
    if (value != nullptr && value[0] != '\0') return value;
  }
  return "/tmp";
}

}  // namespace

int main(int argc, char** argv) {
  std::string pattern = ScratchParent() + "/gridstar-test.XXXXXX";
  std::vector<char> path(pattern.begin(), pattern.end());
  path.push_back('\0');
  const char* scratch = mkdtemp(path.data());
  if (scratch == nullptr) {
    std::perror(("gridstar tests: mkdtemp " + pattern).c_str());
    return 2;
  }
  // Readable by others as a directory made by hand would be: an nginx test's
  // workers run as another user and read what the test writes under it.
  chmod(scratch, 0755);
  setenv("TEST_TMPDIR", scratch, 1);
  ::testing::InitGoogleTest(&argc, argv);
  const int result = RUN_ALL_TESTS();
  if (result == 0) {
    std::error_code ignored;
    std::filesystem::remove_all(scratch, ignored);
  } else {
    std::fprintf(stderr, "gridstar tests: this run's scratch files are in %s\n",
                 scratch);
  }
  return result;
}
