// Original file: gridstar/v1/gridstar.proto

import type { WorldInfo as _gridstar_v1_WorldInfo, WorldInfo__Output as _gridstar_v1_WorldInfo__Output } from '../../gridstar/v1/WorldInfo';

export interface ListWorldsResponse {
  'worlds'?: (_gridstar_v1_WorldInfo)[];
}

export interface ListWorldsResponse__Output {
  'worlds': (_gridstar_v1_WorldInfo__Output)[];
}
