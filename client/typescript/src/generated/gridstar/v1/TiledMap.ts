// Original file: gridstar/v1/gridstar.proto

import type { TiledFile as _gridstar_v1_TiledFile, TiledFile__Output as _gridstar_v1_TiledFile__Output } from '../../gridstar/v1/TiledFile';
import type { TiledRule as _gridstar_v1_TiledRule, TiledRule__Output as _gridstar_v1_TiledRule__Output } from '../../gridstar/v1/TiledRule';

/**
 * A Tiled map. Orthogonal, finite maps only; one tile a cell. What a tile
 * does comes from its tileset's tile properties `cost` (int 1-255),
 * `blocked` (bool) and `area` (int 0-63), or from `rules`, which win over
 * them. Layers combine bottom to top (document order, group members in
 * place, hidden layers included, since collision layers are often hidden):
 * each tile layer's non-empty tile marks its cell present and sets the
 * fields its tile names, over the layers below; then each object layer's
 * rectangles, ellipses, polygons and tile objects (rotation included) set
 * the fields they name (their properties, or a rule by their class) on the
 * cells whose centre they cover. A cell no layer put a tile or object on is
 * blocked; otherwise it is blocked when `blocked` is true, else its cost is
 * `cost` (default 1) and its area `area` (default 0). docs/maps.md has the
 * details and examples.
 */
export interface TiledMap {
  /**
   * The .tmx (XML) or .tmj (JSON) file; layer data as CSV, XML <tile>
   * elements or base64, uncompressed, zlib, gzip or zstd. Malformed input is
   * INVALID_ARGUMENT naming the line (XML) or path (JSON) and what is wrong.
   */
  'data'?: (Buffer | Uint8Array | string);
  /**
   * External tilesets (.tsx or .tsj) the map names in a `source`, each
   * under that source exactly as the map writes it; one the map names and
   * this does not give is INVALID_ARGUMENT.
   */
  'tilesets'?: (_gridstar_v1_TiledFile)[];
  /**
   * What tiles and objects do, set here (TiledRule).
   */
  'rules'?: (_gridstar_v1_TiledRule)[];
  /**
   * The tile and object layers (or groups, with their members) to use, by
   * name; empty = all. A name the map has no layer of is INVALID_ARGUMENT.
   */
  'layers'?: (string)[];
}

/**
 * A Tiled map. Orthogonal, finite maps only; one tile a cell. What a tile
 * does comes from its tileset's tile properties `cost` (int 1-255),
 * `blocked` (bool) and `area` (int 0-63), or from `rules`, which win over
 * them. Layers combine bottom to top (document order, group members in
 * place, hidden layers included, since collision layers are often hidden):
 * each tile layer's non-empty tile marks its cell present and sets the
 * fields its tile names, over the layers below; then each object layer's
 * rectangles, ellipses, polygons and tile objects (rotation included) set
 * the fields they name (their properties, or a rule by their class) on the
 * cells whose centre they cover. A cell no layer put a tile or object on is
 * blocked; otherwise it is blocked when `blocked` is true, else its cost is
 * `cost` (default 1) and its area `area` (default 0). docs/maps.md has the
 * details and examples.
 */
export interface TiledMap__Output {
  /**
   * The .tmx (XML) or .tmj (JSON) file; layer data as CSV, XML <tile>
   * elements or base64, uncompressed, zlib, gzip or zstd. Malformed input is
   * INVALID_ARGUMENT naming the line (XML) or path (JSON) and what is wrong.
   */
  'data': (Buffer);
  /**
   * External tilesets (.tsx or .tsj) the map names in a `source`, each
   * under that source exactly as the map writes it; one the map names and
   * this does not give is INVALID_ARGUMENT.
   */
  'tilesets': (_gridstar_v1_TiledFile__Output)[];
  /**
   * What tiles and objects do, set here (TiledRule).
   */
  'rules': (_gridstar_v1_TiledRule__Output)[];
  /**
   * The tile and object layers (or groups, with their members) to use, by
   * name; empty = all. A name the map has no layer of is INVALID_ARGUMENT.
   */
  'layers': (string)[];
}
