// Original file: gridstar/v1/gridstar.proto

import type { WorldLeg as _gridstar_v1_WorldLeg, WorldLeg__Output as _gridstar_v1_WorldLeg__Output } from '../../gridstar/v1/WorldLeg';
import type { Long } from '@grpc/proto-loader';

export interface WorldPathResponse {
  /**
   * legs.size() == link_ids.size() + 1: leg i ends where link_ids[i] is
   * taken, leg i + 1 starts where it leads.
   */
  'legs'?: (_gridstar_v1_WorldLeg)[];
  'linkIds'?: (string)[];
  /**
   * The legs' costs plus the links'.
   */
  'cost'?: (number | string);
  'partial'?: (boolean);
  'worldVersion'?: (number | string | Long);
  /**
   * Searches run on maps (the legs, and the lower bounds the least route
   * needed searched), their expansions, the queue wait and search time.
   */
  'searches'?: (number);
  'expanded'?: (number | string | Long);
  'queueMicros'?: (number | string);
  'searchMicros'?: (number | string);
}

export interface WorldPathResponse__Output {
  /**
   * legs.size() == link_ids.size() + 1: leg i ends where link_ids[i] is
   * taken, leg i + 1 starts where it leads.
   */
  'legs': (_gridstar_v1_WorldLeg__Output)[];
  'linkIds': (string)[];
  /**
   * The legs' costs plus the links'.
   */
  'cost': (number);
  'partial': (boolean);
  'worldVersion': (string);
  /**
   * Searches run on maps (the legs, and the lower bounds the least route
   * needed searched), their expansions, the queue wait and search time.
   */
  'searches': (number);
  'expanded': (string);
  'queueMicros': (number);
  'searchMicros': (number);
}
