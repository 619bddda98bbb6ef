// Original file: gridstar/v1/gridstar.proto

import type { PathItemResult as _gridstar_v1_PathItemResult, PathItemResult__Output as _gridstar_v1_PathItemResult__Output } from '../../gridstar/v1/PathItemResult';

export interface FindPathsResponse {
  /**
   * One per item, in the order of the request.
   */
  'results'?: (_gridstar_v1_PathItemResult)[];
}

export interface FindPathsResponse__Output {
  /**
   * One per item, in the order of the request.
   */
  'results': (_gridstar_v1_PathItemResult__Output)[];
}
