// Original file: gridstar/v1/gridstar.proto

/**
 * Path splicing: one search finds a shared path P from a representative
 * unit's start (the medoid of the starts) to the (representative) goal. Each
 * other unit then searches only from its start to the point of P that looks
 * cheapest to join, follows P, and (with its own goal) leaves P where its goal
 * looks closest. A unit whose join or leave point would be further than
 * max_splice_distance gets its own search instead. Spliced paths are valid
 * but not always optimal; report_overhead measures by how much.
 */
export const GroupMethod = {
  /**
   * A flow field when the goal is shared and the server holds its field in
   * cache, or the group has at least flow_field_min_units units and the
   * algorithm does not resolve to jump point search (where splicing is
   * cheaper); splicing otherwise.
   */
  GROUP_METHOD_AUTO: 'GROUP_METHOD_AUTO',
  GROUP_METHOD_SPLICE: 'GROUP_METHOD_SPLICE',
  /**
   * A flow field whenever the goal is shared (every path optimal).
   */
  GROUP_METHOD_FLOW_FIELD: 'GROUP_METHOD_FLOW_FIELD',
} as const;

/**
 * Path splicing: one search finds a shared path P from a representative
 * unit's start (the medoid of the starts) to the (representative) goal. Each
 * other unit then searches only from its start to the point of P that looks
 * cheapest to join, follows P, and (with its own goal) leaves P where its goal
 * looks closest. A unit whose join or leave point would be further than
 * max_splice_distance gets its own search instead. Spliced paths are valid
 * but not always optimal; report_overhead measures by how much.
 */
export type GroupMethod =
  /**
   * A flow field when the goal is shared and the server holds its field in
   * cache, or the group has at least flow_field_min_units units and the
   * algorithm does not resolve to jump point search (where splicing is
   * cheaper); splicing otherwise.
   */
  | 'GROUP_METHOD_AUTO'
  | 0
  | 'GROUP_METHOD_SPLICE'
  | 1
  /**
   * A flow field whenever the goal is shared (every path optimal).
   */
  | 'GROUP_METHOD_FLOW_FIELD'
  | 2

/**
 * Path splicing: one search finds a shared path P from a representative
 * unit's start (the medoid of the starts) to the (representative) goal. Each
 * other unit then searches only from its start to the point of P that looks
 * cheapest to join, follows P, and (with its own goal) leaves P where its goal
 * looks closest. A unit whose join or leave point would be further than
 * max_splice_distance gets its own search instead. Spliced paths are valid
 * but not always optimal; report_overhead measures by how much.
 */
export type GroupMethod__Output = typeof GroupMethod[keyof typeof GroupMethod]
