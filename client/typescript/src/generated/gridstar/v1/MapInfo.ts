// Original file: gridstar/v1/gridstar.proto

import type { DiagonalPolicy as _gridstar_v1_DiagonalPolicy, DiagonalPolicy__Output as _gridstar_v1_DiagonalPolicy__Output } from '../../gridstar/v1/DiagonalPolicy';
import type { Algorithm as _gridstar_v1_Algorithm, Algorithm__Output as _gridstar_v1_Algorithm__Output } from '../../gridstar/v1/Algorithm';
import type { AutoCandidate as _gridstar_v1_AutoCandidate, AutoCandidate__Output as _gridstar_v1_AutoCandidate__Output } from '../../gridstar/v1/AutoCandidate';
import type { DerivedInfo as _gridstar_v1_DerivedInfo, DerivedInfo__Output as _gridstar_v1_DerivedInfo__Output } from '../../gridstar/v1/DerivedInfo';
import type { Long } from '@grpc/proto-loader';

export interface MapInfo {
  'id'?: (string);
  /**
   * Starts at 1 and grows by one with every change of content.
   */
  'version'?: (number | string | Long);
  'width'?: (number);
  'height'?: (number);
  'passableCells'?: (number | string | Long);
  /**
   * Number of connected components of passable cells.
   */
  'components'?: (number);
  /**
   * Bytes the server holds for this map and its derived data.
   */
  'memoryBytes'?: (number | string | Long);
  'defaultDiagonal'?: (_gridstar_v1_DiagonalPolicy);
  /**
   * Whether jump distances were asked for at registration, and the bytes and
   * build time of the table this version holds (0 when it has none).
   */
  'jumpTable'?: (boolean);
  'jumpTableBytes'?: (number | string | Long);
  'jumpTableBuildMicros'?: (number | string);
  /**
   * Landmarks asked for, bytes they hold, and the time this version spent
   * building them (0 when kept from the version before).
   */
  'landmarks'?: (number);
  'landmarkBytes'?: (number | string | Long);
  'landmarkBuildMicros'?: (number | string);
  /**
   * What ALGORITHM_AUTO runs on this map under its default policy for a
   * goal the landmarks (if any) reach. When the server measured the map
   * (--auto_measure_queries > 0, the default; auto_candidates below): the
   * exact engine that ran the sample fastest, where it still applies (JPS
   * when the table is being repaired, say). Otherwise by rule: JPS_PLUS
   * (uniform costs with a table), JPS (uniform, no table), ALT or ASTAR.
   */
  'autoAlgorithm'?: (_gridstar_v1_Algorithm);
  /**
   * False while this version runs without the landmarks asked for: an
   * update made some cell cheaper, so the old landmark distances were no
   * longer lower bounds, and the server rebuilds them in the background
   * (the same version then reports true, with landmark_build_micros). True
   * otherwise, also when no landmarks were asked for. ALT runs as A* while
   * false.
   */
  'landmarksCurrent'?: (boolean);
  /**
   * False while this version's jump table is being repaired in the
   * background: an update answers before the table's repair (which can walk
   * tens of thousands of diagonal entries on a big map), and the server
   * installs the repaired table in the same version within milliseconds
   * (the same version then reports true). Meanwhile jps+ and auto run
   * online jps there: same paths, found without the table.
   * jump_table_bytes is 0 and auto_algorithm JPS while false. True
   * otherwise, also when no table was asked for.
   */
  'jumpTableCurrent'?: (boolean);
  /**
   * Whether the HPA* abstraction was asked for, its bytes, and the time this
   * version spent building or repairing it.
   */
  'hpa'?: (boolean);
  'hpaBytes'?: (number | string | Long);
  'hpaBuildMicros'?: (number | string);
  /**
   * The map's default areas (RegisterMapRequest.default_areas, resolved),
   * whether it holds areas, and the largest agent size prepared.
   */
  'defaultAreas'?: (number | string | Long);
  'hasAreas'?: (boolean);
  'maxAgentSize'?: (number);
  /**
   * Agent maps this version holds (one per class of agent asked for: size,
   * areas, area costs), their bytes, and the time this version spent
   * building or repairing them. memory_bytes includes them.
   */
  'agentMaps'?: (number);
  'agentMapBytes'?: (number | string | Long);
  'agentMapBuildMicros'?: (number | string);
  /**
   * The measurement behind auto_algorithm, taken at registration (and when
   * a replica loads the map) under default_diagonal and kept by every
   * version after: each exact engine that applies to the map, timed on the
   * same random queries of the map (whole searches, one thread, the faster
   * of two runs; each query first run untimed by the fastest so far); an
   * engine over 3 times that
   * run's time on a query left the race there (dropped, its mean over the
   * queries it finished). Empty when the server does not measure
   * (--auto_measure_queries=0) or the map has fewer than two connected
   * passable cells.
   */
  'autoCandidates'?: (_gridstar_v1_AutoCandidate)[];
  /**
   * Random queries timed, and the wall time the whole measurement took
   * (flow field included), in microseconds.
   */
  'autoMeasureQueries'?: (number);
  'autoMeasureMicros'?: (number | string);
  /**
   * A flow field's measured time per cell it reached (microseconds), which
   * group requests with method AUTO weigh against auto_candidates' time per
   * search: a field when it costs less than a search per unit. 0 when not
   * measured.
   */
  'autoFlowUsPerCell'?: (number | string);
  /**
   * Whether the subgoal graph was asked for, its bytes and build time in
   * this version (0 while it is being rebuilt), and false while the
   * background rebuild after an UpdateCells is pending (then SUBGOAL runs
   * JPS_PLUS; the same version reports true once the graph is installed).
   */
  'subgoalGraph'?: (boolean);
  'subgoalGraphBytes'?: (number | string | Long);
  'subgoalGraphBuildMicros'?: (number | string);
  'subgoalGraphCurrent'?: (boolean);
  /**
   * Every precomputed structure the map was registered to carry, in the
   * order they are built, with what this version holds of it. New clients
   * read this; the per-structure fields above (jump_table_bytes,
   * landmark_build_micros, hpa_bytes, subgoal_graph_current, ...) are
   * deprecated: they stay filled, with the same figures, for existing
   * clients, and a structure added later appears only here.
   */
  'derived'?: (_gridstar_v1_DerivedInfo)[];
}

export interface MapInfo__Output {
  'id': (string);
  /**
   * Starts at 1 and grows by one with every change of content.
   */
  'version': (string);
  'width': (number);
  'height': (number);
  'passableCells': (string);
  /**
   * Number of connected components of passable cells.
   */
  'components': (number);
  /**
   * Bytes the server holds for this map and its derived data.
   */
  'memoryBytes': (string);
  'defaultDiagonal': (_gridstar_v1_DiagonalPolicy__Output);
  /**
   * Whether jump distances were asked for at registration, and the bytes and
   * build time of the table this version holds (0 when it has none).
   */
  'jumpTable': (boolean);
  'jumpTableBytes': (string);
  'jumpTableBuildMicros': (number);
  /**
   * Landmarks asked for, bytes they hold, and the time this version spent
   * building them (0 when kept from the version before).
   */
  'landmarks': (number);
  'landmarkBytes': (string);
  'landmarkBuildMicros': (number);
  /**
   * What ALGORITHM_AUTO runs on this map under its default policy for a
   * goal the landmarks (if any) reach. When the server measured the map
   * (--auto_measure_queries > 0, the default; auto_candidates below): the
   * exact engine that ran the sample fastest, where it still applies (JPS
   * when the table is being repaired, say). Otherwise by rule: JPS_PLUS
   * (uniform costs with a table), JPS (uniform, no table), ALT or ASTAR.
   */
  'autoAlgorithm': (_gridstar_v1_Algorithm__Output);
  /**
   * False while this version runs without the landmarks asked for: an
   * update made some cell cheaper, so the old landmark distances were no
   * longer lower bounds, and the server rebuilds them in the background
   * (the same version then reports true, with landmark_build_micros). True
   * otherwise, also when no landmarks were asked for. ALT runs as A* while
   * false.
   */
  'landmarksCurrent': (boolean);
  /**
   * False while this version's jump table is being repaired in the
   * background: an update answers before the table's repair (which can walk
   * tens of thousands of diagonal entries on a big map), and the server
   * installs the repaired table in the same version within milliseconds
   * (the same version then reports true). Meanwhile jps+ and auto run
   * online jps there: same paths, found without the table.
   * jump_table_bytes is 0 and auto_algorithm JPS while false. True
   * otherwise, also when no table was asked for.
   */
  'jumpTableCurrent': (boolean);
  /**
   * Whether the HPA* abstraction was asked for, its bytes, and the time this
   * version spent building or repairing it.
   */
  'hpa': (boolean);
  'hpaBytes': (string);
  'hpaBuildMicros': (number);
  /**
   * The map's default areas (RegisterMapRequest.default_areas, resolved),
   * whether it holds areas, and the largest agent size prepared.
   */
  'defaultAreas': (string);
  'hasAreas': (boolean);
  'maxAgentSize': (number);
  /**
   * Agent maps this version holds (one per class of agent asked for: size,
   * areas, area costs), their bytes, and the time this version spent
   * building or repairing them. memory_bytes includes them.
   */
  'agentMaps': (number);
  'agentMapBytes': (string);
  'agentMapBuildMicros': (number);
  /**
   * The measurement behind auto_algorithm, taken at registration (and when
   * a replica loads the map) under default_diagonal and kept by every
   * version after: each exact engine that applies to the map, timed on the
   * same random queries of the map (whole searches, one thread, the faster
   * of two runs; each query first run untimed by the fastest so far); an
   * engine over 3 times that
   * run's time on a query left the race there (dropped, its mean over the
   * queries it finished). Empty when the server does not measure
   * (--auto_measure_queries=0) or the map has fewer than two connected
   * passable cells.
   */
  'autoCandidates': (_gridstar_v1_AutoCandidate__Output)[];
  /**
   * Random queries timed, and the wall time the whole measurement took
   * (flow field included), in microseconds.
   */
  'autoMeasureQueries': (number);
  'autoMeasureMicros': (number);
  /**
   * A flow field's measured time per cell it reached (microseconds), which
   * group requests with method AUTO weigh against auto_candidates' time per
   * search: a field when it costs less than a search per unit. 0 when not
   * measured.
   */
  'autoFlowUsPerCell': (number);
  /**
   * Whether the subgoal graph was asked for, its bytes and build time in
   * this version (0 while it is being rebuilt), and false while the
   * background rebuild after an UpdateCells is pending (then SUBGOAL runs
   * JPS_PLUS; the same version reports true once the graph is installed).
   */
  'subgoalGraph': (boolean);
  'subgoalGraphBytes': (string);
  'subgoalGraphBuildMicros': (number);
  'subgoalGraphCurrent': (boolean);
  /**
   * Every precomputed structure the map was registered to carry, in the
   * order they are built, with what this version holds of it. New clients
   * read this; the per-structure fields above (jump_table_bytes,
   * landmark_build_micros, hpa_bytes, subgoal_graph_current, ...) are
   * deprecated: they stay filled, with the same figures, for existing
   * clients, and a structure added later appears only here.
   */
  'derived': (_gridstar_v1_DerivedInfo__Output)[];
}
