"""The Python client's retries and headers against a scripted in-process
gRPC server, where every attempt is counted: idempotent calls retry
UNAVAILABLE and carry the map header and the token, updates are not retried,
attempts stop at max_attempts, health says False while not serving.

Run by CTest as: /usr/bin/python3 tests/python/retry_test.py BUILD_DIR
(exits 77, skipped, without Debian's python3-grpcio outside CI).
"""

import os
import sys
import threading
import unittest
import concurrent.futures

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import client_test as common  # noqa: E402  The shared loading and bounds.

GENEROUS_S = common.GENEROUS_S
grpc = Client = Error = pb = pb_grpc = None


class ScriptedServer:
    """An in-process Pathfinding server that fails each method's first
    `failures` calls with UNAVAILABLE and records every call's metadata."""

    def __init__(self, failures):
        self.failures = failures
        self.calls = {}     # method -> count
        self.metadata = []  # (method, dict)
        self.lock = threading.Lock()
        outer = self

        class Servicer(pb_grpc.PathfindingServicer):
            def FindPath(self, request, context):
                outer.answer("FindPath", context)
                return pb.PathResponse(cells=[request.start.x, request.start.y],
                                       map_version=7)

            def UpdateCells(self, request, context):
                outer.answer("UpdateCells", context)
                return pb.MapInfo(id=request.id, version=2)

            def ListMaps(self, request, context):
                outer.answer("ListMaps", context)
                return pb.ListMapsResponse()

        def health(request, context):
            outer.answer("Check", context)
            return b"\x08\x02"  # HealthCheckResponse{status: NOT_SERVING}.

        self.server = grpc.server(concurrent.futures.ThreadPoolExecutor(max_workers=4))
        pb_grpc.add_PathfindingServicer_to_server(Servicer(), self.server)
        self.server.add_generic_rpc_handlers([grpc.method_handlers_generic_handler(
            "grpc.health.v1.Health", {"Check": grpc.unary_unary_rpc_method_handler(health)})])
        self.port = self.server.add_insecure_port("127.0.0.1:0")
        self.server.start()

    def answer(self, method, context):
        with self.lock:
            n = self.calls.get(method, 0) + 1
            self.calls[method] = n
            self.metadata.append((method, dict(context.invocation_metadata())))
        if n <= self.failures:
            context.abort(grpc.StatusCode.UNAVAILABLE, "scripted failure")


class RetryTest(unittest.TestCase):
    def setUp(self):
        self.scripted = ScriptedServer(failures=2)
        self.client = Client(f"127.0.0.1:{self.scripted.port}", deadline=GENEROUS_S,
                             initial_backoff=0.001, token="sekrit-token-0123456789")

    def tearDown(self):
        self.client.close()
        self.scripted.server.stop(None)

    def test_idempotent_calls_retry_unavailable_and_carry_header_and_token(self):
        path = self.client.find_path("world", (3, 4), (5, 6))
        self.assertEqual(path.map_version, 7)
        self.assertEqual(self.scripted.calls["FindPath"], 3)
        self.assertEqual(self.client.attempts, 3)
        for method, md in self.scripted.metadata:
            self.assertEqual(md.get("x-gridstar-map"), "world")
            self.assertEqual(md.get("authorization"), "Bearer sekrit-token-0123456789")
        self.client.list_maps()  # No map: no header.
        self.assertNotIn("x-gridstar-map", self.scripted.metadata[-1][1])

    def test_health_says_false_while_the_server_is_not_serving(self):
        self.assertFalse(self.client.health())  # After two UNAVAILABLE answers.
        self.assertEqual(self.scripted.calls["Check"], 3)

    def test_updates_are_not_retried(self):
        with self.assertRaises(Error) as e:
            self.client.update_cells("world", [((1, 1), 0)])
        self.assertEqual(e.exception.code, grpc.StatusCode.UNAVAILABLE)
        self.assertEqual(self.scripted.calls["UpdateCells"], 1)

    def test_attempts_stop_at_max_attempts(self):
        with Client(f"127.0.0.1:{self.scripted.port}", max_attempts=2,
                    initial_backoff=0.001, deadline=GENEROUS_S) as c:
            with self.assertRaises(Error) as e:
                c.find_path("world", (1, 1), (2, 2))
            self.assertEqual(e.exception.code, grpc.StatusCode.UNAVAILABLE)
            self.assertEqual(self.scripted.calls["FindPath"], 2)


def main():
    global grpc, Client, Error, pb, pb_grpc
    common.load(sys.argv.pop(1))
    grpc, Client, Error = common.grpc, common.Client, common.Error
    pb, pb_grpc = common.pb, common.pb_grpc
    unittest.main(verbosity=2)


if __name__ == "__main__":
    main()
