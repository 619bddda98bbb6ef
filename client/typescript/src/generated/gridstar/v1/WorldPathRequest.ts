// Original file: gridstar/v1/gridstar.proto

import type { WorldCell as _gridstar_v1_WorldCell, WorldCell__Output as _gridstar_v1_WorldCell__Output } from '../../gridstar/v1/WorldCell';
import type { Algorithm as _gridstar_v1_Algorithm, Algorithm__Output as _gridstar_v1_Algorithm__Output } from '../../gridstar/v1/Algorithm';
import type { DiagonalPolicy as _gridstar_v1_DiagonalPolicy, DiagonalPolicy__Output as _gridstar_v1_DiagonalPolicy__Output } from '../../gridstar/v1/DiagonalPolicy';
import type { Long } from '@grpc/proto-loader';

export interface WorldPathRequest {
  'worldId'?: (string);
  'start'?: (_gridstar_v1_WorldCell | null);
  'goal'?: (_gridstar_v1_WorldCell | null);
  /**
   * As PathRequest, per leg: algorithm, weight, diagonal (UNSPECIFIED: the
   * start map's default), smooth, trace, and the agent (areas, area_costs,
   * agent_size; each member map seen as PathRequest's agent sees it). The
   * budget is the query's: max_expansions counts the expansions of every
   * leg searched, the deadline is the call's; allow_partial answers with
   * the legs found so far along the best route (the last one partial).
   * Ends are not snapped.
   */
  'algorithm'?: (_gridstar_v1_Algorithm);
  'weight'?: (number | string);
  'diagonal'?: (_gridstar_v1_DiagonalPolicy);
  'maxExpansions'?: (number | string | Long);
  'smooth'?: (boolean);
  'allowPartial'?: (boolean);
  'trace'?: (boolean);
  'areas'?: (number | string | Long);
  'areaCosts'?: (number | string)[];
  'agentSize'?: (number);
}

export interface WorldPathRequest__Output {
  'worldId': (string);
  'start': (_gridstar_v1_WorldCell__Output | null);
  'goal': (_gridstar_v1_WorldCell__Output | null);
  /**
   * As PathRequest, per leg: algorithm, weight, diagonal (UNSPECIFIED: the
   * start map's default), smooth, trace, and the agent (areas, area_costs,
   * agent_size; each member map seen as PathRequest's agent sees it). The
   * budget is the query's: max_expansions counts the expansions of every
   * leg searched, the deadline is the call's; allow_partial answers with
   * the legs found so far along the best route (the last one partial).
   * Ends are not snapped.
   */
  'algorithm': (_gridstar_v1_Algorithm__Output);
  'weight': (number);
  'diagonal': (_gridstar_v1_DiagonalPolicy__Output);
  'maxExpansions': (string);
  'smooth': (boolean);
  'allowPartial': (boolean);
  'trace': (boolean);
  'areas': (string);
  'areaCosts': (number)[];
  'agentSize': (number);
}
