#!/usr/bin/env python3
"""Registers a Moving AI map with a gridstar server, asks for one path and
draws it on the map ('*' path, 'S' start, 'G' goal, '@' blocked).

  PYTHONPATH=build/release/python python3 client/python/examples/find_path.py \
      --server 127.0.0.1:50051 data/sample/dungeon.map 1 1 60 20

With keys: --token_file FILE (or GRIDSTAR_TOKEN); with TLS: --tls_ca FILE
(and --tls_cert/--tls_key for mutual TLS, --tls_server_name NAME).
"""

import argparse
import os
import sys

from gridstar_client import Client, Error, cells_of


def main():
    p = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    p.add_argument("--server", default="127.0.0.1:50051")
    p.add_argument("--id", help="the map's id (default: the file's name)")
    p.add_argument("--algorithm", default="auto")
    p.add_argument("--token_file")
    p.add_argument("--tls_ca")
    p.add_argument("--tls_cert")
    p.add_argument("--tls_key")
    p.add_argument("--tls_server_name")
    p.add_argument("map", help="a Moving AI .map file")
    p.add_argument("coords", nargs=4, type=int, metavar="N",
                   help="start x, start y, goal x, goal y")
    args = p.parse_args()

    with open(args.map, encoding="ascii") as f:
        text = f.read()
    map_id = args.id or os.path.splitext(os.path.basename(args.map))[0]
    sx, sy, gx, gy = args.coords
    try:
        with Client(args.server, token_file=args.token_file, tls_ca_file=args.tls_ca,
                    tls_cert_file=args.tls_cert, tls_key_file=args.tls_key,
                    tls_server_name=args.tls_server_name) as client:
            info = client.register_map(map_id, movingai=text)
            path = client.find_path(map_id, (sx, sy), (gx, gy), algorithm=args.algorithm)
    except Error as e:
        print(f"find_path: {e}", file=sys.stderr)
        return 1

    rows = [list(r) for r in text.split("\n")[4:4 + info.height]]
    for x, y in cells_of(path):
        rows[y][x] = "*"
    rows[sy][sx], rows[gy][gx] = "S", "G"
    print("\n".join("".join(r) for r in rows))
    print(f"{map_id} v{path.map_version}: {len(path.cells) // 2} cells, cost "
          f"{path.cost:.3f}, {path.expanded} expanded by "
          f"{path.algorithm} in {path.search_micros:.0f} us")
    return 0


if __name__ == "__main__":
    sys.exit(main())
