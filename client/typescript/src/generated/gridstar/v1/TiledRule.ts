// Original file: gridstar/v1/gridstar.proto


/**
 * What a tile or object does. Select by exactly one of `gid` (a global tile
 * id, flip bits ignored), `tileset` + `tile` (the tileset's name and the
 * tile's local id), or `class_name` (the Tiled class, `type` before 1.9, of
 * tiles and objects). A rule by id wins over one by class, which wins over
 * the tile's properties. At least one of cost, blocked and area; two rules
 * may not select the same (INVALID_ARGUMENT naming `tiled.rules[i]`).
 */
export interface TiledRule {
  'gid'?: (number);
  'tileset'?: (string);
  'tile'?: (number);
  'className'?: (string);
  /**
   * 1 to 255.
   */
  'cost'?: (number);
  'blocked'?: (boolean);
  /**
   * 0 to 63.
   */
  'area'?: (number);
  '_tile'?: "tile";
  '_cost'?: "cost";
  '_blocked'?: "blocked";
  '_area'?: "area";
}

/**
 * What a tile or object does. Select by exactly one of `gid` (a global tile
 * id, flip bits ignored), `tileset` + `tile` (the tileset's name and the
 * tile's local id), or `class_name` (the Tiled class, `type` before 1.9, of
 * tiles and objects). A rule by id wins over one by class, which wins over
 * the tile's properties. At least one of cost, blocked and area; two rules
 * may not select the same (INVALID_ARGUMENT naming `tiled.rules[i]`).
 */
export interface TiledRule__Output {
  'gid': (number);
  'tileset': (string);
  'tile'?: (number);
  'className': (string);
  /**
   * 1 to 255.
   */
  'cost'?: (number);
  'blocked'?: (boolean);
  /**
   * 0 to 63.
   */
  'area'?: (number);
  '_tile'?: "tile";
  '_cost'?: "cost";
  '_blocked'?: "blocked";
  '_area'?: "area";
}
