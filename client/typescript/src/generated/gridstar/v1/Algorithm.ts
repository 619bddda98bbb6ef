// Original file: gridstar/v1/gridstar.proto

export const Algorithm = {
  /**
   * The server's default: ALGORITHM_AUTO.
   */
  ALGORITHM_UNSPECIFIED: 'ALGORITHM_UNSPECIFIED',
  /**
   * Optimal A* (octile or Manhattan heuristic scaled by the cheapest cost).
   */
  ALGORITHM_ASTAR: 'ALGORITHM_ASTAR',
  /**
   * f = g + weight * h: cost at most `weight` times the optimum.
   */
  ALGORITHM_WEIGHTED: 'ALGORITHM_WEIGHTED',
  /**
   * Optimal uniform-cost search.
   */
  ALGORITHM_DIJKSTRA: 'ALGORITHM_DIJKSTRA',
  /**
   * The textbook yardstick (optimal, slow); for comparisons only.
   */
  ALGORITHM_BASELINE: 'ALGORITHM_BASELINE',
  /**
   * Optimal jump point search. Runs on maps whose passable cells all cost the
   * same, under NO_CORNER_CUTTING; any other map or policy gets ASTAR (the
   * response's `algorithm` says which ran).
   */
  ALGORITHM_JPS: 'ALGORITHM_JPS',
  /**
   * Optimal jump point search over the map's precomputed jump distances
   * (RegisterMapRequest.jump_table); JPS when the map has none.
   */
  ALGORITHM_JPS_PLUS: 'ALGORITHM_JPS_PLUS',
  /**
   * The fastest optimal algorithm for the map and query: the engine measured
   * fastest on the map at registration (MapInfo.auto_candidates: SUBGOAL,
   * CONTRACTION, JPS_PLUS, JPS, ALT, BIDIRECTIONAL, ASTAR, whichever apply)
   * where it still applies; else, by rule, JPS_PLUS, else JPS, else ALT, else
   * ASTAR.
   */
  ALGORITHM_AUTO: 'ALGORITHM_AUTO',
  /**
   * Optimal A* with the differential heuristic of the map's landmarks
   * (RegisterMapRequest.landmarks) under the policy they were built for;
   * ASTAR elsewhere (and for goals outside the landmarks' component).
   */
  ALGORITHM_ALT: 'ALGORITHM_ALT',
  /**
   * Optimal bidirectional A*: searches from the start and from the goal at
   * once (balanced potentials), stopping once no unseen path can beat the
   * best meeting. Every map and policy; AUTO never picks it (measured slower
   * than ASTAR on every Moving AI family and on terrain: see docs/performance.md).
   */
  ALGORITHM_BIDIRECTIONAL: 'ALGORITHM_BIDIRECTIONAL',
  /**
   * HPA* (hierarchical A*, Botea, Mueller & Schaeffer 2004) on the map's
   * abstraction (RegisterMapRequest.hpa) for the query's policy: 64 x 64
   * clusters, entrances on their borders, exact costs between them inside
   * each cluster; the path found there by weighted A* (g + 1.05 h) refined
   * into cells. Ends at most 128 cells apart first get an exact A* of at
   * most 4096 expansions. NOT optimal: `cost` is the returned path's true
   * cost, measured (docs/performance.md, "HPA*", before smoothing) 1.1% above optimal on
   * average on the 8192 x 8192 world (worst 4.3%), 0 to 9% on average on
   * the Moving AI maps (worst 39%). Finds a path whenever one exists. `expanded` counts
   * entrances (max_expansions limits them). Without an abstraction for the
   * policy it runs what AUTO would (the response's `algorithm` says which
   * ran). AUTO never picks it.
   */
  ALGORITHM_HPA: 'ALGORITHM_HPA',
  /**
   * Theta* (Nash, Daniel, Koenig & Felner 2007; the lazy form of Nash, Koenig
   * & Tovey 2010): any-angle paths. `waypoints` are the path's corners (cell
   * centres; every segment between two crosses only passable cells, and
   * passes a cell corner only as the policy lets a diagonal: NEVER counts as
   * NO_CORNER_CUTTING there), `smoothed_cost` its true cost (each segment's
   * length inside each cell times that cell's cost); `cells` the cells the
   * segments cross, each a legal move under the policy (a corner passed
   * under NEVER gets a side cell), and `cost` their grid cost. The answer is
   * never costlier than the optimal grid path, nor than ASTAR + smooth (the
   * server also string-pulls A*'s path and answers with the cheaper). Not
   * optimal as an any-angle path; measured per family in docs/performance.md
   * ("Any-angle paths"). `expanded` counts both searches. Every map and
   * policy; AUTO never picks it.
   */
  ALGORITHM_THETA: 'ALGORITHM_THETA',
  /**
   * Optimal search over the map's subgoal graph (Uras, Koenig & Hernandez
   * 2013; RegisterMapRequest.subgoal_graph): the convex corners of walls,
   * joined where an octile straight line reaches one from another; the
   * query's ends joined the same way, A* over the graph with the octile and
   * landmark bounds, the corners' path refined into cells. Uniform-cost
   * maps under NO_CORNER_CUTTING. Fastest on mazes, rooms and random maps
   * (docs/performance.md, "Exact cross-world queries, and subgoal graphs"); slower than JPS_PLUS on open game maps and
   * on the 8192 x 8192 world, where AUTO picks it only when measured
   * faster. Without a graph (not asked for, another policy or terrain, or
   * a version whose graph is being rebuilt in the background after an
   * UpdateCells) it runs what JPS_PLUS would, and the response's
   * `algorithm` says so. `expanded` counts corners.
   */
  ALGORITHM_SUBGOAL: 'ALGORITHM_SUBGOAL',
  /**
   * The contraction tier: optimal search over a contraction hierarchy of the
   * map's subgoal graph (RegisterMapRequest.structures "contraction_hierarchy";
   * Geisberger et al. 2008 over Uras & Koenig's subgoal graphs): the subgoal
   * graph's redundant edges dropped, its corners contracted least important
   * first with shortcuts where no witness path is as short; a query joins
   * its ends to their corners as SUBGOAL does, searches upwards from both
   * sides, and unpacks the shortcuts into corners and cells. Uniform-cost
   * maps under NO_CORNER_CUTTING. Built at registration (counted against
   * --max_derived_bytes; RESOURCE_EXHAUSTED, naming contraction_hierarchy
   * and its counts, for a map whose subgoal graph has more than 2^28 pairs
   * of edges at shared corners: open maps as large as the 8192 x 8192
   * world, 4.9e9, 82 times the most of the shared Moving AI maps, 6e7, a
   * 35 s build), rebuilt whole in the background after an
   * UpdateCells that changes cells; without a hierarchy (not asked for,
   * another policy or terrain, or a version whose hierarchy is being
   * rebuilt) it runs what SUBGOAL would, and the response's `algorithm`
   * says so. A query whose budget (max_expansions, its deadline) runs out
   * before the answer gets SUBGOAL's partial answer instead. `expanded` counts
   * corners settled on both sides. docs/engines.md and docs/performance.md give
   * its figures.
   */
  ALGORITHM_CONTRACTION: 'ALGORITHM_CONTRACTION',
} as const;

export type Algorithm =
  /**
   * The server's default: ALGORITHM_AUTO.
   */
  | 'ALGORITHM_UNSPECIFIED'
  | 0
  /**
   * Optimal A* (octile or Manhattan heuristic scaled by the cheapest cost).
   */
  | 'ALGORITHM_ASTAR'
  | 1
  /**
   * f = g + weight * h: cost at most `weight` times the optimum.
   */
  | 'ALGORITHM_WEIGHTED'
  | 2
  /**
   * Optimal uniform-cost search.
   */
  | 'ALGORITHM_DIJKSTRA'
  | 3
  /**
   * The textbook yardstick (optimal, slow); for comparisons only.
   */
  | 'ALGORITHM_BASELINE'
  | 4
  /**
   * Optimal jump point search. Runs on maps whose passable cells all cost the
   * same, under NO_CORNER_CUTTING; any other map or policy gets ASTAR (the
   * response's `algorithm` says which ran).
   */
  | 'ALGORITHM_JPS'
  | 5
  /**
   * Optimal jump point search over the map's precomputed jump distances
   * (RegisterMapRequest.jump_table); JPS when the map has none.
   */
  | 'ALGORITHM_JPS_PLUS'
  | 6
  /**
   * The fastest optimal algorithm for the map and query: the engine measured
   * fastest on the map at registration (MapInfo.auto_candidates: SUBGOAL,
   * CONTRACTION, JPS_PLUS, JPS, ALT, BIDIRECTIONAL, ASTAR, whichever apply)
   * where it still applies; else, by rule, JPS_PLUS, else JPS, else ALT, else
   * ASTAR.
   */
  | 'ALGORITHM_AUTO'
  | 7
  /**
   * Optimal A* with the differential heuristic of the map's landmarks
   * (RegisterMapRequest.landmarks) under the policy they were built for;
   * ASTAR elsewhere (and for goals outside the landmarks' component).
   */
  | 'ALGORITHM_ALT'
  | 8
  /**
   * Optimal bidirectional A*: searches from the start and from the goal at
   * once (balanced potentials), stopping once no unseen path can beat the
   * best meeting. Every map and policy; AUTO never picks it (measured slower
   * than ASTAR on every Moving AI family and on terrain: see docs/performance.md).
   */
  | 'ALGORITHM_BIDIRECTIONAL'
  | 9
  /**
   * HPA* (hierarchical A*, Botea, Mueller & Schaeffer 2004) on the map's
   * abstraction (RegisterMapRequest.hpa) for the query's policy: 64 x 64
   * clusters, entrances on their borders, exact costs between them inside
   * each cluster; the path found there by weighted A* (g + 1.05 h) refined
   * into cells. Ends at most 128 cells apart first get an exact A* of at
   * most 4096 expansions. NOT optimal: `cost` is the returned path's true
   * cost, measured (docs/performance.md, "HPA*", before smoothing) 1.1% above optimal on
   * average on the 8192 x 8192 world (worst 4.3%), 0 to 9% on average on
   * the Moving AI maps (worst 39%). Finds a path whenever one exists. `expanded` counts
   * entrances (max_expansions limits them). Without an abstraction for the
   * policy it runs what AUTO would (the response's `algorithm` says which
   * ran). AUTO never picks it.
   */
  | 'ALGORITHM_HPA'
  | 10
  /**
   * Theta* (Nash, Daniel, Koenig & Felner 2007; the lazy form of Nash, Koenig
   * & Tovey 2010): any-angle paths. `waypoints` are the path's corners (cell
   * centres; every segment between two crosses only passable cells, and
   * passes a cell corner only as the policy lets a diagonal: NEVER counts as
   * NO_CORNER_CUTTING there), `smoothed_cost` its true cost (each segment's
   * length inside each cell times that cell's cost); `cells` the cells the
   * segments cross, each a legal move under the policy (a corner passed
   * under NEVER gets a side cell), and `cost` their grid cost. The answer is
   * never costlier than the optimal grid path, nor than ASTAR + smooth (the
   * server also string-pulls A*'s path and answers with the cheaper). Not
   * optimal as an any-angle path; measured per family in docs/performance.md
   * ("Any-angle paths"). `expanded` counts both searches. Every map and
   * policy; AUTO never picks it.
   */
  | 'ALGORITHM_THETA'
  | 11
  /**
   * Optimal search over the map's subgoal graph (Uras, Koenig & Hernandez
   * 2013; RegisterMapRequest.subgoal_graph): the convex corners of walls,
   * joined where an octile straight line reaches one from another; the
   * query's ends joined the same way, A* over the graph with the octile and
   * landmark bounds, the corners' path refined into cells. Uniform-cost
   * maps under NO_CORNER_CUTTING. Fastest on mazes, rooms and random maps
   * (docs/performance.md, "Exact cross-world queries, and subgoal graphs"); slower than JPS_PLUS on open game maps and
   * on the 8192 x 8192 world, where AUTO picks it only when measured
   * faster. Without a graph (not asked for, another policy or terrain, or
   * a version whose graph is being rebuilt in the background after an
   * UpdateCells) it runs what JPS_PLUS would, and the response's
   * `algorithm` says so. `expanded` counts corners.
   */
  | 'ALGORITHM_SUBGOAL'
  | 12
  /**
   * The contraction tier: optimal search over a contraction hierarchy of the
   * map's subgoal graph (RegisterMapRequest.structures "contraction_hierarchy";
   * Geisberger et al. 2008 over Uras & Koenig's subgoal graphs): the subgoal
   * graph's redundant edges dropped, its corners contracted least important
   * first with shortcuts where no witness path is as short; a query joins
   * its ends to their corners as SUBGOAL does, searches upwards from both
   * sides, and unpacks the shortcuts into corners and cells. Uniform-cost
   * maps under NO_CORNER_CUTTING. Built at registration (counted against
   * --max_derived_bytes; RESOURCE_EXHAUSTED, naming contraction_hierarchy
   * and its counts, for a map whose subgoal graph has more than 2^28 pairs
   * of edges at shared corners: open maps as large as the 8192 x 8192
   * world, 4.9e9, 82 times the most of the shared Moving AI maps, 6e7, a
   * 35 s build), rebuilt whole in the background after an
   * UpdateCells that changes cells; without a hierarchy (not asked for,
   * another policy or terrain, or a version whose hierarchy is being
   * rebuilt) it runs what SUBGOAL would, and the response's `algorithm`
   * says so. A query whose budget (max_expansions, its deadline) runs out
   * before the answer gets SUBGOAL's partial answer instead. `expanded` counts
   * corners settled on both sides. docs/engines.md and docs/performance.md give
   * its figures.
   */
  | 'ALGORITHM_CONTRACTION'
  | 13

export type Algorithm__Output = typeof Algorithm[keyof typeof Algorithm]
