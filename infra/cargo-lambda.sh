#!/usr/bin/env bash
# Runs `cargo lambda ARGS…` with cargo-lambda and Zig (the arm64 cross-linker) from their own
# virtualenv (.venv-lambda), creating it when missing. cargo-lambda runs `python3 -m ziglang` from
# the first python3 on PATH, so the virtualenv goes first.
set -euo pipefail
source "$(dirname "${BASH_SOURCE[0]}")/venv.sh"
ensure_venv lambda requirements-lambda.txt cargo-lambda
export PATH="$root/.venv-lambda/bin:$PATH"
cd "$root"
exec cargo lambda "$@"
