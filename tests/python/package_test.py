"""The Python client as a user installs it: a venv made with
--system-site-packages (Debian's grpcio and protobuf), `pip install
--no-build-isolation --no-index ./client/python` (no network), then the
README's quickstart, run outside the repository against the real server.

Run by CTest as: /usr/bin/python3 tests/python/package_test.py BUILD_DIR
Exits 77 (skipped) without python3-venv / grpcio outside CI; fails in CI.
"""

import os
import re
import shutil
import subprocess
import sys
import tempfile
import time
import unittest

ROOT = os.path.abspath(os.path.join(os.path.dirname(__file__), "..", ".."))
GENEROUS_S = 600
BUILD = None


def skip_or_fail(why):
    print(f"package test: {why}")
    sys.exit(1 if os.environ.get("CI") else 77)


class PackageTest(unittest.TestCase):
    @classmethod
    def setUpClass(cls):
        cls.tmp = tempfile.mkdtemp()
        venv = os.path.join(cls.tmp, "venv")
        made = subprocess.run([sys.executable, "-m", "venv", "--system-site-packages", venv],
                              capture_output=True, text=True)
        if made.returncode != 0:
            skip_or_fail(f"python3 -m venv failed (python3-venv): {made.stderr}")
        cls.python = os.path.join(venv, "bin", "python")
        # Copied first: a build must not write into the repository.
        src = os.path.join(cls.tmp, "src")
        shutil.copytree(os.path.join(ROOT, "client", "python"), src)
        cls.install = subprocess.run(
            [cls.python, "-m", "pip", "install", "--no-build-isolation", "--no-index",
             "--disable-pip-version-check", src],
            capture_output=True, text=True, timeout=GENEROUS_S,
            env=dict(os.environ, PIP_NO_INPUT="1"))
        port_file = os.path.join(cls.tmp, "port")
        cls.server = subprocess.Popen(
            [os.path.join(BUILD, "server", "gridstar-server"), "--host=127.0.0.1",
             "--port=0", "--metrics_port=0", "--workers=2", f"--port_file={port_file}"],
            stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
        for _ in range(GENEROUS_S * 50):
            if os.path.exists(port_file) or cls.server.poll() is not None:
                break
            time.sleep(0.02)
        with open(port_file, encoding="ascii") as f:
            cls.target = "127.0.0.1:" + f.read().strip()

    @classmethod
    def tearDownClass(cls):
        cls.server.kill()
        cls.server.wait()
        shutil.rmtree(cls.tmp, ignore_errors=True)

    def run_outside(self, code):
        work = os.path.join(self.tmp, "work")
        os.makedirs(os.path.join(work, "data", "sample"), exist_ok=True)
        shutil.copy(os.path.join(ROOT, "data", "sample", "dungeon.map"),
                    os.path.join(work, "data", "sample"))
        env = {k: v for k, v in os.environ.items() if k != "PYTHONPATH"}
        return subprocess.run([self.python, "-c", code], cwd=work, env=env,
                              capture_output=True, text=True, timeout=GENEROUS_S)

    def test_installs_without_network_and_imports_from_the_venv(self):
        self.assertEqual(self.install.returncode, 0,
                         self.install.stdout + self.install.stderr)
        out = self.run_outside("import gridstar_client, gridstar.v1.gridstar_pb2 as pb; "
                               "print(gridstar_client.__file__)")
        self.assertEqual(out.returncode, 0, out.stderr)
        self.assertTrue(out.stdout.strip().startswith(os.path.join(self.tmp, "venv")),
                        out.stdout)

    def test_the_readme_quickstart_runs(self):
        self.assertEqual(self.install.returncode, 0, self.install.stderr)
        with open(os.path.join(ROOT, "client", "python", "README.md"), encoding="utf-8") as f:
            readme = f.read()
        quickstart = readme[readme.index("## Quickstart"):]
        code = re.search(r"```python\n(.*?)```", quickstart, re.S).group(1)
        self.assertIn("127.0.0.1:50051", code)
        out = self.run_outside(code.replace("127.0.0.1:50051", self.target))
        self.assertEqual(out.returncode, 0, out.stdout + out.stderr)
        lines = out.stdout.splitlines()
        self.assertEqual(lines[0], "registered quickstart 128 x 128")
        self.assertTrue(lines[1].startswith("path 24.14"), lines)
        self.assertIn(" jps+ ", lines[1])
        self.assertTrue(lines[2].startswith("item 24.14"), lines)
        self.assertEqual(lines[3], "item INVALID_ARGUMENT")
        self.assertTrue(lines[4].startswith("event added 24.14"), lines)
        self.assertEqual(lines[5], "event blocked")
        self.assertTrue(lines[6].startswith("group ["), lines)


def main():
    global BUILD
    BUILD = os.path.abspath(sys.argv.pop(1))
    try:
        import grpc  # noqa: F401  Debian's python3-grpcio, seen by the venv.
    except ImportError as e:
        skip_or_fail(f"needs python3-grpcio and python3-protobuf: {e}")
    unittest.main(verbosity=2)


if __name__ == "__main__":
    main()
