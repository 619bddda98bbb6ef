import type * as grpc from '@grpc/grpc-js';
import type { EnumTypeDefinition, MessageTypeDefinition } from '@grpc/proto-loader';

import type { AutoCandidate as _gridstar_v1_AutoCandidate, AutoCandidate__Output as _gridstar_v1_AutoCandidate__Output } from './gridstar/v1/AutoCandidate';
import type { Cell as _gridstar_v1_Cell, Cell__Output as _gridstar_v1_Cell__Output } from './gridstar/v1/Cell';
import type { CellUpdate as _gridstar_v1_CellUpdate, CellUpdate__Output as _gridstar_v1_CellUpdate__Output } from './gridstar/v1/CellUpdate';
import type { DeleteMapRequest as _gridstar_v1_DeleteMapRequest, DeleteMapRequest__Output as _gridstar_v1_DeleteMapRequest__Output } from './gridstar/v1/DeleteMapRequest';
import type { DeleteMapResponse as _gridstar_v1_DeleteMapResponse, DeleteMapResponse__Output as _gridstar_v1_DeleteMapResponse__Output } from './gridstar/v1/DeleteMapResponse';
import type { DeleteWorldRequest as _gridstar_v1_DeleteWorldRequest, DeleteWorldRequest__Output as _gridstar_v1_DeleteWorldRequest__Output } from './gridstar/v1/DeleteWorldRequest';
import type { DeleteWorldResponse as _gridstar_v1_DeleteWorldResponse, DeleteWorldResponse__Output as _gridstar_v1_DeleteWorldResponse__Output } from './gridstar/v1/DeleteWorldResponse';
import type { DerivedInfo as _gridstar_v1_DerivedInfo, DerivedInfo__Output as _gridstar_v1_DerivedInfo__Output } from './gridstar/v1/DerivedInfo';
import type { FindPathsRequest as _gridstar_v1_FindPathsRequest, FindPathsRequest__Output as _gridstar_v1_FindPathsRequest__Output } from './gridstar/v1/FindPathsRequest';
import type { FindPathsResponse as _gridstar_v1_FindPathsResponse, FindPathsResponse__Output as _gridstar_v1_FindPathsResponse__Output } from './gridstar/v1/FindPathsResponse';
import type { FindWorldPathsRequest as _gridstar_v1_FindWorldPathsRequest, FindWorldPathsRequest__Output as _gridstar_v1_FindWorldPathsRequest__Output } from './gridstar/v1/FindWorldPathsRequest';
import type { FindWorldPathsResponse as _gridstar_v1_FindWorldPathsResponse, FindWorldPathsResponse__Output as _gridstar_v1_FindWorldPathsResponse__Output } from './gridstar/v1/FindWorldPathsResponse';
import type { FlowFieldRequest as _gridstar_v1_FlowFieldRequest, FlowFieldRequest__Output as _gridstar_v1_FlowFieldRequest__Output } from './gridstar/v1/FlowFieldRequest';
import type { FlowFieldResponse as _gridstar_v1_FlowFieldResponse, FlowFieldResponse__Output as _gridstar_v1_FlowFieldResponse__Output } from './gridstar/v1/FlowFieldResponse';
import type { GetMapRequest as _gridstar_v1_GetMapRequest, GetMapRequest__Output as _gridstar_v1_GetMapRequest__Output } from './gridstar/v1/GetMapRequest';
import type { GetMapResponse as _gridstar_v1_GetMapResponse, GetMapResponse__Output as _gridstar_v1_GetMapResponse__Output } from './gridstar/v1/GetMapResponse';
import type { GetWorldRequest as _gridstar_v1_GetWorldRequest, GetWorldRequest__Output as _gridstar_v1_GetWorldRequest__Output } from './gridstar/v1/GetWorldRequest';
import type { GroupPathsRequest as _gridstar_v1_GroupPathsRequest, GroupPathsRequest__Output as _gridstar_v1_GroupPathsRequest__Output } from './gridstar/v1/GroupPathsRequest';
import type { GroupPathsResponse as _gridstar_v1_GroupPathsResponse, GroupPathsResponse__Output as _gridstar_v1_GroupPathsResponse__Output } from './gridstar/v1/GroupPathsResponse';
import type { ImageMapping as _gridstar_v1_ImageMapping, ImageMapping__Output as _gridstar_v1_ImageMapping__Output } from './gridstar/v1/ImageMapping';
import type { Link as _gridstar_v1_Link, Link__Output as _gridstar_v1_Link__Output } from './gridstar/v1/Link';
import type { LinkUpdate as _gridstar_v1_LinkUpdate, LinkUpdate__Output as _gridstar_v1_LinkUpdate__Output } from './gridstar/v1/LinkUpdate';
import type { ListMapsRequest as _gridstar_v1_ListMapsRequest, ListMapsRequest__Output as _gridstar_v1_ListMapsRequest__Output } from './gridstar/v1/ListMapsRequest';
import type { ListMapsResponse as _gridstar_v1_ListMapsResponse, ListMapsResponse__Output as _gridstar_v1_ListMapsResponse__Output } from './gridstar/v1/ListMapsResponse';
import type { ListWorldsRequest as _gridstar_v1_ListWorldsRequest, ListWorldsRequest__Output as _gridstar_v1_ListWorldsRequest__Output } from './gridstar/v1/ListWorldsRequest';
import type { ListWorldsResponse as _gridstar_v1_ListWorldsResponse, ListWorldsResponse__Output as _gridstar_v1_ListWorldsResponse__Output } from './gridstar/v1/ListWorldsResponse';
import type { MapInfo as _gridstar_v1_MapInfo, MapInfo__Output as _gridstar_v1_MapInfo__Output } from './gridstar/v1/MapInfo';
import type { PaletteColour as _gridstar_v1_PaletteColour, PaletteColour__Output as _gridstar_v1_PaletteColour__Output } from './gridstar/v1/PaletteColour';
import type { PathItemResult as _gridstar_v1_PathItemResult, PathItemResult__Output as _gridstar_v1_PathItemResult__Output } from './gridstar/v1/PathItemResult';
import type { PathRequest as _gridstar_v1_PathRequest, PathRequest__Output as _gridstar_v1_PathRequest__Output } from './gridstar/v1/PathRequest';
import type { PathResponse as _gridstar_v1_PathResponse, PathResponse__Output as _gridstar_v1_PathResponse__Output } from './gridstar/v1/PathResponse';
import type { PathfindingClient as _gridstar_v1_PathfindingClient, PathfindingDefinition as _gridstar_v1_PathfindingDefinition } from './gridstar/v1/Pathfinding';
import type { Rect as _gridstar_v1_Rect, Rect__Output as _gridstar_v1_Rect__Output } from './gridstar/v1/Rect';
import type { RectUpdate as _gridstar_v1_RectUpdate, RectUpdate__Output as _gridstar_v1_RectUpdate__Output } from './gridstar/v1/RectUpdate';
import type { RegisterMapRequest as _gridstar_v1_RegisterMapRequest, RegisterMapRequest__Output as _gridstar_v1_RegisterMapRequest__Output } from './gridstar/v1/RegisterMapRequest';
import type { RegisterWorldRequest as _gridstar_v1_RegisterWorldRequest, RegisterWorldRequest__Output as _gridstar_v1_RegisterWorldRequest__Output } from './gridstar/v1/RegisterWorldRequest';
import type { StreamPathRequest as _gridstar_v1_StreamPathRequest, StreamPathRequest__Output as _gridstar_v1_StreamPathRequest__Output } from './gridstar/v1/StreamPathRequest';
import type { StreamPathResponse as _gridstar_v1_StreamPathResponse, StreamPathResponse__Output as _gridstar_v1_StreamPathResponse__Output } from './gridstar/v1/StreamPathResponse';
import type { StructureRequest as _gridstar_v1_StructureRequest, StructureRequest__Output as _gridstar_v1_StructureRequest__Output } from './gridstar/v1/StructureRequest';
import type { TiledFile as _gridstar_v1_TiledFile, TiledFile__Output as _gridstar_v1_TiledFile__Output } from './gridstar/v1/TiledFile';
import type { TiledMap as _gridstar_v1_TiledMap, TiledMap__Output as _gridstar_v1_TiledMap__Output } from './gridstar/v1/TiledMap';
import type { TiledRule as _gridstar_v1_TiledRule, TiledRule__Output as _gridstar_v1_TiledRule__Output } from './gridstar/v1/TiledRule';
import type { UnitPath as _gridstar_v1_UnitPath, UnitPath__Output as _gridstar_v1_UnitPath__Output } from './gridstar/v1/UnitPath';
import type { UpdateCellsRequest as _gridstar_v1_UpdateCellsRequest, UpdateCellsRequest__Output as _gridstar_v1_UpdateCellsRequest__Output } from './gridstar/v1/UpdateCellsRequest';
import type { UpdateLinksRequest as _gridstar_v1_UpdateLinksRequest, UpdateLinksRequest__Output as _gridstar_v1_UpdateLinksRequest__Output } from './gridstar/v1/UpdateLinksRequest';
import type { WatchEvent as _gridstar_v1_WatchEvent, WatchEvent__Output as _gridstar_v1_WatchEvent__Output } from './gridstar/v1/WatchEvent';
import type { WatchRequest as _gridstar_v1_WatchRequest, WatchRequest__Output as _gridstar_v1_WatchRequest__Output } from './gridstar/v1/WatchRequest';
import type { WorldCell as _gridstar_v1_WorldCell, WorldCell__Output as _gridstar_v1_WorldCell__Output } from './gridstar/v1/WorldCell';
import type { WorldInfo as _gridstar_v1_WorldInfo, WorldInfo__Output as _gridstar_v1_WorldInfo__Output } from './gridstar/v1/WorldInfo';
import type { WorldLeg as _gridstar_v1_WorldLeg, WorldLeg__Output as _gridstar_v1_WorldLeg__Output } from './gridstar/v1/WorldLeg';
import type { WorldPathItemResult as _gridstar_v1_WorldPathItemResult, WorldPathItemResult__Output as _gridstar_v1_WorldPathItemResult__Output } from './gridstar/v1/WorldPathItemResult';
import type { WorldPathRequest as _gridstar_v1_WorldPathRequest, WorldPathRequest__Output as _gridstar_v1_WorldPathRequest__Output } from './gridstar/v1/WorldPathRequest';
import type { WorldPathResponse as _gridstar_v1_WorldPathResponse, WorldPathResponse__Output as _gridstar_v1_WorldPathResponse__Output } from './gridstar/v1/WorldPathResponse';

type SubtypeConstructor<Constructor extends new (...args: any) => any, Subtype> = {
  new(...args: ConstructorParameters<Constructor>): Subtype;
};

export interface ProtoGrpcType {
  gridstar: {
    v1: {
      Algorithm: EnumTypeDefinition
      AutoCandidate: MessageTypeDefinition<_gridstar_v1_AutoCandidate, _gridstar_v1_AutoCandidate__Output>
      Cell: MessageTypeDefinition<_gridstar_v1_Cell, _gridstar_v1_Cell__Output>
      CellUpdate: MessageTypeDefinition<_gridstar_v1_CellUpdate, _gridstar_v1_CellUpdate__Output>
      DeleteMapRequest: MessageTypeDefinition<_gridstar_v1_DeleteMapRequest, _gridstar_v1_DeleteMapRequest__Output>
      DeleteMapResponse: MessageTypeDefinition<_gridstar_v1_DeleteMapResponse, _gridstar_v1_DeleteMapResponse__Output>
      DeleteWorldRequest: MessageTypeDefinition<_gridstar_v1_DeleteWorldRequest, _gridstar_v1_DeleteWorldRequest__Output>
      DeleteWorldResponse: MessageTypeDefinition<_gridstar_v1_DeleteWorldResponse, _gridstar_v1_DeleteWorldResponse__Output>
      DerivedInfo: MessageTypeDefinition<_gridstar_v1_DerivedInfo, _gridstar_v1_DerivedInfo__Output>
      DiagonalPolicy: EnumTypeDefinition
      FindPathsRequest: MessageTypeDefinition<_gridstar_v1_FindPathsRequest, _gridstar_v1_FindPathsRequest__Output>
      FindPathsResponse: MessageTypeDefinition<_gridstar_v1_FindPathsResponse, _gridstar_v1_FindPathsResponse__Output>
      FindWorldPathsRequest: MessageTypeDefinition<_gridstar_v1_FindWorldPathsRequest, _gridstar_v1_FindWorldPathsRequest__Output>
      FindWorldPathsResponse: MessageTypeDefinition<_gridstar_v1_FindWorldPathsResponse, _gridstar_v1_FindWorldPathsResponse__Output>
      FlowFieldRequest: MessageTypeDefinition<_gridstar_v1_FlowFieldRequest, _gridstar_v1_FlowFieldRequest__Output>
      FlowFieldResponse: MessageTypeDefinition<_gridstar_v1_FlowFieldResponse, _gridstar_v1_FlowFieldResponse__Output>
      GetMapRequest: MessageTypeDefinition<_gridstar_v1_GetMapRequest, _gridstar_v1_GetMapRequest__Output>
      GetMapResponse: MessageTypeDefinition<_gridstar_v1_GetMapResponse, _gridstar_v1_GetMapResponse__Output>
      GetWorldRequest: MessageTypeDefinition<_gridstar_v1_GetWorldRequest, _gridstar_v1_GetWorldRequest__Output>
      GroupMethod: EnumTypeDefinition
      GroupPathsRequest: MessageTypeDefinition<_gridstar_v1_GroupPathsRequest, _gridstar_v1_GroupPathsRequest__Output>
      GroupPathsResponse: MessageTypeDefinition<_gridstar_v1_GroupPathsResponse, _gridstar_v1_GroupPathsResponse__Output>
      ImageMapping: MessageTypeDefinition<_gridstar_v1_ImageMapping, _gridstar_v1_ImageMapping__Output>
      ImageMode: EnumTypeDefinition
      Link: MessageTypeDefinition<_gridstar_v1_Link, _gridstar_v1_Link__Output>
      LinkUpdate: MessageTypeDefinition<_gridstar_v1_LinkUpdate, _gridstar_v1_LinkUpdate__Output>
      ListMapsRequest: MessageTypeDefinition<_gridstar_v1_ListMapsRequest, _gridstar_v1_ListMapsRequest__Output>
      ListMapsResponse: MessageTypeDefinition<_gridstar_v1_ListMapsResponse, _gridstar_v1_ListMapsResponse__Output>
      ListWorldsRequest: MessageTypeDefinition<_gridstar_v1_ListWorldsRequest, _gridstar_v1_ListWorldsRequest__Output>
      ListWorldsResponse: MessageTypeDefinition<_gridstar_v1_ListWorldsResponse, _gridstar_v1_ListWorldsResponse__Output>
      MapInfo: MessageTypeDefinition<_gridstar_v1_MapInfo, _gridstar_v1_MapInfo__Output>
      PaletteColour: MessageTypeDefinition<_gridstar_v1_PaletteColour, _gridstar_v1_PaletteColour__Output>
      PartialReason: EnumTypeDefinition
      PathItemResult: MessageTypeDefinition<_gridstar_v1_PathItemResult, _gridstar_v1_PathItemResult__Output>
      PathRequest: MessageTypeDefinition<_gridstar_v1_PathRequest, _gridstar_v1_PathRequest__Output>
      PathResponse: MessageTypeDefinition<_gridstar_v1_PathResponse, _gridstar_v1_PathResponse__Output>
      Pathfinding: SubtypeConstructor<typeof grpc.Client, _gridstar_v1_PathfindingClient> & { service: _gridstar_v1_PathfindingDefinition }
      Rect: MessageTypeDefinition<_gridstar_v1_Rect, _gridstar_v1_Rect__Output>
      RectUpdate: MessageTypeDefinition<_gridstar_v1_RectUpdate, _gridstar_v1_RectUpdate__Output>
      RegisterMapRequest: MessageTypeDefinition<_gridstar_v1_RegisterMapRequest, _gridstar_v1_RegisterMapRequest__Output>
      RegisterWorldRequest: MessageTypeDefinition<_gridstar_v1_RegisterWorldRequest, _gridstar_v1_RegisterWorldRequest__Output>
      StreamPathRequest: MessageTypeDefinition<_gridstar_v1_StreamPathRequest, _gridstar_v1_StreamPathRequest__Output>
      StreamPathResponse: MessageTypeDefinition<_gridstar_v1_StreamPathResponse, _gridstar_v1_StreamPathResponse__Output>
      StructureRequest: MessageTypeDefinition<_gridstar_v1_StructureRequest, _gridstar_v1_StructureRequest__Output>
      TiledFile: MessageTypeDefinition<_gridstar_v1_TiledFile, _gridstar_v1_TiledFile__Output>
      TiledMap: MessageTypeDefinition<_gridstar_v1_TiledMap, _gridstar_v1_TiledMap__Output>
      TiledRule: MessageTypeDefinition<_gridstar_v1_TiledRule, _gridstar_v1_TiledRule__Output>
      UnitPath: MessageTypeDefinition<_gridstar_v1_UnitPath, _gridstar_v1_UnitPath__Output>
      UpdateCellsRequest: MessageTypeDefinition<_gridstar_v1_UpdateCellsRequest, _gridstar_v1_UpdateCellsRequest__Output>
      UpdateLinksRequest: MessageTypeDefinition<_gridstar_v1_UpdateLinksRequest, _gridstar_v1_UpdateLinksRequest__Output>
      WatchAction: EnumTypeDefinition
      WatchEvent: MessageTypeDefinition<_gridstar_v1_WatchEvent, _gridstar_v1_WatchEvent__Output>
      WatchReason: EnumTypeDefinition
      WatchRequest: MessageTypeDefinition<_gridstar_v1_WatchRequest, _gridstar_v1_WatchRequest__Output>
      WorldCell: MessageTypeDefinition<_gridstar_v1_WorldCell, _gridstar_v1_WorldCell__Output>
      WorldInfo: MessageTypeDefinition<_gridstar_v1_WorldInfo, _gridstar_v1_WorldInfo__Output>
      WorldLeg: MessageTypeDefinition<_gridstar_v1_WorldLeg, _gridstar_v1_WorldLeg__Output>
      WorldPathItemResult: MessageTypeDefinition<_gridstar_v1_WorldPathItemResult, _gridstar_v1_WorldPathItemResult__Output>
      WorldPathRequest: MessageTypeDefinition<_gridstar_v1_WorldPathRequest, _gridstar_v1_WorldPathRequest__Output>
      WorldPathResponse: MessageTypeDefinition<_gridstar_v1_WorldPathResponse, _gridstar_v1_WorldPathResponse__Output>
    }
  }
}

