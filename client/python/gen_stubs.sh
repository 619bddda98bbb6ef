#!/usr/bin/env bash
# The Python stubs of gridstar.v1 (client/python/gridstar/v1/*_pb2*.py) are
# committed, so that `pip install ./client/python` needs no code generator.
# This script makes them from proto/ with Debian's protoc and
# grpc_python_plugin (protobuf-compiler, protobuf-compiler-grpc).
#   client/python/gen_stubs.sh          rewrite the committed stubs
#   client/python/gen_stubs.sh --check  exit 1 if they differ from proto/
#                                       (run by CTest: PythonStubsMatchProto)
set -euo pipefail
here=$(cd "$(dirname "$0")" && pwd)
root=$(cd "$here/../.." && pwd)
out=$(mktemp -d)
trap 'rm -rf "$out"' EXIT
protoc --proto_path="$root/proto" --python_out="$out" --grpc_python_out="$out" \
  --plugin=protoc-gen-grpc_python="$(command -v grpc_python_plugin)" \
  gridstar/v1/gridstar.proto
for f in gridstar_pb2.py gridstar_pb2_grpc.py; do
  if [[ ${1:-} == --check ]]; then
    if ! cmp -s "$out/gridstar/v1/$f" "$here/gridstar/v1/$f"; then
      echo "gen_stubs: client/python/gridstar/v1/$f differs from proto/: run client/python/gen_stubs.sh" >&2
      exit 1
    fi
  else
    mkdir -p "$here/gridstar/v1"
    cp "$out/gridstar/v1/$f" "$here/gridstar/v1/$f"
  fi
done
[[ ${1:-} == --check ]] && echo "gen_stubs: the committed stubs match proto/"
exit 0
