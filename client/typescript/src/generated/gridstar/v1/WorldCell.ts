// Original file: gridstar/v1/gridstar.proto

import type { Cell as _gridstar_v1_Cell, Cell__Output as _gridstar_v1_Cell__Output } from '../../gridstar/v1/Cell';

export interface WorldCell {
  'mapId'?: (string);
  'cell'?: (_gridstar_v1_Cell | null);
}

export interface WorldCell__Output {
  'mapId': (string);
  'cell': (_gridstar_v1_Cell__Output | null);
}
