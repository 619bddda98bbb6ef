"""Worlds of linked maps (docs/worlds.md): the requests' parts, and the
world calls a Client has (WorldCalls). World calls carry no routing header:
a world's maps must be on the server answering (a shared store, or one
server).
"""

from gridstar.v1 import gridstar_pb2 as pb

from .answers import Answer, cell as _cell, enum_value


def _world_cell(value, field):
    """A WorldCell from (map_id, (x, y)) or (map_id, x, y)."""
    if len(value) == 2:
        map_id, value_cell = value
    elif len(value) == 3:
        map_id, value_cell = value[0], (value[1], value[2])
    else:
        raise ValueError(f"{field}: give (map_id, (x, y)) or (map_id, x, y)")
    return pb.WorldCell(map_id=map_id, cell=_cell(value_cell, field))


def link(link_id, from_cell, to_cell, *, cost=1.0, one_way=False, closed=False,
         areas=0, max_agent_size=0):
    """A Link of a world: from_cell and to_cell as (map_id, (x, y)); one_way
    only from from_cell; closed: a shut door; areas: a bit mask of which the
    agent must be allowed in one (0 = any agent); max_agent_size 1 to 8 (0 =
    any)."""
    out = pb.Link(id=link_id, to=_world_cell(to_cell, "to"), cost=cost, one_way=one_way,
                  closed=closed, areas=areas, max_agent_size=max_agent_size)
    # `from` is a Python keyword: set through getattr.
    getattr(out, "from").CopyFrom(_world_cell(from_cell, "from"))
    return out


def _world_request(world_id, start, goal, *, algorithm=None, weight=0.0, diagonal=None,
                   max_expansions=0, smooth=False, allow_partial=False, trace=False,
                   areas=0, area_costs=(), agent_size=0):
    return pb.WorldPathRequest(
        world_id=world_id, start=_world_cell(start, "start"),
        goal=_world_cell(goal, "goal"),
        algorithm=enum_value(pb.Algorithm, algorithm, "algorithm"), weight=weight,
        diagonal=enum_value(pb.DiagonalPolicy, diagonal, "diagonal"),
        max_expansions=max_expansions, smooth=smooth, allow_partial=allow_partial,
        trace=trace, areas=areas, area_costs=list(area_costs), agent_size=agent_size)


class WorldAgents:
    """The world agents of a Watch (client.py): agents that walk a world of
    linked maps. Their answers and pushes carry `world_path` (a
    WorldPathResponse); a MOVED answer carries `leg_index` and `path_index`.
    Agent ids are shared with map agents: adding either kind under an id the
    stream has replaces that agent."""

    def add_world(self, agent_id, world_id, start, goal, *, replan_if_cheaper=0.0,
                  progressive_expansions=0, **options):
        """A new agent at `start` walking to `goal`, each (map_id, (x, y)) on
        world `world_id` (options as find_world_path's)."""
        return self._send(agent_id=agent_id, action=pb.WATCH_ACTION_ADD,
                          world_path=_world_request(world_id, start, goal, **options),
                          replan_if_cheaper=replan_if_cheaper,
                          progressive_expansions=progressive_expansions)

    def move_world(self, agent_id, position):
        """The world agent is at `position`, (map_id, (x, y))."""
        return self._send(agent_id=agent_id, action=pb.WATCH_ACTION_MOVE,
                          world_position=_world_cell(position, "position"))

    def retarget_world(self, agent_id, goal):
        """The world agent's new goal, (map_id, (x, y))."""
        return self._send(agent_id=agent_id, action=pb.WATCH_ACTION_RETARGET,
                          world_goal=_world_cell(goal, "goal"))


class WorldCalls:
    """The world calls of Client (client.py), on its _call and _items."""

    def register_world(self, world_id, map_ids, links=(), *, replace=False, timeout=None):
        """A world (its WorldInfo as an Answer): member maps by id, links made
        by `link(...)`. The same content again is a no-op."""
        request = pb.RegisterWorldRequest(id=world_id, map_ids=list(map_ids),
                                          links=list(links), replace=replace)
        return Answer(self._call(self._stub.RegisterWorld, request, idempotent=True,
                                 map_id="", timeout=timeout))

    def update_links(self, world_id, *, open=(), close=(), costs=None, add=(),
                     remove=(), expected_version=0, timeout=None):
        """One new version of the world: links opened, closed, re-costed
        (costs: {link_id: cost}), added (Links) and removed, all or nothing.
        Not retried on UNAVAILABLE."""
        request = pb.UpdateLinksRequest(id=world_id, expected_version=expected_version)
        for link_id in open:
            request.updates.add(link_id=link_id, state=pb.LinkUpdate.STATE_OPEN)
        for link_id in close:
            request.updates.add(link_id=link_id, state=pb.LinkUpdate.STATE_CLOSED)
        for link_id, cost in (costs or {}).items():
            request.updates.add(link_id=link_id, cost=cost)
        for new in add:
            request.updates.add(link_id=new.id, add=new)
        for link_id in remove:
            request.updates.add(link_id=link_id, remove=True)
        return Answer(self._call(self._stub.UpdateLinks, request, idempotent=False,
                                 map_id="", timeout=timeout))

    def get_world(self, world_id, *, timeout=None):
        """The world's WorldInfo, with its links."""
        return Answer(self._call(self._stub.GetWorld, pb.GetWorldRequest(id=world_id),
                                 idempotent=True, map_id="", timeout=timeout))

    def list_worlds(self, *, timeout=None):
        """Every world's WorldInfo (no links), ordered by id."""
        return [Answer(w) for w in self._call(self._stub.ListWorlds, pb.ListWorldsRequest(),
                                              idempotent=True, map_id="",
                                              timeout=timeout).worlds]

    def delete_world(self, world_id, *, timeout=None):
        """Removes a world (its maps stay). Not retried on UNAVAILABLE."""
        self._call(self._stub.DeleteWorld, pb.DeleteWorldRequest(id=world_id),
                   idempotent=False, map_id="", timeout=timeout)

    def find_world_path(self, world_id, start, goal, *, timeout=None, **options):
        """The least-cost path across a world (an Answer of
        WorldPathResponse: legs, link_ids, cost). start, goal: (map_id, (x,
        y)). options: as find_path's but snap_radius (ends are not snapped
        across a world), plus trace."""
        return Answer(self._call(self._stub.FindWorldPath,
                                 _world_request(world_id, start, goal, **options),
                                 idempotent=True, map_id="", timeout=timeout))

    def find_world_paths(self, world_id, pairs, *, timeout=None, **options):
        """Many world paths in one call: pairs of (start, goal); one item per
        pair, the Answer or an Error (returned, not raised)."""
        request = pb.FindWorldPathsRequest(world_id=world_id)
        for start, goal in pairs:
            request.items.append(_world_request(world_id, start, goal, **options))
        return self._items(self._call(self._stub.FindWorldPaths, request, idempotent=True,
                                      map_id="", timeout=timeout).results)
