#!/usr/bin/env bash
# Lints template.yaml with cfn-lint from its own virtualenv (.venv-cfn), creating it when missing.
# Offline: needs no AWS credentials. Extra arguments go to cfn-lint.
set -euo pipefail
source "$(dirname "${BASH_SOURCE[0]}")/venv.sh"
ensure_venv cfn requirements-cfn.txt cfn-lint
cd "$root"
exec "$root/.venv-cfn/bin/cfn-lint" "$@" -- template.yaml
