// Original file: gridstar/v1/gridstar.proto

import type { WorldPathItemResult as _gridstar_v1_WorldPathItemResult, WorldPathItemResult__Output as _gridstar_v1_WorldPathItemResult__Output } from '../../gridstar/v1/WorldPathItemResult';

export interface FindWorldPathsResponse {
  'results'?: (_gridstar_v1_WorldPathItemResult)[];
}

export interface FindWorldPathsResponse__Output {
  'results': (_gridstar_v1_WorldPathItemResult__Output)[];
}
