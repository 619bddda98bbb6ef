"""Checks of everything under deploy/ and the Dockerfile that a tool can check
here (no container engine runs on these machines).

Run by CTest as: /usr/bin/python3 tests/deploy/deploy_test.py BUILD_DIR
(Debian's python3 with python3-yaml; promtool and nginx from
scripts/install-deps.sh --test).
"""

import json
import os
import re
import shutil
import socket
import subprocess
import sys
import tempfile
import unittest

import yaml

ROOT = os.path.abspath(os.path.join(os.path.dirname(__file__), "..", ".."))
BUILD = None  # Set from argv: the release build directory.


def read(path):
    with open(os.path.join(ROOT, path), encoding="utf-8") as f:
        return f.read()


def load_yaml(path):
    with open(os.path.join(ROOT, path), encoding="utf-8") as f:
        return list(yaml.safe_load_all(f))


def server_flags():
    """The flags gridstar-server defines, from its --helpfull."""
    out = subprocess.run(
        [os.path.join(BUILD, "server", "gridstar-server"), "--helpfull"],
        capture_output=True, text=True, check=False)
    return set(re.findall(r"^\s+--([a-z_]+)", out.stdout + out.stderr, re.M))


def metric_names():
    """Every metric family the server exports (from server/runtime/metrics.cc)."""
    return set(re.findall(r'"(gridstar_[a-z_]+)"', read("server/runtime/metrics.cc")))


def names_in_promql(expr):
    return set(re.findall(r"\b(gridstar_[a-z_]+)", expr))


def family(name):
    for suffix in ("_bucket", "_sum", "_count"):
        if name.endswith(suffix):
            return name[: -len(suffix)]
    return name


def memory_bytes(quantity):
    units = {"Ki": 2**10, "Mi": 2**20, "Gi": 2**30}
    for unit, factor in units.items():
        if quantity.endswith(unit):
            return int(quantity[: -len(unit)]) * factor
    return int(quantity)


class DockerfileTest(unittest.TestCase):
    def setUp(self):
        self.text = read("Dockerfile")
        # Join continued lines; drop comments.
        joined = re.sub(r"\\\n", " ", self.text)
        self.lines = [l.strip() for l in joined.splitlines()
                      if l.strip() and not l.strip().startswith("#")]
        self.stages = []
        for line in self.lines:
            if line.startswith("FROM "):
                self.stages.append([line])
            elif self.stages:
                self.stages[-1].append(line)

    def test_build_stage_runs_the_readme_scripts(self):
        build = self.stages[0]
        self.assertRegex(build[0], r"^FROM debian:bookworm AS build$")
        runs = [l for l in build if l.startswith("RUN ")]
        self.assertIn("RUN scripts/install-deps.sh --build", runs)
        self.assertTrue(any(re.match(r"RUN (--mount=\S+ )?scripts/build\.sh build/release", l)
                            for l in runs), runs)

    def test_runtime_stage_is_slim_non_root_and_copies_the_built_binaries(self):
        self.assertEqual(len(self.stages), 2)
        runtime = self.stages[1]
        self.assertRegex(runtime[0], r"^FROM debian:bookworm-slim")
        self.assertTrue(any("install-deps.sh --runtime" in l for l in runtime))
        copies = [l.split() for l in runtime if l.startswith("COPY --from=build")]
        sources = {c[2] for c in copies}
        for binary in ("server/gridstar-server", "client/gridstar"):
            src = "/src/build/release/" + binary
            self.assertIn(src, sources)
            # The build script really makes that file.
            self.assertTrue(os.access(os.path.join(BUILD, binary), os.X_OK), binary)
        users = [l.split()[1] for l in runtime if l.startswith("USER ")]
        self.assertEqual(users, ["gridstar"])
        self.assertIn("EXPOSE 50051 9464", runtime)

    def test_healthcheck_asks_the_grpc_health_service(self):
        check = [l for l in self.lines if l.startswith("HEALTHCHECK")]
        self.assertEqual(len(check), 1)
        self.assertRegex(check[0], r"CMD gridstar --server=127\.0\.0\.1:\$\{FLAGS_port\}.* health")

    def test_entrypoint_is_the_server_and_every_env_flag_is_real(self):
        # The server reads every flag from FLAGS_<name> itself: no list to
        # keep by hand in the ENTRYPOINT, and every FLAGS_ the file sets is
        # a flag the server defines.
        entry = [l for l in self.lines if l.startswith("ENTRYPOINT")]
        self.assertEqual(len(entry), 1)
        argv = json.loads(entry[0][len("ENTRYPOINT"):])
        self.assertEqual(argv, ["gridstar-server"])
        flags = server_flags()
        self.assertTrue(flags, "gridstar-server --helpfull listed no flags")
        for env in re.findall(r"\bFLAGS_([a-z_]+)=", self.text):
            self.assertIn(env, flags)

    def test_entrypoint_starts_the_server_from_the_environment(self):
        # The image's ENTRYPOINT and ENV, run here on loopback: the server
        # takes its flags from FLAGS_* and serves, and the HEALTHCHECK's
        # command answers SERVING.
        entry = json.loads([l for l in self.lines
                            if l.startswith("ENTRYPOINT")][0][len("ENTRYPOINT"):])
        with tempfile.TemporaryDirectory() as tmp:
            env = dict(os.environ, FLAGS_port="0", FLAGS_metrics_port="0",
                       FLAGS_host="127.0.0.1", FLAGS_data_dir=tmp, FLAGS_workers="1",
                       FLAGS_preload="dungeon=" + os.path.join(
                           ROOT, "data/sample/dungeon.map"))
            port_file = os.path.join(tmp, "port")
            server = subprocess.Popen(
                [os.path.join(BUILD, "server", "gridstar-server")] + entry[1:] +
                ["--port_file=" + port_file], env=env,
                stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
            try:
                # The bound only ends a wait for a server that died.
                for _ in range(15000):
                    if os.path.exists(port_file) or server.poll() is not None:
                        break
                    subprocess.run(["sleep", "0.02"], check=True)
                with open(port_file, encoding="utf-8") as f:
                    port = f.read().strip()
                health = subprocess.run(
                    [os.path.join(BUILD, "client", "gridstar"),
                     "--server=127.0.0.1:" + port, "--deadline=300s", "health"],
                    capture_output=True, text=True, check=False)
                self.assertEqual(health.returncode, 0, health.stderr)
                self.assertEqual(health.stdout.strip(), "SERVING")
                maps = subprocess.run(
                    [os.path.join(BUILD, "client", "gridstar"),
                     "--server=127.0.0.1:" + port, "maps"],
                    capture_output=True, text=True, check=True)
                self.assertTrue(maps.stdout.startswith("dungeon "), maps.stdout)
            finally:
                server.terminate()
                self.assertEqual(server.wait(timeout=30), 0)

    def test_dockerignore_keeps_build_output_out(self):
        ignored = read(".dockerignore").split()
        self.assertIn("build/", ignored)
        self.assertIn(".git/", ignored)

    def test_runtime_packages_provide_every_library_the_binaries_load(self):
        packages = subprocess.run(
            [os.path.join(ROOT, "scripts", "install-deps.sh"), "--list-runtime"],
            capture_output=True, text=True, check=True).stdout.split()
        # Present in debian:bookworm-slim already.
        base = {"libc6", "libstdc++6", "libgcc-s1", "zlib1g"}
        for binary in ("server/gridstar-server", "client/gridstar"):
            ldd = subprocess.run(["ldd", os.path.join(BUILD, binary)],
                                 capture_output=True, text=True, check=True).stdout
            for lib in re.findall(r"=> (/\S+)", ldd):
                real = os.path.realpath(lib)
                owner = None
                for path in (real, lib, real.replace("/usr/lib/", "/lib/", 1)):
                    found = subprocess.run(["dpkg", "-S", path], capture_output=True,
                                           text=True, check=False)
                    if found.returncode == 0:
                        owner = found.stdout.split(":")[0]
                        break
                self.assertIsNotNone(owner, "no package owns " + lib)
                self.assertTrue(owner in packages or owner in base,
                                f"{binary} loads {lib} from {owner}, which "
                                "install-deps.sh --runtime does not install")


class KubernetesTest(unittest.TestCase):
    def setUp(self):
        self.docs = {}
        self.redis = {}  # The store's manifests (redis.yaml), by kind.
        kustomization = load_yaml("deploy/k8s/kustomization.yaml")[0]
        self.resources = kustomization["resources"]
        for name in self.resources:
            for doc in load_yaml(os.path.join("deploy/k8s", name)):
                mine = doc["metadata"]["name"] == "gridstar-redis"
                (self.redis if mine else self.docs)[doc["kind"]] = doc
        self.pod = self.docs["Deployment"]["spec"]["template"]
        self.container = self.pod["spec"]["containers"][0]
        self.env = {e["name"]: e["value"] for e in self.container["env"]}

    def test_kustomization_lists_every_manifest(self):
        files = sorted(f for f in os.listdir(os.path.join(ROOT, "deploy/k8s"))
                       if f.endswith(".yaml") and f != "kustomization.yaml")
        self.assertEqual(sorted(self.resources), files)
        self.assertEqual(set(self.docs),
                         {"Deployment", "Service", "PodDisruptionBudget",
                          "HorizontalPodAutoscaler"})
        self.assertEqual(set(self.redis), {"Service", "StatefulSet"})

    def kustomize(self, directory):
        out = subprocess.run(["kubectl", "kustomize", directory], capture_output=True,
                             text=True, timeout=120)
        self.assertEqual(out.returncode, 0, out.stderr)
        self.assertEqual(out.stderr, "", "kubectl kustomize warned")
        return list(yaml.safe_load_all(out.stdout))

    def test_kubectl_kustomize_builds_every_manifest_cleanly(self):
        built = self.kustomize(os.path.join(ROOT, "deploy/k8s"))
        kinds = sorted((d["kind"], d["metadata"]["name"]) for d in built)
        files = sorted((d["kind"], d["metadata"]["name"])
                       for n in self.resources for d in load_yaml(os.path.join("deploy/k8s", n)))
        self.assertEqual(kinds, files)
        for doc in built:
            labels = doc["metadata"].get("labels", {})
            self.assertEqual(labels.get("app.kubernetes.io/part-of"), "gridstar",
                             doc["metadata"]["name"])
        deployment = next(d for d in built if d["kind"] == "Deployment")
        image = deployment["spec"]["template"]["spec"]["containers"][0]["image"]
        self.assertEqual(image, "gridstar:latest")

    def test_the_image_set_as_docs_operations_says_reaches_the_deployment(self):
        # What `kustomize edit set image gridstar=registry.example.com/gridstar:1.0`
        # writes, or the hand edit docs/operations.md gives for kubectl alone.
        with tempfile.TemporaryDirectory() as tmp:
            copy = os.path.join(tmp, "k8s")
            shutil.copytree(os.path.join(ROOT, "deploy/k8s"), copy)
            path = os.path.join(copy, "kustomization.yaml")
            with open(path, encoding="utf-8") as f:
                text = f.read()
            self.assertIn("  - name: gridstar\n    newTag: latest\n", text)
            text = text.replace("    newTag: latest\n", "    newName: registry.example.com/gridstar\n"
                                "    newTag: \"1.0\"\n")
            with open(path, "w", encoding="utf-8") as f:
                f.write(text)
            built = self.kustomize(copy)
        deployment = next(d for d in built if d["kind"] == "Deployment")
        image = deployment["spec"]["template"]["spec"]["containers"][0]["image"]
        self.assertEqual(image, "registry.example.com/gridstar:1.0")

    def test_replicas_share_the_redis_store_with_its_log_on_a_volume(self):
        self.assertEqual(self.env["FLAGS_store"], "redis://gridstar-redis:6379")
        self.assertEqual(self.env["FLAGS_data_dir"], "")  # The image sets one.
        service = self.redis["Service"]["spec"]
        stateful = self.redis["StatefulSet"]["spec"]
        self.assertEqual(stateful["serviceName"], "gridstar-redis")
        labels = stateful["template"]["metadata"]["labels"]
        for k, v in service["selector"].items():
            self.assertEqual(labels.get(k), v)
        self.assertIn({"name": "redis", "port": 6379}, service["ports"])
        redis = stateful["template"]["spec"]["containers"][0]
        args = redis["args"]
        self.assertEqual(args[args.index("--appendonly") + 1], "yes")
        self.assertIn(args[args.index("--appendfsync") + 1], ("always", "everysec"))
        data = args[args.index("--dir") + 1]
        claim = stateful["volumeClaimTemplates"][0]["metadata"]["name"]
        self.assertIn({"name": claim, "mountPath": data}, redis["volumeMounts"])

    def test_probes_ask_the_health_service_through_tls(self):
        probe = self.container["readinessProbe"]["exec"]["command"]
        self.assertEqual(self.container["livenessProbe"]["exec"]["command"], probe)
        self.assertEqual(probe[0], "gridstar")
        self.assertEqual(probe[-1], "health")
        self.assertIn("--server=127.0.0.1:50051", probe)
        ports = {p["name"]: p["containerPort"] for p in self.container["ports"]}
        self.assertEqual(ports, {"grpc": 50051, "metrics": 9464})

    def test_tls_pair_and_keys_come_from_secrets(self):
        mounts = {m["name"]: m for m in self.container["volumeMounts"]}
        secrets = {v["name"]: v["secret"]["secretName"]
                   for v in self.pod["spec"]["volumes"] if "secret" in v}
        self.assertEqual(secrets, {"tls": "gridstar-tls", "keys": "gridstar-keys"})
        for name in secrets:
            self.assertTrue(mounts[name]["readOnly"], name)
        paths = [self.env[f] for f in ("FLAGS_tls_cert", "FLAGS_tls_key",
                                       "FLAGS_admin_token_file",
                                       "FLAGS_query_token_file")]
        for path in paths:
            self.assertTrue(any(path.startswith(mounts[n]["mountPath"] + "/")
                                for n in secrets), path)

    def test_the_pod_serves_tls_with_keys_and_its_probe_passes(self):
        # The container's env and probe, run here on loopback: the Secrets'
        # files are made by openssl in a temporary directory standing in for
        # /etc/gridstar, the probe's command must answer SERVING through TLS
        # and a call without a key must be refused.
        with tempfile.TemporaryDirectory() as tmp:
            etc = os.path.join(tmp, "etc")
            os.makedirs(os.path.join(etc, "tls"))
            os.makedirs(os.path.join(etc, "keys"))
            tls = os.path.join(etc, "tls")
            ec = ["-newkey", "ec", "-pkeyopt", "ec_paramgen_curve:prime256v1", "-nodes"]
            run = lambda *a: subprocess.run(list(a), cwd=tls, check=True,
                                            capture_output=True)
            run("openssl", "req", "-x509", *ec, "-keyout", "ca.key", "-out", "ca.crt",
                "-days", "2", "-subj", "/CN=gridstar-ca")
            run("openssl", "req", *ec, "-keyout", "tls.key", "-out", "tls.csr",
                "-subj", "/CN=gridstar")
            with open(os.path.join(tls, "san.ext"), "w", encoding="utf-8") as f:
                f.write("subjectAltName=DNS:gridstar\n")
            run("openssl", "x509", "-req", "-in", "tls.csr", "-CA", "ca.crt",
                "-CAkey", "ca.key", "-CAcreateserial", "-out", "tls.crt", "-days", "2",
                "-extfile", "san.ext")
            for name, token in (("admin.tokens", "admin-key-0123456789abcdef"),
                                ("query.tokens", "query-key-0123456789abcdef")):
                with open(os.path.join(etc, "keys", name), "w", encoding="utf-8") as f:
                    f.write(token + "\n")
            remap = lambda v: v.replace("/etc/gridstar", etc)
            env = dict(os.environ)
            env.update({k: remap(v) for k, v in self.env.items()})
            env.update(FLAGS_port="0", FLAGS_metrics_port="0", FLAGS_host="127.0.0.1")
            redis = None
            if env.get("FLAGS_store"):
                # The pod's store, stood in for by a redis-server here.
                binary = shutil.which("redis-server")
                if binary is None:
                    if os.environ.get("CI"):
                        self.fail("redis-server is not installed, and CI is set")
                    self.skipTest("redis-server is not installed")
                with socket.socket() as s:
                    s.bind(("127.0.0.1", 0))
                    redis_port = s.getsockname()[1]
                redis = subprocess.Popen(
                    [binary, "--port", str(redis_port), "--bind", "127.0.0.1",
                     "--save", "", "--appendonly", "no"],
                    stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
                env["FLAGS_store"] = f"redis://127.0.0.1:{redis_port}"
                for _ in range(15000):
                    try:
                        with socket.create_connection(("127.0.0.1", redis_port)) as c:
                            c.sendall(b"PING\r\n")
                            if c.recv(16).startswith(b"+PONG"):
                                break
                    except OSError:
                        pass
                    subprocess.run(["sleep", "0.02"], check=True)
            else:
                env["FLAGS_data_dir"] = os.path.join(tmp, "maps")
                os.makedirs(env["FLAGS_data_dir"])
            port_file = os.path.join(tmp, "port")
            # The server reads FLAGS_<name> itself, as in the image.
            server = subprocess.Popen(
                [os.path.join(BUILD, "server", "gridstar-server"),
                 "--port_file=" + port_file],
                env=env, stdout=subprocess.DEVNULL,
                stderr=open(os.path.join(tmp, "stderr"), "w", encoding="utf-8"))
            try:
                for _ in range(3000):
                    if os.path.exists(port_file) or server.poll() is not None:
                        break
                    subprocess.run(["sleep", "0.02"], check=True)
                if server.poll() is not None:
                    self.fail(read(os.path.join(tmp, "stderr")))
                with open(port_file, encoding="utf-8") as f:
                    port = f.read().strip()
                probe = [remap(a).replace("127.0.0.1:50051", "127.0.0.1:" + port)
                         for a in self.container["readinessProbe"]["exec"]["command"]]
                probe[0] = os.path.join(BUILD, "client", "gridstar")
                # The probe's own deadline is the cluster's business; here a
                # slow machine must not decide the verdict.
                probe = [re.sub(r"^--deadline=.*", "--deadline=300s", a)
                         for a in probe]
                health = subprocess.run(probe, capture_output=True, text=True,
                                        check=False, env=dict(os.environ, GRIDSTAR_TOKEN=""))
                self.assertEqual(health.returncode, 0, health.stderr)
                self.assertEqual(health.stdout.strip(), "SERVING")
                maps = subprocess.run(probe[:-1] + ["maps"], capture_output=True,
                                      text=True, check=False)
                self.assertIn("UNAUTHENTICATED", maps.stderr)
            finally:
                server.terminate()
                server.wait(timeout=60)
                if redis is not None:
                    redis.kill()
                    redis.wait()

    def test_termination_grace_outlasts_the_server_drain(self):
        grace = self.env["FLAGS_shutdown_grace"]
        self.assertRegex(grace, r"^\d+s$")
        self.assertGreater(self.pod["spec"]["terminationGracePeriodSeconds"],
                           int(grace[:-1]))

    def test_every_env_flag_exists(self):
        flags = server_flags()
        for name in self.env:
            self.assertTrue(name.startswith("FLAGS_"), name)
            self.assertIn(name[len("FLAGS_"):], flags)

    def test_resources_follow_the_capacity_model(self):
        res = self.container["resources"]
        workers = int(self.env["FLAGS_workers"])
        self.assertEqual(float(res["requests"]["cpu"]), workers)
        self.assertEqual(res["requests"]["cpu"], res["limits"]["cpu"])
        # docs/operations.md "Capacity model": 13.4 bytes a map cell (costs, labels,
        # bit lines, jump table), 40 bytes a cell of the largest map per
        # worker context, the flow-field cache, 64 MiB of process.
        need = (int(self.env["FLAGS_max_total_cells"]) * 13.4 +
                workers * int(self.env["FLAGS_max_map_cells"]) * 40 +
                int(self.env["FLAGS_flow_field_cache_bytes"]) + 64 * 2**20)
        limit = memory_bytes(res["limits"]["memory"])
        request = memory_bytes(res["requests"]["memory"])
        self.assertGreaterEqual(limit, need)
        self.assertGreaterEqual(request, 0.9 * need)
        self.assertLessEqual(request, limit)

    def test_prometheus_scrapes_the_metrics_port(self):
        notes = self.pod["metadata"]["annotations"]
        self.assertEqual(notes["prometheus.io/scrape"], "true")
        self.assertEqual(notes["prometheus.io/port"], "9464")
        self.assertEqual(notes["prometheus.io/path"], "/metrics")

    def test_service_is_headless_and_selects_the_pods(self):
        service = self.docs["Service"]["spec"]
        self.assertEqual(service["clusterIP"], "None")
        labels = self.pod["metadata"]["labels"]
        for selector in (service["selector"],
                         self.docs["PodDisruptionBudget"]["spec"]["selector"]["matchLabels"],
                         self.docs["Deployment"]["spec"]["selector"]["matchLabels"]):
            for k, v in selector.items():
                self.assertEqual(labels.get(k), v)
        self.assertIn({"name": "grpc", "port": 50051, "targetPort": "grpc",
                       "appProtocol": "grpc"}, service["ports"])

    def test_disruption_budget_and_autoscaler(self):
        self.assertEqual(self.docs["PodDisruptionBudget"]["spec"]["maxUnavailable"], 1)
        hpa = self.docs["HorizontalPodAutoscaler"]["spec"]
        self.assertEqual(hpa["scaleTargetRef"]["kind"], "Deployment")
        self.assertEqual(hpa["scaleTargetRef"]["name"],
                         self.docs["Deployment"]["metadata"]["name"])
        self.assertGreaterEqual(hpa["minReplicas"], 2)
        self.assertGreater(hpa["maxReplicas"], hpa["minReplicas"])
        self.assertEqual(hpa["metrics"][0]["resource"]["name"], "cpu")


class ObservabilityTest(unittest.TestCase):
    def test_compose_runs_gridstar_prometheus_and_grafana(self):
        compose = load_yaml("deploy/compose/docker-compose.yml")[0]
        self.assertEqual(set(compose["services"]),
                         {"gridstar", "redis", "prometheus", "grafana"})
        gridstar = compose["services"]["gridstar"]["environment"]
        self.assertEqual(gridstar["FLAGS_store"], "redis://redis:6379")
        self.assertEqual(gridstar["FLAGS_data_dir"], "")  # The image sets one.
        base = os.path.join(ROOT, "deploy/compose")
        for service in compose["services"].values():
            for volume in service.get("volumes", []):
                source = volume.split(":")[0]
                if source.startswith("."):
                    self.assertTrue(os.path.exists(os.path.join(base, source)), source)
        self.assertEqual(compose["services"]["gridstar"]["build"]["context"], "../..")
        for key in compose["services"]["gridstar"]["environment"]:
            self.assertIn(key[len("FLAGS_"):], server_flags())
        # Any start order: every service restarts, and starts once what it
        # needs is healthy (Redis answers PING; gridstar's HEALTHCHECK).
        for name, service in compose["services"].items():
            self.assertEqual(service.get("restart"), "unless-stopped", name)
            for needed, how in service.get("depends_on", {}).items():
                self.assertIn(how["condition"], ("service_healthy", "service_started"), name)
                if how["condition"] == "service_healthy" and needed != "gridstar":
                    self.assertIn("healthcheck", compose["services"][needed], needed)
        self.assertEqual(compose["services"]["gridstar"]["depends_on"]["redis"]["condition"],
                         "service_healthy")

    def test_dashboard_shows_what_the_issue_asks_with_real_metrics(self):
        dash = json.loads(read("deploy/grafana/dashboards/gridstar.json"))
        exprs = [t["expr"] for p in dash["panels"] for t in p["targets"]]
        known = metric_names()
        for expr in exprs:
            for name in names_in_promql(expr):
                self.assertIn(family(name), known, expr)
        text = "\n".join(exprs)
        for needed in ("gridstar_requests_total", "gridstar_queue_wait_seconds_bucket",
                       "gridstar_search_expansions_bucket", "gridstar_queue_depth",
                       "gridstar_busy_workers", "gridstar_map_memory_bytes"):
            self.assertIn(needed, text)
        for q in ("0.5", "0.9", "0.99"):
            self.assertIn(f"histogram_quantile({q}, sum by (method, le) "
                          "(rate(gridstar_request_duration_seconds_bucket", text)
        self.assertIn("sum by (algorithm, le) (rate(gridstar_search_duration_seconds_bucket",
                      text)
        provider = load_yaml("deploy/grafana/provisioning/dashboards/gridstar.yml")[0]
        self.assertEqual(provider["providers"][0]["options"]["path"],
                         "/var/lib/grafana/dashboards")

    def test_promtool_checks_config_and_rules_and_their_unit_tests(self):
        cwd = os.path.join(ROOT, "deploy/prometheus")
        for args in (["check", "config", "prometheus.yml"],
                     ["check", "rules", "rules/gridstar.rules.yml"],
                     ["test", "rules", "tests/gridstar.rules.test.yml"]):
            run = subprocess.run(["promtool"] + args, cwd=cwd, capture_output=True,
                                 text=True, check=False)
            self.assertEqual(run.returncode, 0, run.stdout + run.stderr)

    def test_rules_cover_the_alerts_and_use_real_metrics(self):
        groups = load_yaml("deploy/prometheus/rules/gridstar.rules.yml")[0]["groups"]
        rules = [r for g in groups for r in g["rules"]]
        alerts = {r["alert"] for r in rules if "alert" in r}
        self.assertEqual(alerts, {"GridstarP99OverBudget", "GridstarErrorRatioHigh",
                                  "GridstarQueueSaturated", "GridstarReplicaDown",
                                  "GridstarUnauthenticatedBurst", "GridstarStoreErrors",
                                  "GridstarStoreLag"})
        known = metric_names()
        for r in rules:
            for name in names_in_promql(r["expr"]):
                self.assertIn(family(name), known, r["expr"])


class NginxTest(unittest.TestCase):
    def test_config_is_valid_and_hashes_the_clients_map_header(self):
        conf = read("deploy/nginx/nginx.conf")
        header = re.search(r'kMapHeader\[\] = "([a-z-]+)"', read("client/client.h")).group(1)
        variable = "$http_" + header.replace("-", "_")
        self.assertRegex(conf, r"hash " + re.escape(variable) + r" consistent;")
        self.assertIn("grpc_pass grpc://gridstar;", conf)
        with tempfile.TemporaryDirectory() as tmp:
            run = subprocess.run(
                ["nginx", "-t", "-p", tmp, "-c",
                 os.path.join(ROOT, "deploy/nginx/nginx.conf")],
                capture_output=True, text=True, check=False)
            self.assertEqual(run.returncode, 0, run.stderr)

    def test_store_config_is_valid_and_round_robin(self):
        conf = read("deploy/nginx/nginx-store.conf")
        self.assertNotRegex(conf, r"(?m)^\s*hash ")
        self.assertIn("grpc_pass grpc://gridstar;", conf)
        with tempfile.TemporaryDirectory() as tmp:
            run = subprocess.run(
                ["nginx", "-t", "-p", tmp, "-c",
                 os.path.join(ROOT, "deploy/nginx/nginx-store.conf")],
                capture_output=True, text=True, check=False)
            self.assertEqual(run.returncode, 0, run.stderr)

if __name__ == "__main__":
    BUILD = os.path.abspath(sys.argv.pop(1))
    unittest.main(verbosity=2)
