#!/usr/bin/env bash
# Agent sizes against size 1 (gridstar-bench --agent_size K: every query of
# the scenario whose ends are free for size K, searched on both agent maps
# under the same filter, alternating), over every dao and sc1 map of the
# shared sample, for each algorithm given. Prints one line per map and
# algorithm: mean us of size 1 and size K, their ratio, expansions, and
# the geometric mean of the ratios per algorithm at the end.
#   tests/bench/agents_bench.sh [GRIDSTAR_BENCH] [DATA_DIR] [SIZE] [AREAS] [ALGOS]
# Defaults: build/release/tests/gridstar-bench ../shared/movingai 3 0
# "astar jps". AREAS 0 is the maps' default (ground and swamp).
set -euo pipefail
cd "$(dirname "$0")/../.."
bench=${1:-build/release/tests/gridstar-bench}
data=${2:-../shared/movingai}
size=${3:-3}
areas=${4:-0}
algos=${5:-astar jps}
area_flag=()
[[ $areas != 0 ]] && area_flag=(--areas "$areas")
printf '%-22s %-6s %8s %10s %10s %7s %9s %9s\n' map algo queries "size1_us" \
  "size${size}_us" ratio exp1 "exp${size}"
for algo in $algos; do
  logsum=0
  n=0
  for f in "$data"/dao/*.map "$data"/sc1/*.map; do
    m=${f#"$data"/}
    m=${m%.map}
    out=$("$bench" --map "$f" --scen "$f.scen" --algo "$algo" \
      --agent_size "$size" "${area_flag[@]}")
    line=$(grep '^agents: size 1 mean' <<<"$out")
    queries=$(sed -n 's/^agents: \([0-9]*\) queries.*/\1/p' <<<"$out")
    read -r us1 e1 usk ek ratio < <(sed -E \
      's/.*size 1 mean ([0-9.]+) us \(([0-9]+) expanded\); size [0-9]+ mean ([0-9.]+) us \(([0-9]+) expanded\); time ratio [^=]*= ([0-9.]+);.*/\1 \2 \3 \4 \5/' \
      <<<"$line")
    printf '%-22s %-6s %8s %10s %10s %7s %9s %9s\n' "$m" "$algo" "$queries" \
      "$us1" "$usk" "$ratio" "$e1" "$ek"
    logsum=$(awk -v s="$logsum" -v r="$ratio" 'BEGIN{print s + log(r)}')
    n=$((n + 1))
  done
  awk -v s="$logsum" -v n="$n" -v a="$algo" -v k="$size" \
    'BEGIN{printf "geometric mean of size %d / size 1 (%s): %.3f over %d maps\n", k, a, exp(s / n), n}'
done
