#!/usr/bin/env bash
# Runs a command against a private moto_server (the AWS emulator of the adapter tests).
#
#   infra/with-moto.sh cargo test -p vendfleet-adapters-aws
#
# Installs moto into .venv-moto (repository root) when it is missing, starts moto_server on a
# free loopback port, exports VENDFLEET_TEST_AWS_ENDPOINT and dummy AWS credentials, runs the
# command, stops moto on exit and exits with the command's status.
set -euo pipefail

if [ "$#" -eq 0 ]; then
    echo "usage: infra/with-moto.sh COMMAND [ARGS...]" >&2
    exit 2
fi

source "$(dirname "${BASH_SOURCE[0]}")/venv.sh"
# Only the virtualenv's moto is trusted: a global one may be of another version or absent.
ensure_venv moto requirements-moto.txt moto_server
venv="$root/.venv-moto"

port="$("$venv/bin/python" -c 'import socket; s = socket.socket(); s.bind(("127.0.0.1", 0)); print(s.getsockname()[1]); s.close()')"
endpoint="http://127.0.0.1:$port"
log="$(mktemp "${TMPDIR:-/tmp}/moto-$port.XXXXXX.log")"

"$venv/bin/python" "$root/infra/moto_serve.py" 127.0.0.1 "$port" >"$log" 2>&1 &
moto_pid=$!

stop_moto() {
    if kill -0 "$moto_pid" 2>/dev/null; then
        kill "$moto_pid" 2>/dev/null || true
        wait "$moto_pid" 2>/dev/null || true
    fi
    rm -f "$log"
}
trap stop_moto EXIT
trap 'exit 130' INT
trap 'exit 143' TERM

# Wait up to 20 s for moto to answer.
ready=""
for _ in $(seq 1 100); do
    if ! kill -0 "$moto_pid" 2>/dev/null; then
        echo "with-moto: moto_server exited during start:" >&2
        cat "$log" >&2
        exit 1
    fi
    if "$venv/bin/python" - "$endpoint" <<'PY' 2>/dev/null
import sys, urllib.request
urllib.request.urlopen(sys.argv[1] + "/moto-api/", timeout=1).read()
PY
    then
        ready=1
        break
    fi
    sleep 0.2
done
if [ -z "$ready" ]; then
    echo "with-moto: moto_server did not answer on $endpoint within 20 s:" >&2
    cat "$log" >&2
    exit 1
fi

export VENDFLEET_TEST_AWS_ENDPOINT="$endpoint"
export AWS_ACCESS_KEY_ID=testing
export AWS_SECRET_ACCESS_KEY=testing
export AWS_REGION=us-east-1
export AWS_DEFAULT_REGION=us-east-1
unset AWS_PROFILE AWS_SESSION_TOKEN

status=0
"$@" || status=$?
exit "$status"
