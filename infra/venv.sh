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
