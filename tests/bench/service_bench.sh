#!/usr/bin/env bash
# Service throughput against the in-process search rate, in one run:
#   1. gridstar-server --workers 1 with the maps preloaded: `gridstar scen`
#      checks every length once; then three rounds, each of gridstar-bench
#      (one thread, the in-process rate of one worker: 1e6 / mean_us queries
#      a second, mean of 5 runs over the scenario) and `gridstar load --batch
#      64 --concurrency 4` running the same queries for DURATION / 3 seconds
#      at saturation; the ratio is the median of the rounds' ratios;
#   3. `gridstar load` with unary FindPath at half that rate for DURATION
#      seconds, for the p99.
#   4. a group of 50 clustered units sharing a goal: the FindGroupPaths call
#      against 50 FindPath calls, wall time of both from one client process;
#   5. tests/bench/floor_bench.sh: gridstar against gRPC's own floor (an echo
#      service of the same API), p50 at 1 call in flight and the rate at 32.
# Every search runs ALGO (default auto, the server's default; the server's
# preloaded maps and gridstar-bench both have jump tables for it).
# Usage: tests/bench/service_bench.sh [BUILD_DIR] [DURATION] [ALGO]
set -euo pipefail
cd "$(dirname "$0")/../.."
build=${1:-build/release}
duration=${2:-20}
algo=${3:-auto}
data=${GRIDSTAR_MOVINGAI_DIR:-../shared/movingai}
port=50091
maps=(dao/den520d sc1/Aftershock)
preload=""
for m in "${maps[@]}"; do preload+="${preload:+,}$(basename "$m")=$data/$m.map"; done
port_file=$(mktemp -u)
"$build/server/gridstar-server" --host=127.0.0.1 --port=$port --metrics_port=0 \
  --workers=1 --preload="$preload" --port_file="$port_file" 2>/dev/null &
server=$!
trap 'kill $server 2>/dev/null; wait $server 2>/dev/null || true; rm -f "$port_file"' EXIT
# Serving once the port file is written (the maps are preloaded by then).
for _ in $(seq 3000); do [[ -s $port_file ]] && break; sleep 0.1; done
cli=("$build/client/gridstar" --server=127.0.0.1:$port --deadline=60s --algo="$algo")
echo "| map | in-process qps (1 thread) | service qps, load --batch 64 (1 worker) | ratio (median of 3 rounds) | unary saturation qps | unary paced at qps | unary p50 | unary p99 | in-process mean us |"
echo "|---|---:|---:|---:|---:|---:|---:|---:|---:|"
slice=$(awk -v d="$duration" 'BEGIN { printf "%.1f", d / 3 }')
for m in "${maps[@]}"; do
  id=$(basename "$m")
  # Checked once (every length against the scenario), then measured.
  check=$("${cli[@]}" scen --map "$id" "$data/$m.map.scen" --batch 64 --concurrency 4 \
    2>/dev/null | tail -1)
  [[ $check == *" mismatches=0 errors=0 "* ]] || echo "WARNING: $id: $check" >&2
  ratios=() inprocs=() services=() means=()
  for round in 1 2 3; do
    mean=$(for _ in 1 2 3 4 5; do
      "$build/tests/gridstar-bench" --map "$data/$m.map" --scen "$data/$m.map.scen" \
        --algo "$algo" | tail -1 | sed 's/.*mean_us=\([0-9.]*\).*/\1/'
    done | awk '{ s += $1 } END { printf "%.3f", s / NR }')
    line=$("${cli[@]}" load --map "$id" "$data/$m.map.scen" --batch 64 --concurrency 4 \
      --duration "${slice}s" 2>/dev/null | tail -1)
    qps=$(sed 's/.*qps=\([0-9]*\).*/\1/' <<<"$line")
    inproc=$(awk -v m="$mean" 'BEGIN { printf "%.0f", 1e6 / m }')
    ratios+=("$(awk -v a="$qps" -v b="$inproc" 'BEGIN { printf "%.2f", a / b }')")
    inprocs+=("$inproc") services+=("$qps") means+=("$mean")
  done
  median() { printf '%s\n' "$@" | sort -g | sed -n 2p; }
  ratio="$(median "${ratios[@]}") [${ratios[*]}]"
  inproc=$(median "${inprocs[@]}")
  qps=$(median "${services[@]}")
  mean=$(median "${means[@]}")
  # Unary FindPath: its own saturation, then half of it, paced.
  unary_max=$("${cli[@]}" load --map "$id" "$data/$m.map.scen" --concurrency 4 \
    --duration "${duration}s" 2>/dev/null | tail -1 | sed 's/.*qps=\([0-9]*\).*/\1/')
  half=$((unary_max / 2))
  unary=$("${cli[@]}" load --map "$id" "$data/$m.map.scen" --concurrency 4 --rps "$half" \
    --duration "${duration}s" 2>/dev/null | tail -1)
  p50=$(sed 's/.*p50_us=\([0-9]*\).*/\1/' <<<"$unary")
  p99=$(sed 's/.*p99_us=\([0-9]*\).*/\1/' <<<"$unary")
  echo "| $id | $inproc | $qps | $ratio | $unary_max | $half | $p50 us | $p99 us | $mean |"
done

# The floor under every unary latency here: a call for an unknown map, which
# the handler answers NOT_FOUND on the gRPC thread (no queue, no search).
floor=$("${cli[@]}" load --map no-such-map "$data/dao/den520d.map.scen" --concurrency 1 \
  --duration 3s 2>/dev/null | tail -1 || true)
echo
echo "bare unary round trip (NOT_FOUND, no search), 1 thread: $(sed 's/.*\(p50_us=[0-9]*\).*\(p99_us=[0-9]*\).*/\1 \2/' <<<"$floor")"

# A group of 50 units in a cluster around the start of the last (longest)
# den520d query, sharing its goal: one FindGroupPaths against 50 FindPaths.
read -r group_args <<<"$(python3 - "$data/dao/den520d.map" "$data/dao/den520d.map.scen" <<'PY'
import sys
rows = open(sys.argv[1]).read().split("map\n", 1)[1].split()
last = open(sys.argv[2]).read().split("\n")
q = [l.split("\t") for l in last if l.count("\t") >= 8][-1]
sx, sy, gx, gy = map(int, q[4:8])
units = []
for r in range(0, 30):
    for dy in range(-r, r + 1):
        for dx in range(-r, r + 1):
            x, y = sx + dx, sy + dy
            if max(abs(dx), abs(dy)) != r or len(units) >= 50: continue
            if 0 <= y < len(rows) and 0 <= x < len(rows[y]) and rows[y][x] in ".GS":
                units.append((x, y))
print(gx, gy, " ".join(f"{x} {y}" for x, y in units))
PY
)"
set -- $group_args
gx=$1 gy=$2; shift 2
overhead=$("${cli[@]}" group den520d "$gx" "$gy" "$@" | tail -1)
compare=$("${cli[@]}" group --overhead=false --compare den520d "$gx" "$gy" "$@" | tail -1)
echo
echo "group of 50 on den520d ($algo): $compare"
echo "with report_overhead: $overhead"

echo
echo "gRPC floor (tests/bench/floor_bench.sh $build, default server flags):"
tests/bench/floor_bench.sh "$build" | tail -1
