#!/usr/bin/python3
"""Link toggles and one-cell updates on a world, server-side (target: each
answered in at most 2 ms p99), through a real gridstar-server with
--data_dir (every write durable before its answer).

The world is world-bench's (tests/bench/world_bench.cc): the first 16 shared
Moving AI maps of 400 x 400 cells or more (repeated in order when fewer),
6 links from each map to a random other one (both ways, cost 1-10; 96
links), seeded.
Once every member map's end table is built: UPDATES link toggles (a random
link closed or opened, UpdateLinks) and UPDATES one-cell updates of a random
member map (UpdateCells: a random cell blocked, then opened again), each kind at RATE a second, first alone, then
while one client (its thread at nice 19, standing for clients on other
machines) asks world paths between random cells without pause; then,
once the tables follow the maps again, world paths alone, for their time. Prints each kind's server-side p50/p99 (the
/metrics histogram, 1.5x buckets interpolated), the p50/p99 of the durable
writes inside those same updates (gridstar_store_write_seconds: the data
directory's fdatasync) and client-side p50/p99,
the world paths' mean and p99 client-side, and the floor of a durable write
on this machine: small appends fdatasync'd in the data directory at the same
rate by another process (as many as one kind of update), alone and while the
world paths are asked (after the updates, not beside them: its appends would
compete with their writes for the disk).

  /usr/bin/python3 tests/bench/world_server_bench.py BUILD_DIR [MOVINGAI] [UPDATES] [RATE] [SERVER FLAGS...]
Defaults: ../shared/movingai, 300 updates, 10 a second; the server's flags after
them (e.g. --search_nice=19).
"""

import os
import random
import shutil
import subprocess
import sys
import tempfile
import threading
import time
import urllib.request

sys.path.insert(0, os.path.join(os.path.dirname(__file__), "..", "cluster"))
import cluster_lib  # pylint: disable=wrong-import-position

GENEROUS_S = 600


def read_map(path):
    """(width, height, rows) of a Moving AI map."""
    with open(path, encoding="ascii") as f:
        lines = f.read().split("\n")
    height = int(lines[1].split()[1])
    width = int(lines[2].split()[1])
    return width, height, lines[4:4 + height]


def passable(rows, x, y):
    return rows[y][x] in ".GS"


def buckets(metrics_port, method):
    """The cumulative buckets of `method`'s OK calls, server-side."""
    return histogram(metrics_port, "gridstar_request_duration_seconds",
                     (f'method="{method}"', 'code="OK"'))


def store_buckets(metrics_port, write):
    """The cumulative buckets of the store's durable writes of one kind."""
    return histogram(metrics_port, "gridstar_store_write_seconds", (f'write="{write}"',))


def histogram(metrics_port, name, wanted):
    page = urllib.request.urlopen(f"http://127.0.0.1:{metrics_port}/metrics",
                                  timeout=GENEROUS_S).read().decode()
    out = {}
    for line in page.splitlines():
        if not line.startswith(name + "_bucket{"):
            continue
        labels, value = line[len(name + "_bucket{"):].split("} ")
        if not all(w in labels for w in wanted):
            continue
        le = labels.split('le="')[1].split('"')[0]
        out[float("inf") if le == "+Inf" else float(le)] = float(value)
    return out


def quantile(before, after, p):
    les = sorted(after)
    counts = [after[le] - before.get(le, 0) for le in les]
    want, prev_le, prev_n = p * counts[-1], 0.0, 0.0
    for le, n in zip(les, counts):
        if n >= want:
            if le == float("inf"):
                return float("inf")
            frac = (want - prev_n) / (n - prev_n) if n > prev_n else 1
            return (prev_le + frac * (le - prev_le)) * 1e3
        prev_le, prev_n = le, n
    return float("nan")


def client_quantiles(times_ms):
    s = sorted(times_ms)
    return s[int(len(s) * 0.5)], s[min(len(s) - 1, int(len(s) * 0.99))]


def durable_appends(path, count, rate):
    """Milliseconds each of `count` 64-byte appends to `path` took to be
    fdatasync'd, one every 1/rate s (as the updates come)."""
    times = []
    with open(path, "ab") as f:
        for _ in range(count):
            started = time.monotonic()
            f.write(b"x" * 64)
            f.flush()
            os.fdatasync(f.fileno())
            times.append((time.monotonic() - started) * 1e3)
            time.sleep(max(0.0, 1.0 / rate - (time.monotonic() - started)))
    return times


def main():
    if sys.argv[1] == "--durable-appends":
        print(" ".join(f"{t:.4f}" for t in
                       durable_appends(sys.argv[2], int(sys.argv[3]), float(sys.argv[4]))))
        return
    build = sys.argv[1]
    movingai = sys.argv[2] if len(sys.argv) > 2 else os.path.join(
        cluster_lib.ROOT, "..", "shared", "movingai")
    updates = int(sys.argv[3]) if len(sys.argv) > 3 else 300
    rate = float(sys.argv[4]) if len(sys.argv) > 4 else 10.0
    grpc, pb, pb_grpc = cluster_lib.setup(build)
    paths = sorted(os.path.join(d, f) for d, _, files in os.walk(movingai)
                   for f in files if f.endswith(".map"))
    maps = []
    for path in paths:
        w, h, rows = read_map(path)
        if w >= 400 and h >= 400:
            maps.append((path, w, h, rows))
    if not maps:
        sys.exit(f"no map of 400 x 400 or more in {movingai}")
    while len(maps) < 16:
        maps.append(maps[len(maps) % len(maps)])
    maps = maps[:16]
    rng = random.Random(1)

    def random_cell(m):
        _, w, h, rows = maps[m]
        while True:
            x, y = rng.randrange(w), rng.randrange(h)
            if passable(rows, x, y):
                return x, y

    tmp = tempfile.mkdtemp()
    metrics_port = cluster_lib.free_port()
    server, target = cluster_lib.start_server(
        tmp, f"--metrics_port={metrics_port}", "--workers=2", *sys.argv[5:])
    try:
        stub = pb_grpc.PathfindingStub(grpc.insecure_channel(target))
        ids = [f"m{i}" for i in range(len(maps))]
        for i, (path, _, _, _) in enumerate(maps):
            with open(path, encoding="ascii") as f:
                stub.RegisterMap(pb.RegisterMapRequest(id=ids[i], movingai=f.read(),
                                                       jump_table=True), timeout=GENEROUS_S)
        world = pb.RegisterWorldRequest(id="w", map_ids=ids)
        for m in range(len(maps)):
            for k in range(6):
                to = rng.randrange(len(maps) - 1)
                to += to >= m
                fx, fy = random_cell(m)
                tx, ty = random_cell(to)
                link = world.links.add(id=f"l{m}.{k}", cost=1 + rng.randrange(10))
                getattr(link, "from").map_id = ids[m]
                getattr(link, "from").cell.x, getattr(link, "from").cell.y = fx, fy
                link.to.map_id = ids[to]
                link.to.cell.x, link.to.cell.y = tx, ty
        stub.RegisterWorld(world, timeout=GENEROUS_S)
        cluster_lib.wait_for(
            lambda: all(stub.GetWorld(pb.GetWorldRequest(id="w"), timeout=GENEROUS_S)
                        .tables_current), "every end table built")

        def world_query():
            a, b = rng.randrange(len(maps)), rng.randrange(len(maps))
            (sx, sy), (gx, gy) = random_cell(a), random_cell(b)
            r = pb.WorldPathRequest(world_id="w")
            r.start.map_id, r.goal.map_id = ids[a], ids[b]
            r.start.cell.x, r.start.cell.y, r.goal.cell.x, r.goal.cell.y = sx, sy, gx, gy
            started = time.monotonic()
            try:
                answer = stub.FindWorldPath(r, timeout=GENEROUS_S)
                searched.append(answer.search_micros / 1e3)
                searches.append(answer.searches)
            except grpc.RpcError as e:
                if e.code() != grpc.StatusCode.FAILED_PRECONDITION:
                    raise
            return (time.monotonic() - started) * 1e3

        searched, searches = [], []
        for _ in range(50):
            world_query()
        stop = threading.Event()
        queried = []

        def load():
            # The load client runs at the lowest priority: it stands for
            # game servers on other machines, whose own work does not
            # compete with gridstar's threads for these two cores.
            os.setpriority(os.PRIO_PROCESS, threading.get_native_id(), 19)
            while not stop.is_set():
                queried.append(world_query())

        links = [link.id for link in world.links]
        closed = set()
        results = {}
        floor_loaded = (float("nan"), float("nan"))
        for loaded in (False, True):
            loader = threading.Thread(target=load)
            if loaded:
                loader.start()
            for method in ("UpdateLinks", "UpdateCells"):
                write = "world" if method == "UpdateLinks" else "update"
                before = buckets(metrics_port, method)
                store_before = store_buckets(metrics_port, write)
                client = []
                for i in range(updates):
                    started = time.monotonic()
                    if method == "UpdateLinks":
                        link = rng.choice(links)
                        state = (pb.LinkUpdate.STATE_OPEN if link in closed
                                 else pb.LinkUpdate.STATE_CLOSED)
                        closed.symmetric_difference_update({link})
                        stub.UpdateLinks(pb.UpdateLinksRequest(
                            id="w", updates=[pb.LinkUpdate(link_id=link, state=state)]),
                            timeout=GENEROUS_S)
                    else:
                        # A random cell blocked, then opened again by the
                        # next update (the maps stay uniform: jps+ applies).
                        if i % 2 == 0:
                            m = rng.randrange(len(maps))
                            x, y = random_cell(m)
                        stub.UpdateCells(pb.UpdateCellsRequest(
                            id=ids[m], cells=[pb.CellUpdate(cell=pb.Cell(x=x, y=y),
                                                            cost=i % 2)]),
                            timeout=GENEROUS_S)
                    client.append((time.monotonic() - started) * 1e3)
                    time.sleep(max(0.0, 1.0 / rate - (time.monotonic() - started)))
                after = buckets(metrics_port, method)
                store_after = store_buckets(metrics_port, write)
                results[(method, loaded)] = (
                    quantile(before, after, 0.5), quantile(before, after, 0.99),
                    *client_quantiles(client),
                    quantile(store_before, store_after, 0.5),
                    quantile(store_before, store_after, 0.99))
            if loaded:
                # The same floor while the load still runs, after the updates
                # (at the same time, its appends would compete with their
                # writes for the disk): as many writes as one kind made.
                floor_probe = subprocess.run(
                    [sys.executable, __file__, "--durable-appends",
                     os.path.join(tmp, "data", "floor.loaded"), str(updates),
                     str(rate)],
                    stdout=subprocess.PIPE, text=True, check=True,
                    timeout=GENEROUS_S)
                floor_loaded = client_quantiles(
                    [float(t) for t in floor_probe.stdout.split()])
                stop.set()
                loader.join()
        # Once the tables follow the maps' last versions again.
        for _ in range(5):
            world_query()
        cluster_lib.wait_for(
            lambda: all(stub.GetWorld(pb.GetWorldRequest(id="w"), timeout=GENEROUS_S)
                        .tables_current), "every end table rebuilt")
        searched.clear()
        searches.clear()
        alone = [world_query() for _ in range(200)]
        search_alone = list(searched)
        # The floor, with nothing else running: a durable append here at the
        # updates' rate.
        syncs = durable_appends(os.path.join(tmp, "data", "floor.alone"), updates, rate)
        print(f"world: {len(maps)} maps, {len(links)} links; {updates} of each update "
              f"at {rate:g}/s while one client asked {len(queried)} world paths")
        for (method, loaded), (s50, s99, c50, c99, w50, w99) in results.items():
            print(f"{method} {'with' if loaded else 'without'} world paths asked: "
                  f"server p50_ms={s50:.2f} p99_ms={s99:.2f}; "
                  f"its durable writes p50_ms={w50:.2f} p99_ms={w99:.2f}; "
                  f"client p50_ms={c50:.2f} p99_ms={c99:.2f}")
        a50, a99 = client_quantiles(alone)
        print(f"FindWorldPath alone (client): mean_ms={sum(alone) / len(alone):.2f} "
              f"p50_ms={a50:.2f} p99_ms={a99:.2f}; the search in the server: "
              f"mean_ms={sum(search_alone) / max(1, len(search_alone)):.3f}, "
              f"{sum(searches) / max(1, len(searches)):.2f} searches a query")
        f50, f99 = client_quantiles(syncs)
        print(f"durable append floor (small records fdatasync'd at {rate:g}/s, "
              f"another process): alone p50_ms={f50:.2f} p99_ms={f99:.2f}; "
              f"while world paths were asked p50_ms={floor_loaded[0]:.2f} "
              f"p99_ms={floor_loaded[1]:.2f}")
    finally:
        server.kill()
        server.wait()
        shutil.rmtree(tmp, ignore_errors=True)


if __name__ == "__main__":
    main()
