// Original file: gridstar/v1/gridstar.proto

import type { Cell as _gridstar_v1_Cell, Cell__Output as _gridstar_v1_Cell__Output } from '../../gridstar/v1/Cell';

export interface CellUpdate {
  'cell'?: (_gridstar_v1_Cell | null);
  /**
   * 0 blocks the cell; at most 255.
   */
  'cost'?: (number);
  /**
   * When set, the cell's area (0 to 63) becomes this as well; unset keeps
   * it.
   */
  'area'?: (number);
  '_area'?: "area";
}

export interface CellUpdate__Output {
  'cell': (_gridstar_v1_Cell__Output | null);
  /**
   * 0 blocks the cell; at most 255.
   */
  'cost': (number);
  /**
   * When set, the cell's area (0 to 63) becomes this as well; unset keeps
   * it.
   */
  'area'?: (number);
  '_area'?: "area";
}
