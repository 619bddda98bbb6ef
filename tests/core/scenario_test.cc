#include "gridstar/scenario.h"

#include "gtest/gtest.h"
#include "testing/status_matchers.h"

namespace gridstar {
namespace {

using testing::StatusIs;
constexpr auto kInvalid = absl::StatusCode::kInvalidArgument;

TEST(ScenarioTest, ParsesTabsSpacesBlankLinesAndCrlf) {
  absl::StatusOr<std::vector<ScenarioQuery>> q = ParseScenario(
      "version 1.0\r\n"
      "0\tmaps/a.map\t512\t512\t1\t2\t3\t4\t5.5\r\n"
      "\r\n"
      "   \n"
      "1 a.map 512 512 10 20 30 40 -1\n");
  ASSERT_OK(q);
  ASSERT_EQ(q->size(), 2u);
  EXPECT_EQ((*q)[0].line, 2);
  EXPECT_EQ((*q)[0].map_path, "maps/a.map");
  EXPECT_EQ((*q)[0].start, (Cell{1, 2}));
  EXPECT_EQ((*q)[0].goal, (Cell{3, 4}));
  EXPECT_EQ((*q)[0].optimal, 5.5);
  EXPECT_EQ((*q)[1].line, 5);
  EXPECT_EQ((*q)[1].optimal, -1);
}

TEST(ScenarioTest, EmptyFile) {
  EXPECT_TRUE(
      StatusIs(ParseScenario(""), kInvalid, "line 1: expected 'version 1'"));
}

TEST(ScenarioTest, BadVersion) {
  EXPECT_TRUE(StatusIs(ParseScenario("version 2\n"), kInvalid,
                       "line 1: expected 'version 1', got 'version 2'"));
}

TEST(ScenarioTest, WrongFieldCount) {
  EXPECT_TRUE(StatusIs(ParseScenario("version 1\n0 a.map 1 1 0 0 0 0\n"),
                       kInvalid, "line 2: expected 9 fields"));
}

TEST(ScenarioTest, BadCoordinate) {
  EXPECT_TRUE(StatusIs(ParseScenario("version 1\n0 a.map 1 1 0 x 0 0 1\n"),
                       kInvalid, "line 2: start-y: invalid value 'x'"));
  EXPECT_TRUE(
      StatusIs(ParseScenario("version 1\n0 a.map 1 1 0 0 9999999999 0 1\n"),
               kInvalid, "goal-x"));
}

TEST(ScenarioTest, BadOptimal) {
  EXPECT_TRUE(StatusIs(ParseScenario("version 1\n0 a.map 1 1 0 0 0 0 nan\n"),
                       kInvalid, "optimal-length"));
  EXPECT_TRUE(StatusIs(ParseScenario("version 1\n0 a.map 1 1 0 0 0 0 -2\n"),
                       kInvalid, "optimal-length"));
}

TEST(ScenarioTest, NegativeMapWidth) {
  EXPECT_TRUE(StatusIs(ParseScenario("version 1\n0 a.map -1 1 0 0 0 0 1\n"),
                       kInvalid, "map-width"));
}

TEST(LengthMatchesTest, UsesTheBenchmarkTolerance) {
  EXPECT_TRUE(LengthMatches(100.0, 100.0));
  EXPECT_TRUE(LengthMatches(100.0105, 100.0));
  EXPECT_FALSE(LengthMatches(100.02, 100.0));
  EXPECT_TRUE(LengthMatches(-1, -1));
  EXPECT_FALSE(LengthMatches(-1, 3));
  EXPECT_FALSE(LengthMatches(3, -1));
}

}  // namespace
}  // namespace gridstar
