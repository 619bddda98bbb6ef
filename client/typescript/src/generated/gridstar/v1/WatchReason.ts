// Original file: gridstar/v1/gridstar.proto

export const WatchReason = {
  WATCH_REASON_UNSPECIFIED: 'WATCH_REASON_UNSPECIFIED',
  /**
   * Answers to requests.
   */
  WATCH_REASON_ADDED: 'WATCH_REASON_ADDED',
  WATCH_REASON_MOVED: 'WATCH_REASON_MOVED',
  WATCH_REASON_OFF_PATH: 'WATCH_REASON_OFF_PATH',
  WATCH_REASON_RETARGETED: 'WATCH_REASON_RETARGETED',
  WATCH_REASON_REMOVED: 'WATCH_REASON_REMOVED',
  /**
   * Pushes (request_id 0) after a change of the map:
   * the remaining path crosses a cell now blocked (or a diagonal of it is
   * no longer allowed by its corner cells);
   */
  WATCH_REASON_BLOCKED: 'WATCH_REASON_BLOCKED',
  /**
   * a path cheaper by more than the agent's replan_if_cheaper;
   */
  WATCH_REASON_CHEAPER: 'WATCH_REASON_CHEAPER',
  /**
   * the agent had no path (its last answer was FAILED_PRECONDITION: no
   * path joins the ends) and a change opened cells of its map;
   */
  WATCH_REASON_REACHABLE: 'WATCH_REASON_REACHABLE',
  /**
   * the map was deleted: the agent is dropped (code NOT_FOUND). A world
   * agent is not dropped when a member map is deleted: its remaining path
   * through that map is BLOCKED and searched again;
   */
  WATCH_REASON_MAP_DELETED: 'WATCH_REASON_MAP_DELETED',
  /**
   * the world of a world agent was deleted: the agent is dropped (code
   * NOT_FOUND).
   */
  WATCH_REASON_WORLD_DELETED: 'WATCH_REASON_WORLD_DELETED',
} as const;

export type WatchReason =
  | 'WATCH_REASON_UNSPECIFIED'
  | 0
  /**
   * Answers to requests.
   */
  | 'WATCH_REASON_ADDED'
  | 1
  | 'WATCH_REASON_MOVED'
  | 2
  | 'WATCH_REASON_OFF_PATH'
  | 3
  | 'WATCH_REASON_RETARGETED'
  | 4
  | 'WATCH_REASON_REMOVED'
  | 5
  /**
   * Pushes (request_id 0) after a change of the map:
   * the remaining path crosses a cell now blocked (or a diagonal of it is
   * no longer allowed by its corner cells);
   */
  | 'WATCH_REASON_BLOCKED'
  | 6
  /**
   * a path cheaper by more than the agent's replan_if_cheaper;
   */
  | 'WATCH_REASON_CHEAPER'
  | 7
  /**
   * the agent had no path (its last answer was FAILED_PRECONDITION: no
   * path joins the ends) and a change opened cells of its map;
   */
  | 'WATCH_REASON_REACHABLE'
  | 8
  /**
   * the map was deleted: the agent is dropped (code NOT_FOUND). A world
   * agent is not dropped when a member map is deleted: its remaining path
   * through that map is BLOCKED and searched again;
   */
  | 'WATCH_REASON_MAP_DELETED'
  | 9
  /**
   * the world of a world agent was deleted: the agent is dropped (code
   * NOT_FOUND).
   */
  | 'WATCH_REASON_WORLD_DELETED'
  | 10

export type WatchReason__Output = typeof WatchReason[keyof typeof WatchReason]
