// Original file: gridstar/v1/gridstar.proto

import type { Algorithm as _gridstar_v1_Algorithm, Algorithm__Output as _gridstar_v1_Algorithm__Output } from '../../gridstar/v1/Algorithm';
import type { Long } from '@grpc/proto-loader';

export interface WorldLeg {
  'mapId'?: (string);
  'mapVersion'?: (number | string | Long);
  /**
   * As PathResponse: cells (x0, y0, x1, ...), their cost, waypoints and
   * smoothed_cost with smooth, the expansions, the algorithm that ran, and
   * with trace the cells expanded. A leg may be one cell (two links met).
   */
  'cells'?: (number)[];
  'cost'?: (number | string);
  'waypoints'?: (number)[];
  'smoothedCost'?: (number | string);
  'expanded'?: (number | string | Long);
  'algorithm'?: (_gridstar_v1_Algorithm);
  'trace'?: (number)[];
}

export interface WorldLeg__Output {
  'mapId': (string);
  'mapVersion': (string);
  /**
   * As PathResponse: cells (x0, y0, x1, ...), their cost, waypoints and
   * smoothed_cost with smooth, the expansions, the algorithm that ran, and
   * with trace the cells expanded. A leg may be one cell (two links met).
   */
  'cells': (number)[];
  'cost': (number);
  'waypoints': (number)[];
  'smoothedCost': (number);
  'expanded': (string);
  'algorithm': (_gridstar_v1_Algorithm__Output);
  'trace': (number)[];
}
