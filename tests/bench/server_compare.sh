#!/usr/bin/env bash
# The same queries through two gridstar-server builds (say, the commit
# before a change and after it), in turn, one worker each: for one map per
# shared family and each algorithm, `gridstar scen` (FindPath, one call in
# flight) against each server, their order alternating per round; a map's
# figure is the best qps of its rounds (the run least disturbed on a shared
# machine). Prints qps of both, NEW/OLD (above 1.00 = the new server is
# faster), mismatches of both, and the geometric mean per algorithm.
#   tests/bench/server_compare.sh OLD_BUILD NEW_BUILD [DATA_DIR] [ALGOS] [ROUNDS]
# A BUILD is a build directory holding server/gridstar-server and
# client/gridstar. Defaults: ../shared/movingai, "auto astar", 3.
set -euo pipefail
cd "$(dirname "$0")/../.."
old=${1:?usage: server_compare.sh OLD_BUILD NEW_BUILD [DATA_DIR] [ALGOS] [ROUNDS]}
new=${2:?usage: server_compare.sh OLD_BUILD NEW_BUILD [DATA_DIR] [ALGOS] [ROUNDS]}
data=${3:-../shared/movingai}
algos=${4:-auto astar}
rounds=${5:-3}
# GRIDSTAR_COMPARE_MAPS (space separated) replaces the default maps.
read -r -a maps <<<"${GRIDSTAR_COMPARE_MAPS:-bg512/AR0011SR da2/ht_chantry \
dao/den520d mazes/maze512-8-0 random/random512-10-0 rooms/8room_000 \
sc1/Aftershock cities/Berlin_0_256}"

preload=""
for m in "${maps[@]}"; do preload+="${preload:+,}$(basename "$m")=$data/$m.map"; done
old_file=$(mktemp -u)
new_file=$(mktemp -u)
"$old/server/gridstar-server" --host=127.0.0.1 --port=0 --metrics_port=0 \
  --workers=1 --preload="$preload" --port_file="$old_file" >/dev/null 2>&1 &
old_pid=$!
"$new/server/gridstar-server" --host=127.0.0.1 --port=0 --metrics_port=0 \
  --workers=1 --preload="$preload" --port_file="$new_file" >/dev/null 2>&1 &
new_pid=$!
trap 'kill $old_pid $new_pid 2>/dev/null || true; rm -f "$old_file" "$new_file"' EXIT
for _ in $(seq 1200); do [[ -s $old_file && -s $new_file ]] && break; sleep 0.1; done
old_port=$(cat "$old_file")
new_port=$(cat "$new_file")
qps() {  # BUILD PORT MAP ALGO -> "qps mismatches"
  "$1/client/gridstar" scen --server="127.0.0.1:$2" --map "$(basename "$3")" \
    --algo "$4" "$data/$3.map.scen" |
    sed -n 's/.*mismatches=\([0-9]*\).* qps=\([0-9.]*\).*/\2 \1/p'
}
printf '%-24s %-6s %9s %9s %8s %6s %6s\n' map algo old_qps new_qps new/old \
  old_mm new_mm
for algo in $algos; do
  logsum=0
  for m in "${maps[@]}"; do
    best_old=0; best_new=0; mm_old=0; mm_new=0
    for r in $(seq "$rounds"); do
      for side in $( ((r % 2)) && echo "old new" || echo "new old"); do
        if [[ $side == old ]]; then
          read -r q mm < <(qps "$old" "$old_port" "$m" "$algo")
          best_old=$(awk -v a="$best_old" -v b="$q" 'BEGIN{print (b > a ? b : a)}')
          mm_old=$mm
        else
          read -r q mm < <(qps "$new" "$new_port" "$m" "$algo")
          best_new=$(awk -v a="$best_new" -v b="$q" 'BEGIN{print (b > a ? b : a)}')
          mm_new=$mm
        fi
      done
    done
    ratio=$(awk -v a="$best_old" -v b="$best_new" 'BEGIN{printf "%.3f", b / a}')
    logsum=$(awk -v s="$logsum" -v r="$ratio" 'BEGIN{print s + log(r)}')
    printf '%-24s %-6s %9s %9s %8s %6s %6s\n' "$m" "$algo" "$best_old" \
      "$best_new" "$ratio" "$mm_old" "$mm_new"
  done
  awk -v s="$logsum" -v n="${#maps[@]}" -v a="$algo" \
    'BEGIN{printf "geometric mean new/old qps (%s): %.3f\n", a, exp(s / n)}'
done
