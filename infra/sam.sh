#!/usr/bin/env bash
# Runs `sam ARGS…` (AWS SAM CLI) from its own virtualenv (.venv-sam), creating it when missing,
# with telemetry off. `sam build` builds each function with cargo-lambda: that virtualenv
# (.venv-lambda, with Zig) is created too, and put first on PATH.
set -euo pipefail
source "$(dirname "${BASH_SOURCE[0]}")/venv.sh"
ensure_venv sam requirements-sam.txt sam
if [ "${1:-}" = build ]; then
    ensure_venv lambda requirements-lambda.txt cargo-lambda
    ensure_venv lambda requirements-zig.txt python-zig
    export PATH="$root/.venv-lambda/bin:$PATH"
fi
export SAM_CLI_TELEMETRY=0
cd "$root"
exec "$root/.venv-sam/bin/sam" "$@"
