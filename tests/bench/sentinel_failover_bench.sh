#!/usr/bin/env bash
# Redis Sentinel failover under an update storm, N times: each round is
# ServerSentinelTest (a master, two replicas, three sentinels with
# down-after-milliseconds 1000, two gridstar replicas on
# --store=redis-sentinel://... --store_min_replicas=1; kill -9 of the master
# mid-storm). Prints the time from the kill to the first accepted update per
# round and their spread; a round that lost an acknowledged update fails.
#   tests/bench/sentinel_failover_bench.sh build/release 20
set -euo pipefail
build=${1:?usage: $0 BUILD_DIR [ROUNDS]}
rounds=${2:-20}
times=() failed=0
for ((r = 1; r <= rounds; ++r)); do
  out=$("$build/tests/server_test" --gtest_filter='ServerSentinelTest.*' 2>&1) || { failed=$((failed + 1)); echo "round $r: FAILED"; continue; }
  t=$(grep -o 'first update accepted [0-9.]* s' <<<"$out" | awk '{print $4}')
  n=$(grep -o '[0-9]* updates acknowledged' <<<"$out" | awk '{print $1}')
  echo "round $r: first update ${t} s after the kill, $n updates acknowledged, none lost"
  times+=("$t")
done
printf '%s\n' "${times[@]}" | sort -n | awk -v f="$failed" -v n="$rounds" '
  { v[NR] = $1 }
  END { printf "sentinel failover over %d kills: kill -> first accepted update min %.2f s, median %.2f s, max %.2f s; rounds failed (acknowledged update lost or no resume): %d\n", n, v[1], v[int((NR + 1) / 2)], v[NR], f }'
