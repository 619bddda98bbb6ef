#!/usr/bin/env python3
"""Draws the sample maps that ship with gridstar and writes their scenarios.

Deterministic (fixed seed). The optimal lengths come from a plain Dijkstra
written here, independent of the C++ code, using gridstar's cost model:
a move a->b costs step * (cost(a) + cost(b)) / 2, step 1 or sqrt(2),
diagonals only when both orthogonal neighbours are passable.

    python3 data/make_sample.py    # rewrites data/sample/* (dungeon, terrain, lakeside)
"""
import heapq
import math
import os
import random

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


if __name__ == "__main__":
    main()
