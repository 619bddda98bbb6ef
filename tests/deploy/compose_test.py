"""The compose file as a user runs it, with Debian's podman-compose
(scripts/test.sh, stage `container`): gridstar, Redis and Prometheus from
deploy/compose/docker-compose.yml (host ports aside, below). Where the images
the file names (redis:7.0, prom/prometheus:v2.42.0) cannot be pulled,
stand-ins made from Debian's packages (tests/deploy/standins) are built and
tagged with those names; an image of that name that is not a stand-in is left
alone.

Checks: the stack serves the preloaded maps on the published port and
Prometheus scrapes gridstar; after kill -9 the restart policy brings gridstar
back with the update it acknowledged (kept in Redis); gridstar started while
Redis is down waits for it (its log says so, its health check fails) and
serves once Redis is up; after `down` and `up` the update is still there
(Redis's append-only file on its named volume). Grafana stays out.

The file publishes fixed host ports (50051, 9464, 9090), which a server the
user started with scripts/run.sh may hold: the test runs a copy of the file in
the build directory that differs only in those host ports (free ones) and in
its relative paths (made absolute, as the copy lives elsewhere).

Run as: /usr/bin/python3 tests/deploy/compose_test.py BUILD_DIR
Exits 77 (skipped, saying why) only where podman cannot run a container at all.
"""

import json
import os
import shutil
import sys
import time
import unittest
import urllib.parse
import urllib.request

from podman_support import (GENEROUS_S, LIMITS, PODMAN, ROOT, require_podman, run,
                            wait_healthy)
import podman_support

BUILD = None
PROJECT = "gridstar-compose-test"
COMPOSE_FILE = os.path.join(ROOT, "deploy", "compose", "docker-compose.yml")
COMPOSE = None  # podman-compose on the copy (setUpModule).
STANDINS = {"docker.io/library/redis:7.0": "redis",
            "docker.io/prom/prometheus:v2.42.0": "prometheus"}
STANDIN_LABEL = "org.gridstar.standin"
# Host ports of the copy, by what they serve (setUpModule).
PORTS = {}
# The container ports the file publishes, by what they serve.
CONTAINER_PORTS = {"gRPC": 50051, "metrics": 9464, "Prometheus": 9090}
GRIDSTAR = f"{PROJECT}_gridstar_1"


def compose(*args, check=True):
    return run(COMPOSE + list(args), check=check, timeout=3600)


def cli(*args):
    return podman_support.cli(BUILD, PORTS["gRPC"], *args)


def ensure_standins():
    for image, folder in STANDINS.items():
        present = run(["podman", "image", "inspect", image, "--format",
                       "{{index .Labels \"" + STANDIN_LABEL + "\"}}"], check=False)
        if present.returncode == 0 and present.stdout.strip() != "yes":
            continue  # The real image: keep it.
        run(PODMAN + ["build", "--format", "docker"] + LIMITS +
            ["--label", f"{STANDIN_LABEL}=yes", "-t", image,
             os.path.join(ROOT, "tests", "deploy", "standins", folder)], timeout=1800)


def write_compose_copy():
    """The compose file with free host ports and absolute paths, in BUILD;
    fills PORTS and COMPOSE."""
    import yaml  # Debian's python3-yaml (install-deps.sh --test).
    global COMPOSE
    here = os.path.dirname(COMPOSE_FILE)
    with open(COMPOSE_FILE, encoding="utf-8") as f:
        spec = yaml.safe_load(f)
    wanted = {port: what for what, port in CONTAINER_PORTS.items()}
    for service in spec["services"].values():
        ports = []
        for mapping in service.get("ports", []):
            inside = int(str(mapping).split(":")[-1])
            host = podman_support.free_port()
            if inside in wanted:
                PORTS[wanted[inside]] = host
            ports.append(f"{host}:{inside}")
        if ports:
            service["ports"] = ports
        if "build" in service:
            service["build"]["context"] = os.path.normpath(
                os.path.join(here, service["build"]["context"]))
        volumes = []
        for volume in service.get("volumes", []):
            source, rest = volume.split(":", 1)
            if source.startswith("."):
                source = os.path.normpath(os.path.join(here, source))
            volumes.append(f"{source}:{rest}")
        if volumes:
            service["volumes"] = volumes
    assert set(PORTS) == set(CONTAINER_PORTS), PORTS
    directory = os.path.join(BUILD, "compose-test")
    os.makedirs(directory, exist_ok=True)
    copy = os.path.join(directory, "docker-compose.yml")
    with open(copy, "w", encoding="utf-8") as f:
        yaml.safe_dump(spec, f, sort_keys=False)
    COMPOSE = ["podman-compose", "-f", copy, "-p", PROJECT,
               "--podman-args=" + " ".join(PODMAN[1:]),
               "--podman-run-args=" + " ".join(LIMITS),
               "--podman-build-args=--format docker " + " ".join(LIMITS)]


def setUpModule():
    require_podman(BUILD)
    if shutil.which("podman-compose") is None:
        raise AssertionError("podman-compose is missing: scripts/install-deps.sh --container")
    backend = run(["podman", "info", "--format", "{{.Host.NetworkBackend}}"]).stdout.strip()
    if backend == "cni" and not any(os.path.exists(os.path.join(d, "dnsname"))
                                    for d in ("/usr/lib/cni", "/usr/libexec/cni", "/opt/cni/bin")):
        raise AssertionError("podman's CNI network has no dnsname plugin, so services cannot "
                             "find each other by name: scripts/install-deps.sh --container")
    ensure_standins()
    write_compose_copy()
    start = time.monotonic()
    compose("build", "gridstar")
    print(f"compose: gridstar built in {time.monotonic() - start:.0f} s")


def prometheus_value(query):
    """The first sample's value of an instant query, or None."""
    url = ("http://127.0.0.1:%d/api/v1/query?" % PORTS["Prometheus"] +
           urllib.parse.urlencode({"query": query}))
    try:
        with urllib.request.urlopen(url, timeout=30) as r:
            body = json.load(r)
    except OSError:
        return None
    result = body.get("data", {}).get("result", [])
    return result[0]["value"][1] if result else None


def wait_for(what, probe):
    """Polls probe until it returns something true; the bound only ends a
    wait for what never happens."""
    for _ in range(GENEROUS_S):
        value = probe()
        if value:
            return value
        time.sleep(1)
    raise AssertionError(f"never saw {what}")


def logs(name):
    out = run(["podman", "logs", name], check=False)
    return out.stdout + out.stderr


class ComposeTest(unittest.TestCase):
    def tearDown(self):
        containers = run(["podman", "ps", "-aq", "--filter",
                          f"label=io.podman.compose.project={PROJECT}"], check=False).stdout.split()
        anonymous = []
        for c in containers:
            mounts = run(["podman", "inspect", c, "--format",
                          "{{range .Mounts}}{{.Type}}={{.Name}} {{end}}"], check=False).stdout
            anonymous += [m.split("=", 1)[1] for m in mounts.split()
                          if m.startswith("volume=") and len(m) == len("volume=") + 64]
        compose("down", "-v", "-t", "30", check=False)
        for v in anonymous:
            run(["podman", "volume", "rm", "-f", v], check=False)
        run(["podman", "network", "rm", "-f", f"{PROJECT}_default"], check=False)

    def assert_dungeon_at(self, version):
        maps = cli("maps")
        self.assertEqual(maps.returncode, 0, maps.stderr)
        self.assertIn(f"dungeon version={version} ", maps.stdout)
        self.assertIn("terrain version=1 ", maps.stdout)

    def test_the_stack_serves_the_sample_maps_and_prometheus_scrapes_gridstar(self):
        compose("up", "-d", "--no-build", "gridstar", "redis", "prometheus")
        self.assertTrue(wait_healthy(GRIDSTAR, restarting=True), logs(GRIDSTAR))
        self.assert_dungeon_at(1)
        out = cli("path", "dungeon", "8", "58", "97", "52")
        self.assertEqual(out.returncode, 0, out.stderr)
        self.assertIn("cost=", out.stdout)
        # Prometheus reaches gridstar by its service name on the compose network.
        wait_for("Prometheus scraping gridstar (up == 1)",
                 lambda: prometheus_value('up{job="gridstar"}') == "1")
        self.assertEqual(wait_for("gridstar_maps in Prometheus",
                                  lambda: prometheus_value("gridstar_maps")), "2")

    def test_gridstar_comes_back_from_kill_9_and_waits_for_redis_with_its_updates(self):
        compose("up", "-d", "--no-build", "gridstar", "redis")
        self.assertTrue(wait_healthy(GRIDSTAR, restarting=True), logs(GRIDSTAR))
        self.assert_dungeon_at(1)
        out = cli("update", "dungeon", "1", "1", "0")
        self.assertEqual(out.returncode, 0, out.stderr)
        self.assertTrue(out.stdout.startswith("dungeon version=2 "), out.stdout)

        # kill -9 from outside: the restart policy brings it back, the update kept in Redis.
        def restarts():
            return int(run(["podman", "inspect", GRIDSTAR, "--format",
                            "{{.RestartCount}}"]).stdout.strip() or 0)
        before = restarts()
        pid = int(run(["podman", "inspect", GRIDSTAR, "--format", "{{.State.Pid}}"]).stdout)
        self.assertGreater(pid, 0)
        os.kill(pid, 9)
        wait_for("the restart policy restarting gridstar", lambda: restarts() > before)
        self.assertTrue(wait_healthy(GRIDSTAR, restarting=True), logs(GRIDSTAR))
        self.assert_dungeon_at(2)
        self.assertIn("skipped, the store holds map 'dungeon' at version 2", logs(GRIDSTAR))

        # gridstar starting while Redis is down waits for it (podman-compose 1.0.3
        # ignores --no-deps, so the order is made by stopping Redis first).
        compose("stop", "redis")
        waits = logs(GRIDSTAR).count("trying again in")
        run(PODMAN + ["restart", "-t", "30", GRIDSTAR])
        wait_for("gridstar's log saying it waits for Redis",
                 lambda: logs(GRIDSTAR).count("trying again in") > waits)
        # It serves nothing before its store answers.
        self.assertNotEqual(run(PODMAN + ["healthcheck", "run", GRIDSTAR], check=False).returncode, 0)
        reached = logs(GRIDSTAR).count("--store: reached after")
        compose("start", "redis")
        self.assertTrue(wait_healthy(GRIDSTAR, restarting=True), logs(GRIDSTAR))
        self.assertGreater(logs(GRIDSTAR).count("--store: reached after"), reached)
        self.assert_dungeon_at(2)

        # down and up: Redis's append-only file on its named volume keeps the update.
        compose("down", "-t", "30")
        compose("up", "-d", "--no-build", "gridstar", "redis")
        self.assertTrue(wait_healthy(GRIDSTAR, restarting=True), logs(GRIDSTAR))
        self.assert_dungeon_at(2)


if __name__ == "__main__":
    podman_support.main(sys.modules[__name__])
