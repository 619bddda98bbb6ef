#!/usr/bin/env bash
# Side-by-side speed of two gridstar-bench binaries (say, the commit before a
# change and after it) on the same queries in the same run: for every map of
# the given families and every algorithm, the two binaries run in turn, their
# order alternating per round; each map's figure is the lowest mean us per
# query of its rounds (on a shared, noisy machine the fastest run is the one
# least disturbed), and a family's is those weighted by query count. Prints
# per family and algorithm both figures and NEW/OLD (below 1.00 = the new
# binary is faster) and the mismatches of both.
#
#   tests/bench/compare_builds.sh OLD_BENCH NEW_BENCH [DATA_DIR] [FAMILIES] [ALGOS] [ROUNDS]
# Defaults: ../shared/movingai, "dao bg512 sc1 cities", "astar jps jps+", 2.
set -euo pipefail
cd "$(dirname "$0")/../.."
old=${1:?usage: compare_builds.sh OLD_BENCH NEW_BENCH [DATA_DIR] [FAMILIES] [ALGOS] [ROUNDS]}
new=${2:?usage: compare_builds.sh OLD_BENCH NEW_BENCH [DATA_DIR] [FAMILIES] [ALGOS] [ROUNDS]}
data=${3:-../shared/movingai}
families=${4:-dao bg512 sc1 cities}
algos=${5:-astar jps jps+}
rounds=${6:-2}
for b in "$old" "$new"; do [[ -x $b ]] || { echo "no $b" >&2; exit 2; }; done
[[ -d $data ]] || { echo "no Moving AI data at $data" >&2; exit 2; }
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT

field() { sed -E "s/(^|.* )$1=([0-9.]+).*/\2/"; }
run() {  # run BENCH MAP SCEN ALGO -> "queries mean_us mismatches"
  local line
  line=$("$1" --map "$2" --scen "$3" --algo "$4" | tail -1)
  echo "$(field queries <<<"$line") $(field mean_us <<<"$line") $(field mismatches <<<"$line")"
}
for ((r = 0; r < rounds; r++)); do
  for f in $families; do
    for scen in "$data/$f"/*.map.scen; do
      for a in $algos; do
        if ((r % 2 == 0)); then order=(old new); else order=(new old); fi
        for side in "${order[@]}"; do
          bin=$old; [[ $side == new ]] && bin=$new
          echo "$f $a $(run "$bin" "${scen%.scen}" "$scen" "$a") $scen" >>"$tmp/$side.txt"
        done
      done
    done
  done
done
# Per map the fastest round, then the query-weighted mean of a family.
mean() {
  awk -v f="$2" -v a="$3" '$1 == f && $2 == a {
      if (!($6 in best) || $4 < best[$6]) { best[$6] = $4; q[$6] = $3 } }
    END { for (m in best) { s += best[m] * q[m]; n += q[m] } printf "%.2f", s / n }' "$1"
}
mism() { awk -v f="$2" -v a="$3" '$1 == f && $2 == a {s += $5} END {print s + 0}' "$1"; }
echo "| family | algo | old us | new us | new/old | mismatches old/new |"
echo "|---|---|---:|---:|---:|---:|"
for f in $families; do
  for a in $algos; do
    o=$(mean "$tmp/old.txt" "$f" "$a")
    n=$(mean "$tmp/new.txt" "$f" "$a")
    echo "| $f | $a | $o | $n | $(awk -v o="$o" -v n="$n" 'BEGIN {printf "%.3f", n / o}') | $(mism "$tmp/old.txt" "$f" "$a")/$(mism "$tmp/new.txt" "$f" "$a") |"
  done
done
