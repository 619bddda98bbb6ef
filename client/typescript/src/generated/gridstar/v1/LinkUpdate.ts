// Original file: gridstar/v1/gridstar.proto

import type { Link as _gridstar_v1_Link, Link__Output as _gridstar_v1_Link__Output } from '../../gridstar/v1/Link';

// Original file: gridstar/v1/gridstar.proto

export const _gridstar_v1_LinkUpdate_State = {
  STATE_UNCHANGED: 'STATE_UNCHANGED',
  STATE_OPEN: 'STATE_OPEN',
  STATE_CLOSED: 'STATE_CLOSED',
} as const;

export type _gridstar_v1_LinkUpdate_State =
  | 'STATE_UNCHANGED'
  | 0
  | 'STATE_OPEN'
  | 1
  | 'STATE_CLOSED'
  | 2

export type _gridstar_v1_LinkUpdate_State__Output = typeof _gridstar_v1_LinkUpdate_State[keyof typeof _gridstar_v1_LinkUpdate_State]

export interface LinkUpdate {
  'linkId'?: (string);
  'state'?: (_gridstar_v1_LinkUpdate_State);
  /**
   * A new cost (set: in [0, 1e9]).
   */
  'cost'?: (number | string);
  /**
   * Adds this link (link_id must be new and equal add.id); state and cost
   * are then ignored.
   */
  'add'?: (_gridstar_v1_Link | null);
  /**
   * Removes the link.
   */
  'remove'?: (boolean);
  '_cost'?: "cost";
}

export interface LinkUpdate__Output {
  'linkId': (string);
  'state': (_gridstar_v1_LinkUpdate_State__Output);
  /**
   * A new cost (set: in [0, 1e9]).
   */
  'cost'?: (number);
  /**
   * Adds this link (link_id must be new and equal add.id); state and cost
   * are then ignored.
   */
  'add': (_gridstar_v1_Link__Output | null);
  /**
   * Removes the link.
   */
  'remove': (boolean);
  '_cost'?: "cost";
}
