#!/usr/bin/env bash
# Theta* against A* + smooth on every map of the Moving AI sample, both
# measured in the same run (gridstar-bench --algo theta --reference astar: for
# each query Theta*'s FindPath, then A*'s with smooth, alternating). Prints a
# Markdown table per family: mean microseconds of each and their ratio; the
# any-angle cost over the optimal grid length (mean); Theta*'s cost over
# A* + smooth's (mean, max) and how many queries came out above it.
#
#   tests/bench/theta_bench.sh [BENCH] [DATA_DIR]
# Defaults: build/release/tests/gridstar-bench ../shared/movingai
set -euo pipefail
cd "$(dirname "$0")/../.."
bench=${1:-build/release/tests/gridstar-bench}
data=${2:-../shared/movingai}
[[ -x $bench ]] || { echo "no $bench: run scripts/build.sh first" >&2; exit 2; }
[[ -d $data ]] || { echo "no Moving AI data at $data" >&2; exit 2; }
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT

for scen in "$data"/*/*.map.scen; do
  family=$(basename "$(dirname "$scen")")
  out=$("$bench" --map "${scen%.scen}" --scen "$scen" --algo theta \
    --reference astar)
  # queries, theta mean us, astar+smooth mean us, theta/grid mean,
  # theta/smoothed mean, max, above, mismatches
  echo "$out" | awk -v f="$family" '
    /^theta_vs_grid_mean=/ { split($1, a, "="); grid = a[2] }
    /^theta_vs_smoothed_mean=/ {
      for (i = 1; i <= NF; i++) { split($i, a, "="); v[a[1]] = a[2] } }
    /^queries=/ { for (i = 1; i <= NF; i++) { split($i, a, "="); q[a[1]] = a[2] } }
    END { print f, q["queries"], q["mean_us"], v["reference_mean_us"], grid,
                v["theta_vs_smoothed_mean"], v["theta_vs_smoothed_max"],
                v["above"], q["mismatches"] }' >>"$tmp/rows.txt"
done

echo "| family | queries | theta mean us | astar+smooth mean us | theta / (astar+smooth) time | theta / optimal grid | theta / (astar+smooth) cost, mean | max | above | mismatches |"
echo "|---|---:|---:|---:|---:|---:|---:|---:|---:|---:|"
for f in $(awk '{print $1}' "$tmp/rows.txt" | sort -u) all; do
  awk -v f="$f" '$1 == f || f == "all" {
      n += $2; tm += $2 * $3; rm += $2 * $4; g += $2 * $5; s += $2 * $6;
      if ($7 > mx) mx = $7; above += $8; bad += $9 }
    END { label = (f == "all") ? "**all**" : f
      printf "| %s | %d | %.1f | %.1f | %.2f | %.4f | %.4f | %.4f | %d | %d |\n",
        label, n, tm / n, rm / n, tm / rm, g / n, s / n, mx, above, bad }' \
    "$tmp/rows.txt"
done
