#!/usr/bin/env bash
# The web console's browser test (CTest ConsoleInBrowser): puppeteer-core
# from the lockfile (npm ci, skipped while the lockfile is the one
# installed), then console.test.mjs with Debian's chromium against BUILD's
# gridstar-server. Needs the TypeScript client built (CTest fixture
# typescript). Without node, npm or chromium: exit 77 (skipped), or 1 under
# CI (scripts/install-deps.sh --test installs them).
#   tests/browser/run.sh BUILD
set -euo pipefail
cd "$(dirname "$0")"
for tool in node npm chromium; do
  if ! command -v "$tool" >/dev/null; then
    echo "$tool is not installed (scripts/install-deps.sh --test installs it)" >&2
    [[ -n ${CI:-} ]] && exit 1
    exit 77
  fi
done
stamp=node_modules/.gridstar-lock
if ! [[ -f $stamp ]] || ! cmp -s package-lock.json "$stamp"; then
  npm ci --no-audit --no-fund --loglevel=error
  cp package-lock.json "$stamp"
fi
GRIDSTAR_BUILD=$1 CHROMIUM=$(command -v chromium) \
  node --test --test-timeout=900000 console.test.mjs
