// Retries, the routing header and the token, against a stand-in server
// (grpc-js) that answers UNAVAILABLE a given number of times and records
// what each attempt carried.
import assert from "node:assert/strict";
import { after, before, test } from "node:test";
import * as grpc from "@grpc/grpc-js";
import * as protoLoader from "@grpc/proto-loader";
import { join } from "node:path";

import { Client, GridstarError, MAP_HEADER } from "../dist/index.js";
import { ROOT } from "./helpers.mjs";

const definition = protoLoader.loadSync("gridstar/v1/gridstar.proto",
  { includeDirs: [join(ROOT, "proto")], longs: String, enums: String, defaults: true });
const service = grpc.loadPackageDefinition(definition).gridstar.v1.Pathfinding.service;

let server, target, failures = 0;
const seen = [];
function handler(name, reply) {
  return (call, callback) => {
    seen.push({ name, map: call.metadata.get(MAP_HEADER)[0], auth: call.metadata.get("authorization")[0] });
    if (failures > 0) {
      failures -= 1;
      callback({ code: grpc.status.UNAVAILABLE, details: "stand-in: not yet" });
    } else {
      callback(null, reply);
    }
  };
}

before(async () => {
  server = new grpc.Server();
  server.addService(service, {
    FindPath: handler("FindPath", { cost: 7, cells: [0, 0, 1, 0] }),
    UpdateCells: handler("UpdateCells", { id: "m", version: "2" }),
    ListMaps: handler("ListMaps", { maps: [] }),
  });
  const port = await new Promise((resolve, reject) =>
    server.bindAsync("127.0.0.1:0", grpc.ServerCredentials.createInsecure(), (e, p) => (e ? reject(e) : resolve(p))));
  target = `127.0.0.1:${port}`;
});
after(() => server.forceShutdown());

test("idempotent calls retry UNAVAILABLE and carry the header and the token", async () => {
  const c = new Client(target, { token: "key-1", initialBackoffMs: 1, maxAttempts: 4 });
  seen.length = 0;
  failures = 3;
  const path = await c.findPath("m", [0, 0], [1, 0]);
  assert.equal(path.cost, 7);
  assert.equal(c.attempts, 4);
  assert.equal(seen.length, 4);
  for (const s of seen) assert.deepEqual(s, { name: "FindPath", map: "m", auth: "Bearer key-1" });
  c.close();
});

test("attempts stop at maxAttempts", async () => {
  const c = new Client(target, { initialBackoffMs: 1, maxAttempts: 2 });
  failures = 5;
  await assert.rejects(c.listMaps(), (e) => e instanceof GridstarError && e.code === grpc.status.UNAVAILABLE);
  assert.equal(c.attempts, 2);
  failures = 0;
  c.close();
});

test("updates are not retried", async () => {
  const c = new Client(target, { initialBackoffMs: 1 });
  seen.length = 0;
  failures = 1;
  await assert.rejects(c.updateCells("m", { cells: [{ cell: [0, 0], cost: 0 }] }),
    (e) => e.code === grpc.status.UNAVAILABLE);
  assert.equal(seen.length, 1);
  assert.equal(seen[0].map, "m");
  assert.equal(seen[0].auth, undefined);
  failures = 0;
  c.close();
});

test("health says UNAVAILABLE after every attempt when nothing listens", async () => {
  const c = new Client("127.0.0.1:1", { initialBackoffMs: 1, maxAttempts: 3, deadlineMs: 60_000 });
  await assert.rejects(c.health(), (e) => e.code === grpc.status.UNAVAILABLE);
  assert.equal(c.attempts, 3);
  c.close();
});

test("the tilesets a Tiled map names are found in XML and JSON", async () => {
  const { tiledTilesetSources } = await import("../dist/index.js");
  assert.deepEqual(tiledTilesetSources(
    "<map><!-- <tileset source=\"no.tsx\"/> --><tileset firstgid=\"1\" source=\"a&amp;b.tsx\"/>" +
    "<tileset firstgid='9' source='c&#x41;.tsj'/><tileset firstgid=\"20\" name=\"inline\"/></map>"),
    ["a&b.tsx", "cA.tsj"]);
  assert.deepEqual(tiledTilesetSources('{"tilesets": [{"firstgid": 1, "source": "x.tsj"}, {"firstgid": 3}]}'),
    ["x.tsj"]);
});
