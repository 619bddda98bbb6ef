"""gridstar_client.Client: a thin Python client of gridstar.v1.Pathfinding.

What the C++ client (client/client.h) does, in Python:

- Every call gets a default deadline (`deadline`, seconds; each method also
  takes `timeout=` to override it). Streams have none unless given one.
- Idempotent calls (all but update_cells and delete_map) are retried on
  UNAVAILABLE with exponential backoff, so a server restart or a brief network
  loss does not reach the caller. `attempts` counts every attempt made.
- Every call about one map carries its id as the request header
  `x-gridstar-map`, so a proxy can route a map's calls to the replica holding
  it (deploy/nginx hashes it).
- With remember_maps (the default) the client keeps every map it registered
  and the updates it made since; when a call about such a map answers
  NOT_FOUND (its replica restarted empty, or the hash moved the map) it
  registers the map again, replays the updates and retries the call once.
- TLS or mutual TLS (PEM bytes or files) and a bearer token
  (`authorization: Bearer <token>`, from `token`, `token_file` or the
  environment variable GRIDSTAR_TOKEN).

Errors are raised as gridstar_client.Error, with the gRPC status `code` and
the server's `message` (which names the offending field). Answers are the
generated messages of gridstar.v1 (proto/gridstar/v1/gridstar.proto documents
every field); cells_of() unpacks a path's packed coordinates.

Thread-safety: one Client may be used by any number of threads at once.
"""

import json
import os
import queue
import threading
import time
import xml.etree.ElementTree

import grpc

from gridstar.v1 import gridstar_pb2 as pb
from gridstar.v1 import gridstar_pb2_grpc as pb_grpc

from .answers import Answer, cell, enum_value
from .worlds import WorldAgents, WorldCalls

MAP_HEADER = "x-gridstar-map"
_CODE_OF = {c.value[0]: c for c in grpc.StatusCode}
_MAX_MESSAGE_BYTES = 128 << 20


class Error(Exception):
    """A call that did not succeed: `code` is a grpc.StatusCode."""

    def __init__(self, code, message):
        super().__init__(f"{code.name}: {message}")
        self.code = code
        self.message = message


def read_token_file(path):
    """The token of a token file: its first line that is neither blank nor a
    '#' comment (the rule of the C++ client and the CLI's --token_file)."""
    with open(path, encoding="utf-8") as f:
        for line in f:
            line = line.strip()
            if line and not line.startswith("#"):
                return line
    raise ValueError(f"token_file: '{path}' holds no token")


def cells_of(packed):
    """[(x, y), ...] of a packed x0, y0, x1, y1, ... field (PathResponse.cells,
    .waypoints), or of a path answer or a world path's leg itself (its
    cells)."""
    if isinstance(packed, Answer):
        packed = packed.proto
    if isinstance(packed, (pb.PathResponse, pb.WorldLeg)):
        packed = packed.cells
    packed = list(packed)
    return list(zip(packed[0::2], packed[1::2]))


_cell = cell


def _enum(enum_type, value, name):
    return enum_value(enum_type, value, name)


def _item(code, message, path, **extra):
    """A batch item in the shape of a single answer: the path's Answer, or,
    when it failed, an Error (returned, not raised)."""
    if code != 0:
        e = Error(_CODE_OF.get(code, grpc.StatusCode.UNKNOWN), message)
        for k, v in extra.items():
            setattr(e, k, v)
        return e
    return Answer(path, **extra)


def _image_mapping(mapping):
    """An ImageMapping from a dict (mode by name, palette as {rgb: cost or
    (cost, area)}) or as given."""
    if isinstance(mapping, pb.ImageMapping):
        return mapping
    fields = dict(mapping)
    palette = fields.pop("palette", None) or {}
    mode = fields.pop("mode", None)
    out = pb.ImageMapping(**fields)
    if mode is not None:
        out.mode = _enum(pb.ImageMode, mode, "image_mapping.mode")
    elif palette:
        out.mode = pb.IMAGE_MODE_PALETTE
    for rgb, value in palette.items():
        cost, area = value if isinstance(value, tuple) else (value, 0)
        out.palette.add(rgb=int(rgb), cost=int(cost), area=int(area))
    return out


def tiled_tileset_sources(data):
    """The `source` of every external tileset a Tiled map (.tmx or .tmj
    bytes) names."""
    text = data.decode("utf-8-sig").lstrip()
    if text.startswith("{"):
        return [t["source"] for t in json.loads(text).get("tilesets", []) if "source" in t]
    root = xml.etree.ElementTree.fromstring(text)
    return [t.get("source") for t in root.findall("tileset") if t.get("source")]


def _path_request(map_id, start, goal, *, algorithm=None, weight=0.0, diagonal=None,
                  max_expansions=0, smooth=False, snap_radius=0, allow_partial=False,
                  areas=0, area_costs=(), agent_size=0):
    return pb.PathRequest(
        map_id=map_id, start=_cell(start, "start"), goal=_cell(goal, "goal"),
        algorithm=_enum(pb.Algorithm, algorithm, "algorithm"),
        weight=weight,
        diagonal=_enum(pb.DiagonalPolicy, diagonal, "diagonal"),
        max_expansions=max_expansions, smooth=smooth, snap_radius=snap_radius,
        allow_partial=allow_partial, areas=areas, area_costs=list(area_costs),
        agent_size=agent_size)


class Client(WorldCalls):
    """A connection to one gridstar server (or a proxy in front of many).

    target: "host:port". tls_ca, tls_cert and tls_key are PEM bytes or str;
    tls_ca_file, tls_cert_file and tls_key_file read them from files. Any of
    them turns TLS on (tls=True alone uses the system's roots); tls_cert and
    tls_key together present a client certificate (mutual TLS).
    tls_server_name: the name checked against the server's certificate when
    it is not the target's host (e.g. "gridstar" while dialling 127.0.0.1).
    """

    def __init__(self, target, *, deadline=10.0, max_attempts=4, initial_backoff=0.05,
                 max_backoff=2.0, remember_maps=True, tls=False, tls_ca=None,
                 tls_cert=None, tls_key=None, tls_ca_file=None, tls_cert_file=None,
                 tls_key_file=None, tls_server_name=None, token=None, token_file=None):
        if deadline is not None and deadline <= 0:
            raise ValueError("deadline: must be positive seconds (or None)")
        if max_attempts < 1:
            raise ValueError("max_attempts: must be at least 1")
        self.deadline = deadline
        self.max_attempts = max_attempts
        self.initial_backoff = initial_backoff
        self.max_backoff = max_backoff
        self.remember_maps = remember_maps
        self.attempts = 0          # Every attempt of every call.
        self.reregistrations = 0   # Remembered maps registered again.
        self._lock = threading.Lock()
        self._maps = {}            # id -> [RegisterMapRequest, [UpdateCellsRequest]]

        pems = {}
        for key, pem, path in (("root_certificates", tls_ca, tls_ca_file),
                               ("certificate_chain", tls_cert, tls_cert_file),
                               ("private_key", tls_key, tls_key_file)):
            if path is not None:
                with open(path, "rb") as f:
                    pem = f.read()
            if pem is not None:
                pems[key] = pem.encode() if isinstance(pem, str) else pem
                tls = True
        if ("certificate_chain" in pems) != ("private_key" in pems):
            raise ValueError("tls_cert and tls_key: a client certificate needs its key")

        if token is None and token_file is not None:
            token = read_token_file(token_file)
        if token is None and os.environ.get("GRIDSTAR_TOKEN"):
            token = os.environ["GRIDSTAR_TOKEN"].strip()
        self._token_metadata = (("authorization", "Bearer " + token),) if token else ()

        options = [("grpc.max_receive_message_length", _MAX_MESSAGE_BYTES),
                   ("grpc.max_send_message_length", _MAX_MESSAGE_BYTES)]
        if tls:
            if tls_server_name:
                options.append(("grpc.ssl_target_name_override", tls_server_name))
            credentials = grpc.ssl_channel_credentials(**pems)
            self._channel = grpc.secure_channel(target, credentials, options=options)
        else:
            self._channel = grpc.insecure_channel(target, options=options)
        self._stub = pb_grpc.PathfindingStub(self._channel)
        self._health = self._channel.unary_unary(
            "/grpc.health.v1.Health/Check",
            request_serializer=None, response_deserializer=None)

    def close(self):
        self._channel.close()

    def __enter__(self):
        return self

    def __exit__(self, *exc):
        self.close()

    # ---- Calls with deadline, header, token and retries.

    def _metadata(self, map_id):
        return self._token_metadata + (((MAP_HEADER, map_id),) if map_id else ())

    def _call(self, method, request, *, idempotent, map_id, timeout):
        timeout = self.deadline if timeout is None else timeout
        backoff = self.initial_backoff
        attempt = 0
        while True:
            attempt += 1
            with self._lock:
                self.attempts += 1
            try:
                return method(request, timeout=timeout, metadata=self._metadata(map_id))
            except grpc.RpcError as e:
                code = e.code()
                if (code != grpc.StatusCode.UNAVAILABLE or not idempotent or
                        attempt >= self.max_attempts):
                    raise Error(code, e.details() or "") from None
            time.sleep(backoff)
            backoff = min(backoff * 2, self.max_backoff)

    def _map_call(self, method, request, *, idempotent, map_id, timeout):
        try:
            return self._call(method, request, idempotent=idempotent, map_id=map_id,
                              timeout=timeout)
        except Error as e:
            if e.code != grpc.StatusCode.NOT_FOUND or not self._heal(map_id, timeout):
                raise
        return self._call(method, request, idempotent=idempotent, map_id=map_id,
                          timeout=timeout)

    def _heal(self, map_id, timeout):
        """Registers a remembered map again and replays its updates; False
        when the map is not remembered or healing failed."""
        with self._lock:
            remembered = self._maps.get(map_id) if self.remember_maps else None
            if remembered is None:
                return False
            register, updates = remembered[0], list(remembered[1])
        try:
            self._call(self._stub.RegisterMap, register, idempotent=True,
                       map_id=map_id, timeout=timeout)
            for update in updates:
                # Versions start again at 1 after registering anew.
                replay = pb.UpdateCellsRequest()
                replay.CopyFrom(update)
                replay.expected_version = 0
                self._call(self._stub.UpdateCells, replay, idempotent=False,
                           map_id=map_id, timeout=timeout)
        except Error:
            return False
        with self._lock:
            self.reregistrations += 1
        return True

    @staticmethod
    def _items(results):
        """A batch's results (code, message, path each) as _item makes them."""
        return [_item(r.code, r.message, r.path) for r in results]

    # ---- Maps.

    def register_map(self, map_id, *, raw=None, movingai=None, pgm=None, png=None,
                     tiled=None, width=0, height=0, default_diagonal=None, replace=False,
                     jump_table=False, landmarks=0, hpa=False, areas=None, default_areas=0,
                     max_agent_size=0, subgoal_graph=False, structures=None,
                     image_mapping=None, tilesets=None, tiled_rules=None, tiled_layers=None,
                     timeout=None):
        """Registers a map from exactly one of raw (row-major cost bytes, with
        width and height), movingai (.map text), pgm (P5/P2 bytes), png (PNG
        bytes) or tiled (a Tiled .tmx or .tmj file's bytes).
        image_mapping (png, pgm): how pixels become cells, a dict with any of
        mode ("threshold", "value", "palette"), threshold, invert,
        floor_cost and palette ({0xRRGGBB: cost or (cost, area)}), or a
        gridstar.v1.ImageMapping. Without it a PNG's light pixels are floor
        of cost 1 and dark ones walls, a PGM's pixel value is its cost.
        tilesets (tiled): {source: bytes} of the external tilesets the map
        names; tiled_rules: dicts of a selector (gid, tileset and tile, or
        class_name) and what it sets (cost, blocked, area), over the tiles'
        properties; tiled_layers: the layers to use (default all).
        register_map_file reads any of these from a file.
        Returns its MapInfo. Registering identical content again is a no-op
        (so the call is retried like a read). hpa: build the HPA* abstraction
        for algorithm="hpa" (bounded-suboptimal). subgoal_graph: build the
        subgoal graph for algorithm="subgoal" (exact; uniform-cost maps).
        structures: precomputed structures by name, {name: count} (count 0 =
        the structure's default; landmarks: how many), any an engine keeps
        (MapInfo.derived names them), the four keywords above included.
        areas: one area id per cell
        (bytes; Moving AI text gives its own: ground 0, swamp 1, water 2,
        trees 3); default_areas: the areas queries naming none may enter;
        max_agent_size: agent sizes prepared at registration."""
        given = [name for name, v in (("raw", raw), ("movingai", movingai), ("pgm", pgm),
                                      ("png", png), ("tiled", tiled))
                 if v is not None]
        if len(given) != 1:
            raise ValueError("register_map: give exactly one of raw, movingai, pgm, png, tiled")
        if image_mapping is not None and given[0] not in ("png", "pgm"):
            raise ValueError("register_map: image_mapping applies to png and pgm")
        if (tilesets or tiled_rules or tiled_layers) and given[0] != "tiled":
            raise ValueError("register_map: tilesets, tiled_rules and tiled_layers apply to tiled")
        request = pb.RegisterMapRequest(
            id=map_id, width=width, height=height,
            default_diagonal=_enum(pb.DiagonalPolicy, default_diagonal, "default_diagonal"),
            replace=replace, jump_table=jump_table, landmarks=landmarks, hpa=hpa,
            default_areas=default_areas, max_agent_size=max_agent_size,
            subgoal_graph=subgoal_graph)
        if areas is not None:
            request.areas = bytes(areas)
        for name, count in (structures or {}).items():
            request.structures.add(name=name, count=int(count))
        if raw is not None:
            request.raw = bytes(raw)
        elif movingai is not None:
            request.movingai = movingai
        elif pgm is not None:
            request.pgm = bytes(pgm)
        elif png is not None:
            request.png = bytes(png)
        else:
            request.tiled.data = bytes(tiled)
            for source, data in (tilesets or {}).items():
                request.tiled.tilesets.add(source=source, data=bytes(data))
            for rule in tiled_rules or ():
                request.tiled.rules.append(
                    rule if isinstance(rule, pb.TiledRule) else pb.TiledRule(**rule))
            request.tiled.layers.extend(tiled_layers or ())
        if image_mapping is not None:
            request.image_mapping.CopyFrom(_image_mapping(image_mapping))
        info = self._call(self._stub.RegisterMap, request, idempotent=True,
                          map_id=map_id, timeout=timeout)
        if self.remember_maps:
            with self._lock:
                slot = self._maps.get(map_id)
                # The same content again keeps the updates made since.
                if slot is None or info.version == 1 or slot[0] != request:
                    self._maps[map_id] = [request, []]
        return Answer(info)

    def register_map_file(self, map_id, path, **options):
        """Registers the map in file `path`, its format by extension: .png,
        .tmx/.tmj/.json (Tiled; the external tilesets it names are read from
        beside it), .pgm, else Moving AI text (or a PGM by its magic).
        options: register_map's."""
        with open(path, "rb") as f:
            data = f.read()
        name = path.lower()
        if name.endswith((".tmx", ".tmj", ".json")):
            folder = os.path.dirname(path)
            tilesets = dict(options.pop("tilesets", None) or {})
            for source in tiled_tileset_sources(data):
                if source not in tilesets:
                    with open(os.path.join(folder, source), "rb") as f:
                        tilesets[source] = f.read()
            return self.register_map(map_id, tiled=data, tilesets=tilesets, **options)
        if name.endswith(".png"):
            return self.register_map(map_id, png=data, **options)
        if name.endswith(".pgm") or data[:2] in (b"P5", b"P2"):
            return self.register_map(map_id, pgm=data, **options)
        return self.register_map(map_id, movingai=data.decode(), **options)

    def update_cells(self, map_id, cells=(), rects=(), *, expected_version=0, timeout=None):
        """Changes costs atomically. cells: ((x, y), cost) pairs; rects:
        ((min_x, min_y), (max_x, max_y), cost) with max exclusive. Returns the
        new MapInfo. Not retried on UNAVAILABLE (it may have applied). With
        expected_version, raises Error with code ABORTED when the map is at
        another version: read it again and retry."""
        request = pb.UpdateCellsRequest(id=map_id, expected_version=expected_version)
        for i, (cell, cost) in enumerate(cells):
            request.cells.add(cell=_cell(cell, f"cells[{i}]"), cost=cost)
        for i, (lo, hi, cost) in enumerate(rects):
            request.rects.add(rect=pb.Rect(min=_cell(lo, f"rects[{i}].min"),
                                           max=_cell(hi, f"rects[{i}].max")), cost=cost)
        info = self._map_call(self._stub.UpdateCells, request, idempotent=False,
                              map_id=map_id, timeout=timeout)
        if self.remember_maps:
            with self._lock:
                if map_id in self._maps:
                    self._maps[map_id][1].append(request)
        return Answer(info)

    def get_map(self, map_id, *, include_cells=False, timeout=None):
        """GetMapResponse: the map's info and, with include_cells, its raw costs."""
        return Answer(self._map_call(self._stub.GetMap,
                                     pb.GetMapRequest(id=map_id, include_cells=include_cells),
                                     idempotent=True, map_id=map_id, timeout=timeout))

    def list_maps(self, *, timeout=None):
        """Every map's MapInfo, ordered by id."""
        return [Answer(m) for m in self._call(self._stub.ListMaps, pb.ListMapsRequest(),
                                              idempotent=True, map_id="",
                                              timeout=timeout).maps]

    def delete_map(self, map_id, *, timeout=None):
        """Removes a map (and forgets it). Not retried on UNAVAILABLE."""
        try:
            self._call(self._stub.DeleteMap, pb.DeleteMapRequest(id=map_id),
                       idempotent=False, map_id=map_id, timeout=timeout)
        except Error as e:
            if e.code == grpc.StatusCode.NOT_FOUND:
                with self._lock:
                    self._maps.pop(map_id, None)
            raise
        with self._lock:
            self._maps.pop(map_id, None)

    # ---- Searches.

    def find_path(self, map_id, start, goal, *, timeout=None, **options):
        """One path (an Answer of PathResponse). start, goal: (x, y) whole
        numbers. options: algorithm ("astar", "jps", "jps+", "alt",
        "bidirectional", "hpa", "subgoal", "auto", ...; any spelling of
        answers.py), weight, diagonal ("never", "no-corner-cutting",
        "allow-corner-cutting"),
        max_expansions, smooth, snap_radius, allow_partial; the agent:
        areas (bit mask, 0 = the map's default), area_costs (multiplier per
        area id), agent_size (1 to 8)."""
        return Answer(self._map_call(self._stub.FindPath,
                                     _path_request(map_id, start, goal, **options),
                                     idempotent=True, map_id=map_id, timeout=timeout))

    def find_paths(self, map_id, pairs, *, timeout=None, **options):
        """Many paths in one call: pairs of (start, goal), each with the same
        options as find_path. Returns one item per pair, in order, in the
        shape of find_path's answer: the path's Answer, or an Error (returned,
        not raised) for a pair that failed."""
        request = pb.FindPathsRequest(map_id=map_id)
        for start, goal in pairs:
            request.items.append(_path_request(map_id, start, goal, **options))
        return self._items(self._map_call(self._stub.FindPaths, request, idempotent=True,
                                          map_id=map_id, timeout=timeout).results)

    def find_paths_stream(self, map_id, pairs, *, timeout=None, **options):
        """Streams (start, goal) pairs to the server and yields each answer as
        it comes (out of order), shaped as find_paths' items, with
        `request_id` the pair's index. Not retried: an iterator cannot be replayed. No
        deadline unless `timeout` is given (each search still has the
        server's --max_search_time)."""

        def requests():
            for i, (start, goal) in enumerate(pairs):
                yield pb.StreamPathRequest(
                    request_id=i, request=_path_request(map_id, start, goal, **options))

        with self._lock:
            self.attempts += 1
        answers = self._stub.FindPathsStream(requests(), timeout=timeout,
                                             metadata=self._metadata(map_id))
        try:
            for answer in answers:
                r = answer.result
                yield _item(r.code, r.message, r.path, request_id=answer.request_id)
        except grpc.RpcError as e:
            raise Error(e.code(), e.details() or "") from None

    def watch_paths(self, *, timeout=None):
        """Opens a WatchPaths stream: returns a Watch (add, move, retarget,
        remove agents; iterate it for the server's WatchEvents: one answer
        per request, and pushed new paths, request_id 0, when updates break
        a path). Not retried. No deadline unless `timeout` is given."""
        with self._lock:
            self.attempts += 1
        return Watch(self._stub, self._metadata(None), timeout)

    def find_group_paths(self, map_id, starts, goals, *, algorithm=None, diagonal=None,
                         report_overhead=False, max_splice_distance=0, method=None,
                         flow_field_min_units=0, timeout=None):
        """Paths for a group (GroupPathsResponse): one goal for all units or
        one per unit. method: "auto", "splice" or "flow-field"."""
        request = pb.GroupPathsRequest(
            map_id=map_id,
            starts=[_cell(c, f"starts[{i}]") for i, c in enumerate(starts)],
            goals=[_cell(c, f"goals[{i}]") for i, c in enumerate(goals)],
            algorithm=_enum(pb.Algorithm, algorithm, "algorithm"),
            diagonal=_enum(pb.DiagonalPolicy, diagonal, "diagonal"),
            report_overhead=report_overhead, max_splice_distance=max_splice_distance,
            method=_enum(pb.GroupMethod, method, "method"),
            flow_field_min_units=flow_field_min_units)
        return Answer(self._map_call(self._stub.FindGroupPaths, request, idempotent=True,
                                     map_id=map_id, timeout=timeout))

    def compute_flow_field(self, map_id, goal, *, diagonal=None, max_cost=0.0,
                           allow_partial=False, timeout=None):
        """The cost to `goal` and the first move towards it for every cell
        (FlowFieldResponse; costs and directions are row-major)."""
        request = pb.FlowFieldRequest(
            map_id=map_id, goal=_cell(goal, "goal"),
            diagonal=_enum(pb.DiagonalPolicy, diagonal, "diagonal"),
            max_cost=max_cost, allow_partial=allow_partial)
        return Answer(self._map_call(self._stub.ComputeFlowField, request, idempotent=True,
                                     map_id=map_id, timeout=timeout))

    # ---- Health.

    def health(self, *, timeout=None):
        """True when the server is SERVING; False while it drains or starts.
        Raises Error when it cannot be reached. Needs no token."""
        # grpc.health.v1: an empty HealthCheckRequest asks about the whole
        # server; the reply's field 1 is the status (1 = SERVING).
        reply = self._call(self._health, b"", idempotent=True, map_id="",
                           timeout=timeout)
        return reply == b"\x08\x01"


class Watch(WorldAgents):
    """One WatchPaths stream (Client.watch_paths). The request methods queue
    a request and return its request_id (answered by the event carrying it);
    iterating yields every WatchEvent as it comes. close() (or leaving a
    `with` block) ends the client's side: the server drops the stream's
    agents and the iteration ends once the events already sent are read.

    Thread-safety: requests may be sent from any thread while another
    iterates.
    """

    _END = object()

    def __init__(self, stub, metadata, timeout):
        self._requests = queue.Queue()
        self._lock = threading.Lock()
        self._next_id = 1
        self._closed = False

        def requests():
            while True:
                r = self._requests.get()
                if r is Watch._END:
                    return
                yield r

        self._events = stub.WatchPaths(requests(), timeout=timeout, metadata=metadata)

    def _send(self, **fields):
        with self._lock:
            if self._closed:
                raise Error(grpc.StatusCode.FAILED_PRECONDITION, "the watch is closed")
            request_id = self._next_id
            self._next_id += 1
            self._requests.put(pb.WatchRequest(request_id=request_id, **fields))
        return request_id

    def add(self, agent_id, map_id, start, goal, *, replan_if_cheaper=0.0,
            progressive_expansions=0, **options):
        """A new agent at `start` walking to `goal` (options as find_path's)."""
        return self._send(agent_id=agent_id, action=pb.WATCH_ACTION_ADD,
                          path=_path_request(map_id, start, goal, **options),
                          replan_if_cheaper=replan_if_cheaper,
                          progressive_expansions=progressive_expansions)

    def move(self, agent_id, position):
        return self._send(agent_id=agent_id, action=pb.WATCH_ACTION_MOVE,
                          position=_cell(position, "position"))

    def retarget(self, agent_id, goal):
        return self._send(agent_id=agent_id, action=pb.WATCH_ACTION_RETARGET,
                          goal=_cell(goal, "goal"))

    def remove(self, agent_id):
        return self._send(agent_id=agent_id, action=pb.WATCH_ACTION_REMOVE)

    def close(self):
        with self._lock:
            if not self._closed:
                self._closed = True
                self._requests.put(Watch._END)

    def cancel(self):
        """Ends the stream at once, events unread included."""
        self.close()
        self._events.cancel()

    def __enter__(self):
        return self

    def __exit__(self, *exc):
        self.cancel()

    def __iter__(self):
        try:
            for event in self._events:
                yield Answer(event)
        except grpc.RpcError as e:
            if e.code() != grpc.StatusCode.CANCELLED or not self._closed:
                raise Error(e.code(), e.details() or "") from None
