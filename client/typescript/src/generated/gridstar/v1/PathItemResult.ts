// Original file: gridstar/v1/gridstar.proto

import type { PathResponse as _gridstar_v1_PathResponse, PathResponse__Output as _gridstar_v1_PathResponse__Output } from '../../gridstar/v1/PathResponse';

export interface PathItemResult {
  /**
   * google.rpc.Code value of this item (0 = OK) and its message.
   */
  'code'?: (number);
  'message'?: (string);
  'path'?: (_gridstar_v1_PathResponse | null);
}

export interface PathItemResult__Output {
  /**
   * google.rpc.Code value of this item (0 = OK) and its message.
   */
  'code': (number);
  'message': (string);
  'path': (_gridstar_v1_PathResponse__Output | null);
}
