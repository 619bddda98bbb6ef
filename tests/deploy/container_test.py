"""The image, built and run for real with podman (scripts/test.sh, stage
`container`): base images made with mmdebstrap when absent (no registry is
reachable here), `podman build` of the repository's Dockerfile, then checks of
the running container: uid 10001, only runtime libraries (ldd resolved, no
compiler), HEALTHCHECK healthy, a map registered through the published port
answers a path, a map and an update survive `podman restart` (the volume),
SIGTERM drains and the container exits 0, TLS and keys from mounted files
through FLAGS_ environment flags. Prints the build time and the image's size.

Podman's settings and the base images: podman_support.py.

Run as: /usr/bin/python3 tests/deploy/container_test.py BUILD_DIR
Exits 77 (skipped, saying why) only where podman cannot run a container at all.
"""

import os
import shutil
import sys
import tempfile
import time
import unittest

from podman_support import (LIMITS, PODMAN, ROOT, free_port, require_podman, run,
                            wait_healthy)
import podman_support

BUILD = None
IMAGE = "localhost/gridstar:test"


def cli(port, *args, tls=None):
    return podman_support.cli(BUILD, port, *args, tls=tls)


def setUpModule():
    require_podman(BUILD)
    start = time.monotonic()
    run(PODMAN + ["build", "--format", "docker"] + LIMITS + ["-t", IMAGE, ROOT], timeout=3600)
    size = run(["podman", "image", "inspect", IMAGE, "--format", "{{.Size}}"]).stdout.strip()
    print(f"container: image built in {time.monotonic() - start:.0f} s; "
          f"runtime image {int(size) / 1e6:.0f} MB")


class ContainerTest(unittest.TestCase):
    def setUp(self):
        self.names = []
        self.volumes = []
        self.tmp = tempfile.mkdtemp()

    def tearDown(self):
        for n in self.names:
            run(["podman", "rm", "-f", "-t", "0", n], check=False)
        for v in self.volumes:
            run(["podman", "volume", "rm", "-f", v], check=False)
        shutil.rmtree(self.tmp, ignore_errors=True)

    def start(self, port, *args, env=()):
        name = f"gridstar-test-{os.getpid()}-{len(self.names)}"
        self.names.append(name)
        flags = []
        for k, v in env:
            flags += ["-e", f"{k}={v}"]
        run(PODMAN + ["run", "-d", "--name", name] + LIMITS +
            ["-p", f"127.0.0.1:{port}:50051"] + flags + list(args) + [IMAGE])
        self.assertTrue(wait_healthy(name), run(["podman", "logs", name], check=False).stderr)
        return name

    def test_runs_as_uid_10001_with_only_runtime_libraries(self):
        self.assertEqual(run(PODMAN + ["run", "--rm"] + LIMITS +
                             ["--entrypoint", "id", IMAGE, "-u"]).stdout.strip(), "10001")
        ldd = run(PODMAN + ["run", "--rm"] + LIMITS + ["--entrypoint", "sh", IMAGE, "-c",
                  "ldd /usr/local/bin/gridstar-server /usr/local/bin/gridstar"]).stdout
        self.assertIn("libgrpc", ldd)
        self.assertNotIn("not found", ldd)
        tools = run(PODMAN + ["run", "--rm"] + LIMITS + ["--entrypoint", "sh", IMAGE, "-c",
                    "command -v g++ cmake protoc || true"]).stdout.strip()
        self.assertEqual(tools, "", "build tools in the runtime image")

    def test_maps_and_updates_survive_a_restart_and_sigterm_drains(self):
        volume = f"gridstar-test-maps-{os.getpid()}"
        self.volumes.append(volume)
        run(["podman", "volume", "create", volume])
        port = free_port()
        name = self.start(port, "-v", f"{volume}:/var/lib/gridstar/maps",
                          env=[("FLAGS_preload", "dungeon=/usr/share/gridstar/sample/dungeon.map")])
        out = cli(port, "register", "--id", "own", os.path.join(ROOT, "data/sample/terrain.pgm"))
        self.assertEqual(out.returncode, 0, out.stderr)
        out = cli(port, "path", "own", "10", "10", "100", "100")
        self.assertEqual(out.returncode, 0, out.stderr)
        self.assertIn("cost=", out.stdout)
        out = cli(port, "update", "dungeon", "1", "1", "0")
        self.assertEqual(out.returncode, 0, out.stderr)
        self.assertTrue(out.stdout.startswith("dungeon version=2 "), out.stdout)
        run(PODMAN + ["restart", "-t", "30", name])
        self.assertTrue(wait_healthy(name))
        maps = cli(port, "maps")
        self.assertEqual(maps.returncode, 0, maps.stderr)
        self.assertIn("dungeon version=2 ", maps.stdout)
        self.assertIn("own version=1 ", maps.stdout)
        logs = run(["podman", "logs", name], check=False).stderr
        self.assertIn("skipped, the store holds map 'dungeon' at version 2", logs)
        # SIGTERM: the server drains within its grace and exits 0.
        start = time.monotonic()
        run(["podman", "stop", "-t", "60", name])
        code = run(["podman", "inspect", name, "--format", "{{.State.ExitCode}}"]).stdout.strip()
        self.assertEqual(code, "0")
        print(f"container: stopped by SIGTERM in {time.monotonic() - start:.1f} s, exit 0")

    def test_tls_and_keys_from_mounted_files(self):
        d = os.path.join(self.tmp, "etc")
        os.makedirs(d)
        ec = "-newkey ec -pkeyopt ec_paramgen_curve:prime256v1 -nodes"
        script = f"""set -e; cd {d}
openssl req -x509 {ec} -keyout ca.key -out ca.crt -days 2 -subj /CN=test-ca
openssl req {ec} -keyout server.key -out server.csr -subj /CN=gridstar
printf 'subjectAltName=DNS:gridstar,IP:127.0.0.1\\n' > ext
openssl x509 -req -in server.csr -CA ca.crt -CAkey ca.key -CAcreateserial -days 2 -extfile ext -out server.crt
echo admin-token-0123456789abcdef > admin.tokens
echo query-token-0123456789abcdef > query.tokens
chmod 755 . && chmod 644 *"""
        run(["sh", "-c", script])
        port = free_port()
        self.start(port, "-v", f"{d}:/etc/gridstar:ro",
                   env=[("FLAGS_tls_cert", "/etc/gridstar/server.crt"),
                        ("FLAGS_tls_key", "/etc/gridstar/server.key"),
                        ("FLAGS_admin_token_file", "/etc/gridstar/admin.tokens"),
                        ("FLAGS_query_token_file", "/etc/gridstar/query.tokens"),
                        ("GRIDSTAR_TLS_CA", "/etc/gridstar/ca.crt"),
                        ("GRIDSTAR_TLS_SERVER_NAME", "gridstar")])
        admin = {"ca": os.path.join(d, "ca.crt"), "token": os.path.join(d, "admin.tokens")}
        query = {"ca": os.path.join(d, "ca.crt"), "token": os.path.join(d, "query.tokens")}
        out = cli(port, "register", "--id", "m", os.path.join(ROOT, "data/sample/dungeon.map"),
                  tls=admin)
        self.assertEqual(out.returncode, 0, out.stderr)
        out = cli(port, "path", "m", "8", "58", "97", "52", tls=query)
        self.assertEqual(out.returncode, 0, out.stderr)
        out = cli(port, "update", "m", "1", "1", "0", tls=query)
        self.assertNotEqual(out.returncode, 0)
        self.assertIn("PERMISSION_DENIED", out.stderr)
        out = cli(port, "maps", tls={"ca": os.path.join(d, "ca.crt")})
        self.assertIn("UNAUTHENTICATED", out.stderr)
        out = cli(port, "maps")  # Plaintext against TLS.
        self.assertIn("pass --tls_ca", out.stderr)


if __name__ == "__main__":
    podman_support.main(sys.modules[__name__])
