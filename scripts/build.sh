#!/usr/bin/env bash
# Configures and builds gridstar.  Usage: scripts/build.sh [BUILD_DIR] [cmake args...]
# Default BUILD_DIR is build/release (an optimised build with the tests).
set -euo pipefail
cd "$(dirname "$0")/.."
dir="${1:-build/release}"
shift || true
generator=()
command -v ninja >/dev/null && generator=(-G Ninja)
if [[ ! -f "$dir/CMakeCache.txt" ]]; then
  cmake -S . -B "$dir" "${generator[@]}" -DCMAKE_BUILD_TYPE=Release "$@"
elif (($#)); then
  cmake -S . -B "$dir" "$@"
fi
# GRIDSTAR_TARGETS (space separated) builds only those targets.
cmake --build "$dir" -j "$(nproc)" ${GRIDSTAR_TARGETS:+--target $GRIDSTAR_TARGETS}
