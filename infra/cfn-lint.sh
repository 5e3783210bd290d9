#!/usr/bin/env bash
# Lints template.yaml with cfn-lint from its own virtualenv (.venv-cfn), creating it when missing.
# Offline: needs no AWS credentials. Extra arguments go to cfn-lint.
set -euo pipefail

root="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
venv="$root/.venv-cfn"
python="${PYTHON:-python3}"

if [ ! -x "$venv/bin/cfn-lint" ]; then
    echo "cfn-lint: installing into $venv" >&2
    if ! "$python" -m venv "$venv"; then
        rm -rf "$venv"
        echo "$(basename "$0"): '$python -m venv' failed; on Debian/Ubuntu: apt-get install python3-venv" >&2
        exit 1
    fi
    "$venv/bin/python" -m pip install --quiet --disable-pip-version-check --upgrade pip >&2
    "$venv/bin/python" -m pip install --quiet --disable-pip-version-check -r "$root/infra/requirements-cfn.txt" >&2
fi

cd "$root"
exec "$venv/bin/cfn-lint" "$@" -- template.yaml
