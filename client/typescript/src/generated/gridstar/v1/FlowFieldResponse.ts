// Original file: gridstar/v1/gridstar.proto

import type { Cell as _gridstar_v1_Cell, Cell__Output as _gridstar_v1_Cell__Output } from '../../gridstar/v1/Cell';
import type { DiagonalPolicy as _gridstar_v1_DiagonalPolicy, DiagonalPolicy__Output as _gridstar_v1_DiagonalPolicy__Output } from '../../gridstar/v1/DiagonalPolicy';
import type { Long } from '@grpc/proto-loader';

export interface FlowFieldResponse {
  'width'?: (number);
  'height'?: (number);
  'goal'?: (_gridstar_v1_Cell | null);
  'mapVersion'?: (number | string | Long);
  'diagonal'?: (_gridstar_v1_DiagonalPolicy);
  /**
   * One per cell, row-major (index y * width + x): the cost of the cheapest
   * path to the goal, rounded to float; -1 for cells not reached (blocked,
   * in another component, beyond max_cost).
   */
  'costs'?: (number | string)[];
  /**
   * One byte per cell, row-major: the first move towards the goal, 0..7 for
   * E (1,0), W (-1,0), S (0,1), N (0,-1), SE (1,1), SW (-1,1), NE (1,-1),
   * NW (-1,-1); 8 at the goal; 255 not reached. Following them from any
   * reached cell gives an optimal path.
   */
  'directions'?: (Buffer | Uint8Array | string);
  'reachedCells'?: (number | string | Long);
  /**
   * False only with allow_partial, when the deadline stopped the search.
   */
  'complete'?: (boolean);
  /**
   * True when the field came from the server's cache.
   */
  'cached'?: (boolean);
  'queueMicros'?: (number | string);
  'searchMicros'?: (number | string);
}

export interface FlowFieldResponse__Output {
  'width': (number);
  'height': (number);
  'goal': (_gridstar_v1_Cell__Output | null);
  'mapVersion': (string);
  'diagonal': (_gridstar_v1_DiagonalPolicy__Output);
  /**
   * One per cell, row-major (index y * width + x): the cost of the cheapest
   * path to the goal, rounded to float; -1 for cells not reached (blocked,
   * in another component, beyond max_cost).
   */
  'costs': (number)[];
  /**
   * One byte per cell, row-major: the first move towards the goal, 0..7 for
   * E (1,0), W (-1,0), S (0,1), N (0,-1), SE (1,1), SW (-1,1), NE (1,-1),
   * NW (-1,-1); 8 at the goal; 255 not reached. Following them from any
   * reached cell gives an optimal path.
   */
  'directions': (Buffer);
  'reachedCells': (string);
  /**
   * False only with allow_partial, when the deadline stopped the search.
   */
  'complete': (boolean);
  /**
   * True when the field came from the server's cache.
   */
  'cached': (boolean);
  'queueMicros': (number);
  'searchMicros': (number);
}
