#!/usr/bin/env bash
# gridstar beside SGCH-JPD (subgoal graphs + contraction hierarchies + jump
# point descriptors; Harabor, Uras, Stuckey & Koenig, IJCAI 2019), the GPPC
# 2023 classic-track entry of gppc-dev/algorithm-archive
# (classic/2023/2019-SGCH-JPD), built outside the repository with its own
# Makefile (-O3) and run through its own harness. Nothing of it is kept here.
#
#   tests/bench/sgch_compare.sh GRIDSTAR_BENCH [DATA_DIR] [ROUNDS]
#
# Environment:
#   GPPC_ARCHIVE   a snapshot of github.com/gppc-dev/algorithm-archive (a
#                  source tree or a git directory, its HEAD taken); without
#                  one the script says so and exits 0 (skipped)
#   SGCH_BUILD     a directory to build in, kept between runs (default: a
#                  temporary one)
#   SGCH_MAPS      maps relative to DATA_DIR without .map (default: every
#                  .map under DATA_DIR that has a .map.scen)
#   SGCH_ENGINES   gridstar's engines beside it (default: auto and every
#                  exact engine but the two textbook yardsticks, dijkstra and
#                  baseline, which take minutes a map: add them here)
#   SGCH_PRE_SECONDS  the bound on SGCH-JPD's preprocessing of each shared
#                  map (default 1200 s; a map it does not finish within is
#                  reported so, its gridstar figures alone, out of the means)
#   SGCH_BIG_SECONDS  the bound on SGCH-JPD's preprocessing of the 8192 x 8192
#                  world (tests/bench/make_world.py, built at run time;
#                  default 900 s; 0 leaves the world out)
#   BASELINE_BENCH an earlier gridstar-bench (say, built at the commit before
#                  the contraction tier): its `auto` runs as one more engine,
#                  auto_before, in the same alternation, with BASELINE_ARGS
#                  (default "--subgoal_graph 1"), and auto's figure over it is
#                  printed per map (above 1.05: more than 5% slower)
#
# Per map: SGCH-JPD's `./run -pre MAP none` (timed, peak memory, index bytes)
# once, then per round `./run -run MAP SCEN` (the mean of its result.csv's
# per-query time_cost, the harness's own timer around GetPath) and
# `gridstar-bench --algo E` for each engine (the whole FindPath call: checks,
# search, path cells; auto with the subgoal graph and the contraction tier
# built, so that it races every exact engine), alternated (SGCH-JPD first on even rounds, last on odd
# ones); each figure is the best of the rounds. Answers: SGCH-JPD's lengths
# against the scenario's (0.01 allowed: bg512's lengths have two decimals),
# its paths checked once a map by its harness's -check (the competition's
# validator) and basic check; gridstar-bench's
# mismatches against the scenario. Ratios below 1.00: gridstar faster.
set -euo pipefail
cd "$(dirname "$0")/../.."
root=$PWD
bench=$(realpath "${1:?usage: sgch_compare.sh GRIDSTAR_BENCH [DATA_DIR] [ROUNDS]}")
data=$(realpath "${2:-../shared/movingai}")
rounds=${3:-2}
engines=${SGCH_ENGINES:-auto contraction subgoal jps+ jps astar alt bidirectional}
baseline=${BASELINE_BENCH:-}
if [[ -n $baseline ]]; then
  baseline=$(realpath "$baseline")
  [[ -x $baseline ]] || { echo "no $baseline" >&2; exit 2; }
  engines="$engines auto_before"
fi
big_seconds=${SGCH_BIG_SECONDS:-900}
pre_seconds=${SGCH_PRE_SECONDS:-1200}
[[ -x $bench ]] || { echo "no $bench" >&2; exit 2; }
[[ -d $data ]] || { echo "no Moving AI data at $data" >&2; exit 2; }
if [[ -z ${GPPC_ARCHIVE:-} || ! -d ${GPPC_ARCHIVE:-/nonexistent} ]]; then
  echo "sgch_compare: skipped (set GPPC_ARCHIVE to a snapshot of"
  echo "  github.com/gppc-dev/algorithm-archive)"
  exit 0
fi
if [[ -z ${SGCH_MAPS:-} ]]; then
  SGCH_MAPS=$(cd "$data" && find . -name '*.map' | sed -e 's|^\./||' -e 's|\.map$||' |
    while read -r m; do [[ -f $m.map.scen ]] && echo "$m"; done | sort)
fi
maps=$SGCH_MAPS

tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
build=${SGCH_BUILD:-$tmp/sgch}
entry=classic/2023/2019-SGCH-JPD
sgch=$build/src/run
if [[ ! -x $sgch ]]; then
  rm -rf "$build/src"
  mkdir -p "$build/src"
  if [[ -f $GPPC_ARCHIVE/HEAD && -d $GPPC_ARCHIVE/objects ]]; then
    git --git-dir="$GPPC_ARCHIVE" archive HEAD "$entry" | tar x -C "$build/src" --strip-components=3
  else
    cp -r "$GPPC_ARCHIVE/$entry/." "$build/src"
  fi
  echo "building SGCH-JPD in $build/src with its Makefile ..." >&2
  make -C "$build/src" >"$tmp/build.log" 2>&1 || { tail -30 "$tmp/build.log" >&2; exit 1; }
fi
measure=$root/tests/bench/measure_run.py

# sgch_pre NAME MAP [TIMEOUT] -> the measure line; the index in $tmp/w/NAME.
sgch_pre() {
  local wd=$tmp/w/$1
  rm -rf "$wd"
  mkdir -p "$wd/index_data"
  python3 "$measure" --cwd "$wd" --watch "$wd/index_data" ${3:+--timeout "$3"} -- \
    "$sgch" -pre "$2" none
}
# sgch_check NAME MAP SCEN -> the answers its harness's -check calls invalid
# (its validator, one line a query), and the complaints of its basic check.
sgch_check() {
  local wd=$tmp/w/$1
  (cd "$wd" && "$sgch" -check "$2" "$3") || { echo "SGCH-JPD -check failed on $1" >&2; exit 1; }
  echo $(($(grep -c ' invalid-' "$wd/run.stdout" || true) + $(grep -c '^Scenario ' "$wd/run.stderr" || true)))
}
# sgch_run NAME MAP SCEN -> "mean_us invalid not_optimal queries"
sgch_run() {
  local wd=$tmp/w/$1
  rm -f "$wd/result.csv"
  (cd "$wd" && "$sgch" -run "$2" "$3") || { echo "SGCH-JPD -run failed on $1" >&2; exit 1; }
  awk -F, -v invalid="$(cat "$wd/invalid")" 'NR > 1 {
    n++; s += $7
    d = $5 - $6; if (d < 0) d = -d
    if ($6 > 0 && d > 0.01) bad++
  } END { printf "%.3f %d %d %d\n", s / n / 1000, invalid, bad, n }' "$wd/result.csv"
}
# ours MAP SCEN ALGO -> "mean_us mismatches"
ours() {
  local extra=() bin=$bench algo=$3
  [[ $3 == auto ]] && extra=(--subgoal_graph 1 --contraction 1)
  if [[ $3 == auto_before ]]; then
    bin=$baseline algo=auto
    read -r -a extra <<<"${BASELINE_ARGS:---subgoal_graph 1}"
  fi
  "$bin" --map "$1" --scen "$2" --algo "$algo" "${extra[@]}" | tail -1 |
    sed -E 's/.*mismatches=([0-9]+) mean_us=([0-9.]+).*/\2 \1/'
}

: >"$tmp/t"
finished=""
for m in $maps; do
  name=${m//\//_}
  pre=$(sgch_pre "$name" "$data/$m.map" "$pre_seconds")
  echo "$m $pre" >>"$tmp/pre"
  if [[ $pre == status=done* ]]; then
    finished="$finished $m"
    sgch_check "$name" "$data/$m.map" "$data/$m.map.scen" >"$tmp/w/$name/invalid"
  fi
done
for ((r = 0; r < rounds; r++)); do
  for m in $maps; do
    name=${m//\//_}
    done_pre=0
    [[ " $finished " == *" $m "* ]] && done_pre=1
    if ((r % 2 == 0 && done_pre)); then
      echo "$m sgch $(sgch_run "$name" "$data/$m.map" "$data/$m.map.scen")" >>"$tmp/t"
    fi
    for e in $engines; do
      got=$(ours "$data/$m.map" "$data/$m.map.scen" "$e")
      # A run that died prints no figures: stop, rather than count it as 0 us.
      [[ $got =~ ^[0-9.]+\ [0-9]+$ ]] || { echo "gridstar-bench --algo $e failed on $m" >&2; exit 1; }
      echo "$m $e $got" >>"$tmp/t"
    done
    if ((r % 2 == 1 && done_pre)); then
      echo "$m sgch $(sgch_run "$name" "$data/$m.map" "$data/$m.map.scen")" >>"$tmp/t"
    fi
  done
done

echo "gridstar beside SGCH-JPD: mean us per query, best of $rounds rounds; ratios gridstar / SGCH-JPD"
echo "(SGCH-JPD: its harness's time_cost around GetPath; gridstar: gridstar-bench's whole FindPath)"
# best KEY1 KEY2 -> the line of the lowest mean (fields after the two keys).
awk -v engines="$engines" '
  { k = $1 " " $2
    if (!(k in best) || $3 < best[k]) best[k] = $3
    if ($2 == "sgch") { inv[$1] += $4; bad[$1] += $5; q[$1] = $6 }
    else if ($4 > 0) mis[$1 " " $2] += $4
    if (!($1 in seen)) { seen[$1] = 1; order[++nm] = $1 } }
  END {
    ne = split(engines, e, " ")
    printf "%-24s %9s", "map", "SGCH us"
    for (i = 1; i <= ne; i++) printf " %9s", e[i]
    printf "  %s\n", "SGCH-JPD answers"
    for (j = 1; j <= nm; j++) {
      m = order[j]
      if (!((m " sgch") in best)) {
        printf "%-24s %9s  (SGCH-JPD did not finish preprocessing: see below; left out of the means)\n", m, "-"
        continue
      }
      s = best[m " sgch"]; ns++
      printf "%-24s %9.2f", m, s
      for (i = 1; i <= ne; i++) {
        r = best[m " " e[i]] / s
        printf " %9.3f", r
        lg[i] += log(r); if (r > 1) slower[i]++
        if (r > worst[i]) { worst[i] = r; worst_map[i] = m }
      }
      printf "  %d queries, %d invalid, %d not optimal\n", q[m], inv[m], bad[m]
    }
    printf "%-24s %9s", "geometric mean", ""
    for (i = 1; i <= ne; i++) printf " %9.3f", exp(lg[i] / ns)
    printf "\n"
    for (i = 1; i <= ne; i++) {
      printf "%s: slower than SGCH-JPD on %d of %d maps (worst %.3f, %s)\n", e[i], slower[i] + 0, ns, worst[i], worst_map[i]
    }
    for (k in mis) printf "gridstar %s: %d mismatches against the scenario\n", k, mis[k]
  }' "$tmp/t"
echo
echo "gridstar mean us (best of rounds):"
awk '$2 != "sgch" { k = $1 " " $2; if (!(k in b) || $3 < b[k]) b[k] = $3 } END { for (k in b) print k, b[k] }' "$tmp/t" | sort
if [[ -n $baseline ]]; then
  echo
  echo "auto / auto_before ($baseline ${BASELINE_ARGS:---subgoal_graph 1}), best of rounds each:"
  awk '$2 == "auto" || $2 == "auto_before" { k = $1 " " $2; if (!(k in b) || $3 < b[k]) b[k] = $3
         if (!($1 in seen)) { seen[$1] = 1; order[++n] = $1 } }
       END { for (j = 1; j <= n; j++) { m = order[j]; r = b[m " auto"] / b[m " auto_before"]
               printf "%-24s %9.2f us / %9.2f us = %.3f\n", m, b[m " auto"], b[m " auto_before"], r
               if (r > worst) { worst = r; wm = m }; if (r > 1.05) over++; lg += log(r) }
             printf "geometric mean %.3f; largest %.3f (%s); %d maps more than 5%% slower\n", exp(lg / n), worst, wm, over + 0 }' "$tmp/t"
fi
echo
echo "SGCH-JPD preprocessing (./run -pre, once a map):"
cat "$tmp/pre"

if ((big_seconds > 0)); then
  echo
  echo "the 8192 x 8192 world (cities/Berlin_0_1024 tiled 8 x 8, tests/bench/make_world.py):"
  python3 tests/bench/make_world.py "$data/cities/Berlin_0_1024.map" "$tmp/world.pgm" \
    "$tmp/world.scen" 1000 >/dev/null
  # The harness reads Moving AI maps: the same world as one.
  python3 - "$tmp/world.pgm" "$tmp/world.map" <<'EOF'
import sys
data = open(sys.argv[1], "rb").read()
fields, at = [], 0
while len(fields) < 4:
    while data[at:at + 1].isspace():
        at += 1
    if data[at:at + 1] == b"#":
        at = data.index(b"\n", at)
        continue
    end = at
    while not data[end:end + 1].isspace():
        end += 1
    fields.append(data[at:end])
    at = end
at += 1
w, h = int(fields[1]), int(fields[2])
cells = data[at:at + w * h]
with open(sys.argv[2], "w") as out:
    out.write(f"type octile\nheight {h}\nwidth {w}\nmap\n")
    for y in range(h):
        out.write("".join("." if c else "@" for c in cells[y * w:(y + 1) * w]) + "\n")
EOF
  pre=$(sgch_pre world "$tmp/world.map" "$big_seconds")
  echo "SGCH-JPD -pre (bound ${big_seconds} s): $pre"
  if [[ $pre == status=done* ]]; then
    sgch_check world "$tmp/world.map" "$tmp/world.scen" >"$tmp/w/world/invalid"
    echo "SGCH-JPD -run: $(sgch_run world "$tmp/world.map" "$tmp/world.scen" |
      awk '{ printf "mean_us=%s invalid=%s queries=%s", $1, $2, $4 }')"
  else
    echo "SGCH-JPD did not finish preprocessing within ${big_seconds} s: no queries run"
  fi
  # The tier refuses the world (its subgoal graph has far more edge pairs at
  # shared corners than kMaxContractionEdgePairs); what it says is printed.
  # auto races the subgoal graph, jps+ and the rest.
  if refused=$("$bench" --map "$tmp/world.pgm" --scen "$tmp/world.scen" --algo contraction 2>&1 >/dev/null); then
    echo "gridstar contraction: built (not expected on the world)"
  else
    echo "gridstar contraction: ${refused#gridstar-bench: }"
  fi
  for e in auto jps+; do
    extra=()
    [[ $e == auto ]] && extra=(--subgoal_graph 1)
    # The world's scenario has no optimal lengths (make_world.py writes 0):
    # gridstar-bench's mismatch count means nothing here and is left out.
    echo "gridstar $e: $("$bench" --map "$tmp/world.pgm" --scen "$tmp/world.scen" --algo "$e" "${extra[@]}" |
      grep -E '^(jump_table|subgoal_graph|auto_choice|queries)=|_ms=' | tr '\n' ' ' |
      sed -E 's/ mismatches=[0-9]+//')"
  done
fi
