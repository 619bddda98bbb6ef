// One WatchPaths stream (Client.watchPaths). The request methods send a
// request and return its requestId (the event answering it carries it);
// `for await (const event of watch)` yields every WatchEvent as it comes;
// leaving that loop early cancels the stream. close() ends the client's
// side: the server drops the stream's agents and the iteration ends once
// the events already sent are read; cancel() ends it at once.

import * as grpc from "@grpc/grpc-js";

import type { WatchEvent__Output } from "./generated/gridstar/v1/WatchEvent";
import type { WatchRequest } from "./generated/gridstar/v1/WatchRequest";
import {
  cell, GridstarError, pathRequest, worldCell, worldPathRequest, type CellLike, type PathOptions,
  type WorldCellLike,
} from "./requests";

export class Watch implements AsyncIterable<WatchEvent__Output> {
  private nextId = 1;
  private closed = false;

  constructor(private readonly stream: grpc.ClientDuplexStream<WatchRequest, WatchEvent__Output>) {
    // Errors surface through the iteration; keep Node from treating an
    // unread error as unhandled.
    this.stream.on("error", () => {});
  }

  private send(fields: Omit<WatchRequest, "requestId">): number {
    if (this.closed) throw new Error("FAILED_PRECONDITION: the watch is closed");
    const requestId = this.nextId++;
    this.stream.write({ requestId, ...fields });
    return requestId;
  }

  /** A new agent at `start` walking to `goal` (options as findPath's). */
  add(agentId: number, mapId: string, start: CellLike, goal: CellLike,
      o: PathOptions & { replanIfCheaper?: number; progressiveExpansions?: number } = {}): number {
    return this.send({
      agentId,
      action: "WATCH_ACTION_ADD",
      path: pathRequest(mapId, start, goal, o),
      replanIfCheaper: o.replanIfCheaper ?? 0,
      progressiveExpansions: o.progressiveExpansions ?? 0,
    });
  }

  move(agentId: number, position: CellLike): number {
    return this.send({ agentId, action: "WATCH_ACTION_MOVE", position: cell(position, "position") });
  }

  retarget(agentId: number, goal: CellLike): number {
    return this.send({ agentId, action: "WATCH_ACTION_RETARGET", goal: cell(goal, "goal") });
  }

  /**
   * A new agent walking world `worldId` from `start` to `goal`, each
   * [mapId, [x, y]] (options as findWorldPath's). Its answers and pushes
   * carry `worldPath`; a MOVED answer `legIndex` and `pathIndex`. Agent ids
   * are shared with map agents: adding either kind replaces the other.
   */
  addWorld(agentId: number, worldId: string, start: WorldCellLike, goal: WorldCellLike,
           o: PathOptions & { replanIfCheaper?: number; progressiveExpansions?: number } = {}): number {
    return this.send({
      agentId,
      action: "WATCH_ACTION_ADD",
      worldPath: worldPathRequest(worldId, start, goal, o),
      replanIfCheaper: o.replanIfCheaper ?? 0,
      progressiveExpansions: o.progressiveExpansions ?? 0,
    });
  }

  /** The world agent is at `position`, [mapId, [x, y]]. */
  moveWorld(agentId: number, position: WorldCellLike): number {
    return this.send({ agentId, action: "WATCH_ACTION_MOVE", worldPosition: worldCell(position, "position") });
  }

  /** The world agent's new goal, [mapId, [x, y]]. */
  retargetWorld(agentId: number, goal: WorldCellLike): number {
    return this.send({ agentId, action: "WATCH_ACTION_RETARGET", worldGoal: worldCell(goal, "goal") });
  }

  remove(agentId: number): number {
    return this.send({ agentId, action: "WATCH_ACTION_REMOVE" });
  }

  close(): void {
    if (!this.closed) {
      this.closed = true;
      this.stream.end();
    }
  }

  cancel(): void {
    this.close();
    this.stream.cancel();
  }

  async *[Symbol.asyncIterator](): AsyncIterator<WatchEvent__Output> {
    let ended = false;
    try {
      for await (const event of this.stream) yield event as WatchEvent__Output;
      ended = true;
    } catch (e) {
      ended = true;
      const error = e as grpc.ServiceError;
      if (error.code === grpc.status.CANCELLED && this.closed) return;
      throw new GridstarError(error.code, error.details ?? error.message);
    } finally {
      // Leaving the loop early (break, return, a throw in its body) ends
      // the stream: nothing would read its events any more.
      if (!ended) this.cancel();
    }
  }
}
