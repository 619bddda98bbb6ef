// Original file: gridstar/v1/gridstar.proto


export interface PaletteColour {
  /**
   * 0xRRGGBB (at most 0xffffff).
   */
  'rgb'?: (number);
  /**
   * 0 = blocked, 1 to 255.
   */
  'cost'?: (number);
  /**
   * 0 to 63.
   */
  'area'?: (number);
}

export interface PaletteColour__Output {
  /**
   * 0xRRGGBB (at most 0xffffff).
   */
  'rgb': (number);
  /**
   * 0 = blocked, 1 to 255.
   */
  'cost': (number);
  /**
   * 0 to 63.
   */
  'area': (number);
}
