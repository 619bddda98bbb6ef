#!/usr/bin/env bash
# The main job on a fresh machine: installs what is missing, builds, and starts
# gridstar-server on port 50051 (metrics on 9464) with the bundled sample maps
# registered as "dungeon" (128x128 Moving AI map) and "terrain" (128x128 PGM,
# costs 1..9). Ctrl-C (SIGINT) or SIGTERM drains and stops it. Extra arguments
# go to gridstar-server (see build/release/server/gridstar-server --help), e.g.
#   scripts/run.sh --port 6000 --data_dir /var/lib/gridstar
# `scripts/run.sh bench [gridstar-bench args]` runs the benchmark tool instead.
set -euo pipefail
cd "$(dirname "$0")/.."
scripts/install-deps.sh
scripts/build.sh build/release
if [[ "${1:-}" == bench ]]; then
  shift
  bench=build/release/tests/gridstar-bench
  if (($#)); then exec "$bench" "$@"; fi
  exec "$bench" --map data/sample/dungeon.map --scen data/sample/dungeon.map.scen
fi
exec build/release/server/gridstar-server \
  --preload=dungeon=data/sample/dungeon.map,terrain=data/sample/terrain.pgm "$@"
