#!/usr/bin/env bash
# Instructions each engine spends in FindPath on a fixed set of queries,
# counted by valgrind's callgrind (only inside FindPath: loading the map and
# building its structures are left out), for one or two gridstar-bench
# binaries. Instruction counts do not depend on the machine's load, so two
# builds compare to a fraction of a percent: this is how a refactoring shows
# it kept the engines' speed (NEW/OLD per engine; 1.000 = the same count).
#
#   tests/bench/callgrind_engines.sh BENCH [OLD_BENCH] [MAP] [ALGOS] [EVERY]
# Defaults: ../shared/movingai/dao/den520d.map, "jps jps+ astar subgoal hpa",
# every 10th query of the map's scenario.
set -euo pipefail
cd "$(dirname "$0")/../.."
new=${1:?usage: callgrind_engines.sh BENCH [OLD_BENCH] [MAP] [ALGOS] [EVERY]}
old=${2:-}
map=${3:-../shared/movingai/dao/den520d.map}
algos=${4:-jps jps+ astar subgoal hpa}
every=${5:-10}
command -v valgrind >/dev/null || { echo "valgrind is not installed" >&2; exit 2; }
[[ -f $map && -f $map.scen ]] || { echo "no $map or $map.scen" >&2; exit 2; }
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
# The scenario's version line and every EVERY-th query.
awk -v n="$every" 'NR == 1 || (NR - 2) % n == 0' "$map.scen" >"$tmp/queries.scen"
queries=$(($(wc -l <"$tmp/queries.scen") - 1))
# The four-argument FindPath, which gridstar-bench's query loop calls.
symbol=_ZN8gridstar8FindPathERKNS_7GridMapERKNS_9PathQueryERNS_13SearchContextEPNS_10PathResultE
count() {  # count BENCH ALGO -> instructions inside FindPath
  valgrind --tool=callgrind --callgrind-out-file="$tmp/out" --demangle=no \
    --collect-atstart=no --toggle-collect="$symbol" \
    "$1" --map "$map" --scen "$tmp/queries.scen" --algo "$2" >/dev/null 2>"$tmp/log" ||
    { cat "$tmp/log" >&2; exit 1; }
  awk '/^(summary|totals):/ {print $2; exit}' "$tmp/out"
}
echo "map=$map queries=$queries (every ${every}th of its scenario)"
for a in $algos; do
  n=$(count "$new" "$a")
  if [[ -n $old ]]; then
    o=$(count "$old" "$a")
    awk -v a="$a" -v n="$n" -v o="$o" \
      'BEGIN {printf "%-8s new=%d old=%d new/old=%.4f\n", a, n, o, n / o}'
  else
    echo "$a instructions=$n"
  fi
done
