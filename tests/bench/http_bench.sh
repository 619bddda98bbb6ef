#!/usr/bin/env bash
# FindPath over gridstar-server's HTTP/JSON port against its gRPC port, in one
# run: one server (default flags but --http_port=-1 and the ones given), driven
# by grpc-http-bench, which prints p50 and p99 at one call in flight of each
# and the ratio HTTP / gRPC (target: p50 <= 1.5x).
# Usage: tests/bench/http_bench.sh [BUILD_DIR] [quick] [-- gridstar-server flags]
#   quick: one short round (the CTest smoke run; its figures mean nothing).
set -euo pipefail
cd "$(dirname "$0")/../.."
build=${1:-build/release}
shift || true
bench_flags=(--rounds=3 --calls=2000)
if [[ ${1:-} == quick ]]; then bench_flags=(--rounds=1 --calls=100); shift; fi
[[ ${1:-} == -- ]] && shift
tmp=$(mktemp -d)
pid=
cleanup() {
  [[ -n $pid ]] && kill "$pid" 2>/dev/null || true
  wait 2>/dev/null || true
  rm -rf "$tmp"
}
trap cleanup EXIT
"$build/server/gridstar-server" --host=127.0.0.1 --port=0 --port_file="$tmp/port" \
  --metrics_port=0 --http_port=-1 "$@" 2>"$tmp/log" &
pid=$!
# Waits for the port file (written after the log line naming the HTTP port);
# the bound is only for a server that died.
for _ in $(seq 3000); do [[ -s $tmp/port ]] && break; sleep 0.1; done
[[ -s $tmp/port ]] || { echo "http_bench: the server did not start" >&2; cat "$tmp/log" >&2; exit 1; }
http=$(sed -n 's/.*HTTP\/JSON on :\([0-9]*\).*/\1/p' "$tmp/log")
"$build/tests/grpc-http-bench" --grpc="127.0.0.1:$(cat "$tmp/port")" \
  --http="127.0.0.1:$http" "${bench_flags[@]}"
