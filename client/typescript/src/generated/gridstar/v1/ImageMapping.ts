// Original file: gridstar/v1/gridstar.proto

import type { ImageMode as _gridstar_v1_ImageMode, ImageMode__Output as _gridstar_v1_ImageMode__Output } from '../../gridstar/v1/ImageMode';
import type { PaletteColour as _gridstar_v1_PaletteColour, PaletteColour__Output as _gridstar_v1_PaletteColour__Output } from '../../gridstar/v1/PaletteColour';

export interface ImageMapping {
  'mode'?: (_gridstar_v1_ImageMode);
  /**
   * IMAGE_MODE_THRESHOLD: 1 to 255; 0 = 128.
   */
  'threshold'?: (number);
  'invert'?: (boolean);
  /**
   * IMAGE_MODE_THRESHOLD: the cost of floor cells, 1 to 255; 0 = 1.
   */
  'floorCost'?: (number);
  /**
   * IMAGE_MODE_PALETTE: every colour the image has, each once.
   */
  'palette'?: (_gridstar_v1_PaletteColour)[];
}

export interface ImageMapping__Output {
  'mode': (_gridstar_v1_ImageMode__Output);
  /**
   * IMAGE_MODE_THRESHOLD: 1 to 255; 0 = 128.
   */
  'threshold': (number);
  'invert': (boolean);
  /**
   * IMAGE_MODE_THRESHOLD: the cost of floor cells, 1 to 255; 0 = 1.
   */
  'floorCost': (number);
  /**
   * IMAGE_MODE_PALETTE: every colour the image has, each once.
   */
  'palette': (_gridstar_v1_PaletteColour__Output)[];
}
