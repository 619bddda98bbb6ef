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

    tiled_seeds()
    image_seeds()
    world_file_seeds()


TSX = """<tileset name="t" tilewidth="16" tileheight="16" tilecount="4" columns="2">
 <tile id="1"><properties><property name="blocked" type="bool" value="true"/></properties></tile>
 <tile id="2" type="water"><properties><property name="cost" type="int" value="5"/>
  <property name="area" type="int" value="2"/></properties></tile>
</tileset>
"""


def tmx(data_element, tilesets, objects=""):
    return ('<?xml version="1.0"?>\n<map orientation="orthogonal" width="4" height="3" '
            'tilewidth="16" tileheight="16" infinite="0">\n' + tilesets +
            '<layer name="g" width="4" height="3">' + data_element + '</layer>\n' +
            objects + '</map>\n')


def tiled_seeds():
    """Tiled maps in each encoding; an external tileset follows the marker
    line the fuzzer splits on."""
    import base64
    import zlib
    gids = [1, 2, 3, 1, 1, 0, 0x80000002, 1, 3, 3, 1, 1]
    raw = struct.pack("<12I", *gids)
    inline = TSX.replace("<tileset ", '<tileset firstgid="1" ', 1)
    external = '<tileset firstgid="1" source="t.tsx"/>\n'
    objects = ('<objectgroup name="o"><object id="1" x="0" y="0" width="32" height="16" '
               'rotation="30"><properties><property name="area" type="int" value="3"/>'
               '</properties></object><object id="2" x="0" y="0"><polygon points="0,0 40,0 0,40"/>'
               '<properties><property name="blocked" type="bool" value="true"/></properties>'
               '</object><object id="3" gid="2" x="16" y="48" width="16" height="16"/>'
               '<object id="4" x="0" y="0" width="48" height="48"><ellipse/></object></objectgroup>\n')
    csv = '<data encoding="csv">' + ",".join(map(str, gids)) + "</data>"
    write("tiled", "csv.tmx", tmx(csv, inline, objects))
    write("tiled", "xml.tmx", tmx("<data>" + "".join('<tile gid="%d"/>' % g for g in gids) +
                                  "</data>", inline))
    write("tiled", "base64.tmx", tmx('<data encoding="base64">' +
                                     base64.b64encode(raw).decode() + "</data>", inline))
    write("tiled", "zlib.tmx", tmx('<data encoding="base64" compression="zlib">' +
                                   base64.b64encode(zlib.compress(raw)).decode() + "</data>",
                                   external) + "\n--tileset--\n" + TSX)
    gz = zlib.compressobj(9, zlib.DEFLATED, 31)
    write("tiled", "gzip.tmx", tmx('<data encoding="base64" compression="gzip">' +
                                   base64.b64encode(gz.compress(raw) + gz.flush()).decode() +
                                   "</data>", inline))
    write("tiled", "map.tmj", """{"width":4,"height":3,"tilewidth":16,"tileheight":16,
 "orientation":"orthogonal","infinite":false,
 "tilesets":[{"firstgid":1,"name":"t","tilecount":4,"tiles":[{"id":1,"properties":[
  {"name":"blocked","type":"bool","value":true}]},{"id":2,"type":"water","properties":[
  {"name":"cost","type":"int","value":5}]}]}],
 "layers":[{"type":"group","name":"grp","layers":[{"type":"tilelayer","name":"a","width":4,
  "height":3,"data":%s}]},{"type":"tilelayer","name":"b","width":4,"height":3,
  "encoding":"base64","compression":"zlib","data":"%s"},
  {"type":"objectgroup","name":"o","objects":[{"id":1,"x":4,"y":4,"width":20,"height":20,
  "ellipse":true,"properties":[{"name":"area","type":"int","value":1}]},
  {"id":2,"x":0,"y":0,"polygon":[{"x":0,"y":0},{"x":30,"y":5},{"x":5,"y":30}],
  "properties":[{"name":"blocked","type":"bool","value":true}]}]}]}""" % (
        gids[:6] + [0] * 6, base64.b64encode(zlib.compress(raw)).decode()))
    write("tiled", "external.tmj", '{"width":4,"height":3,"tilewidth":16,"tileheight":16,'
          '"orientation":"orthogonal","tilesets":[{"firstgid":1,"source":"t.tsx"}],'
          '"layers":[{"type":"tilelayer","name":"a","width":4,"height":3,"data":%s}]}'
          '\n--tileset--\n{"name":"t","tilecount":4,"tiles":[{"id":1,"properties":'
          '[{"name":"blocked","type":"bool","value":true}]}]}' % [g & 0xfffffff for g in gids])


def png_chunk(kind, data):
    import zlib
    return (struct.pack(">I", len(data)) + kind + data +
            struct.pack(">I", zlib.crc32(kind + data) & 0xffffffff))


def image_seeds():
    """Small PNGs of each colour type (the first byte picks the mapping the
    fuzzer reads them through), and PGMs."""
    import zlib
    rng = random.Random(20261207)
    w, h = 5, 4
    for mode in range(3):
        for colour_type, channels in ((0, 1), (2, 3), (3, 1), (4, 2), (6, 4)):
            rows = b""
            for _ in range(h):
                rows += b"\0" + bytes(rng.choice([0, 255, 128]) if colour_type != 3
                                      else rng.randrange(3) for _ in range(w * channels))
            png = b"\x89PNG\r\n\x1a\n" + png_chunk(
                b"IHDR", struct.pack(">IIBBBBB", w, h, 8, colour_type, 0, 0, 0))
            if colour_type == 3:
                png += png_chunk(b"PLTE", bytes([255, 255, 255, 0, 0, 0, 32, 128, 255]))
            png += png_chunk(b"IDAT", zlib.compress(rows)) + png_chunk(b"IEND", b"")
            write("image", "mode%d_type%d.png" % (mode, colour_type), bytes([mode]) + png)
        write("image", "mode%d.pgm" % mode,
              bytes([mode]) + b"P2\n3 2\n255\n0 255 128\n255 255 0\n")


def world_file_seeds():
    """Recipes (odd first byte) of worlds and their edits: world_file_fuzzer
    writes each step as the store does, replays it, damages a byte."""
    rng = random.Random(20261208)
    for i in range(6):
        recipe = bytes(rng.randrange(256) for _ in range(40 + 40 * i))
        write("world_file", "recipe%d.bin" % i, bytes([1 + 2 * i]) + recipe)


if __name__ == "__main__":
    main()
