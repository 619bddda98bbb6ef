#!/usr/bin/env bash
# Runs deploy_test.py with Debian's python3 and PyYAML. Without them (or
# without promtool, kubectl and nginx) the test is skipped (exit 77) outside CI and
# fails in CI, where scripts/install-deps.sh --test has installed them.
set -uo pipefail
here=$(dirname "$0")
missing=""
/usr/bin/python3 -c 'import yaml' 2>/dev/null || missing+=" python3-yaml"
command -v promtool >/dev/null || missing+=" prometheus(promtool)"
command -v kubectl >/dev/null || missing+=" kubectl(kubernetes-client)"
command -v nginx >/dev/null || [[ -x /usr/sbin/nginx ]] || missing+=" nginx"
if [[ -n $missing ]]; then
  echo "deploy tests need:$missing (scripts/install-deps.sh --test)"
  [[ -n ${CI:-} ]] && exit 1
  exit 77
fi
PATH=$PATH:/usr/sbin exec /usr/bin/python3 "$here/deploy_test.py" "$@"
