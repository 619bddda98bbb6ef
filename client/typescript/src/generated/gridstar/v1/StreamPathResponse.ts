// Original file: gridstar/v1/gridstar.proto

import type { PathItemResult as _gridstar_v1_PathItemResult, PathItemResult__Output as _gridstar_v1_PathItemResult__Output } from '../../gridstar/v1/PathItemResult';
import type { WorldPathItemResult as _gridstar_v1_WorldPathItemResult, WorldPathItemResult__Output as _gridstar_v1_WorldPathItemResult__Output } from '../../gridstar/v1/WorldPathItemResult';
import type { Long } from '@grpc/proto-loader';

export interface StreamPathResponse {
  'requestId'?: (number | string | Long);
  'result'?: (_gridstar_v1_PathItemResult | null);
  /**
   * The answer of a world_request.
   */
  'worldResult'?: (_gridstar_v1_WorldPathItemResult | null);
}

export interface StreamPathResponse__Output {
  'requestId': (string);
  'result': (_gridstar_v1_PathItemResult__Output | null);
  /**
   * The answer of a world_request.
   */
  'worldResult': (_gridstar_v1_WorldPathItemResult__Output | null);
}
