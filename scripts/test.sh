#!/usr/bin/env bash
# Installs what is missing, builds and runs every test. The stages:
#   1. release   optimised build; every CTest test, the Moving AI conformance
#                run, the deploy file checks and the 3-replica nginx scale-out
#                test included.
#   2. asan      AddressSanitizer + UndefinedBehaviorSanitizer build (g++);
#                every test except the long conformance label, the deploy
#                file checks (they inspect the release binaries' libraries),
#                the docs checks (they run the README's commands) and the
#                browser test (the console's routes run under ASan in
#                ConsoleTest; chromium adds nothing there).
#   3. tsan      ThreadSanitizer build (g++); the concurrency tests (threads
#                sharing one map) and the server's integration tests (a TSan
#                gridstar-server under concurrent calls).
#   4. container the image built from the Dockerfile with podman and run:
#                uid, libraries, health, a map and an update kept across a
#                restart, SIGTERM drain, TLS and keys from mounted files
#                (tests/deploy/container_test.py), and the compose file
#                brought up by podman-compose: gridstar, Redis, Prometheus,
#                start order, kill -9 and restart policy
#                (tests/deploy/compose_test.py); base images made with
#                mmdebstrap when absent; skipped, saying why, only where
#                podman cannot run a container at all.
#   5. fuzz      libFuzzer targets (clang 14, ASan + UBSan), each run for
#                GRIDSTAR_FUZZ_SECONDS (default 20) from its seed corpus.
# Any failure, sanitizer report or fuzz crash stops the run with a non-zero exit.
# Usage: scripts/test.sh [release|asan|tsan|container|fuzz ...]   (default: all)
set -euo pipefail
cd "$(dirname "$0")/.."
stages=("$@")
((${#stages[@]})) || stages=(release asan tsan container fuzz)
jobs=$(nproc)

scripts/install-deps.sh --test

run_stage() {
  local name=$1 start=$SECONDS
  echo "=== stage $name"
  case $name in
    release)
      scripts/build.sh build/release
      (cd build/release && ctest -j "$jobs" --output-on-failure --timeout 1800 -LE container)
      ;;
    asan)
      scripts/build.sh build/asan -DCMAKE_BUILD_TYPE=RelWithDebInfo \
        -DGRIDSTAR_SANITIZE=address,undefined
      (cd build/asan && ASAN_OPTIONS=detect_leaks=1:abort_on_error=1 \
        UBSAN_OPTIONS=print_stacktrace=1:halt_on_error=1 \
        ctest -j "$jobs" --output-on-failure -LE 'conformance|deploy|docs|container|browser')
      ;;
    tsan)
      GRIDSTAR_TARGETS="concurrency_test server_test server_unit_tests scaleout_test gridstar-server gridstar gridstar_python_client" \
        scripts/build.sh build/tsan -DCMAKE_BUILD_TYPE=RelWithDebInfo \
        -DGRIDSTAR_SANITIZE=thread
      (cd build/tsan && TSAN_OPTIONS="halt_on_error=1 suppressions=$PWD/../../tests/tsan.supp" \
        ctest -j "$jobs" --output-on-failure -L 'concurrency|server')
      ;;
    container)
      scripts/install-deps.sh --container
      scripts/build.sh build/release
      (cd build/release && ctest --output-on-failure -L container)
      ;;
    fuzz)
      CC=clang-14 CXX=clang++-14 scripts/build.sh build/fuzz \
        -DGRIDSTAR_FUZZ=ON -DGRIDSTAR_BUILD_TESTS=OFF -DGRIDSTAR_BUILD_SERVICE=OFF \
        -DGRIDSTAR_FUZZ_SECONDS="${GRIDSTAR_FUZZ_SECONDS:-20}"
      (cd build/fuzz && ctest -j "$jobs" --output-on-failure -L fuzz)
      ;;
    *)
      echo "test.sh: unknown stage '$name' (release, asan, tsan, container, fuzz)" >&2
      exit 2
      ;;
  esac
  echo "=== stage $name passed in $((SECONDS - start)) s"
}

# The last stage's CTest summary stays the last thing printed.
for s in "${stages[@]}"; do run_stage "$s"; done
