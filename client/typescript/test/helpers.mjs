// Test helpers: the real gridstar-server on loopback (GRIDSTAR_BUILD names
// the build directory; CTest sets it), certificates by openssl, the sample
// maps.
import { spawn, execFileSync } from "node:child_process";
import { existsSync, mkdtempSync, readFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { dirname, join } from "node:path";
import { fileURLToPath } from "node:url";

export const ROOT = join(dirname(fileURLToPath(import.meta.url)), "..", "..", "..");
export const SAMPLE = join(ROOT, "data", "sample");
export const BUILD = process.env.GRIDSTAR_BUILD ?? join(ROOT, "build", "release");
// Deadlines the tests do not mean to hit.
export const GENEROUS_MS = 600_000;

export function tempDir() {
  return mkdtempSync(join(tmpdir(), "gridstar-ts-"));
}

const sleep = (ms) => new Promise((r) => setTimeout(r, ms));

/** A gridstar-server on loopback; port 0 picks a free one. */
export class Server {
  static async start(dir, flags = [], port = 0) {
    const portFile = join(dir, `port.${process.hrtime.bigint()}`);
    const proc = spawn(join(BUILD, "server", "gridstar-server"), [
      "--host=127.0.0.1", `--port=${port}`, `--port_file=${portFile}`, "--metrics_port=0",
      "--workers=2", ...flags], { stdio: "ignore" });
    let exited = false;
    proc.on("exit", () => { exited = true; });
    const end = Date.now() + GENEROUS_MS;
    while (!existsSync(portFile)) {
      if (exited || Date.now() > end) throw new Error("gridstar-server did not start");
      await sleep(20);
    }
    const s = new Server();
    s.proc = proc;
    s.port = Number(readFileSync(portFile, "ascii").trim());
    s.target = `127.0.0.1:${s.port}`;
    return s;
  }

  async kill() {
    if (this.proc.exitCode === null && this.proc.signalCode === null) {
      const gone = new Promise((r) => this.proc.on("exit", r));
      this.proc.kill("SIGKILL");
      await gone;
    }
  }
}

/** A CA, a server certificate for "gridstar" and 127.0.0.1, a client certificate. */
export function makeCerts(d) {
  const ec = "-newkey ec -pkeyopt ec_paramgen_curve:prime256v1 -nodes";
  execFileSync("sh", ["-c", `set -e; cd ${d}
openssl req -x509 ${ec} -keyout ca.key -out ca.crt -days 2 -subj /CN=test-ca
printf 'subjectAltName=DNS:gridstar,IP:127.0.0.1\\n' > san.ext
openssl req ${ec} -keyout server.key -out server.csr -subj /CN=gridstar
openssl x509 -req -in server.csr -CA ca.crt -CAkey ca.key -CAcreateserial -out server.crt -days 2 -extfile san.ext
openssl req ${ec} -keyout client.key -out client.csr -subj /CN=client
openssl x509 -req -in client.csr -CA ca.crt -CAkey ca.key -CAcreateserial -out client.crt -days 2`],
  { stdio: "ignore" });
}

/** (start, goal, optimal cost) of the sample dungeon's scenario. */
export function dungeonScenario(limit) {
  return readFileSync(join(SAMPLE, "dungeon.map.scen"), "ascii").split("\n").slice(1)
    .filter((l) => l.trim()).slice(0, limit).map((l) => {
      const c = l.split(/\s+/);
      return [[+c[4], +c[5]], [+c[6], +c[7]], +c[8]];
    });
}
