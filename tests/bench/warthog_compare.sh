#!/usr/bin/env bash
# gridstar's jps and jps+ side by side with Warthog's jps and jps2+
# (ShortestPathLab warthog-jps + warthog-core), built outside the repository
# from snapshots of both: the table of issue #13. Nothing of Warthog is kept
# in this repository; the script builds it in a temporary directory (or
# WARTHOG_BUILD, kept between runs) with -O3.
#
#   tests/bench/warthog_compare.sh GRIDSTAR_BENCH [DATA_DIR] [ROUNDS]
#
# Environment: WARTHOG_JPS and WARTHOG_CORE, each a source tree or a git
# directory (a bare snapshot, its HEAD is taken) of the two repositories;
# WARTHOG_BUILD, a directory to build in (default: a temporary one);
# WARTHOG_MAPS, the maps (default: the nine of the issue). Without both
# snapshots the script says so and exits 0 (skipped).
#
# Per map and round the four runs alternate in order (gridstar first on even
# rounds, Warthog first on odd ones); each figure is the lowest mean us per
# query over the rounds. gridstar-bench times the whole FindPath call
# (validation, component check, search, path cells); Warthog's own app times
# its search only (its `nanos` column), not the query's set-up or path
# extraction. Ratios below 1.00: gridstar faster.
set -euo pipefail
cd "$(dirname "$0")/../.."
bench=${1:?usage: warthog_compare.sh GRIDSTAR_BENCH [DATA_DIR] [ROUNDS]}
data=${2:-../shared/movingai}
rounds=${3:-2}
maps=${WARTHOG_MAPS:-dao/den520d dao/brc202d dao/ost003d sc1/Aftershock sc1/Enigma bg512/AR0011SR cities/Berlin_0_256 da2/ht_chantry rooms/8room_000}
[[ -x $bench ]] || { echo "no $bench" >&2; exit 2; }
[[ -d $data ]] || { echo "no Moving AI data at $data" >&2; exit 2; }
if [[ -z ${WARTHOG_JPS:-} || -z ${WARTHOG_CORE:-} || ! -d ${WARTHOG_JPS:-/nonexistent} ||
      ! -d ${WARTHOG_CORE:-/nonexistent} ]]; then
  echo "warthog_compare: skipped (set WARTHOG_JPS and WARTHOG_CORE to snapshots of"
  echo "  github.com/ShortestPathLab/warthog-jps and warthog-core)"
  exit 0
fi

tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
build=${WARTHOG_BUILD:-$tmp/warthog}
# Copies a source tree or a git directory's HEAD to $2.
unpack() {
  mkdir -p "$2"
  if [[ -f $1/HEAD && -d $1/objects ]]; then
    git --git-dir="$1" archive HEAD | tar x -C "$2"
  else
    cp -r "$1/." "$2"
  fi
}
warthog=$build/build/warthog-jps
if [[ ! -x $warthog ]]; then
  rm -rf "$build/src"
  unpack "$WARTHOG_JPS" "$build/src"
  rm -rf "$build/src/extern/warthog-core"
  unpack "$WARTHOG_CORE" "$build/src/extern/warthog-core"
  echo "building Warthog in $build (-O3) ..." >&2
  cmake -S "$build/src" -B "$build/build" -DCMAKE_BUILD_TYPE=Release \
    -DCMAKE_CXX_FLAGS=-O3 -DFETCHCONTENT_FULLY_DISCONNECTED=ON >"$tmp/cmake.log" 2>&1 ||
    { cat "$tmp/cmake.log" >&2; exit 1; }
  cmake --build "$build/build" -j "$(nproc)" >"$tmp/build.log" 2>&1 ||
    { tail -30 "$tmp/build.log" >&2; exit 1; }
fi

ours() {  # ours MAP ALGO -> mean us
  "$bench" --map "$data/$1.map" --scen "$data/$1.map.scen" --algo "$2" | tail -1 |
    sed -E 's/.*mean_us=([0-9.]+).*/\1/'
}
theirs() {  # theirs MAP ALGO -> mean us of the nanos column
  "$warthog" --alg "$2" --map "$data/$1.map" --scen "$data/$1.map.scen" 2>/dev/null |
    awk -F'\t' 'NR > 1 && $8 != "" { n++; s += $8 } END { printf "%.3f\n", s / n / 1000 }'
}
best() {  # best FILE KEY -> the lowest value of KEY's lines
  awk -v k="$2" '$1 == k { if (m == "" || $2 < m) m = $2 } END { print m }' "$1"
}
for ((r = 0; r < rounds; r++)); do
  for m in $maps; do
    if ((r % 2 == 0)); then
      echo "$m/g_jps $(ours "$m" jps)" >>"$tmp/t"
      echo "$m/w_jps $(theirs "$m" jps)" >>"$tmp/t"
      echo "$m/g_jpsp $(ours "$m" jps+)" >>"$tmp/t"
      echo "$m/w_jps2p $(theirs "$m" jps2+)" >>"$tmp/t"
    else
      echo "$m/w_jps $(theirs "$m" jps)" >>"$tmp/t"
      echo "$m/g_jps $(ours "$m" jps)" >>"$tmp/t"
      echo "$m/w_jps2p $(theirs "$m" jps2+)" >>"$tmp/t"
      echo "$m/g_jpsp $(ours "$m" jps+)" >>"$tmp/t"
    fi
  done
done
echo "mean us per query, best of $rounds rounds (gridstar: whole FindPath; Warthog: search only)"
printf '%-22s %10s %10s %7s %10s %10s %7s\n' map "g jps" "w jps" ratio "g jps+" "w jps2+" ratio
for m in $maps; do
  gj=$(best "$tmp/t" "$m/g_jps"); wj=$(best "$tmp/t" "$m/w_jps")
  gp=$(best "$tmp/t" "$m/g_jpsp"); wp=$(best "$tmp/t" "$m/w_jps2p")
  echo "$m $gj $wj $gp $wp"
done | awk '{
  r1 = $2 / $3; r2 = $4 / $5; l1 += log(r1); l2 += log(r2); n++
  if (r1 > 1) s1++; if (r2 > 1) s2++
  printf "%-22s %10.2f %10.2f %7.3f %10.2f %10.2f %7.3f\n", $1, $2, $3, r1, $4, $5, r2
} END {
  printf "geometric mean of the ratios: jps %.3f, jps+ vs jps2+ %.3f\n", exp(l1 / n), exp(l2 / n)
  printf "maps where gridstar is slower: jps %d of %d, jps+ %d of %d\n", s1, n, s2, n
}'
