// Original file: gridstar/v1/gridstar.proto

import type { Algorithm as _gridstar_v1_Algorithm, Algorithm__Output as _gridstar_v1_Algorithm__Output } from '../../gridstar/v1/Algorithm';

export interface AutoCandidate {
  'algorithm'?: (_gridstar_v1_Algorithm);
  /**
   * Mean microseconds per query over the queries it ran.
   */
  'meanUs'?: (number | string);
  'queries'?: (number);
  'dropped'?: (boolean);
}

export interface AutoCandidate__Output {
  'algorithm': (_gridstar_v1_Algorithm__Output);
  /**
   * Mean microseconds per query over the queries it ran.
   */
  'meanUs': (number);
  'queries': (number);
  'dropped': (boolean);
}
