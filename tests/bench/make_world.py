#!/usr/bin/env python3
"""Builds the big-world benchmark's map at run time (never committed).

An 8192 x 8192 world: a Moving AI city map (by default
cities/Berlin_0_1024) tiled 8 x 8, with 4-cell roads along every tile border
so that the tiles connect, written as a binary PGM (1 = passable, 0 =
blocked). Also writes a scenario of cross-world queries between road cells
of tiles far apart (so every pair is connected), optimal length 0 (unknown):
for `gridstar load`, which does not check lengths.

  make_world.py SOURCE.map OUT.pgm OUT.scen [QUERIES] [SEED] [TILES]

TILES (default 8) tiles a side: 2 or 4 make the smaller worlds of a scaling
measurement; their queries join tiles at least 5/8 of the way across.
"""
import random
import sys


def read_movingai(path):
    with open(path) as f:
        lines = f.read().split("\n")
    height = int(lines[1].split()[1])
    width = int(lines[2].split()[1])
    rows = lines[4:4 + height]
    passable = set(".GS")
    return width, height, [bytes(1 if c in passable else 0 for c in r[:width]) for r in rows]


def main():
    source, out_pgm, out_scen = sys.argv[1:4]
    queries = int(sys.argv[4]) if len(sys.argv) > 4 else 1000
    rng = random.Random(int(sys.argv[5]) if len(sys.argv) > 5 else 7)
    w, h, rows = read_movingai(source)
    tiles = int(sys.argv[6]) if len(sys.argv) > 6 else 8
    if tiles < 2:
        sys.exit("make_world.py: TILES must be at least 2 (queries join tiles apart)")
    road = 4
    apart = max(1, tiles * 5 // 8)
    width, height = w * tiles, h * tiles
    road_row = b"\x01" * width
    with open(out_pgm, "wb") as f:
        f.write(b"P5\n%d %d\n255\n" % (width, height))
        for ty in range(tiles):
            for y in range(h):
                if y < road // 2 or y >= h - road // 2:
                    f.write(road_row)  # A road along the tile border.
                    continue
                row = bytearray(rows[y] * tiles)
                for tx in range(tiles + 1):
                    for k in range(-road // 2, road // 2):
                        x = tx * w + k
                        if 0 <= x < width:
                            row[x] = 1
                f.write(bytes(row))
    # Road cells: on the horizontal roads, anywhere along them.
    def road_cell(tile_x, tile_y):
        x = tile_x * w + rng.randrange(w)
        y = tile_y * h + rng.randrange(road // 2)
        return x, y
    with open(out_scen, "w") as f:
        f.write("version 1\n")
        for _ in range(queries):
            # Tiles at least `apart` apart in x or y: across most of the world.
            while True:
                a = (rng.randrange(tiles), rng.randrange(tiles))
                b = (rng.randrange(tiles), rng.randrange(tiles))
                if max(abs(a[0] - b[0]), abs(a[1] - b[1])) >= apart:
                    break
            sx, sy = road_cell(*a)
            gx, gy = road_cell(*b)
            f.write("0\tworld.pgm\t%d\t%d\t%d\t%d\t%d\t%d\t0\n" % (width, height, sx, sy, gx, gy))


if __name__ == "__main__":
    main()
