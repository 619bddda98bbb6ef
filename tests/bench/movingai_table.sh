#!/usr/bin/env bash
# Runs gridstar-bench over every map of the Moving AI sample with two
# algorithms, map by map in turn (so both see the same machine state), and
# prints a Markdown table per family: queries, mean and p99 microseconds,
# mean expansions, and the mean-time ratio of the second to the first.
#
#   tests/bench/movingai_table.sh [BENCH] [DATA_DIR] [BASE_ALGO] [ALGO]
# Defaults: build/release/tests/gridstar-bench ../shared/movingai baseline astar
set -euo pipefail
cd "$(dirname "$0")/../.."
bench=${1:-build/release/tests/gridstar-bench}
data=${2:-../shared/movingai}
base=${3:-baseline}
algo=${4:-astar}
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
[[ -x $bench ]] || { echo "no $bench: run scripts/build.sh first" >&2; exit 2; }
[[ -d $data ]] || { echo "no Moving AI data at $data" >&2; exit 2; }

for scen in "$data"/*/*.map.scen; do
  family=$(basename "$(dirname "$scen")")
  for a in "$base" "$algo"; do
    "$bench" --map "${scen%.scen}" --scen "$scen" --algo "$a" \
      --csv "$tmp/run.csv" >/dev/null
    tail -n +2 "$tmp/run.csv" | awk -F, -v f="$family" '$2 >= 0 {print f, $3, $4}' \
      >>"$tmp/$a.txt"
  done
done

summarise() {  # file family -> "queries mean p99 expanded"
  awk -v f="$2" '$1 == f || f == "all" {print $3, $2}' "$1" | sort -g |
    awk '{t[NR]=$1; s+=$1; e+=$2} END {
      k=int(0.99*(NR-1)+0.5)+1; printf "%d %.1f %.1f %.0f", NR, s/NR, t[k], e/NR}'
}

echo "| family | queries | $base mean us | $base p99 us | $base expanded | $algo mean us | $algo p99 us | $algo expanded | $algo / $base |"
echo "|---|---:|---:|---:|---:|---:|---:|---:|---:|"
for f in $(awk '{print $1}' "$tmp/$base.txt" | sort -u) all; do
  read -r n bm bp be <<<"$(summarise "$tmp/$base.txt" "$f")"
  read -r _ am ap ae <<<"$(summarise "$tmp/$algo.txt" "$f")"
  ratio=$(awk -v a="$am" -v b="$bm" 'BEGIN {printf "%.2f", a / b}')
  label=$f; [[ $f == all ]] && label="**all**"
  echo "| $label | $n | $bm | $bp | $be | $am | $ap | $ae | $ratio |"
done
