"""gridstar_client: the Python client of the gridstar pathfinding service.

    from gridstar_client import Client, cells_of
    with Client("127.0.0.1:50051") as c:
        c.register_map("dungeon", movingai=open("dungeon.map").read())
        print(cells_of(c.find_path("dungeon", (1, 1), (20, 9))))

See client.py for what a Client does (deadlines, retries, the map header,
TLS and tokens), answers.py for the shape of its answers (enums by name) and
the vocabulary it reads, and proto/gridstar/v1/gridstar.proto for every
message.
The generated messages are importable as gridstar.v1.gridstar_pb2 (here `pb`).
"""

from gridstar.v1 import gridstar_pb2 as pb

from .answers import Answer, canonical, names
from .client import MAP_HEADER, Client, Error, Watch, cells_of, read_token_file
from .worlds import link

__all__ = ["Answer", "Client", "Error", "MAP_HEADER", "Watch", "canonical", "cells_of",
           "link", "names", "pb", "read_token_file"]
