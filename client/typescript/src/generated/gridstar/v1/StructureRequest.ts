// Original file: gridstar/v1/gridstar.proto


/**
 * One precomputed structure asked for (RegisterMapRequest.structures).
 */
export interface StructureRequest {
  /**
   * Its name, as MapInfo.derived names it.
   */
  'name'?: (string);
  /**
   * How much of it, for a structure with a size: landmarks 1 to 32. 0 = the
   * structure's default (8 landmarks; 1 for a structure without a size,
   * which takes 0 or 1 only).
   */
  'count'?: (number);
}

/**
 * One precomputed structure asked for (RegisterMapRequest.structures).
 */
export interface StructureRequest__Output {
  /**
   * Its name, as MapInfo.derived names it.
   */
  'name': (string);
  /**
   * How much of it, for a structure with a size: landmarks 1 to 32. 0 = the
   * structure's default (8 landmarks; 1 for a structure without a size,
   * which takes 0 or 1 only).
   */
  'count': (number);
}
