#!/usr/bin/env python3
"""Draws the sample maps that ship with gridstar and writes their scenarios.

Deterministic (fixed seed). The optimal lengths come from a plain Dijkstra
written here, independent of the C++ code, using gridstar's cost model:
a move a->b costs step * (cost(a) + cost(b)) / 2, step 1 or sqrt(2),
diagonals only when both orthogonal neighbours are passable.

    python3 data/make_sample.py    # rewrites data/sample/* (dungeon, terrain, lakeside,
                                   # tavern.tmx/.tsx, courtyard.png)

The studio samples are made by the tools studios use: tavern.tmx is saved
by Tiled itself (`tiled --export-map tmx`, headless) and courtyard.png is
drawn by ImageMagick; both must be installed (scripts/install-deps.sh --test).
"""
import heapq
import math
import os
import random
import subprocess

HERE = os.path.join(os.path.dirname(os.path.abspath(__file__)), "sample")
SQRT2 = math.sqrt(2.0)


def draw_rooms(rng, w, h):
    """Rooms joined by doors, with pillars and a few crates: a dungeon level."""
    grid = [[1] * w for _ in range(h)]
    for x in range(w):
        grid[0][x] = grid[h - 1][x] = 0
    for y in range(h):
        grid[y][0] = grid[y][w - 1] = 0
    # Walls on a lattice; most wall segments between two crossings get a door
    # one to three cells wide.
    walls = list(range(16, w - 8, 16))
    for wx in walls:
        for y in range(h):
            grid[y][wx] = 0
    for wy in walls:
        for x in range(w):
            grid[wy][x] = 0
    bounds = [0] + walls + [w - 1]
    for wall in walls:
        for lo, hi in zip(bounds, bounds[1:]):
            for vertical in (True, False):
                if rng.random() < 0.2:
                    continue
                d = rng.randrange(lo + 2, hi - 3)
                for t in range(d, d + rng.randint(1, 3)):
                    if vertical:
                        grid[t][wall] = 1
                    else:
                        grid[wall][t] = 1
    # Pillars and crates.
    for _ in range(w * h // 60):
        x, y = rng.randrange(1, w - 1), rng.randrange(1, h - 1)
        grid[y][x] = 0
    # A sealed vault: a component of its own, so some queries have no path.
    for y in range(100, 112):
        for x in range(100, 112):
            edge = y in (100, 111) or x in (100, 111)
            grid[y][x] = 0 if edge else 1
    return grid


def draw_terrain(rng, w, h):
    """Smooth costs 1..9 (hills), a river of cost 0 with two fords, rocks."""
    bumps = [(rng.uniform(0, w), rng.uniform(0, h), rng.uniform(8, 30),
              rng.uniform(1, 8)) for _ in range(14)]
    grid = []
    for y in range(h):
        row = []
        for x in range(w):
            v = 1.0
            for bx, by, r, a in bumps:
                d2 = (x - bx) ** 2 + (y - by) ** 2
                v += a * math.exp(-d2 / (2 * r * r))
            row.append(max(1, min(9, int(round(v)))))
        grid.append(row)
    for x in range(w):
        ry = int(h * 0.6 + 10 * math.sin(x / 9.0))
        if x % 50 in (20, 21, 22):
            continue  # fords
        for y in range(ry, ry + 3):
            if 0 <= y < h:
                grid[y][x] = 0
    for _ in range(w * h // 40):
        grid[rng.randrange(h)][rng.randrange(w)] = 0
    return grid


def dijkstra(grid, start, goal):
    h, w = len(grid), len(grid[0])
    dist = {start: 0.0}
    heap = [(0.0, start)]
    done = set()
    while heap:
        d, (x, y) = heapq.heappop(heap)
        if (x, y) in done:
            continue
        done.add((x, y))
        if (x, y) == goal:
            return d
        ca = grid[y][x]
        for dx in (-1, 0, 1):
            for dy in (-1, 0, 1):
                if dx == 0 and dy == 0:
                    continue
                nx, ny = x + dx, y + dy
                if not (0 <= nx < w and 0 <= ny < h) or grid[ny][nx] == 0:
                    continue
                step = 1.0
                if dx and dy:
                    if grid[y][nx] == 0 or grid[ny][x] == 0:
                        continue
                    step = SQRT2
                nd = d + step * (ca + grid[ny][nx]) / 2.0
                if nd < dist.get((nx, ny), math.inf):
                    dist[(nx, ny)] = nd
                    heapq.heappush(heap, (nd, (nx, ny)))
    return -1.0


def scenario(rng, grid, name, count):
    h, w = len(grid), len(grid[0])
    free = [(x, y) for y in range(h) for x in range(w) if grid[y][x]]
    lines = ["version 1"]
    for i in range(count):
        s, g = rng.choice(free), rng.choice(free)
        opt = dijkstra(grid, s, g)
        lines.append("%d\t%s\t%d\t%d\t%d\t%d\t%d\t%d\t%.8f" %
                     (i // 10, name, w, h, s[0], s[1], g[0], g[1], opt))
    return "\n".join(lines) + "\n"


def draw_lakeside(w, h):
    """A Moving AI map with every kind of cell: walls (@), ground (.), a lake
    (W), a forest (T), a swamp (S) and a walled house with one door. Its
    own seed, so the other maps do not change with it."""
    rng = random.Random(7)
    g = [["." for _ in range(w)] for _ in range(h)]
    for x in range(w):
        g[0][x] = g[h - 1][x] = "@"
    for y in range(h):
        g[y][0] = g[y][w - 1] = "@"
    for y in range(h):
        for x in range(w):
            wobble = 0.15 * math.sin(x * 0.7) * math.cos(y * 0.5)
            if ((x - 60) / 16.0) ** 2 + ((y - 30) / 11.0) ** 2 < 1.0 + wobble:
                g[y][x] = "W"
    for y in range(4, 30):
        for x in range(6, 34):
            if ((x - 20) / 13.0) ** 2 + ((y - 16) / 11.0) ** 2 < 1 and rng.random() < 0.8:
                g[y][x] = "T"
    for y in range(46, 58):
        for x in range(20, 70):
            if ((x - 45) / 25.0) ** 2 + ((y - 52) / 5.5) ** 2 < 1 and g[y][x] == ".":
                g[y][x] = "S"
    for x in range(70, 88):
        g[46][x] = g[58][x] = "@"
    for y in range(46, 59):
        g[y][70] = g[y][87] = "@"
    g[52][70] = "."
    return g


def main():
    rng = random.Random(20261202)
    os.makedirs(HERE, exist_ok=True)
    rooms = draw_rooms(rng, 128, 128)
    with open(os.path.join(HERE, "dungeon.map"), "w") as f:
        f.write("type octile\nheight 128\nwidth 128\nmap\n")
        for row in rooms:
            f.write("".join("." if c else "@" for c in row) + "\n")
    with open(os.path.join(HERE, "dungeon.map.scen"), "w") as f:
        f.write(scenario(rng, rooms, "dungeon.map", 200))
    terrain = draw_terrain(rng, 128, 128)
    with open(os.path.join(HERE, "terrain.pgm"), "w") as f:
        f.write("P2\n# gridstar sample terrain: cost 1..9, 0 = blocked\n")
        f.write("128 128\n9\n")
        for row in terrain:
            f.write(" ".join(str(c) for c in row) + "\n")
    with open(os.path.join(HERE, "terrain.pgm.scen"), "w") as f:
        f.write(scenario(rng, terrain, "terrain.pgm", 100))
    lakeside = draw_lakeside(96, 64)
    with open(os.path.join(HERE, "lakeside.map"), "w") as f:
        f.write("type octile\nheight 64\nwidth 96\nmap\n")
        for row in lakeside:
            f.write("".join(row) + "\n")

    write_studio_samples()


TAVERN_TSX = """<?xml version="1.0" encoding="UTF-8"?>
<tileset version="1.8" tiledversion="1.8.2" name="tavern" tilewidth="16" tileheight="16" tilecount="8" columns="4">
 <image source="tavern.png" width="64" height="32"/>
 <tile id="1" type="wall">
  <properties>
   <property name="blocked" type="bool" value="true"/>
  </properties>
 </tile>
 <tile id="2" type="furniture">
  <properties>
   <property name="blocked" type="bool" value="true"/>
  </properties>
 </tile>
 <tile id="3">
  <properties>
   <property name="cost" type="int" value="2"/>
  </properties>
 </tile>
 <tile id="4" type="water">
  <properties>
   <property name="area" type="int" value="2"/>
   <property name="cost" type="int" value="3"/>
  </properties>
 </tile>
 <tile id="5">
  <properties>
   <property name="area" type="int" value="0"/>
   <property name="blocked" type="bool" value="false"/>
   <property name="cost" type="int" value="1"/>
  </properties>
 </tile>
</tileset>
"""


def tavern_layers(w, h):
    """Tile ids (local; 0 floor, 1 wall, 2 table, 3 rug, 4 water, 5 bridge)
    of the ground and decor layers: a hall with a wall and two doors, a
    cellar stream crossed by a bridge, tables and a rug."""
    ground = [[0] * w for _ in range(h)]
    decor = [[None] * w for _ in range(h)]
    for x in range(w):
        ground[0][x] = ground[h - 1][x] = 1
    for y in range(h):
        ground[y][0] = ground[y][w - 1] = 1
        if y not in (4, 5, 14):
            ground[y][20] = 1  # The inner wall, with two doors.
    for y in range(1, h - 1):
        ground[y][26] = ground[y][27] = 4  # The stream.
    for y in (9, 10):
        decor[y][26] = decor[y][27] = 5  # The bridge.
    for tx, ty in ((4, 4), (10, 4), (4, 12), (10, 12), (15, 8)):
        for dx in (0, 1):
            decor[ty][tx + dx] = 2
    for y in range(7, 12):
        for x in range(3, 9):
            decor[y][x] = decor[y][x] or 3
    return ground, decor


def write_studio_samples():
    w, h = 32, 20
    ground, decor = tavern_layers(w, h)

    def csv(layer):
        return ",\n".join(",".join("0" if t is None else str(t + 1) for t in row)
                           for row in layer)

    tmx = f"""<?xml version="1.0" encoding="UTF-8"?>
<map version="1.8" orientation="orthogonal" renderorder="right-down" width="{w}" height="{h}" tilewidth="16" tileheight="16" infinite="0" nextlayerid="4" nextobjectid="3">
 <tileset firstgid="1" source="tavern.tsx"/>
 <layer id="1" name="ground" width="{w}" height="{h}">
  <data encoding="csv">
{csv(ground)}
</data>
 </layer>
 <layer id="2" name="decor" width="{w}" height="{h}">
  <data encoding="csv">
{csv(decor)}
</data>
 </layer>
 <objectgroup id="3" name="collision" visible="0">
  <object id="1" name="bar" type="furniture" x="208" y="240" width="96" height="16">
   <properties>
    <property name="blocked" type="bool" value="true"/>
   </properties>
  </object>
  <object id="2" name="fallen pillar" x="352" y="256">
   <properties>
    <property name="blocked" type="bool" value="true"/>
   </properties>
   <polygon points="0,0 48,-16 56,-4 8,12"/>
  </object>
 </objectgroup>
</map>
"""
    with open(os.path.join(HERE, "tavern.tsx"), "w") as f:
        f.write(TAVERN_TSX)
    subprocess.run(["/usr/bin/convert", "-size", "64x32", "xc:#c8a878",
                    os.path.join(HERE, "tavern.png")], check=True)
    with open(os.path.join(HERE, "tavern.draft.tmx"), "w") as f:
        f.write(tmx)
    env = dict(os.environ, QT_QPA_PLATFORM="offscreen")
    subprocess.run(["tiled", "--export-map", "tmx", "tavern.draft.tmx", "tavern.tmx"],
                   cwd=HERE, env=env, check=True, stderr=subprocess.DEVNULL)
    os.remove(os.path.join(HERE, "tavern.draft.tmx"))
    # A courtyard drawn the usual way: white floor, black walls and trees,
    # a blue pond (#2080ff) for the palette example.
    subprocess.run(["/usr/bin/convert", "-size", "48x32", "xc:white", "+antialias",
                    "-fill", "black",
                    "-draw", "rectangle 0,0 47,0", "-draw", "rectangle 0,31 47,31",
                    "-draw", "rectangle 0,0 0,31", "-draw", "rectangle 47,0 47,31",
                    "-draw", "rectangle 16,0 17,20", "-draw", "circle 8,24 10,24",
                    "-draw", "circle 36,8 38,8",
                    "-fill", "#2080ff", "-draw", "rectangle 26,18 40,27",
                    "-strip", "PNG24:" + os.path.join(HERE, "courtyard.png")], check=True)


if __name__ == "__main__":
    main()
