# Sourced by the infra scripts: `ensure_venv NAME REQUIREMENTS EXECUTABLE` installs
# infra/REQUIREMENTS into the virtualenv $root/.venv-NAME (created if need be) when its
# bin/EXECUTABLE is missing. Each tool has its
# own virtualenv (aws-sam-cli pins an older boto3 than moto wants); none comes from a global
# installation.
root="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"

ensure_venv() {
    local venv="$root/.venv-$1" requirements="$root/infra/$2" executable="$3"
    local python="${PYTHON:-python3}"
    if [ ! -x "$venv/bin/$executable" ]; then
        echo "$executable: installing into $venv" >&2
        if [ ! -x "$venv/bin/python" ] && ! "$python" -m venv "$venv"; then
            rm -rf "$venv"
            echo "'$python -m venv' failed; on Debian/Ubuntu: apt-get install python3-venv" >&2
            exit 1
        fi
        "$venv/bin/python" -m pip install --quiet --disable-pip-version-check --upgrade pip >&2
        "$venv/bin/python" -m pip install --quiet --disable-pip-version-check -r "$requirements" >&2
    fi
}

# `await_start NAME PID LOG CHECK [ARGS...]`: waits up to 20 s for the command CHECK to succeed
# while the process PID runs; when PID exits first, or the time is up, prints LOG and fails.
await_start() {
    local name="$1" pid="$2" log="$3"
    shift 3
    for _ in $(seq 1 100); do
        if ! kill -0 "$pid" 2>/dev/null; then
            echo "$name exited during start:" >&2
            cat "$log" >&2
            exit 1
        fi
        "$@" && return 0
        sleep 0.2
    done
    echo "$name did not start within 20 s:" >&2
    cat "$log" >&2
    exit 1
}
