// Original file: gridstar/v1/gridstar.proto

import type { Rect as _gridstar_v1_Rect, Rect__Output as _gridstar_v1_Rect__Output } from '../../gridstar/v1/Rect';

export interface RectUpdate {
  'rect'?: (_gridstar_v1_Rect | null);
  'cost'?: (number);
  'area'?: (number);
  '_area'?: "area";
}

export interface RectUpdate__Output {
  'rect': (_gridstar_v1_Rect__Output | null);
  'cost': (number);
  'area'?: (number);
  '_area'?: "area";
}
