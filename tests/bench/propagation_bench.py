#!/usr/bin/python3
"""Update propagation across replicas of a shared store (issue target: p99
<= 100 ms on loopback). Three gridstar-server replicas (1 worker each) on one
redis-server (appendfsync always); a 512 x 512 map (a shared Moving AI map,
or an open one); one-cell updates at a steady rate through the replicas in
turn. For each update, the time from its UpdateCells answer until every
replica answers a FindPath on the new version (PathResponse.map_version),
polled by one thread per replica. Prints p50 / p99 / max in ms.

  /usr/bin/python3 tests/bench/propagation_bench.py BUILD_DIR [MAP] [UPDATES] [PER_SECOND]
Defaults: ../shared/movingai/bg512/AR0011SR.map (an open 512 x 512 map if
missing), 300 updates, 10 per second.
"""

import os
import shutil
import sys
import tempfile
import threading
import time

sys.path.insert(0, os.path.join(os.path.dirname(__file__), "..", "cluster"))
import cluster_lib  # pylint: disable=wrong-import-position


def main():
    build = sys.argv[1]
    map_path = sys.argv[2] if len(sys.argv) > 2 else os.path.join(
        cluster_lib.ROOT, "..", "shared", "movingai", "bg512", "AR0011SR.map")
    updates = int(sys.argv[3]) if len(sys.argv) > 3 else 300
    rate = float(sys.argv[4]) if len(sys.argv) > 4 else 10.0
    grpc, pb, _ = cluster_lib.setup(build)
    if os.path.exists(map_path):
        with open(map_path, encoding="ascii") as f:
            movingai = f.read()
        name = os.path.basename(map_path)
    else:
        movingai = "type octile\nheight 512\nwidth 512\nmap\n" + ("." * 512 + "\n") * 512
        name = "open 512 x 512"
    tmp = tempfile.mkdtemp()
    os.makedirs(os.path.join(tmp, "redis"))
    redis = cluster_lib.Redis(os.path.join(tmp, "redis"))
    replicas = [cluster_lib.Replica(tmp, redis.url(), workers=1) for _ in range(3)]
    try:
        info = replicas[0].stub.RegisterMap(
            pb.RegisterMapRequest(id="m", movingai=movingai), timeout=300)
        width = info.width
        raw = replicas[0].stub.GetMap(pb.GetMapRequest(id="m", include_cells=True),
                                      timeout=300).raw
        open_cells = [(i % width, i // width) for i, c in enumerate(raw) if c == 1]
        cluster_lib.wait_for(lambda: all(r.version("m") == 1 for r in replicas),
                             "every replica at version 1")
        probe = open_cells[0]
        # Each poller: the time it first saw each version.
        seen = [dict() for _ in replicas]
        stop = threading.Event()

        def poll(i):
            r = replicas[i]
            while not stop.is_set():
                got = r.path("m", probe, probe).map_version
                now = time.monotonic()
                seen[i].setdefault(got, now)

        threads = [threading.Thread(target=poll, args=(i,)) for i in range(3)]
        for t in threads:
            t.start()
        answered = {}
        period = 1.0 / rate
        next_at = time.monotonic()
        version = 1
        for k in range(updates):
            next_at += period
            x, y = open_cells[1 + (k * 7919) % (len(open_cells) - 1)]
            via = replicas[k % 3]
            # Only cost changes (1 <-> 2): the map stays as connected.
            cost = 2 if k % 2 == 0 else 1
            while True:
                try:
                    got = via.update("m", x, y, cost, expected_version=0)
                    break
                except grpc.RpcError as e:
                    # The replica has not yet followed the last update.
                    if e.code() != grpc.StatusCode.ABORTED:
                        raise
            answered[got.version] = time.monotonic()
            version = got.version
            time.sleep(max(0.0, next_at - time.monotonic()))
        cluster_lib.wait_for(lambda: all(version in s for s in seen), "the last version")
        stop.set()
        for t in threads:
            t.join()
        delays = []
        for v, t0 in answered.items():
            # A replica that skipped v (it applied v and v+1 between two
            # polls) first saw a later version.
            firsts = [min(t for ver, t in s.items() if ver >= v) for s in seen]
            delays.append(max(0.0, max(firsts) - t0) * 1e3)
        delays.sort()
        q = lambda p: delays[min(len(delays) - 1, int(p * len(delays)))]
        print(f"propagation to all 3 replicas ({name}, {updates} one-cell updates at "
              f"{rate:g}/s): p50_ms={q(0.5):.2f} p99_ms={q(0.99):.2f} max_ms={delays[-1]:.2f}")
    finally:
        for r in replicas:
            r.kill()
        redis.kill()
        shutil.rmtree(tmp, ignore_errors=True)


if __name__ == "__main__":
    main()
