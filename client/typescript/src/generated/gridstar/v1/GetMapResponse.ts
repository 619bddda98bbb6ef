// Original file: gridstar/v1/gridstar.proto

import type { MapInfo as _gridstar_v1_MapInfo, MapInfo__Output as _gridstar_v1_MapInfo__Output } from '../../gridstar/v1/MapInfo';

export interface GetMapResponse {
  'info'?: (_gridstar_v1_MapInfo | null);
  /**
   * With include_cells: the cost of every cell whatever its area (water
   * and trees of Moving AI maps cost 1), as RegisterMapRequest.raw takes
   * them, and the areas when the map has them (as RegisterMapRequest.areas).
   */
  'raw'?: (Buffer | Uint8Array | string);
  'areas'?: (Buffer | Uint8Array | string);
}

export interface GetMapResponse__Output {
  'info': (_gridstar_v1_MapInfo__Output | null);
  /**
   * With include_cells: the cost of every cell whatever its area (water
   * and trees of Moving AI maps cost 1), as RegisterMapRequest.raw takes
   * them, and the areas when the map has them (as RegisterMapRequest.areas).
   */
  'raw': (Buffer);
  'areas': (Buffer);
}
