#!/usr/bin/env bash
# Runs `cargo lambda ARGS…` with cargo-lambda from its own virtualenv (.venv-lambda), creating it
# when missing. For `build`, Zig (the arm64 cross-linker) is added to that virtualenv, which goes
# first on PATH: cargo-lambda runs `python3 -m ziglang` from the first python3 there.
set -euo pipefail
source "$(dirname "${BASH_SOURCE[0]}")/venv.sh"
ensure_venv lambda requirements-lambda.txt cargo-lambda
if [ "${1:-}" = build ]; then
    ensure_venv lambda requirements-zig.txt python-zig
fi
export PATH="$root/.venv-lambda/bin:$PATH"
cd "$root"
exec cargo lambda "$@"
