#!/usr/bin/python3
"""The Python client's world calls (gridstar_client/worlds.py) against the
real server: a world of two floors joined by stairs and a one-way drop,
paths across it equal to their legs searched alone plus the links, doors
closed and opened, links re-costed, batches, listing and deletion. Shares
client_test.py's loading and server.

    /usr/bin/python3 tests/python/world_test.py BUILD_DIR
"""

import os
import shutil
import sys
import tempfile
import unittest

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import client_test as common  # noqa: E402  The shared loading and server.


class WorldTest(unittest.TestCase):

    @classmethod
    def setUpClass(cls):
        cls.tmp = tempfile.mkdtemp()
        cls.server = common.Server(cls.tmp)
        cls.client = common.Client(cls.server.target, deadline=common.GENEROUS_S)
        cls.client.register_map("dungeon", movingai=common.read(common.DUNGEON))

    @classmethod
    def tearDownClass(cls):
        cls.client.close()
        cls.server.kill()
        shutil.rmtree(cls.tmp, ignore_errors=True)

    def test_a_world_of_two_floors_answers_across_its_stairs(self):
        link = common.gridstar_client.link
        self.client.register_map("upstairs", movingai=common.read(common.DUNGEON))
        world = self.client.register_world(
            "house", ["dungeon", "upstairs"],
            [link("stairs", ("dungeon", (1, 1)), ("upstairs", (126, 126)), cost=5),
             link("drop", ("upstairs", (120, 5)), ("dungeon", 5, 120), cost=0,
                  one_way=True)])
        self.assertEqual((world.version, world.link_count, world.open_links), (1, 2, 2))
        start, goal = ("dungeon", (57, 73)), ("upstairs", (77, 77))
        path = self.client.find_world_path("house", start, goal, algorithm="jps+")
        # One way up: the stairs, searched leg by leg on each floor.
        below = self.client.find_path("dungeon", (57, 73), (1, 1)).cost
        above = self.client.find_path("upstairs", (126, 126), (77, 77)).cost
        self.assertAlmostEqual(path.cost, below + 5 + above, places=6)
        self.assertEqual(list(path.link_ids), ["stairs"])
        self.assertEqual([leg.map_id for leg in path.legs], ["dungeon", "upstairs"])
        common.assert_valid_path(self, path.legs[0], (57, 73), (1, 1))
        # The stairs closed: no way up (the drop only goes down).
        self.client.update_links("house", close=["stairs"])
        with self.assertRaises(common.Error) as e:
            self.client.find_world_path("house", start, goal)
        self.assertEqual(e.exception.code, common.grpc.StatusCode.FAILED_PRECONDITION)
        down = self.client.find_world_paths("house", [(goal, start), (goal, ("attic", (1, 1)))])
        self.assertEqual(list(down[0].link_ids), ["drop"])
        self.assertIsInstance(down[1], common.Error)
        self.assertEqual(down[1].code, common.grpc.StatusCode.INVALID_ARGUMENT)
        self.client.update_links("house", open=["stairs"], costs={"stairs": 1.5})
        again = self.client.find_world_path("house", start, goal)
        self.assertAlmostEqual(again.cost, below + 1.5 + above, places=6)
        self.assertIn("house", [w.id for w in self.client.list_worlds()])
        self.assertEqual(self.client.get_world("house").version, 3)  # One per call.
        self.client.delete_world("house")
        with self.assertRaises(common.Error) as e:
            self.client.get_world("house")
        self.assertEqual(e.exception.code, common.grpc.StatusCode.NOT_FOUND)

    def test_a_watched_agent_walks_the_world_and_gets_a_new_path_when_a_door_closes(self):
        link = common.gridstar_client.link
        self.client.register_map("cellar", movingai=common.read(common.DUNGEON))
        self.client.register_world(
            "inn", ["dungeon", "cellar"],
            [link("stairs", ("dungeon", (1, 1)), ("cellar", (126, 126)), cost=5),
             link("ladder", ("dungeon", (120, 5)), ("cellar", 5, 120), cost=50)],
            replace=True)
        start, goal = ("dungeon", (57, 73)), ("cellar", (77, 77))
        with self.client.watch_paths(timeout=common.GENEROUS_S) as watch:
            events = iter(watch)
            rid = watch.add_world(7, "inn", start, goal, algorithm="jps")
            added = next(events)
            self.assertEqual((added.request_id, added.code, added.reason),
                             (rid, common.grpc.StatusCode.OK, "added"))
            best = self.client.find_world_path("inn", start, goal)
            self.assertAlmostEqual(added.world_path.cost, best.cost, places=6)
            first = list(added.world_path.link_ids)
            # A few cells on: its leg and index there.
            walked = common.cells_of(added.world_path.legs[0].cells)
            here = ("dungeon", walked[3])
            rid = watch.move_world(7, here)
            moved = next(events)
            self.assertEqual((moved.request_id, moved.leg_index, moved.path_index),
                             (rid, 0, 3))
            # The link ahead of it closes: a new path from where it stands.
            info = self.client.update_links("inn", close=[first[0]])
            pushed = next(events)
            self.assertEqual((pushed.request_id, pushed.reason, pushed.world_version),
                             (0, "blocked", info.version))
            self.assertNotIn(first[0], list(pushed.world_path.link_ids))
            self.assertAlmostEqual(pushed.world_path.cost,
                                   self.client.find_world_path("inn", here, goal).cost,
                                   places=6)
            rid = watch.retarget_world(7, ("dungeon", (57, 73)))
            retargeted = next(events)
            self.assertEqual((retargeted.request_id, retargeted.reason),
                             (rid, "retargeted"))
            self.assertEqual(retargeted.world_path.legs[-1].map_id, "dungeon")
            self.client.delete_world("inn")
            gone = next(events)
            self.assertEqual((gone.reason, gone.code),
                             ("world-deleted", common.grpc.StatusCode.NOT_FOUND))
            watch.close()
            self.assertEqual(list(events), [])


def main():
    common.load(sys.argv.pop(1))
    unittest.main(verbosity=2)


if __name__ == "__main__":
    main()
