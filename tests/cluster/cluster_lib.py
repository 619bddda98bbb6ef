"""Helpers of the cluster test and the propagation benchmark: a real
redis-server with its own directory, gridstar-server replicas on it, and
gRPC stubs made from the .proto alone (protoc and Debian's
grpc_python_plugin, at run time).

Call setup(BUILD_DIR) first: it returns (grpc, pb, pb_grpc), or raises
Missing naming what is not installed.
"""

import atexit
import os
import shutil
import signal
import socket
import subprocess
import sys
import tempfile
import time

ROOT = os.path.abspath(os.path.join(os.path.dirname(__file__), "..", ".."))
# Waits nobody means to hit: a slow machine only takes longer.
GENEROUS_S = 300
BUILD = None
grpc = pb = pb_grpc = None


class Missing(Exception):
    pass


def setup(build):
    """Finds the tools, makes the stubs in a temporary directory (removed at
    exit)."""
    global BUILD, grpc, pb, pb_grpc
    BUILD = os.path.abspath(build)
    missing = [tool for tool in ("redis-server", "grpc_python_plugin", "protoc")
               if shutil.which(tool) is None]
    try:
        import grpc as grpc_module
    except ImportError:
        missing.append("python3-grpcio")
    if missing:
        raise Missing(f"missing {', '.join(missing)} (scripts/install-deps.sh --test)")
    grpc = grpc_module
    stubs = tempfile.mkdtemp()
    # Imported from for the rest of the process, removed when it ends.
    atexit.register(shutil.rmtree, stubs, ignore_errors=True)
    subprocess.run(["protoc", f"--proto_path={os.path.join(ROOT, 'proto')}",
                    f"--python_out={stubs}", f"--grpc_python_out={stubs}",
                    f"--plugin=protoc-gen-grpc_python={shutil.which('grpc_python_plugin')}",
                    "gridstar/v1/gridstar.proto"], check=True)
    sys.path.insert(0, stubs)
    from gridstar.v1 import gridstar_pb2, gridstar_pb2_grpc  # pylint: disable=import-outside-toplevel
    pb, pb_grpc = gridstar_pb2, gridstar_pb2_grpc
    return grpc, pb, pb_grpc


def free_port():
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


def wait_for(check, what):
    deadline = time.monotonic() + GENEROUS_S
    while time.monotonic() < deadline:
        if check():
            return
        time.sleep(0.02)
    raise AssertionError(f"timed out waiting for {what}")


def start_server(directory, *flags):
    """A gridstar-server on a free loopback port, writing under `directory`
    (--data_dir=DIRECTORY/data) with `flags`; returns (process, target).
    Exits the calling script if it does not start."""
    port_file = os.path.join(directory, "port")
    server = subprocess.Popen(
        [os.path.join(BUILD, "server", "gridstar-server"), "--host=127.0.0.1",
         "--port=0", f"--port_file={port_file}",
         f"--data_dir={os.path.join(directory, 'data')}", *flags],
        stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
    deadline = time.monotonic() + GENEROUS_S
    while not os.path.exists(port_file) or os.path.getsize(port_file) == 0:
        if server.poll() is not None or time.monotonic() > deadline:
            server.kill()
            sys.exit("gridstar-server did not start")
        time.sleep(0.05)
    with open(port_file, encoding="ascii") as f:
        return server, "127.0.0.1:" + f.read().strip()


class Redis:
    """redis-server on a fixed loopback port, appending every write to its
    own directory with fsync (appendfsync always)."""

    def __init__(self, directory):
        self.dir = directory
        self.port = free_port()
        self.proc = None
        self.start()

    def start(self):
        self.proc = subprocess.Popen(
            [shutil.which("redis-server"), "--port", str(self.port), "--bind", "127.0.0.1",
             "--dir", self.dir, "--appendonly", "yes", "--appendfsync", "always",
             "--save", ""], stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
        wait_for(self.ping, "redis-server to answer PING")

    def ping(self):
        if self.proc.poll() is not None:
            raise RuntimeError("redis-server exited")
        try:
            with socket.create_connection(("127.0.0.1", self.port), timeout=5) as s:
                s.sendall(b"PING\r\n")
                return s.recv(16).startswith(b"+PONG")
        except OSError:
            return False

    def kill(self):
        if self.proc.poll() is None:
            self.proc.send_signal(signal.SIGKILL)
        self.proc.wait()

    def url(self):
        return f"redis://127.0.0.1:{self.port}"


class Replica:
    """gridstar-server on the store, with a channel and a stub."""

    def __init__(self, tmp, store_url, workers=2, pin=None):
        self.tmp, self.store_url = tmp, store_url
        self.workers, self.pin = workers, pin
        self.start()

    def start(self):
        port_file = os.path.join(self.tmp, f"port.{time.monotonic_ns()}")
        pin = ["taskset", "-c", str(self.pin)] if self.pin is not None else []
        self.metrics_port = free_port()
        self.proc = subprocess.Popen(
            pin + [os.path.join(BUILD, "server", "gridstar-server"), "--host=127.0.0.1",
                   "--port=0", "--port_file=" + port_file,
                   f"--metrics_port={self.metrics_port}",
                   f"--workers={self.workers}", "--max_search_time=3600s",
                   "--store=" + self.store_url],
            stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
        deadline = time.monotonic() + GENEROUS_S
        while not os.path.exists(port_file) or os.path.getsize(port_file) == 0:
            if self.proc.poll() is not None or time.monotonic() > deadline:
                raise RuntimeError("gridstar-server did not start")
            time.sleep(0.05)
        with open(port_file, encoding="ascii") as f:
            self.port = int(f.read().strip())
        self.channel = grpc.insecure_channel(f"127.0.0.1:{self.port}")
        self.stub = pb_grpc.PathfindingStub(self.channel)

    def kill(self):
        if self.proc.poll() is None:
            self.proc.send_signal(signal.SIGKILL)
        self.proc.wait()
        self.channel.close()

    def metric(self, prefix):
        """The value of the first /metrics line starting with `prefix`."""
        import urllib.request  # pylint: disable=import-outside-toplevel
        with urllib.request.urlopen(
                f"http://127.0.0.1:{self.metrics_port}/metrics", timeout=GENEROUS_S) as page:
            for line in page.read().decode().splitlines():
                if line.startswith(prefix):
                    return float(line[len(prefix):].strip())
        return 0.0

    def version(self, map_id):
        try:
            return self.stub.GetMap(pb.GetMapRequest(id=map_id), timeout=GENEROUS_S).info.version
        except grpc.RpcError:
            return 0

    def cells(self, map_id):
        got = self.stub.GetMap(pb.GetMapRequest(id=map_id, include_cells=True),
                               timeout=GENEROUS_S)
        return got.info.version, got.raw

    def path(self, map_id, start, goal, timeout=GENEROUS_S):
        return self.stub.FindPath(
            pb.PathRequest(map_id=map_id, start=pb.Cell(x=start[0], y=start[1]),
                           goal=pb.Cell(x=goal[0], y=goal[1])), timeout=timeout)

    def update(self, map_id, x, y, cost, expected_version=0):
        return self.stub.UpdateCells(
            pb.UpdateCellsRequest(id=map_id, expected_version=expected_version,
                                  cells=[pb.CellUpdate(cell=pb.Cell(x=x, y=y), cost=cost)]),
            timeout=GENEROUS_S)


