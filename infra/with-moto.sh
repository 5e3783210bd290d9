#!/usr/bin/env bash
# Runs a command against a private moto_server (the AWS emulator of the adapter tests).
#
#   infra/with-moto.sh cargo test -p vendfleet-adapters-aws
#
# Installs moto into .venv-moto (repository root) when it is missing, starts MOTO_SERVERS
# (default 2) moto_servers on free loopback ports, exports VENDFLEET_TEST_AWS_ENDPOINT (the
# first), VENDFLEET_TEST_AWS_ENDPOINTS (all, space-separated) and dummy AWS credentials, runs
# the command, stops moto on exit and exits with the command's status.
set -euo pipefail

if [ "$#" -eq 0 ]; then
    echo "usage: infra/with-moto.sh COMMAND [ARGS...]" >&2
    exit 2
fi

source "$(dirname "${BASH_SOURCE[0]}")/venv.sh"
# Only the virtualenv's moto is trusted: a global one may be of another version or absent.
ensure_venv moto requirements-moto.txt moto_server
venv="$root/.venv-moto"

# moto runs DynamoDB requests one at a time and Python uses one core: several servers let the
# suites' stores work in parallel (each test harness picks one, round robin).
servers="${MOTO_SERVERS:-2}"
pids=()
logs=()
endpoints=()

stop_moto() {
    for pid in "${pids[@]}"; do
        if kill -0 "$pid" 2>/dev/null; then
            kill "$pid" 2>/dev/null || true
            wait "$pid" 2>/dev/null || true
        fi
    done
    rm -f "${logs[@]}"
}
trap stop_moto EXIT
trap 'exit 130' INT
trap 'exit 143' TERM

for _ in $(seq 1 "$servers"); do
    port="$("$venv/bin/python" -c 'import socket; s = socket.socket(); s.bind(("127.0.0.1", 0)); print(s.getsockname()[1]); s.close()')"
    endpoint="http://127.0.0.1:$port"
    log="$(mktemp "${TMPDIR:-/tmp}/moto-$port.XXXXXX.log")"
    "$venv/bin/python" "$root/infra/moto_serve.py" 127.0.0.1 "$port" >"$log" 2>&1 &
    pids+=("$!")
    logs+=("$log")
    endpoints+=("$endpoint")
done

# Wait up to 20 s for each moto to answer.
answers() {
    "$venv/bin/python" - "$1" <<'PY' 2>/dev/null
import sys, urllib.request
urllib.request.urlopen(sys.argv[1] + "/moto-api/", timeout=1).read()
PY
}
for i in "${!pids[@]}"; do
    await_start "with-moto: moto_server on ${endpoints[$i]}" "${pids[$i]}" "${logs[$i]}" \
        answers "${endpoints[$i]}"
done

# One endpoint for the tests that need one; all of them for the harnesses that spread out.
endpoint="${endpoints[0]}"
export VENDFLEET_TEST_AWS_ENDPOINTS="${endpoints[*]}"
export VENDFLEET_TEST_AWS_ENDPOINT="$endpoint"
export AWS_ACCESS_KEY_ID=testing
export AWS_SECRET_ACCESS_KEY=testing
export AWS_REGION=us-east-1
export AWS_DEFAULT_REGION=us-east-1
unset AWS_PROFILE AWS_SESSION_TOKEN

status=0
"$@" || status=$?
exit "$status"
