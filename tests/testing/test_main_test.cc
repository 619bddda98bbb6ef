// The test binaries' main (test_main.cc): ::testing::TempDir() is a
// directory of the run's own, readable by other users, that the tests may
// write in. tests/testing/test_main_check.sh runs this binary to check that
// a passing run removes the directory and a failing one keeps it and says
// where.

#include <sys/stat.h>

#include <cstdlib>
#include <fstream>
#include <string>

#include "gtest/gtest.h"

namespace {

TEST(ScratchDirTest, TempDirIsADirectoryOfTheRunsOwn) {
  const std::string dir = ::testing::TempDir();
  EXPECT_NE(dir.find("/gridstar-test."), std::string::npos) << dir;
  struct stat st;
  ASSERT_EQ(stat(dir.c_str(), &st), 0) << dir;
  EXPECT_TRUE(S_ISDIR(st.st_mode));
  EXPECT_EQ(st.st_mode & 0777, 0755u);
  std::ofstream(dir + "/written") << "scratch\n";
  EXPECT_TRUE(std::ifstream(dir + "/written").good());
}

// Fails only when asked (the check script does), after writing a file the
// kept directory must still hold.
TEST(ScratchDirTest, FailsWhenAskedAndTheRunKeepsItsDirectory) {
  if (std::getenv("GRIDSTAR_TEST_MAIN_FAIL") == nullptr) {
    GTEST_SKIP() << "run by tests/testing/test_main_check.sh";
  }
  std::ofstream(::testing::TempDir() + "/kept") << "scratch\n";
  FAIL() << "asked to fail (GRIDSTAR_TEST_MAIN_FAIL)";
}

}  // namespace
