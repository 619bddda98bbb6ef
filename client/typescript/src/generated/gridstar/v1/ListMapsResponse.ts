// Original file: gridstar/v1/gridstar.proto

import type { MapInfo as _gridstar_v1_MapInfo, MapInfo__Output as _gridstar_v1_MapInfo__Output } from '../../gridstar/v1/MapInfo';

export interface ListMapsResponse {
  'maps'?: (_gridstar_v1_MapInfo)[];
}

export interface ListMapsResponse__Output {
  'maps': (_gridstar_v1_MapInfo__Output)[];
}
