// Original file: gridstar/v1/gridstar.proto

import type { LinkUpdate as _gridstar_v1_LinkUpdate, LinkUpdate__Output as _gridstar_v1_LinkUpdate__Output } from '../../gridstar/v1/LinkUpdate';
import type { Long } from '@grpc/proto-loader';

export interface UpdateLinksRequest {
  'id'?: (string);
  /**
   * Applied in order, all or nothing (INVALID_ARGUMENT naming updates[i]).
   */
  'updates'?: (_gridstar_v1_LinkUpdate)[];
  'expectedVersion'?: (number | string | Long);
}

export interface UpdateLinksRequest__Output {
  'id': (string);
  /**
   * Applied in order, all or nothing (INVALID_ARGUMENT naming updates[i]).
   */
  'updates': (_gridstar_v1_LinkUpdate__Output)[];
  'expectedVersion': (string);
}
