// Original file: gridstar/v1/gridstar.proto

import type { WorldPathRequest as _gridstar_v1_WorldPathRequest, WorldPathRequest__Output as _gridstar_v1_WorldPathRequest__Output } from '../../gridstar/v1/WorldPathRequest';

export interface FindWorldPathsRequest {
  'worldId'?: (string);
  /**
   * Each item's world_id is ignored (this request's world is used).
   */
  'items'?: (_gridstar_v1_WorldPathRequest)[];
}

export interface FindWorldPathsRequest__Output {
  'worldId': (string);
  /**
   * Each item's world_id is ignored (this request's world is used).
   */
  'items': (_gridstar_v1_WorldPathRequest__Output)[];
}
