#include "gridstar/map_io.h"

#include <cerrno>
#include <cstdio>
#include <cstring>
#include <memory>
#include <vector>

#include "absl/status/status.h"
#include "absl/strings/ascii.h"
#include "absl/strings/str_cat.h"
#include "absl/strings/str_split.h"
#include "absl/strings/strip.h"
#include "gridstar/agents.h"
#include "io/pgm_pixels.h"
#include "io/text_util.h"

namespace gridstar {
namespace {

using internal::LineReader;
using internal::ParseStrictInt;
using internal::Quote;

absl::Status LineError(int line, absl::string_view what) {
  return absl::InvalidArgumentError(absl::StrCat("line ", line, ": ", what));
}

// `s` with the line named, its code kept (a size over the limits stays
// ResourceExhausted).
absl::Status AtLine(int line, const absl::Status& s) {
  return absl::Status(s.code(), absl::StrCat("line ", line, ": ", s.message()));
}

bool MovingAiPassable(char c) { return c == '.' || c == 'G' || c == 'S'; }

// Reads "<key> <number>" from a header line.
absl::Status ParseHeaderNumber(absl::string_view line, int line_number,
                               absl::string_view key, int64_t* out) {
  std::vector<absl::string_view> parts =
      absl::StrSplit(line, absl::ByAnyChar(" \t"), absl::SkipEmpty());
  if (parts.size() != 2 || parts[0] != key || !ParseStrictInt(parts[1], out)) {
    return LineError(
        line_number,
        absl::StrCat("expected '", key, " <number>', got ", Quote(line)));
  }
  return absl::OkStatus();
}

// PGM header tokens: whitespace separated, '#' starts a comment to end of line.
class PgmTokenizer {
 public:
  explicit PgmTokenizer(absl::string_view data) : data_(data) {}

  // Next token, or empty at the end of the data.
  absl::string_view Next() {
    SkipSpaceAndComments();
    const size_t start = pos_;
    while (pos_ < data_.size() && !IsSpace(data_[pos_]) && data_[pos_] != '#') {
      ++pos_;
    }
    return data_.substr(start, pos_ - start);
  }
  // Skips whitespace and comments; true if only those remain.
  bool AtEnd() {
    SkipSpaceAndComments();
    return pos_ >= data_.size();
  }
  size_t pos() const { return pos_; }
  void Advance(size_t n) { pos_ += n; }
  int line() const { return line_; }

  static bool IsSpace(char c) {
    return c == ' ' || c == '\t' || c == '\n' || c == '\r' || c == '\v' ||
           c == '\f';
  }

 private:
  void SkipSpaceAndComments() {
    while (pos_ < data_.size()) {
      const char c = data_[pos_];
      if (c == '#') {
        while (pos_ < data_.size() && data_[pos_] != '\n') ++pos_;
      } else if (IsSpace(c)) {
        if (c == '\n') ++line_;
        ++pos_;
      } else {
        break;
      }
    }
  }

  absl::string_view data_;
  size_t pos_ = 0;
  int line_ = 1;
};

absl::Status PgmError(const PgmTokenizer& t, absl::string_view what) {
  return absl::InvalidArgumentError(
      absl::StrCat("PGM line ", t.line(), ": ", what));
}

// `s` with the PGM line named, its code kept.
absl::Status AtPgmLine(const PgmTokenizer& t, const absl::Status& s) {
  return absl::Status(s.code(),
                      absl::StrCat("PGM line ", t.line(), ": ", s.message()));
}

absl::Status ReadPgmNumber(PgmTokenizer& t, absl::string_view field,
                           int64_t* out) {
  const absl::string_view token = t.Next();
  if (token.empty()) {
    return PgmError(t, absl::StrCat(field, ": missing (truncated header)"));
  }
  if (token[0] == '-' || token[0] == '+' || !ParseStrictInt(token, out)) {
    return PgmError(
        t, absl::StrCat(field, ": expected a non-negative number, got ",
                        Quote(token)));
  }
  return absl::OkStatus();
}

}  // namespace

namespace {

// Reads Moving AI text into costs (and, when `areas` is not null, areas:
// water and trees then passable in their areas).
absl::Status ReadMovingAi(absl::string_view text, const MapLimits& limits,
                          int64_t* width_out, int64_t* height_out,
                          std::vector<uint8_t>* costs_out,
                          std::vector<uint8_t>* areas) {
  LineReader lines(text);
  absl::string_view line;
  // Header: "type ...", then "height H" and "width W" in either order, "map".
  if (!lines.Next(&line)) {
    return LineError(1, "empty input, expected 'type octile'");
  }
  if (!absl::StartsWith(line, "type ") && !absl::StartsWith(line, "type\t")) {
    return LineError(lines.line_number(),
                     absl::StrCat("expected 'type <name>', got ", Quote(line)));
  }
  int64_t width = -1, height = -1;
  for (int i = 0; i < 2; ++i) {
    if (!lines.Next(&line)) {
      return LineError(lines.line_number() + 1,
                       "truncated header, expected 'height' and 'width'");
    }
    const bool is_height = absl::StartsWith(line, "height");
    int64_t* field = is_height ? &height : &width;
    const absl::string_view key = is_height ? "height" : "width";
    if (*field != -1) {
      return LineError(lines.line_number(),
                       absl::StrCat("'", key, "' given twice"));
    }
    if (absl::Status s =
            ParseHeaderNumber(line, lines.line_number(), key, field);
        !s.ok()) {
      return s;
    }
  }
  if (absl::Status s = GridMap::CheckDimensions(width, height, limits);
      !s.ok()) {
    return AtLine(lines.line_number(), s);
  }
  if (!lines.Next(&line) || absl::StripAsciiWhitespace(line) != "map") {
    return LineError(lines.line_number(),
                     absl::StrCat("expected 'map', got ", Quote(line)));
  }
  std::vector<uint8_t>& costs = *costs_out;
  costs.assign(static_cast<size_t>(width * height), 0);
  if (areas != nullptr) areas->assign(costs.size(), kGroundArea);
  for (int64_t y = 0; y < height; ++y) {
    if (!lines.Next(&line)) {
      return LineError(
          lines.line_number() + 1,
          absl::StrCat("truncated map: got ", y, " rows, expected ", height));
    }
    if (static_cast<int64_t>(line.size()) != width) {
      return LineError(lines.line_number(),
                       absl::StrCat("row ", y, " has ", line.size(),
                                    " cells, expected width ", width));
    }
    uint8_t* row = costs.data() + y * width;
    for (int64_t x = 0; x < width; ++x) {
      row[x] = MovingAiPassable(line[x]) ? 1 : 0;
    }
    if (areas != nullptr) {
      uint8_t* area_row = areas->data() + y * width;
      for (int64_t x = 0; x < width; ++x) {
        switch (line[x]) {
          case 'S':
            area_row[x] = kSwampArea;
            break;
          case 'W':
            area_row[x] = kWaterArea;
            row[x] = 1;
            break;
          case 'T':
            area_row[x] = kTreesArea;
            row[x] = 1;
            break;
          default:
            break;
        }
      }
    }
  }
  while (lines.Next(&line)) {
    if (!absl::StripAsciiWhitespace(line).empty()) {
      return LineError(lines.line_number(),
                       absl::StrCat("more rows than height ", height));
    }
  }
  *width_out = width;
  *height_out = height;
  return absl::OkStatus();
}

}  // namespace

absl::StatusOr<GridMap> ParseMovingAiMap(absl::string_view text,
                                         const MapLimits& limits) {
  int64_t width = 0, height = 0;
  std::vector<uint8_t> costs;
  if (absl::Status s =
          ReadMovingAi(text, limits, &width, &height, &costs, nullptr);
      !s.ok()) {
    return s;
  }
  return GridMap::FromCosts(width, height, costs, limits);
}

absl::StatusOr<MapWithAreas> ParseMovingAiMapWithAreas(
    absl::string_view text, const MapLimits& limits) {
  int64_t width = 0, height = 0;
  std::vector<uint8_t> costs;
  std::vector<uint8_t> areas;
  if (absl::Status s =
          ReadMovingAi(text, limits, &width, &height, &costs, &areas);
      !s.ok()) {
    return s;
  }
  absl::StatusOr<GridMap> map = GridMap::FromCosts(width, height, costs, limits);
  if (!map.ok()) return map.status();
  return MapWithAreas{*std::move(map), std::move(areas),
                      kMovingAiDefaultAreas};
}

namespace internal {

absl::StatusOr<PgmPixels> ReadPgmPixels(absl::string_view data,
                                        const MapLimits& limits,
                                        int max_maxval) {
  PgmTokenizer t(data);
  const absl::string_view magic = t.Next();
  if (magic != "P5" && magic != "P2") {
    return PgmError(
        t, absl::StrCat("magic: expected P5 or P2, got ", Quote(magic)));
  }
  const bool binary = magic == "P5";
  int64_t width = 0, height = 0, maxval = 0;
  if (absl::Status s = ReadPgmNumber(t, "width", &width); !s.ok()) return s;
  if (absl::Status s = ReadPgmNumber(t, "height", &height); !s.ok()) return s;
  if (absl::Status s = GridMap::CheckDimensions(width, height, limits);
      !s.ok()) {
    return AtPgmLine(t, s);
  }
  if (absl::Status s = ReadPgmNumber(t, "maxval", &maxval); !s.ok()) return s;
  if (maxval < 1 || maxval > max_maxval) {
    return PgmError(
        t, absl::StrCat("maxval: ", maxval, " is out of range [1, ", max_maxval,
                        "]",
                        max_maxval == 255
                            ? " (one byte per cell cost; a 16-bit PGM reads "
                              "through an image mapping)"
                            : ""));
  }
  const size_t n = static_cast<size_t>(width * height);
  PgmPixels pixels{width, height, static_cast<int>(maxval), {}};
  std::vector<uint16_t>& costs = pixels.values;
  costs.resize(n);
  // Binary samples take two bytes, most significant first, past 255.
  const size_t sample_bytes = maxval > 255 ? 2 : 1;
  if (binary) {
    // Exactly one whitespace byte separates maxval from the pixels.
    if (t.pos() >= data.size() || !PgmTokenizer::IsSpace(data[t.pos()])) {
      return PgmError(t, "pixel data: missing (truncated after maxval)");
    }
    const size_t start = t.pos() + 1;
    const size_t available = data.size() - start;
    if (available < n * sample_bytes) {
      return PgmError(t, absl::StrCat("pixel data: truncated, got ", available,
                                      " bytes, expected ", n * sample_bytes));
    }
    if (available > n * sample_bytes) {
      return PgmError(t,
                      absl::StrCat("pixel data: ", available - n * sample_bytes,
                                   " bytes of trailing data"));
    }
    const auto* bytes = reinterpret_cast<const uint8_t*>(data.data() + start);
    for (size_t i = 0; i < n; ++i) {
      const uint16_t v =
          sample_bytes == 1
              ? bytes[i]
              : static_cast<uint16_t>(bytes[2 * i] << 8 | bytes[2 * i + 1]);
      if (v > maxval) {
        return PgmError(
            t, absl::StrCat("pixel ", i, " (x=", i % width, ", y=", i / width,
                            "): value ", v, " exceeds maxval ", maxval));
      }
      costs[i] = v;
    }
  } else {
    for (size_t i = 0; i < n; ++i) {
      const absl::string_view token = t.Next();
      int64_t v = 0;
      if (token.empty()) {
        return PgmError(t, absl::StrCat("pixel data: truncated, got ", i,
                                        " pixels, expected ", n));
      }
      if (token[0] == '-' || token[0] == '+' || !ParseStrictInt(token, &v)) {
        return PgmError(t, absl::StrCat("pixel ", i,
                                        ": expected a number, "
                                        "got ",
                                        Quote(token)));
      }
      if (v > maxval) {
        return PgmError(
            t, absl::StrCat("pixel ", i, " (x=", i % width, ", y=", i / width,
                            "): value ", v, " exceeds maxval ", maxval));
      }
      costs[i] = static_cast<uint16_t>(v);
    }
    if (!t.AtEnd()) {
      return PgmError(
          t, absl::StrCat("pixel data: trailing data after ", n, " pixels"));
    }
  }
  return pixels;
}

}  // namespace internal

absl::StatusOr<GridMap> ParsePgm(absl::string_view data,
                                 const MapLimits& limits) {
  absl::StatusOr<internal::PgmPixels> pixels =
      internal::ReadPgmPixels(data, limits, 255);
  if (!pixels.ok()) return pixels.status();
  const std::vector<uint8_t> costs(pixels->values.begin(),
                                   pixels->values.end());
  return GridMap::FromCosts(pixels->width, pixels->height, costs, limits);
}

absl::StatusOr<GridMap> ParseRawMap(int64_t width, int64_t height,
                                    absl::string_view bytes,
                                    const MapLimits& limits) {
  if (absl::Status s = GridMap::CheckDimensions(width, height, limits);
      !s.ok()) {
    return s;
  }
  return GridMap::FromCosts(
      width, height,
      absl::Span<const uint8_t>(reinterpret_cast<const uint8_t*>(bytes.data()),
                                bytes.size()),
      limits);
}

absl::StatusOr<GridMap> ParseMapAuto(absl::string_view data,
                                     const MapLimits& limits) {
  if (absl::StartsWith(data, "P5") || absl::StartsWith(data, "P2")) {
    return ParsePgm(data, limits);
  }
  if (absl::StartsWith(data, "type")) return ParseMovingAiMap(data, limits);
  return absl::InvalidArgumentError(
      absl::StrCat("map format: not recognised (expected a Moving AI .map "
                   "starting 'type' or a PGM starting 'P5'/'P2'), starts ",
                   Quote(data.substr(0, 8))));
}

absl::StatusOr<MapWithAreas> ParseMapAutoWithAreas(absl::string_view data,
                                                   const MapLimits& limits) {
  if (absl::StartsWith(data, "type")) {
    return ParseMovingAiMapWithAreas(data, limits);
  }
  absl::StatusOr<GridMap> map = ParseMapAuto(data, limits);
  if (!map.ok()) return map.status();
  return MapWithAreas{*std::move(map), {}, kAllAreas};
}

absl::StatusOr<std::string> WriteMovingAiMap(const GridMap& map) {
  if (map.max_cost() > 1) {
    return absl::InvalidArgumentError(absl::StrCat(
        "map: has terrain costs up to ", map.max_cost(),
        "; a Moving AI .map holds only passable (cost 1) and blocked cells"));
  }
  std::string out = absl::StrCat("type octile\nheight ", map.height(),
                                 "\nwidth ", map.width(), "\nmap\n");
  out.reserve(out.size() +
              static_cast<size_t>(map.cell_count() + map.height()));
  for (int32_t y = 0; y < map.height(); ++y) {
    for (int32_t x = 0; x < map.width(); ++x) {
      out += map.cost({x, y}) ? '.' : '@';
    }
    out += '\n';
  }
  return out;
}

std::string WritePgm(const GridMap& map, PgmEncoding encoding) {
  const bool binary = encoding == PgmEncoding::kBinary;
  std::string out = absl::StrCat(binary ? "P5" : "P2", "\n", map.width(), " ",
                                 map.height(), "\n255\n");
  for (int32_t y = 0; y < map.height(); ++y) {
    for (int32_t x = 0; x < map.width(); ++x) {
      const uint8_t c = map.cost({x, y});
      if (binary) {
        out += static_cast<char>(c);
      } else {
        absl::StrAppend(&out, c, x + 1 == map.width() ? "\n" : " ");
      }
    }
  }
  return out;
}

absl::StatusOr<std::string> ReadFile(const std::string& path,
                                     size_t max_bytes) {
  std::unique_ptr<FILE, int (*)(FILE*)> f(std::fopen(path.c_str(), "rb"),
                                          &std::fclose);
  if (!f) {
    return absl::NotFoundError(
        absl::StrCat(path, ": cannot open: ", std::strerror(errno)));
  }
  std::string out;
  char buf[1 << 16];
  size_t got;
  while ((got = std::fread(buf, 1, sizeof(buf), f.get())) > 0) {
    if (out.size() + got > max_bytes) {
      return absl::InvalidArgumentError(absl::StrCat(
          path, ": larger than the limit of ", max_bytes, " bytes"));
    }
    out.append(buf, got);
  }
  if (std::ferror(f.get())) {
    return absl::DataLossError(absl::StrCat(path, ": read error"));
  }
  return out;
}

absl::StatusOr<GridMap> ReadMapFile(const std::string& path,
                                    const MapLimits& limits) {
  // The largest valid input is ASCII PGM: at most 4 bytes a cell plus header
  // and comments; anything far beyond that is refused unread.
  const size_t max_bytes =
      static_cast<size_t>(limits.max_cells) * 4 + (size_t{1} << 20);
  absl::StatusOr<std::string> data = ReadFile(path, max_bytes);
  if (!data.ok()) return data.status();
  absl::StatusOr<GridMap> map = ParseMapAuto(*data, limits);
  if (!map.ok()) {
    return absl::Status(map.status().code(),
                        absl::StrCat(path, ": ", map.status().message()));
  }
  return map;
}

}  // namespace gridstar
