#!/usr/bin/env bash
# gridstar-server against gRPC's floor on this machine, in one run:
# grpc-echo-server (the same API's FindPath answered on the gRPC thread, no
# search) and gridstar-server (default flags but --workers, a 49 x 49 open map)
# are driven alternately by grpc-floor-bench, one completion-queue client
# thread; it prints p50 at one call in flight and the rate at 32 in flight,
# and their ratios gridstar / echo (targets: p50 <= 1.15x, rate >= 0.85x).
# Usage: tests/bench/floor_bench.sh [BUILD_DIR] [quick] [-- gridstar-server flags]
#   quick: one short round (the CTest smoke run; its figures mean nothing).
set -euo pipefail
cd "$(dirname "$0")/../.."
build=${1:-build/release}
shift || true
bench_flags=(--rounds=3 --calls=3000 --seconds=3)
if [[ ${1:-} == quick ]]; then bench_flags=(--rounds=1 --calls=200 --seconds=0.5); shift; fi
[[ ${1:-} == -- ]] && shift
tmp=$(mktemp -d)
pids=()
cleanup() {
  for p in "${pids[@]}"; do kill "$p" 2>/dev/null || true; done
  wait 2>/dev/null || true
  rm -rf "$tmp"
}
trap cleanup EXIT
"$build/tests/grpc-echo-server" --port=0 --port_file="$tmp/echo" 2>/dev/null &
pids+=($!)
"$build/server/gridstar-server" --host=127.0.0.1 --port=0 --port_file="$tmp/star" \
  --metrics_port=0 "$@" 2>/dev/null &
pids+=($!)
# Waits for the port files; the bound is only for a server that died.
for f in echo star; do
  for _ in $(seq 3000); do [[ -s $tmp/$f ]] && break; sleep 0.1; done
  [[ -s $tmp/$f ]] || { echo "floor_bench: the $f server did not start" >&2; exit 1; }
done
"$build/tests/grpc-floor-bench" --echo="127.0.0.1:$(cat "$tmp/echo")" \
  --gridstar="127.0.0.1:$(cat "$tmp/star")" "${bench_flags[@]}"
