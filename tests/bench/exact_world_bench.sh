#!/usr/bin/env bash
# Exact cross-world queries on the 8192 x 8192 world (#13 part 2): each
# exact engine on the same cross-world queries, in one run, one process per
# engine (cold: a fresh search context, as a new worker has): mean, p50,
# p99 and max microseconds, and mismatches of its lengths against A* run on
# the same queries (the scenario has no optimal lengths; A* is the
# reference). The world is generated here from a shared city map
# (tests/bench/make_world.py), never committed.
#
#   tests/bench/exact_world_bench.sh [BENCH] [DATA_DIR] [QUERIES] [ENGINES]
# Defaults: build/release/tests/gridstar-bench ../shared/movingai 200
#           "jps jps+ subgoal auto"
# A* itself takes ~0.3 s a query there (set SKIP_ASTAR=1 to leave the
# mismatch column out). gridstar-bench exits 1 on these queries (it counts
# each as a mismatch: the scenario's lengths are 0), which is ignored.
set -euo pipefail
cd "$(dirname "$0")/../.."
bench=${1:-build/release/tests/gridstar-bench}
data=${2:-../shared/movingai}
queries=${3:-200}
engines=${4:-"jps jps+ subgoal auto"}
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
[[ -x $bench ]] || { echo "no $bench: run scripts/build.sh first" >&2; exit 2; }
[[ -d $data ]] || { echo "no Moving AI data at $data" >&2; exit 2; }
python3 tests/bench/make_world.py "$data/cities/Berlin_0_1024.map" \
  "$tmp/world.pgm" "$tmp/world.scen" "$queries"
if [[ -z ${SKIP_ASTAR:-} ]]; then
  "$bench" --map "$tmp/world.pgm" --scen "$tmp/world.scen" --algo astar \
    --csv "$tmp/astar.csv" >/dev/null || true  # (exit 1: no lengths to match)
fi
echo "| engine | queries | mean us | p50 us | p99 us | max us | expanded mean | mismatches vs astar | precompute |"
echo "|---|---:|---:|---:|---:|---:|---:|---:|---|"
for engine in $engines; do
  extra=()
  # auto races every exact engine the map carries, the subgoal graph too.
  [[ $engine == auto ]] && extra=(--subgoal_graph 1 --auto_measure 24)
  "$bench" --map "$tmp/world.pgm" --scen "$tmp/world.scen" --algo "$engine" \
    --csv "$tmp/$engine.csv" "${extra[@]}" >"$tmp/$engine.out" || true
  python3 - "$tmp" "$engine" <<'PY'
import csv, os, re, sys
tmp, engine = sys.argv[1], sys.argv[2]
rows = list(csv.DictReader(open(os.path.join(tmp, engine + ".csv"))))
us = sorted(float(r["micros"]) for r in rows)
n = len(us)
pick = lambda q: us[min(n - 1, int(q * n))]
mism = "-"
ref_path = os.path.join(tmp, "astar.csv")
if os.path.exists(ref_path):
    ref = list(csv.DictReader(open(ref_path)))
    mism = str(sum(1 for a, b in zip(ref, rows)
                   if abs(float(a["length"]) - float(b["length"])) >
                   1e-6 * float(a["length"])))
out = open(os.path.join(tmp, engine + ".out")).read()
pre = " ".join(m for m in re.findall(
    r"(?:jump_table_ms|subgoal_graph_ms|auto_choice)=\S+", out))
chosen = re.findall(r"auto_runs=\S+", out)
exp = sum(float(r["expanded"]) for r in rows) / n
print("| %s | %d | %.0f | %.0f | %.0f | %.0f | %.0f | %s | %s |" % (
    engine + (" (" + chosen[0] + ")" if chosen else ""), n, sum(us) / n,
    pick(0.5), pick(0.99), us[-1], exp, mism, pre))
PY
done
