// Original file: gridstar/v1/gridstar.proto

import type { Cell as _gridstar_v1_Cell, Cell__Output as _gridstar_v1_Cell__Output } from '../../gridstar/v1/Cell';
import type { Algorithm as _gridstar_v1_Algorithm, Algorithm__Output as _gridstar_v1_Algorithm__Output } from '../../gridstar/v1/Algorithm';
import type { DiagonalPolicy as _gridstar_v1_DiagonalPolicy, DiagonalPolicy__Output as _gridstar_v1_DiagonalPolicy__Output } from '../../gridstar/v1/DiagonalPolicy';
import type { GroupMethod as _gridstar_v1_GroupMethod, GroupMethod__Output as _gridstar_v1_GroupMethod__Output } from '../../gridstar/v1/GroupMethod';
import type { Long } from '@grpc/proto-loader';

export interface GroupPathsRequest {
  'mapId'?: (string);
  /**
   * The units' positions: 1 to --max_group units.
   */
  'starts'?: (_gridstar_v1_Cell)[];
  /**
   * One goal for every unit, or exactly one goal per unit.
   */
  'goals'?: (_gridstar_v1_Cell)[];
  /**
   * The algorithm of every search (default auto; baseline is not allowed).
   */
  'algorithm'?: (_gridstar_v1_Algorithm);
  'diagonal'?: (_gridstar_v1_DiagonalPolicy);
  /**
   * Also run an independent optimal search per spliced unit and report the
   * overhead of splicing.
   */
  'reportOverhead'?: (boolean);
  /**
   * Octile distance in cells beyond which a unit does not join P (0 = the
   * default, 64; at most 8192).
   */
  'maxSpliceDistance'?: (number);
  'method'?: (_gridstar_v1_GroupMethod);
  /**
   * Group size from which GROUP_METHOD_AUTO may take a flow field (0 = the
   * default, 64; at least 1 otherwise).
   */
  'flowFieldMinUnits'?: (number);
  /**
   * The units' agent class, as in PathRequest (every unit the same).
   */
  'areas'?: (number | string | Long);
  'areaCosts'?: (number | string)[];
  'agentSize'?: (number);
}

export interface GroupPathsRequest__Output {
  'mapId': (string);
  /**
   * The units' positions: 1 to --max_group units.
   */
  'starts': (_gridstar_v1_Cell__Output)[];
  /**
   * One goal for every unit, or exactly one goal per unit.
   */
  'goals': (_gridstar_v1_Cell__Output)[];
  /**
   * The algorithm of every search (default auto; baseline is not allowed).
   */
  'algorithm': (_gridstar_v1_Algorithm__Output);
  'diagonal': (_gridstar_v1_DiagonalPolicy__Output);
  /**
   * Also run an independent optimal search per spliced unit and report the
   * overhead of splicing.
   */
  'reportOverhead': (boolean);
  /**
   * Octile distance in cells beyond which a unit does not join P (0 = the
   * default, 64; at most 8192).
   */
  'maxSpliceDistance': (number);
  'method': (_gridstar_v1_GroupMethod__Output);
  /**
   * Group size from which GROUP_METHOD_AUTO may take a flow field (0 = the
   * default, 64; at least 1 otherwise).
   */
  'flowFieldMinUnits': (number);
  /**
   * The units' agent class, as in PathRequest (every unit the same).
   */
  'areas': (string);
  'areaCosts': (number)[];
  'agentSize': (number);
}
