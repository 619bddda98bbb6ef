"""What the container tests share (container_test.py, compose_test.py):
running commands with a bound, podman's settings for this kind of machine,
base images made with mmdebstrap when no registry is reachable, and waiting
for a container's HEALTHCHECK.

Podman here needs `--runtime runc` and explicit ulimits (crun and the default
ulimits fail in this sandbox); both are harmless elsewhere.
"""

import os
import socket
import subprocess
import sys
import tempfile
import time
import unittest

ROOT = os.path.abspath(os.path.join(os.path.dirname(__file__), "..", ".."))
BASE = "docker.io/library/debian:bookworm"
PODMAN = ["podman", "--runtime", "runc"]
LIMITS = ["--ulimit", "nofile=20000:20000", "--ulimit", "nproc=32768:32768"]
# Bounds that only end a wait for something that never happens.
GENEROUS_S = 600


def run(args, check=True, timeout=GENEROUS_S, **kw):
    out = subprocess.run(args, capture_output=True, text=True, timeout=timeout, **kw)
    if check and out.returncode != 0:
        raise AssertionError(f"{' '.join(args)}: exit {out.returncode}\n{out.stdout}\n{out.stderr}")
    return out


def skip(why):
    print(f"SKIPPED: {why}")
    sys.exit(77)


def free_port():
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


def cli(build, port, *args, tls=None):
    """The gridstar CLI of the build against 127.0.0.1:port."""
    extra = []
    if tls:
        extra = [f"--tls_ca={tls['ca']}", "--tls_server_name=gridstar"]
        if tls.get("token"):
            extra.append(f"--token_file={tls['token']}")
    return run([os.path.join(build, "client", "gridstar"), f"--server=127.0.0.1:{port}",
                "--deadline=60s"] + extra + list(args), check=False)


def ensure_base_images(scratch):
    """debian:bookworm (and -slim, the same image) made with mmdebstrap from
    the machine's apt sources unless present; scratch holds the tarball."""
    if run(["podman", "image", "exists", BASE], check=False).returncode == 0:
        return
    with tempfile.TemporaryDirectory(dir=scratch) as tmp:
        tar = os.path.join(tmp, "bookworm.tar")
        start = time.monotonic()
        run(["mmdebstrap", "--variant=apt", "--format=tar", "bookworm", tar], timeout=1800)
        run(["podman", "import", tar, BASE])
        print(f"base image made with mmdebstrap in {time.monotonic() - start:.0f} s")
    run(["podman", "tag", BASE, "docker.io/library/debian:bookworm-slim"])


def require_podman(scratch):
    """Skips (exit 77, saying why) only where podman cannot run a container
    at all; makes the base images first."""
    if run(["sh", "-c", "command -v podman"], check=False).returncode != 0:
        skip("podman is not installed (scripts/install-deps.sh --container installs it)")
    ensure_base_images(scratch)
    probe = run(PODMAN + ["run", "--rm"] + LIMITS + [BASE, "true"], check=False)
    if probe.returncode != 0:
        skip(f"podman cannot run a container here: {probe.stderr.strip()}")


def main(module):
    """Runs a test module's tests with its BUILD set from argv[1]."""
    module.BUILD = os.path.abspath(sys.argv.pop(1))
    unittest.main(module=module, verbosity=2)


def wait_healthy(name, restarting=False):
    """True once the container's HEALTHCHECK passes; False once it has stopped
    (unless restarting: its restart policy is to bring it back) or when the
    bound, which only ends a wait for a container that never comes up, is
    over."""
    waiting = ("running", "created", "") + (("stopping", "stopped", "exited") if restarting else ())
    for _ in range(GENEROUS_S):
        if run(PODMAN + ["healthcheck", "run", name], check=False).returncode == 0:
            return True
        state = run(["podman", "inspect", name, "--format", "{{.State.Status}}"], check=False)
        if state.stdout.strip() not in waiting:
            return False
        time.sleep(1)
    return False
