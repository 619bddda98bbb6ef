// Original file: gridstar/v1/gridstar.proto

import type { PathRequest as _gridstar_v1_PathRequest, PathRequest__Output as _gridstar_v1_PathRequest__Output } from '../../gridstar/v1/PathRequest';
import type { Long } from '@grpc/proto-loader';

export interface StreamPathRequest {
  /**
   * Chosen by the caller; echoed in the answer.
   */
  'requestId'?: (number | string | Long);
  'request'?: (_gridstar_v1_PathRequest | null);
}

export interface StreamPathRequest__Output {
  /**
   * Chosen by the caller; echoed in the answer.
   */
  'requestId': (string);
  'request': (_gridstar_v1_PathRequest__Output | null);
}
