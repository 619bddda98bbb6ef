#!/usr/bin/python3
"""One map's search rate through plain round robin: two replicas of one
worker each (each pinned to its own core with taskset) against one, on a
shared store (issue target: >= 1.7x). The load is astar on a large map's
longest scenario queries (several ms each, so that the Python load
generator's share of the two cores stays small), from THREADS threads over
one channel with the round_robin policy. Phases alternate (one replica, two,
one, two), DURATION seconds each; prints each phase's rate and the ratio of
the two-replica mean to the one-replica mean.

  /usr/bin/python3 tests/bench/scaling_bench.py BUILD_DIR [MAP] [DURATION] [THREADS]
Defaults: ../shared/movingai/cities/Berlin_0_1024.map, 20 s, 4 threads.
"""

import os
import shutil
import sys
import tempfile
import threading
import time

sys.path.insert(0, os.path.join(os.path.dirname(__file__), "..", "cluster"))
import cluster_lib  # pylint: disable=wrong-import-position


def long_queries(scen, count):
    rows = []
    with open(scen, encoding="ascii") as f:
        next(f)
        for line in f:
            c = line.split()
            rows.append((float(c[8]), (int(c[4]), int(c[5])), (int(c[6]), int(c[7]))))
    rows.sort(reverse=True)
    return [(s, g) for _, s, g in rows[:count]]


def main():
    build = sys.argv[1]
    map_path = sys.argv[2] if len(sys.argv) > 2 else os.path.join(
        cluster_lib.ROOT, "..", "shared", "movingai", "cities", "Berlin_0_1024.map")
    duration = float(sys.argv[3]) if len(sys.argv) > 3 else 20.0
    threads = int(sys.argv[4]) if len(sys.argv) > 4 else 4
    grpc, pb, _ = cluster_lib.setup(build)
    with open(map_path, encoding="ascii") as f:
        movingai = f.read()
    queries = long_queries(map_path + ".scen", 200)
    tmp = tempfile.mkdtemp()
    os.makedirs(os.path.join(tmp, "redis"))
    redis = cluster_lib.Redis(os.path.join(tmp, "redis"))
    a = cluster_lib.Replica(tmp, redis.url(), workers=1, pin=0)
    b = None
    try:
        a.stub.RegisterMap(pb.RegisterMapRequest(id="m", movingai=movingai), timeout=300)

        def rate(replicas):
            target = "ipv4:" + ",".join(f"127.0.0.1:{r.port}" for r in replicas)
            channel = grpc.insecure_channel(
                target, options=[("grpc.lb_policy_name", "round_robin")])
            stub = cluster_lib.pb_grpc.PathfindingStub(channel)
            done = [0]
            lock = threading.Lock()
            end = time.monotonic() + duration

            def run(k):
                n = k
                while time.monotonic() < end:
                    s, g = queries[n % len(queries)]
                    stub.FindPath(pb.PathRequest(
                        map_id="m", start=pb.Cell(x=s[0], y=s[1]),
                        goal=pb.Cell(x=g[0], y=g[1]), algorithm=pb.ALGORITHM_ASTAR),
                        timeout=300)
                    with lock:
                        done[0] += 1
                    n += threads
            workers = [threading.Thread(target=run, args=(k,)) for k in range(threads)]
            t0 = time.monotonic()
            for w in workers:
                w.start()
            for w in workers:
                w.join()
            channel.close()
            return done[0] / (time.monotonic() - t0)

        b = cluster_lib.Replica(tmp, redis.url(), workers=1, pin=1)
        cluster_lib.wait_for(lambda: b.version("m") == 1, "the second replica to load the map")
        one, two = [], []
        for phase in range(4):
            if phase % 2 == 0:
                one.append(rate([a]))
                print(f"one replica: {one[-1]:.1f} searches/s", flush=True)
            else:
                two.append(rate([a, b]))
                print(f"two replicas: {two[-1]:.1f} searches/s", flush=True)
        ratio = (sum(two) / len(two)) / (sum(one) / len(one))
        print(f"two replicas / one ({os.path.basename(map_path)}, astar, {threads} threads, "
              f"{duration:g} s phases): {ratio:.2f}x")
    finally:
        for r in (a, b):
            if r is not None:
                r.kill()
        redis.kill()
        shutil.rmtree(tmp, ignore_errors=True)


if __name__ == "__main__":
    main()
