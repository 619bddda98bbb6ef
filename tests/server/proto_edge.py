#!/usr/bin/env python3
"""The server's domain keeps proto at the RPC edge: the files listed in DOMAIN
(the watch hub, the path jobs it and the RPC layer share) must not reach,
through the repository's own headers, the generated proto, the proto
translation (proto/convert), the RPC layer (server/rpc) or gRPC. Includes are
followed transitively through server/, core/include/ and proto/; the check
prints each offending chain. CTest ServerProtoEdge runs it.

    /usr/bin/python3 tests/server/proto_edge.py
"""

import os
import re
import sys

ROOT = os.path.abspath(os.path.join(os.path.dirname(__file__), "..", ".."))
DOMAIN = [
    "server/maps/path_jobs.h", "server/maps/path_jobs.cc",
    "server/watch/watch_events.h", "server/watch/watch_hub.h",
    "server/watch/watch_hub_internal.h", "server/watch/watch_hub.cc",
    "server/watch/watch_hub_requests.cc", "server/watch/watch_hub_changes.cc",
    "server/watch/watch_metrics.h", "server/watch/watch_metrics.cc",
    "server/watch/agent_path.h", "server/watch/agent_path.cc",
    "server/watch/world_watch.h", "server/watch/world_watch_internal.h",
    "server/watch/world_watch.cc", "server/watch/world_watch_requests.cc",
    "server/watch/world_watch_changes.cc",
]
SEARCH = ["server", "core/include", "proto"]


def forbidden(include):
    return (include.endswith(".pb.h") or include.startswith(("convert/", "rpc/", "grpc"))
            or include.startswith("gridstar/v1/"))


def resolve(include):
    for base in SEARCH:
        path = os.path.join(ROOT, base, include)
        if os.path.isfile(path):
            return path
    return None


def includes_of(path):
    with open(path, encoding="utf-8") as f:
        return re.findall(r'^#include [<"]([^">]+)[">]', f.read(), re.M)


def main():
    problems = []
    for rel in DOMAIN:
        start = os.path.join(ROOT, rel)
        if not os.path.isfile(start):
            problems.append(f"{rel}: listed but missing (update DOMAIN)")
            continue
        seen, stack = set(), [(start, [rel])]
        while stack:
            path, chain = stack.pop()
            for inc in includes_of(path):
                if forbidden(inc):
                    problems.append(" -> ".join(chain + [inc]))
                    continue
                found = resolve(inc)
                if found is not None and found not in seen:
                    seen.add(found)
                    stack.append((found, chain + [os.path.relpath(found, ROOT)]))
    for p in problems:
        print(p)
    print(f"{len(DOMAIN)} domain files, {len(problems)} reach proto, convert, rpc or gRPC")
    return 1 if problems else 0


if __name__ == "__main__":
    sys.exit(main())
