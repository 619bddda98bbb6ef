// Original file: gridstar/v1/gridstar.proto

import type { Cell as _gridstar_v1_Cell, Cell__Output as _gridstar_v1_Cell__Output } from '../../gridstar/v1/Cell';

export interface Rect {
  /**
   * Inclusive corner.
   */
  'min'?: (_gridstar_v1_Cell | null);
  /**
   * Exclusive corner: the rectangle is min.x <= x < max.x, min.y <= y < max.y.
   */
  'max'?: (_gridstar_v1_Cell | null);
}

export interface Rect__Output {
  /**
   * Inclusive corner.
   */
  'min': (_gridstar_v1_Cell__Output | null);
  /**
   * Exclusive corner: the rectangle is min.x <= x < max.x, min.y <= y < max.y.
   */
  'max': (_gridstar_v1_Cell__Output | null);
}
