#!/usr/bin/python3
"""auto with the contraction tier under a one-cell update stream, beside
jps+, through a real gridstar-server (issue #35: "answers stay exact and
auto is never slower than jps+ while the tier is repaired or rebuilt").

One shared Moving AI map (default sc1/Enigma) registered with the jump
table, the subgoal graph and the contraction hierarchy; once auto has
measured it, the map's scenario queries are asked one at a time, AUTO and
JPS_PLUS in turn (which goes first alternating), first with no update, then
while another thread sends UPDATES one-cell updates at RATE a second (a
random free cell blocked, then opened again, so the map keeps its shape).
Each update drops the tier and the subgoal graph from the new version; the
server rebuilds them in the background while the version answers without
them. Prints per phase and engine the server-side search time (the answer's
search_micros) mean, p50 and p99, what auto ran and how often, and the
answers compared: an AUTO and a JPS_PLUS answer on the same map version
must cost the same (jps+ is exact), and with no update each must cost the
scenario's optimum.

  /usr/bin/python3 tests/bench/tier_update_bench.py BUILD_DIR [MOVINGAI] [MAP] [UPDATES] [RATE]
Defaults: ../shared/movingai, sc1/Enigma, 100 updates, 10 a second.
"""

import collections
import os
import random
import shutil
import sys
import tempfile
import threading
import time

sys.path.insert(0, os.path.join(os.path.dirname(__file__), "..", "cluster"))
import cluster_lib  # pylint: disable=wrong-import-position

GENEROUS_S = 600


def read_scenario(path):
    """(sx, sy, gx, gy, optimal) of every query of a Moving AI scenario."""
    out = []
    with open(path, encoding="ascii") as f:
        for line in f.read().split("\n")[1:]:
            fields = line.split()
            if len(fields) == 9:
                out.append((int(fields[4]), int(fields[5]), int(fields[6]),
                            int(fields[7]), float(fields[8])))
    return out


def stats(values):
    s = sorted(values)
    return (sum(s) / len(s), s[len(s) // 2], s[min(len(s) - 1, int(len(s) * 0.99))])


def main():
    build = sys.argv[1]
    movingai = sys.argv[2] if len(sys.argv) > 2 else os.path.join(
        cluster_lib.ROOT, "..", "shared", "movingai")
    name = sys.argv[3] if len(sys.argv) > 3 else "sc1/Enigma"
    updates = int(sys.argv[4]) if len(sys.argv) > 4 else 100
    rate = float(sys.argv[5]) if len(sys.argv) > 5 else 10.0
    grpc, pb, pb_grpc = cluster_lib.setup(build)
    map_path = os.path.join(movingai, name + ".map")
    with open(map_path, encoding="ascii") as f:
        text = f.read()
    lines = text.split("\n")
    height, width = int(lines[1].split()[1]), int(lines[2].split()[1])
    rows = lines[4:4 + height]
    free = [(x, y) for y in range(height) for x in range(width) if rows[y][x] in ".GS"]
    queries = read_scenario(map_path + ".scen")
    rng = random.Random(1)

    tmp = tempfile.mkdtemp()
    server, target = cluster_lib.start_server(tmp, "--workers=2")
    try:
        stub = pb_grpc.PathfindingStub(grpc.insecure_channel(target))
        request = pb.RegisterMapRequest(id="m", movingai=text, jump_table=True,
                                        subgoal_graph=True)
        request.structures.add(name="contraction_hierarchy")
        info = stub.RegisterMap(request, timeout=GENEROUS_S)
        tier = [d for d in info.derived if d.name == "contraction_hierarchy"]
        print(f"map {name}: auto measured {pb.Algorithm.Name(info.auto_algorithm)}; "
              f"tier {tier[0].bytes if tier else 0} bytes, built in "
              f"{tier[0].build_micros / 1e6 if tier else 0:.2f} s")

        def ask(q, algorithm):
            r = pb.PathRequest(map_id="m", algorithm=algorithm)
            r.start.x, r.start.y, r.goal.x, r.goal.y = q[0], q[1], q[2], q[3]
            return stub.FindPath(r, timeout=GENEROUS_S)

        def phase(label, more, check_optimal):
            """Pairs of answers while more(i); prints and returns the wrong ones."""
            times = collections.defaultdict(list)
            ran = collections.Counter()
            pairs = mismatches = not_optimal = 0
            i = -1
            while more(i + 1):
                i += 1
                q = queries[rng.randrange(len(queries))]
                order = [pb.ALGORITHM_AUTO, pb.ALGORITHM_JPS_PLUS]
                if i % 2:
                    order.reverse()
                answers = {}
                for algorithm in order:
                    try:
                        a = ask(q, algorithm)
                    except grpc.RpcError as e:
                        # An update may have walled an end in: no path then.
                        if e.code() not in (grpc.StatusCode.NOT_FOUND,
                                            grpc.StatusCode.FAILED_PRECONDITION):
                            raise
                        continue
                    answers[algorithm] = a
                    times[algorithm].append(a.search_micros)
                    if algorithm == pb.ALGORITHM_AUTO:
                        ran[pb.Algorithm.Name(a.algorithm)] += 1
                    # Scenario lengths have 6 significant digits (bg512's two
                    # decimals): 0.01 apart is the same length.
                    if check_optimal and abs(a.cost - q[4]) > 0.01:
                        not_optimal += 1
                if len(answers) == 2:
                    auto, jps = answers[pb.ALGORITHM_AUTO], answers[pb.ALGORITHM_JPS_PLUS]
                    if auto.map_version == jps.map_version:
                        pairs += 1
                        if abs(auto.cost - jps.cost) > 1e-6 * max(1.0, jps.cost):
                            mismatches += 1
            for algorithm in (pb.ALGORITHM_AUTO, pb.ALGORITHM_JPS_PLUS):
                mean, p50, p99 = stats(times[algorithm])
                print(f"{label} {pb.Algorithm.Name(algorithm)}: {len(times[algorithm])} answers, "
                      f"search_micros mean {mean:.1f} p50 {p50:.1f} p99 {p99:.1f}")
            auto_mean = stats(times[pb.ALGORITHM_AUTO])[0]
            jps_mean = stats(times[pb.ALGORITHM_JPS_PLUS])[0]
            print(f"{label}: auto / jps+ mean {auto_mean / jps_mean:.3f}; auto ran "
                  + ", ".join(f"{k} {v}" for k, v in sorted(ran.items()))
                  + f"; {pairs} same-version pairs, {mismatches} costs differ"
                  + (f"; {not_optimal} answers not optimal" if check_optimal else ""))
            return mismatches + not_optimal

        bad = phase("no updates", lambda i: i < 400, True)
        sent = []

        def stream():
            cells = random.Random(2)  # Its own: the queries' stay seeded.
            blocked = None
            next_at = time.monotonic()
            while len(sent) < updates:
                u = pb.UpdateCellsRequest(id="m")
                if blocked is None:
                    blocked = free[cells.randrange(len(free))]
                    cost = 0
                else:
                    cost = 1
                c = u.cells.add(cost=cost)
                c.cell.x, c.cell.y = blocked
                if cost == 1:
                    blocked = None
                stub.UpdateCells(u, timeout=GENEROUS_S)
                sent.append(time.monotonic())
                next_at += 1.0 / rate
                time.sleep(max(0.0, next_at - time.monotonic()))

        streamer = threading.Thread(target=stream)
        started = time.monotonic()
        streamer.start()
        bad += phase(f"updates at {rate:g}/s", lambda i: streamer.is_alive(), False)
        streamer.join()
        print(f"updates: {len(sent)} in {time.monotonic() - started:.1f} s")
        info = stub.GetMap(pb.GetMapRequest(id="m"), timeout=GENEROUS_S).info
        print("after the stream: " + ", ".join(
            f"{d.name} {'current' if d.current else 'pending'}" for d in info.derived))
        if bad:
            sys.exit(f"{bad} answers wrong")
    finally:
        server.kill()
        server.wait()
        shutil.rmtree(tmp, ignore_errors=True)


if __name__ == "__main__":
    main()
