// The README's quickstart, outside the repository: type-checked by tsc
// (--strict) against the built package as a project would install it, then
// run against the real server.
import assert from "node:assert/strict";
import { execFileSync } from "node:child_process";
import { mkdirSync, readFileSync, rmSync, symlinkSync, writeFileSync } from "node:fs";
import { dirname, join } from "node:path";
import { fileURLToPath } from "node:url";
import { test } from "node:test";

import { ROOT, Server, tempDir } from "./helpers.mjs";

const PACKAGE = dirname(dirname(fileURLToPath(import.meta.url)));

test("the README's quickstart type-checks and runs", async () => {
  const readme = readFileSync(join(PACKAGE, "README.md"), "utf8");
  const quickstart = readme.slice(readme.indexOf("## Quickstart"));
  const code = /```ts\n([\s\S]*?)```/.exec(quickstart)[1];
  assert.ok(code.includes("127.0.0.1:50051"));
  const dir = tempDir();
  const server = await Server.start(dir);
  try {
    // A project with the package installed (as `npm install PATH` links it).
    const project = join(dir, "project");
    mkdirSync(join(project, "node_modules"), { recursive: true });
    symlinkSync(PACKAGE, join(project, "node_modules", "gridstar-client"));
    writeFileSync(join(project, "quickstart.ts"), code.replace("127.0.0.1:50051", server.target));
    execFileSync(join(PACKAGE, "node_modules", ".bin", "tsc"), [
      "--strict", "--target", "ES2022", "--module", "commonjs", "--moduleResolution", "node",
      "--esModuleInterop", "--skipLibCheck", "--types", "node",
      "--typeRoots", join(PACKAGE, "node_modules", "@types"),
      "--outDir", join(project, "out"), join(project, "quickstart.ts")], { stdio: "inherit" });
    const out = execFileSync("node", [join(project, "out", "quickstart.js")],
      { cwd: ROOT, encoding: "utf8" });
    const lines = out.trim().split("\n");
    assert.equal(lines[0], "registered quickstart 128 x 128");
    assert.match(lines[1], /^path 24\.142 ALGORITHM_JPS_PLUS \[ \[ 57, 73 \], \[ \d+, \d+ \] \]$/);
    assert.equal(lines[2], "item 24.142");
    assert.equal(lines[3], "item INVALID_ARGUMENT");
    assert.equal(lines[4], "event WATCH_REASON_ADDED");
    assert.equal(lines[5], "event WATCH_REASON_BLOCKED");
    assert.match(lines[6], /^tavern 32 x 20 passable \d+$/);
  } finally {
    await server.kill();
    rmSync(dir, { recursive: true, force: true });
  }
});
