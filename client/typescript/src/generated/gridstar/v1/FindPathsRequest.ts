// Original file: gridstar/v1/gridstar.proto

import type { PathRequest as _gridstar_v1_PathRequest, PathRequest__Output as _gridstar_v1_PathRequest__Output } from '../../gridstar/v1/PathRequest';

export interface FindPathsRequest {
  'mapId'?: (string);
  /**
   * Each item's map_id is ignored (this request's map is used).
   */
  'items'?: (_gridstar_v1_PathRequest)[];
}

export interface FindPathsRequest__Output {
  'mapId': (string);
  /**
   * Each item's map_id is ignored (this request's map is used).
   */
  'items': (_gridstar_v1_PathRequest__Output)[];
}
