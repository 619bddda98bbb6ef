// Original file: gridstar/v1/gridstar.proto

import type { PathItemResult as _gridstar_v1_PathItemResult, PathItemResult__Output as _gridstar_v1_PathItemResult__Output } from '../../gridstar/v1/PathItemResult';
import type { Long } from '@grpc/proto-loader';

export interface StreamPathResponse {
  'requestId'?: (number | string | Long);
  'result'?: (_gridstar_v1_PathItemResult | null);
}

export interface StreamPathResponse__Output {
  'requestId': (string);
  'result': (_gridstar_v1_PathItemResult__Output | null);
}
