#!/usr/bin/env bash
# The main job on a fresh machine: installs what is missing, builds, and runs
# gridstar-bench on the bundled sample map (every algorithm, A* last), then the
# terrain sample. Extra arguments go to the final gridstar-bench call, e.g.
#   scripts/run.sh --map ../shared/movingai/dao/den520d.map --scen ../shared/movingai/dao/den520d.map.scen
set -euo pipefail
cd "$(dirname "$0")/.."
scripts/install-deps.sh
scripts/build.sh build/release
bench=build/release/tests/gridstar-bench
if (($#)); then
  exec "$bench" "$@"
fi
for algo in baseline dijkstra weighted astar; do
  echo "== gridstar-bench --algo $algo (data/sample/dungeon.map, 128x128)"
  "$bench" --map data/sample/dungeon.map --scen data/sample/dungeon.map.scen --algo "$algo" | tail -1
done
echo "== gridstar-bench --algo astar (data/sample/terrain.pgm, costs 1..9)"
"$bench" --map data/sample/terrain.pgm --scen data/sample/terrain.pgm.scen | tail -1
