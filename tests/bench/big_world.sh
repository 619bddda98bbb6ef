#!/usr/bin/env bash
# The big-world benchmark: an 8192 x 8192 world built at run time from a
# shared city map (tests/bench/make_world.py: cities/Berlin_0_1024 tiled
# 8 x 8 with 4-cell roads; never committed), served by a real gridstar-server
# with --data_dir. Prints, for the given server and CLI binaries:
#   1. RegisterMap with the jump table (the CLI's default): wall time, the
#      server-side time from /metrics, MapInfo bytes, resident memory; when
#      the table is refused (an older design), the registration without it;
#   2. UpdateCells, server-side p50/p99 from the /metrics histogram (1.5x
#      buckets, interpolated) and client-side p50/p99, for one cell and for
#      32 x 32 rectangles, while two clients search across the world;
#   3. with --workers 8 after a restart (the map reloaded from --data_dir,
#      timed): 1,000 cross-world searches, then resident memory and
#      gridstar_search_context_memory_bytes;
#   4. this machine's own fdatasync of a small append (p50/p99), the floor of
#      a durable update.
# Run it for two builds (this one and the commit before a change) to compare:
#   tests/bench/big_world.sh [SERVER] [CLI] [DATA_DIR] [UPDATES]
# Defaults: build/release/server/gridstar-server build/release/client/gridstar
# ../shared/movingai 10.
set -euo pipefail
cd "$(dirname "$0")/../.."
server_bin=$(realpath "${1:-build/release/server/gridstar-server}")
cli=$(realpath "${2:-build/release/client/gridstar}")
data=${3:-../shared/movingai}
updates=${4:-10}
for b in "$server_bin" "$cli"; do [[ -x $b ]] || { echo "no $b" >&2; exit 2; }; done
source_map=$data/cities/Berlin_0_1024.map
[[ -f $source_map ]] || { echo "no $source_map" >&2; exit 2; }
tmp=$(mktemp -d)
server_pid=""
cleanup() {
  [[ -n $server_pid ]] && kill -9 "$server_pid" 2>/dev/null || true
  jobs -p | xargs -r kill 2>/dev/null || true
  rm -rf "$tmp"
}
trap cleanup EXIT

echo "big world: $server_bin"
python3 tests/bench/make_world.py "$source_map" "$tmp/world.pgm" "$tmp/world.scen" 1000
mkdir -p "$tmp/data"

start_server() {  # start_server WORKERS
  rm -f "$tmp/port"
  metrics_port=$(python3 -c 'import socket; s=socket.socket(); s.bind(("127.0.0.1",0)); print(s.getsockname()[1])')
  "$server_bin" --host=127.0.0.1 --port=0 --port_file="$tmp/port" \
    --metrics_port="$metrics_port" --workers="$1" --data_dir="$tmp/data" \
    --max_search_time=600s >"$tmp/server.log" 2>&1 &
  server_pid=$!
  for _ in $(seq 6000); do [[ -s $tmp/port ]] && break; sleep 0.05; done
  [[ -s $tmp/port ]] || { cat "$tmp/server.log"; echo "server did not start" >&2; exit 1; }
  target=127.0.0.1:$(cat "$tmp/port")
}
stop_server() { kill -9 "$server_pid"; wait "$server_pid" 2>/dev/null || true; server_pid=""; }
scrape() { python3 -c 'import sys,urllib.request; print(urllib.request.urlopen(sys.argv[1]).read().decode())' "http://127.0.0.1:$metrics_port/metrics"; }
rss_mb() { awk '/VmRSS/ {printf "%.0f", $2 / 1024}' "/proc/$server_pid/status"; }
# The cumulative bucket counts of a method's request histogram, "le count"
# per line.
buckets() { scrape | awk -v m="$1" -F'[{}]' '$1 == "gridstar_request_duration_seconds_bucket" && $2 ~ "method=\"" m "\"" && $2 ~ "code=\"OK\"" {
    match($2, /le="[^"]*"/); le = substr($2, RSTART + 4, RLENGTH - 5); split($3, v, " "); print le, v[1] }'; }
# Quantiles in ms of the requests between two bucket snapshots.
quantiles() {  # quantiles BEFORE AFTER
  python3 - "$1" "$2" <<'PY'
import sys
def load(path):
    out = {}
    for line in open(path):
        le, n = line.split()
        out[float("inf") if le == "+Inf" else float(le)] = float(n)
    return out
a, b = load(sys.argv[1]), load(sys.argv[2])
les = sorted(b)
counts = [b[l] - a.get(l, 0) for l in les]
total = counts[-1]
def q(p):
    want, prev_le, prev_n = p * total, 0.0, 0.0
    for le, n in zip(les, counts):
        if n >= want:
            if le == float("inf"): return -prev_le * 1e3  # Past the last bucket.
            frac = (want - prev_n) / (n - prev_n) if n > prev_n else 1
            return (prev_le + frac * (le - prev_le)) * 1e3
        prev_le, prev_n = le, n
def fmt(v): return ">%.0f" % -v if v < 0 else "%.2f" % v
print("n=%d p50_ms=%s p99_ms=%s" % (total, fmt(q(0.5)), fmt(q(0.99))))
PY
}
client_quantiles() { sort -n "$1" | awk '{v[NR] = $1} END {printf "p50_ms=%.2f p99_ms=%.2f\n", v[int(NR * 0.5 + 0.5)], v[int(NR * 0.99 + 0.5)]}'; }

# 1. Registration.
start_server 2
t0=$(date +%s.%N)
if "$cli" --server="$target" --deadline=900s register --id world "$tmp/world.pgm" >"$tmp/reg.out" 2>&1; then
  table=with
else
  echo "register with jump table: $(tail -1 "$tmp/reg.out")"
  table=without
  t0=$(date +%s.%N)
  "$cli" --server="$target" --deadline=900s register --jump_table=false --id world "$tmp/world.pgm" >"$tmp/reg.out"
fi
t1=$(date +%s.%N)
server_s=$(scrape | awk -F'[{} ]' '/^gridstar_request_duration_seconds_sum/ && /RegisterMap/ && /code="OK"/ {print $NF}')
info=$("$cli" --server="$target" maps | grep '^world ')
bytes=$(sed -E 's/.* bytes=([0-9]+).*/\1/' <<<"$info")
echo "register ($table jump table): wall_s=$(awk -v a="$t0" -v b="$t1" 'BEGIN {printf "%.2f", b - a}') server_s=$(printf '%.2f' "$server_s") rss_mb=$(rss_mb) map_bytes=$bytes bytes_per_cell=$(awk -v b="$bytes" 'BEGIN {printf "%.2f", b / (8192 * 8192)}')"
echo "  $info"

# 2. Updates while two clients search across the world.
"$cli" --server="$target" --deadline=900s load --map world "$tmp/world.scen" \
  --concurrency 2 --duration 100000 >"$tmp/load.out" 2>&1 &
load_pid=$!
sleep 2
# Cells inside tiles (off the roads), so that the roads stay connected.
python3 - "$updates" >"$tmp/cells.txt" <<'PY'
import random, sys
rng = random.Random(11)
for _ in range(int(sys.argv[1])):
    tx, ty = rng.randrange(8), rng.randrange(8)
    print(tx * 1024 + 100 + rng.randrange(800), ty * 1024 + 100 + rng.randrange(800))
PY
run_updates() {  # run_updates KIND: one|rect
  buckets UpdateCells >"$tmp/before.txt"
  : >"$tmp/client.txt"
  local i=0
  while read -r x y; do
    local cost=$((i % 2)) args=()
    if [[ $1 == one ]]; then
      args=("$x" "$y" "$cost")
    else
      for ((dy = 0; dy < 32; dy++)); do
        for ((dx = 0; dx < 32; dx++)); do args+=("$((x + dx))" "$((y + dy))" "$cost"); done
      done
    fi
    local a b
    a=$(date +%s%N)
    "$cli" --server="$target" --deadline=900s update world "${args[@]}" >/dev/null
    b=$(date +%s%N)
    echo "$(( (b - a) / 1000 ))" | awk '{printf "%.2f\n", $1 / 1000}' >>"$tmp/client.txt"
    i=$((i + 1))
  done <"$tmp/cells.txt"
  buckets UpdateCells >"$tmp/after.txt"
  echo "update $1: server $(quantiles "$tmp/before.txt" "$tmp/after.txt"); client $(client_quantiles "$tmp/client.txt")"
}
run_updates one
run_updates rect
kill -TERM "$load_pid" 2>/dev/null || true  # Background jobs ignore SIGINT.
wait "$load_pid" 2>/dev/null || true
echo "  searches meanwhile: $(tail -1 "$tmp/load.out")"
echo "  rss_mb=$(rss_mb) context_bytes=$(scrape | awk '/^gridstar_search_context_memory_bytes/ {print $2}')"
stop_server

# 3. Eight workers, restarted on the data directory, 1,000 searches.
t0=$(date +%s.%N)
start_server 8
t1=$(date +%s.%N)
echo "restart with 8 workers (map file + update log replayed): start_s=$(awk -v a="$t0" -v b="$t1" 'BEGIN {printf "%.2f", b - a}') rss_mb=$(rss_mb)"
"$cli" --server="$target" --deadline=900s scen --map world "$tmp/world.scen" --concurrency 8 >"$tmp/scen.out" 2>&1 || true
echo "  1000 cross-world searches: $(tail -1 "$tmp/scen.out")"
sleep 1
echo "  rss_mb=$(rss_mb) context_bytes=$(scrape | awk '/^gridstar_search_context_memory_bytes/ {print $2}')"
stop_server

# 4. The machine's own durable small append.
python3 - "$tmp/fsync.bin" <<'PY'
import os, sys, time
fd = os.open(sys.argv[1], os.O_WRONLY | os.O_CREAT | os.O_APPEND, 0o644)
times = []
for _ in range(300):
    t = time.perf_counter()
    os.write(fd, b"x" * 64)
    os.fdatasync(fd)
    times.append((time.perf_counter() - t) * 1e3)
times.sort()
print("fdatasync of a 64-byte append: p50_ms=%.2f p99_ms=%.2f" % (times[150], times[296]))
PY
