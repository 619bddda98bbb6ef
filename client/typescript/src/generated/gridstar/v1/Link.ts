// Original file: gridstar/v1/gridstar.proto

import type { WorldCell as _gridstar_v1_WorldCell, WorldCell__Output as _gridstar_v1_WorldCell__Output } from '../../gridstar/v1/WorldCell';
import type { Long } from '@grpc/proto-loader';

export interface Link {
  /**
   * 1 to 128 characters of [A-Za-z0-9_.-], unique within the world.
   */
  'id'?: (string);
  /**
   * Each on a map of the world, and passable there when the link is
   * registered or added (a later update may block it: the link is then
   * unusable until the cell is passable again).
   */
  'from'?: (_gridstar_v1_WorldCell | null);
  'to'?: (_gridstar_v1_WorldCell | null);
  /**
   * Finite, in [0, 1e9]; 0 is allowed (a zone edge).
   */
  'cost'?: (number | string);
  /**
   * Only from `from` to `to` (a drop, a one-way portal).
   */
  'oneWay'?: (boolean);
  /**
   * A closed door: no path takes it until it is opened.
   */
  'closed'?: (boolean);
  /**
   * The agent must be allowed in at least one of these areas (bit i: area
   * i); 0 = any agent. A link's cost is not scaled by area costs.
   */
  'areas'?: (number | string | Long);
  /**
   * Largest agent_size that may take it, 1 to 8; 0 = any (8).
   */
  'maxAgentSize'?: (number);
}

export interface Link__Output {
  /**
   * 1 to 128 characters of [A-Za-z0-9_.-], unique within the world.
   */
  'id': (string);
  /**
   * Each on a map of the world, and passable there when the link is
   * registered or added (a later update may block it: the link is then
   * unusable until the cell is passable again).
   */
  'from': (_gridstar_v1_WorldCell__Output | null);
  'to': (_gridstar_v1_WorldCell__Output | null);
  /**
   * Finite, in [0, 1e9]; 0 is allowed (a zone edge).
   */
  'cost': (number);
  /**
   * Only from `from` to `to` (a drop, a one-way portal).
   */
  'oneWay': (boolean);
  /**
   * A closed door: no path takes it until it is opened.
   */
  'closed': (boolean);
  /**
   * The agent must be allowed in at least one of these areas (bit i: area
   * i); 0 = any agent. A link's cost is not scaled by area costs.
   */
  'areas': (string);
  /**
   * Largest agent_size that may take it, 1 to 8; 0 = any (8).
   */
  'maxAgentSize': (number);
}
