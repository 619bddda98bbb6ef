#!/usr/bin/env bash
# The shared store's kill -9 scenarios repeated (issue target: nothing
# acknowledged lost in any of them over 20 repetitions each): kill -9 of a
# replica under a 3-thread load, and kill -9 of redis-server restarted on its
# directory (tests/cluster/cluster_test.py, where each run checks every
# acknowledged update on every replica). Prints the passes of each.
#   tests/bench/cluster_kill_bench.sh [BUILD_DIR] [REPETITIONS]
# Defaults: build/release, 20.
set -euo pipefail
cd "$(dirname "$0")/../.."
build=$(realpath "${1:-build/release}")
reps=${2:-20}
for scenario in test_kill_nine_of_a_replica_under_load_loses_nothing \
                test_kill_nine_of_redis_loses_nothing_and_replicas_catch_up; do
  passed=0
  for ((i = 0; i < reps; i++)); do
    if /usr/bin/python3 tests/cluster/cluster_test.py "$build" \
         "ClusterTest.$scenario" >/dev/null 2>&1; then
      passed=$((passed + 1))
    fi
  done
  echo "$scenario: $passed of $reps passed"
done
