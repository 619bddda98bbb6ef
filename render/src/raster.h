// The raster canvas of the PNG pictures (png.cc) and what draws on it,
// shared by the map picture, the map-view tiles and the world picture
// (world_png.cc).
//
// Thread-safety: a Canvas is one caller's; the functions are pure but for
// the canvas they draw on.
#ifndef GRIDSTAR_RENDER_SRC_RASTER_H_
#define GRIDSTAR_RENDER_SRC_RASTER_H_

#include <cstdint>
#include <cstdlib>
#include <string>
#include <vector>

#include "absl/strings/string_view.h"
#include "gridstar/render.h"

namespace gridstar::render::internal {

// RGB pixels, row-major, white to begin with; writes off the canvas are
// dropped.
class Canvas {
 public:
  Canvas(int width, int height)
      : width_(width),
        height_(height),
        rgb_(static_cast<size_t>(width) * height * 3, 255) {}

  void Set(int x, int y, Rgb c) {
    if (x < 0 || y < 0 || x >= width_ || y >= height_) return;
    uint8_t* p = &rgb_[(static_cast<size_t>(y) * width_ + x) * 3];
    p[0] = c.r;
    p[1] = c.g;
    p[2] = c.b;
  }
  void Fill(int x0, int y0, int w, int h, Rgb c) {
    for (int y = y0; y < y0 + h; ++y) {
      for (int x = x0; x < x0 + w; ++x) Set(x, y, c);
    }
  }
  // A line of `thickness` pixels between two pixel points (Bresenham, each
  // point widened to a square).
  void Line(int x0, int y0, int x1, int y1, int thickness, Rgb c) {
    const int dx = std::abs(x1 - x0), dy = -std::abs(y1 - y0);
    const int sx = x0 < x1 ? 1 : -1, sy = y0 < y1 ? 1 : -1;
    const int lo = -(thickness - 1) / 2, hi = thickness / 2;
    int err = dx + dy;
    for (;;) {
      Fill(x0 + lo, y0 + lo, hi - lo + 1, hi - lo + 1, c);
      if (x0 == x1 && y0 == y1) break;
      const int e2 = 2 * err;
      if (e2 >= dy) {
        err += dy;
        x0 += sx;
      }
      if (e2 <= dx) {
        err += dx;
        y0 += sy;
      }
    }
  }

  int width() const { return width_; }
  int height() const { return height_; }
  const std::vector<uint8_t>& rgb() const { return rgb_; }

 private:
  int width_, height_;
  std::vector<uint8_t> rgb_;
};

// Text in the built-in font (font.h), top-left corner at (x, y).
void DrawText(Canvas& canvas, int x, int y, absl::string_view text, Rgb colour);

// The scene's map, trace, path, flow arrows and markers at k pixels a cell,
// from the canvas's top-left corner. REQUIRES: ValidateScene passed.
void DrawScene(const Scene& scene, int k, int arrow_spacing, Canvas& canvas);

// The canvas as PNG bytes appended to *out, at zlib's compression_level (-1
// its default; 0..9 also unfiltered with run-length matching). False on a
// libpng error.
bool EncodePng(const Canvas& canvas, std::string* out,
               int compression_level = -1);

}  // namespace gridstar::render::internal

#endif  // GRIDSTAR_RENDER_SRC_RASTER_H_
