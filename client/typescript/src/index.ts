// gridstar-client: the TypeScript client of the gridstar pathfinding service.
//
// What the C++ and Python clients do: a default deadline on every call
// (10 s, `timeoutMs` per call), retries of idempotent calls on UNAVAILABLE
// with exponential backoff (never updateCells, deleteMap or a stream), the
// `x-gridstar-map` header on every call about one map (so deploy/nginx
// routes it to its replica), registering a remembered map again and
// replaying its updates when a restarted replica answers NOT_FOUND, TLS and
// mutual TLS, and a bearer token. Messages are the types generated from
// proto/gridstar/v1/gridstar.proto (./generated, documented field by field);
// answers carry enums by their proto names ("ALGORITHM_JPS_PLUS"), 64-bit
// integers as strings and bytes as Buffers; requests take enum values in any
// spelling ("jps+", "jps_plus", "ALGORITHM_JPS_PLUS").

import * as grpc from "@grpc/grpc-js";
import { readFileSync } from "node:fs";
import { dirname, join } from "node:path";

import type { FlowFieldResponse__Output } from "./generated/gridstar/v1/FlowFieldResponse";
import type { GetMapResponse__Output } from "./generated/gridstar/v1/GetMapResponse";
import type { GroupPathsResponse__Output } from "./generated/gridstar/v1/GroupPathsResponse";
import type { ImageMapping } from "./generated/gridstar/v1/ImageMapping";
import type { MapInfo__Output } from "./generated/gridstar/v1/MapInfo";
import type { PathfindingClient } from "./generated/gridstar/v1/Pathfinding";
import type { PathResponse__Output } from "./generated/gridstar/v1/PathResponse";
import type { RegisterMapRequest } from "./generated/gridstar/v1/RegisterMapRequest";
import type { TiledRule } from "./generated/gridstar/v1/TiledRule";
import type { UpdateCellsRequest } from "./generated/gridstar/v1/UpdateCellsRequest";
import type {WorldInfo__Output} from './generated/gridstar/v1/WorldInfo';
import type {WorldPathResponse__Output} from './generated/gridstar/v1/WorldPathResponse';
import {api, cell, enumName, GridstarError, linkOf, MAP_HEADER, MAX_MESSAGE_BYTES, pathRequest, worldPathRequest, type CallOptions, type CellLike, type LinkSpec, type PathOptions, type WorldCellLike,} from './requests';
import { Watch } from "./watch";

export type * from "./generated/gridstar/v1/MapInfo";
export type * from "./generated/gridstar/v1/PathResponse";
export type * from "./generated/gridstar/v1/WatchEvent";
export type * from "./generated/gridstar/v1/GetMapResponse";
export type * from './generated/gridstar/v1/WorldInfo';
export type * from './generated/gridstar/v1/WorldPathResponse';
export { Watch } from "./watch";
export {canonicalName, cell, cellsOf, enumName, GridstarError, MAP_HEADER, pathRequest, type CallOptions, type CellLike, type LinkSpec, type PathOptions, type WorldCellLike,} from './requests';

export interface ClientOptions {
  /** Deadline of each call in ms (default 10000); a call's own timeoutMs wins. */
  deadlineMs?: number;
  /** Attempts of an idempotent call that meets UNAVAILABLE (default 4). */
  maxAttempts?: number;
  initialBackoffMs?: number;
  maxBackoffMs?: number;
  /** Keep registered maps and their updates to register again (default true). */
  rememberMaps?: boolean;
  /** TLS with the system's roots; any tls* field turns TLS on too. */
  tls?: boolean;
  tlsCa?: string | Buffer;
  tlsCert?: string | Buffer;
  tlsKey?: string | Buffer;
  tlsCaFile?: string;
  tlsCertFile?: string;
  tlsKeyFile?: string;
  /** The name checked in the server's certificate instead of the target's host. */
  tlsServerName?: string;
  /** The key sent as `authorization: Bearer`; else tokenFile's token, else $GRIDSTAR_TOKEN. */
  token?: string;
  tokenFile?: string;
}


export interface RegisterOptions extends CallOptions {
  raw?: Uint8Array;
  movingai?: string;
  pgm?: Uint8Array;
  png?: Uint8Array;
  /** A Tiled .tmx or .tmj file's bytes. */
  tiled?: Uint8Array | string;
  width?: number;
  height?: number;
  defaultDiagonal?: string | number;
  replace?: boolean;
  jumpTable?: boolean;
  landmarks?: number;
  hpa?: boolean;
  subgoalGraph?: boolean;
  /** Precomputed structures by name: {name: count} (0 = the structure's default). */
  structures?: Record<string, number>;
  areas?: Uint8Array;
  defaultAreas?: number | string;
  maxAgentSize?: number;
  /** How a PNG's or PGM's pixels become cells (docs/maps.md); mode in any spelling. */
  imageMapping?: Omit<ImageMapping, "mode"> & { mode?: string | number };
  /** Tiled: external tilesets by the `source` the map names. */
  tilesets?: Record<string, Uint8Array | string>;
  tiledRules?: TiledRule[];
  tiledLayers?: string[];
}

export interface CellChange {
  cell: CellLike;
  cost: number;
  area?: number;
}

export interface RectChange {
  min: CellLike;
  /** Exclusive. */
  max: CellLike;
  cost: number;
  area?: number;
}

/** One item of findPaths / findPathsStream: the answer, or the item's error. */
export type PathItem = PathResponse__Output | GridstarError;

type Remembered = { register: RegisterMapRequest; updates: UpdateCellsRequest[] };

function sleep(ms: number): Promise<void> {
  return new Promise((resolve) => setTimeout(resolve, ms));
}

function readPem(pem: string | Buffer | undefined, file: string | undefined): Buffer | undefined {
  if (file !== undefined) return readFileSync(file);
  if (pem === undefined) return undefined;
  return Buffer.isBuffer(pem) ? pem : Buffer.from(pem);
}

/**
 * The token of a token file: its first line that is neither blank nor a '#'
 * comment (the rule of the C++ client and the CLI's --token_file).
 */
export function readTokenFile(path: string): string {
  for (const raw of readFileSync(path, "utf8").split("\n")) {
    const line = raw.trim();
    if (line && !line.startsWith("#")) return line;
  }
  throw new TypeError(`tokenFile: '${path}' holds no token`);
}

/** A connection to one gridstar server (or a proxy in front of many). */
export class Client {
  readonly deadlineMs: number;
  readonly maxAttempts: number;
  readonly initialBackoffMs: number;
  readonly maxBackoffMs: number;
  readonly rememberMaps: boolean;
  /** Every attempt of every call. */
  attempts = 0;
  /** Remembered maps registered again. */
  reregistrations = 0;
  private readonly stub: PathfindingClient;
  private readonly token: string | undefined;
  private readonly maps = new Map<string, Remembered>();

  constructor(target: string, options: ClientOptions = {}) {
    this.deadlineMs = options.deadlineMs ?? 10000;
    this.maxAttempts = options.maxAttempts ?? 4;
    this.initialBackoffMs = options.initialBackoffMs ?? 50;
    this.maxBackoffMs = options.maxBackoffMs ?? 2000;
    this.rememberMaps = options.rememberMaps ?? true;
    if (!(this.deadlineMs > 0)) throw new RangeError("deadlineMs: must be positive");
    if (!(this.maxAttempts >= 1)) throw new RangeError("maxAttempts: must be at least 1");
    const ca = readPem(options.tlsCa, options.tlsCaFile);
    const certificate = readPem(options.tlsCert, options.tlsCertFile);
    const key = readPem(options.tlsKey, options.tlsKeyFile);
    if ((certificate === undefined) !== (key === undefined)) {
      throw new TypeError("tlsCert and tlsKey: a client certificate needs its key");
    }
    const tls = options.tls || ca !== undefined || certificate !== undefined || options.tlsServerName !== undefined;
    let token = options.token;
    if (token === undefined && options.tokenFile !== undefined) token = readTokenFile(options.tokenFile);
    if (token === undefined && process.env.GRIDSTAR_TOKEN) token = process.env.GRIDSTAR_TOKEN.trim();
    this.token = token || undefined;
    const channelOptions: grpc.ChannelOptions = {
      "grpc.max_receive_message_length": MAX_MESSAGE_BYTES,
      "grpc.max_send_message_length": MAX_MESSAGE_BYTES,
    };
    if (tls && options.tlsServerName) {
      channelOptions["grpc.ssl_target_name_override"] = options.tlsServerName;
      channelOptions["grpc.default_authority"] = options.tlsServerName;
    }
    const credentials = tls
      ? grpc.credentials.createSsl(ca ?? null, key ?? null, certificate ?? null)
      : grpc.credentials.createInsecure();
    this.stub = new api.gridstar.v1.Pathfinding(target, credentials, channelOptions);
  }

  close(): void {
    this.stub.close();
  }

  // ---- Calls with deadline, header, token and retries.

  metadata(mapId?: string): grpc.Metadata {
    const m = new grpc.Metadata();
    if (this.token) m.set("authorization", `Bearer ${this.token}`);
    if (mapId) m.set(MAP_HEADER, mapId);
    return m;
  }

  private once<Res>(method: string, request: unknown, mapId: string | undefined, timeoutMs: number): Promise<Res> {
    this.attempts += 1;
    return new Promise<Res>((resolve, reject) => {
      const call = (this.stub as unknown as Record<string, Function>)[method].bind(this.stub);
      call(request, this.metadata(mapId), { deadline: Date.now() + timeoutMs },
        (error: grpc.ServiceError | null, response: Res) => {
          if (error) reject(new GridstarError(error.code, error.details ?? error.message));
          else resolve(response);
        });
    });
  }

  /** Runs `attempt` again on UNAVAILABLE, with backoff, up to maxAttempts when `idempotent`. */
  private async retrying<T>(idempotent: boolean, attempt: () => Promise<T>): Promise<T> {
    let backoff = this.initialBackoffMs;
    for (let n = 1; ; ++n) {
      try {
        return await attempt();
      } catch (e) {
        const error = e as GridstarError;
        if (error.code !== grpc.status.UNAVAILABLE || !idempotent || n >= this.maxAttempts) throw error;
      }
      await sleep(backoff);
      backoff = Math.min(backoff * 2, this.maxBackoffMs);
    }
  }

  private call<Res>(method: string, request: unknown, o: { idempotent: boolean; mapId?: string; timeoutMs?: number }): Promise<Res> {
    const timeoutMs = o.timeoutMs ?? this.deadlineMs;
    return this.retrying(o.idempotent, () => this.once<Res>(method, request, o.mapId, timeoutMs));
  }

  /** A call about one map: a NOT_FOUND of a remembered map registers it again, then retries. */
  private async mapCall<Res>(method: string, request: unknown, o: { idempotent: boolean; mapId: string; timeoutMs?: number }): Promise<Res> {
    try {
      return await this.call<Res>(method, request, o);
    } catch (e) {
      if ((e as GridstarError).code !== grpc.status.NOT_FOUND || !(await this.heal(o.mapId, o.timeoutMs))) throw e;
    }
    return this.call<Res>(method, request, o);
  }

  private async heal(mapId: string, timeoutMs?: number): Promise<boolean> {
    const remembered = this.rememberMaps ? this.maps.get(mapId) : undefined;
    if (remembered === undefined) return false;
    try {
      await this.call("RegisterMap", remembered.register, { idempotent: true, mapId, timeoutMs });
      for (const update of [...remembered.updates]) {
        // Versions start again at 1 after registering anew.
        await this.call("UpdateCells", { ...update, expectedVersion: 0 }, { idempotent: false, mapId, timeoutMs });
      }
    } catch {
      return false;
    }
    this.reregistrations += 1;
    return true;
  }

  // ---- Maps.

  /**
   * Registers a map from exactly one of raw (with width and height),
   * movingai, pgm, png or tiled (docs/maps.md). Registering identical content
   * again is a no-op, so the call is retried like a read.
   */
  async registerMap(mapId: string, o: RegisterOptions): Promise<MapInfo__Output> {
    const given = (["raw", "movingai", "pgm", "png", "tiled"] as const).filter((k) => o[k] !== undefined);
    if (given.length !== 1) throw new TypeError("registerMap: give exactly one of raw, movingai, pgm, png, tiled");
    if (o.imageMapping !== undefined && given[0] !== "png" && given[0] !== "pgm") {
      throw new TypeError("registerMap: imageMapping applies to png and pgm");
    }
    if ((o.tilesets || o.tiledRules || o.tiledLayers) && given[0] !== "tiled") {
      throw new TypeError("registerMap: tilesets, tiledRules and tiledLayers apply to tiled");
    }
    const request: RegisterMapRequest = {
      id: mapId,
      width: o.width ?? 0,
      height: o.height ?? 0,
      defaultDiagonal: enumName("DiagonalPolicy", o.defaultDiagonal, "defaultDiagonal") as RegisterMapRequest["defaultDiagonal"],
      replace: o.replace ?? false,
      jumpTable: o.jumpTable ?? false,
      landmarks: o.landmarks ?? 0,
      hpa: o.hpa ?? false,
      subgoalGraph: o.subgoalGraph ?? false,
      defaultAreas: o.defaultAreas ?? 0,
      maxAgentSize: o.maxAgentSize ?? 0,
      structures: Object.entries(o.structures ?? {}).map(([name, count]) => ({ name, count })),
    };
    if (o.areas !== undefined) request.areas = Buffer.from(o.areas);
    if (o.raw !== undefined) request.raw = Buffer.from(o.raw);
    else if (o.movingai !== undefined) request.movingai = o.movingai;
    else if (o.pgm !== undefined) request.pgm = Buffer.from(o.pgm);
    else if (o.png !== undefined) request.png = Buffer.from(o.png);
    else {
      request.tiled = {
        data: Buffer.from(o.tiled as Uint8Array | string),
        tilesets: Object.entries(o.tilesets ?? {}).map(([source, data]) => ({ source, data: Buffer.from(data) })),
        rules: o.tiledRules ?? [],
        layers: o.tiledLayers ?? [],
      };
    }
    if (o.imageMapping !== undefined) {
      const { mode, ...rest } = o.imageMapping;
      request.imageMapping = {
        ...rest,
        mode: enumName("ImageMode", mode ?? (rest.palette?.length ? "palette" : undefined), "imageMapping.mode") as ImageMapping["mode"],
      };
    }
    const info = await this.call<MapInfo__Output>("RegisterMap", request, { idempotent: true, mapId, timeoutMs: o.timeoutMs });
    if (this.rememberMaps) {
      const slot = this.maps.get(mapId);
      // The same content again keeps the updates made since.
      if (slot === undefined || info.version === "1" || JSON.stringify(slot.register) !== JSON.stringify(request)) {
        this.maps.set(mapId, { register: request, updates: [] });
      }
    }
    return info;
  }

  /**
   * Registers the map in file `path`, its format by extension: .png,
   * .tmx/.tmj/.json (Tiled; the external tilesets it names are read from
   * beside it), .pgm, else Moving AI text (or a PGM by its magic).
   */
  async registerMapFile(mapId: string, path: string, o: Omit<RegisterOptions, "raw" | "movingai" | "pgm" | "png" | "tiled"> = {}): Promise<MapInfo__Output> {
    const data = readFileSync(path);
    const name = path.toLowerCase();
    if (name.endsWith(".tmx") || name.endsWith(".tmj") || name.endsWith(".json")) {
      const tilesets: Record<string, Uint8Array | string> = { ...(o.tilesets ?? {}) };
      for (const source of tiledTilesetSources(data)) {
        if (!(source in tilesets)) tilesets[source] = readFileSync(join(dirname(path), source));
      }
      return this.registerMap(mapId, { ...o, tiled: data, tilesets });
    }
    if (name.endsWith(".png")) return this.registerMap(mapId, { ...o, png: data });
    const magic = data.subarray(0, 2).toString("latin1");
    if (name.endsWith(".pgm") || magic === "P5" || magic === "P2") return this.registerMap(mapId, { ...o, pgm: data });
    return this.registerMap(mapId, { ...o, movingai: data.toString("utf8") });
  }

  /**
   * Changes costs atomically; returns the new MapInfo. Not retried on
   * UNAVAILABLE (it may have applied). With expectedVersion, a map at
   * another version answers ABORTED: read it again and retry.
   */
  async updateCells(mapId: string, changes: { cells?: CellChange[]; rects?: RectChange[]; expectedVersion?: number | string }, o: CallOptions = {}): Promise<MapInfo__Output> {
    const request: UpdateCellsRequest = {
      id: mapId,
      expectedVersion: changes.expectedVersion ?? 0,
      cells: (changes.cells ?? []).map((c, i) => ({ cell: cell(c.cell, `cells[${i}].cell`), cost: c.cost, ...(c.area !== undefined ? { area: c.area } : {}) })),
      rects: (changes.rects ?? []).map((r, i) => ({
        rect: { min: cell(r.min, `rects[${i}].min`), max: cell(r.max, `rects[${i}].max`) },
        cost: r.cost,
        ...(r.area !== undefined ? { area: r.area } : {}),
      })),
    };
    const info = await this.mapCall<MapInfo__Output>("UpdateCells", request, { idempotent: false, mapId, timeoutMs: o.timeoutMs });
    this.maps.get(mapId)?.updates.push(request);
    return info;
  }

  getMap(mapId: string, o: CallOptions & { includeCells?: boolean } = {}): Promise<GetMapResponse__Output> {
    return this.mapCall("GetMap", { id: mapId, includeCells: o.includeCells ?? false }, { idempotent: true, mapId, timeoutMs: o.timeoutMs });
  }

  async listMaps(o: CallOptions = {}): Promise<MapInfo__Output[]> {
    const r = await this.call<{ maps: MapInfo__Output[] }>("ListMaps", {}, { idempotent: true, timeoutMs: o.timeoutMs });
    return r.maps;
  }

  /** Deletes a map (and forgets it). Not retried. */
  async deleteMap(mapId: string, o: CallOptions = {}): Promise<void> {
    this.maps.delete(mapId);
    await this.call("DeleteMap", { id: mapId }, { idempotent: false, mapId, timeoutMs: o.timeoutMs });
  }

  // ---- Paths.

  findPath(mapId: string, start: CellLike, goal: CellLike, o: PathOptions = {}): Promise<PathResponse__Output> {
    return this.mapCall("FindPath", pathRequest(mapId, start, goal, o), { idempotent: true, mapId, timeoutMs: o.timeoutMs });
  }

  /** One call for many paths: one item per pair, an answer or its own error. */
  async findPaths(mapId: string, pairs: [CellLike, CellLike][], o: PathOptions = {}): Promise<PathItem[]> {
    const items = pairs.map(([s, g], i) => {
      try {
        return pathRequest(mapId, s, g, o);
      } catch (e) {
        throw new TypeError(`pairs[${i}]: ${(e as Error).message}`);
      }
    });
    const r = await this.mapCall<{ results: { code: number; message: string; path: PathResponse__Output }[] }>(
      "FindPaths", { mapId, items }, { idempotent: true, mapId, timeoutMs: o.timeoutMs });
    return r.results.map((item) => (item.code === 0 ? item.path : new GridstarError(item.code, item.message)));
  }

  /** Paths over one FindPathsStream call, yielded as they are answered (request_id = index + 1). */
  async *findPathsStream(mapId: string, pairs: [CellLike, CellLike][], o: PathOptions = {}): AsyncGenerator<PathItem & { requestId?: string }> {
    this.attempts += 1;
    const stream = this.stub.FindPathsStream(this.metadata(mapId), { deadline: Date.now() + (o.timeoutMs ?? this.deadlineMs) });
    pairs.forEach(([s, g], i) => stream.write({ requestId: i + 1, request: pathRequest(mapId, s, g, o) }));
    stream.end();
    try {
      for await (const answer of stream) {
        const r = answer as { requestId: string; result: { code: number; message: string; path: PathResponse__Output } };
        yield r.result.code === 0
          ? Object.assign(r.result.path, { requestId: r.requestId })
          : Object.assign(new GridstarError(r.result.code, r.result.message), { requestId: r.requestId });
      }
    } catch (e) {
      const error = e as grpc.ServiceError;
      throw new GridstarError(error.code, error.details ?? error.message);
    }
  }

  /** Paths for a squad to shared goals (splicing or a flow field). */
  findGroupPaths(mapId: string, starts: CellLike[], goals: CellLike[], o: CallOptions & { algorithm?: string | number; diagonal?: string | number; method?: string | number; reportOverhead?: boolean; maxSpliceDistance?: number; flowFieldMinUnits?: number } = {}): Promise<GroupPathsResponse__Output> {
    const request = {
      mapId,
      starts: starts.map((c, i) => cell(c, `starts[${i}]`)),
      goals: goals.map((c, i) => cell(c, `goals[${i}]`)),
      algorithm: enumName("Algorithm", o.algorithm, "algorithm"),
      diagonal: enumName("DiagonalPolicy", o.diagonal, "diagonal"),
      method: enumName("GroupMethod", o.method, "method"),
      reportOverhead: o.reportOverhead ?? false,
      maxSpliceDistance: o.maxSpliceDistance ?? 0,
      flowFieldMinUnits: o.flowFieldMinUnits ?? 0,
    };
    return this.mapCall("FindGroupPaths", request, { idempotent: true, mapId, timeoutMs: o.timeoutMs });
  }

  /** Every cell's cost to `goal` and first move towards it (row-major). */
  computeFlowField(mapId: string, goal: CellLike, o: CallOptions & { diagonal?: string | number; maxCost?: number; allowPartial?: boolean } = {}): Promise<FlowFieldResponse__Output> {
    const request = {
      mapId,
      goal: cell(goal, "goal"),
      diagonal: enumName("DiagonalPolicy", o.diagonal, "diagonal"),
      maxCost: o.maxCost ?? 0,
      allowPartial: o.allowPartial ?? false,
    };
    return this.mapCall("ComputeFlowField", request, { idempotent: true, mapId, timeoutMs: o.timeoutMs });
  }

  /**
   * Opens a WatchPaths stream: add, move, retarget and remove agents, and
   * `for await` its events (one answer per request, pushed new paths with
   * requestId "0" when updates break a path). Not retried; no deadline
   * unless timeoutMs is given.
   */
  watchPaths(o: CallOptions = {}): Watch {
    this.attempts += 1;
    const options: grpc.CallOptions = o.timeoutMs !== undefined ? { deadline: Date.now() + o.timeoutMs } : {};
    return new Watch(this.stub.WatchPaths(this.metadata(), options));
  }

  // ---- Health.

  /** True when the server is SERVING; false while it drains or starts. Needs no token. */
  // ---- Worlds of linked maps (docs/worlds.md). No routing header: a
  // world's maps must be on the server answering (a shared store, or one
  // server).

  /**
   * A world: member maps by id and links. The same content again is a no-op.
   */
  registerWorld(
      worldId: string, mapIds: string[], links: LinkSpec[] = [],
      o: CallOptions&{replace?: boolean} = {}): Promise<WorldInfo__Output> {
    const request = {
      id: worldId,
      mapIds,
      links: links.map((l, i) => linkOf(l, `links[${i}]`)),
      replace: o.replace ?? false
    };
    return this.call(
        'RegisterWorld', request, {idempotent: true, timeoutMs: o.timeoutMs});
  }

  /**
   * One new version of the world: links opened, closed, re-costed, added and
   * removed, all or nothing. Not retried.
   */
  updateLinks(
      worldId: string, edits: {
        open?: string[];
        close?: string[];
        costs?: Record<string, number>;
        add?: LinkSpec[];
        remove?: string[];
        expectedVersion?: number | string
      },
      o: CallOptions = {}): Promise<WorldInfo__Output> {
    const updates: unknown[] = [];
    for (const id of edits.open ?? [])
      updates.push({linkId: id, state: 'STATE_OPEN'});
    for (const id of edits.close ?? [])
      updates.push({linkId: id, state: 'STATE_CLOSED'});
    for (const [id, cost] of Object.entries(edits.costs ?? {}))
      updates.push({linkId: id, cost});
    (edits.add ?? []).forEach((l, i) => updates.push({
      linkId: l.id,
      add: linkOf(l, `add[${i}]`)
    }));
    for (const id of edits.remove ?? [])
      updates.push({linkId: id, remove: true});
    return this.call(
        'UpdateLinks',
        {id: worldId, updates, expectedVersion: edits.expectedVersion ?? 0},
        {idempotent: false, timeoutMs: o.timeoutMs});
  }

  getWorld(worldId: string, o: CallOptions = {}): Promise<WorldInfo__Output> {
    return this.call(
        'GetWorld', {id: worldId}, {idempotent: true, timeoutMs: o.timeoutMs});
  }

  async listWorlds(o: CallOptions = {}): Promise<WorldInfo__Output[]> {
    const r = await this.call<{worlds: WorldInfo__Output[]}>(
        'ListWorlds', {}, {idempotent: true, timeoutMs: o.timeoutMs});
    return r.worlds;
  }

  /** Removes a world (its maps stay). Not retried. */
  async deleteWorld(worldId: string, o: CallOptions = {}): Promise<void> {
    await this.call(
        'DeleteWorld', {id: worldId},
        {idempotent: false, timeoutMs: o.timeoutMs});
  }

  /**
   * The least-cost path across a world: its legs and the links taken. start,
   * goal: [mapId, [x, y]].
   */
  findWorldPath(
      worldId: string, start: WorldCellLike, goal: WorldCellLike,
      o: PathOptions = {}): Promise<WorldPathResponse__Output> {
    return this.call(
        'FindWorldPath', worldPathRequest(worldId, start, goal, o),
        {idempotent: true, timeoutMs: o.timeoutMs});
  }

  /**
   * Many world paths in one call: one item per pair, an answer or its own
   * error.
   */
  async findWorldPaths(
      worldId: string, pairs: [WorldCellLike, WorldCellLike][],
      o: PathOptions = {}):
      Promise<(WorldPathResponse__Output | GridstarError)[]> {
    const items = pairs.map(([s, g], i) => {
      try {
        return worldPathRequest(worldId, s, g, o);
      } catch (e) {
        throw new TypeError(`pairs[${i}]: ${(e as Error).message}`);
      }
    });
    const r = await this.call<{
      results:
          {code: number; message: string; path: WorldPathResponse__Output}[]
    }>('FindWorldPaths', {worldId, items},
       {idempotent: true, timeoutMs: o.timeoutMs});
    return r.results.map(
        (item) =>
            (item.code === 0 ? item.path :
                               new GridstarError(item.code, item.message)));
  }

  async health(o: CallOptions = {}): Promise<boolean> {
    // grpc.health.v1: an empty HealthCheckRequest asks about the whole
    // server; the reply's field 1 is the status (1 = SERVING).
    const client = this.stub as unknown as grpc.Client;
    const ask = (): Promise<Buffer> => new Promise((resolve, reject) => {
      this.attempts += 1;
      client.makeUnaryRequest("/grpc.health.v1.Health/Check", (b: Buffer) => b, (b: Buffer) => b, Buffer.alloc(0),
        this.metadata(), { deadline: Date.now() + (o.timeoutMs ?? this.deadlineMs) },
        (error, reply) => (error ? reject(new GridstarError(error.code, error.details)) : resolve(reply as Buffer)));
    });
    const reply = await this.retrying(true, ask);
    return reply.length === 2 && reply[0] === 0x08 && reply[1] === 0x01;
  }
}

/** The `source` of every external tileset a Tiled map (.tmx or .tmj bytes) names. */
export function tiledTilesetSources(data: Uint8Array | string): string[] {
  const text = (typeof data === "string" ? data : Buffer.from(data).toString("utf8")).replace(/^\uFEFF/, "").trimStart();
  if (text.startsWith("{")) {
    const json = JSON.parse(text) as { tilesets?: { source?: string }[] };
    return (json.tilesets ?? []).map((t) => t.source).filter((s): s is string => typeof s === "string" && s !== "");
  }
  // The `source` attributes of <tileset> elements outside comments, with
  // XML's five named entities and character references decoded (Node has no
  // XML parser; the server reads the map with a real one).
  const entities: Record<string, string> = { amp: "&", lt: "<", gt: ">", quot: '"', apos: "'" };
  const decode = (v: string) => v.replace(/&(#x[0-9a-f]+|#\d+|\w+);/gi, (all, e: string) =>
    e[0] === "#" ? String.fromCodePoint(Number(e[1] === "x" || e[1] === "X" ? `0${e.slice(1)}` : e.slice(1)))
      : entities[e] ?? all);
  const out: string[] = [];
  const uncommented = text.replace(/<!--[\s\S]*?-->/g, "");
  for (const m of uncommented.matchAll(/<tileset\b[^>]*?\bsource\s*=\s*("([^"]*)"|'([^']*)')/g)) {
    out.push(decode(m[2] ?? m[3]));
  }
  return out;
}
