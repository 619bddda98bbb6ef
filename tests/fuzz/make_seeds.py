#!/usr/bin/env python3
"""Writes the small seed corpora of the fuzz targets into corpus/<target>/.

Seeds are real maps cut down (the bundled sample and, when present, a Moving
AI map beside the repo) and the malformed cases of the unit tests. Run once;
the output is committed:  python3 tests/fuzz/make_seeds.py
"""
import os
import random
import struct

HERE = os.path.dirname(os.path.abspath(__file__))
ROOT = os.path.dirname(os.path.dirname(HERE))


def write(target, name, data):
    d = os.path.join(HERE, "corpus", target)
    os.makedirs(d, exist_ok=True)
    if isinstance(data, str):
        data = data.encode()
    with open(os.path.join(d, name), "wb") as f:
        f.write(data)


def cut_map(path, size):
    rows = open(path).read().split("\n")
    start = rows.index("map") + 1
    return [r[:size] for r in rows[start:start + size]]


def main():
    dungeon = cut_map(os.path.join(ROOT, "data/sample/dungeon.map"), 20)
    text = "type octile\nheight 20\nwidth 20\nmap\n" + "\n".join(dungeon) + "\n"
    write("movingai_map", "dungeon20.map", text)
    arena = os.path.join(ROOT, "../shared/movingai/dao/arena.map")
    if os.path.exists(arena):
        a = cut_map(arena, 24)
        write("movingai_map", "arena24.map",
              "type octile\nheight 24\nwidth 24\nmap\n" + "\n".join(a) + "\n")
    write("movingai_map", "crlf.map", "type octile\r\nwidth 2\r\nheight 1\r\nmap\r\n.@\r\n")
    write("movingai_map", "short_row.map", "type octile\nheight 2\nwidth 3\nmap\n...\n..\n")
    write("movingai_map", "huge.map", "type octile\nheight 316227766\nwidth 316227766\nmap\n")
    write("movingai_map", "extra_rows.map", "type octile\nheight 1\nwidth 1\nmap\n.\n.\n")

    # Every malformed .map case of map_io_test.cc.
    for name, text in [
        ("empty.map", ""),
        ("no_type.map", "height 1\nwidth 1\nmap\n.\n"),
        ("bad_height.map", "type octile\nheight x\nwidth 1\nmap\n.\n"),
        ("no_width.map", "type octile\nheight 1\nmap\n.\n"),
        ("height_twice.map", "type octile\nheight 1\nheight 1\n"),
        ("truncated_header.map", "type octile\nheight 1\n"),
        ("zero_width.map", "type octile\nheight 1\nwidth 0\nmap\n"),
        ("negative_height.map", "type octile\nheight -4\nwidth 2\nmap\n"),
        ("overflow_height.map", "type octile\nheight 999999999999999999999\nwidth 1\n"),
        ("no_map_line.map", "type octile\nheight 1\nwidth 1\n.\n"),
        ("long_row.map", "type octile\nheight 1\nwidth 3\nmap\n....\n"),
        ("few_rows.map", "type octile\nheight 3\nwidth 1\nmap\n.\n.\n"),
    ]:
        write("movingai_map", name, text)

    terrain = open(os.path.join(ROOT, "data/sample/terrain.pgm")).read().split("\n")
    px = [r.split()[:16] for r in terrain[4:20]]
    write("pgm", "terrain16.pgm",
          "P2\n# cut\n16 16\n9\n" + "\n".join(" ".join(r) for r in px) + "\n")
    write("pgm", "terrain16_p5.pgm",
          b"P5\n16 16\n9\n" + bytes(int(v) for r in px for v in r))
    write("pgm", "maxval_big.pgm", b"P5\n1 1\n65535\n\x01\x01")
    write("pgm", "truncated.pgm", b"P5\n2 2\n255\n\x01\x02\x03")
    write("pgm", "bad_magic.pgm", b"P6\n1 1\n255\n")
    # Every other malformed PGM case of map_io_test.cc.
    for name, data in [
        ("no_height.pgm", b"P2\n3\n"),
        ("word_width.pgm", b"P2\nthree 2\n9\n"),
        ("negative_width.pgm", b"P2\n-3 2\n9\n"),
        ("zero_height.pgm", b"P5\n3 0\n255\n"),
        ("over_limit.pgm", b"P5\n100000 100000\n255\n"),
        ("maxval_zero.pgm", b"P2\n1 1\n0\n0\n"),
        ("no_data.pgm", b"P5\n2 2\n255"),
        ("trailing_p5.pgm", b"P5\n1 1\n255\n\x01\x02"),
        ("p5_over_maxval.pgm", b"P5\n2 1\n9\n\x01\x0a"),
        ("p2_over_maxval.pgm", b"P2\n2 1\n9\n1 12\n"),
        ("p2_word.pgm", b"P2\n2 1\n9\n1 x\n"),
        ("p2_truncated.pgm", b"P2\n2 2\n9\n1 1 1\n"),
        ("p2_trailing.pgm", b"P2\n1 1\n9\n1 2\n"),
        ("p5_whitespace_pixels.pgm", b"P5 2 2 255\n#\n \t"),
    ]:
        write("pgm", name, data)
    write("pgm", "comment.pgm", "P2\n# a\n3 2\n# b\n9\n0 1 9\n3 4 5\n")

    raw = bytes(1 if c == "." else 0 for r in dungeon[:16] for c in r[:16])
    write("raw_map", "dungeon16.raw", struct.pack("<ii", 16, 16) + raw)
    write("raw_map", "costs4.raw", struct.pack("<ii", 4, 4) + bytes(range(16)))
    write("raw_map", "wrong_size.raw", struct.pack("<ii", 3, 3) + b"\x01" * 4)
    write("raw_map", "negative.raw", struct.pack("<ii", -1, 5))
    write("raw_map", "zero.raw", struct.pack("<ii", 0, 2))
    write("raw_map", "over_limit.raw", struct.pack("<ii", 1 << 30, 1))

    scen = open(os.path.join(ROOT, "data/sample/dungeon.map.scen")).read().split("\n")
    write("scenario", "dungeon20.scen", "\n".join(scen[:21]) + "\n")
    write("scenario", "crlf.scen", "version 1.0\r\n0\ta.map\t5\t5\t1\t2\t3\t4\t5.5\r\n\r\n")
    write("scenario", "fields.scen", "version 1\n0 a.map 1 1 0 0 0 0\n")
    write("scenario", "bad_version.scen", "version 2\n")
    write("scenario", "empty.scen", "")
    write("scenario", "word_coordinate.scen", "version 1\n0 a.map 1 1 0 x 0 0 1\n")
    write("scenario", "big_coordinate.scen", "version 1\n0 a.map 1 1 0 0 9999999999 0 1\n")
    write("scenario", "minus_two.scen", "version 1\n0 a.map 1 1 0 0 0 0 -2\n")
    write("scenario", "negative_width.scen", "version 1\n0 a.map -1 1 0 0 0 0 1\n")
    write("scenario", "nan.scen", "version 1\n0 a.map 1 1 0 0 0 0 nan\n")

    rng = random.Random(6)
    for i in range(8):
        n = rng.randrange(20, 700)
        write("search", "random%d.bin" % i, bytes(rng.randrange(256) for _ in range(n)))
    # An open 16 x 16 map with start and goal in opposite corners.
    write("search", "open16.bin", bytes([15, 15, 0]) + b"\xff" * 256 + bytes([4, 4, 19, 19, 0]))
    # A terrain map with snapping, a budget and smoothing on.
    write("search", "terrain_flags.bin",
          bytes([11, 11, 0x1d]) + bytes(rng.randrange(80, 256) for _ in range(144)) +
          bytes([2, 3, 40, 14, 3, 10, 12]))
    # Maps followed by areas in blobs, an agent class and a change, for the
    # agent-map checks that read the input's tail.
    rng = random.Random(20261205)
    for i in range(3):
        w, h = 6 + 5 * i, 5 + 4 * i
        data = bytes([w - 1, h - 1, rng.randrange(256)])
        data += bytes(rng.randrange(256) for _ in range(w * h + 12))
        data += bytes(rng.choice([0, 0, 1, 2, 3]) for _ in range(w * h))
        data += bytes(rng.randrange(256) for _ in range(20))
        write("search", "agents%d.bin" % i, data)


if __name__ == "__main__":
    main()
