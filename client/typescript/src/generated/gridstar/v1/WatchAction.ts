// Original file: gridstar/v1/gridstar.proto

export const WatchAction = {
  WATCH_ACTION_UNSPECIFIED: 'WATCH_ACTION_UNSPECIFIED',
  /**
   * A new agent (or a new path request for an agent the stream has): the
   * answer is its path (reason ADDED).
   */
  WATCH_ACTION_ADD: 'WATCH_ACTION_ADD',
  /**
   * The agent's new position. On its current path: answered with reason
   * MOVED and the position's index on that path (no path; the remaining
   * path is the one from there). Off it: a new path from there (reason
   * OFF_PATH).
   */
  WATCH_ACTION_MOVE: 'WATCH_ACTION_MOVE',
  /**
   * A new goal: answered with the new path (reason RETARGETED).
   */
  WATCH_ACTION_RETARGET: 'WATCH_ACTION_RETARGET',
  /**
   * The agent is forgotten (reason REMOVED).
   */
  WATCH_ACTION_REMOVE: 'WATCH_ACTION_REMOVE',
} as const;

export type WatchAction =
  | 'WATCH_ACTION_UNSPECIFIED'
  | 0
  /**
   * A new agent (or a new path request for an agent the stream has): the
   * answer is its path (reason ADDED).
   */
  | 'WATCH_ACTION_ADD'
  | 1
  /**
   * The agent's new position. On its current path: answered with reason
   * MOVED and the position's index on that path (no path; the remaining
   * path is the one from there). Off it: a new path from there (reason
   * OFF_PATH).
   */
  | 'WATCH_ACTION_MOVE'
  | 2
  /**
   * A new goal: answered with the new path (reason RETARGETED).
   */
  | 'WATCH_ACTION_RETARGET'
  | 3
  /**
   * The agent is forgotten (reason REMOVED).
   */
  | 'WATCH_ACTION_REMOVE'
  | 4

export type WatchAction__Output = typeof WatchAction[keyof typeof WatchAction]
