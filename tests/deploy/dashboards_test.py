"""Every Grafana panel and every Prometheus rule returns a value on a healthy,
loaded server: a real Prometheus (Debian's) with deploy/prometheus's rules
scrapes a real gridstar-server (with keys, on a shared store in a real
redis-server, so that the store's panel and alerts have series too) while
the gridstar CLI loads it with every kind of call. promtool's rule tests use made-up series; this test
is what sees "No data".

Run by CTest as: /usr/bin/python3 tests/deploy/dashboards_test.py BUILD_DIR
Exits 77 (skipped) without prometheus or redis-server outside CI, fails
without them in CI.
"""

import json
import math
import os
import re
import shutil
import socket
import subprocess
import sys
import tempfile
import time
import unittest
import urllib.parse
import urllib.request

import yaml

ROOT = os.path.abspath(os.path.join(os.path.dirname(__file__), "..", ".."))
BUILD = None
ADMIN = "admin-key-0123456789abcdef"
QUERY = "query-key-0123456789abcdef"
# Waits the test does not mean to hit: a slow machine only takes longer.
GENEROUS_S = 300


def free_port():
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


def dashboard_exprs():
    with open(os.path.join(ROOT, "deploy/grafana/dashboards/gridstar.json"),
              encoding="utf-8") as f:
        dash = json.load(f)
    return [(p["title"], t["expr"]) for p in dash["panels"] for t in p["targets"]]


def rules():
    with open(os.path.join(ROOT, "deploy/prometheus/rules/gridstar.rules.yml"),
              encoding="utf-8") as f:
        return [r for g in yaml.safe_load(f)["groups"] for r in g["rules"]]


def alert_operand(expr):
    """An alert's expression without its threshold: what must have data
    on a healthy server even though the alert does not fire."""
    m = re.match(r"^(.*?)\s*(>=|<=|==|!=|>|<)\s*[0-9.e+-]+\s*$", expr.strip(), re.S)
    return m.group(1) if m else expr


class DashboardsTest(unittest.TestCase):
    @classmethod
    def setUpClass(cls):
        cls.tmp = tempfile.mkdtemp()
        cls.procs = []
        tokens = os.path.join(cls.tmp, "admin.tokens")
        with open(tokens, "w", encoding="utf-8") as f:
            f.write(ADMIN + "\n")
        with open(os.path.join(cls.tmp, "query.tokens"), "w", encoding="utf-8") as f:
            f.write(QUERY + "\n")
        redis_port = free_port()
        cls.start([shutil.which("redis-server"), "--port", str(redis_port),
                   "--bind", "127.0.0.1", "--save", "", "--appendonly", "no",
                   "--dir", cls.tmp])
        deadline = time.monotonic() + GENEROUS_S
        while True:
            try:
                with socket.create_connection(("127.0.0.1", redis_port), timeout=5) as c:
                    c.sendall(b"PING\r\n")
                    if c.recv(16).startswith(b"+PONG"):
                        break
            except OSError:
                pass
            assert time.monotonic() < deadline, "redis-server did not start"
            time.sleep(0.05)
        cls.metrics_port = free_port()
        port_file = os.path.join(cls.tmp, "port")
        sample = os.path.join(ROOT, "data", "sample")
        cls.start([os.path.join(BUILD, "server", "gridstar-server"),
                   "--host=127.0.0.1", "--port=0", "--port_file=" + port_file,
                   f"--metrics_port={cls.metrics_port}", "--workers=2",
                   f"--store=redis://127.0.0.1:{redis_port}",
                   "--admin_token_file=" + tokens,
                   "--query_token_file=" + os.path.join(cls.tmp, "query.tokens"),
                   "--preload=dungeon=" + os.path.join(sample, "dungeon.map"),
                   "--preload=terrain=" + os.path.join(sample, "terrain.pgm")])
        deadline = time.monotonic() + GENEROUS_S
        while not os.path.exists(port_file):
            assert time.monotonic() < deadline, "the server did not start"
            time.sleep(0.05)
        with open(port_file, encoding="utf-8") as f:
            cls.grpc = "127.0.0.1:" + f.read().strip()

        # Prometheus: 1 s scrapes and rule evaluations, the repo's rules.
        cls.prom_port = free_port()
        config = os.path.join(cls.tmp, "prometheus.yml")
        with open(config, "w", encoding="utf-8") as f:
            yaml.safe_dump({
                "global": {"scrape_interval": "1s", "evaluation_interval": "1s"},
                "rule_files": [os.path.join(ROOT, "deploy/prometheus/rules/gridstar.rules.yml")],
                "scrape_configs": [{
                    "job_name": "gridstar",
                    "static_configs": [{"targets": [f"127.0.0.1:{cls.metrics_port}"]}],
                }],
            }, f)
        cls.start([shutil.which("prometheus"), "--config.file=" + config,
                   "--storage.tsdb.path=" + os.path.join(cls.tmp, "tsdb"),
                   f"--web.listen-address=127.0.0.1:{cls.prom_port}"])

        # Load: paths (unary, batched, streamed) with the query key; flow
        # fields, groups, updates, map reads with the admin key.
        cli = [os.path.join(BUILD, "client", "gridstar"), "--server=" + cls.grpc,
               "--deadline=300s"]
        env_query = dict(os.environ, GRIDSTAR_TOKEN=QUERY)
        env_admin = dict(os.environ, GRIDSTAR_TOKEN=ADMIN)
        scen = os.path.join(sample, "dungeon.map.scen")
        for extra in ([], ["--batch=8"], ["--stream", "--batch=4"]):
            cls.start(cli + ["load", "--map=dungeon", scen, "--concurrency=1",
                             "--duration=3600s", "--rps=50"] + extra, env=env_query)
        script = " ; ".join([
            "while true",
            "do " + " ".join(cli) + " flow dungeon 97 52",
            " ".join(cli) + " group dungeon 97 52 8 58 9 58 10 58",
            " ".join(cli) + " update dungeon 3 3 1",
            " ".join(cli) + " maps",
            " ".join(cli) + " path terrain 1 1 60 60",
            "sleep 0.2",
            "done"])
        cls.start(["sh", "-c", script], env=env_admin)

    @classmethod
    def start(cls, argv, env=None):
        cls.procs.append(subprocess.Popen(argv, env=env, stdout=subprocess.DEVNULL,
                                          stderr=subprocess.DEVNULL))

    @classmethod
    def tearDownClass(cls):
        for p in reversed(cls.procs):
            p.kill()
            p.wait()
        shutil.rmtree(cls.tmp, ignore_errors=True)

    def query(self, expr):
        """The instant vector of `expr` as [(labels, value)]; [] on no data."""
        url = (f"http://127.0.0.1:{self.prom_port}/api/v1/query?" +
               urllib.parse.urlencode({"query": expr}))
        try:
            with urllib.request.urlopen(url, timeout=30) as r:
                body = json.load(r)
        except OSError:
            return []  # Prometheus still starting.
        self.assertEqual(body["status"], "success", (expr, body))
        return [(s["metric"], float(s["value"][1])) for s in body["data"]["result"]]

    def finite(self, expr):
        return [(l, v) for l, v in self.query(expr) if math.isfinite(v)]

    def wait_for_values(self, named):
        """Polls until every expression has a finite sample (the condition
        decides; the deadline only ends a wait that would never succeed)."""
        missing = dict(named)
        deadline = time.monotonic() + GENEROUS_S
        while missing and time.monotonic() < deadline:
            for name, expr in list(missing.items()):
                if self.finite(expr):
                    del missing[name]
            if missing:
                time.sleep(1)
        self.assertEqual(missing, {}, "expressions that returned no value")

    def test_every_dashboard_expression_returns_a_value(self):
        self.wait_for_values({f"{t} [{i}]": e
                              for i, (t, e) in enumerate(dashboard_exprs())})

    def test_every_recording_rule_and_alert_operand_returns_a_value(self):
        named = {}
        for r in rules():
            if "record" in r:
                named[r["record"]] = r["record"]
            else:
                named["alert " + r["alert"]] = alert_operand(r["expr"])
        self.wait_for_values(named)

    def test_a_healthy_server_reads_zero_errors_and_zero_refusals(self):
        self.wait_for_values({"ratio": "gridstar:request_errors:ratio5m",
                              "refused": "gridstar:requests_refused:rate5m"})
        ratios = self.finite("gridstar:request_errors:ratio5m")
        methods = {l["method"] for l, _ in ratios}
        # (A stream is counted when it ends; the load's streams run on.)
        self.assertTrue({"FindPath", "FindPaths", "ComputeFlowField",
                         "FindGroupPaths", "UpdateCells"} <= methods, methods)
        for labels, value in ratios:
            self.assertEqual(value, 0, labels)
        for labels, value in self.finite("gridstar:requests_refused:rate5m"):
            self.assertEqual(value, 0, labels)
        # And the alerts on them do not fire (the latency and queue alerts
        # depend on the machine's speed and are not judged here).
        for r in rules():
            if r.get("alert") in ("GridstarErrorRatioHigh", "GridstarUnauthenticatedBurst"):
                self.assertEqual(self.query(r["expr"]), [], r["alert"])


if __name__ == "__main__":
    BUILD = os.path.abspath(sys.argv.pop(1))
    if shutil.which("prometheus") is None or shutil.which("redis-server") is None:
        print("dashboards test needs prometheus and redis-server "
              "(scripts/install-deps.sh --test)")
        sys.exit(1 if os.environ.get("CI") else 77)
    unittest.main(verbosity=2)
