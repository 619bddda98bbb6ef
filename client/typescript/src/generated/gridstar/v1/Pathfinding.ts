// Original file: gridstar/v1/gridstar.proto

import type * as grpc from '@grpc/grpc-js'
import type { MethodDefinition } from '@grpc/proto-loader'
import type { DeleteMapRequest as _gridstar_v1_DeleteMapRequest, DeleteMapRequest__Output as _gridstar_v1_DeleteMapRequest__Output } from '../../gridstar/v1/DeleteMapRequest';
import type { DeleteMapResponse as _gridstar_v1_DeleteMapResponse, DeleteMapResponse__Output as _gridstar_v1_DeleteMapResponse__Output } from '../../gridstar/v1/DeleteMapResponse';
import type { DeleteWorldRequest as _gridstar_v1_DeleteWorldRequest, DeleteWorldRequest__Output as _gridstar_v1_DeleteWorldRequest__Output } from '../../gridstar/v1/DeleteWorldRequest';
import type { DeleteWorldResponse as _gridstar_v1_DeleteWorldResponse, DeleteWorldResponse__Output as _gridstar_v1_DeleteWorldResponse__Output } from '../../gridstar/v1/DeleteWorldResponse';
import type { FindPathsRequest as _gridstar_v1_FindPathsRequest, FindPathsRequest__Output as _gridstar_v1_FindPathsRequest__Output } from '../../gridstar/v1/FindPathsRequest';
import type { FindPathsResponse as _gridstar_v1_FindPathsResponse, FindPathsResponse__Output as _gridstar_v1_FindPathsResponse__Output } from '../../gridstar/v1/FindPathsResponse';
import type { FindWorldPathsRequest as _gridstar_v1_FindWorldPathsRequest, FindWorldPathsRequest__Output as _gridstar_v1_FindWorldPathsRequest__Output } from '../../gridstar/v1/FindWorldPathsRequest';
import type { FindWorldPathsResponse as _gridstar_v1_FindWorldPathsResponse, FindWorldPathsResponse__Output as _gridstar_v1_FindWorldPathsResponse__Output } from '../../gridstar/v1/FindWorldPathsResponse';
import type { FlowFieldRequest as _gridstar_v1_FlowFieldRequest, FlowFieldRequest__Output as _gridstar_v1_FlowFieldRequest__Output } from '../../gridstar/v1/FlowFieldRequest';
import type { FlowFieldResponse as _gridstar_v1_FlowFieldResponse, FlowFieldResponse__Output as _gridstar_v1_FlowFieldResponse__Output } from '../../gridstar/v1/FlowFieldResponse';
import type { GetMapRequest as _gridstar_v1_GetMapRequest, GetMapRequest__Output as _gridstar_v1_GetMapRequest__Output } from '../../gridstar/v1/GetMapRequest';
import type { GetMapResponse as _gridstar_v1_GetMapResponse, GetMapResponse__Output as _gridstar_v1_GetMapResponse__Output } from '../../gridstar/v1/GetMapResponse';
import type { GetWorldRequest as _gridstar_v1_GetWorldRequest, GetWorldRequest__Output as _gridstar_v1_GetWorldRequest__Output } from '../../gridstar/v1/GetWorldRequest';
import type { GroupPathsRequest as _gridstar_v1_GroupPathsRequest, GroupPathsRequest__Output as _gridstar_v1_GroupPathsRequest__Output } from '../../gridstar/v1/GroupPathsRequest';
import type { GroupPathsResponse as _gridstar_v1_GroupPathsResponse, GroupPathsResponse__Output as _gridstar_v1_GroupPathsResponse__Output } from '../../gridstar/v1/GroupPathsResponse';
import type { ListMapsRequest as _gridstar_v1_ListMapsRequest, ListMapsRequest__Output as _gridstar_v1_ListMapsRequest__Output } from '../../gridstar/v1/ListMapsRequest';
import type { ListMapsResponse as _gridstar_v1_ListMapsResponse, ListMapsResponse__Output as _gridstar_v1_ListMapsResponse__Output } from '../../gridstar/v1/ListMapsResponse';
import type { ListWorldsRequest as _gridstar_v1_ListWorldsRequest, ListWorldsRequest__Output as _gridstar_v1_ListWorldsRequest__Output } from '../../gridstar/v1/ListWorldsRequest';
import type { ListWorldsResponse as _gridstar_v1_ListWorldsResponse, ListWorldsResponse__Output as _gridstar_v1_ListWorldsResponse__Output } from '../../gridstar/v1/ListWorldsResponse';
import type { MapInfo as _gridstar_v1_MapInfo, MapInfo__Output as _gridstar_v1_MapInfo__Output } from '../../gridstar/v1/MapInfo';
import type { PathRequest as _gridstar_v1_PathRequest, PathRequest__Output as _gridstar_v1_PathRequest__Output } from '../../gridstar/v1/PathRequest';
import type { PathResponse as _gridstar_v1_PathResponse, PathResponse__Output as _gridstar_v1_PathResponse__Output } from '../../gridstar/v1/PathResponse';
import type { RegisterMapRequest as _gridstar_v1_RegisterMapRequest, RegisterMapRequest__Output as _gridstar_v1_RegisterMapRequest__Output } from '../../gridstar/v1/RegisterMapRequest';
import type { RegisterWorldRequest as _gridstar_v1_RegisterWorldRequest, RegisterWorldRequest__Output as _gridstar_v1_RegisterWorldRequest__Output } from '../../gridstar/v1/RegisterWorldRequest';
import type { StreamPathRequest as _gridstar_v1_StreamPathRequest, StreamPathRequest__Output as _gridstar_v1_StreamPathRequest__Output } from '../../gridstar/v1/StreamPathRequest';
import type { StreamPathResponse as _gridstar_v1_StreamPathResponse, StreamPathResponse__Output as _gridstar_v1_StreamPathResponse__Output } from '../../gridstar/v1/StreamPathResponse';
import type { UpdateCellsRequest as _gridstar_v1_UpdateCellsRequest, UpdateCellsRequest__Output as _gridstar_v1_UpdateCellsRequest__Output } from '../../gridstar/v1/UpdateCellsRequest';
import type { UpdateLinksRequest as _gridstar_v1_UpdateLinksRequest, UpdateLinksRequest__Output as _gridstar_v1_UpdateLinksRequest__Output } from '../../gridstar/v1/UpdateLinksRequest';
import type { WatchEvent as _gridstar_v1_WatchEvent, WatchEvent__Output as _gridstar_v1_WatchEvent__Output } from '../../gridstar/v1/WatchEvent';
import type { WatchRequest as _gridstar_v1_WatchRequest, WatchRequest__Output as _gridstar_v1_WatchRequest__Output } from '../../gridstar/v1/WatchRequest';
import type { WorldInfo as _gridstar_v1_WorldInfo, WorldInfo__Output as _gridstar_v1_WorldInfo__Output } from '../../gridstar/v1/WorldInfo';
import type { WorldPathRequest as _gridstar_v1_WorldPathRequest, WorldPathRequest__Output as _gridstar_v1_WorldPathRequest__Output } from '../../gridstar/v1/WorldPathRequest';
import type { WorldPathResponse as _gridstar_v1_WorldPathResponse, WorldPathResponse__Output as _gridstar_v1_WorldPathResponse__Output } from '../../gridstar/v1/WorldPathResponse';

export interface PathfindingClient extends grpc.Client {
  /**
   * The cost to one goal and the first move towards it for every cell that
   * can reach it: one Dijkstra outward from the goal, exact under every
   * policy and on terrain, so any number of units can follow optimal paths
   * without searching. Complete fields are cached per (map, version, goal,
   * policy, max_cost) within --flow_field_cache_bytes and dropped when the
   * map changes; FindGroupPaths uses the same cache. RESOURCE_EXHAUSTED when
   * the answer (5 bytes a cell) would exceed --max_message_bytes.
   */
  ComputeFlowField(argument: _gridstar_v1_FlowFieldRequest, metadata: grpc.Metadata, options: grpc.CallOptions, callback: grpc.requestCallback<_gridstar_v1_FlowFieldResponse__Output>): grpc.ClientUnaryCall;
  ComputeFlowField(argument: _gridstar_v1_FlowFieldRequest, metadata: grpc.Metadata, callback: grpc.requestCallback<_gridstar_v1_FlowFieldResponse__Output>): grpc.ClientUnaryCall;
  ComputeFlowField(argument: _gridstar_v1_FlowFieldRequest, options: grpc.CallOptions, callback: grpc.requestCallback<_gridstar_v1_FlowFieldResponse__Output>): grpc.ClientUnaryCall;
  ComputeFlowField(argument: _gridstar_v1_FlowFieldRequest, callback: grpc.requestCallback<_gridstar_v1_FlowFieldResponse__Output>): grpc.ClientUnaryCall;
  /**
   * The cost to one goal and the first move towards it for every cell that
   * can reach it: one Dijkstra outward from the goal, exact under every
   * policy and on terrain, so any number of units can follow optimal paths
   * without searching. Complete fields are cached per (map, version, goal,
   * policy, max_cost) within --flow_field_cache_bytes and dropped when the
   * map changes; FindGroupPaths uses the same cache. RESOURCE_EXHAUSTED when
   * the answer (5 bytes a cell) would exceed --max_message_bytes.
   */
  computeFlowField(argument: _gridstar_v1_FlowFieldRequest, metadata: grpc.Metadata, options: grpc.CallOptions, callback: grpc.requestCallback<_gridstar_v1_FlowFieldResponse__Output>): grpc.ClientUnaryCall;
  computeFlowField(argument: _gridstar_v1_FlowFieldRequest, metadata: grpc.Metadata, callback: grpc.requestCallback<_gridstar_v1_FlowFieldResponse__Output>): grpc.ClientUnaryCall;
  computeFlowField(argument: _gridstar_v1_FlowFieldRequest, options: grpc.CallOptions, callback: grpc.requestCallback<_gridstar_v1_FlowFieldResponse__Output>): grpc.ClientUnaryCall;
  computeFlowField(argument: _gridstar_v1_FlowFieldRequest, callback: grpc.requestCallback<_gridstar_v1_FlowFieldResponse__Output>): grpc.ClientUnaryCall;
  
  /**
   * Removes a map. Searches in flight finish on the version they hold.
   */
  DeleteMap(argument: _gridstar_v1_DeleteMapRequest, metadata: grpc.Metadata, options: grpc.CallOptions, callback: grpc.requestCallback<_gridstar_v1_DeleteMapResponse__Output>): grpc.ClientUnaryCall;
  DeleteMap(argument: _gridstar_v1_DeleteMapRequest, metadata: grpc.Metadata, callback: grpc.requestCallback<_gridstar_v1_DeleteMapResponse__Output>): grpc.ClientUnaryCall;
  DeleteMap(argument: _gridstar_v1_DeleteMapRequest, options: grpc.CallOptions, callback: grpc.requestCallback<_gridstar_v1_DeleteMapResponse__Output>): grpc.ClientUnaryCall;
  DeleteMap(argument: _gridstar_v1_DeleteMapRequest, callback: grpc.requestCallback<_gridstar_v1_DeleteMapResponse__Output>): grpc.ClientUnaryCall;
  /**
   * Removes a map. Searches in flight finish on the version they hold.
   */
  deleteMap(argument: _gridstar_v1_DeleteMapRequest, metadata: grpc.Metadata, options: grpc.CallOptions, callback: grpc.requestCallback<_gridstar_v1_DeleteMapResponse__Output>): grpc.ClientUnaryCall;
  deleteMap(argument: _gridstar_v1_DeleteMapRequest, metadata: grpc.Metadata, callback: grpc.requestCallback<_gridstar_v1_DeleteMapResponse__Output>): grpc.ClientUnaryCall;
  deleteMap(argument: _gridstar_v1_DeleteMapRequest, options: grpc.CallOptions, callback: grpc.requestCallback<_gridstar_v1_DeleteMapResponse__Output>): grpc.ClientUnaryCall;
  deleteMap(argument: _gridstar_v1_DeleteMapRequest, callback: grpc.requestCallback<_gridstar_v1_DeleteMapResponse__Output>): grpc.ClientUnaryCall;
  
  DeleteWorld(argument: _gridstar_v1_DeleteWorldRequest, metadata: grpc.Metadata, options: grpc.CallOptions, callback: grpc.requestCallback<_gridstar_v1_DeleteWorldResponse__Output>): grpc.ClientUnaryCall;
  DeleteWorld(argument: _gridstar_v1_DeleteWorldRequest, metadata: grpc.Metadata, callback: grpc.requestCallback<_gridstar_v1_DeleteWorldResponse__Output>): grpc.ClientUnaryCall;
  DeleteWorld(argument: _gridstar_v1_DeleteWorldRequest, options: grpc.CallOptions, callback: grpc.requestCallback<_gridstar_v1_DeleteWorldResponse__Output>): grpc.ClientUnaryCall;
  DeleteWorld(argument: _gridstar_v1_DeleteWorldRequest, callback: grpc.requestCallback<_gridstar_v1_DeleteWorldResponse__Output>): grpc.ClientUnaryCall;
  deleteWorld(argument: _gridstar_v1_DeleteWorldRequest, metadata: grpc.Metadata, options: grpc.CallOptions, callback: grpc.requestCallback<_gridstar_v1_DeleteWorldResponse__Output>): grpc.ClientUnaryCall;
  deleteWorld(argument: _gridstar_v1_DeleteWorldRequest, metadata: grpc.Metadata, callback: grpc.requestCallback<_gridstar_v1_DeleteWorldResponse__Output>): grpc.ClientUnaryCall;
  deleteWorld(argument: _gridstar_v1_DeleteWorldRequest, options: grpc.CallOptions, callback: grpc.requestCallback<_gridstar_v1_DeleteWorldResponse__Output>): grpc.ClientUnaryCall;
  deleteWorld(argument: _gridstar_v1_DeleteWorldRequest, callback: grpc.requestCallback<_gridstar_v1_DeleteWorldResponse__Output>): grpc.ClientUnaryCall;
  
  /**
   * Paths for a group of units by path splicing (see GroupPathsRequest).
   */
  FindGroupPaths(argument: _gridstar_v1_GroupPathsRequest, metadata: grpc.Metadata, options: grpc.CallOptions, callback: grpc.requestCallback<_gridstar_v1_GroupPathsResponse__Output>): grpc.ClientUnaryCall;
  FindGroupPaths(argument: _gridstar_v1_GroupPathsRequest, metadata: grpc.Metadata, callback: grpc.requestCallback<_gridstar_v1_GroupPathsResponse__Output>): grpc.ClientUnaryCall;
  FindGroupPaths(argument: _gridstar_v1_GroupPathsRequest, options: grpc.CallOptions, callback: grpc.requestCallback<_gridstar_v1_GroupPathsResponse__Output>): grpc.ClientUnaryCall;
  FindGroupPaths(argument: _gridstar_v1_GroupPathsRequest, callback: grpc.requestCallback<_gridstar_v1_GroupPathsResponse__Output>): grpc.ClientUnaryCall;
  /**
   * Paths for a group of units by path splicing (see GroupPathsRequest).
   */
  findGroupPaths(argument: _gridstar_v1_GroupPathsRequest, metadata: grpc.Metadata, options: grpc.CallOptions, callback: grpc.requestCallback<_gridstar_v1_GroupPathsResponse__Output>): grpc.ClientUnaryCall;
  findGroupPaths(argument: _gridstar_v1_GroupPathsRequest, metadata: grpc.Metadata, callback: grpc.requestCallback<_gridstar_v1_GroupPathsResponse__Output>): grpc.ClientUnaryCall;
  findGroupPaths(argument: _gridstar_v1_GroupPathsRequest, options: grpc.CallOptions, callback: grpc.requestCallback<_gridstar_v1_GroupPathsResponse__Output>): grpc.ClientUnaryCall;
  findGroupPaths(argument: _gridstar_v1_GroupPathsRequest, callback: grpc.requestCallback<_gridstar_v1_GroupPathsResponse__Output>): grpc.ClientUnaryCall;
  
  /**
   * One path.
   */
  FindPath(argument: _gridstar_v1_PathRequest, metadata: grpc.Metadata, options: grpc.CallOptions, callback: grpc.requestCallback<_gridstar_v1_PathResponse__Output>): grpc.ClientUnaryCall;
  FindPath(argument: _gridstar_v1_PathRequest, metadata: grpc.Metadata, callback: grpc.requestCallback<_gridstar_v1_PathResponse__Output>): grpc.ClientUnaryCall;
  FindPath(argument: _gridstar_v1_PathRequest, options: grpc.CallOptions, callback: grpc.requestCallback<_gridstar_v1_PathResponse__Output>): grpc.ClientUnaryCall;
  FindPath(argument: _gridstar_v1_PathRequest, callback: grpc.requestCallback<_gridstar_v1_PathResponse__Output>): grpc.ClientUnaryCall;
  /**
   * One path.
   */
  findPath(argument: _gridstar_v1_PathRequest, metadata: grpc.Metadata, options: grpc.CallOptions, callback: grpc.requestCallback<_gridstar_v1_PathResponse__Output>): grpc.ClientUnaryCall;
  findPath(argument: _gridstar_v1_PathRequest, metadata: grpc.Metadata, callback: grpc.requestCallback<_gridstar_v1_PathResponse__Output>): grpc.ClientUnaryCall;
  findPath(argument: _gridstar_v1_PathRequest, options: grpc.CallOptions, callback: grpc.requestCallback<_gridstar_v1_PathResponse__Output>): grpc.ClientUnaryCall;
  findPath(argument: _gridstar_v1_PathRequest, callback: grpc.requestCallback<_gridstar_v1_PathResponse__Output>): grpc.ClientUnaryCall;
  
  /**
   * Many paths on one map in one call. Every item gets its own status: one
   * bad item fails only itself. RESOURCE_EXHAUSTED for the whole call when it
   * has more than --max_batch items.
   */
  FindPaths(argument: _gridstar_v1_FindPathsRequest, metadata: grpc.Metadata, options: grpc.CallOptions, callback: grpc.requestCallback<_gridstar_v1_FindPathsResponse__Output>): grpc.ClientUnaryCall;
  FindPaths(argument: _gridstar_v1_FindPathsRequest, metadata: grpc.Metadata, callback: grpc.requestCallback<_gridstar_v1_FindPathsResponse__Output>): grpc.ClientUnaryCall;
  FindPaths(argument: _gridstar_v1_FindPathsRequest, options: grpc.CallOptions, callback: grpc.requestCallback<_gridstar_v1_FindPathsResponse__Output>): grpc.ClientUnaryCall;
  FindPaths(argument: _gridstar_v1_FindPathsRequest, callback: grpc.requestCallback<_gridstar_v1_FindPathsResponse__Output>): grpc.ClientUnaryCall;
  /**
   * Many paths on one map in one call. Every item gets its own status: one
   * bad item fails only itself. RESOURCE_EXHAUSTED for the whole call when it
   * has more than --max_batch items.
   */
  findPaths(argument: _gridstar_v1_FindPathsRequest, metadata: grpc.Metadata, options: grpc.CallOptions, callback: grpc.requestCallback<_gridstar_v1_FindPathsResponse__Output>): grpc.ClientUnaryCall;
  findPaths(argument: _gridstar_v1_FindPathsRequest, metadata: grpc.Metadata, callback: grpc.requestCallback<_gridstar_v1_FindPathsResponse__Output>): grpc.ClientUnaryCall;
  findPaths(argument: _gridstar_v1_FindPathsRequest, options: grpc.CallOptions, callback: grpc.requestCallback<_gridstar_v1_FindPathsResponse__Output>): grpc.ClientUnaryCall;
  findPaths(argument: _gridstar_v1_FindPathsRequest, callback: grpc.requestCallback<_gridstar_v1_FindPathsResponse__Output>): grpc.ClientUnaryCall;
  
  /**
   * A stream of path requests (and world path requests:
   * StreamPathRequest.world_request); answers may come back out of order,
   * each tagged with the request's `request_id`.
   */
  FindPathsStream(metadata: grpc.Metadata, options?: grpc.CallOptions): grpc.ClientDuplexStream<_gridstar_v1_StreamPathRequest, _gridstar_v1_StreamPathResponse__Output>;
  FindPathsStream(options?: grpc.CallOptions): grpc.ClientDuplexStream<_gridstar_v1_StreamPathRequest, _gridstar_v1_StreamPathResponse__Output>;
  /**
   * A stream of path requests (and world path requests:
   * StreamPathRequest.world_request); answers may come back out of order,
   * each tagged with the request's `request_id`.
   */
  findPathsStream(metadata: grpc.Metadata, options?: grpc.CallOptions): grpc.ClientDuplexStream<_gridstar_v1_StreamPathRequest, _gridstar_v1_StreamPathResponse__Output>;
  findPathsStream(options?: grpc.CallOptions): grpc.ClientDuplexStream<_gridstar_v1_StreamPathRequest, _gridstar_v1_StreamPathResponse__Output>;
  
  /**
   * The least-cost path across a world, from a cell of one of its maps to
   * a cell of the same or another: its legs and the links taken.
   */
  FindWorldPath(argument: _gridstar_v1_WorldPathRequest, metadata: grpc.Metadata, options: grpc.CallOptions, callback: grpc.requestCallback<_gridstar_v1_WorldPathResponse__Output>): grpc.ClientUnaryCall;
  FindWorldPath(argument: _gridstar_v1_WorldPathRequest, metadata: grpc.Metadata, callback: grpc.requestCallback<_gridstar_v1_WorldPathResponse__Output>): grpc.ClientUnaryCall;
  FindWorldPath(argument: _gridstar_v1_WorldPathRequest, options: grpc.CallOptions, callback: grpc.requestCallback<_gridstar_v1_WorldPathResponse__Output>): grpc.ClientUnaryCall;
  FindWorldPath(argument: _gridstar_v1_WorldPathRequest, callback: grpc.requestCallback<_gridstar_v1_WorldPathResponse__Output>): grpc.ClientUnaryCall;
  /**
   * The least-cost path across a world, from a cell of one of its maps to
   * a cell of the same or another: its legs and the links taken.
   */
  findWorldPath(argument: _gridstar_v1_WorldPathRequest, metadata: grpc.Metadata, options: grpc.CallOptions, callback: grpc.requestCallback<_gridstar_v1_WorldPathResponse__Output>): grpc.ClientUnaryCall;
  findWorldPath(argument: _gridstar_v1_WorldPathRequest, metadata: grpc.Metadata, callback: grpc.requestCallback<_gridstar_v1_WorldPathResponse__Output>): grpc.ClientUnaryCall;
  findWorldPath(argument: _gridstar_v1_WorldPathRequest, options: grpc.CallOptions, callback: grpc.requestCallback<_gridstar_v1_WorldPathResponse__Output>): grpc.ClientUnaryCall;
  findWorldPath(argument: _gridstar_v1_WorldPathRequest, callback: grpc.requestCallback<_gridstar_v1_WorldPathResponse__Output>): grpc.ClientUnaryCall;
  
  /**
   * Many world paths in one call, each item with its own status, as
   * FindPaths.
   */
  FindWorldPaths(argument: _gridstar_v1_FindWorldPathsRequest, metadata: grpc.Metadata, options: grpc.CallOptions, callback: grpc.requestCallback<_gridstar_v1_FindWorldPathsResponse__Output>): grpc.ClientUnaryCall;
  FindWorldPaths(argument: _gridstar_v1_FindWorldPathsRequest, metadata: grpc.Metadata, callback: grpc.requestCallback<_gridstar_v1_FindWorldPathsResponse__Output>): grpc.ClientUnaryCall;
  FindWorldPaths(argument: _gridstar_v1_FindWorldPathsRequest, options: grpc.CallOptions, callback: grpc.requestCallback<_gridstar_v1_FindWorldPathsResponse__Output>): grpc.ClientUnaryCall;
  FindWorldPaths(argument: _gridstar_v1_FindWorldPathsRequest, callback: grpc.requestCallback<_gridstar_v1_FindWorldPathsResponse__Output>): grpc.ClientUnaryCall;
  /**
   * Many world paths in one call, each item with its own status, as
   * FindPaths.
   */
  findWorldPaths(argument: _gridstar_v1_FindWorldPathsRequest, metadata: grpc.Metadata, options: grpc.CallOptions, callback: grpc.requestCallback<_gridstar_v1_FindWorldPathsResponse__Output>): grpc.ClientUnaryCall;
  findWorldPaths(argument: _gridstar_v1_FindWorldPathsRequest, metadata: grpc.Metadata, callback: grpc.requestCallback<_gridstar_v1_FindWorldPathsResponse__Output>): grpc.ClientUnaryCall;
  findWorldPaths(argument: _gridstar_v1_FindWorldPathsRequest, options: grpc.CallOptions, callback: grpc.requestCallback<_gridstar_v1_FindWorldPathsResponse__Output>): grpc.ClientUnaryCall;
  findWorldPaths(argument: _gridstar_v1_FindWorldPathsRequest, callback: grpc.requestCallback<_gridstar_v1_FindWorldPathsResponse__Output>): grpc.ClientUnaryCall;
  
  /**
   * Info about one map, optionally with its cells.
   */
  GetMap(argument: _gridstar_v1_GetMapRequest, metadata: grpc.Metadata, options: grpc.CallOptions, callback: grpc.requestCallback<_gridstar_v1_GetMapResponse__Output>): grpc.ClientUnaryCall;
  GetMap(argument: _gridstar_v1_GetMapRequest, metadata: grpc.Metadata, callback: grpc.requestCallback<_gridstar_v1_GetMapResponse__Output>): grpc.ClientUnaryCall;
  GetMap(argument: _gridstar_v1_GetMapRequest, options: grpc.CallOptions, callback: grpc.requestCallback<_gridstar_v1_GetMapResponse__Output>): grpc.ClientUnaryCall;
  GetMap(argument: _gridstar_v1_GetMapRequest, callback: grpc.requestCallback<_gridstar_v1_GetMapResponse__Output>): grpc.ClientUnaryCall;
  /**
   * Info about one map, optionally with its cells.
   */
  getMap(argument: _gridstar_v1_GetMapRequest, metadata: grpc.Metadata, options: grpc.CallOptions, callback: grpc.requestCallback<_gridstar_v1_GetMapResponse__Output>): grpc.ClientUnaryCall;
  getMap(argument: _gridstar_v1_GetMapRequest, metadata: grpc.Metadata, callback: grpc.requestCallback<_gridstar_v1_GetMapResponse__Output>): grpc.ClientUnaryCall;
  getMap(argument: _gridstar_v1_GetMapRequest, options: grpc.CallOptions, callback: grpc.requestCallback<_gridstar_v1_GetMapResponse__Output>): grpc.ClientUnaryCall;
  getMap(argument: _gridstar_v1_GetMapRequest, callback: grpc.requestCallback<_gridstar_v1_GetMapResponse__Output>): grpc.ClientUnaryCall;
  
  /**
   * One world with its links; every world (no links), ordered by id; and
   * removing one (its maps stay).
   */
  GetWorld(argument: _gridstar_v1_GetWorldRequest, metadata: grpc.Metadata, options: grpc.CallOptions, callback: grpc.requestCallback<_gridstar_v1_WorldInfo__Output>): grpc.ClientUnaryCall;
  GetWorld(argument: _gridstar_v1_GetWorldRequest, metadata: grpc.Metadata, callback: grpc.requestCallback<_gridstar_v1_WorldInfo__Output>): grpc.ClientUnaryCall;
  GetWorld(argument: _gridstar_v1_GetWorldRequest, options: grpc.CallOptions, callback: grpc.requestCallback<_gridstar_v1_WorldInfo__Output>): grpc.ClientUnaryCall;
  GetWorld(argument: _gridstar_v1_GetWorldRequest, callback: grpc.requestCallback<_gridstar_v1_WorldInfo__Output>): grpc.ClientUnaryCall;
  /**
   * One world with its links; every world (no links), ordered by id; and
   * removing one (its maps stay).
   */
  getWorld(argument: _gridstar_v1_GetWorldRequest, metadata: grpc.Metadata, options: grpc.CallOptions, callback: grpc.requestCallback<_gridstar_v1_WorldInfo__Output>): grpc.ClientUnaryCall;
  getWorld(argument: _gridstar_v1_GetWorldRequest, metadata: grpc.Metadata, callback: grpc.requestCallback<_gridstar_v1_WorldInfo__Output>): grpc.ClientUnaryCall;
  getWorld(argument: _gridstar_v1_GetWorldRequest, options: grpc.CallOptions, callback: grpc.requestCallback<_gridstar_v1_WorldInfo__Output>): grpc.ClientUnaryCall;
  getWorld(argument: _gridstar_v1_GetWorldRequest, callback: grpc.requestCallback<_gridstar_v1_WorldInfo__Output>): grpc.ClientUnaryCall;
  
  /**
   * Every registered map's info (no cells), ordered by id. With a shared
   * store (--store), maps stored but not loaded on the replica answering are
   * listed with their id and version only (every other field 0 or empty);
   * GetMap or any call naming one loads it there.
   */
  ListMaps(argument: _gridstar_v1_ListMapsRequest, metadata: grpc.Metadata, options: grpc.CallOptions, callback: grpc.requestCallback<_gridstar_v1_ListMapsResponse__Output>): grpc.ClientUnaryCall;
  ListMaps(argument: _gridstar_v1_ListMapsRequest, metadata: grpc.Metadata, callback: grpc.requestCallback<_gridstar_v1_ListMapsResponse__Output>): grpc.ClientUnaryCall;
  ListMaps(argument: _gridstar_v1_ListMapsRequest, options: grpc.CallOptions, callback: grpc.requestCallback<_gridstar_v1_ListMapsResponse__Output>): grpc.ClientUnaryCall;
  ListMaps(argument: _gridstar_v1_ListMapsRequest, callback: grpc.requestCallback<_gridstar_v1_ListMapsResponse__Output>): grpc.ClientUnaryCall;
  /**
   * Every registered map's info (no cells), ordered by id. With a shared
   * store (--store), maps stored but not loaded on the replica answering are
   * listed with their id and version only (every other field 0 or empty);
   * GetMap or any call naming one loads it there.
   */
  listMaps(argument: _gridstar_v1_ListMapsRequest, metadata: grpc.Metadata, options: grpc.CallOptions, callback: grpc.requestCallback<_gridstar_v1_ListMapsResponse__Output>): grpc.ClientUnaryCall;
  listMaps(argument: _gridstar_v1_ListMapsRequest, metadata: grpc.Metadata, callback: grpc.requestCallback<_gridstar_v1_ListMapsResponse__Output>): grpc.ClientUnaryCall;
  listMaps(argument: _gridstar_v1_ListMapsRequest, options: grpc.CallOptions, callback: grpc.requestCallback<_gridstar_v1_ListMapsResponse__Output>): grpc.ClientUnaryCall;
  listMaps(argument: _gridstar_v1_ListMapsRequest, callback: grpc.requestCallback<_gridstar_v1_ListMapsResponse__Output>): grpc.ClientUnaryCall;
  
  ListWorlds(argument: _gridstar_v1_ListWorldsRequest, metadata: grpc.Metadata, options: grpc.CallOptions, callback: grpc.requestCallback<_gridstar_v1_ListWorldsResponse__Output>): grpc.ClientUnaryCall;
  ListWorlds(argument: _gridstar_v1_ListWorldsRequest, metadata: grpc.Metadata, callback: grpc.requestCallback<_gridstar_v1_ListWorldsResponse__Output>): grpc.ClientUnaryCall;
  ListWorlds(argument: _gridstar_v1_ListWorldsRequest, options: grpc.CallOptions, callback: grpc.requestCallback<_gridstar_v1_ListWorldsResponse__Output>): grpc.ClientUnaryCall;
  ListWorlds(argument: _gridstar_v1_ListWorldsRequest, callback: grpc.requestCallback<_gridstar_v1_ListWorldsResponse__Output>): grpc.ClientUnaryCall;
  listWorlds(argument: _gridstar_v1_ListWorldsRequest, metadata: grpc.Metadata, options: grpc.CallOptions, callback: grpc.requestCallback<_gridstar_v1_ListWorldsResponse__Output>): grpc.ClientUnaryCall;
  listWorlds(argument: _gridstar_v1_ListWorldsRequest, metadata: grpc.Metadata, callback: grpc.requestCallback<_gridstar_v1_ListWorldsResponse__Output>): grpc.ClientUnaryCall;
  listWorlds(argument: _gridstar_v1_ListWorldsRequest, options: grpc.CallOptions, callback: grpc.requestCallback<_gridstar_v1_ListWorldsResponse__Output>): grpc.ClientUnaryCall;
  listWorlds(argument: _gridstar_v1_ListWorldsRequest, callback: grpc.requestCallback<_gridstar_v1_ListWorldsResponse__Output>): grpc.ClientUnaryCall;
  
  /**
   * Registers a map under an id. Registering identical content under the same
   * id again is a no-op that returns the same version; different content
   * under a taken id is ALREADY_EXISTS unless `replace` is set.
   */
  RegisterMap(argument: _gridstar_v1_RegisterMapRequest, metadata: grpc.Metadata, options: grpc.CallOptions, callback: grpc.requestCallback<_gridstar_v1_MapInfo__Output>): grpc.ClientUnaryCall;
  RegisterMap(argument: _gridstar_v1_RegisterMapRequest, metadata: grpc.Metadata, callback: grpc.requestCallback<_gridstar_v1_MapInfo__Output>): grpc.ClientUnaryCall;
  RegisterMap(argument: _gridstar_v1_RegisterMapRequest, options: grpc.CallOptions, callback: grpc.requestCallback<_gridstar_v1_MapInfo__Output>): grpc.ClientUnaryCall;
  RegisterMap(argument: _gridstar_v1_RegisterMapRequest, callback: grpc.requestCallback<_gridstar_v1_MapInfo__Output>): grpc.ClientUnaryCall;
  /**
   * Registers a map under an id. Registering identical content under the same
   * id again is a no-op that returns the same version; different content
   * under a taken id is ALREADY_EXISTS unless `replace` is set.
   */
  registerMap(argument: _gridstar_v1_RegisterMapRequest, metadata: grpc.Metadata, options: grpc.CallOptions, callback: grpc.requestCallback<_gridstar_v1_MapInfo__Output>): grpc.ClientUnaryCall;
  registerMap(argument: _gridstar_v1_RegisterMapRequest, metadata: grpc.Metadata, callback: grpc.requestCallback<_gridstar_v1_MapInfo__Output>): grpc.ClientUnaryCall;
  registerMap(argument: _gridstar_v1_RegisterMapRequest, options: grpc.CallOptions, callback: grpc.requestCallback<_gridstar_v1_MapInfo__Output>): grpc.ClientUnaryCall;
  registerMap(argument: _gridstar_v1_RegisterMapRequest, callback: grpc.requestCallback<_gridstar_v1_MapInfo__Output>): grpc.ClientUnaryCall;
  
  /**
   * Worlds of linked maps (see "Worlds" below). Registers a world: maps by
   * id and the links between them. Identical content under the same id is
   * a no-op answering the same version; other content under a taken id is
   * ALREADY_EXISTS unless `replace`. The maps must be registered.
   */
  RegisterWorld(argument: _gridstar_v1_RegisterWorldRequest, metadata: grpc.Metadata, options: grpc.CallOptions, callback: grpc.requestCallback<_gridstar_v1_WorldInfo__Output>): grpc.ClientUnaryCall;
  RegisterWorld(argument: _gridstar_v1_RegisterWorldRequest, metadata: grpc.Metadata, callback: grpc.requestCallback<_gridstar_v1_WorldInfo__Output>): grpc.ClientUnaryCall;
  RegisterWorld(argument: _gridstar_v1_RegisterWorldRequest, options: grpc.CallOptions, callback: grpc.requestCallback<_gridstar_v1_WorldInfo__Output>): grpc.ClientUnaryCall;
  RegisterWorld(argument: _gridstar_v1_RegisterWorldRequest, callback: grpc.requestCallback<_gridstar_v1_WorldInfo__Output>): grpc.ClientUnaryCall;
  /**
   * Worlds of linked maps (see "Worlds" below). Registers a world: maps by
   * id and the links between them. Identical content under the same id is
   * a no-op answering the same version; other content under a taken id is
   * ALREADY_EXISTS unless `replace`. The maps must be registered.
   */
  registerWorld(argument: _gridstar_v1_RegisterWorldRequest, metadata: grpc.Metadata, options: grpc.CallOptions, callback: grpc.requestCallback<_gridstar_v1_WorldInfo__Output>): grpc.ClientUnaryCall;
  registerWorld(argument: _gridstar_v1_RegisterWorldRequest, metadata: grpc.Metadata, callback: grpc.requestCallback<_gridstar_v1_WorldInfo__Output>): grpc.ClientUnaryCall;
  registerWorld(argument: _gridstar_v1_RegisterWorldRequest, options: grpc.CallOptions, callback: grpc.requestCallback<_gridstar_v1_WorldInfo__Output>): grpc.ClientUnaryCall;
  registerWorld(argument: _gridstar_v1_RegisterWorldRequest, callback: grpc.requestCallback<_gridstar_v1_WorldInfo__Output>): grpc.ClientUnaryCall;
  
  /**
   * Changes the costs of cells and/or filled rectangles atomically: a search
   * in flight finishes on the version it started with; every later search
   * sees the new version. ABORTED when `expected_version` is set and the map
   * is at another version (or, with a shared store, when another replica
   * wrote the version this update was made from): read the map again and
   * retry.
   */
  UpdateCells(argument: _gridstar_v1_UpdateCellsRequest, metadata: grpc.Metadata, options: grpc.CallOptions, callback: grpc.requestCallback<_gridstar_v1_MapInfo__Output>): grpc.ClientUnaryCall;
  UpdateCells(argument: _gridstar_v1_UpdateCellsRequest, metadata: grpc.Metadata, callback: grpc.requestCallback<_gridstar_v1_MapInfo__Output>): grpc.ClientUnaryCall;
  UpdateCells(argument: _gridstar_v1_UpdateCellsRequest, options: grpc.CallOptions, callback: grpc.requestCallback<_gridstar_v1_MapInfo__Output>): grpc.ClientUnaryCall;
  UpdateCells(argument: _gridstar_v1_UpdateCellsRequest, callback: grpc.requestCallback<_gridstar_v1_MapInfo__Output>): grpc.ClientUnaryCall;
  /**
   * Changes the costs of cells and/or filled rectangles atomically: a search
   * in flight finishes on the version it started with; every later search
   * sees the new version. ABORTED when `expected_version` is set and the map
   * is at another version (or, with a shared store, when another replica
   * wrote the version this update was made from): read the map again and
   * retry.
   */
  updateCells(argument: _gridstar_v1_UpdateCellsRequest, metadata: grpc.Metadata, options: grpc.CallOptions, callback: grpc.requestCallback<_gridstar_v1_MapInfo__Output>): grpc.ClientUnaryCall;
  updateCells(argument: _gridstar_v1_UpdateCellsRequest, metadata: grpc.Metadata, callback: grpc.requestCallback<_gridstar_v1_MapInfo__Output>): grpc.ClientUnaryCall;
  updateCells(argument: _gridstar_v1_UpdateCellsRequest, options: grpc.CallOptions, callback: grpc.requestCallback<_gridstar_v1_MapInfo__Output>): grpc.ClientUnaryCall;
  updateCells(argument: _gridstar_v1_UpdateCellsRequest, callback: grpc.requestCallback<_gridstar_v1_MapInfo__Output>): grpc.ClientUnaryCall;
  
  /**
   * Opens, closes, re-costs, adds and removes links as one new version of
   * the world: a search in flight finishes on the version it started with.
   * ABORTED when expected_version is set and the world is at another.
   */
  UpdateLinks(argument: _gridstar_v1_UpdateLinksRequest, metadata: grpc.Metadata, options: grpc.CallOptions, callback: grpc.requestCallback<_gridstar_v1_WorldInfo__Output>): grpc.ClientUnaryCall;
  UpdateLinks(argument: _gridstar_v1_UpdateLinksRequest, metadata: grpc.Metadata, callback: grpc.requestCallback<_gridstar_v1_WorldInfo__Output>): grpc.ClientUnaryCall;
  UpdateLinks(argument: _gridstar_v1_UpdateLinksRequest, options: grpc.CallOptions, callback: grpc.requestCallback<_gridstar_v1_WorldInfo__Output>): grpc.ClientUnaryCall;
  UpdateLinks(argument: _gridstar_v1_UpdateLinksRequest, callback: grpc.requestCallback<_gridstar_v1_WorldInfo__Output>): grpc.ClientUnaryCall;
  /**
   * Opens, closes, re-costs, adds and removes links as one new version of
   * the world: a search in flight finishes on the version it started with.
   * ABORTED when expected_version is set and the world is at another.
   */
  updateLinks(argument: _gridstar_v1_UpdateLinksRequest, metadata: grpc.Metadata, options: grpc.CallOptions, callback: grpc.requestCallback<_gridstar_v1_WorldInfo__Output>): grpc.ClientUnaryCall;
  updateLinks(argument: _gridstar_v1_UpdateLinksRequest, metadata: grpc.Metadata, callback: grpc.requestCallback<_gridstar_v1_WorldInfo__Output>): grpc.ClientUnaryCall;
  updateLinks(argument: _gridstar_v1_UpdateLinksRequest, options: grpc.CallOptions, callback: grpc.requestCallback<_gridstar_v1_WorldInfo__Output>): grpc.ClientUnaryCall;
  updateLinks(argument: _gridstar_v1_UpdateLinksRequest, callback: grpc.requestCallback<_gridstar_v1_WorldInfo__Output>): grpc.ClientUnaryCall;
  
  /**
   * Watched agents (units that walk while the world changes). The client
   * adds, moves, retargets and removes agents; the server answers each
   * request with one event, and pushes a new path (an event with
   * request_id 0) whenever a change of the map makes an agent's remaining
   * path illegal, or, when the agent asked, leaves a path cheaper than it
   * by more than the fraction the agent gave. Only agents whose remaining
   * path crosses a changed cell are checked and replanned (an index from
   * 32 x 32 tiles of cells to the agents whose paths pass them). See
   * WatchRequest and WatchEvent. The stream ends when the client closes its
   * side (its agents are dropped and their searches cancelled; events
   * already queued are still written),
   * or with RESOURCE_EXHAUSTED when the client reads too slowly: more than
   * --watch_max_pending events waiting to be written (pushes for one agent
   * replace each other while unwritten, so only a reader that falls far
   * behind is closed). The server stops reading while --max_stream_inflight
   * requests of the stream await their answers, which paces a client that
   * adds agents faster than they are searched. An agent may also walk a
   * world of linked maps (WatchRequest.world_path): changes of its member
   * maps and of the world's links replan it the same way.
   */
  WatchPaths(metadata: grpc.Metadata, options?: grpc.CallOptions): grpc.ClientDuplexStream<_gridstar_v1_WatchRequest, _gridstar_v1_WatchEvent__Output>;
  WatchPaths(options?: grpc.CallOptions): grpc.ClientDuplexStream<_gridstar_v1_WatchRequest, _gridstar_v1_WatchEvent__Output>;
  /**
   * Watched agents (units that walk while the world changes). The client
   * adds, moves, retargets and removes agents; the server answers each
   * request with one event, and pushes a new path (an event with
   * request_id 0) whenever a change of the map makes an agent's remaining
   * path illegal, or, when the agent asked, leaves a path cheaper than it
   * by more than the fraction the agent gave. Only agents whose remaining
   * path crosses a changed cell are checked and replanned (an index from
   * 32 x 32 tiles of cells to the agents whose paths pass them). See
   * WatchRequest and WatchEvent. The stream ends when the client closes its
   * side (its agents are dropped and their searches cancelled; events
   * already queued are still written),
   * or with RESOURCE_EXHAUSTED when the client reads too slowly: more than
   * --watch_max_pending events waiting to be written (pushes for one agent
   * replace each other while unwritten, so only a reader that falls far
   * behind is closed). The server stops reading while --max_stream_inflight
   * requests of the stream await their answers, which paces a client that
   * adds agents faster than they are searched. An agent may also walk a
   * world of linked maps (WatchRequest.world_path): changes of its member
   * maps and of the world's links replan it the same way.
   */
  watchPaths(metadata: grpc.Metadata, options?: grpc.CallOptions): grpc.ClientDuplexStream<_gridstar_v1_WatchRequest, _gridstar_v1_WatchEvent__Output>;
  watchPaths(options?: grpc.CallOptions): grpc.ClientDuplexStream<_gridstar_v1_WatchRequest, _gridstar_v1_WatchEvent__Output>;
  
}

export interface PathfindingHandlers extends grpc.UntypedServiceImplementation {
  /**
   * The cost to one goal and the first move towards it for every cell that
   * can reach it: one Dijkstra outward from the goal, exact under every
   * policy and on terrain, so any number of units can follow optimal paths
   * without searching. Complete fields are cached per (map, version, goal,
   * policy, max_cost) within --flow_field_cache_bytes and dropped when the
   * map changes; FindGroupPaths uses the same cache. RESOURCE_EXHAUSTED when
   * the answer (5 bytes a cell) would exceed --max_message_bytes.
   */
  ComputeFlowField: grpc.handleUnaryCall<_gridstar_v1_FlowFieldRequest__Output, _gridstar_v1_FlowFieldResponse>;
  
  /**
   * Removes a map. Searches in flight finish on the version they hold.
   */
  DeleteMap: grpc.handleUnaryCall<_gridstar_v1_DeleteMapRequest__Output, _gridstar_v1_DeleteMapResponse>;
  
  DeleteWorld: grpc.handleUnaryCall<_gridstar_v1_DeleteWorldRequest__Output, _gridstar_v1_DeleteWorldResponse>;
  
  /**
   * Paths for a group of units by path splicing (see GroupPathsRequest).
   */
  FindGroupPaths: grpc.handleUnaryCall<_gridstar_v1_GroupPathsRequest__Output, _gridstar_v1_GroupPathsResponse>;
  
  /**
   * One path.
   */
  FindPath: grpc.handleUnaryCall<_gridstar_v1_PathRequest__Output, _gridstar_v1_PathResponse>;
  
  /**
   * Many paths on one map in one call. Every item gets its own status: one
   * bad item fails only itself. RESOURCE_EXHAUSTED for the whole call when it
   * has more than --max_batch items.
   */
  FindPaths: grpc.handleUnaryCall<_gridstar_v1_FindPathsRequest__Output, _gridstar_v1_FindPathsResponse>;
  
  /**
   * A stream of path requests (and world path requests:
   * StreamPathRequest.world_request); answers may come back out of order,
   * each tagged with the request's `request_id`.
   */
  FindPathsStream: grpc.handleBidiStreamingCall<_gridstar_v1_StreamPathRequest__Output, _gridstar_v1_StreamPathResponse>;
  
  /**
   * The least-cost path across a world, from a cell of one of its maps to
   * a cell of the same or another: its legs and the links taken.
   */
  FindWorldPath: grpc.handleUnaryCall<_gridstar_v1_WorldPathRequest__Output, _gridstar_v1_WorldPathResponse>;
  
  /**
   * Many world paths in one call, each item with its own status, as
   * FindPaths.
   */
  FindWorldPaths: grpc.handleUnaryCall<_gridstar_v1_FindWorldPathsRequest__Output, _gridstar_v1_FindWorldPathsResponse>;
  
  /**
   * Info about one map, optionally with its cells.
   */
  GetMap: grpc.handleUnaryCall<_gridstar_v1_GetMapRequest__Output, _gridstar_v1_GetMapResponse>;
  
  /**
   * One world with its links; every world (no links), ordered by id; and
   * removing one (its maps stay).
   */
  GetWorld: grpc.handleUnaryCall<_gridstar_v1_GetWorldRequest__Output, _gridstar_v1_WorldInfo>;
  
  /**
   * Every registered map's info (no cells), ordered by id. With a shared
   * store (--store), maps stored but not loaded on the replica answering are
   * listed with their id and version only (every other field 0 or empty);
   * GetMap or any call naming one loads it there.
   */
  ListMaps: grpc.handleUnaryCall<_gridstar_v1_ListMapsRequest__Output, _gridstar_v1_ListMapsResponse>;
  
  ListWorlds: grpc.handleUnaryCall<_gridstar_v1_ListWorldsRequest__Output, _gridstar_v1_ListWorldsResponse>;
  
  /**
   * Registers a map under an id. Registering identical content under the same
   * id again is a no-op that returns the same version; different content
   * under a taken id is ALREADY_EXISTS unless `replace` is set.
   */
  RegisterMap: grpc.handleUnaryCall<_gridstar_v1_RegisterMapRequest__Output, _gridstar_v1_MapInfo>;
  
  /**
   * Worlds of linked maps (see "Worlds" below). Registers a world: maps by
   * id and the links between them. Identical content under the same id is
   * a no-op answering the same version; other content under a taken id is
   * ALREADY_EXISTS unless `replace`. The maps must be registered.
   */
  RegisterWorld: grpc.handleUnaryCall<_gridstar_v1_RegisterWorldRequest__Output, _gridstar_v1_WorldInfo>;
  
  /**
   * Changes the costs of cells and/or filled rectangles atomically: a search
   * in flight finishes on the version it started with; every later search
   * sees the new version. ABORTED when `expected_version` is set and the map
   * is at another version (or, with a shared store, when another replica
   * wrote the version this update was made from): read the map again and
   * retry.
   */
  UpdateCells: grpc.handleUnaryCall<_gridstar_v1_UpdateCellsRequest__Output, _gridstar_v1_MapInfo>;
  
  /**
   * Opens, closes, re-costs, adds and removes links as one new version of
   * the world: a search in flight finishes on the version it started with.
   * ABORTED when expected_version is set and the world is at another.
   */
  UpdateLinks: grpc.handleUnaryCall<_gridstar_v1_UpdateLinksRequest__Output, _gridstar_v1_WorldInfo>;
  
  /**
   * Watched agents (units that walk while the world changes). The client
   * adds, moves, retargets and removes agents; the server answers each
   * request with one event, and pushes a new path (an event with
   * request_id 0) whenever a change of the map makes an agent's remaining
   * path illegal, or, when the agent asked, leaves a path cheaper than it
   * by more than the fraction the agent gave. Only agents whose remaining
   * path crosses a changed cell are checked and replanned (an index from
   * 32 x 32 tiles of cells to the agents whose paths pass them). See
   * WatchRequest and WatchEvent. The stream ends when the client closes its
   * side (its agents are dropped and their searches cancelled; events
   * already queued are still written),
   * or with RESOURCE_EXHAUSTED when the client reads too slowly: more than
   * --watch_max_pending events waiting to be written (pushes for one agent
   * replace each other while unwritten, so only a reader that falls far
   * behind is closed). The server stops reading while --max_stream_inflight
   * requests of the stream await their answers, which paces a client that
   * adds agents faster than they are searched. An agent may also walk a
   * world of linked maps (WatchRequest.world_path): changes of its member
   * maps and of the world's links replan it the same way.
   */
  WatchPaths: grpc.handleBidiStreamingCall<_gridstar_v1_WatchRequest__Output, _gridstar_v1_WatchEvent>;
  
}

export interface PathfindingDefinition extends grpc.ServiceDefinition {
  ComputeFlowField: MethodDefinition<_gridstar_v1_FlowFieldRequest, _gridstar_v1_FlowFieldResponse, _gridstar_v1_FlowFieldRequest__Output, _gridstar_v1_FlowFieldResponse__Output>
  DeleteMap: MethodDefinition<_gridstar_v1_DeleteMapRequest, _gridstar_v1_DeleteMapResponse, _gridstar_v1_DeleteMapRequest__Output, _gridstar_v1_DeleteMapResponse__Output>
  DeleteWorld: MethodDefinition<_gridstar_v1_DeleteWorldRequest, _gridstar_v1_DeleteWorldResponse, _gridstar_v1_DeleteWorldRequest__Output, _gridstar_v1_DeleteWorldResponse__Output>
  FindGroupPaths: MethodDefinition<_gridstar_v1_GroupPathsRequest, _gridstar_v1_GroupPathsResponse, _gridstar_v1_GroupPathsRequest__Output, _gridstar_v1_GroupPathsResponse__Output>
  FindPath: MethodDefinition<_gridstar_v1_PathRequest, _gridstar_v1_PathResponse, _gridstar_v1_PathRequest__Output, _gridstar_v1_PathResponse__Output>
  FindPaths: MethodDefinition<_gridstar_v1_FindPathsRequest, _gridstar_v1_FindPathsResponse, _gridstar_v1_FindPathsRequest__Output, _gridstar_v1_FindPathsResponse__Output>
  FindPathsStream: MethodDefinition<_gridstar_v1_StreamPathRequest, _gridstar_v1_StreamPathResponse, _gridstar_v1_StreamPathRequest__Output, _gridstar_v1_StreamPathResponse__Output>
  FindWorldPath: MethodDefinition<_gridstar_v1_WorldPathRequest, _gridstar_v1_WorldPathResponse, _gridstar_v1_WorldPathRequest__Output, _gridstar_v1_WorldPathResponse__Output>
  FindWorldPaths: MethodDefinition<_gridstar_v1_FindWorldPathsRequest, _gridstar_v1_FindWorldPathsResponse, _gridstar_v1_FindWorldPathsRequest__Output, _gridstar_v1_FindWorldPathsResponse__Output>
  GetMap: MethodDefinition<_gridstar_v1_GetMapRequest, _gridstar_v1_GetMapResponse, _gridstar_v1_GetMapRequest__Output, _gridstar_v1_GetMapResponse__Output>
  GetWorld: MethodDefinition<_gridstar_v1_GetWorldRequest, _gridstar_v1_WorldInfo, _gridstar_v1_GetWorldRequest__Output, _gridstar_v1_WorldInfo__Output>
  ListMaps: MethodDefinition<_gridstar_v1_ListMapsRequest, _gridstar_v1_ListMapsResponse, _gridstar_v1_ListMapsRequest__Output, _gridstar_v1_ListMapsResponse__Output>
  ListWorlds: MethodDefinition<_gridstar_v1_ListWorldsRequest, _gridstar_v1_ListWorldsResponse, _gridstar_v1_ListWorldsRequest__Output, _gridstar_v1_ListWorldsResponse__Output>
  RegisterMap: MethodDefinition<_gridstar_v1_RegisterMapRequest, _gridstar_v1_MapInfo, _gridstar_v1_RegisterMapRequest__Output, _gridstar_v1_MapInfo__Output>
  RegisterWorld: MethodDefinition<_gridstar_v1_RegisterWorldRequest, _gridstar_v1_WorldInfo, _gridstar_v1_RegisterWorldRequest__Output, _gridstar_v1_WorldInfo__Output>
  UpdateCells: MethodDefinition<_gridstar_v1_UpdateCellsRequest, _gridstar_v1_MapInfo, _gridstar_v1_UpdateCellsRequest__Output, _gridstar_v1_MapInfo__Output>
  UpdateLinks: MethodDefinition<_gridstar_v1_UpdateLinksRequest, _gridstar_v1_WorldInfo, _gridstar_v1_UpdateLinksRequest__Output, _gridstar_v1_WorldInfo__Output>
  WatchPaths: MethodDefinition<_gridstar_v1_WatchRequest, _gridstar_v1_WatchEvent, _gridstar_v1_WatchRequest__Output, _gridstar_v1_WatchEvent__Output>
}
