#!/usr/bin/env bash
# A long fuzz run of one target, from its seeds, with the figures to report.
#   tests/fuzz/long_run.sh TARGET [SECONDS] [BUILD_DIR]
# Builds the fuzz targets first if needed (clang 14). New inputs go to
# BUILD_DIR/long-corpus/TARGET; crashes to BUILD_DIR/fuzz-artifacts/. Prints
# the final libFuzzer stats line by line, then one summary line:
#   fuzz TARGET: seconds=S execs=N exec_per_s=R corpus=C coverage=COV features=F crashes=K
set -euo pipefail
cd "$(dirname "$0")/../.."
target=${1:?usage: long_run.sh TARGET [SECONDS] [BUILD_DIR]}
seconds=${2:-600}
dir=${3:-build/fuzz}
if [[ ! -x $dir/tests/fuzz/${target}_fuzzer ]]; then
  CC=clang-14 CXX=clang++-14 scripts/build.sh "$dir" -DGRIDSTAR_FUZZ=ON -DGRIDSTAR_BUILD_TESTS=OFF
fi
work=$dir/long-corpus/$target
mkdir -p "$work" "$dir/fuzz-artifacts"
log=$dir/long-$target.log
status=0
"$dir/tests/fuzz/${target}_fuzzer" -max_total_time="$seconds" -timeout=10 \
  -rss_limit_mb=2048 -print_final_stats=1 \
  -artifact_prefix="$dir/fuzz-artifacts/$target-" \
  "$work" "tests/fuzz/corpus/$target" >"$log" 2>&1 || status=$?
grep '^stat::' "$log" || true
execs=$(awk '/^stat::number_of_executed_units/ {print $2}' "$log")
rate=$(awk '/^stat::average_exec_per_sec/ {print $2}' "$log")
last=$(grep -E '^#[0-9]+' "$log" | tail -1)
cov=$(sed -nE 's/.* cov: ([0-9]+).*/\1/p' <<<"$last")
ft=$(sed -nE 's/.* ft: ([0-9]+).*/\1/p' <<<"$last")
corp=$(sed -nE 's/.* corp: ([0-9]+)\/.*/\1/p' <<<"$last")
crashes=$(find "$dir/fuzz-artifacts" -name "$target-*" | wc -l)
echo "fuzz $target: seconds=$seconds execs=${execs:-?} exec_per_s=${rate:-?} corpus=${corp:-?} coverage=${cov:-?} features=${ft:-?} crashes=$crashes"
exit "$status"
