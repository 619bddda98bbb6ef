// Original file: gridstar/v1/gridstar.proto

import type { WatchAction as _gridstar_v1_WatchAction, WatchAction__Output as _gridstar_v1_WatchAction__Output } from '../../gridstar/v1/WatchAction';
import type { PathRequest as _gridstar_v1_PathRequest, PathRequest__Output as _gridstar_v1_PathRequest__Output } from '../../gridstar/v1/PathRequest';
import type { Cell as _gridstar_v1_Cell, Cell__Output as _gridstar_v1_Cell__Output } from '../../gridstar/v1/Cell';
import type { WorldPathRequest as _gridstar_v1_WorldPathRequest, WorldPathRequest__Output as _gridstar_v1_WorldPathRequest__Output } from '../../gridstar/v1/WorldPathRequest';
import type { WorldCell as _gridstar_v1_WorldCell, WorldCell__Output as _gridstar_v1_WorldCell__Output } from '../../gridstar/v1/WorldCell';
import type { Long } from '@grpc/proto-loader';

export interface WatchRequest {
  /**
   * Chosen by the caller; echoed in the event that answers this request.
   * Pushed events carry 0, so use non-zero ids.
   */
  'requestId'?: (number | string | Long);
  /**
   * The agent, chosen by the caller: unique within the stream.
   */
  'agentId'?: (number | string | Long);
  'action'?: (_gridstar_v1_WatchAction);
  /**
   * ADD: the path request as for FindPath; its start is the agent's
   * position, and every search for the agent (replans included) runs with
   * its options from the agent's latest position. `trace` is not allowed.
   * An agent of a class other than the map's default (agent_size, areas,
   * area_costs) has its paths checked on its class's map, at every update
   * of the map (not only those crossing its path: its class sees cells the
   * default does not), and is never repaired by D* Lite.
   */
  'path'?: (_gridstar_v1_PathRequest | null);
  /**
   * MOVE: the agent's new position (on the map).
   */
  'position'?: (_gridstar_v1_Cell | null);
  /**
   * RETARGET: the new goal.
   */
  'goal'?: (_gridstar_v1_Cell | null);
  /**
   * ADD: in [0, 1). When positive, a change that could make a path at
   * least this fraction cheaper than the agent's remaining path (a cell
   * opened or made cheaper within reach, or the path's own cells made
   * costlier) starts a search, and its path is pushed (reason CHEAPER) when
   * it costs less than (1 - replan_if_cheaper) times the remaining path
   * on the changed map. 0: pushed only when the path becomes illegal.
   */
  'replanIfCheaper'?: (number | string);
  /**
   * ADD: when positive, every search for this agent that needs more than
   * this many expansions answers twice: first the best partial path found
   * within them (path.partial set, reason as for the full answer), at
   * once, so that the unit can start moving; then the complete path in a
   * second event with the same request_id and reason. The complete search
   * starts afresh (it costs at most this many expansions more).
   */
  'progressiveExpansions'?: (number | string | Long);
  /**
   * ADD of an agent that walks a world of linked maps (instead of `path`):
   * its world path request as FindWorldPath takes it (world_id, start on a
   * member map, goal on the same or another; `trace` not allowed). Its
   * answers and pushes carry WatchEvent.world_path. Such an agent's
   * remaining path (the rest of its leg, the links after it and the legs
   * they lead to) is checked after every change of a member map that
   * touches it and after every change of the world's links: a move made
   * illegal, or a link of it closed, removed, moved or no longer admitting
   * the agent, pushes a new path (BLOCKED). With replan_if_cheaper, a link
   * opened, added or made cheaper, or a cell of a member map opened or
   * made cheaper, starts a search (no lower bound prunes it, as it does on
   * one map), pushed as CHEAPER when cheaper by the fraction. An agent
   * without a path gets REACHABLE only when a search after a change finds
   * one. Agent ids are shared with map agents: ADD of either kind for an
   * id the stream has replaces the agent, whatever its kind.
   */
  'worldPath'?: (_gridstar_v1_WorldPathRequest | null);
  /**
   * MOVE of a world agent: its new position. Unset: `position` on the map
   * the agent is on now (the map of its position).
   */
  'worldPosition'?: (_gridstar_v1_WorldCell | null);
  /**
   * RETARGET of a world agent: its new goal. Unset: `goal` on the map of
   * its current goal.
   */
  'worldGoal'?: (_gridstar_v1_WorldCell | null);
}

export interface WatchRequest__Output {
  /**
   * Chosen by the caller; echoed in the event that answers this request.
   * Pushed events carry 0, so use non-zero ids.
   */
  'requestId': (string);
  /**
   * The agent, chosen by the caller: unique within the stream.
   */
  'agentId': (string);
  'action': (_gridstar_v1_WatchAction__Output);
  /**
   * ADD: the path request as for FindPath; its start is the agent's
   * position, and every search for the agent (replans included) runs with
   * its options from the agent's latest position. `trace` is not allowed.
   * An agent of a class other than the map's default (agent_size, areas,
   * area_costs) has its paths checked on its class's map, at every update
   * of the map (not only those crossing its path: its class sees cells the
   * default does not), and is never repaired by D* Lite.
   */
  'path': (_gridstar_v1_PathRequest__Output | null);
  /**
   * MOVE: the agent's new position (on the map).
   */
  'position': (_gridstar_v1_Cell__Output | null);
  /**
   * RETARGET: the new goal.
   */
  'goal': (_gridstar_v1_Cell__Output | null);
  /**
   * ADD: in [0, 1). When positive, a change that could make a path at
   * least this fraction cheaper than the agent's remaining path (a cell
   * opened or made cheaper within reach, or the path's own cells made
   * costlier) starts a search, and its path is pushed (reason CHEAPER) when
   * it costs less than (1 - replan_if_cheaper) times the remaining path
   * on the changed map. 0: pushed only when the path becomes illegal.
   */
  'replanIfCheaper': (number);
  /**
   * ADD: when positive, every search for this agent that needs more than
   * this many expansions answers twice: first the best partial path found
   * within them (path.partial set, reason as for the full answer), at
   * once, so that the unit can start moving; then the complete path in a
   * second event with the same request_id and reason. The complete search
   * starts afresh (it costs at most this many expansions more).
   */
  'progressiveExpansions': (string);
  /**
   * ADD of an agent that walks a world of linked maps (instead of `path`):
   * its world path request as FindWorldPath takes it (world_id, start on a
   * member map, goal on the same or another; `trace` not allowed). Its
   * answers and pushes carry WatchEvent.world_path. Such an agent's
   * remaining path (the rest of its leg, the links after it and the legs
   * they lead to) is checked after every change of a member map that
   * touches it and after every change of the world's links: a move made
   * illegal, or a link of it closed, removed, moved or no longer admitting
   * the agent, pushes a new path (BLOCKED). With replan_if_cheaper, a link
   * opened, added or made cheaper, or a cell of a member map opened or
   * made cheaper, starts a search (no lower bound prunes it, as it does on
   * one map), pushed as CHEAPER when cheaper by the fraction. An agent
   * without a path gets REACHABLE only when a search after a change finds
   * one. Agent ids are shared with map agents: ADD of either kind for an
   * id the stream has replaces the agent, whatever its kind.
   */
  'worldPath': (_gridstar_v1_WorldPathRequest__Output | null);
  /**
   * MOVE of a world agent: its new position. Unset: `position` on the map
   * the agent is on now (the map of its position).
   */
  'worldPosition': (_gridstar_v1_WorldCell__Output | null);
  /**
   * RETARGET of a world agent: its new goal. Unset: `goal` on the map of
   * its current goal.
   */
  'worldGoal': (_gridstar_v1_WorldCell__Output | null);
}
