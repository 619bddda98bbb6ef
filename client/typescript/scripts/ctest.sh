#!/usr/bin/env bash
# The TypeScript client's CTest steps, run from its package directory:
#   ctest.sh install        npm ci (skipped while package-lock.json is the one
#                           installed) and npm run build
#   ctest.sh test BUILD     the tests against BUILD's gridstar-server
#   ctest.sh check-types    src/generated against proto/
# Without node and npm: exit 77 (CTest: skipped), or 1 under CI, where the
# README's test command installs them (scripts/install-deps.sh --test).
set -euo pipefail
cd "$(dirname "$0")/.."
if ! command -v node >/dev/null || ! command -v npm >/dev/null; then
  echo "node and npm are not installed (scripts/install-deps.sh --test installs them)" >&2
  [[ -n ${CI:-} ]] && exit 1
  exit 77
fi
case "$1" in
  install)
    stamp=node_modules/.gridstar-lock
    if ! [[ -f $stamp ]] || ! cmp -s package-lock.json "$stamp"; then
      npm ci --no-audit --no-fund --loglevel=error
      cp package-lock.json "$stamp"
    fi
    npm run --silent build ;;
  test)
    GRIDSTAR_BUILD=$2 node --test --test-timeout=900000 test/*.test.mjs ;;
  check-types)
    npm run --silent check-types ;;
  *) echo "usage: $0 install|test BUILD|check-types" >&2; exit 2 ;;
esac
