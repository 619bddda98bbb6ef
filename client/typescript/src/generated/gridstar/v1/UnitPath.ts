// Original file: gridstar/v1/gridstar.proto

import type { PathResponse as _gridstar_v1_PathResponse, PathResponse__Output as _gridstar_v1_PathResponse__Output } from '../../gridstar/v1/PathResponse';

export interface UnitPath {
  'code'?: (number);
  'message'?: (string);
  'path'?: (_gridstar_v1_PathResponse | null);
  /**
   * True when the path was spliced from the group's shared path, false when
   * the unit got its own search.
   */
  'spliced'?: (boolean);
  /**
   * With report_overhead, for spliced units: the optimal cost.
   */
  'independentCost'?: (number | string);
}

export interface UnitPath__Output {
  'code': (number);
  'message': (string);
  'path': (_gridstar_v1_PathResponse__Output | null);
  /**
   * True when the path was spliced from the group's shared path, false when
   * the unit got its own search.
   */
  'spliced': (boolean);
  /**
   * With report_overhead, for spliced units: the optimal cost.
   */
  'independentCost': (number);
}
