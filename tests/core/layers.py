#!/usr/bin/env python3
"""The core library's layers, checked: every file of core/src and
core/include/gridstar belongs to a layer, and a file may include only headers
of its own layer or of layers below it. Lowest first:

  base      types, the algorithm list, queries' shared parts     (src/base)
  storage   copy-on-write tiles, lazy and sparse arrays          (src/storage)
  map       GridMap, updates, components, the cost model, agents (src/map)
  io        map and scenario readers                             (src/io)
  search    search contexts, the best-first loop, path tools     (src/search)
  engines   each engine's folder and the registry                (src/engines)
  planners  FindPath, derived structures, groups, flow fields    (src/planners)

Includes that still run upward are listed in KNOWN with the reason; the
check fails on any other upward include, and on a KNOWN entry that no longer
occurs (so the list only shrinks). CTest CoreLayers runs it.

    /usr/bin/python3 tests/core/layers.py
"""

import os
import re
import sys

ROOT = os.path.abspath(os.path.join(os.path.dirname(__file__), "..", ".."))
LAYERS = ["base", "storage", "map", "io", "search", "engines", "planners"]
PUBLIC = {
    "types.h": "base", "algorithms.inc": "base", "query.h": "base", "path_query.h": "base",
    "grid_map.h": "map", "map_update.h": "map", "move_cost.h": "map", "agents.h": "map",
    "map_io.h": "io", "map_import.h": "io", "scenario.h": "io",
    "search_context.h": "search",
    "auto_choice.h": "engines", "derived_structure.h": "engines",
    "engines/jps.h": "engines", "engines/alt.h": "engines", "engines/hpa.h": "engines",
    "engines/subgoal.h": "engines",
    "find_path.h": "planners", "derived_data.h": "planners",
    "flow_field.h": "planners", "group_paths.h": "planners", "incremental.h": "planners",
    "world.h": "planners",
}
# (file, included header): why it still runs upward.
KNOWN = {
    ("core/src/engines/auto/auto_choice.cc", "gridstar/find_path.h"):
        "auto's measurement times whole searches and group plans (a planner's work)",
    ("core/src/engines/auto/auto_choice.cc", "gridstar/flow_field.h"):
        "auto's measurement also times flow fields for the group cost model",
    ("core/src/engines/auto/auto_choice.cc", "gridstar/group_paths.h"):
        "auto's measurement also times group splicing for the group cost model",
}


def layer_of(path):
    rel = os.path.relpath(path, ROOT)
    if rel.startswith("core/include/gridstar/"):
        return PUBLIC.get(rel[len("core/include/gridstar/"):])
    parts = rel.split("/")
    if len(parts) >= 4 and parts[:2] == ["core", "src"]:
        return parts[2] if parts[2] in LAYERS else None
    return None


def header_layer(include):
    if include.startswith("gridstar/"):
        return PUBLIC.get(include[len("gridstar/"):]), True
    first = include.split("/")[0]
    return (first if first in LAYERS else None), first in LAYERS


def main():
    files = []
    for base in ("core/src", "core/include/gridstar"):
        for d, _, names in os.walk(os.path.join(ROOT, base)):
            files += [os.path.join(d, n) for n in names if n.endswith((".h", ".cc", ".inc"))]
    problems, seen = [], set()
    for path in sorted(files):
        rel = os.path.relpath(path, ROOT)
        mine = layer_of(path)
        if mine is None:
            problems.append(f"{rel}: in no layer (add it to a layer's folder or PUBLIC)")
            continue
        with open(path, encoding="utf-8") as f:
            includes = re.findall(r'^#include "([^"]+)"', f.read(), re.M)
        for inc in includes:
            theirs, ours = header_layer(inc)
            if not ours and not inc.startswith("gridstar/"):
                continue  # Abseil and the like.
            if theirs is None:
                problems.append(f"{rel}: includes {inc}, which is in no layer")
                continue
            if LAYERS.index(theirs) <= LAYERS.index(mine):
                continue
            key = (rel, inc)
            if key in KNOWN:
                seen.add(key)
                continue
            problems.append(f"{rel} ({mine}) includes {inc} ({theirs}): runs up")
    for key in sorted(set(KNOWN) - seen):
        problems.append(f"KNOWN lists {key[0]} -> {key[1]}, which no longer occurs: "
                        "drop it from tests/core/layers.py")
    for p in problems:
        print(p)
    print(f"{len(files)} files, {len(KNOWN)} known upward includes, "
          f"{len(problems)} problems")
    return 1 if problems else 0


if __name__ == "__main__":
    sys.exit(main())
