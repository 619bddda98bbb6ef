#!/usr/bin/env bash
# gridstar in the Grid-based Path Planning Competition's own harnesses, beside
# each startkit's baseline entry built the same way (issue #35, part 3).
# Nothing of the startkits is kept in this repository: the script copies
# snapshots of them into a build directory and builds there.
#
#   tests/bench/gppc_compare.sh [DATA_DIR] [ROUNDS]
#
# Environment: GPPC_CLASSIC and GPPC_DYNAMIC, each a source tree or a git
# directory (its HEAD is taken) of github.com/gppc-dev/startkit-classic and
# startkit-dynamic (without both the script says so and exits 0: skipped);
# GPPC_BUILD, a directory to build in (default: a temporary one);
# GPPC_MAPS, the Moving AI maps of DATA_DIR run on the classic track besides
# the startkit's own (default: the ten of issue #35); GPPC_QUERIES, queries
# taken from each such scenario, evenly spread over it (default 400; the
# startkits' own scenarios run whole); GPPC_ENGINES, gridstar's exact engines
# to run (default: auto jps+ jps subgoal astar).
#
# gridstar is built from this checkout with position-independent code
# (-DGRIDSTAR_GPPC_CLASSIC_DIR, tests/CMakeLists.txt): the classic track's
# `run` is the startkit's main.cpp, ScenarioLoader.cpp and Timer.cpp with
# tests/bench/gppc/classic_entry.cc in place of its Entry.cpp; the dynamic
# track's is the startkit's gppc/ sources linked to lib/libGPPCentry.so,
# gridstar's (tests/bench/gppc/dynamic_entry.cc) or the baseline's (the
# startkit's Entry.cpp), each built with -O3.
#
# Per map: `run -check` (the harness's own validation: classic prints valid
# or invalid-N per query, dynamic a final state per query; the lengths in
# result.csv against the scenario's optimal ones, within 1e-4), then `run
# -run` ROUNDS times, alternating gridstar and the baseline, each figure the
# lowest over the rounds: mean time per query (the harness's time_cost,
# every GetPath call of the query), and on the dynamic track the total of
# patches (gppc_map_change) and queries, and the resident memory the
# harness records (GPPC_MEMORY_TRACK, pmap) after the run.
set -euo pipefail
cd "$(dirname "$0")/../.."
root=$PWD
data=$(cd "${1:-../shared/movingai}" && pwd)
rounds=${2:-2}
maps=${GPPC_MAPS:-bg512/AR0011SR da2/ht_chantry dao/den520d cities/Berlin_0_1024 sc1/Aftershock dao/brc202d rooms/8room_000 sc1/Enigma mazes/maze512-1-0 random/random512-30-0}
queries=${GPPC_QUERIES:-400}
engines=${GPPC_ENGINES:-auto jps+ jps subgoal astar}
if [[ -z ${GPPC_CLASSIC:-} || -z ${GPPC_DYNAMIC:-} || ! -d ${GPPC_CLASSIC:-/nonexistent} ||
      ! -d ${GPPC_DYNAMIC:-/nonexistent} ]]; then
  echo "gppc_compare: skipped (set GPPC_CLASSIC and GPPC_DYNAMIC to snapshots of"
  echo "  github.com/gppc-dev/startkit-classic and startkit-dynamic)"
  exit 0
fi

tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
build=${GPPC_BUILD:-$tmp/gppc}
mkdir -p "$build"
build=$(cd "$build" && pwd)
# Copies a source tree or a git directory's HEAD to $2 (afresh).
unpack() {
  rm -rf "$2"
  mkdir -p "$2"
  if [[ -f $1/HEAD && -d $1/objects ]]; then
    git --git-dir="$1" archive HEAD | tar x -C "$2"
  else
    cp -r "$1/." "$2"
  fi
}
log=$build/build.log
: >"$log"
classic=$build/classic dynamic=$build/dynamic
unpack "$GPPC_CLASSIC" "$classic"
unpack "$GPPC_DYNAMIC" "$dynamic"

echo "building gridstar's entries (position-independent, -O3) in $build/gridstar ..." >&2
cmake -S "$root" -B "$build/gridstar" -G Ninja -DCMAKE_BUILD_TYPE=Release \
  -DCMAKE_POSITION_INDEPENDENT_CODE=ON -DGRIDSTAR_BUILD_TESTS=OFF \
  -DGRIDSTAR_GPPC_CLASSIC_DIR="$classic" >>"$log" 2>&1 || { tail -30 "$log" >&2; exit 1; }
cmake --build "$build/gridstar" --target GPPCentry gppc-classic-run >>"$log" 2>&1 ||
  { tail -30 "$log" >&2; exit 1; }
echo "building the startkits' baselines and the dynamic harness (-O3) ..." >&2
make -C "$classic" >>"$log" 2>&1 || { tail -30 "$log" >&2; exit 1; }
mkdir -p "$build/dyn-gridstar/lib" "$build/dyn-baseline/lib"
cp "$build/gridstar/tests/libGPPCentry.so" "$build/dyn-gridstar/lib/"
g++ -O3 -DNDEBUG -std=c++17 -shared -fPIC -I"$dynamic" "$dynamic/Entry.cpp" \
  -o "$build/dyn-baseline/lib/libGPPCentry.so" >>"$log" 2>&1 || { tail -30 "$log" >&2; exit 1; }
for who in gridstar baseline; do
  lib=$build/dyn-$who/lib
  g++ -O3 -DNDEBUG -std=c++17 -I"$dynamic/gppc" -I"$dynamic" "$dynamic"/gppc/{main,MapLoader,ScenarioLoader,Timer}.cpp \
    "$dynamic/gppc/validator/ValidateSerialize.cpp" -L"$lib" -lGPPCentry -Wl,-rpath,"$lib" \
    -o "$build/dyn-$who/run" >>"$log" 2>&1 || { tail -30 "$log" >&2; exit 1; }
done
classic_gridstar=$build/gridstar/tests/gppc-classic-run
classic_baseline=$classic/run

# Scenarios of the classic track: the startkit's own whole, and GPPC_QUERIES
# queries of each Moving AI map's (every k-th line, so every bucket).
mkdir -p "$build/scen"
declare -a classic_maps=()
for m in "$classic"/data/*.map; do classic_maps+=("$m|$m.scen"); done
for m in $maps; do
  map=$data/$m.map scen=$data/$m.map.scen
  [[ -f $map && -f $scen ]] || { echo "no $map or $scen" >&2; exit 2; }
  out=$build/scen/$(basename "$m").map.scen
  total=$(($(wc -l <"$scen") - 1))
  step=$(( total > queries ? total / queries : 1 ))
  { head -1 "$scen"; tail -n +2 "$scen" | awk -v s="$step" -v q="$queries" \
      '(NR - 1) % s == 0 && n < q { print; n++ }'; } >"$out"
  classic_maps+=("$map|$out")
done

# Runs "$@" in a fresh working directory $work (the harnesses write there).
work=$build/work
in_work() { rm -rf "$work"; mkdir -p "$work/index_data"; (cd "$work" && "$@"); }
# Mean time_cost (ns) of result.csv's column $1, in microseconds.
mean_us() { awk -F, -v c="$1" 'NR > 1 { s += $c; n++ } END { printf "%.2f", n ? s / n / 1000 : 0 }' "$work/result.csv"; }
# Queries whose length (column $1) differs from the optimal one (column $2):
# by more than 1e-4 of it, or, where the scenario gives it to two decimals
# (bg512's do), by more than that rounding.
wrong_lengths() {
  awk -F, -v l="$1" -v r="$2" 'NR > 1 {
    d = $l - $r; if (d < 0) d = -d; a = $r; if (a < 0) a = -a;
    tol = 1e-4 * (1 + a); c = a * 100 - int(a * 100 + 0.5); if (c < 0) c = -c;
    if (c < 1e-6 && tol < 0.005001) tol = 0.005001;
    if (d > tol) n++ } END { print n + 0 }' "$work/result.csv"
}
best() { printf '%s\n' "$@" | sort -g | head -1; }

echo
echo "## Classic track (startkit-classic harness; us per query, lowest of $rounds rounds)"
echo
printf '| map | queries |'; for e in $engines; do printf ' gridstar %s |' "$e"; done
printf ' baseline | auto / baseline | auto setup (ms) | gridstar invalid | gridstar not optimal | baseline invalid | baseline not optimal |\n'
printf '|---|---:|'; for e in $engines; do printf -- '---:|'; done; printf -- '---:|---:|---:|---:|---:|---:|---:|\n'
for pair in "${classic_maps[@]}"; do
  map=${pair%%|*} scen=${pair##*|}
  declare -A invalid=([gridstar]=0 [baseline]=0) wrong=([gridstar]=0 [baseline]=0)
  declare -A times=()
  for e in $engines baseline; do
    who=gridstar
    [[ $e == baseline ]] && who=baseline
    if [[ $e == baseline ]]; then run=$classic_baseline; else run=$classic_gridstar; fi
    in_work env GRIDSTAR_GPPC_ALGORITHM="${e/baseline/auto}" "$run" -check "$map" "$scen" >"$build/check.out" 2>"$build/check.err"
    [[ $e == auto ]] && setup=$(sed -n 's/.*set up in \([0-9.]*\) ms.*/\1/p' "$build/check.err")
    invalid[$who]=$((invalid[$who] + $(grep -c ' invalid' "$build/check.out" || true)))
    wrong[$who]=$((wrong[$who] + $(wrong_lengths 5 6)))
  done
  n=$(($(wc -l <"$scen") - 1))
  for ((r = 0; r < rounds; r++)); do
    order="$engines baseline"
    (( r % 2 == 1 )) && order="baseline $engines"
    for e in $order; do
      if [[ $e == baseline ]]; then run=$classic_baseline; else run=$classic_gridstar; fi
      in_work env GRIDSTAR_GPPC_ALGORITHM="${e/baseline/auto}" "$run" -run "$map" "$scen" >/dev/null 2>&1
      times[$e]="${times[$e]:-} $(mean_us 7)"
    done
  done
  printf '| %s | %d |' "$(basename "$map" .map)" "$n"
  for e in $engines; do printf ' %s |' "$(best ${times[$e]})"; done
  base=$(best ${times[baseline]}) auto=$(best ${times[auto]:-0})
  printf ' %s | %s | %s | %d | %d |' "$base" "$(awk -v a="$auto" -v b="$base" 'BEGIN { printf "%.3f", (b > 0 ? a / b : 0) }')" \
    "${setup:-}" "${invalid[gridstar]}" "${wrong[gridstar]}"
  printf ' %d | %d |\n' "${invalid[baseline]}" "${wrong[baseline]}"
  unset times invalid wrong
done

echo
echo "## Dynamic track (startkit-dynamic harness; totals of patches and queries, ms; lowest of $rounds rounds)"
echo
printf '| scenario | queries | gridstar patches | gridstar total | baseline total | gridstar / baseline | gridstar RSS | baseline RSS | gridstar invalid | gridstar not optimal | baseline invalid | baseline not optimal |\n'
printf '|---|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|\n'
dyn_engine=${GPPC_DYNAMIC_ENGINE:-jps}
for scen in "$dynamic"/data/*.scen; do
  declare -A invalid=() wrong=()
  for who in gridstar baseline; do
    in_work env GRIDSTAR_GPPC_ALGORITHM="$dyn_engine" "$build/dyn-$who/run" -check "$scen" >"$build/check.out" 2>/dev/null
    invalid[$who]=$(awk '$1 == "final" && $2 != "complete" && $2 != "empty-path" { n++ } END { print n + 0 }' "$build/check.out")
    wrong[$who]=$(wrong_lengths 6 7)
  done
  declare -A total=() patches=() rss=()
  for ((r = 0; r < rounds; r++)); do
    order="gridstar baseline"
    (( r % 2 == 1 )) && order="baseline gridstar"
    for who in $order; do
      in_work env GRIDSTAR_GPPC_ALGORITHM="$dyn_engine" GPPC_MEMORY_TRACK=1 "$build/dyn-$who/run" -run "$scen" >/dev/null 2>&1
      total[$who]="${total[$who]:-} $(awk -F, 'NR > 1 { s += $8 } END { printf "%.1f", s / 1e6 }' "$work/result.csv")"
      patches[$who]="${patches[$who]:-} $(awk -F, 'NR > 1 { s += $4 } END { printf "%.1f", s / 1e6 }' "$work/result.csv")"
      rss[$who]=$(awk '$1 == "total" { r = $4 } END { printf "%.1f MB", r / 1024 }' "$work/run.info")
    done
  done
  n=$(($(grep -c '^Q ' "$scen")))
  g=$(best ${total[gridstar]}) b=$(best ${total[baseline]})
  printf '| %s | %d | %s | %s | %s | %s | %s | %s | %d | %d | %d | %d |\n' "$(basename "$scen" .scen)" "$n" \
    "$(best ${patches[gridstar]})" "$g" "$b" "$(awk -v a="$g" -v b="$b" 'BEGIN { printf "%.3f", (b > 0 ? a / b : 0) }')" \
    "${rss[gridstar]}" "${rss[baseline]}" "${invalid[gridstar]}" "${wrong[gridstar]}" \
    "${invalid[baseline]}" "${wrong[baseline]}"
  unset total patches rss invalid wrong
done
echo
echo "(gridstar's dynamic entry ran $dyn_engine; GPPC_DYNAMIC_ENGINE names another.)"
