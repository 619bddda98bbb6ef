// The web console in a real browser: Debian's chromium, headless, driven
// through puppeteer-core against the real gridstar-server (GRIDSTAR_BUILD
// names the build directory). It picks a map, clicks a start and a goal,
// and checks the path drawn and the numbers shown against a gRPC answer (the
// TypeScript client); a cell painted by another client appears without a
// reload; a watched agent's pushes arrive; the metrics panel fills; a value
// with markup from the server stays text; and the 8192 x 8192 world opens
// (its tiles' times printed, not asserted).
import assert from "node:assert/strict";
import { spawn, execFileSync } from "node:child_process";
import { existsSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { dirname, join } from "node:path";
import { fileURLToPath } from "node:url";
import { after, before, test } from "node:test";
import puppeteer from "puppeteer-core";

const ROOT = join(dirname(fileURLToPath(import.meta.url)), "..", "..");
const BUILD = process.env.GRIDSTAR_BUILD ?? join(ROOT, "build", "release");
const SHARED = join(ROOT, "..", "shared", "movingai");
const { Client, cellsOf } = await import(join(ROOT, "client", "typescript", "dist", "index.js"));
const GENEROUS_MS = 600_000;
const sleep = (ms) => new Promise((r) => setTimeout(r, ms));

let dir, server, grpcTarget, http, client, browser, page;
const problems = [];  // Console errors, page errors and CSP reports.

const processes = [];
async function startServer(flags) {
  const stamp = `${process.hrtime.bigint()}`;
  const portFile = join(dir, `port.${stamp}`), log = join(dir, `log.${stamp}`);
  const out = (await import("node:fs")).openSync(log, "w");
  const proc = spawn(join(BUILD, "server", "gridstar-server"), [
    "--host=127.0.0.1", "--port=0", `--port_file=${portFile}`, "--metrics_port=0",
    "--http_port=-1", "--http_console", "--workers=2", ...flags], { stdio: ["ignore", "ignore", out] });
  processes.push(proc);
  const end = Date.now() + GENEROUS_MS;
  while (!existsSync(portFile)) {
    if (proc.exitCode !== null || Date.now() > end) throw new Error(`gridstar-server did not start: ${readFileSync(log, "utf8")}`);
    await sleep(20);
  }
  grpcTarget = `127.0.0.1:${readFileSync(portFile, "ascii").trim()}`;
  // The HTTP port is logged before the port file is written.
  http = `http://127.0.0.1:${/HTTP\/JSON on :(\d+)/.exec(readFileSync(log, "utf8"))[1]}`;
  return proc;
}

// The canvas pixel (in page coordinates) of a cell's centre, from the
// console's own view state.
async function cellPoint(cell) {
  return page.evaluate(([x, y]) => {
    const s = window.gridstarConsole, canvas = document.getElementById("view");
    const rect = canvas.getBoundingClientRect(), k = 256 / s.span;
    return { x: rect.left + (x + 0.5 - s.x) * k * rect.width / canvas.width,
      y: rect.top + (y + 0.5 - s.y) * k * rect.height / canvas.height };
  }, cell);
}
async function pixel(cell) {
  return page.evaluate(([x, y]) => {
    const s = window.gridstarConsole, canvas = document.getElementById("view");
    const k = 256 / s.span;
    const d = canvas.getContext("2d").getImageData(Math.floor((x + 0.5 - s.x) * k),
      Math.floor((y + 0.5 - s.y) * k), 1, 1).data;
    return [d[0], d[1], d[2]];
  }, cell);
}
async function selectMap(id) {
  await page.waitForFunction((m) => [...document.querySelectorAll("#maps li")].some((li) => li.dataset.id === m),
    { timeout: GENEROUS_MS }, id);
  await page.evaluate((m) => [...document.querySelectorAll("#maps li")].find((li) => li.dataset.id === m).click(), id);
  // Every visible tile drawn.
  await page.waitForFunction(() => {
    const s = window.gridstarConsole;
    return s.map && s.tiles.size > 0 && [...s.tiles.values()].every((t) => t.bitmap);
  }, { timeout: GENEROUS_MS, polling: 50 });
}
async function clickCell(cell) {
  const p = await cellPoint(cell);
  await page.mouse.click(p.x, p.y);
}
const text = (selector) => page.$eval(selector, (e) => e.textContent);

before(async () => {
  dir = mkdtempSync(join(tmpdir(), "gridstar-console-"));
  server = await startServer([]);
  client = new Client(grpcTarget, { deadlineMs: GENEROUS_MS });
  await client.registerMapFile("tavern", join(ROOT, "data", "sample", "tavern.tmx"));
  await client.registerMapFile("dungeon", join(ROOT, "data", "sample", "dungeon.map"), { jumpTable: true });
  browser = await puppeteer.launch({ executablePath: process.env.CHROMIUM ?? "/usr/bin/chromium",
    headless: true, args: ["--no-sandbox", "--disable-gpu", "--disable-dev-shm-usage"] });
  page = await browser.newPage();
  await page.setViewport({ width: 1400, height: 1000 });
  page.on("console", (m) => { if (m.type() === "error") problems.push(`console: ${m.text()}`); });
  page.on("pageerror", (e) => problems.push(`page: ${e.message}`));
});

after(async () => {
  await browser?.close();
  client?.close();
  for (const p of processes) p.kill("SIGKILL");
  rmSync(dir, { recursive: true, force: true });
});

test("the page loads only from its server, under its Content-Security-Policy", async () => {
  const response = await page.goto(`${http}/console`, { waitUntil: "load" });
  assert.equal(response.status(), 200);
  assert.match(response.headers()["content-security-policy"], /default-src 'none'; script-src 'self'/);
  const app = ["app.js", "panels.js"]
    .map((f) => readFileSync(join(ROOT, "server", "http", "console", f), "utf8")).join("\n");
  // Values reach the page as text: no markup is ever parsed from them.
  for (const sink of ["innerHTML", "outerHTML", "insertAdjacentHTML", "document.write", "eval("]) {
    assert.ok(!app.includes(sink), sink);
  }
  const html = readFileSync(join(ROOT, "server", "http", "console", "index.html"), "utf8");
  assert.ok(!/<script>|\son[a-z]+=|https?:\/\//.test(html), "inline script, handler or other host");
});

test("a path clicked on the map is the gRPC answer, drawn, with its numbers; two algorithms side by side", async () => {
  await selectMap("tavern");
  const start = [2, 2], goal = [30, 17];
  await clickCell(start);
  await clickCell(goal);
  await page.waitForFunction(() => document.querySelector("#row-a .cost").textContent !== "", { timeout: GENEROUS_MS });
  const want = await client.findPath("tavern", start, goal, { algorithm: "auto" });
  assert.equal(await text("#row-a .cost"), want.cost.toFixed(3));
  assert.equal(Number(await text("#row-a .cells")), want.cells.length / 2);
  assert.equal(await text("#row-a .version"), want.mapVersion);
  const shown = await page.evaluate(() => window.gridstarConsole.answers.a.cells);
  assert.deepEqual(shown, want.cells);
  // The path is drawn: the middle cell of the path in A's colour.
  const middle = cellsOf(want)[Math.floor(want.cells.length / 4)];
  assert.deepEqual(await pixel(middle), [40, 170, 60]);
  // B beside it: astar, exact, the same cost; drawn over A in B's colour.
  await page.select("#algo-b", "ALGORITHM_ASTAR");
  await page.waitForFunction(() => document.querySelector("#row-b .algo").textContent === "astar", { timeout: GENEROUS_MS });
  assert.equal(await text("#row-b .cost"), want.cost.toFixed(3));
  const b = await page.evaluate(() => window.gridstarConsole.answers.b.cells);
  const bMiddle = [b[2 * Math.floor(b.length / 4)], b[2 * Math.floor(b.length / 4) + 1]];
  await page.waitForFunction(() => !window.gridstarConsole.redraw);
  assert.deepEqual(await pixel(bMiddle), [106, 63, 200]);
  // Expanded cells on demand.
  await page.click("#trace");
  await page.waitForFunction(() => (window.gridstarConsole.answers.a?.trace || []).length > 0, { timeout: GENEROUS_MS });
  assert.ok(Number(await text("#row-a .expanded")) > 0);
});

test("a cell painted by another client appears without a reload, and the paths follow", async () => {
  const cell = [10, 7];  // Floor, away from the path.
  assert.notDeepEqual(await pixel(cell), [32, 32, 32]);
  const info = await client.updateCells("tavern", { cells: [{ cell, cost: 0 }] });
  // The new version's tiles all drawn (the set is empty between dropping the
  // old tiles and the next frame asking for new ones), and the paths asked
  // again: the earlier answer's expanded cells are drawn over the map until
  // the new answer replaces it.
  await page.waitForFunction((v) => {
    const s = window.gridstarConsole;
    return s.version === v && s.tiles.size > 0 && [...s.tiles.values()].every((t) => t.bitmap) &&
      document.querySelector("#row-a .version").textContent === v;
  }, { timeout: GENEROUS_MS, polling: 50 }, info.version);
  await page.waitForFunction(() => !window.gridstarConsole.redraw);
  assert.deepEqual(await pixel(cell), [32, 32, 32]);
  const li = await page.$eval("#maps li.current .detail", (e) => e.textContent);
  assert.match(li, new RegExp(`^v${info.version} `));
});

test("a watched agent's pushes are shown as they happen", async () => {
  await page.click("#watch");
  await page.waitForFunction(() => document.querySelector("#events li[data-reason='added']"), { timeout: GENEROUS_MS });
  // A cell of the agent's own path (its search may break ties otherwise
  // than the path shown for A).
  await page.waitForFunction(() => [...window.gridstarConsole.watch.agents.values()][0].cells,
    { timeout: GENEROUS_MS });
  const path = await page.evaluate(() => [...window.gridstarConsole.watch.agents.values()][0].cells);
  const onPath = [path[20], path[21]];
  await client.updateCells("tavern", { cells: [{ cell: onPath, cost: 0 }] });
  await page.waitForFunction(() => document.querySelector("#events li[data-reason='blocked']"), { timeout: GENEROUS_MS });
  const shown = await page.evaluate(() => [...window.gridstarConsole.watch.agents.values()][0].cells);
  assert.ok(!cellsOf(shown).some(([x, y]) => x === onPath[0] && y === onPath[1]));
  if (process.env.CONSOLE_SCREENSHOTS) {
    await page.waitForFunction(() => !window.gridstarConsole.redraw);
    await page.screenshot({ path: join(process.env.CONSOLE_SCREENSHOTS, "console-tavern.png") });
  }
});

test("another client's watched agent is drawn, and its replan shown", async () => {
  const watch = client.watchPaths();
  const events = watch[Symbol.asyncIterator]();
  watch.add(77, "tavern", [2, 12], [29, 3]);
  const added = (await events.next()).value;
  assert.equal(added.reason, "WATCH_REASON_ADDED");
  await page.waitForFunction(() => document.querySelector("#agents li[data-agent='77']"), { timeout: GENEROUS_MS });
  const cells = cellsOf(added.path);
  const onPath = cells[Math.floor(cells.length / 2)];
  await client.updateCells("tavern", { cells: [{ cell: onPath, cost: 0 }] });
  assert.equal((await events.next()).value.reason, "WATCH_REASON_BLOCKED");
  await page.waitForFunction(() => document.querySelector("#agents li[data-agent='77'][data-blocked='1']"),
    { timeout: GENEROUS_MS });
  const shown = await page.evaluate(() => window.gridstarConsole.agents.find((a) => a.agentId === "77").remaining);
  assert.ok(!cellsOf(shown).some(([x, y]) => x === onPath[0] && y === onPath[1]));
  watch.cancel();
});

test("the service's own figures fill the panel", async () => {
  await page.waitForFunction(() => {
    const dd = [...document.querySelectorAll("#metrics dt")].find((d) => d.textContent === "requests");
    return dd && Number(dd.nextElementSibling.textContent) > 0;
  }, { timeout: GENEROUS_MS });
  const names = await page.$$eval("#metrics dt", (d) => d.map((e) => e.textContent));
  for (const n of ["per second", "latency p99", "queued searches"]) assert.ok(names.includes(n), n);
});

test("a value with markup from the server stays text", async () => {
  // The server's ids cannot hold markup; a hostile answer is staged.
  const evil = "<img src=x onerror=\"window.__xss=1\">";
  await page.setRequestInterception(true);
  const handler = async (request) => {
    if (request.url().endsWith("/ListMaps")) {
      const maps = (await client.listMaps()).map((m) => ({ ...m, id: m.id === "dungeon" ? evil : m.id }));
      return request.respond({ status: 200, contentType: "application/json", body: JSON.stringify({ maps }) });
    }
    return request.continue();
  };
  page.on("request", handler);
  await page.waitForFunction((e) => [...document.querySelectorAll("#maps li strong")].some((s) => s.textContent === e),
    { timeout: GENEROUS_MS }, evil);
  assert.equal(await page.evaluate(() => window.__xss), undefined);
  assert.equal(await page.$$eval("#maps img", (i) => i.length), 0);
  page.off("request", handler);
  await page.setRequestInterception(false);
});

test("no script error and no policy violation on the way", () => {
  assert.deepEqual(problems, []);
});

test("the 8192 x 8192 world opens; its tiles' times", async (t) => {
  const source = join(SHARED, "cities", "Berlin_0_1024.map");
  if (!existsSync(source)) {
    if (process.env.CI) assert.fail(`${source} is missing`);
    t.skip(`${source} is missing`);
    return;
  }
  execFileSync("python3", [join(ROOT, "tests", "bench", "make_world.py"), source, join(dir, "world.pgm"),
    join(dir, "world.scen"), "10"]);
  server.kill("SIGKILL");
  server = await startServer([`--preload=world=${join(dir, "world.pgm")}`]);
  await page.goto(`${http}/console`, { waitUntil: "load" });
  await selectMap("world");
  // Zoom in four times at the centre and, at each level, drag the view a
  // third of its width four ways, so that tiles of five zoom levels are
  // drawn, each burst as a user's pan asks for them.
  const box = await page.$eval("#view", (c) => { const r = c.getBoundingClientRect(); return [r.left + r.width / 2, r.top + r.height / 2, r.width]; });
  const allDrawn = () => page.waitForFunction(() => [...window.gridstarConsole.tiles.values()].every((tl) => tl.bitmap), { timeout: GENEROUS_MS, polling: 50 });
  for (let i = 0; i < 4; ++i) {
    await page.mouse.move(box[0], box[1]);
    await page.mouse.wheel({ deltaY: -100 });
    await allDrawn();
    for (const [dx, dy] of [[1, 0], [0, 1], [-1, 0], [0, -1]]) {
      await page.mouse.move(box[0], box[1]);
      await page.mouse.down();
      await page.mouse.move(box[0] + dx * box[2] / 3, box[1] + dy * box[2] / 3, { steps: 4 });
      await page.mouse.up();
      await allDrawn();
    }
  }
  // Each tile's time in the server (its Server-Timing) and in the browser
  // (request sent to response read, queueing on the page's connections
  // included).
  const entries = await page.evaluate(() => performance.getEntriesByType("resource")
    .filter((e) => e.name.includes("/console/tile") && e.name.includes("map=world"))
    .map((e) => [(e.serverTiming.find((t) => t.name === "draw") || {}).duration, e.responseEnd - e.requestStart]));
  assert.ok(entries.length > 0);
  assert.ok(entries.every(([server]) => server !== undefined), "every tile says its server time");
  const at = (v, q) => v[Math.min(v.length - 1, Math.floor(q * v.length))];
  const serverTimes = entries.map((e) => e[0]).sort((a, b) => a - b);
  const browserTimes = entries.map((e) => e[1]).sort((a, b) => a - b);
  console.log(`world tiles: ${entries.length}; server-side p50 ${at(serverTimes, 0.5).toFixed(1)} ms, ` +
              `p99 ${at(serverTimes, 0.99).toFixed(1)} ms, max ${serverTimes.at(-1).toFixed(1)} ms; in the browser ` +
              `p50 ${at(browserTimes, 0.5).toFixed(1)} ms, p99 ${at(browserTimes, 0.99).toFixed(1)} ms`);
  if (process.env.CONSOLE_SCREENSHOTS) {
    await page.screenshot({ path: join(process.env.CONSOLE_SCREENSHOTS, "console-world.png") });
  }
});
