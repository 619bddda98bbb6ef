// A 5 x 7 pixel bitmap font for the legend and caption of PNG pictures:
// digits, letters (lower case drawn as upper case) and the punctuation the
// legend uses. Pure data; thread-safe.
#ifndef GRIDSTAR_RENDER_SRC_FONT_H_
#define GRIDSTAR_RENDER_SRC_FONT_H_

#include <cstdint>

namespace gridstar::render::internal {

inline constexpr int kGlyphWidth = 5;
inline constexpr int kGlyphHeight = 7;
// Pixels from one character's left edge to the next one's.
inline constexpr int kGlyphAdvance = 6;

// Seven rows of the glyph of `c`, each row's five pixels in bits 4 (left)
// to 0 (right); a hollow box for a character the font lacks.
const uint8_t* Glyph(char c);

}  // namespace gridstar::render::internal

#endif  // GRIDSTAR_RENDER_SRC_FONT_H_
