#!/usr/bin/env bash
# D* Lite repairs against fresh searches, one map per shared family
# (gridstar-bench --replan: the 20 longest queries, 6 walls each at 10%,
# 50% and 90% of the way from the walking unit to its goal):
#   tests/bench/replan_bench.sh [GRIDSTAR_BENCH] [DATA_DIR] [ALGO]
# Defaults: build/release/tests/gridstar-bench ../shared/movingai astar.
set -euo pipefail
cd "$(dirname "$0")/../.."
bench=${1:-build/release/tests/gridstar-bench}
data=${2:-../shared/movingai}
algo=${3:-astar}
for m in bg512/AR0011SR da2/ca_cave dao/den520d mazes/maze512-1-0 \
         random/random512-10-0 rooms/8room_000 sc1/Aftershock cities/Berlin_0_256; do
  [[ -f $data/$m.map ]] || { echo "no $data/$m.map" >&2; exit 2; }
  "$bench" --map "$data/$m.map" --scen "$data/$m.map.scen" --algo "$algo" \
    --replan 20 | sed -n "s|^replan: place|$m place|p"
done
