#!/usr/bin/env bash
# HPA* figures: on every Moving AI map, hpa against jps (exact) in the same
# run, map by map in turn: suboptimality (hpa's length over the scenario's
# optimal one, before smoothing), mean microseconds of each and their ratio,
# and hpa's precomputation; then, unless SKIP_WORLD is set, the same on the
# 8192 x 8192 world (tests/bench/make_world.py, generated here) with jps as
# the reference for the optimum, and hpa's repair inside one-cell updates.
#
#   tests/bench/hpa_bench.sh [BENCH] [DATA_DIR] [WORLD_QUERIES]
# Defaults: build/release/tests/gridstar-bench ../shared/movingai 200
set -euo pipefail
cd "$(dirname "$0")/../.."
bench=${1:-build/release/tests/gridstar-bench}
data=${2:-../shared/movingai}
world_queries=${3:-200}
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
[[ -x $bench ]] || { echo "no $bench: run scripts/build.sh first" >&2; exit 2; }
[[ -d $data ]] || { echo "no Moving AI data at $data" >&2; exit 2; }

field() {  # file key -> value of key=value
  grep -o "$2=[^ ]*" "$1" | head -1 | cut -d= -f2
}

echo "| family | map | queries | hpa subopt. mean | max | hpa mean us | jps mean us | hpa/jps | hpa build ms | hpa bytes/cell |"
echo "|---|---|---:|---:|---:|---:|---:|---:|---:|---:|"
for scen in "$data"/*/*.map.scen; do
  map=${scen%.scen}
  family=$(basename "$(dirname "$scen")")
  "$bench" --map "$map" --scen "$scen" --algo hpa >"$tmp/hpa.out"
  "$bench" --map "$map" --scen "$scen" --algo jps >"$tmp/jps.out"
  hpa_us=$(field "$tmp/hpa.out" mean_us)
  jps_us=$(field "$tmp/jps.out" mean_us)
  printf "| %s | %s | %s | %s | %s | %s | %s | %.2f | %s | %s |\n" \
    "$family" "$(basename "$map" .map)" "$(field "$tmp/hpa.out" queries)" \
    "$(field "$tmp/hpa.out" suboptimality_mean)" \
    "$(field "$tmp/hpa.out" suboptimality_max)" "$hpa_us" "$jps_us" \
    "$(echo "$hpa_us / $jps_us" | bc -l)" "$(field "$tmp/hpa.out" hpa_ms)" \
    "$(field "$tmp/hpa.out" hpa_bytes_per_cell)"
done

[[ -n ${SKIP_WORLD:-} ]] && exit 0
source_map=$data/cities/Berlin_0_1024.map
python3 tests/bench/make_world.py "$source_map" "$tmp/world.pgm" "$tmp/world.scen" \
  "$world_queries"
echo
echo "8192 x 8192 world, $world_queries cross-world queries (reference: jps):"
"$bench" --map "$tmp/world.pgm" --scen "$tmp/world.scen" --algo hpa --reference jps \
  | grep -E "hpa_ms|queries=|suboptimality"
# (jps reports every query a mismatch here: the scenario has no lengths.)
"$bench" --map "$tmp/world.pgm" --scen "$tmp/world.scen" --algo jps | grep -E "queries=" || true
echo "one-cell updates with the abstraction repaired (and checked against a fresh build):"
"$bench" --map "$tmp/world.pgm" --algo hpa --updates 200 --update_side 1 \
  | grep -E "repaired_equals_fresh"
