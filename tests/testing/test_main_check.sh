#!/usr/bin/env bash
# Checks the test binaries' main (tests/testing/test_main.cc) through
# test_main_test: a passing run leaves nothing under TEST_TMPDIR, a failing
# run keeps its scratch directory, with what its test wrote, and prints where.
#
#   tests/testing/test_main_check.sh TEST_MAIN_TEST_BINARY
set -euo pipefail
binary=$1
parent=$(mktemp -d)
log=$(mktemp)
trap 'rm -rf "$parent" "$log"' EXIT
fail() { echo "test_main_check: $*" >&2; exit 1; }

TEST_TMPDIR=$parent "$binary" --gtest_filter='ScratchDirTest.*' >"$log" 2>&1 ||
  { cat "$log" >&2; fail "the passing run failed"; }
left=$(ls -A "$parent")
[[ -z $left ]] || fail "a passing run left $left under TEST_TMPDIR"

if out=$(GRIDSTAR_TEST_MAIN_FAIL=1 TEST_TMPDIR=$parent "$binary" \
  --gtest_filter='ScratchDirTest.FailsWhenAsked*' 2>&1); then
  fail "the run asked to fail passed"
fi
kept=$(find "$parent" -mindepth 1 -maxdepth 1 -name 'gridstar-test.*')
[[ -n $kept && -f $kept/kept ]] || fail "a failing run did not keep its directory with its file"
grep -qF "$kept" <<<"$out" || fail "a failing run did not say where its files are"
echo "test_main_check: passing run removed its directory; failing run kept $kept"
