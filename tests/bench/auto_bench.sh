#!/usr/bin/env bash
# Is `auto` (the engine measured fastest on each map at load, auto_choice.h)
# at least as fast as the best fixed engine? For every map of the shared
# families: the whole scenario with --algo auto and with each exact engine
# auto may choose (jps+, jps, subgoal, bidirectional, astar; every map
# carries the subgoal graph here), in turn, the order
# rotating per round; each figure is the lowest mean us per query over the
# rounds. Then groups: FindGroupPaths with method auto against splice and
# flow_field (200 units, the 5 longest goals; --algo auto), same rounds.
# auto's own measurement (96 random queries, a few ms to a few hundred) is
# not in its figure, as a server does it once at registration. SKIP_GROUPS=1
# leaves the groups out, SKIP_QUERIES=1 the queries.
#
#   tests/bench/auto_bench.sh GRIDSTAR_BENCH [DATA_DIR] [ROUNDS] [FAMILIES]
# Defaults: ../shared/movingai, 2 rounds, every family.
set -euo pipefail
cd "$(dirname "$0")/../.."
bench=${1:?usage: auto_bench.sh GRIDSTAR_BENCH [DATA_DIR] [ROUNDS] [FAMILIES]}
data=${2:-../shared/movingai}
rounds=${3:-2}
families=${4:-bg512 cities da2 dao mazes random rooms sc1}
[[ -x $bench ]] || { echo "no $bench" >&2; exit 2; }
[[ -d $data ]] || { echo "no Moving AI data at $data" >&2; exit 2; }
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
algos=(auto jps+ jps subgoal bidirectional astar)
methods=(auto splice flow_field)

field() { sed -E "s/(^|.* )$1=([^ ]+).*/\2/"; }
for ((r = 0; r < rounds; r++)); do
  for f in $families; do
    for scen in "$data/$f"/*.map.scen; do
      map=${scen%.scen}
      name=$f/$(basename "$map" .map)
      n=${#algos[@]}
      [[ -n ${SKIP_QUERIES:-} ]] && n=0
      for ((k = 0; k < n; k++)); do
        a=${algos[(k + r) % n]}
        out=$("$bench" --map "$map" --scen "$scen" --algo "$a" --subgoal_graph 1)
        echo "$name $a $(tail -1 <<<"$out" | field mean_us) $(tail -1 <<<"$out" | field mismatches)" >>"$tmp/q"
        if [[ $a == auto ]]; then
          echo "$name $(grep '^auto_choice=' <<<"$out" | field auto_choice)" >>"$tmp/choice"
        fi
      done
      [[ -n ${SKIP_GROUPS:-} ]] && continue
      n=${#methods[@]}
      for ((k = 0; k < n; k++)); do
        m=${methods[(k + r) % n]}
        out=$("$bench" --map "$map" --scen "$scen" --algo auto --group 200 --group_method "$m")
        echo "$name $m $(tail -1 <<<"$out" | field group_mean_us) $(tail -1 <<<"$out" | field flow_field)" >>"$tmp/g"
      done
    done
  done
done

if [[ -z ${SKIP_QUERIES:-} ]]; then
echo "queries: mean us per query, best of $rounds rounds (command: $0 $*)"
printf '%-24s %-7s %9s %9s %9s %9s %9s %9s %7s %s\n' map chose auto jps+ jps subgoal bidir astar \
  "/best" mismatches
awk -v algos="${algos[*]}" '
  FNR == NR { chose[$1] = $2; next }
  { k = $1 SUBSEP $2; if (!(k in best) || $3 < best[k]) best[k] = $3; mis[$1] += $4
    if (!($1 in seen)) { seen[$1] = 1; order[++n] = $1 } }
  END {
    split(algos, a, " ")
    for (i = 1; i <= n; i++) {
      m = order[i]; fixed = 1e300
      for (j = 2; j <= 6; j++) if (best[m, a[j]] < fixed) fixed = best[m, a[j]]
      r = best[m, "auto"] / fixed; lr += log(r); if (r > worst) worst = r
      printf "%-24s %-7s %9.1f %9.1f %9.1f %9.1f %9.1f %9.1f %7.3f %d\n", m, chose[m],
        best[m, "auto"], best[m, "jps+"], best[m, "jps"], best[m, "subgoal"],
        best[m, "bidirectional"],
        best[m, "astar"], r, mis[m]
    }
    printf "auto / best fixed engine: geometric mean %.3f, worst %.3f over %d maps\n",
      exp(lr / n), worst, n
  }' "$tmp/choice" "$tmp/q"
fi

[[ -n ${SKIP_GROUPS:-} ]] && exit 0
echo
echo "groups of 200 units (5 longest goals): mean us per group, best of $rounds rounds"
printf '%-24s %9s %9s %9s %6s %7s\n' map auto splice flow field "/best"
awk '
  { k = $1 SUBSEP $2; if (!(k in best) || $3 < best[k]) best[k] = $3
    if ($2 == "auto") used[$1] = $4
    if (!($1 in seen)) { seen[$1] = 1; order[++n] = $1 } }
  END {
    for (i = 1; i <= n; i++) {
      m = order[i]; fixed = best[m, "splice"]
      if (best[m, "flow_field"] < fixed) fixed = best[m, "flow_field"]
      r = best[m, "auto"] / fixed; lr += log(r); if (r > worst) worst = r
      printf "%-24s %9.0f %9.0f %9.0f %6s %7.3f\n", m, best[m, "auto"], best[m, "splice"],
        best[m, "flow_field"], used[m] ? "yes" : "no", r
    }
    printf "group auto / best fixed method: geometric mean %.3f, worst %.3f over %d maps\n",
      exp(lr / n), worst, n
  }' "$tmp/g"
