// Original file: gridstar/v1/gridstar.proto

import type { Cell as _gridstar_v1_Cell, Cell__Output as _gridstar_v1_Cell__Output } from '../../gridstar/v1/Cell';
import type { Algorithm as _gridstar_v1_Algorithm, Algorithm__Output as _gridstar_v1_Algorithm__Output } from '../../gridstar/v1/Algorithm';
import type { DiagonalPolicy as _gridstar_v1_DiagonalPolicy, DiagonalPolicy__Output as _gridstar_v1_DiagonalPolicy__Output } from '../../gridstar/v1/DiagonalPolicy';
import type { Long } from '@grpc/proto-loader';

export interface PathRequest {
  'mapId'?: (string);
  'start'?: (_gridstar_v1_Cell | null);
  'goal'?: (_gridstar_v1_Cell | null);
  'algorithm'?: (_gridstar_v1_Algorithm);
  /**
   * For ALGORITHM_WEIGHTED: in [1, 100]; 0 means 1.5. Ignored otherwise.
   */
  'weight'?: (number | string);
  'diagonal'?: (_gridstar_v1_DiagonalPolicy);
  /**
   * Expand at most this many cells; 0 = no limit. Running out gives the path
   * to the expanded cell nearest the goal, flagged partial, with
   * allow_partial; RESOURCE_EXHAUSTED without it.
   */
  'maxExpansions'?: (number | string | Long);
  /**
   * Also return line-of-sight waypoints of the path.
   */
  'smooth'?: (boolean);
  /**
   * A blocked or off-map start/goal moves to the nearest passable cell within
   * this radius (0 to 256; 0 = no snapping).
   */
  'snapRadius'?: (number);
  /**
   * When the call's deadline or max_expansions runs out, answer with the
   * partial path (partial = true) instead of DEADLINE_EXCEEDED or
   * RESOURCE_EXHAUSTED.
   */
  'allowPartial'?: (boolean);
  /**
   * Also return the cells the search expanded, in order (PathResponse.trace),
   * to draw what it did (`gridstar render`). Costs memory and bytes: off by
   * default.
   */
  'trace'?: (boolean);
  /**
   * The agent (see "Agents" below). Areas the agent may enter, a bit mask
   * (bit i: area i); 0 = the map's default_areas.
   */
  'areas'?: (number | string | Long);
  /**
   * Cost multiplier per area id (index = area, at most 64 entries; missing
   * entries and 0 mean 1); each >= 1 and finite. A cell of area a costs
   * round(cost * area_costs[a]) (halves up), which must not exceed 255
   * (INVALID_ARGUMENT naming area_costs[a] otherwise).
   */
  'areaCosts'?: (number | string)[];
  /**
   * The agent occupies the agent_size x agent_size square whose top-left
   * cell is the path cell: 1 to 8, 0 = 1.
   */
  'agentSize'?: (number);
}

export interface PathRequest__Output {
  'mapId': (string);
  'start': (_gridstar_v1_Cell__Output | null);
  'goal': (_gridstar_v1_Cell__Output | null);
  'algorithm': (_gridstar_v1_Algorithm__Output);
  /**
   * For ALGORITHM_WEIGHTED: in [1, 100]; 0 means 1.5. Ignored otherwise.
   */
  'weight': (number);
  'diagonal': (_gridstar_v1_DiagonalPolicy__Output);
  /**
   * Expand at most this many cells; 0 = no limit. Running out gives the path
   * to the expanded cell nearest the goal, flagged partial, with
   * allow_partial; RESOURCE_EXHAUSTED without it.
   */
  'maxExpansions': (string);
  /**
   * Also return line-of-sight waypoints of the path.
   */
  'smooth': (boolean);
  /**
   * A blocked or off-map start/goal moves to the nearest passable cell within
   * this radius (0 to 256; 0 = no snapping).
   */
  'snapRadius': (number);
  /**
   * When the call's deadline or max_expansions runs out, answer with the
   * partial path (partial = true) instead of DEADLINE_EXCEEDED or
   * RESOURCE_EXHAUSTED.
   */
  'allowPartial': (boolean);
  /**
   * Also return the cells the search expanded, in order (PathResponse.trace),
   * to draw what it did (`gridstar render`). Costs memory and bytes: off by
   * default.
   */
  'trace': (boolean);
  /**
   * The agent (see "Agents" below). Areas the agent may enter, a bit mask
   * (bit i: area i); 0 = the map's default_areas.
   */
  'areas': (string);
  /**
   * Cost multiplier per area id (index = area, at most 64 entries; missing
   * entries and 0 mean 1); each >= 1 and finite. A cell of area a costs
   * round(cost * area_costs[a]) (halves up), which must not exceed 255
   * (INVALID_ARGUMENT naming area_costs[a] otherwise).
   */
  'areaCosts': (number)[];
  /**
   * The agent occupies the agent_size x agent_size square whose top-left
   * cell is the path cell: 1 to 8, 0 = 1.
   */
  'agentSize': (number);
}
