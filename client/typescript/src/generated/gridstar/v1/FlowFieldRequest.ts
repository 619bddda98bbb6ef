// Original file: gridstar/v1/gridstar.proto

import type { Cell as _gridstar_v1_Cell, Cell__Output as _gridstar_v1_Cell__Output } from '../../gridstar/v1/Cell';
import type { DiagonalPolicy as _gridstar_v1_DiagonalPolicy, DiagonalPolicy__Output as _gridstar_v1_DiagonalPolicy__Output } from '../../gridstar/v1/DiagonalPolicy';
import type { Long } from '@grpc/proto-loader';

export interface FlowFieldRequest {
  'mapId'?: (string);
  'goal'?: (_gridstar_v1_Cell | null);
  /**
   * UNSPECIFIED: the map's default policy.
   */
  'diagonal'?: (_gridstar_v1_DiagonalPolicy);
  /**
   * Leave out cells that cost more than this to reach the goal (a local
   * field); 0 = the goal's whole component. Finite and not negative.
   */
  'maxCost'?: (number | string);
  /**
   * When the call's deadline stops the search first, answer with the cells
   * reached so far (complete = false; every cost given is exact) instead of
   * DEADLINE_EXCEEDED.
   */
  'allowPartial'?: (boolean);
  /**
   * The agent class the field is for, as in PathRequest; the server's
   * cache keeps fields per class.
   */
  'areas'?: (number | string | Long);
  'areaCosts'?: (number | string)[];
  'agentSize'?: (number);
}

export interface FlowFieldRequest__Output {
  'mapId': (string);
  'goal': (_gridstar_v1_Cell__Output | null);
  /**
   * UNSPECIFIED: the map's default policy.
   */
  'diagonal': (_gridstar_v1_DiagonalPolicy__Output);
  /**
   * Leave out cells that cost more than this to reach the goal (a local
   * field); 0 = the goal's whole component. Finite and not negative.
   */
  'maxCost': (number);
  /**
   * When the call's deadline stops the search first, answer with the cells
   * reached so far (complete = false; every cost given is exact) instead of
   * DEADLINE_EXCEEDED.
   */
  'allowPartial': (boolean);
  /**
   * The agent class the field is for, as in PathRequest; the server's
   * cache keeps fields per class.
   */
  'areas': (string);
  'areaCosts': (number)[];
  'agentSize': (number);
}
