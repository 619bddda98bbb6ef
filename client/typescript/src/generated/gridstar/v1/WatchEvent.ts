// Original file: gridstar/v1/gridstar.proto

import type { WatchReason as _gridstar_v1_WatchReason, WatchReason__Output as _gridstar_v1_WatchReason__Output } from '../../gridstar/v1/WatchReason';
import type { PathResponse as _gridstar_v1_PathResponse, PathResponse__Output as _gridstar_v1_PathResponse__Output } from '../../gridstar/v1/PathResponse';
import type { WorldPathResponse as _gridstar_v1_WorldPathResponse, WorldPathResponse__Output as _gridstar_v1_WorldPathResponse__Output } from '../../gridstar/v1/WorldPathResponse';
import type { Long } from '@grpc/proto-loader';

export interface WatchEvent {
  /**
   * The request answered; 0 for a push.
   */
  'requestId'?: (number | string | Long);
  'agentId'?: (number | string | Long);
  'reason'?: (_gridstar_v1_WatchReason);
  /**
   * google.rpc.Code of the event (0 = OK) and its message. A request that
   * fails (INVALID_ARGUMENT naming the field, NOT_FOUND for an unknown map
   * or agent) leaves the stream open. A search that fails is reported the
   * same way (FAILED_PRECONDITION: no path; the agent is kept without one).
   * ABORTED: a newer request for the same agent came while this one was
   * searched (that one's answer follows). RESOURCE_EXHAUSTED: the search
   * queue was full, or the stream has --watch_max_agents agents.
   */
  'code'?: (number);
  'message'?: (string);
  /**
   * ADDED, OFF_PATH, RETARGETED and the pushes: the path from the agent's
   * position (when the search started) to its goal, as FindPath answers;
   * path.map_version is the version searched.
   */
  'path'?: (_gridstar_v1_PathResponse | null);
  /**
   * MOVED: the index in the current path's cells of the reported position.
   */
  'pathIndex'?: (number | string | Long);
  /**
   * Pushes: the map version whose change caused it, and the time from that
   * change being applied to this event being queued for the stream, in
   * microseconds.
   */
  'mapVersion'?: (number | string | Long);
  'sinceUpdateMicros'?: (number | string);
  /**
   * True when the path came from repairing the agent's kept D* Lite search
   * (Koenig & Likhachev 2002) rather than a fresh search: the server does
   * so for agents blocked repeatedly near them, where it measured faster
   * (docs/performance.md, "Watched agents"). The path is optimal either way;
   * path.algorithm then says ASTAR.
   */
  'incremental'?: (boolean);
  /**
   * World agents (WatchRequest.world_path): ADDED, OFF_PATH, RETARGETED and
   * the pushes carry the world path from the agent's position to its goal
   * as FindWorldPath answers it (instead of `path`); its world_version is
   * the version searched.
   */
  'worldPath'?: (_gridstar_v1_WorldPathResponse | null);
  /**
   * MOVED of a world agent: the leg of world_path the position is on
   * (path_index is then the index in that leg's cells).
   */
  'legIndex'?: (number);
  /**
   * Pushes for a world agent: the member map whose change caused it (with
   * map_version), or empty when a change of the world's links did (with
   * world_version: the world's version after the change).
   */
  'mapId'?: (string);
  'worldVersion'?: (number | string | Long);
}

export interface WatchEvent__Output {
  /**
   * The request answered; 0 for a push.
   */
  'requestId': (string);
  'agentId': (string);
  'reason': (_gridstar_v1_WatchReason__Output);
  /**
   * google.rpc.Code of the event (0 = OK) and its message. A request that
   * fails (INVALID_ARGUMENT naming the field, NOT_FOUND for an unknown map
   * or agent) leaves the stream open. A search that fails is reported the
   * same way (FAILED_PRECONDITION: no path; the agent is kept without one).
   * ABORTED: a newer request for the same agent came while this one was
   * searched (that one's answer follows). RESOURCE_EXHAUSTED: the search
   * queue was full, or the stream has --watch_max_agents agents.
   */
  'code': (number);
  'message': (string);
  /**
   * ADDED, OFF_PATH, RETARGETED and the pushes: the path from the agent's
   * position (when the search started) to its goal, as FindPath answers;
   * path.map_version is the version searched.
   */
  'path': (_gridstar_v1_PathResponse__Output | null);
  /**
   * MOVED: the index in the current path's cells of the reported position.
   */
  'pathIndex': (string);
  /**
   * Pushes: the map version whose change caused it, and the time from that
   * change being applied to this event being queued for the stream, in
   * microseconds.
   */
  'mapVersion': (string);
  'sinceUpdateMicros': (number);
  /**
   * True when the path came from repairing the agent's kept D* Lite search
   * (Koenig & Likhachev 2002) rather than a fresh search: the server does
   * so for agents blocked repeatedly near them, where it measured faster
   * (docs/performance.md, "Watched agents"). The path is optimal either way;
   * path.algorithm then says ASTAR.
   */
  'incremental': (boolean);
  /**
   * World agents (WatchRequest.world_path): ADDED, OFF_PATH, RETARGETED and
   * the pushes carry the world path from the agent's position to its goal
   * as FindWorldPath answers it (instead of `path`); its world_version is
   * the version searched.
   */
  'worldPath': (_gridstar_v1_WorldPathResponse__Output | null);
  /**
   * MOVED of a world agent: the leg of world_path the position is on
   * (path_index is then the index in that leg's cells).
   */
  'legIndex': (number);
  /**
   * Pushes for a world agent: the member map whose change caused it (with
   * map_version), or empty when a change of the world's links did (with
   * world_version: the world's version after the change).
   */
  'mapId': (string);
  'worldVersion': (string);
}
