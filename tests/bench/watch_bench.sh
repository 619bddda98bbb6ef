#!/usr/bin/env bash
# WatchPaths on the big world: 10,000 watched agents (goals within 256
# cells), 10 one-cell updates per second on cells of their paths; prints
# update-to-push latency (p50/p99/max) beside a plain FindPath of the same
# kind measured in the same run, agents crossing vs pushes per update, and
# memory per watched agent (tests/bench/watch_bench.cc).
#   tests/bench/watch_bench.sh [BUILD_DIR] [DATA_DIR] [AGENTS] [UPDATES] [ALGO]
# Defaults: build/release ../shared/movingai 10000 300 astar.
# The world is built at run time (tests/bench/make_world.py), never committed.
set -euo pipefail
cd "$(dirname "$0")/../.."
build=$(realpath "${1:-build/release}")
data=${2:-../shared/movingai}
agents=${3:-10000}
updates=${4:-300}
algo=${5:-astar}
server_bin=$build/server/gridstar-server
cli=$build/client/gridstar
bench=$build/tests/watch-bench
for b in "$server_bin" "$cli" "$bench"; do [[ -x $b ]] || { echo "no $b" >&2; exit 2; }; done
source_map=$data/cities/Berlin_0_1024.map
[[ -f $source_map ]] || { echo "no $source_map" >&2; exit 2; }
tmp=$(mktemp -d)
server_pid=""
cleanup() {
  [[ -n $server_pid ]] && kill -9 "$server_pid" 2>/dev/null || true
  rm -rf "$tmp"
}
trap cleanup EXIT
python3 tests/bench/make_world.py "$source_map" "$tmp/world.pgm" "$tmp/world.scen" 10
metrics_port=$(python3 -c 'import socket; s=socket.socket(); s.bind(("127.0.0.1",0)); print(s.getsockname()[1])')
"$server_bin" --host=127.0.0.1 --port=0 --port_file="$tmp/port" \
  --metrics_port="$metrics_port" --max_search_time=600s \
  --max_message_bytes=$((100 << 20)) >"$tmp/server.log" 2>&1 &
server_pid=$!
for _ in $(seq 6000); do [[ -s $tmp/port ]] && break; sleep 0.05; done
[[ -s $tmp/port ]] || { cat "$tmp/server.log"; echo "server did not start" >&2; exit 1; }
target=127.0.0.1:$(cat "$tmp/port")
"$cli" --server="$target" --deadline=900s register --id world "$tmp/world.pgm" >/dev/null
echo "watch bench: $bench --agents=$agents --updates=$updates --rate=10 --algo=$algo (world 8192 x 8192, $(nproc) cores)"
"$bench" --target="$target" --map=world --agents="$agents" --updates="$updates" \
  --rate=10 --algo="$algo" --metrics="127.0.0.1:$metrics_port"
echo "server rss_mb=$(awk '/VmRSS/ {printf "%.0f", $2 / 1024}' "/proc/$server_pid/status")"
