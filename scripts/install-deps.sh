#!/usr/bin/env bash
# Installs the Debian (bookworm) packages gridstar needs. The one list of
# packages: the README, .ci/run and the Dockerfile all call this script.
# Usage: scripts/install-deps.sh [--build|--test|--container|--runtime|--list-runtime]
#   --build    (default) what building gridstar and running it needs;
#   --test     that, plus the tools the tests drive: Tiled and ImageMagick
#              (they make the Tiled and PNG maps the import tests read),
#              chromium (headless, the web console's browser test),
#              nginx (the gRPC load
#              balancer of the scale-out test), redis-server and
#              redis-sentinel (the map store of the Redis and failover
#              tests, started on loopback by the tests themselves), promtool
#              (package prometheus), PyYAML and kubectl (package
#              kubernetes-client, unless a kubectl is already installed) for
#              the manifest checks, Debian's
#              grpcio and protobuf for the Python client's test, Node and
#              npm for the TypeScript client's (its npm packages come from
#              the registry, pinned by client/typescript/package-lock.json), venv,
#              pip, setuptools and wheel to install that client as a package;
#   --container  podman (with runc, which runs where crun cannot),
#              podman-compose with the CNI dnsname plugin (services find each
#              other by name) and mmdebstrap, which makes the base images when
#              no registry is reachable: the image stage of scripts/test.sh;
#   --runtime  only the shared libraries gridstar-server and the gridstar CLI
#              load (the container's runtime stage; tests/deploy checks the
#              list against the binaries' ldd).
#   --list-runtime  print the runtime list, install nothing.
set -euo pipefail

build_packages=(
  cmake g++ make ninja-build ccache pkg-config
  libabsl-dev
  libgtest-dev libgmock-dev libbenchmark-dev
  libgrpc++-dev protobuf-compiler-grpc libprotobuf-dev protobuf-compiler
  prometheus-cpp-dev
  libcpp-httplib-dev libssl-dev libcurl4-openssl-dev nlohmann-json3-dev
  libhiredis-dev
  libpng-dev libpugixml-dev zlib1g-dev libzstd-dev
  clang-14 libclang-rt-14-dev
)
test_packages=(curl tiled imagemagick chromium nginx prometheus redis-server redis-sentinel python3 python3-yaml python3-grpcio python3-protobuf
               python3-venv python3-pip python3-setuptools python3-wheel)
# Another package's kubectl (a cloud SDK's) serves as well, and would clash.
command -v kubectl >/dev/null || test_packages+=(kubernetes-client)
# Node and npm run the TypeScript client's tests; a Node already installed
# (NodeSource's, which bundles npm) serves, and Debian's npm would clash.
command -v node >/dev/null || test_packages+=(nodejs)
command -v npm >/dev/null || test_packages+=(npm)
container_packages=(podman runc mmdebstrap uidmap slirp4netns fuse-overlayfs podman-compose
                    golang-github-containernetworking-plugin-dnsname)
runtime_packages=(
  libabsl20220623 libgrpc++1.51 libgrpc29 libprotobuf32
  libprometheus-cpp-core1.0 libprometheus-cpp-pull1.0 libcivetweb1 libcpp-httplib0.11 libbrotli1
  libre2-9 libc-ares2 libssl3 libhiredis0.14 libpng16-16 libpugixml1v5 zlib1g libzstd1 ca-certificates
)

case "${1:---build}" in
  --build) wanted=("${build_packages[@]}") ;;
  --test) wanted=("${build_packages[@]}" "${test_packages[@]}") ;;
  --container) wanted=("${container_packages[@]}") ;;
  --runtime) wanted=("${runtime_packages[@]}") ;;
  --list-runtime) printf '%s\n' "${runtime_packages[@]}"; exit 0 ;;
  *) echo "usage: $0 [--build|--test|--container|--runtime|--list-runtime]" >&2; exit 2 ;;
esac

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
# nginx and prometheus start daemons on install where an init system lets
# them; the tests run their own on loopback, so none may start here.
policy=/usr/sbin/policy-rc.d
made_policy=""
if [[ ! -e $policy ]]; then
  printf '#!/bin/sh\nexit 101\n' | $SUDO tee "$policy" >/dev/null
  $SUDO chmod +x "$policy"
  made_policy=1
fi
trap '[[ -n $made_policy ]] && $SUDO rm -f "$policy"' EXIT
$SUDO apt-get update -qq
$SUDO apt-get install -y -qq --no-install-recommends "${missing[@]}" >/dev/null
echo "install-deps: done"
