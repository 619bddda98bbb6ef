// Original file: gridstar/v1/gridstar.proto

/**
 * How image pixels become cells. A pixel's level is its gray value, or for
 * colour its luma (0.299 R + 0.587 G + 0.114 B, rounded), scaled to 0-255
 * (by a PGM's maxval; 16-bit and low-bit PNGs by libpng).
 */
export const ImageMode = {
  /**
   * IMAGE_MODE_THRESHOLD.
   */
  IMAGE_MODE_UNSPECIFIED: 'IMAGE_MODE_UNSPECIFIED',
  /**
   * cost = the level, 0 blocked; invert: 255 - level. A PGM's pixel value
   * itself, unscaled (invert: maxval - value).
   */
  IMAGE_MODE_VALUE: 'IMAGE_MODE_VALUE',
  /**
   * A level at or above `threshold` is floor of cost `floor_cost`, below it
   * a wall; invert: dark floor, light walls.
   */
  IMAGE_MODE_THRESHOLD: 'IMAGE_MODE_THRESHOLD',
  /**
   * Each pixel's colour (8-bit RGB; gray g is #gggggg) looked up in
   * `palette`: a colour not in it is INVALID_ARGUMENT naming the pixel and
   * the colour.
   */
  IMAGE_MODE_PALETTE: 'IMAGE_MODE_PALETTE',
} as const;

/**
 * How image pixels become cells. A pixel's level is its gray value, or for
 * colour its luma (0.299 R + 0.587 G + 0.114 B, rounded), scaled to 0-255
 * (by a PGM's maxval; 16-bit and low-bit PNGs by libpng).
 */
export type ImageMode =
  /**
   * IMAGE_MODE_THRESHOLD.
   */
  | 'IMAGE_MODE_UNSPECIFIED'
  | 0
  /**
   * cost = the level, 0 blocked; invert: 255 - level. A PGM's pixel value
   * itself, unscaled (invert: maxval - value).
   */
  | 'IMAGE_MODE_VALUE'
  | 1
  /**
   * A level at or above `threshold` is floor of cost `floor_cost`, below it
   * a wall; invert: dark floor, light walls.
   */
  | 'IMAGE_MODE_THRESHOLD'
  | 2
  /**
   * Each pixel's colour (8-bit RGB; gray g is #gggggg) looked up in
   * `palette`: a colour not in it is INVALID_ARGUMENT naming the pixel and
   * the colour.
   */
  | 'IMAGE_MODE_PALETTE'
  | 3

/**
 * How image pixels become cells. A pixel's level is its gray value, or for
 * colour its luma (0.299 R + 0.587 G + 0.114 B, rounded), scaled to 0-255
 * (by a PGM's maxval; 16-bit and low-bit PNGs by libpng).
 */
export type ImageMode__Output = typeof ImageMode[keyof typeof ImageMode]
