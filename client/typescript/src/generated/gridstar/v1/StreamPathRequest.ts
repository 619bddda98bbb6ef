// Original file: gridstar/v1/gridstar.proto

import type { PathRequest as _gridstar_v1_PathRequest, PathRequest__Output as _gridstar_v1_PathRequest__Output } from '../../gridstar/v1/PathRequest';
import type { WorldPathRequest as _gridstar_v1_WorldPathRequest, WorldPathRequest__Output as _gridstar_v1_WorldPathRequest__Output } from '../../gridstar/v1/WorldPathRequest';
import type { Long } from '@grpc/proto-loader';

export interface StreamPathRequest {
  /**
   * Chosen by the caller; echoed in the answer.
   */
  'requestId'?: (number | string | Long);
  'request'?: (_gridstar_v1_PathRequest | null);
  /**
   * When set, a path across a world instead (`request` is ignored), answered
   * in world_result.
   */
  'worldRequest'?: (_gridstar_v1_WorldPathRequest | null);
}

export interface StreamPathRequest__Output {
  /**
   * Chosen by the caller; echoed in the answer.
   */
  'requestId': (string);
  'request': (_gridstar_v1_PathRequest__Output | null);
  /**
   * When set, a path across a world instead (`request` is ignored), answered
   * in world_result.
   */
  'worldRequest': (_gridstar_v1_WorldPathRequest__Output | null);
}
