#!/usr/bin/env python3
"""Where each engine lives, measured: the files of its folder
(core/src/engines/<name>/) and its public header (gridstar/engines/<name>.h,
auto's gridstar/auto_choice.h), and the files outside those that name it
(its enumerator Algorithm::kX, its proto value ALGORITHM_X, its folder's
internal headers), in code: comments, docstrings and help strings that use
an engine as an example are not what adding it takes, and tests, benchmarks
and docs are left out. Files that are built on an engine (another engine
that stands in for it, a planner or a server feature that uses its public
header or its structure's name) are listed apart: adding the engine did not
need them. docs/engines.md ("Adding an engine") quotes this, so that the count
of files an engine needs outside its folder is measured, not claimed.

    /usr/bin/python3 tests/engines/footprint.py [--check N]

--check N exits 1 when an engine is named outside its folder and public
header by more than N files besides its line in algorithms.inc and its
proto value (CTest EngineFootprint runs --check 0).
"""

import os
import re
import subprocess
import sys

ROOT = os.path.abspath(os.path.join(os.path.dirname(__file__), "..", ".."))

# engine folder -> (enumerators, its public header, its structure's name constant)
ENGINES = {
    "astar": (["kAStar", "kWeighted", "kDijkstra"], None, None),
    "baseline": (["kBaseline"], None, None),
    "bidirectional": (["kBidirectional"], None, None),
    "theta": (["kTheta"], None, None),
    "jps": (["kJps", "kJpsPlus"], "core/include/gridstar/engines/jps.h", "kJumpTableName"),
    "alt": (["kAlt"], "core/include/gridstar/engines/alt.h", "kLandmarksName"),
    "hpa": (["kHpa"], "core/include/gridstar/engines/hpa.h", "kHpaName"),
    "subgoal": (["kSubgoal", "kContraction"], "core/include/gridstar/engines/subgoal.h", "kSubgoalGraphName"),
    "auto": (["kAuto"], "core/include/gridstar/auto_choice.h", "kAutoChoiceName"),
}
# What every engine needs: its registry line and its proto value.
ALLOWED = {"core/include/gridstar/algorithms.inc", "proto/gridstar/v1/gridstar.proto"}
# Files built on an engine by name, not needed to add it: why each names it.
BUILT_ON = {
    ("astar", "core/include/gridstar/auto_choice.h"):
        "a map with nothing to measure keeps A*, the search every engine falls back to",
    ("astar", "core/include/gridstar/group_paths.h"):
        "group planning searches with A* by default",
    ("astar", "core/include/gridstar/path_query.h"):
        "A* is a query's default before auto resolves",
    ("astar", "core/src/planners/find_path.cc"):
        "FindPath falls back to A* where an engine cannot run",
    ("astar", "core/src/planners/group_paths.cc"):
        "group planning searches with A* by default",
    ("astar", "core/src/planners/incremental.cc"):
        "incremental replanning answers as A* does",
    ("baseline", "core/src/planners/group_paths.cc"):
        "group planning refuses the textbook baseline (a yardstick only)",
    ("jps", "core/src/planners/group_paths.cc"):
        "group planning's rule where auto was not measured: splice where jump point search runs",
    ("alt", "server/rpc/map_requests.cc"):
        "MapInfo.auto_algorithm is defined for a goal the landmarks reach",
    ("auto", "core/src/planners/group_paths.cc"):
        "group planning reads auto's measured cost model",
    ("auto", "core/src/planners/world_links.cc"):
        "a world's end table on a map too big for per-end distances searches its pairs with auto",
    ("auto", "proto/convert/convert.cc"):
        "ALGORITHM_UNSPECIFIED means auto, the default",
    ("auto", "server/rpc/map_requests.cc"):
        "MapInfo.auto_algorithm and auto_candidates report auto's choice",
    ("auto", "server/maps/path_jobs.cc"):
        "a query that asked for auto never gets a fallback note",
}
SKIP = ("tests/", "docs/", "client/python/gridstar/v1/", "client/typescript/src/generated/",
        "README.md")


def tracked():
    out = subprocess.run(["git", "ls-files"], cwd=ROOT, capture_output=True, text=True,
                         check=True).stdout.split()
    return [f for f in out if f.endswith((".cc", ".h", ".inc", ".proto", ".py", ".ts"))
            and os.path.exists(os.path.join(ROOT, f))]


def proto_name(enumerator):
    words = re.findall(r"[A-Z][a-z]*", enumerator[1:])
    return "ALGORITHM_" + "_".join(w.upper() for w in words)


def code_of(path, text):
    """The text without comments, docstrings and string literals: what names
    an engine there is code."""
    if path.endswith(".py"):
        text = re.sub(r'"""[\s\S]*?"""', "", text)
        text = re.sub(r"#[^\n]*", "", text)
        return re.sub(r'"[^"\n]*"', '""', text)
    includes = "\n".join(re.findall(r'^#include [^\n]*', text, re.M))
    text = re.sub(r"//[^\n]*", "", text)
    text = re.sub(r'"(\\.|[^"\\\n])*"', '""', text)
    return text + "\n" + includes


def footprint(files):
    texts = {f: code_of(f, open(os.path.join(ROOT, f), encoding="utf-8",
                                errors="replace").read()) for f in files}
    result = {}
    for folder, (enumerators, public, name_constant) in ENGINES.items():
        own = [f for f in files if f.startswith(f"core/src/engines/{folder}/") or f == public]
        needles = ([f"Algorithm::{e}" for e in enumerators] +
                   [f"GRIDSTAR_ALGORITHM({e}," for e in enumerators] +
                   [proto_name(e) for e in enumerators] + [f"engines/{folder}/"])
        uses = []
        if public:
            uses.append(public.replace("core/include/", ""))
        if name_constant:
            uses.append(name_constant)
        named, users = [], []
        for f, t in texts.items():
            if f in own or f.startswith(SKIP):
                continue
            if any(n in t for n in needles):
                if f.startswith("core/src/engines/") or (folder, f) in BUILT_ON:
                    users.append(f)
                else:
                    named.append(f)
            elif any(u in t for u in uses):
                users.append(f)
        result[folder] = (sorted(own), sorted(named), sorted(users))
    return result


def main():
    check = None
    if len(sys.argv) == 3 and sys.argv[1] == "--check":
        check = int(sys.argv[2])
    result = footprint(tracked())
    worst, worst_engine = 0, None
    for folder, (own, named, users) in result.items():
        print(f"{folder}: its own {len(own)} files "
              f"({', '.join(os.path.basename(f) for f in own)})")
        print(f"  named outside by {len(named)}: {', '.join(named)}")
        if users:
            print(f"  built on it (not needed to add it): {', '.join(users)}")
        extra = len([f for f in named if f not in ALLOWED])
        if extra > worst:
            worst, worst_engine = extra, folder
    if check is not None and worst > check:
        print(f"{worst_engine} is named by {worst} files outside its folder besides "
              f"algorithms.inc and the proto (allowed: {check})")
        return 1
    return 0


if __name__ == "__main__":
    sys.exit(main())
