// PNG and mapped PGM maps (map_import.h): images drawn by ImageMagick, the
// tool studios and scripts use, read cell by cell against what was drawn;
// random colour images through every PNG colour type ImageMagick writes;
// each mapping mode and each malformed input.

#include <cstdint>
#include <fstream>
#include <random>
#include <sstream>
#include <string>
#include <vector>

#include "absl/strings/match.h"
#include "absl/strings/str_cat.h"
#include "gridstar/map_import.h"
#include "gtest/gtest.h"
#include "testing/commands.h"
#include "testing/status_matchers.h"

namespace gridstar {
namespace {

using testing::RunAndCapture;
using testing::StatusIs;

std::string ReadAll(const std::string& path) {
  std::ifstream in(path, std::ios::binary);
  std::stringstream s;
  s << in.rdbuf();
  return s.str();
}

std::string Temp(const std::string& name) {
  return absl::StrCat(::testing::TempDir(), "/image_import_", getpid(), "_",
                      name);
}

// Runs ImageMagick's convert with `args`; the file it wrote, read back.
std::string Convert(const std::string& args, const std::string& out) {
  int code = 0;
  const std::string printed = RunAndCapture(
      absl::StrCat("/usr/bin/convert ", args, " ", out, " 2>&1"), &code);
  EXPECT_EQ(code, 0) << printed;
  return ReadAll(out.substr(out.find(':') + 1));
}

std::vector<uint8_t> Costs(const MapWithAreas& m) {
  std::vector<uint8_t> costs = m.map.CopyCosts();
  return costs;
}

// A white 20 x 10 image with a black rectangle over x 2..5, y 3..7 (a wall)
// and a grey one (level 128) over x 10..12, y 0..1.
constexpr int kW = 20, kH = 10;
const char* const kDrawing =
    "-size 20x10 xc:white +antialias -fill black -draw 'rectangle 2,3 5,7' "
    "-fill 'rgb(128,128,128)' -draw 'rectangle 10,0 12,1'";
bool InWall(int x, int y) { return x >= 2 && x <= 5 && y >= 3 && y <= 7; }
bool InGrey(int x, int y) { return x >= 10 && x <= 12 && y <= 1; }

class DrawnImageTest : public ::testing::TestWithParam<const char*> {};

// The usual drawing (white floor, black walls) gives cost 1 floors under the
// default mapping, whatever PNG colour type carries it.
TEST_P(DrawnImageTest, WhiteFloorIsCostOneBlackIsWall) {
  GRIDSTAR_REQUIRE_PROGRAM("/usr/bin/convert");
  const std::string out = absl::StrCat(GetParam(), Temp("drawn.png"));
  const std::string png = Convert(kDrawing, out);
  absl::StatusOr<MapWithAreas> m = ParsePngMap(png, ImageMapping{});
  ASSERT_OK(m);
  ASSERT_EQ(m->map.width(), kW);
  ASSERT_EQ(m->map.height(), kH);
  EXPECT_TRUE(m->areas.empty());
  for (int y = 0; y < kH; ++y) {
    for (int x = 0; x < kW; ++x) {
      SCOPED_TRACE(absl::StrCat("(", x, ", ", y, ")"));
      EXPECT_EQ(m->map.cost(Cell{x, y}), InWall(x, y) ? 0 : 1);
    }
  }
}

INSTANTIATE_TEST_SUITE_P(ColourTypes, DrawnImageTest,
                         ::testing::Values("PNG8:", "PNG24:", "PNG32:",
                                           "PNG48:", "PNG64:", "PNG00:"));

TEST(ImageImportTest, ThresholdInvertAndFloorCost) {
  GRIDSTAR_REQUIRE_PROGRAM("/usr/bin/convert");
  const std::string png = Convert(kDrawing, Temp("t.png"));
  ImageMapping mapping;
  mapping.threshold = 129;  // The grey (128) falls below: a wall too.
  mapping.floor_cost = 7;
  absl::StatusOr<MapWithAreas> m = ParsePngMap(png, mapping);
  ASSERT_OK(m);
  mapping.invert = true;
  absl::StatusOr<MapWithAreas> inverted = ParsePngMap(png, mapping);
  ASSERT_OK(inverted);
  for (int y = 0; y < kH; ++y) {
    for (int x = 0; x < kW; ++x) {
      SCOPED_TRACE(absl::StrCat("(", x, ", ", y, ")"));
      const bool floor = !InWall(x, y) && !InGrey(x, y);
      EXPECT_EQ(m->map.cost(Cell{x, y}), floor ? 7 : 0);
      EXPECT_EQ(inverted->map.cost(Cell{x, y}), floor ? 0 : 7);
    }
  }
}

TEST(ImageImportTest, ValueModeReadsLevelsAsCosts) {
  GRIDSTAR_REQUIRE_PROGRAM("/usr/bin/convert");
  const std::string png = Convert(kDrawing, Temp("v.png"));
  ImageMapping mapping;
  mapping.mode = ImageMapping::Mode::kValue;
  absl::StatusOr<MapWithAreas> m = ParsePngMap(png, mapping);
  ASSERT_OK(m);
  mapping.invert = true;
  absl::StatusOr<MapWithAreas> inverted = ParsePngMap(png, mapping);
  ASSERT_OK(inverted);
  for (int y = 0; y < kH; ++y) {
    for (int x = 0; x < kW; ++x) {
      SCOPED_TRACE(absl::StrCat("(", x, ", ", y, ")"));
      const int level = InWall(x, y) ? 0 : InGrey(x, y) ? 128 : 255;
      EXPECT_EQ(m->map.cost(Cell{x, y}), level);
      EXPECT_EQ(inverted->map.cost(Cell{x, y}), 255 - level);
    }
  }
}

// A PGM saved the usual way (white floor) registers with cost 1 floors
// through a threshold; unmapped it keeps reading pixel values as costs.
TEST(ImageImportTest, WhiteFloorPgmThroughThreshold) {
  GRIDSTAR_REQUIRE_PROGRAM("/usr/bin/convert");
  // Plain (P2) and binary (P5), 8 and 16 bits a sample.
  for (const char* options : {"-depth 8 -compress none", "-depth 8",
                              "-depth 16 -compress none", "-depth 16"}) {
    SCOPED_TRACE(options);
    const std::string pgm = Convert(absl::StrCat(kDrawing, " ", options),
                                    absl::StrCat("PGM:", Temp("w.pgm")));
    absl::StatusOr<MapWithAreas> m = ParsePgmMap(pgm, ImageMapping{});
    ASSERT_OK(m);
    for (int y = 0; y < kH; ++y) {
      for (int x = 0; x < kW; ++x) {
        SCOPED_TRACE(absl::StrCat("(", x, ", ", y, ")"));
        EXPECT_EQ(m->map.cost(Cell{x, y}), InWall(x, y) ? 0 : 1);
      }
    }
    absl::StatusOr<GridMap> unmapped = ParsePgm(pgm);
    if (absl::StrContains(options, "16")) {
      // Costs are one byte: the unmapped reading refuses, pointing to the
      // mapping.
      EXPECT_TRUE(StatusIs(unmapped, absl::StatusCode::kInvalidArgument,
                           "reads through an image mapping"));
    } else {
      ASSERT_OK(unmapped);
      EXPECT_EQ(unmapped->cost(Cell{0, 0}), 255);
    }
  }
}

// A PGM with maxval 1: levels scale to 0-255 before the threshold; VALUE
// keeps the pixel value, and invert takes it from maxval.
TEST(ImageImportTest, PgmMaxvalScalesLevels) {
  const std::string pgm = "P2\n3 1\n1\n0 1 1\n";
  absl::StatusOr<MapWithAreas> m = ParsePgmMap(pgm, ImageMapping{});
  ASSERT_OK(m);
  EXPECT_EQ(Costs(*m), (std::vector<uint8_t>{0, 1, 1}));
  ImageMapping value;
  value.mode = ImageMapping::Mode::kValue;
  value.invert = true;
  m = ParsePgmMap(pgm, value);
  ASSERT_OK(m);
  EXPECT_EQ(Costs(*m), (std::vector<uint8_t>{1, 0, 0}));
}

// A 16-bit binary PGM: samples of two bytes, most significant first, read
// as levels (VALUE too).
TEST(ImageImportTest, SixteenBitPgmReadsAsLevels) {
  const std::string pgm = std::string("P5\n3 1\n65535\n") +
                          std::string("\x00\x00\x80\x00\xff\xff", 6);
  absl::StatusOr<MapWithAreas> m = ParsePgmMap(pgm, ImageMapping{});
  ASSERT_OK(m);
  EXPECT_EQ(Costs(*m), (std::vector<uint8_t>{0, 1, 1}));
  ImageMapping value;
  value.mode = ImageMapping::Mode::kValue;
  m = ParsePgmMap(pgm, value);
  ASSERT_OK(m);
  EXPECT_EQ(Costs(*m), (std::vector<uint8_t>{0, 128, 255}));
  EXPECT_TRUE(StatusIs(ParsePgmMap(pgm.substr(0, pgm.size() - 1), value),
                       absl::StatusCode::kInvalidArgument,
                       "truncated, got 5 bytes, expected 6"));
}

// Random colours written as a PPM, turned into PNGs by ImageMagick, read
// through a palette: every cell's cost and area is its colour's.
TEST(ImageImportTest, RandomPaletteImagesCellByCell) {
  GRIDSTAR_REQUIRE_PROGRAM("/usr/bin/convert");
  const uint32_t colours[] = {0xffffff, 0x000000, 0x2080ff,
                              0x30c030, 0xff0000, 0x808080};
  ImageMapping mapping;
  mapping.mode = ImageMapping::Mode::kPalette;
  for (int i = 0; i < 6; ++i) {
    mapping.palette.push_back(ImageMapping::Colour{
        colours[i], static_cast<uint8_t>(i == 1 ? 0 : 1 + 10 * i),
        static_cast<uint8_t>(i)});
  }
  std::mt19937 rng(20261207);
  for (int round = 0; round < 6; ++round) {
    const int w = 1 + static_cast<int>(rng() % 40);
    const int h = 1 + static_cast<int>(rng() % 30);
    SCOPED_TRACE(absl::StrCat("round ", round, ": ", w, " x ", h));
    std::vector<int> index(static_cast<size_t>(w * h));
    std::string ppm = absl::StrCat("P6\n", w, " ", h, "\n255\n");
    for (int& i : index) {
      i = static_cast<int>(rng() % 6);
      ppm.push_back(static_cast<char>(colours[i] >> 16));
      ppm.push_back(static_cast<char>((colours[i] >> 8) & 0xff));
      ppm.push_back(static_cast<char>(colours[i] & 0xff));
    }
    const std::string in = Temp("random.ppm");
    std::ofstream(in, std::ios::binary) << ppm;
    for (const char* type : {"PNG8:", "PNG24:", "PNG32:", "PNG48:"}) {
      SCOPED_TRACE(type);
      const std::string png = Convert(in, absl::StrCat(type, Temp("r.png")));
      absl::StatusOr<MapWithAreas> m = ParsePngMap(png, mapping);
      ASSERT_OK(m);
      ASSERT_EQ(m->areas.size(), index.size());
      for (size_t c = 0; c < index.size(); ++c) {
        const ImageMapping::Colour& want = mapping.palette[index[c]];
        ASSERT_EQ(m->map.cost(Cell{static_cast<int32_t>(c % w),
                                   static_cast<int32_t>(c / w)}),
                  want.cost)
            << "cell " << c;
        ASSERT_EQ(m->areas[c], want.area) << "cell " << c;
      }
    }
  }
}

// Transparent parts are seen on white: floor under the default mapping.
TEST(ImageImportTest, TransparentIsSeenOnWhite) {
  GRIDSTAR_REQUIRE_PROGRAM("/usr/bin/convert");
  const std::string png =
      Convert("-size 4x1 xc:none +antialias -fill black -draw 'point 1,0'",
              Temp("alpha.png"));
  absl::StatusOr<MapWithAreas> m = ParsePngMap(png, ImageMapping{});
  ASSERT_OK(m);
  EXPECT_EQ(Costs(*m), (std::vector<uint8_t>{1, 0, 1, 1}));
}

TEST(ImageImportTest, ColourMissingFromPaletteNamesPixel) {
  GRIDSTAR_REQUIRE_PROGRAM("/usr/bin/convert");
  const std::string png = Convert(kDrawing, Temp("p.png"));
  ImageMapping mapping;
  mapping.mode = ImageMapping::Mode::kPalette;
  mapping.palette = {{0xffffff, 1, 0}, {0x000000, 0, 0}};
  EXPECT_TRUE(StatusIs(ParsePngMap(png, mapping),
                       absl::StatusCode::kInvalidArgument,
                       "pixel (10, 0): colour #808080 is not in"));
}

TEST(ImageImportTest, InvalidMappingNamesField) {
  const struct {
    const char* name;
    ImageMapping mapping;
    const char* fragment;
  } cases[] = {
      {"threshold 0",
       {ImageMapping::Mode::kThreshold, 0, false, 1, {}},
       "threshold: 0"},
      {"floor cost 256",
       {ImageMapping::Mode::kThreshold, 128, false, 256, {}},
       "floor_cost: 256"},
      {"empty palette",
       {ImageMapping::Mode::kPalette, 128, false, 1, {}},
       "palette: empty"},
      {"colour twice",
       {ImageMapping::Mode::kPalette,
        128,
        false,
        1,
        {{0xff, 1, 0}, {0xff, 2, 0}}},
       "palette[1].rgb: colour #0000ff is also palette[0]"},
      {"rgb over 24 bits",
       {ImageMapping::Mode::kPalette, 128, false, 1, {{0x1000000, 1, 0}}},
       "palette[0].rgb"},
      {"area 64",
       {ImageMapping::Mode::kPalette, 128, false, 1, {{0xff, 1, 64}}},
       "palette[0].area: 64"},
  };
  for (const auto& c : cases) {
    SCOPED_TRACE(c.name);
    EXPECT_TRUE(StatusIs(ValidateImageMapping(c.mapping),
                         absl::StatusCode::kInvalidArgument, c.fragment));
    EXPECT_TRUE(StatusIs(ParsePgmMap("P2\n1 1\n255\n0\n", c.mapping),
                         absl::StatusCode::kInvalidArgument, c.fragment));
  }
}

TEST(ImageImportTest, MalformedPngIsInvalidArgument) {
  EXPECT_TRUE(StatusIs(ParsePngMap("not a png", ImageMapping{}),
                       absl::StatusCode::kInvalidArgument, "png: "));
  EXPECT_TRUE(StatusIs(ParsePngMap("", ImageMapping{}),
                       absl::StatusCode::kInvalidArgument, "png: "));
}

TEST(ImageImportTest, TruncatedPngIsInvalidArgument) {
  GRIDSTAR_REQUIRE_PROGRAM("/usr/bin/convert");
  const std::string png = Convert(kDrawing, Temp("cut.png"));
  // Cut in the signature, the header and the pixel data (a file cut only
  // in its end marker, after whole pixel data, still reads).
  const size_t idat = png.find("IDAT");
  ASSERT_NE(idat, std::string::npos);
  for (size_t keep : {size_t{4}, size_t{20}, idat + 10, idat + 30}) {
    SCOPED_TRACE(keep);
    EXPECT_TRUE(StatusIs(ParsePngMap(png.substr(0, keep), ImageMapping{}),
                         absl::StatusCode::kInvalidArgument, "png: "));
  }
}

TEST(ImageImportTest, PngOverTheLimitsIsResourceExhausted) {
  GRIDSTAR_REQUIRE_PROGRAM("/usr/bin/convert");
  const std::string png = Convert(kDrawing, Temp("big.png"));
  MapLimits limits;
  limits.max_width = 19;
  EXPECT_TRUE(StatusIs(ParsePngMap(png, ImageMapping{}, limits),
                       absl::StatusCode::kResourceExhausted, "png: "));
}

}  // namespace
}  // namespace gridstar
