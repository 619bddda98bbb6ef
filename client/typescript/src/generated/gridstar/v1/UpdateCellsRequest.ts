// Original file: gridstar/v1/gridstar.proto

import type { CellUpdate as _gridstar_v1_CellUpdate, CellUpdate__Output as _gridstar_v1_CellUpdate__Output } from '../../gridstar/v1/CellUpdate';
import type { RectUpdate as _gridstar_v1_RectUpdate, RectUpdate__Output as _gridstar_v1_RectUpdate__Output } from '../../gridstar/v1/RectUpdate';
import type { Long } from '@grpc/proto-loader';

export interface UpdateCellsRequest {
  'id'?: (string);
  /**
   * Applied in order: cells first, then rectangles. Every cell and rectangle
   * must lie on the map (INVALID_ARGUMENT otherwise, and nothing changes).
   */
  'cells'?: (_gridstar_v1_CellUpdate)[];
  'rects'?: (_gridstar_v1_RectUpdate)[];
  /**
   * When non-zero, the update applies only if the map is at this version;
   * ABORTED naming the map's version otherwise (nothing changes).
   */
  'expectedVersion'?: (number | string | Long);
}

export interface UpdateCellsRequest__Output {
  'id': (string);
  /**
   * Applied in order: cells first, then rectangles. Every cell and rectangle
   * must lie on the map (INVALID_ARGUMENT otherwise, and nothing changes).
   */
  'cells': (_gridstar_v1_CellUpdate__Output)[];
  'rects': (_gridstar_v1_RectUpdate__Output)[];
  /**
   * When non-zero, the update applies only if the map is at this version;
   * ABORTED naming the map's version otherwise (nothing changes).
   */
  'expectedVersion': (string);
}
