// Original file: gridstar/v1/gridstar.proto

import type { Cell as _gridstar_v1_Cell, Cell__Output as _gridstar_v1_Cell__Output } from '../../gridstar/v1/Cell';
import type { Algorithm as _gridstar_v1_Algorithm, Algorithm__Output as _gridstar_v1_Algorithm__Output } from '../../gridstar/v1/Algorithm';
import type { PartialReason as _gridstar_v1_PartialReason, PartialReason__Output as _gridstar_v1_PartialReason__Output } from '../../gridstar/v1/PartialReason';
import type { Long } from '@grpc/proto-loader';

export interface PathResponse {
  /**
   * Cells from start to goal, packed as x0, y0, x1, y1, ...
   */
  'cells'?: (number)[];
  /**
   * Smoothed waypoints packed the same way (with `smooth`, and always for
   * ALGORITHM_THETA: its any-angle corners).
   */
  'waypoints'?: (number)[];
  /**
   * Cost of `cells` under the cost model above.
   */
  'cost'?: (number | string);
  /**
   * True cost of the waypoints' segments (with `smooth`, never more than
   * `cost`; and for ALGORITHM_THETA, never more than the optimal grid cost).
   */
  'smoothedCost'?: (number | string);
  /**
   * Cells (for JPS: jump points) the search expanded.
   */
  'expanded'?: (number | string | Long);
  'partial'?: (boolean);
  /**
   * The map version the search ran on.
   */
  'mapVersion'?: (number | string | Long);
  /**
   * The ends actually searched, after snapping.
   */
  'start'?: (_gridstar_v1_Cell | null);
  'goal'?: (_gridstar_v1_Cell | null);
  /**
   * Time the request waited in the server's queue, and searched.
   */
  'queueMicros'?: (number | string);
  'searchMicros'?: (number | string);
  /**
   * The algorithm that ran: the one asked for, or what JPS, JPS_PLUS and
   * AUTO resolved to for this map and policy.
   */
  'algorithm'?: (_gridstar_v1_Algorithm);
  /**
   * With `trace`: the cells the search took off its open list, in order,
   * packed as x0, y0, x1, y1, ... (jump points for JPS and JPS_PLUS; entrance
   * cells of the abstract search for HPA; both directions interleaved for
   * BIDIRECTIONAL; Theta*'s own search for THETA). At most
   * --max_message_bytes / 40 cells; `trace_truncated` says when more were
   * expanded (the first ones are kept).
   */
  'trace'?: (number)[];
  'traceTruncated'?: (boolean);
  /**
   * Empty unless the algorithm asked for could not run and `algorithm` is
   * another (AUTO's choice is never explained here). Says why and, when a
   * structure was missing, which registration option builds it, e.g.
   * "hpa ran as jps+: map 'm' was registered without the HPA* abstraction
   * (RegisterMapRequest.hpa; CLI register --hpa; Python
   * register_map(hpa=True))". The answer is still a correct answer of the
   * algorithm that ran.
   */
  'note'?: (string);
  /**
   * Why a partial answer (`partial`, with allow_partial) stopped short;
   * PARTIAL_REASON_UNSPECIFIED for a complete path.
   */
  'partialReason'?: (_gridstar_v1_PartialReason);
}

export interface PathResponse__Output {
  /**
   * Cells from start to goal, packed as x0, y0, x1, y1, ...
   */
  'cells': (number)[];
  /**
   * Smoothed waypoints packed the same way (with `smooth`, and always for
   * ALGORITHM_THETA: its any-angle corners).
   */
  'waypoints': (number)[];
  /**
   * Cost of `cells` under the cost model above.
   */
  'cost': (number);
  /**
   * True cost of the waypoints' segments (with `smooth`, never more than
   * `cost`; and for ALGORITHM_THETA, never more than the optimal grid cost).
   */
  'smoothedCost': (number);
  /**
   * Cells (for JPS: jump points) the search expanded.
   */
  'expanded': (string);
  'partial': (boolean);
  /**
   * The map version the search ran on.
   */
  'mapVersion': (string);
  /**
   * The ends actually searched, after snapping.
   */
  'start': (_gridstar_v1_Cell__Output | null);
  'goal': (_gridstar_v1_Cell__Output | null);
  /**
   * Time the request waited in the server's queue, and searched.
   */
  'queueMicros': (number);
  'searchMicros': (number);
  /**
   * The algorithm that ran: the one asked for, or what JPS, JPS_PLUS and
   * AUTO resolved to for this map and policy.
   */
  'algorithm': (_gridstar_v1_Algorithm__Output);
  /**
   * With `trace`: the cells the search took off its open list, in order,
   * packed as x0, y0, x1, y1, ... (jump points for JPS and JPS_PLUS; entrance
   * cells of the abstract search for HPA; both directions interleaved for
   * BIDIRECTIONAL; Theta*'s own search for THETA). At most
   * --max_message_bytes / 40 cells; `trace_truncated` says when more were
   * expanded (the first ones are kept).
   */
  'trace': (number)[];
  'traceTruncated': (boolean);
  /**
   * Empty unless the algorithm asked for could not run and `algorithm` is
   * another (AUTO's choice is never explained here). Says why and, when a
   * structure was missing, which registration option builds it, e.g.
   * "hpa ran as jps+: map 'm' was registered without the HPA* abstraction
   * (RegisterMapRequest.hpa; CLI register --hpa; Python
   * register_map(hpa=True))". The answer is still a correct answer of the
   * algorithm that ran.
   */
  'note': (string);
  /**
   * Why a partial answer (`partial`, with allow_partial) stopped short;
   * PARTIAL_REASON_UNSPECIFIED for a complete path.
   */
  'partialReason': (_gridstar_v1_PartialReason__Output);
}
