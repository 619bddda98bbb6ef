// Original file: gridstar/v1/gridstar.proto

export const PartialReason = {
  PARTIAL_REASON_UNSPECIFIED: 'PARTIAL_REASON_UNSPECIFIED',
  /**
   * The request's max_expansions ran out.
   */
  PARTIAL_REASON_MAX_EXPANSIONS: 'PARTIAL_REASON_MAX_EXPANSIONS',
  /**
   * The call's deadline (or --max_search_time) ran out.
   */
  PARTIAL_REASON_DEADLINE: 'PARTIAL_REASON_DEADLINE',
  /**
   * The call was cancelled.
   */
  PARTIAL_REASON_CANCELLED: 'PARTIAL_REASON_CANCELLED',
  /**
   * The search needed more node records than --max_search_nodes allows.
   */
  PARTIAL_REASON_MEMORY: 'PARTIAL_REASON_MEMORY',
} as const;

export type PartialReason =
  | 'PARTIAL_REASON_UNSPECIFIED'
  | 0
  /**
   * The request's max_expansions ran out.
   */
  | 'PARTIAL_REASON_MAX_EXPANSIONS'
  | 1
  /**
   * The call's deadline (or --max_search_time) ran out.
   */
  | 'PARTIAL_REASON_DEADLINE'
  | 2
  /**
   * The call was cancelled.
   */
  | 'PARTIAL_REASON_CANCELLED'
  | 3
  /**
   * The search needed more node records than --max_search_nodes allows.
   */
  | 'PARTIAL_REASON_MEMORY'
  | 4

export type PartialReason__Output = typeof PartialReason[keyof typeof PartialReason]
