#!/usr/bin/env bash
# The speed figures of docs/performance.md's "Jump points, landmarks and flow fields",
# all from one run of gridstar-bench so that every ratio compares figures
# taken on the same machine state:
#   1. every query of the dao, bg512, sc1 and cities maps through baseline,
#      astar, jps and jps+, map by map in turn: mean us per family, the
#      speed-up over baseline, and the mismatch count (must be 0);
#   2. a seeded 512 x 512 terrain map (costs 1..9, some blocked; written by
#      gridstar-bench --make_terrain): baseline, astar and alt (8 landmarks)
#      over 300 optimal queries: mean us and expansions;
#   3. flow fields on that map and on two 512 x 512 Moving AI maps against
#      one astar search across the map (the 20 longest queries), and a group
#      of 200 units to one goal against 20 independent searches.
#
#   tests/bench/speed_bench.sh [BENCH] [DATA_DIR] [FAMILIES] [PARTS]
# Defaults: build/release/tests/gridstar-bench ../shared/movingai
# "dao bg512 sc1 cities" "1 2 3".
set -euo pipefail
cd "$(dirname "$0")/../.."
bench=${1:-build/release/tests/gridstar-bench}
data=${2:-../shared/movingai}
families=${3:-dao bg512 sc1 cities}
parts=" ${4:-1 2 3} "
algos=(baseline astar jps jps+)
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
[[ -x $bench ]] || { echo "no $bench: run scripts/build.sh first" >&2; exit 2; }
[[ -d $data ]] || { echo "no Moving AI data at $data" >&2; exit 2; }

# The value of key=value in a line (the whole key: group_mean_us is not
# cached_field_group_mean_us).
field() { sed -E "s/(^|.* )$1=([0-9.]+).*/\2/"; }

# 1. Moving AI families.
if [[ $parts == *" 1 "* ]]; then
for f in $families; do
  for scen in "$data/$f"/*.map.scen; do
    for a in "${algos[@]}"; do
      line=$("$bench" --map "${scen%.scen}" --scen "$scen" --algo "$a" \
        --csv "$tmp/run.csv" | tail -1)
      mism=$(field mismatches <<<"$line")
      echo "$f $mism" >>"$tmp/$a.mismatches"
      tail -n +2 "$tmp/run.csv" | awk -F, -v f="$f" '$2 >= 0 {print f, $4}' >>"$tmp/$a.txt"
    done
  done
done
mean() { awk -v f="$2" '$1 == f || f == "all" {s += $2; n++} END {printf "%.1f", s / n}' "$1"; }
count() { awk -v f="$2" '$1 == f || f == "all" {n++} END {print n}' "$1"; }
mismatches() { awk -v f="$2" '$1 == f || f == "all" {s += $2} END {print s}' "$1"; }
echo "| family | queries | baseline us | astar us | jps us | jps+ us | jps speed-up | jps+ speed-up | mismatches |"
echo "|---|---:|---:|---:|---:|---:|---:|---:|---:|"
for f in $families all; do
  b=$(mean "$tmp/baseline.txt" "$f")
  row="| $f | $(count "$tmp/baseline.txt" "$f") | $b"
  for a in astar jps jps+; do row+=" | $(mean "$tmp/$a.txt" "$f")"; done
  for a in jps jps+; do
    row+=" | $(awk -v b="$b" -v m="$(mean "$tmp/$a.txt" "$f")" 'BEGIN {printf "%.1fx", b / m}')"
  done
  total=0
  for a in "${algos[@]}"; do total=$((total + $(mismatches "$tmp/$a.mismatches" "$f"))); done
  echo "$row | $total |"
done
fi

# 2. Landmarks on terrain (the map is also part 3's).
"$bench" --make_terrain 512 --seed 7 --queries 300 --out "$tmp/terrain512" >/dev/null
terrain=("$bench" --map "$tmp/terrain512.pgm" --scen "$tmp/terrain512.pgm.scen")
if [[ $parts == *" 2 "* ]]; then
echo
echo "| terrain 512 x 512, 300 queries | mean us | p99 us | expanded | mismatches |"
echo "|---|---:|---:|---:|---:|"
for a in baseline astar alt; do
  extra=()
  [[ $a == alt ]] && extra=(--landmarks 8)
  out=$("${terrain[@]}" --algo "$a" "${extra[@]}")
  line=$(tail -1 <<<"$out")
  build=$(grep -o 'landmarks_ms=[0-9.]*' <<<"$out" || true)
  echo "| $a ${build:+($build)} | $(field mean_us <<<"$line") | $(field p99_us <<<"$line") | $(field expanded_mean <<<"$line") | $(field mismatches <<<"$line") |"
done
fi

# 3. Flow fields and groups.
[[ $parts == *" 3 "* ]] || exit 0
echo
echo "| map | field us | astar across us | field / astar | group of 200 us (astar; auto) | with the field cached us | 20 astar us | 20 auto us | group / 20 astar | auto group / 20 auto | cached / 20 auto |"
echo "|---|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|"
for m in terrain bg512/AR0011SR mazes/maze512-8-0; do
  if [[ $m == terrain ]]; then
    args=("${terrain[@]}" --landmarks 8)
  else
    args=("$bench" --map "$data/$m.map" --scen "$data/$m.map.scen")
  fi
  flow=$("${args[@]}" --algo astar --flow 20 | tail -1)
  group_astar=$("${args[@]}" --algo astar --group 200 | tail -1)
  group_auto=$("${args[@]}" --algo auto --group 200 | tail -1)
  g=$(field group_mean_us <<<"$group_astar")
  t_astar=$(field twenty_searches_mean_us <<<"$group_astar")
  t_auto=$(field twenty_searches_mean_us <<<"$group_auto")
  g_auto=$(field group_mean_us <<<"$group_auto")
  cached=$(field cached_field_group_mean_us <<<"$group_auto")
  method=$([[ $(field flow_field <<<"$group_auto") == 1 ]] && echo field || echo spliced)
  ratio() { awk -v a="$1" -v b="$2" 'BEGIN {printf "%.2f", a / b}'; }
  echo "| $m | $(field field_mean_us <<<"$flow") | $(field search_mean_us <<<"$flow") | $(field field_over_search <<<"$flow") | $g; $g_auto ($method) | $cached | $t_astar | $t_auto | $(ratio "$g" "$t_astar") | $(ratio "$g_auto" "$t_auto") | $(ratio "$cached" "$t_auto") |"
done
