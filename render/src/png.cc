// The raster picture (render.h's layers on an RGB canvas) and its PNG
// encoding and decoding through libpng. libpng reports errors by longjmp: no
// C++ object with a destructor lives across a setjmp in this file's libpng
// calls, and the buffers they touch are owned outside them.

#include <png.h>
#include <zlib.h>

#include <algorithm>
#include <cmath>
#include <csetjmp>
#include <cstdint>
#include <cstdlib>
#include <cstring>
#include <string>
#include <utility>
#include <vector>

#include "absl/strings/str_cat.h"
#include "absl/strings/string_view.h"
#include "font.h"
#include "gridstar/render.h"
#include "raster.h"
#include "scene.h"

namespace gridstar::render {
namespace {

using internal::Canvas;

constexpr int kSparseMarker = 5;

// A square of `side` pixels centred on cell c's centre, with a one-pixel
// outline around it.
void Marker(Canvas& canvas, Cell c, int k, int side, Rgb colour) {
  const int cx = c.x * k + k / 2, cy = c.y * k + k / 2;
  const int x0 = cx - side / 2, y0 = cy - side / 2;
  canvas.Fill(x0 - 1, y0 - 1, side + 2, side + 2, kMarkerOutline);
  canvas.Fill(x0, y0, side, side, colour);
}

void Text(Canvas& canvas, int x, int y, absl::string_view text, Rgb colour) {
  for (char ch : text) {
    const uint8_t* rows = internal::Glyph(ch);
    for (int r = 0; r < internal::kGlyphHeight; ++r) {
      for (int b = 0; b < internal::kGlyphWidth; ++b) {
        if ((rows[r] >> (internal::kGlyphWidth - 1 - b)) & 1) canvas.Set(x + b, y + r, colour);
      }
    }
    x += internal::kGlyphAdvance;
  }
}

// The legend's layout: where each swatch goes, and the strip's size.
constexpr int kPad = 6;
constexpr int kSwatch = 10;
constexpr int kRow = 14;
constexpr int kMinLegendWidth = 360;

struct LegendLayout {
  int width = 0;
  int height = 0;
  std::vector<std::pair<int, int>> at;  // Swatch corner of each entry.
};

LegendLayout Layout(const Scene& scene, const std::vector<internal::LegendEntry>& entries,
                    int map_width_px) {
  LegendLayout l;
  l.width = std::max(map_width_px, kMinLegendWidth);
  int y = kPad + (scene.caption.empty() ? 0 : kRow);
  int x = kPad;
  for (const internal::LegendEntry& e : entries) {
    const int w = kSwatch + 4 + static_cast<int>(e.label.size()) * internal::kGlyphAdvance + 12;
    if (x > kPad && x + w > l.width - kPad) {
      x = kPad;
      y += kRow;
    }
    l.at.push_back({x, y});
    x += w;
  }
  l.height = y + (entries.empty() ? 0 : kRow) + kPad;
  return l;
}

void DrawLegend(const Scene& scene, const std::vector<internal::LegendEntry>& entries,
                const LegendLayout& l, int top, Canvas& canvas) {
  canvas.Fill(0, top, canvas.width(), canvas.height() - top, kLegendBackground);
  if (!scene.caption.empty()) Text(canvas, kPad, top + kPad, scene.caption, kTextColour);
  for (size_t i = 0; i < entries.size(); ++i) {
    const auto [x, y0] = l.at[i];
    const int y = top + y0;
    canvas.Fill(x - 1, y - 1, kSwatch + 2, kSwatch + 2, kTextColour);
    for (int py = 0; py < kSwatch; ++py) {
      for (int px = 0; px < kSwatch; ++px) {
        canvas.Set(x + px, y + py,
                   entries[i].hatched && HatchPixel(x + px, y + py) ? kWallColour
                                                                    : entries[i].colour);
      }
    }
    Text(canvas, x + kSwatch + 4, y + 2, entries[i].label, kTextColour);
  }
}

void Draw(const Scene& scene, int k, int arrow_spacing, Canvas& canvas) {
  const GridMap& map = *scene.map;
  for (int32_t y = 0; y < map.height(); ++y) {
    for (int32_t x = 0; x < map.width(); ++x) {
      const internal::CellLook look = internal::BackgroundLook(scene, {x, y});
      if (!look.blocked_for_agent) {
        canvas.Fill(x * k, y * k, k, k, look.colour);
        continue;
      }
      // Hatched: the area's colour under wall-coloured diagonals; a cell of
      // one pixel is its area's colour halfway to the wall colour.
      for (int py = y * k; py < (y + 1) * k; ++py) {
        for (int px = x * k; px < (x + 1) * k; ++px) {
          canvas.Set(px, py,
                     k == 1 ? Rgb{static_cast<uint8_t>((look.colour.r + kWallColour.r) / 2),
                                  static_cast<uint8_t>((look.colour.g + kWallColour.g) / 2),
                                  static_cast<uint8_t>((look.colour.b + kWallColour.b) / 2)}
                     : HatchPixel(px, py) ? kWallColour
                                          : look.colour);
        }
      }
    }
  }
  // A sparse trace (jump points: under one cell in 20) on small cells is
  // drawn as markers kSparseMarker pixels wide, or it would not show.
  const bool markers =
      k < kSparseMarker && scene.trace.size() * 20 < static_cast<size_t>(
                                                         map.passable_count());
  for (size_t i = 0; i < scene.trace.size(); ++i) {
    const Cell c = scene.trace[i];
    const Rgb colour = TraceColour(i, scene.trace.size());
    if (markers) {
      canvas.Fill(c.x * k + k / 2 - kSparseMarker / 2,
                  c.y * k + k / 2 - kSparseMarker / 2, kSparseMarker,
                  kSparseMarker, colour);
    } else {
      canvas.Fill(c.x * k, c.y * k, k, k, colour);
    }
  }
  // Path cells as squares inset by a quarter, so the trace shows round them.
  const int inset = k >= 4 ? k / 4 : 0;
  for (const Cell& c : scene.path) {
    canvas.Fill(c.x * k + inset, c.y * k + inset, k - 2 * inset, k - 2 * inset,
                kPathColour);
  }
  const int thickness = std::max(1, k / 4);
  for (size_t i = 1; i < scene.waypoints.size(); ++i) {
    const Cell a = scene.waypoints[i - 1], b = scene.waypoints[i];
    canvas.Line(a.x * k + k / 2, a.y * k + k / 2, b.x * k + k / 2,
                b.y * k + k / 2, thickness, kWaypointColour);
  }
  const int dot = std::max(1, k / 2);
  for (const Cell& c : scene.waypoints) {
    canvas.Fill(c.x * k + (k - dot) / 2, c.y * k + (k - dot) / 2, dot, dot,
                kWaypointColour);
  }
  if (!scene.flow_directions.empty()) {
    const int s = arrow_spacing;
    const double length = 0.8 * s * k / 2;  // Half the gap: arrows never meet.
    for (int32_t y = s / 2; y < map.height(); y += s) {
      for (int32_t x = s / 2; x < map.width(); x += s) {
        const uint8_t d = scene.flow_directions[static_cast<size_t>(y) *
                                                    map.width() + x];
        if (d >= 8) continue;
        const double ux = kMoveDx[d], uy = kMoveDy[d];
        const double norm = std::sqrt(ux * ux + uy * uy);
        const double cx = x * k + k / 2.0, cy = y * k + k / 2.0;
        const double tx = cx + ux / norm * length, ty = cy + uy / norm * length;
        canvas.Line(static_cast<int>(cx), static_cast<int>(cy),
                    static_cast<int>(tx), static_cast<int>(ty), 1,
                    kArrowColour);
        // The head: two strokes back from the tip at +-30 degrees.
        const double head = std::max(2.0, length / 3);
        for (const double turn : {2.618, -2.618}) {  // 150 degrees.
          const double hx = std::cos(turn) * ux - std::sin(turn) * uy;
          const double hy = std::sin(turn) * ux + std::cos(turn) * uy;
          canvas.Line(static_cast<int>(tx), static_cast<int>(ty),
                      static_cast<int>(tx + hx / norm * head),
                      static_cast<int>(ty + hy / norm * head), 1,
                      kArrowColour);
        }
      }
    }
  }
  // Markers at least a cell and 1/100 of the longer side wide.
  const int side = std::max(k, std::max(map.width(), map.height()) * k / 100);
  if (scene.start.has_value()) Marker(canvas, *scene.start, k, side, kStartColour);
  if (scene.goal.has_value()) Marker(canvas, *scene.goal, k, side, kGoalColour);
}

// libpng's errors become a false return (through its longjmp), without the
// default handler's print to stderr; warnings are dropped.
[[noreturn]] void QuietError(png_structp png, png_const_charp) {
  png_longjmp(png, 1);
}
void QuietWarning(png_structp, png_const_charp) {}

void AppendToString(png_structp png, png_bytep data, png_size_t length) {
  static_cast<std::string*>(png_get_io_ptr(png))
      ->append(reinterpret_cast<const char*>(data), length);
}

// Encodes without C++ objects on the stack across setjmp, at zlib's
// `compression_level` (-1 its default). False on a libpng error.
bool Encode(const Canvas& canvas, const std::vector<png_bytep>& rows,
            std::string* out, int compression_level = -1) {
  png_structp png =
      png_create_write_struct(PNG_LIBPNG_VER_STRING, nullptr, QuietError,
                              QuietWarning);
  if (png == nullptr) return false;
  png_infop info = png_create_info_struct(png);
  if (info == nullptr || setjmp(png_jmpbuf(png))) {
    png_destroy_write_struct(&png, &info);
    return false;
  }
  png_set_write_fn(png, out, AppendToString, nullptr);
  if (compression_level >= 0) {
    png_set_compression_level(png, compression_level);
    png_set_filter(png, PNG_FILTER_TYPE_BASE, PNG_FILTER_NONE);
    png_set_compression_strategy(png, Z_RLE);
  }
  png_set_IHDR(png, info, canvas.width(), canvas.height(), 8,
               PNG_COLOR_TYPE_RGB, PNG_INTERLACE_NONE,
               PNG_COMPRESSION_TYPE_DEFAULT, PNG_FILTER_TYPE_DEFAULT);
  png_write_info(png, info);
  png_write_image(png, const_cast<png_bytepp>(rows.data()));
  png_write_end(png, nullptr);
  png_destroy_write_struct(&png, &info);
  return true;
}

struct ReadSource {
  const uint8_t* data;
  size_t size;
  size_t at;
};

void ReadFromSource(png_structp png, png_bytep data, png_size_t length) {
  auto* source = static_cast<ReadSource*>(png_get_io_ptr(png));
  if (source->size - source->at < length) png_error(png, "truncated PNG");
  std::memcpy(data, source->data + source->at, length);
  source->at += length;
}

// Decodes into *image (sized here, before any row is read). False on a
// libpng error or an image over kMaxPixels.
bool Decode(ReadSource* source, Image* image, std::vector<png_bytep>* rows) {
  png_structp png =
      png_create_read_struct(PNG_LIBPNG_VER_STRING, nullptr, QuietError,
                             QuietWarning);
  if (png == nullptr) return false;
  png_infop info = png_create_info_struct(png);
  if (info == nullptr || setjmp(png_jmpbuf(png))) {
    png_destroy_read_struct(&png, &info, nullptr);
    return false;
  }
  png_set_read_fn(png, source, ReadFromSource);
  png_read_info(png, info);
  const png_uint_32 width = png_get_image_width(png, info);
  const png_uint_32 height = png_get_image_height(png, info);
  if (int64_t{width} * height > kMaxPixels) png_error(png, "too large");
  // Everything to 8-bit RGB.
  png_set_expand(png);
  png_set_strip_16(png);
  png_set_strip_alpha(png);
  png_set_gray_to_rgb(png);
  png_read_update_info(png, info);
  if (png_get_rowbytes(png, info) != size_t{width} * 3) {
    png_error(png, "unexpected row size");
  }
  image->width = static_cast<int>(width);
  image->height = static_cast<int>(height);
  image->rgb.assign(size_t{width} * height * 3, 0);
  rows->resize(height);
  for (png_uint_32 y = 0; y < height; ++y) {
    (*rows)[y] = &image->rgb[size_t{y} * width * 3];
  }
  png_read_image(png, rows->data());
  png_read_end(png, nullptr);
  png_destroy_read_struct(&png, &info, nullptr);
  return true;
}

}  // namespace

namespace internal {

void DrawText(Canvas& canvas, int x, int y, absl::string_view text,
              Rgb colour) {
  Text(canvas, x, y, text, colour);
}

void DrawScene(const Scene& scene, int k, int arrow_spacing, Canvas& canvas) {
  Draw(scene, k, arrow_spacing, canvas);
}

bool EncodePng(const Canvas& canvas, std::string* out, int compression_level) {
  std::vector<png_bytep> rows(canvas.height());
  for (int y = 0; y < canvas.height(); ++y) {
    rows[y] = const_cast<png_bytep>(
        &canvas.rgb()[static_cast<size_t>(y) * canvas.width() * 3]);
  }
  return Encode(canvas, rows, out, compression_level);
}

}  // namespace internal

absl::StatusOr<std::string> RenderPng(const Scene& scene,
                                      const RenderOptions& options) {
  if (absl::Status s = internal::ValidateScene(scene, options); !s.ok()) {
    return s;
  }
  const int k = *CellPixels(*scene.map, options);
  const int map_w = scene.map->width() * k, map_h = scene.map->height() * k;
  std::vector<internal::LegendEntry> entries;
  LegendLayout layout;
  if (options.legend) {
    entries = internal::LegendEntries(scene);
    layout = Layout(scene, entries, map_w);
  }
  Canvas canvas(std::max(map_w, layout.width), map_h + layout.height);
  Draw(scene, k, internal::ArrowSpacing(options, k), canvas);
  if (options.legend) DrawLegend(scene, entries, layout, map_h, canvas);
  std::string out;
  if (!internal::EncodePng(canvas, &out)) {
    return absl::InternalError("png: libpng could not encode the image");
  }
  return out;
}

absl::StatusOr<std::string> RenderTilePng(const GridMap& map,
                                          const std::vector<uint8_t>& areas,
                                          int64_t x0, int64_t y0, int64_t span,
                                          int pixels) {
  if (pixels < 1 || pixels > kMaxTilePixels) {
    return absl::InvalidArgumentError(absl::StrCat(
        "pixels: ", pixels, " is outside [1, ", kMaxTilePixels, "]"));
  }
  if (span < 1 || span > (int64_t{1} << 24)) {
    return absl::InvalidArgumentError(
        absl::StrCat("span: ", span, " is outside [1, 2^24]"));
  }
  const size_t cells = static_cast<size_t>(map.width()) * map.height();
  if (!areas.empty() && areas.size() != cells) {
    return absl::InvalidArgumentError(absl::StrCat(
        "areas: ", areas.size(), " bytes for a map of ", cells, " cells"));
  }
  const uint8_t lo = map.min_cost(), hi = map.max_cost();
  // Each (area, cost)'s colour, worked out once a tile, on first use.
  std::vector<Rgb> colours(size_t{64} * 256);
  std::vector<uint8_t> known(colours.size(), 0);
  const uint8_t* costs = map.padded_costs();
  const int64_t pw = map.padded_width();
  // Samples per pixel side: one zoomed in, up to four zoomed out; each
  // pixel's sample columns (and rows), -1 where off the map.
  const int64_t block = std::max<int64_t>(1, span / pixels);
  const int samples = static_cast<int>(std::min<int64_t>(4, block));
  auto sample_lines = [&](int64_t origin, int32_t limit) {
    std::vector<int32_t> lines(static_cast<size_t>(pixels) * samples);
    for (int p = 0; p < pixels; ++p) {
      const int64_t first = origin + p * span / pixels;
      for (int k = 0; k < samples; ++k) {
        const int64_t at = samples == 1
                               ? first + (block - 1) / 2
                               : first + (2 * k + 1) * block / (2 * samples);
        lines[static_cast<size_t>(p) * samples + k] =
            at < 0 || at >= limit ? -1 : static_cast<int32_t>(at);
      }
    }
    return lines;
  };
  const std::vector<int32_t> xs = sample_lines(x0, map.width());
  const std::vector<int32_t> ys = sample_lines(y0, map.height());
  auto colour_at = [&](int32_t x, int32_t y) -> Rgb {
    if (x < 0 || y < 0) return kLegendBackground;
    const uint8_t cost = costs[(y + 1) * pw + x + 1];
    if (cost == 0) return kWallColour;
    const uint8_t area =
        areas.empty() ? 0 : areas[static_cast<size_t>(y) * map.width() + x];
    const size_t k = size_t{area} * 256 + cost;
    if (!known[k]) {
      colours[k] = AreaColour(area, cost, lo, hi);
      known[k] = 1;
    }
    return colours[k];
  };
  Canvas canvas(pixels, pixels);
  const int n = samples * samples;
  for (int py = 0; py < pixels; ++py) {
    const int32_t* row_ys = &ys[static_cast<size_t>(py) * samples];
    for (int px = 0; px < pixels; ++px) {
      const int32_t* col_xs = &xs[static_cast<size_t>(px) * samples];
      if (samples == 1) {
        canvas.Set(px, py, colour_at(col_xs[0], row_ys[0]));
        continue;
      }
      int r = 0, g = 0, b = 0;
      for (int sy = 0; sy < samples; ++sy) {
        for (int sx = 0; sx < samples; ++sx) {
          const Rgb c = colour_at(col_xs[sx], row_ys[sy]);
          r += c.r;
          g += c.g;
          b += c.b;
        }
      }
      canvas.Set(px, py,
                 Rgb{static_cast<uint8_t>(r / n), static_cast<uint8_t>(g / n),
                     static_cast<uint8_t>(b / n)});
    }
  }
  std::string out;
  // Fast compression: a tile is drawn for one view, often many a second.
  if (!internal::EncodePng(canvas, &out, 1)) {
    return absl::InternalError("png: libpng could not encode the tile");
  }
  return out;
}

absl::StatusOr<Image> DecodePng(absl::string_view png) {
  ReadSource source{reinterpret_cast<const uint8_t*>(png.data()), png.size(),
                    0};
  if (png.size() < 8 ||
      png_sig_cmp(reinterpret_cast<png_const_bytep>(png.data()), 0, 8) != 0) {
    return absl::InvalidArgumentError("png: not a PNG (bad signature)");
  }
  Image image;
  std::vector<png_bytep> rows;
  if (!Decode(&source, &image, &rows)) {
    return absl::InvalidArgumentError(
        "png: libpng could not read the image (corrupt, truncated or over "
        "the size limit)");
  }
  return image;
}

}  // namespace gridstar::render
