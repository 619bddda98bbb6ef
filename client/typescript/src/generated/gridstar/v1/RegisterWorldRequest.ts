// Original file: gridstar/v1/gridstar.proto

import type { Link as _gridstar_v1_Link, Link__Output as _gridstar_v1_Link__Output } from '../../gridstar/v1/Link';

export interface RegisterWorldRequest {
  /**
   * 1 to 128 characters of [A-Za-z0-9_.-] (worlds and maps are named
   * apart: a world may share its id with a map).
   */
  'id'?: (string);
  /**
   * The member maps, each registered, each at most once; 1 to
   * --max_world_maps.
   */
  'mapIds'?: (string)[];
  /**
   * At most --max_world_links.
   */
  'links'?: (_gridstar_v1_Link)[];
  'replace'?: (boolean);
}

export interface RegisterWorldRequest__Output {
  /**
   * 1 to 128 characters of [A-Za-z0-9_.-] (worlds and maps are named
   * apart: a world may share its id with a map).
   */
  'id': (string);
  /**
   * The member maps, each registered, each at most once; 1 to
   * --max_world_maps.
   */
  'mapIds': (string)[];
  /**
   * At most --max_world_links.
   */
  'links': (_gridstar_v1_Link__Output)[];
  'replace': (boolean);
}
