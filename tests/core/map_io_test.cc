// Readers and writers: round trips, and one test for every malformed input,
// each asserting the status code and the line or field in the message.

#include "gridstar/map_io.h"

#include <string>

#include "gtest/gtest.h"
#include "testing/status_matchers.h"

namespace gridstar {
namespace {

using testing::StatusIs;
constexpr auto kInvalid = absl::StatusCode::kInvalidArgument;
// Sizes over the limits are limits (ResourceExhausted), not malformed input.
constexpr auto kOverLimit = absl::StatusCode::kResourceExhausted;

constexpr char kSmallMap[] =
    "type octile\nheight 3\nwidth 4\nmap\n"
    ".@G.\n"
    "S.T.\n"
    "..WO\n";

TEST(MovingAiMapTest, ReadsPassableAndBlockedCharacters) {
  absl::StatusOr<GridMap> map = ParseMovingAiMap(kSmallMap);
  ASSERT_OK(map);
  EXPECT_EQ(map->width(), 4);
  EXPECT_EQ(map->height(), 3);
  const char* rows[] = {".@G.", "S.T.", "..WO"};
  for (int y = 0; y < 3; ++y) {
    for (int x = 0; x < 4; ++x) {
      const char c = rows[y][x];
      const bool passable = c == '.' || c == 'G' || c == 'S';
      EXPECT_EQ(map->cost({x, y}), passable ? 1 : 0) << x << "," << y;
    }
  }
}

TEST(MovingAiMapTest, AcceptsCrlfAndWidthBeforeHeight) {
  absl::StatusOr<GridMap> map = ParseMovingAiMap(
      "type octile\r\nwidth 2\r\nheight 1\r\nmap\r\n.@\r\n\r\n");
  ASSERT_OK(map);
  EXPECT_EQ(map->width(), 2);
  EXPECT_EQ(map->cost({1, 0}), 0);
}

TEST(MovingAiMapTest, WriteThenReadRoundTrips) {
  absl::StatusOr<GridMap> map = ParseMovingAiMap(kSmallMap);
  ASSERT_OK(map);
  absl::StatusOr<std::string> text = WriteMovingAiMap(*map);
  ASSERT_OK(text);
  absl::StatusOr<GridMap> again = ParseMovingAiMap(*text);
  ASSERT_OK(again);
  EXPECT_EQ(again->CopyCosts(), map->CopyCosts());
}

TEST(MovingAiMapTest, WriteRejectsTerrainCosts) {
  const uint8_t costs[] = {1, 5};
  absl::StatusOr<GridMap> map = GridMap::FromCosts(2, 1, costs);
  ASSERT_OK(map);
  EXPECT_TRUE(StatusIs(WriteMovingAiMap(*map), kInvalid, "terrain costs"));
}

TEST(MovingAiMapTest, EmptyInput) {
  EXPECT_TRUE(StatusIs(ParseMovingAiMap(""), kInvalid, "line 1: empty input"));
}

TEST(MovingAiMapTest, MissingTypeLine) {
  EXPECT_TRUE(StatusIs(ParseMovingAiMap("height 1\nwidth 1\nmap\n.\n"),
                       kInvalid, "line 1: expected 'type <name>'"));
}

TEST(MovingAiMapTest, BadHeightLine) {
  EXPECT_TRUE(
      StatusIs(ParseMovingAiMap("type octile\nheight x\nwidth 1\nmap\n.\n"),
               kInvalid, "line 2: expected 'height <number>'"));
}

TEST(MovingAiMapTest, MissingWidthLine) {
  EXPECT_TRUE(StatusIs(ParseMovingAiMap("type octile\nheight 1\nmap\n.\n"),
                       kInvalid, "line 3: expected 'width <number>'"));
}

TEST(MovingAiMapTest, HeightGivenTwice) {
  EXPECT_TRUE(StatusIs(ParseMovingAiMap("type octile\nheight 1\nheight 1\n"),
                       kInvalid, "line 3: 'height' given twice"));
}

TEST(MovingAiMapTest, TruncatedHeader) {
  EXPECT_TRUE(StatusIs(ParseMovingAiMap("type octile\nheight 1\n"), kInvalid,
                       "line 3: truncated header"));
}

TEST(MovingAiMapTest, ZeroWidth) {
  EXPECT_TRUE(
      StatusIs(ParseMovingAiMap("type octile\nheight 1\nwidth 0\nmap\n"),
               kInvalid, "line 3: width: 0 is out of range"));
}

TEST(MovingAiMapTest, NegativeHeight) {
  EXPECT_TRUE(
      StatusIs(ParseMovingAiMap("type octile\nheight -4\nwidth 2\nmap\n"),
               kInvalid, "height: -4 is out of range"));
}

TEST(MovingAiMapTest, DimensionsOverTheLimitAreRefusedBeforeAllocating) {
  // 10^17 cells would be an allocation of 100 PB if it were trusted.
  EXPECT_TRUE(StatusIs(
      ParseMovingAiMap("type octile\nheight 316227766\nwidth 316227766\nmap\n"),
      kOverLimit, "line 3: width: 316227766 is over the limit of 8192"));
  EXPECT_TRUE(StatusIs(
      ParseMovingAiMap("type octile\nheight 999999999999999999999\nwidth 1\n"),
      kInvalid, "line 2: expected 'height <number>'"));
  MapLimits limits;
  limits.max_cells = 10;
  EXPECT_TRUE(StatusIs(
      ParseMovingAiMap("type octile\nheight 4\nwidth 4\nmap\n", limits),
      kOverLimit, "over the limit of 10"));
}

TEST(MovingAiMapTest, MissingMapLine) {
  EXPECT_TRUE(StatusIs(ParseMovingAiMap("type octile\nheight 1\nwidth 1\n.\n"),
                       kInvalid, "line 4: expected 'map'"));
}

TEST(MovingAiMapTest, RowTooShort) {
  EXPECT_TRUE(StatusIs(
      ParseMovingAiMap("type octile\nheight 2\nwidth 3\nmap\n...\n..\n"),
      kInvalid, "line 6: row 1 has 2 cells, expected width 3"));
}

TEST(MovingAiMapTest, RowTooLong) {
  EXPECT_TRUE(
      StatusIs(ParseMovingAiMap("type octile\nheight 1\nwidth 3\nmap\n....\n"),
               kInvalid, "line 5: row 0 has 4 cells"));
}

TEST(MovingAiMapTest, TooFewRows) {
  EXPECT_TRUE(
      StatusIs(ParseMovingAiMap("type octile\nheight 3\nwidth 1\nmap\n.\n.\n"),
               kInvalid, "line 7: truncated map: got 2 rows, expected 3"));
}

TEST(MovingAiMapTest, TooManyRows) {
  EXPECT_TRUE(
      StatusIs(ParseMovingAiMap("type octile\nheight 1\nwidth 1\nmap\n.\n.\n"),
               kInvalid, "line 6: more rows than height 1"));
}

constexpr char kPgmAscii[] =
    "P2\n# a comment\n3 2\n# another\n9\n0 1 9\n3 4 5\n";

TEST(PgmTest, ReadsAsciiWithComments) {
  absl::StatusOr<GridMap> map = ParsePgm(kPgmAscii);
  ASSERT_OK(map);
  EXPECT_EQ(map->width(), 3);
  EXPECT_EQ(map->height(), 2);
  EXPECT_EQ(map->cost({0, 0}), 0);
  EXPECT_EQ(map->cost({2, 0}), 9);
  EXPECT_EQ(map->cost({1, 1}), 4);
  EXPECT_EQ(map->min_cost(), 1);
  EXPECT_EQ(map->max_cost(), 9);
}

TEST(PgmTest, BinaryAndAsciiRoundTrip) {
  absl::StatusOr<GridMap> map = ParsePgm(kPgmAscii);
  ASSERT_OK(map);
  for (PgmEncoding e : {PgmEncoding::kBinary, PgmEncoding::kAscii}) {
    absl::StatusOr<GridMap> again = ParsePgm(WritePgm(*map, e));
    ASSERT_OK(again);
    EXPECT_EQ(again->CopyCosts(), map->CopyCosts());
  }
}

TEST(PgmTest, BinaryPixelsMayLookLikeWhitespaceOrComments) {
  const std::string data = std::string("P5 2 2 255\n") + "#\n \t";
  absl::StatusOr<GridMap> map = ParsePgm(data);
  ASSERT_OK(map);
  EXPECT_EQ(map->cost({0, 0}), '#');
  EXPECT_EQ(map->cost({1, 1}), '\t');
}

TEST(PgmTest, BadMagic) {
  EXPECT_TRUE(StatusIs(ParsePgm("P6\n1 1\n255\n"), kInvalid,
                       "PGM line 1: magic: expected P5 or P2"));
}

TEST(PgmTest, MissingHeight) {
  EXPECT_TRUE(StatusIs(ParsePgm("P2\n3\n"), kInvalid,
                       "height: missing (truncated header)"));
}

TEST(PgmTest, NonNumericWidth) {
  EXPECT_TRUE(StatusIs(ParsePgm("P2\nthree 2\n9\n"), kInvalid,
                       "width: expected a non-negative number"));
}

TEST(PgmTest, NegativeWidth) {
  EXPECT_TRUE(StatusIs(ParsePgm("P2\n-3 2\n9\n"), kInvalid,
                       "width: expected a non-negative number"));
}

TEST(PgmTest, ZeroHeight) {
  EXPECT_TRUE(StatusIs(ParsePgm("P5\n3 0\n255\n"), kInvalid,
                       "height: 0 is out of range"));
}

TEST(PgmTest, DimensionsOverTheLimit) {
  EXPECT_TRUE(StatusIs(ParsePgm("P5\n100000 100000\n255\n"), kOverLimit,
                       "width: 100000 is over the limit of 8192"));
}

TEST(PgmTest, MaxvalOver255) {
  EXPECT_TRUE(StatusIs(ParsePgm("P5\n1 1\n65535\n\x01\x01"), kInvalid,
                       "maxval: 65535 is out of range [1, 255]"));
}

TEST(PgmTest, MaxvalZero) {
  EXPECT_TRUE(StatusIs(ParsePgm("P2\n1 1\n0\n0\n"), kInvalid,
                       "maxval: 0 is out of range"));
}

TEST(PgmTest, TruncatedBinaryData) {
  EXPECT_TRUE(StatusIs(ParsePgm(std::string("P5\n2 2\n255\n\x01\x02\x03", 14)),
                       kInvalid,
                       "pixel data: truncated, got 3 bytes, expected 4"));
}

TEST(PgmTest, BinaryDataMissingAfterMaxval) {
  EXPECT_TRUE(
      StatusIs(ParsePgm("P5\n2 2\n255"), kInvalid, "pixel data: missing"));
}

TEST(PgmTest, TrailingBinaryData) {
  EXPECT_TRUE(StatusIs(ParsePgm("P5\n1 1\n255\n\x01\x02"), kInvalid,
                       "1 bytes of trailing data"));
}

TEST(PgmTest, BinaryPixelOverMaxval) {
  EXPECT_TRUE(StatusIs(ParsePgm("P5\n2 1\n9\n\x01\x0a"), kInvalid,
                       "pixel 1 (x=1, y=0): value 10 exceeds maxval 9"));
}

TEST(PgmTest, AsciiPixelOverMaxval) {
  EXPECT_TRUE(StatusIs(ParsePgm("P2\n2 1\n9\n1 12\n"), kInvalid,
                       "pixel 1 (x=1, y=0): value 12 exceeds maxval 9"));
}

TEST(PgmTest, AsciiPixelNotANumber) {
  EXPECT_TRUE(StatusIs(ParsePgm("P2\n2 1\n9\n1 x\n"), kInvalid,
                       "PGM line 4: pixel 1: expected a number, got 'x'"));
}

TEST(PgmTest, AsciiTruncatedPixels) {
  EXPECT_TRUE(StatusIs(ParsePgm("P2\n2 2\n9\n1 1 1\n"), kInvalid,
                       "pixel data: truncated, got 3 pixels, expected 4"));
}

TEST(PgmTest, AsciiTrailingData) {
  EXPECT_TRUE(StatusIs(ParsePgm("P2\n1 1\n9\n1 2\n"), kInvalid,
                       "trailing data after 1 pixels"));
}

TEST(RawMapTest, ReadsRowMajorBytes) {
  absl::StatusOr<GridMap> map =
      ParseRawMap(2, 2, std::string("\x01\x00\x07\x02", 4));
  ASSERT_OK(map);
  EXPECT_EQ(map->cost({1, 0}), 0);
  EXPECT_EQ(map->cost({0, 1}), 7);
}

TEST(RawMapTest, WrongByteCount) {
  EXPECT_TRUE(StatusIs(ParseRawMap(2, 2, "abc"), kInvalid,
                       "got 3 bytes, expected width x height = 4"));
}

TEST(RawMapTest, ZeroOrNegativeSize) {
  EXPECT_TRUE(StatusIs(ParseRawMap(0, 2, ""), kInvalid, "width: 0"));
  EXPECT_TRUE(StatusIs(ParseRawMap(2, -1, ""), kInvalid, "height: -1"));
}

TEST(RawMapTest, OverTheLimit) {
  EXPECT_TRUE(StatusIs(ParseRawMap(int64_t{1} << 40, 1, ""), kOverLimit,
                       "width: 1099511627776 is over the limit"));
}

TEST(MapAutoTest, UnknownFormat) {
  EXPECT_TRUE(
      StatusIs(ParseMapAuto("hello"), kInvalid, "map format: not recognised"));
}

TEST(MapAutoTest, PicksTheReaderByContent) {
  ASSERT_OK(ParseMapAuto(kSmallMap));
  ASSERT_OK(ParseMapAuto(kPgmAscii));
}

TEST(ReadFileTest, MissingFileIsNotFound) {
  EXPECT_TRUE(StatusIs(ReadMapFile("/nonexistent/x.map"),
                       absl::StatusCode::kNotFound, "cannot open"));
}

TEST(ReadFileTest, FileOverTheLimitIsRefused) {
  EXPECT_TRUE(StatusIs(ReadFile("/proc/self/exe", 16), kInvalid,
                       "larger than the limit of 16 bytes"));
}

TEST(GridMapTest, CountsComponentsAndCosts) {
  // Two 4-connected areas, one cell touching only diagonally is separate.
  const uint8_t costs[] = {
      1, 1, 0, 3,  //
      1, 0, 0, 3,  //
      0, 2, 0, 0,  //
  };
  absl::StatusOr<GridMap> map = GridMap::FromCosts(4, 3, costs);
  ASSERT_OK(map);
  EXPECT_EQ(map->component_count(), 3u);
  EXPECT_EQ(map->passable_count(), 6);
  EXPECT_EQ(map->min_cost(), 1);
  EXPECT_EQ(map->max_cost(), 3);
  EXPECT_TRUE(map->Connected({0, 0}, {0, 1}));
  EXPECT_FALSE(map->Connected({0, 1}, {1, 2}));
  EXPECT_FALSE(map->Connected({0, 0}, {3, 0}));
  EXPECT_EQ(map->component({2, 0}), 0u);
  EXPECT_FALSE(map->Passable({-1, 0}));
  EXPECT_FALSE(map->Passable({4, 0}));
  EXPECT_GT(map->MemoryBytes(), 12u * 5);
  EXPECT_EQ(std::vector<uint8_t>(costs, costs + 12), map->CopyCosts());
}

TEST(GridMapTest, AllBlockedMap) {
  const uint8_t costs[] = {0, 0};
  absl::StatusOr<GridMap> map = GridMap::FromCosts(2, 1, costs);
  ASSERT_OK(map);
  EXPECT_EQ(map->component_count(), 0u);
  EXPECT_EQ(map->min_cost(), 0);
}

}  // namespace
}  // namespace gridstar
