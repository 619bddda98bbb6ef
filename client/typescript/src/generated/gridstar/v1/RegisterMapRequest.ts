// Original file: gridstar/v1/gridstar.proto

import type { DiagonalPolicy as _gridstar_v1_DiagonalPolicy, DiagonalPolicy__Output as _gridstar_v1_DiagonalPolicy__Output } from '../../gridstar/v1/DiagonalPolicy';
import type { StructureRequest as _gridstar_v1_StructureRequest, StructureRequest__Output as _gridstar_v1_StructureRequest__Output } from '../../gridstar/v1/StructureRequest';
import type { TiledMap as _gridstar_v1_TiledMap, TiledMap__Output as _gridstar_v1_TiledMap__Output } from '../../gridstar/v1/TiledMap';
import type { ImageMapping as _gridstar_v1_ImageMapping, ImageMapping__Output as _gridstar_v1_ImageMapping__Output } from '../../gridstar/v1/ImageMapping';
import type { Long } from '@grpc/proto-loader';

export interface RegisterMapRequest {
  /**
   * 1 to 128 characters of [A-Za-z0-9_.-].
   */
  'id'?: (string);
  /**
   * Raw row-major cost bytes: exactly width * height bytes.
   */
  'raw'?: (Buffer | Uint8Array | string);
  /**
   * Moving AI .map text; width and height come from its header.
   */
  'movingai'?: (string);
  /**
   * A P5 or P2 PGM, maxval at most 255: pixel value = cost (0 blocked);
   * or read through `image_mapping` when it is set (maxval up to 65535).
   */
  'pgm'?: (Buffer | Uint8Array | string);
  /**
   * Required with `raw`; with the other encodings 0 (taken from the data) or
   * equal to the data's size.
   */
  'width'?: (number);
  'height'?: (number);
  /**
   * Policy used by searches that leave theirs unspecified.
   */
  'defaultDiagonal'?: (_gridstar_v1_DiagonalPolicy);
  /**
   * Replace different content already registered under `id`.
   */
  'replace'?: (boolean);
  /**
   * Precompute jump distances for ALGORITHM_JPS_PLUS (and AUTO): 8 bytes a
   * cell (one signed byte per direction, lines longer than 127 cells
   * continued), built when the map is registered (MapInfo reports bytes and
   * build time) and rebuilt on every UpdateCells. Kept only while every
   * passable cell costs the same; otherwise the map has no table and
   * JPS_PLUS runs as JPS. Part of the content: the
   * same cells with another `jump_table` are other content.
   */
  'jumpTable'?: (boolean);
  /**
   * Landmarks for the differential heuristic of ALGORITHM_ALT (and AUTO on
   * terrain), 0 to 32; 0 = none. Picked far apart in the largest component
   * and built for `default_diagonal` (8 bytes a cell per landmark; searches
   * under other policies use plain A*). Kept through UpdateCells that only
   * raise costs or block cells (the bounds stay valid), rebuilt on others.
   * Part of the content, like jump_table. The table and the landmarks
   * together may take at most --max_derived_bytes (1 GiB by default):
   * RESOURCE_EXHAUSTED beyond.
   */
  'landmarks'?: (number);
  /**
   * Build the HPA* abstraction for ALGORITHM_HPA under `default_diagonal`
   * (searches under other policies run what AUTO would): 0.1 to 0.35 bytes
   * a cell on most Moving AI maps, 6 to 7 on random512 (many short
   * entrances); 5 s on an 8192 x 8192 map (two cores); counted against
   * --max_derived_bytes as if every two entrances of a cluster were joined
   * (the entrances are counted before anything is built). Repaired inside
   * each UpdateCells for the clusters it reaches: a one-cell change rebuilds
   * at most five clusters. Part of the content, like jump_table.
   */
  'hpa'?: (boolean);
  /**
   * Areas (movement classes): one byte per cell, row-major, each 0 to 63,
   * exactly width * height bytes; empty = every cell in area 0. With
   * `movingai` cells and no `areas`, the text's terrain gives them: `.` `G`
   * ground (0), `S` swamp (1), `W` water (2), `T` trees (3), each passable
   * at cost 1 in its area (`@` `O` blocked); a Tiled map's and a palette
   * image's areas come from them. Given, `areas` replaces the areas the
   * cells' format gives. Queries choose the areas they
   * may enter (PathRequest.areas); a cell outside a query's areas is
   * blocked for it. Part of the content.
   */
  'areas'?: (Buffer | Uint8Array | string);
  /**
   * The areas a query may enter when it names none (PathRequest.areas 0), as
   * a bit mask (bit i: area i). 0 = the default: ground and swamp (0b11)
   * for `movingai` cells, so that every Moving AI map answers exactly as
   * when water and trees were walls; every area otherwise. The map's own
   * searches (MapInfo's passable_cells and components, jump table,
   * landmarks, HPA*) are those of this filter.
   */
  'defaultAreas'?: (number | string | Long);
  /**
   * Agent sizes up to this (1 to 8; 0 = 1) get their maps built at
   * registration under the default areas (MapInfo: agent_maps,
   * agent_map_bytes, agent_map_build_micros) and repaired with every
   * UpdateCells, so that no query of those sizes waits for a build. Larger
   * sizes (up to 8) and other filters are built on first use, kept per map
   * (at most --max_agent_maps) and repaired the same way. Each pinned size
   * is a map of its own (about the terrain's bytes), counted with the
   * derived data against --max_derived_bytes (RESOURCE_EXHAUSTED naming
   * max_agent_size beyond).
   */
  'maxAgentSize'?: (number);
  /**
   * Build the subgoal graph for ALGORITHM_SUBGOAL (and AUTO, which races it
   * with the other engines): uniform-cost maps only (ignored otherwise, as
   * jump_table is), under NO_CORNER_CUTTING. On the 8192 x 8192 world 633k
   * corners, 42.8M edges, 219 MB and ~15 s (counted against
   * --max_derived_bytes as an estimate from the corners, before building);
   * on 512 x 512 maps 1 to 250 ms. An UpdateCells that changes cells
   * answers at once with a version without a graph (SUBGOAL runs JPS_PLUS
   * there, MapInfo.subgoal_graph_current false), and the server rebuilds
   * the graph in the background for the newest version. Part of the
   * content, like jump_table.
   */
  'subgoalGraph'?: (boolean);
  /**
   * Precomputed structures by name, the general form of the four fields
   * above (which stay, each the same as naming its structure here): any
   * structure an engine keeps ("jump_table", "landmarks", "hpa",
   * "subgoal_graph", "contraction_hierarchy"; docs/engines.md lists them),
   * built for
   * `default_diagonal`, each as the field of its name says. At most one
   * request per name, and none for a structure one of the four fields
   * already asks for (INVALID_ARGUMENT naming `structures[i]`); an unknown
   * name is INVALID_ARGUMENT listing the known ones. Part of the content,
   * like jump_table; every structure counts against --max_derived_bytes.
   */
  'structures'?: (_gridstar_v1_StructureRequest)[];
  /**
   * A PNG image (any colour type and bit depth; transparent parts are
   * seen on white), one pixel a cell, read through `image_mapping`;
   * without it light pixels (level 128 and up) are floor of cost 1 and
   * dark ones walls, so that an image drawn the usual way (white floor,
   * black walls) needs no mapping. A malformed file is INVALID_ARGUMENT
   * "png: ..." with libpng's reason.
   */
  'png'?: (Buffer | Uint8Array | string);
  /**
   * A Tiled map (.tmx or .tmj), its external tilesets and the rules that
   * say what its tiles do (TiledMap).
   */
  'tiled'?: (_gridstar_v1_TiledMap | null);
  /**
   * How the pixels of `pgm` and `png` become cells (ImageMapping); only
   * with those two (INVALID_ARGUMENT naming it otherwise). Unset: a PGM's
   * pixel value is its cost, a PNG reads as IMAGE_MODE_THRESHOLD at 128.
   * A palette's areas are the map's areas (unless `areas` is given).
   */
  'imageMapping'?: (_gridstar_v1_ImageMapping | null);
  /**
   * The cells, in one of five encodings.
   */
  'cells'?: "raw"|"movingai"|"pgm"|"png"|"tiled";
}

export interface RegisterMapRequest__Output {
  /**
   * 1 to 128 characters of [A-Za-z0-9_.-].
   */
  'id': (string);
  /**
   * Raw row-major cost bytes: exactly width * height bytes.
   */
  'raw'?: (Buffer);
  /**
   * Moving AI .map text; width and height come from its header.
   */
  'movingai'?: (string);
  /**
   * A P5 or P2 PGM, maxval at most 255: pixel value = cost (0 blocked);
   * or read through `image_mapping` when it is set (maxval up to 65535).
   */
  'pgm'?: (Buffer);
  /**
   * Required with `raw`; with the other encodings 0 (taken from the data) or
   * equal to the data's size.
   */
  'width': (number);
  'height': (number);
  /**
   * Policy used by searches that leave theirs unspecified.
   */
  'defaultDiagonal': (_gridstar_v1_DiagonalPolicy__Output);
  /**
   * Replace different content already registered under `id`.
   */
  'replace': (boolean);
  /**
   * Precompute jump distances for ALGORITHM_JPS_PLUS (and AUTO): 8 bytes a
   * cell (one signed byte per direction, lines longer than 127 cells
   * continued), built when the map is registered (MapInfo reports bytes and
   * build time) and rebuilt on every UpdateCells. Kept only while every
   * passable cell costs the same; otherwise the map has no table and
   * JPS_PLUS runs as JPS. Part of the content: the
   * same cells with another `jump_table` are other content.
   */
  'jumpTable': (boolean);
  /**
   * Landmarks for the differential heuristic of ALGORITHM_ALT (and AUTO on
   * terrain), 0 to 32; 0 = none. Picked far apart in the largest component
   * and built for `default_diagonal` (8 bytes a cell per landmark; searches
   * under other policies use plain A*). Kept through UpdateCells that only
   * raise costs or block cells (the bounds stay valid), rebuilt on others.
   * Part of the content, like jump_table. The table and the landmarks
   * together may take at most --max_derived_bytes (1 GiB by default):
   * RESOURCE_EXHAUSTED beyond.
   */
  'landmarks': (number);
  /**
   * Build the HPA* abstraction for ALGORITHM_HPA under `default_diagonal`
   * (searches under other policies run what AUTO would): 0.1 to 0.35 bytes
   * a cell on most Moving AI maps, 6 to 7 on random512 (many short
   * entrances); 5 s on an 8192 x 8192 map (two cores); counted against
   * --max_derived_bytes as if every two entrances of a cluster were joined
   * (the entrances are counted before anything is built). Repaired inside
   * each UpdateCells for the clusters it reaches: a one-cell change rebuilds
   * at most five clusters. Part of the content, like jump_table.
   */
  'hpa': (boolean);
  /**
   * Areas (movement classes): one byte per cell, row-major, each 0 to 63,
   * exactly width * height bytes; empty = every cell in area 0. With
   * `movingai` cells and no `areas`, the text's terrain gives them: `.` `G`
   * ground (0), `S` swamp (1), `W` water (2), `T` trees (3), each passable
   * at cost 1 in its area (`@` `O` blocked); a Tiled map's and a palette
   * image's areas come from them. Given, `areas` replaces the areas the
   * cells' format gives. Queries choose the areas they
   * may enter (PathRequest.areas); a cell outside a query's areas is
   * blocked for it. Part of the content.
   */
  'areas': (Buffer);
  /**
   * The areas a query may enter when it names none (PathRequest.areas 0), as
   * a bit mask (bit i: area i). 0 = the default: ground and swamp (0b11)
   * for `movingai` cells, so that every Moving AI map answers exactly as
   * when water and trees were walls; every area otherwise. The map's own
   * searches (MapInfo's passable_cells and components, jump table,
   * landmarks, HPA*) are those of this filter.
   */
  'defaultAreas': (string);
  /**
   * Agent sizes up to this (1 to 8; 0 = 1) get their maps built at
   * registration under the default areas (MapInfo: agent_maps,
   * agent_map_bytes, agent_map_build_micros) and repaired with every
   * UpdateCells, so that no query of those sizes waits for a build. Larger
   * sizes (up to 8) and other filters are built on first use, kept per map
   * (at most --max_agent_maps) and repaired the same way. Each pinned size
   * is a map of its own (about the terrain's bytes), counted with the
   * derived data against --max_derived_bytes (RESOURCE_EXHAUSTED naming
   * max_agent_size beyond).
   */
  'maxAgentSize': (number);
  /**
   * Build the subgoal graph for ALGORITHM_SUBGOAL (and AUTO, which races it
   * with the other engines): uniform-cost maps only (ignored otherwise, as
   * jump_table is), under NO_CORNER_CUTTING. On the 8192 x 8192 world 633k
   * corners, 42.8M edges, 219 MB and ~15 s (counted against
   * --max_derived_bytes as an estimate from the corners, before building);
   * on 512 x 512 maps 1 to 250 ms. An UpdateCells that changes cells
   * answers at once with a version without a graph (SUBGOAL runs JPS_PLUS
   * there, MapInfo.subgoal_graph_current false), and the server rebuilds
   * the graph in the background for the newest version. Part of the
   * content, like jump_table.
   */
  'subgoalGraph': (boolean);
  /**
   * Precomputed structures by name, the general form of the four fields
   * above (which stay, each the same as naming its structure here): any
   * structure an engine keeps ("jump_table", "landmarks", "hpa",
   * "subgoal_graph", "contraction_hierarchy"; docs/engines.md lists them),
   * built for
   * `default_diagonal`, each as the field of its name says. At most one
   * request per name, and none for a structure one of the four fields
   * already asks for (INVALID_ARGUMENT naming `structures[i]`); an unknown
   * name is INVALID_ARGUMENT listing the known ones. Part of the content,
   * like jump_table; every structure counts against --max_derived_bytes.
   */
  'structures': (_gridstar_v1_StructureRequest__Output)[];
  /**
   * A PNG image (any colour type and bit depth; transparent parts are
   * seen on white), one pixel a cell, read through `image_mapping`;
   * without it light pixels (level 128 and up) are floor of cost 1 and
   * dark ones walls, so that an image drawn the usual way (white floor,
   * black walls) needs no mapping. A malformed file is INVALID_ARGUMENT
   * "png: ..." with libpng's reason.
   */
  'png'?: (Buffer);
  /**
   * A Tiled map (.tmx or .tmj), its external tilesets and the rules that
   * say what its tiles do (TiledMap).
   */
  'tiled'?: (_gridstar_v1_TiledMap__Output | null);
  /**
   * How the pixels of `pgm` and `png` become cells (ImageMapping); only
   * with those two (INVALID_ARGUMENT naming it otherwise). Unset: a PGM's
   * pixel value is its cost, a PNG reads as IMAGE_MODE_THRESHOLD at 128.
   * A palette's areas are the map's areas (unless `areas` is given).
   */
  'imageMapping': (_gridstar_v1_ImageMapping__Output | null);
  /**
   * The cells, in one of five encodings.
   */
  'cells'?: "raw"|"movingai"|"pgm"|"png"|"tiled";
}
