// Original file: gridstar/v1/gridstar.proto

export const DiagonalPolicy = {
  /**
   * The map's default policy (set at registration; itself defaulting to
   * NO_CORNER_CUTTING).
   */
  DIAGONAL_POLICY_UNSPECIFIED: 'DIAGONAL_POLICY_UNSPECIFIED',
  /**
   * 4-connected: no diagonal moves.
   */
  DIAGONAL_POLICY_NEVER: 'DIAGONAL_POLICY_NEVER',
  /**
   * A diagonal needs both orthogonal cells it passes passable.
   */
  DIAGONAL_POLICY_NO_CORNER_CUTTING: 'DIAGONAL_POLICY_NO_CORNER_CUTTING',
  /**
   * A diagonal needs at least one of them passable.
   */
  DIAGONAL_POLICY_ALLOW_CORNER_CUTTING: 'DIAGONAL_POLICY_ALLOW_CORNER_CUTTING',
} as const;

export type DiagonalPolicy =
  /**
   * The map's default policy (set at registration; itself defaulting to
   * NO_CORNER_CUTTING).
   */
  | 'DIAGONAL_POLICY_UNSPECIFIED'
  | 0
  /**
   * 4-connected: no diagonal moves.
   */
  | 'DIAGONAL_POLICY_NEVER'
  | 1
  /**
   * A diagonal needs both orthogonal cells it passes passable.
   */
  | 'DIAGONAL_POLICY_NO_CORNER_CUTTING'
  | 2
  /**
   * A diagonal needs at least one of them passable.
   */
  | 'DIAGONAL_POLICY_ALLOW_CORNER_CUTTING'
  | 3

export type DiagonalPolicy__Output = typeof DiagonalPolicy[keyof typeof DiagonalPolicy]
