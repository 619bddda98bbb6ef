// Original file: gridstar/v1/gridstar.proto

import type { WorldPathResponse as _gridstar_v1_WorldPathResponse, WorldPathResponse__Output as _gridstar_v1_WorldPathResponse__Output } from '../../gridstar/v1/WorldPathResponse';

export interface WorldPathItemResult {
  /**
   * google.rpc.Code value of this item (0 = OK) and its message.
   */
  'code'?: (number);
  'message'?: (string);
  'path'?: (_gridstar_v1_WorldPathResponse | null);
}

export interface WorldPathItemResult__Output {
  /**
   * google.rpc.Code value of this item (0 = OK) and its message.
   */
  'code': (number);
  'message': (string);
  'path': (_gridstar_v1_WorldPathResponse__Output | null);
}
