#!/usr/bin/env bash
# Installs the Debian (bookworm) packages gridstar needs to build, test and run.
# The one list of packages: the README, .ci/run and the Dockerfile all call this script.
# Usage: scripts/install-deps.sh [--runtime]   (--runtime: only what the server needs to run)
set -euo pipefail

build_packages=(
  cmake g++ make ninja-build ccache pkg-config
  libabsl-dev
  libgtest-dev libgmock-dev libbenchmark-dev
  libgrpc++-dev protobuf-compiler-grpc libprotobuf-dev protobuf-compiler
  prometheus-cpp-dev
  clang-14 libclang-rt-14-dev
)

wanted=("${build_packages[@]}")
if [[ "${1:-}" == "--runtime" ]]; then
  wanted=(libabsl20220623 libgrpc++1.51 libprotobuf32 ca-certificates)
fi

missing=()
for p in "${wanted[@]}"; do
  if ! dpkg-query -W -f='${Status}' "$p" 2>/dev/null | grep -q "install ok installed"; then
    missing+=("$p")
  fi
done

if ((${#missing[@]} == 0)); then
  echo "install-deps: all ${#wanted[@]} packages already installed"
  exit 0
fi

echo "install-deps: installing ${missing[*]}"
SUDO=""
if [[ $(id -u) -ne 0 ]]; then SUDO="sudo"; fi
export DEBIAN_FRONTEND=noninteractive
$SUDO apt-get update -qq
$SUDO apt-get install -y -qq --no-install-recommends "${missing[@]}" >/dev/null
echo "install-deps: done"
