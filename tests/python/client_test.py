"""The Python client (client/python) against the real gridstar-server: maps,
paths (unary, batched, streamed), groups, flow fields, updates, errors, TLS,
mutual TLS and keys, healing a restarted server. Its retries and headers
against a scripted in-process server are in retry_test.py.

Run by CTest as: /usr/bin/python3 tests/python/client_test.py BUILD_DIR
(the stubs and the package are in BUILD_DIR/python). Exits 77 (skipped)
without Debian's python3-grpcio outside CI, fails without it in CI.
"""

import math
import os
import shutil
import signal
import socket
import subprocess
import sys
import tempfile
import time
import unittest

ROOT = os.path.abspath(os.path.join(os.path.dirname(__file__), "..", ".."))
SAMPLE = os.path.join(ROOT, "data", "sample")
DUNGEON = os.path.join(SAMPLE, "dungeon.map")
ADMIN = "admin-token-0123456789abcdef"
QUERY = "query-token-0123456789abcdef"
# Waits the test does not mean to hit: a slow machine only takes longer.
GENEROUS_S = 300
BUILD = None
grpc = Client = Error = cells_of = pb = pb_grpc = gridstar_client = None


def free_port():
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


def scenarios(limit):
    """(start, goal, optimal cost) of the sample dungeon's scenario file."""
    out = []
    with open(DUNGEON + ".scen", encoding="ascii") as f:
        next(f)
        for line in f:
            cols = line.split()
            out.append(((int(cols[4]), int(cols[5])), (int(cols[6]), int(cols[7])),
                        float(cols[8])))
            if len(out) == limit:
                break
    return out


def make_certs(d):
    """A CA, a server certificate for 'gridstar' and 127.0.0.1 and a client
    certificate, by openssl."""
    ec = "-newkey ec -pkeyopt ec_paramgen_curve:prime256v1 -nodes"
    script = f"""set -e; cd {d}
openssl req -x509 {ec} -keyout ca.key -out ca.crt -days 2 -subj /CN=test-ca
printf 'subjectAltName=DNS:gridstar,IP:127.0.0.1\\n' > san.ext
openssl req {ec} -keyout server.key -out server.csr -subj /CN=gridstar
openssl x509 -req -in server.csr -CA ca.crt -CAkey ca.key -CAcreateserial \
  -out server.crt -days 2 -extfile san.ext
openssl req {ec} -keyout client.key -out client.csr -subj /CN=client
openssl x509 -req -in client.csr -CA ca.crt -CAkey ca.key -CAcreateserial \
  -out client.crt -days 2"""
    subprocess.run(["sh", "-c", script], check=True, stdout=subprocess.DEVNULL,
                   stderr=subprocess.DEVNULL)


class Server:
    """A gridstar-server on loopback; port 0 picks a free one."""

    def __init__(self, tmp, *flags, port=0):
        self.port_file = os.path.join(tmp, f"port.{time.monotonic_ns()}")
        self.proc = subprocess.Popen(
            [os.path.join(BUILD, "server", "gridstar-server"), "--host=127.0.0.1",
             f"--port={port}", "--port_file=" + self.port_file, "--metrics_port=0",
             "--workers=2", *flags], stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
        deadline = time.monotonic() + GENEROUS_S
        while not os.path.exists(self.port_file):
            if self.proc.poll() is not None or time.monotonic() > deadline:
                raise RuntimeError("gridstar-server did not start")
            time.sleep(0.05)
        with open(self.port_file, encoding="ascii") as f:
            self.port = int(f.read().strip())
        self.target = f"127.0.0.1:{self.port}"

    def kill(self):
        if self.proc.poll() is None:
            self.proc.send_signal(signal.SIGKILL)
        self.proc.wait()


def read(path):
    with open(path, encoding="ascii") as f:
        return f.read()


def assert_valid_path(test, path, start, goal):
    cells = cells_of(path)
    test.assertEqual(cells[0], tuple(start))
    test.assertEqual(cells[-1], tuple(goal))
    for (ax, ay), (bx, by) in zip(cells, cells[1:]):
        test.assertLessEqual(max(abs(ax - bx), abs(ay - by)), 1, (ax, ay, bx, by))


class PlainServerTest(unittest.TestCase):
    """A plaintext server without keys, as for local use."""

    @classmethod
    def setUpClass(cls):
        cls.tmp = tempfile.mkdtemp()
        cls.server = Server(cls.tmp)
        cls.client = Client(cls.server.target, deadline=GENEROUS_S)
        cls.info = cls.client.register_map("dungeon", movingai=read(DUNGEON),
                                           jump_table=True)

    @classmethod
    def tearDownClass(cls):
        cls.client.close()
        cls.server.kill()
        shutil.rmtree(cls.tmp, ignore_errors=True)

    def test_register_is_idempotent_and_lists_maps(self):
        again = self.client.register_map("dungeon", movingai=read(DUNGEON), jump_table=True)
        self.assertEqual(again.version, self.info.version)
        self.assertEqual((self.info.width, self.info.height), (128, 128))
        self.assertIn("dungeon", [m.id for m in self.client.list_maps()])
        self.assertTrue(self.client.health())

    def test_structures_by_name_are_the_keywords_equivalent(self):
        info = self.client.register_map("dungeon-named", movingai=read(DUNGEON),
                                        structures={"jump_table": 0, "landmarks": 4})
        self.assertTrue(info.jump_table)
        self.assertEqual(info.landmarks, 4)
        self.assertEqual([d.name for d in info.derived][:2], ["landmarks", "jump_table"])
        again = self.client.register_map("dungeon-named", movingai=read(DUNGEON),
                                         jump_table=True, landmarks=4)
        self.assertEqual(again.version, info.version)
        with self.assertRaises(Exception) as raised:
            self.client.register_map("dungeon-bad", movingai=read(DUNGEON),
                                     structures={"no_such": 0})
        self.assertIn("known: ", str(raised.exception))

    def test_tiled_and_image_maps_register_from_files(self):
        # The tavern (Tiled, its tileset read from beside it): walls, tables
        # and the bar blocked, the rug costs 2, the stream is area 2 at cost
        # 3 with a bridge of area 0.
        info = self.client.register_map_file("tavern", os.path.join(SAMPLE, "tavern.tmx"))
        self.assertEqual((info.width, info.height), (32, 20))
        got = self.client.get_map("tavern", include_cells=True)
        cost = lambda x, y: got.raw[y * 32 + x]
        area = lambda x, y: got.areas[y * 32 + x]
        self.assertEqual(cost(20, 1), 0)
        self.assertEqual(cost(4, 4), 0)
        self.assertEqual(cost(3, 7), 2)
        self.assertEqual((cost(26, 1), area(26, 1)), (3, 2))
        self.assertEqual((cost(26, 9), area(26, 9)), (1, 0))
        self.assertEqual([cost(x, 15) for x in range(12, 20)], [1, 0, 0, 0, 0, 0, 0, 1])
        # Rules over the properties: furniture is walkable, water dearer.
        ruled = self.client.register_map_file(
            "tavern-ruled", os.path.join(SAMPLE, "tavern.tmx"),
            tiled_rules=[{"class_name": "furniture", "blocked": False},
                         {"class_name": "water", "cost": 9}])
        got = self.client.get_map("tavern-ruled", include_cells=True)
        self.assertEqual((cost(4, 4), cost(26, 1), cost(13, 15)), (1, 9, 1))
        self.assertGreater(ruled.passable_cells, info.passable_cells)
        # The courtyard PNG: white floor costs 1, the pond is dark (a wall)
        # unless a palette says otherwise.
        court = os.path.join(SAMPLE, "courtyard.png")
        self.client.register_map_file("court", court)
        got = self.client.get_map("court", include_cells=True)
        self.assertEqual((got.raw[2 * 48 + 2], got.raw[20 * 48 + 30]), (1, 0))
        self.client.register_map_file(
            "pond", court,
            image_mapping={"palette": {0xffffff: 1, 0x000000: 0, 0x2080ff: (3, 2)}})
        got = self.client.get_map("pond", include_cells=True)
        self.assertEqual((got.raw[20 * 48 + 30], got.areas[20 * 48 + 30]), (3, 2))
        path = self.client.find_path("pond", (2, 2), (45, 29))
        self.assertGreater(path.cost, 0)
        with self.assertRaises(Error) as raised:
            self.client.register_map_file("bad", court, image_mapping={"palette": {0xffffff: 1}})
        self.assertEqual(raised.exception.code, grpc.StatusCode.INVALID_ARGUMENT)
        self.assertIn("png: pixel (0, 0): colour #000000", str(raised.exception))
        with self.assertRaises(ValueError):
            self.client.register_map("bad", movingai=read(DUNGEON), image_mapping={"invert": True})

    def test_every_algorithm_finds_the_optimal_path(self):
        for algorithm in ("astar", "dijkstra", "jps", "jps_plus", "auto", "ALGORITHM_ALT",
                          "bidirectional",
                          pb.ALGORITHM_BASELINE):
            for start, goal, optimal in scenarios(10):
                with self.subTest(algorithm=algorithm, start=start, goal=goal):
                    path = self.client.find_path("dungeon", start, goal, algorithm=algorithm)
                    self.assertAlmostEqual(path.cost, optimal, places=4)
                    assert_valid_path(self, path, start, goal)
        # HPA* on a map registered with its abstraction: legal paths, never
        # shorter than the optimum (bounded-suboptimal, so not equal).
        info = self.client.register_map("dungeon-hpa", movingai=read(DUNGEON), hpa=True)
        self.assertTrue(info.hpa)
        self.assertGreater(info.hpa_bytes, 0)
        for start, goal, optimal in scenarios(10):
            with self.subTest(algorithm="hpa", start=start, goal=goal):
                path = self.client.find_path("dungeon-hpa", start, goal, algorithm="hpa")
                self.assertEqual(path.algorithm, "hpa")
                self.assertGreaterEqual(path.cost, optimal - 1e-4)
                assert_valid_path(self, path, start, goal)
        smoothed = self.client.find_path("dungeon", (57, 73), (77, 77), smooth=True)
        self.assertLessEqual(smoothed.smoothed_cost, smoothed.cost + 1e-9)
        self.assertGreaterEqual(len(cells_of(smoothed.waypoints)), 2)

    def test_a_batch_answers_every_item_and_a_bad_item_fails_alone(self):
        pairs = [(s, g) for s, g, _ in scenarios(20)]
        pairs.insert(5, ((500, 1), (2, 2)))  # Off the map.
        results = self.client.find_paths("dungeon", pairs, algorithm="jps")
        self.assertEqual(len(results), 21)
        # A failed item is an Error (returned, not raised); the others have
        # the shape of find_path's answer.
        self.assertIsInstance(results[5], Error)
        self.assertEqual(results[5].code, grpc.StatusCode.INVALID_ARGUMENT)
        self.assertIn("start", results[5].message)
        good = [r for i, r in enumerate(results) if i != 5]
        single = self.client.find_path("dungeon", pairs[0][0], pairs[0][1], algorithm="jps")
        self.assertEqual(type(good[0]), type(single))
        for r, (_, _, optimal) in zip(good, scenarios(20)):
            self.assertNotIsInstance(r, Error)
            self.assertAlmostEqual(r.cost, optimal, places=4)
            self.assertEqual(r.algorithm, "jps")

    def test_a_stream_answers_every_request_once(self):
        scen = scenarios(60)
        answers = list(self.client.find_paths_stream(
            "dungeon", [(s, g) for s, g, _ in scen], algorithm="jps_plus"))
        self.assertEqual(sorted(a.request_id for a in answers), list(range(60)))
        for a in answers:
            self.assertNotIsInstance(a, Error)
            self.assertAlmostEqual(a.cost, scen[a.request_id][2], places=4)

    def test_watched_agents_get_a_new_path_when_an_update_blocks_theirs(self):
        c = self.client
        c.register_map("hall", raw=bytes([1] * 60), width=20, height=3)
        with c.watch_paths(timeout=GENEROUS_S) as watch:
            events = iter(watch)
            rid = watch.add(7, "hall", (0, 1), (19, 1), algorithm="astar")
            added = next(events)
            self.assertEqual((added.request_id, added.agent_id, added.code),
                             (rid, 7, grpc.StatusCode.OK))
            self.assertEqual(added.reason, "added")
            self.assertEqual(cells_of(added.path.cells)[5], (5, 1))
            rid = watch.move(7, (3, 1))
            moved = next(events)
            self.assertEqual((moved.request_id, moved.path_index), (rid, 3))
            info = c.update_cells("hall", [((10, 1), 0)])
            pushed = next(events)
            self.assertEqual(pushed.request_id, 0)
            self.assertEqual(pushed.reason, "blocked")
            self.assertEqual(pushed.map_version, info.version)
            cells = cells_of(pushed.path.cells)
            self.assertEqual(cells[0], (3, 1))
            self.assertNotIn((10, 1), cells)
            watch.remove(7)
            self.assertEqual(next(events).reason, "removed")
            watch.move(7, (4, 1))
            gone = next(events)
            self.assertEqual(gone.code, grpc.StatusCode.NOT_FOUND)
            self.assertIn("agent_id", gone.message)
            watch.close()
            self.assertEqual(list(events), [])
        c.delete_map("hall")

    def test_group_paths_by_flow_field_and_by_splicing(self):
        starts = [(8, 58), (9, 58), (10, 58), (57, 73), (113, 57)]
        field = self.client.find_group_paths("dungeon", starts, [(97, 52)],
                                             method="flow_field")
        self.assertTrue(field.flow_field)
        for start, unit in zip(starts, field.units):
            self.assertEqual(unit.code, grpc.StatusCode.OK, unit.message)
            optimal = self.client.find_path("dungeon", start, (97, 52)).cost
            self.assertAlmostEqual(unit.path.cost, optimal, places=4)
        spliced = self.client.find_group_paths("dungeon", starts, [(97, 52)],
                                               method="splice", report_overhead=True)
        self.assertFalse(spliced.flow_field)
        self.assertEqual(len(spliced.units), len(starts))
        for start, unit in zip(starts, spliced.units):
            self.assertEqual(unit.code, grpc.StatusCode.OK, unit.message)
            assert_valid_path(self, unit.path, start, (97, 52))
        self.assertGreaterEqual(spliced.mean_cost_overhead, -1e-9)  # Rounding.

    def test_a_flow_field_gives_every_cells_optimal_cost(self):
        field = self.client.compute_flow_field("dungeon", (97, 52))
        self.assertTrue(field.complete)
        self.assertEqual(len(field.costs), 128 * 128)
        self.assertEqual(len(field.directions), 128 * 128)
        self.assertEqual(field.directions[52 * 128 + 97], 8)
        for start, _, _ in scenarios(10):
            optimal = self.client.find_path("dungeon", start, (97, 52)).cost
            self.assertTrue(math.isclose(field.costs[start[1] * 128 + start[0]], optimal,
                                         rel_tol=1e-5))

    def test_updates_change_paths_and_versions(self):
        # A 9 x 3 room; a wall across its middle column cuts it in two.
        c = self.client
        info = c.register_map("room", raw=bytes([1] * 27), width=9, height=3)
        self.assertEqual(c.find_path("room", (0, 1), (8, 1)).cost, 8)
        info = c.update_cells("room", rects=[((4, 0), (5, 3), 0)])
        self.assertEqual(info.version, 2)
        self.assertEqual(info.components, 2)
        with self.assertRaises(Error) as e:
            c.find_path("room", (0, 1), (8, 1))
        self.assertEqual(e.exception.code, grpc.StatusCode.FAILED_PRECONDITION)
        with self.assertRaises(Error) as e:
            c.update_cells("room", [((4, 1), 1)], expected_version=1)
        self.assertEqual(e.exception.code, grpc.StatusCode.ABORTED)
        info = c.update_cells("room", [((4, 1), 1)], expected_version=2)
        self.assertEqual(info.version, 3)
        self.assertEqual(c.find_path("room", (0, 1), (8, 1)).map_version, 3)
        raw = c.get_map("room", include_cells=True).raw
        self.assertEqual(raw, bytes([1] * 4 + [0] + [1] * 8 + [1] + [1] * 8 + [0] + [1] * 4))
        c.delete_map("room")
        with self.assertRaises(Error) as e:
            c.get_map("room")
        self.assertEqual(e.exception.code, grpc.StatusCode.NOT_FOUND)

    def test_boats_and_big_agents_get_paths_of_their_own(self):
        # Ground left and right of a lake (area 2) three cells wide.
        c = self.client
        areas = bytes(([0] * 3 + [2] * 3 + [0] * 3) * 4)
        info = c.register_map("pond", raw=bytes([1] * 36), width=9, height=4,
                              areas=areas, default_areas=0b1, max_agent_size=2)
        self.assertTrue(info.has_areas)
        self.assertEqual(info.passable_cells, 24)
        self.assertEqual(info.agent_maps, 1)
        with self.assertRaises(Error) as e:  # Walkers cannot cross.
            c.find_path("pond", (0, 0), (8, 0))
        self.assertEqual(e.exception.code, grpc.StatusCode.FAILED_PRECONDITION)
        boat = c.find_path("pond", (3, 0), (5, 3), areas=0b100)
        self.assertTrue(all(3 <= x <= 5 for x in boat.cells[0::2]))
        # A 2 x 2 agent: its top-left cell stays a cell from the right and
        # bottom edges; every square over water costs three times.
        wide = c.find_path("pond", (0, 0), (7, 2), areas=0b101, agent_size=2,
                           area_costs=[1, 1, 3])
        cells = list(zip(wide.cells[0::2], wide.cells[1::2]))
        self.assertEqual((cells[0], cells[-1]), ((0, 0), (7, 2)))
        self.assertTrue(all(x <= 7 and y <= 2 for x, y in cells))
        self.assertGreater(wide.cost, 10)
        with self.assertRaises(Error) as e:
            c.find_path("pond", (0, 0), (1, 1), agent_size=9)
        self.assertEqual(e.exception.code, grpc.StatusCode.INVALID_ARGUMENT)
        self.assertIn("agent_size", e.exception.message)
        c.delete_map("pond")

    def test_bad_requests_get_precise_statuses(self):
        cases = [
            ("unknown map", lambda: self.client.find_path("nowhere", (1, 1), (2, 2)),
             grpc.StatusCode.NOT_FOUND, "nowhere"),
            ("start off the map", lambda: self.client.find_path("dungeon", (500, 3), (2, 2)),
             grpc.StatusCode.INVALID_ARGUMENT, "start"),
            ("raw of the wrong size",
             lambda: self.client.register_map("bad", raw=b"\x01" * 5, width=2, height=2),
             grpc.StatusCode.INVALID_ARGUMENT, "raw"),
            ("bad id", lambda: self.client.register_map("no spaces", raw=b"\x01", width=1,
                                                        height=1),
             grpc.StatusCode.INVALID_ARGUMENT, "id"),
            ("update off the map",
             lambda: self.client.update_cells("dungeon", [((128, 0), 0)]),
             grpc.StatusCode.INVALID_ARGUMENT, "cells"),
            ("weight out of range",
             lambda: self.client.find_path("dungeon", (57, 73), (77, 77),
                                           algorithm="weighted", weight=1000),
             grpc.StatusCode.INVALID_ARGUMENT, "weight"),
            ("expansions run out",
             lambda: self.client.find_path("dungeon", (8, 58), (97, 52), algorithm="astar",
                                           max_expansions=3),
             grpc.StatusCode.RESOURCE_EXHAUSTED, "expansions"),
        ]
        for name, call, code, word in cases:
            with self.subTest(name):
                with self.assertRaises(Error) as e:
                    call()
                self.assertEqual(e.exception.code, code, e.exception.message)
                self.assertIn(word, e.exception.message)
        partial = self.client.find_path("dungeon", (8, 58), (97, 52), algorithm="astar",
                                        max_expansions=3, allow_partial=True)
        self.assertTrue(partial.partial)

    def test_bad_arguments_are_refused_before_sending(self):
        # Cells are whole numbers in [0, 2^31 - 1]: never truncated (15.7 was
        # once searched as 15), never sent out of range.
        for name, call, error in [
                ("start", lambda: self.client.find_path("dungeon", (15.7, 214.9), (2, 2)),
                 TypeError),
                ("goal", lambda: self.client.find_path("dungeon", (1, 1), (2.0, 2)),
                 TypeError),
                ("start", lambda: self.client.find_path("dungeon", (True, 1), (2, 2)),
                 TypeError),
                ("start", lambda: self.client.find_path("dungeon", (-1, 3), (2, 2)),
                 ValueError),
                ("goal", lambda: self.client.find_path("dungeon", (1, 1), (2, 2**31)),
                 ValueError),
                ("cells[0]", lambda: self.client.update_cells("dungeon", [((1.5, 1), 0)]),
                 TypeError),
                ("starts[1]", lambda: self.client.find_group_paths(
                    "dungeon", [(1, 1), (2, "3")], [(5, 5)]), TypeError),
                ("algorithm", lambda: self.client.find_path("dungeon", (1, 1), (2, 2),
                                                            algorithm=3.5), TypeError),
        ]:
            with self.subTest(name, error=error):
                with self.assertRaises(error) as e:
                    call()
                self.assertIn(name, str(e.exception))
        for name, call in [
                ("algorithm", lambda: self.client.find_path("dungeon", (1, 1), (2, 2),
                                                            algorithm="fastest")),
                ("diagonal", lambda: self.client.find_path("dungeon", (1, 1), (2, 2),
                                                           diagonal=42)),
                ("raw, movingai, pgm", lambda: self.client.register_map("x")),
        ]:
            with self.subTest(name):
                with self.assertRaises(ValueError) as e:
                    call()
                self.assertIn(name.split(",")[0], str(e.exception))

    def test_every_spelling_of_every_enum_is_one_value(self):
        # The vocabulary of the CLI (gridstar names) is the client's.
        out = subprocess.run([os.path.join(BUILD, "client", "gridstar"), "names"],
                             capture_output=True, text=True, check=True).stdout
        cli = {}
        for line in out.splitlines():
            enum, number, name = line.split()
            cli.setdefault(enum, {})[name] = int(number)
        self.assertEqual(gridstar_client.names(), cli)
        self.assertGreaterEqual(len(cli), 5)
        for spelling in ("jps+", "jps_plus", "JPS_PLUS", "ALGORITHM_JPS_PLUS", "Jps-Plus"):
            with self.subTest(spelling):
                path = self.client.find_path("dungeon", (57, 73), (77, 77), algorithm=spelling)
                self.assertEqual(path.algorithm, "jps+")
        for spelling in ("no-corner-cutting", "no_corner_cutting", "NO_CORNER_CUTTING",
                         "DIAGONAL_POLICY_NO_CORNER_CUTTING"):
            with self.subTest(spelling):
                self.client.find_path("dungeon", (57, 73), (77, 77), diagonal=spelling)
        group = self.client.find_group_paths("dungeon", [(8, 58)], [(97, 52)],
                                             method="FLOW_FIELD")
        self.assertTrue(group.flow_field)
        info = self.client.list_maps()[0]
        self.assertIn(info.auto_algorithm, cli["Algorithm"])

    def test_the_example_script_draws_a_path(self):
        env = dict(os.environ, PYTHONPATH=os.path.join(BUILD, "python"))
        out = subprocess.run(
            [sys.executable, os.path.join(ROOT, "client/python/examples/find_path.py"),
             "--server", self.server.target, "--id=example", DUNGEON, "57", "73", "77",
             "77"],
            env=env, capture_output=True, text=True, timeout=GENEROUS_S)
        self.assertEqual(out.returncode, 0, out.stderr)
        rows = out.stdout.split("\n")
        self.assertEqual(rows[73][57], "S")
        self.assertEqual(rows[77][77], "G")
        self.assertIn("cost 24.142", out.stdout)


class HealingTest(unittest.TestCase):
    def test_a_restarted_empty_server_gets_the_map_and_its_updates_again(self):
        tmp = tempfile.mkdtemp()
        server = Server(tmp)
        try:
            with Client(server.target, deadline=GENEROUS_S) as c:
                c.register_map("room", raw=bytes([1] * 27), width=9, height=3)
                c.update_cells("room", rects=[((4, 0), (5, 2), 0)])  # Door at (4, 2).
                before = c.find_path("room", (0, 0), (8, 0))
                server.kill()
                server = Server(tmp, port=server.port)  # Same address, no maps.
                after = c.find_path("room", (0, 0), (8, 0))
                self.assertEqual(c.reregistrations, 1)
                # The same cost, not the same cells: each server measures what
                # auto runs at load, and engines break ties differently.
                self.assertAlmostEqual(after.cost, before.cost, places=9)
                self.assertEqual(after.map_version, 2)
                self.assertIn((4, 2), cells_of(after))
        finally:
            server.kill()
            shutil.rmtree(tmp, ignore_errors=True)


class SecureServerTest(unittest.TestCase):
    """Mutual TLS and keys."""

    @classmethod
    def setUpClass(cls):
        cls.tmp = tempfile.mkdtemp()
        make_certs(cls.tmp)
        for name, token in (("admin", ADMIN), ("query", QUERY)):
            with open(os.path.join(cls.tmp, name + ".tokens"), "w", encoding="ascii") as f:
                f.write(f"# {name} keys\n{token}\n")
        t = cls.tmp
        cls.server = Server(t, f"--tls_cert={t}/server.crt", f"--tls_key={t}/server.key",
                            f"--tls_client_ca={t}/ca.crt",
                            f"--admin_token_file={t}/admin.tokens",
                            f"--query_token_file={t}/query.tokens")

    @classmethod
    def tearDownClass(cls):
        cls.server.kill()
        shutil.rmtree(cls.tmp, ignore_errors=True)

    def client(self, **kw):
        t = self.tmp
        tls = dict(tls_ca_file=f"{t}/ca.crt", tls_cert_file=f"{t}/client.crt",
                   tls_key_file=f"{t}/client.key", tls_server_name="gridstar")
        tls.update(kw)
        # Retries as a client does by default: a fresh TLS connection to a
        # server slowed down by a sanitizer may be closed once while it
        # starts (UNAVAILABLE, "Socket closed"); refusals are not retried
        # away (UNAUTHENTICATED, PERMISSION_DENIED), and a refused handshake
        # stays UNAVAILABLE after every attempt.
        return Client(self.server.target, deadline=GENEROUS_S, **tls)

    def test_keys_decide_what_a_caller_may_do(self):
        with self.client(token_file=f"{self.tmp}/admin.tokens") as admin:
            admin.register_map("dungeon", movingai=read(DUNGEON))
        with self.client(token=QUERY) as query:
            self.assertAlmostEqual(query.find_path("dungeon", (57, 73), (77, 77)).cost,
                                   24.14213562, places=4)
            with self.assertRaises(Error) as e:
                query.update_cells("dungeon", [((1, 1), 0)])
            self.assertEqual(e.exception.code, grpc.StatusCode.PERMISSION_DENIED)
            self.assertNotIn(QUERY, e.exception.message)
        for token in (None, "not-a-key-0123456789"):
            with self.subTest(token=token), self.client(token=token) as nobody:
                with self.assertRaises(Error) as e:
                    nobody.list_maps()
                self.assertEqual(e.exception.code, grpc.StatusCode.UNAUTHENTICATED)
                self.assertTrue(nobody.health())  # Health needs no key.

    def test_the_token_comes_from_the_environment_too(self):
        os.environ["GRIDSTAR_TOKEN"] = QUERY
        try:
            with self.client() as c:
                c.list_maps()
        finally:
            del os.environ["GRIDSTAR_TOKEN"]

    def test_tls_without_a_client_certificate_or_without_tls_is_refused(self):
        for name, kw in (("no client certificate",
                          dict(tls_cert_file=None, tls_key_file=None)),):
            with self.subTest(name), self.client(token=QUERY, **kw) as c:
                with self.assertRaises(Error) as e:
                    c.list_maps()
                self.assertEqual(e.exception.code, grpc.StatusCode.UNAVAILABLE)
        with Client(self.server.target, token=QUERY, max_attempts=1,
                    deadline=GENEROUS_S) as plain:
            with self.assertRaises(Error) as e:
                plain.list_maps()
            self.assertEqual(e.exception.code, grpc.StatusCode.UNAVAILABLE)
        with self.assertRaises(ValueError):
            self.client(tls_key_file=None)  # A certificate without its key.


def load(build):
    """Imports the client from BUILD/python into this module's globals (also
    for retry_test.py); exits 77 (skipped) without Debian's grpcio outside
    CI, 1 in CI."""
    global BUILD, grpc, Client, Error, cells_of, pb, pb_grpc, gridstar_client
    BUILD = os.path.abspath(build)
    sys.path.insert(0, os.path.join(BUILD, "python"))
    try:
        import grpc as grpc_module
        import gridstar_client as client_module
        from gridstar.v1 import gridstar_pb2_grpc
    except ImportError as e:
        print(f"python client test needs python3-grpcio and python3-protobuf "
              f"(scripts/install-deps.sh --test): {e}")
        sys.exit(1 if os.environ.get("CI") else 77)
    grpc, pb_grpc, gridstar_client = grpc_module, gridstar_pb2_grpc, client_module
    Client, Error = gridstar_client.Client, gridstar_client.Error
    cells_of, pb = gridstar_client.cells_of, gridstar_client.pb


def main():
    load(sys.argv.pop(1))
    unittest.main(verbosity=2)


if __name__ == "__main__":
    main()
