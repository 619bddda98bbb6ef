// Original file: gridstar/v1/gridstar.proto

import type { UnitPath as _gridstar_v1_UnitPath, UnitPath__Output as _gridstar_v1_UnitPath__Output } from '../../gridstar/v1/UnitPath';
import type { Long } from '@grpc/proto-loader';

export interface GroupPathsResponse {
  'units'?: (_gridstar_v1_UnitPath)[];
  /**
   * Searches the server ran for this call.
   */
  'searches'?: (number | string | Long);
  /**
   * With report_overhead: mean of (spliced cost / independent optimal cost
   * - 1) over the spliced units, and the largest such value.
   */
  'meanCostOverhead'?: (number | string);
  'maxCostOverhead'?: (number | string);
  /**
   * Units whose path was spliced.
   */
  'splicedUnits'?: (number);
  /**
   * Time the call waited in the queue and searched, in microseconds.
   */
  'queueMicros'?: (number | string);
  'searchMicros'?: (number | string);
  /**
   * True when the units followed the goal's flow field (no unit is then
   * spliced and every path is optimal), and when that field came from the
   * cache (`searches` is then 0).
   */
  'flowField'?: (boolean);
  'flowFieldCached'?: (boolean);
}

export interface GroupPathsResponse__Output {
  'units': (_gridstar_v1_UnitPath__Output)[];
  /**
   * Searches the server ran for this call.
   */
  'searches': (string);
  /**
   * With report_overhead: mean of (spliced cost / independent optimal cost
   * - 1) over the spliced units, and the largest such value.
   */
  'meanCostOverhead': (number);
  'maxCostOverhead': (number);
  /**
   * Units whose path was spliced.
   */
  'splicedUnits': (number);
  /**
   * Time the call waited in the queue and searched, in microseconds.
   */
  'queueMicros': (number);
  'searchMicros': (number);
  /**
   * True when the units followed the goal's flow field (no unit is then
   * spliced and every path is optimal), and when that field came from the
   * cache (`searches` is then 0).
   */
  'flowField': (boolean);
  'flowFieldCached': (boolean);
}
