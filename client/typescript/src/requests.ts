// What the client and its watch streams share: the loaded API, enum
// spellings, cells, path requests and the error of a failed call.

import * as grpc from "@grpc/grpc-js";
import * as protoLoader from "@grpc/proto-loader";
import { join } from "node:path";

import type { ProtoGrpcType } from "./generated/gridstar";
import type { Cell } from "./generated/gridstar/v1/Cell";
import type { PathRequest } from "./generated/gridstar/v1/PathRequest";
import { canonical, enumValues, protoName, type EnumValue } from "./names";

/** The header naming the map a call is about (deploy/nginx routes by it). */
export const MAP_HEADER = "x-gridstar-map";
export const MAX_MESSAGE_BYTES = 1 << 30;

const LOADER_OPTIONS: protoLoader.Options = {
  longs: String,
  enums: String,
  defaults: true,
  oneofs: true,
};

const packageDefinition = protoLoader.loadSync("gridstar/v1/gridstar.proto", {
  ...LOADER_OPTIONS,
  includeDirs: [join(__dirname, "..", "proto")],
});
export const api = grpc.loadPackageDefinition(packageDefinition) as unknown as ProtoGrpcType;

function enumOf(name: string): EnumValue[] {
  return enumValues(packageDefinition[`gridstar.v1.${name}`] as protoLoader.EnumTypeDefinition);
}

/** The proto name of an enum value given in any spelling (names.ts). */
export function enumName(enumType: string, value: string | number | undefined, field: string): string {
  return protoName(enumType, enumOf(enumType), value, field);
}

/** The canonical name ("jps+") of a value of one of gridstar.v1's enums. */
export function canonicalName(enumType: string, value: string | number): string {
  return canonical(enumType, enumOf(enumType), value);
}

/** A failed call: the gRPC code and the server's message, which names the field at fault. */
export class GridstarError extends Error {
  readonly code: grpc.status;
  readonly codeName: string;
  readonly details: string;
  constructor(code: grpc.status, details: string) {
    super(`${grpc.status[code]}: ${details}`);
    this.name = "GridstarError";
    this.code = code;
    this.codeName = grpc.status[code];
    this.details = details;
  }
}

export type CellLike = Cell | [number, number];

/** A Cell from {x, y} or [x, y]; a TypeError naming `field` otherwise. */
export function cell(value: CellLike, field: string): Cell {
  const [x, y] = Array.isArray(value) ? value : [value?.x, value?.y];
  for (const c of [x, y]) {
    if (!Number.isInteger(c) || (c as number) < -(2 ** 31) || (c as number) >= 2 ** 31) {
      throw new TypeError(`${field}: expected [x, y] or {x, y} of 32-bit integers, got ${JSON.stringify(value)}`);
    }
  }
  return { x: x as number, y: y as number };
}

/** [[x0, y0], [x1, y1], ...] of a packed cell list (PathResponse.cells). */
export function cellsOf(path: { cells: number[] } | number[]): [number, number][] {
  const packed = Array.isArray(path) ? path : path.cells;
  const out: [number, number][] = [];
  for (let i = 0; i + 1 < packed.length; i += 2) out.push([packed[i], packed[i + 1]]);
  return out;
}

export interface CallOptions {
  timeoutMs?: number;
}

export interface PathOptions extends CallOptions {
  algorithm?: string | number;
  weight?: number;
  diagonal?: string | number;
  maxExpansions?: number;
  smooth?: boolean;
  snapRadius?: number;
  allowPartial?: boolean;
  trace?: boolean;
  areas?: number | string;
  areaCosts?: number[];
  agentSize?: number;
}

/** A cell of one of a world's maps: [mapId, [x, y]] or {mapId, cell}. */
export type WorldCellLike = [string, CellLike]|{
  mapId: string;
  cell: CellLike
};

export function worldCell(
    value: WorldCellLike, field: string): {mapId: string; cell: Cell} {
  const [mapId, c] = Array.isArray(value) ? value : [value?.mapId, value?.cell];
  if (typeof mapId !== 'string') {
    throw new TypeError(
        `${field}: expected [mapId, [x, y]] or {mapId, cell}, got ${
            JSON.stringify(value)}`);
  }
  return {mapId, cell: cell(c as CellLike, `${field}.cell`)};
}

/** A link of a world (RegisterWorldRequest.links, LinkUpdate.add). */
export interface LinkSpec {
  id: string;
  from: WorldCellLike;
  to: WorldCellLike;
  cost?: number;
  oneWay?: boolean;
  closed?: boolean;
  areas?: number|string;
  maxAgentSize?: number;
}

export function linkOf(l: LinkSpec, field: string) {
  return {
    id: l.id,
    from: worldCell(l.from, `${field}.from`),
    to: worldCell(l.to, `${field}.to`),
    cost: l.cost ?? 1,
    oneWay: l.oneWay ?? false,
    closed: l.closed ?? false,
    areas: l.areas ?? 0,
    maxAgentSize: l.maxAgentSize ?? 0,
  };
}

/**
 * A world path request: PathOptions but snapRadius (ends are not snapped
 * across a world).
 */
export function worldPathRequest(
    worldId: string, start: WorldCellLike, goal: WorldCellLike,
    o: PathOptions = {}) {
  if (o.snapRadius)
    throw new TypeError('snapRadius: ends are not snapped across a world');
  const {mapId: _m, start: _s, goal: _g, snapRadius: _r, ...leg} =
      pathRequest('', [0, 0], [0, 0], o);
  return {
    worldId,
    start: worldCell(start, 'start'),
    goal: worldCell(goal, 'goal'),
    ...leg
  };
}

export function pathRequest(mapId: string, start: CellLike, goal: CellLike, o: PathOptions = {}): PathRequest {
  return {
    mapId,
    start: cell(start, "start"),
    goal: cell(goal, "goal"),
    algorithm: enumName("Algorithm", o.algorithm, "algorithm") as PathRequest["algorithm"],
    weight: o.weight ?? 0,
    diagonal: enumName("DiagonalPolicy", o.diagonal, "diagonal") as PathRequest["diagonal"],
    maxExpansions: o.maxExpansions ?? 0,
    smooth: o.smooth ?? false,
    snapRadius: o.snapRadius ?? 0,
    allowPartial: o.allowPartial ?? false,
    trace: o.trace ?? false,
    areas: o.areas ?? 0,
    areaCosts: o.areaCosts ?? [],
    agentSize: o.agentSize ?? 0,
  };
}

