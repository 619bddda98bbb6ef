#!/usr/bin/env python3
"""Where each engine lives: the files of its folder (core/src/engines/<name>/)
and the files outside it that name it (its enumerator Algorithm::kX, its proto
value ALGORITHM_X, its folder's headers, or its structure's GridMap methods),
tests, benchmarks and docs left out. docs/engines.md ("Adding an engine")
quotes this, so that the count of files an engine needs outside its folder is
measured, not claimed.

    /usr/bin/python3 tests/engines/footprint.py [--check N]

--check N exits 1 when bidirectional or theta, engines without a precomputed
structure, are named outside their folders by more than N files besides
their line in algorithms.inc and their proto value (CTest EngineFootprint
runs --check 0).
"""

import os
import re
import subprocess
import sys

ROOT = os.path.abspath(os.path.join(os.path.dirname(__file__), "..", ".."))

# engine folder -> (enumerators, names of its structure's functions (structures.h))
ENGINES = {
    "astar": (["kAStar", "kWeighted", "kDijkstra"], []),
    "baseline": (["kBaseline"], []),
    "bidirectional": (["kBidirectional"], []),
    "theta": (["kTheta"], []),
    "jps": (["kJps", "kJpsPlus"], ["BuildJumpTable", "RepairJumpTable", "HasJumpTable",
                                   "jump_table_pending"]),
    "alt": (["kAlt"], ["BuildLandmarks", "LandmarkCount", "landmarks_pending"]),
    "hpa": (["kHpa"], ["BuildHpa", "RepairHpa", "HasHpa"]),
    "subgoal": (["kSubgoal"], ["BuildSubgoalGraph", "HasSubgoalGraph",
                               "subgoal_graph_pending"]),
    "auto": (["kAuto"], ["SetAutoChoice", "AutoChoiceOf"]),
}
# Engines without a structure whose only names outside their folder are what
# every engine needs (astar and baseline are also the defaults and yardsticks
# planners name).
STRUCTURELESS = ["bidirectional", "theta"]
ALLOWED = {"core/include/gridstar/algorithms.inc", "proto/gridstar/v1/gridstar.proto"}
SKIP = ("tests/", "docs/", "client/python/gridstar/v1/", "README.md")


def tracked():
    out = subprocess.run(["git", "ls-files"], cwd=ROOT, capture_output=True, text=True,
                         check=True).stdout.split()
    return [f for f in out if f.endswith((".cc", ".h", ".inc", ".proto", ".py", ".ts"))]


def proto_name(enumerator):
    words = re.findall(r"[A-Z][a-z]*", enumerator[1:])
    return "ALGORITHM_" + "_".join(w.upper() for w in words)


def footprint(files):
    texts = {f: open(os.path.join(ROOT, f), encoding="utf-8", errors="replace").read()
             for f in files}
    result = {}
    for folder, (enumerators, methods) in ENGINES.items():
        inside = sorted(f for f in files if f.startswith(f"core/src/engines/{folder}/"))
        needles = ([f"Algorithm::{e}" for e in enumerators] +
                   [f"GRIDSTAR_ALGORITHM({e}," for e in enumerators] +
                   [proto_name(e) for e in enumerators] +
                   [f"engines/{folder}/"] + methods)
        named = sorted(f for f, t in texts.items()
                       if not f.startswith(f"core/src/engines/{folder}/")
                       and not f.startswith(SKIP)
                       and any(n in t for n in needles))
        # Other engines that stand in for it or build on it use it; they
        # are not what adding it takes.
        users = [f for f in named if f.startswith("core/src/engines/")]
        outside = [f for f in named if f not in users]
        result[folder] = (inside, outside, users)
    return result


def main():
    check = None
    if len(sys.argv) == 3 and sys.argv[1] == "--check":
        check = int(sys.argv[2])
    result = footprint(tracked())
    worst = 0
    for folder, (inside, outside, users) in result.items():
        print(f"{folder}: folder {len(inside)} files "
              f"({', '.join(os.path.basename(f) for f in inside)})")
        print(f"  named outside by {len(outside)}: {', '.join(outside)}")
        if users:
            print(f"  used by other engines: {', '.join(users)}")
        if folder in STRUCTURELESS:
            worst = max(worst, len([f for f in outside if f not in ALLOWED]))
    if check is not None and worst > check:
        print(f"an engine without a structure is named by {worst} files outside its folder "
              f"besides algorithms.inc and the proto (allowed: {check})")
        return 1
    return 0


if __name__ == "__main__":
    sys.exit(main())
