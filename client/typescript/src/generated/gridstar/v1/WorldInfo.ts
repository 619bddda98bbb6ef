// Original file: gridstar/v1/gridstar.proto

import type { Link as _gridstar_v1_Link, Link__Output as _gridstar_v1_Link__Output } from '../../gridstar/v1/Link';
import type { Long } from '@grpc/proto-loader';

export interface WorldInfo {
  'id'?: (string);
  /**
   * 1 at registration, +1 per UpdateLinks or replacement.
   */
  'version'?: (number | string | Long);
  'mapIds'?: (string)[];
  /**
   * GetWorld, RegisterWorld and UpdateLinks: the links; ListWorlds: none.
   */
  'links'?: (_gridstar_v1_Link)[];
  'linkCount'?: (number);
  'openLinks'?: (number);
  /**
   * Per member map, in map_ids order: the map's version the link-end costs
   * were built from (0: none yet, or a map missing), and whether that is
   * its current version.
   */
  'tableMapVersions'?: (number | string | Long)[];
  'tablesCurrent'?: (boolean)[];
  /**
   * Bytes of the world's own data (links, link-end costs and bounds), and
   * of that per link.
   */
  'memoryBytes'?: (number | string | Long);
  'bytesPerLink'?: (number | string);
}

export interface WorldInfo__Output {
  'id': (string);
  /**
   * 1 at registration, +1 per UpdateLinks or replacement.
   */
  'version': (string);
  'mapIds': (string)[];
  /**
   * GetWorld, RegisterWorld and UpdateLinks: the links; ListWorlds: none.
   */
  'links': (_gridstar_v1_Link__Output)[];
  'linkCount': (number);
  'openLinks': (number);
  /**
   * Per member map, in map_ids order: the map's version the link-end costs
   * were built from (0: none yet, or a map missing), and whether that is
   * its current version.
   */
  'tableMapVersions': (string)[];
  'tablesCurrent': (boolean)[];
  /**
   * Bytes of the world's own data (links, link-end costs and bounds), and
   * of that per link.
   */
  'memoryBytes': (string);
  'bytesPerLink': (number);
}
