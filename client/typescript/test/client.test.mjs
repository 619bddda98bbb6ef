// The TypeScript client against the real gridstar-server: every call, every
// algorithm's path checked against the scenario's optimal lengths, batches
// and streams item by item, watched agents as an async iterator, map
// formats, precise errors, re-registration after a restart, keys and
// mutual TLS.
import assert from "node:assert/strict";
import { readFileSync, rmSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { after, before, describe, test } from "node:test";
import * as grpc from "@grpc/grpc-js";

import { canonicalName, cellsOf, Client, GridstarError } from "../dist/index.js";
import { dungeonScenario, GENEROUS_MS, makeCerts, SAMPLE, Server, tempDir } from "./helpers.mjs";

const DUNGEON = readFileSync(join(SAMPLE, "dungeon.map"), "ascii");

function checkPath(path, start, goal) {
  const cells = cellsOf(path);
  assert.deepEqual(cells[0], start);
  assert.deepEqual(cells.at(-1), goal);
  for (let i = 1; i < cells.length; ++i) {
    const [ax, ay] = cells[i - 1], [bx, by] = cells[i];
    assert.ok(Math.max(Math.abs(ax - bx), Math.abs(ay - by)) <= 1, `${ax},${ay} -> ${bx},${by}`);
  }
}

describe("a plaintext server", () => {
  let dir, server, c, info;
  before(async () => {
    dir = tempDir();
    server = await Server.start(dir);
    c = new Client(server.target, { deadlineMs: GENEROUS_MS });
    info = await c.registerMap("dungeon", { movingai: DUNGEON, jumpTable: true });
  });
  after(async () => {
    c.close();
    await server.kill();
    rmSync(dir, { recursive: true, force: true });
  });

  test("registering is idempotent and maps are listed", async () => {
    const again = await c.registerMap("dungeon", { movingai: DUNGEON, jumpTable: true });
    assert.equal(again.version, info.version);
    assert.equal(info.width, 128);
    assert.ok((await c.listMaps()).some((m) => m.id === "dungeon"));
    assert.equal(await c.health(), true);
    const named = await c.registerMap("dungeon-named", { movingai: DUNGEON, structures: { jump_table: 0, landmarks: 4 } });
    assert.equal(named.landmarks, 4);
    assert.equal(named.jumpTable, true);
  });

  test("every exact algorithm finds the optimal path, in any spelling", async () => {
    const queries = dungeonScenario(20);
    for (const algorithm of ["astar", "jps", "jps+", "JPS_PLUS", "ALGORITHM_DIJKSTRA", "alt", "bidirectional", "auto"]) {
      for (const [start, goal, optimal] of queries) {
        const path = await c.findPath("dungeon", start, goal, { algorithm });
        assert.ok(Math.abs(path.cost - optimal) < 1e-4, `${algorithm} ${start} ${goal}: ${path.cost} vs ${optimal}`);
        checkPath(path, start, goal);
      }
    }
    const p = await c.findPath("dungeon", [57, 73], [77, 77], { algorithm: "jps+" });
    assert.equal(p.algorithm, "ALGORITHM_JPS_PLUS");
    assert.equal(canonicalName("Algorithm", p.algorithm), "jps+");
  });

  test("a world of two floors answers across its stairs", async () => {
    await c.registerMap("upstairs", { movingai: DUNGEON });
    const world = await c.registerWorld("house", ["dungeon", "upstairs"], [
      { id: "stairs", from: ["dungeon", [1, 1]], to: ["upstairs", [126, 126]], cost: 5 },
      { id: "drop", from: { mapId: "upstairs", cell: { x: 120, y: 5 } }, to: ["dungeon", [5, 120]], cost: 0, oneWay: true },
    ]);
    assert.equal(world.linkCount, 2);
    const start = ["dungeon", [57, 73]], goal = ["upstairs", [77, 77]];
    const path = await c.findWorldPath("house", start, goal, { algorithm: "jps+" });
    const below = (await c.findPath("dungeon", [57, 73], [1, 1])).cost;
    const above = (await c.findPath("upstairs", [126, 126], [77, 77])).cost;
    assert.ok(Math.abs(path.cost - (below + 5 + above)) < 1e-6, `${path.cost}`);
    assert.deepEqual(path.linkIds, ["stairs"]);
    checkPath(path.legs[0], [57, 73], [1, 1]);
    await c.updateLinks("house", { close: ["stairs"] });
    await assert.rejects(c.findWorldPath("house", start, goal), (e) => e.code === grpc.status.FAILED_PRECONDITION);
    const [down, bad] = await c.findWorldPaths("house", [[goal, start], [goal, ["attic", [1, 1]]]]);
    assert.deepEqual(down.linkIds, ["drop"]);
    assert.ok(bad instanceof GridstarError && bad.code === grpc.status.INVALID_ARGUMENT);
    const reopened = await c.updateLinks("house", { open: ["stairs"], costs: { stairs: 1.5 } });
    assert.equal(Number(reopened.version), 3);
    assert.ok(Math.abs((await c.findWorldPath("house", start, goal)).cost - (below + 1.5 + above)) < 1e-6);
    assert.ok((await c.listWorlds()).some((w) => w.id === "house"));
    assert.throws(() => c.findWorldPath("house", ["dungeon", [0.5, 1]], goal), /start.cell: expected/);
    await c.deleteWorld("house");
    await assert.rejects(c.getWorld("house"), (e) => e.code === grpc.status.NOT_FOUND);
  });

  test("a batch answers every item and a bad item fails alone", async () => {
    const items = await c.findPaths("dungeon", [[[57, 73], [77, 77]], [[0, 0], [5, 5]], [[-1, 3], [5, 5]]]);
    assert.equal(items.length, 3);
    assert.ok(Math.abs(items[0].cost - 24.14213562) < 1e-4);
    assert.ok(items[1] instanceof GridstarError);
    assert.equal(items[1].code, grpc.status.INVALID_ARGUMENT);
    assert.match(items[2].details, /items\[2\]\.start/);
  });

  test("a stream answers every request once", async () => {
    const queries = dungeonScenario(40);
    const seen = new Map();
    for await (const item of c.findPathsStream("dungeon", queries.map(([s, g]) => [s, g]))) {
      assert.ok(!(item instanceof GridstarError), String(item));
      seen.set(Number(item.requestId), item.cost);
    }
    assert.equal(seen.size, queries.length);
    queries.forEach(([, , optimal], i) => assert.ok(Math.abs(seen.get(i + 1) - optimal) < 1e-4));
  });

  test("a watched agent gets a new path when an update blocks its own", async () => {
    await c.registerMap("watched", { movingai: DUNGEON });
    const watch = c.watchPaths();
    const events = watch[Symbol.asyncIterator]();
    const id = watch.add(1, "watched", [57, 73], [77, 77]);
    const added = (await events.next()).value;
    assert.equal(added.reason, "WATCH_REASON_ADDED");
    assert.equal(Number(added.requestId), id);
    const [x, y] = cellsOf(added.path)[10];
    await c.updateCells("watched", { cells: [{ cell: [x, y], cost: 0 }] });
    const blocked = (await events.next()).value;
    assert.equal(blocked.reason, "WATCH_REASON_BLOCKED");
    assert.ok(!cellsOf(blocked.path).some(([a, b]) => a === x && b === y));
    watch.close();
    for await (const _ of { [Symbol.asyncIterator]: () => events }) { /* drain */ }
    assert.throws(() => watch.move(1, [1, 1]), /closed/);
  });

  test("a watched world agent gets a new path when the link ahead closes", async () => {
    await c.registerMap("cellar", { movingai: DUNGEON });
    await c.registerWorld("inn", ["dungeon", "cellar"], [
      { id: "stairs", from: ["dungeon", [1, 1]], to: ["cellar", [126, 126]], cost: 5 },
      { id: "ladder", from: ["dungeon", [120, 5]], to: ["cellar", [5, 120]], cost: 50 },
    ], { replace: true });
    const watch = c.watchPaths();
    const events = watch[Symbol.asyncIterator]();
    const start = ["dungeon", [57, 73]], goal = ["cellar", [77, 77]];
    const id = watch.addWorld(7, "inn", start, goal);
    const added = (await events.next()).value;
    assert.equal(Number(added.requestId), id);
    assert.equal(added.reason, "WATCH_REASON_ADDED");
    const best = await c.findWorldPath("inn", start, goal);
    assert.ok(Math.abs(added.worldPath.cost - best.cost) < 1e-6);
    const [x, y] = cellsOf(added.worldPath.legs[0])[3];
    watch.moveWorld(7, ["dungeon", [x, y]]);
    const moved = (await events.next()).value;
    assert.equal(moved.reason, "WATCH_REASON_MOVED");
    assert.equal(moved.legIndex, 0);
    assert.equal(Number(moved.pathIndex), 3);
    const closed = await c.updateLinks("inn", { close: [added.worldPath.linkIds[0]] });
    const pushed = (await events.next()).value;
    assert.equal(pushed.reason, "WATCH_REASON_BLOCKED");
    assert.equal(pushed.worldVersion, closed.version);
    assert.ok(!pushed.worldPath.linkIds.includes(added.worldPath.linkIds[0]));
    watch.retargetWorld(7, ["dungeon", [57, 73]]);
    const retargeted = (await events.next()).value;
    assert.equal(retargeted.reason, "WATCH_REASON_RETARGETED");
    watch.close();
    for await (const _ of { [Symbol.asyncIterator]: () => events }) { /* drain */ }
    await c.deleteWorld("inn");
  });

  test("updates change paths and versions; a stale expected version is ABORTED", async () => {
    await c.registerMap("room", { raw: new Uint8Array(27).fill(1), width: 9, height: 3 });
    const v2 = await c.updateCells("room", { rects: [{ min: [4, 0], max: [5, 2], cost: 0 }] });
    assert.equal(v2.version, "2");
    const path = await c.findPath("room", [0, 0], [8, 0]);
    assert.ok(cellsOf(path).some(([a, b]) => a === 4 && b === 2));
    await assert.rejects(c.updateCells("room", { cells: [{ cell: [0, 0], cost: 3 }], expectedVersion: 1 }),
      (e) => e instanceof GridstarError && e.code === grpc.status.ABORTED);
    const got = await c.getMap("room", { includeCells: true });
    assert.equal(got.raw[4], 0);
    await c.deleteMap("room");
    await assert.rejects(c.getMap("room"), (e) => e.code === grpc.status.NOT_FOUND && /room/.test(e.details));
  });

  test("groups, flow fields and formats", async () => {
    const group = await c.findGroupPaths("dungeon", [[8, 58], [9, 58]], [[97, 52]], { method: "splice" });
    assert.equal(group.units.length, 2);
    const field = await c.computeFlowField("dungeon", [77, 77]);
    assert.equal(field.costs.length, 128 * 128);
    const tavern = await c.registerMapFile("tavern", join(SAMPLE, "tavern.tmx"),
      { tiledRules: [{ className: "water", cost: 9 }] });
    assert.equal(tavern.width, 32);
    const cells = (await c.getMap("tavern", { includeCells: true })).raw;
    assert.equal(cells[1 * 32 + 26], 9);
    await c.registerMapFile("pond", join(SAMPLE, "courtyard.png"),
      { imageMapping: { palette: [{ rgb: 0xffffff, cost: 1 }, { rgb: 0, cost: 0 }, { rgb: 0x2080ff, cost: 3, area: 2 }] } });
    const pond = await c.getMap("pond", { includeCells: true });
    assert.deepEqual([pond.raw[20 * 48 + 30], pond.areas[20 * 48 + 30]], [3, 2]);
  });

  test("bad requests get precise statuses; bad arguments are refused before sending", async () => {
    await assert.rejects(c.findPath("nowhere", [0, 0], [1, 1]),
      (e) => e.code === grpc.status.NOT_FOUND && e.codeName === "NOT_FOUND" && /nowhere/.test(e.details));
    await assert.rejects(c.findPath("dungeon", [0, 0], [1, 1], { weight: 1000, algorithm: "weighted" }),
      (e) => e.code === grpc.status.INVALID_ARGUMENT && /weight/.test(e.details));
    const before = c.attempts;
    assert.throws(() => c.findPath("dungeon", [0.5, 0], [1, 1]), /start: expected/);
    assert.throws(() => c.findPath("dungeon", [0, 0], [1, 1], { algorithm: "fastest" }), /algorithm: unknown value "fastest" \(one of .*jps\+/);
    await assert.rejects(c.registerMap("x", {}), /exactly one of/);
    await assert.rejects(c.registerMap("x", { movingai: DUNGEON, imageMapping: { invert: true } }), /imageMapping/);
    assert.equal(c.attempts, before);
  });
});

test("a restarted empty server gets the map and its updates again", async () => {
  const dir = tempDir();
  let server = await Server.start(dir);
  const c = new Client(server.target, { deadlineMs: GENEROUS_MS });
  try {
    await c.registerMap("room", { raw: new Uint8Array(27).fill(1), width: 9, height: 3 });
    await c.updateCells("room", { rects: [{ min: [4, 0], max: [5, 2], cost: 0 }] });
    const before = await c.findPath("room", [0, 0], [8, 0]);
    await server.kill();
    server = await Server.start(dir, [], server.port);  // Same address, no maps.
    const after = await c.findPath("room", [0, 0], [8, 0]);
    assert.equal(c.reregistrations, 1);
    assert.ok(Math.abs(after.cost - before.cost) < 1e-9);
    assert.equal(after.mapVersion, "2");
    assert.ok(cellsOf(after).some(([x, y]) => x === 4 && y === 2));
  } finally {
    c.close();
    await server.kill();
    rmSync(dir, { recursive: true, force: true });
  }
});

describe("mutual TLS and keys", () => {
  const ADMIN = "admin-key-0123456789abcdef", QUERY = "query-key-0123456789abcdef";
  let dir, server;
  const client = (o = {}) => new Client(server.target, {
    deadlineMs: GENEROUS_MS, tlsCaFile: `${dir}/ca.crt`, tlsCertFile: `${dir}/client.crt`,
    tlsKeyFile: `${dir}/client.key`, tlsServerName: "gridstar", ...o });
  before(async () => {
    dir = tempDir();
    makeCerts(dir);
    writeFileSync(`${dir}/admin.tokens`, `# admin keys\n${ADMIN}\n`);
    writeFileSync(`${dir}/query.tokens`, `# query keys\n${QUERY}\n`);
    server = await Server.start(dir, [`--tls_cert=${dir}/server.crt`, `--tls_key=${dir}/server.key`,
      `--tls_client_ca=${dir}/ca.crt`, `--admin_token_file=${dir}/admin.tokens`,
      `--query_token_file=${dir}/query.tokens`]);
  });
  after(async () => {
    await server.kill();
    rmSync(dir, { recursive: true, force: true });
  });

  test("keys decide what a caller may do", async () => {
    const admin = client({ tokenFile: `${dir}/admin.tokens` });
    await admin.registerMap("dungeon", { movingai: DUNGEON });
    admin.close();
    const query = client({ token: QUERY });
    assert.ok(Math.abs((await query.findPath("dungeon", [57, 73], [77, 77])).cost - 24.14213562) < 1e-4);
    await assert.rejects(query.updateCells("dungeon", { cells: [{ cell: [1, 1], cost: 0 }] }),
      (e) => e.code === grpc.status.PERMISSION_DENIED && !e.details.includes(QUERY));
    query.close();
    const nobody = client({ token: "not-a-key-0123456789" });
    await assert.rejects(nobody.listMaps(), (e) => e.code === grpc.status.UNAUTHENTICATED);
    assert.equal(await nobody.health(), true);  // Health needs no key.
    nobody.close();
    process.env.GRIDSTAR_TOKEN = QUERY;
    try {
      const fromEnv = client();
      await fromEnv.listMaps();
      fromEnv.close();
    } finally {
      delete process.env.GRIDSTAR_TOKEN;
    }
  });

  test("without a client certificate or without TLS the call is refused", async () => {
    const noCert = client({ token: QUERY, tlsCertFile: undefined, tlsKeyFile: undefined, maxAttempts: 1 });
    await assert.rejects(noCert.listMaps(), (e) => e.code === grpc.status.UNAVAILABLE);
    noCert.close();
    const plain = new Client(server.target, { token: QUERY, maxAttempts: 1, deadlineMs: GENEROUS_MS });
    await assert.rejects(plain.listMaps(), (e) => e.code === grpc.status.UNAVAILABLE);
    plain.close();
    assert.throws(() => client({ tlsKeyFile: undefined }), /needs its key/);
  });
});
