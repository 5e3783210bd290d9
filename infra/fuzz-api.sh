#!/usr/bin/env bash
# API fuzzing pass: schemathesis against a running `vendfleet serve`, over /api/openapi.json.
#
#   infra/fuzz-api.sh [EXTRA SCHEMATHESIS ARGS...]
#
# Installs schemathesis into .venv-schemathesis (repository root) when it is missing, builds the
# debug `vendfleet`, makes an administrator and the demo fleet in a temporary data directory,
# serves it on a free loopback port, signs in once and runs schemathesis with the administrator's
# bearer token. Checks: no 5xx for any input; every answer matches the status codes, headers,
# content types and schemas the document declares; secured operations refuse a missing or bad
# token; an undeclared method answers 405; then, on the report generator's, the query scheduler's and
# the operator policy's operations, valid data is never refused (the server is not stricter than
# the schema). Sign-in (`POST /auth/token/`) is left out so its rate
# limit cannot lock the administrator out; the server itself refuses to let the administrator
# deactivate, delete or demote themselves, and the run fails if its token stopped working.
# Exits non-zero on any failure or when the run outlasts its time limit.
#
# Environment: FUZZ_MAX_EXAMPLES (per operation, default 30), FUZZ_TIMEOUT (hard limit of each
# schemathesis run in seconds, default 480; the whole run takes about 2.5 minutes on 2 idle
# cores), FUZZ_SEED (repeat a run's generation), VENDFLEET_BIN (a built binary; otherwise the
# debug one is built), CARGO.
# Extra arguments go to `schemathesis run` (e.g. --include-path-regex '^/api/users/').
# Replaying a failure: the report prints a curl command for each.
set -euo pipefail

source "$(dirname "${BASH_SOURCE[0]}")/venv.sh"
venv="$root/.venv-schemathesis"
cargo="${CARGO:-cargo}"
max_examples="${FUZZ_MAX_EXAMPLES:-30}"
run_timeout="${FUZZ_TIMEOUT:-480}"

# Only the virtualenv's schemathesis is trusted: a global one may be of another version or absent.
ensure_venv schemathesis requirements-schemathesis.txt schemathesis

cd "$root"
# `make fuzz-api` passes the binary `cargo test --workspace` built; alone, build one.
if [ -n "${VENDFLEET_BIN:-}" ]; then
    bin="$(realpath "$VENDFLEET_BIN")"
else
    "$cargo" build -p vendfleet-local
    bin="$root/target/debug/vendfleet"
fi

data="$(mktemp -d "${TMPDIR:-/tmp}/vendfleet-fuzz.XXXXXX")"
log="$data/serve.log"
server_pid=""
stop_server() {
    if [ -n "$server_pid" ] && kill -0 "$server_pid" 2>/dev/null; then
        kill "$server_pid" 2>/dev/null || true
        wait "$server_pid" 2>/dev/null || true
    fi
    rm -rf "$data"
}
trap stop_server EXIT
trap 'exit 130' INT
trap 'exit 143' TERM

email="fuzz-admin@vendfleet.local"
password="$("$venv/bin/python" -c 'import secrets; print(secrets.token_urlsafe(18))')"
"$bin" create-admin --data "$data" --email "$email" --password="$password" >/dev/null
"$bin" seed-demo --data "$data" --email "$email" --machines 10 --days 7 >/dev/null

# An access token that outlives the run; the server picks a free port and prints its address.
VENDFLEET_ACCESS_TTL_SECS=3600 RUST_LOG="${RUST_LOG:-warn}" \
    "$bin" serve --data "$data" --port 0 --web none >"$log" 2>&1 &
server_pid=$!

base=""
served() {
    base="$(sed -n 's|^Vendfleet is serving \(http://[0-9.:]*\)/.*|\1|p' "$log" | head -n 1)"
    [ -n "$base" ]
}
await_start "fuzz-api: vendfleet serve" "$server_pid" "$log" served

# Signs in once; prints the access token.
token="$("$venv/bin/python" - "$base" "$email" "$password" <<'PY'
import json, sys, urllib.request
base, email, password = sys.argv[1:4]
req = urllib.request.Request(
    base + "/auth/token/",
    data=json.dumps({"email": email, "password": password}).encode(),
    headers={"Content-Type": "application/json"},
)
with urllib.request.urlopen(req, timeout=10) as r:
    print(json.load(r)["data"]["token"]["access"])
PY
)"

# Every check of the contract; not the two that need the schema to predict the server's
# business rules (positive_data_acceptance: a valid body may still name an unknown id;
# negative_data_rejection: the server trims and defaults where the schema is strict).
checks=not_a_server_error,status_code_conformance,content_type_conformance,response_headers_conformance,response_schema_conformance,unsupported_method,ignored_auth

seed_args=()
if [ -n "${FUZZ_SEED:-}" ]; then
    seed_args=(--seed "$FUZZ_SEED")
fi

echo "fuzz-api: schemathesis against $base (at most ${max_examples} examples per operation, ${run_timeout} s)" >&2
status=0
# One schemathesis run with these arguments, from the temporary directory (schemathesis keeps a
# cache in ./.schemathesis), within the time limit.
schemathesis_run() {
    (cd "$data" && timeout --kill-after=10 "$run_timeout" \
        "$venv/bin/schemathesis" run "$base/api/openapi.json" \
        --header "Authorization: Bearer $token" \
        --max-examples "$max_examples" \
        --workers 2 \
        --request-timeout 10 \
        --generation-database none \
        --no-color \
        --warnings off \
        "${seed_args[@]}" \
        "$@")
}
schemathesis_run --checks "$checks" --exclude-path /auth/token/ "$@" || status=$?

if [ "$status" -eq 124 ] || [ "$status" -eq 137 ]; then
    echo "fuzz-api: schemathesis did not finish within ${run_timeout} s" >&2
fi

# The server is never stricter than the schema, where the schema can say everything the server
# checks (enums, limits, patterns): valid data only, and a 400/413/415/422 for it fails the run.
# The report generator's and the query scheduler's lists, columns and status changes, template
# copies, and the operator's policy.
positive_operations='^(list_templates|list_reports|columns|copy_template|change_status|list_tasks|change_task_status|operator_settings|update_operator_settings)$'
if [ "$status" -eq 0 ]; then
    echo "fuzz-api: valid data is accepted (positive_data_acceptance) on the generator, scheduler and policy operations" >&2
    schemathesis_run --checks not_a_server_error,positive_data_acceptance --mode positive \
        --include-operation-id-regex "$positive_operations" || status=$?
fi

# The run must not have locked the administrator out (a revoked token turns every later case into
# a 401 and the run into a pass that tested nothing).
still_signed_in="$("$venv/bin/python" - "$base" "$token" <<'PY'
import sys, urllib.error, urllib.request
base, token = sys.argv[1:3]
req = urllib.request.Request(base + "/api/users/me/", headers={"Authorization": "Bearer " + token})
try:
    with urllib.request.urlopen(req, timeout=10) as r:
        print(r.status)
except urllib.error.HTTPError as e:
    print(e.code)
PY
)"
if [ "$still_signed_in" != "200" ]; then
    echo "fuzz-api: the administrator's token no longer works after the run (GET /api/users/me/ answered $still_signed_in)" >&2
    status=1
fi

if ! kill -0 "$server_pid" 2>/dev/null; then
    echo "fuzz-api: vendfleet serve died during the run:" >&2
    status=1
fi
if grep -q "internal error" "$log"; then
    echo "fuzz-api: the server logged internal errors:" >&2
    grep "internal error" "$log" | head -n 20 >&2
fi
exit "$status"
