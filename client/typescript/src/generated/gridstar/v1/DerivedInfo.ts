// Original file: gridstar/v1/gridstar.proto

import type { Long } from '@grpc/proto-loader';

/**
 * One precomputed structure of a map version (MapInfo.derived).
 */
export interface DerivedInfo {
  /**
   * The structure, named as RegisterMapRequest.structures asks for it (and
   * as the option field of that name): "jump_table", "landmarks", "hpa",
   * "subgoal_graph", "contraction_hierarchy", or "auto_choice" (auto's
   * measurement, --auto_measure_queries).
   */
  'name'?: (string);
  /**
   * Bytes this version holds of it: 0 while it is pending, and where it
   * does not apply to the map (a jump table on a map of mixed costs).
   */
  'bytes'?: (number | string | Long);
  /**
   * Microseconds this version spent building or repairing it; 0 when it was
   * kept from the version before, is pending, or does not apply.
   */
  'buildMicros'?: (number | string);
  /**
   * False while the server builds or repairs it in the background after an
   * update (the version's searches run without it meanwhile, as
   * PathResponse.note says); the same version then reports true. True
   * otherwise.
   */
  'current'?: (boolean);
}

/**
 * One precomputed structure of a map version (MapInfo.derived).
 */
export interface DerivedInfo__Output {
  /**
   * The structure, named as RegisterMapRequest.structures asks for it (and
   * as the option field of that name): "jump_table", "landmarks", "hpa",
   * "subgoal_graph", "contraction_hierarchy", or "auto_choice" (auto's
   * measurement, --auto_measure_queries).
   */
  'name': (string);
  /**
   * Bytes this version holds of it: 0 while it is pending, and where it
   * does not apply to the map (a jump table on a map of mixed costs).
   */
  'bytes': (string);
  /**
   * Microseconds this version spent building or repairing it; 0 when it was
   * kept from the version before, is pending, or does not apply.
   */
  'buildMicros': (number);
  /**
   * False while the server builds or repairs it in the background after an
   * update (the version's searches run without it meanwhile, as
   * PathResponse.note says); the same version then reports true. True
   * otherwise.
   */
  'current': (boolean);
}
