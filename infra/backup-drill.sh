#!/usr/bin/env bash
# The restore drill of README "Backups", run by `make test` on the real binary: a seeded server
# serving under Litestream (infra/litestream.sh) takes a load of signed webhook events while
# `vendfleet backup` copies it; then the archive is restored (and a second restore into the same
# directory refused), and Litestream's replica is restored too. Both copies must be whole
# (integrity check), the archive's must hold at least what was answered before it began, and
# Litestream's everything the server took before it stopped.
set -euo pipefail
. "$(dirname "$0")/venv.sh"
bin="${VENDFLEET_BIN:-$root/target/debug/vendfleet}"
bin="$(cd "$(dirname "$bin")" && pwd)/$(basename "$bin")"
work="$(mktemp -d)"
trap 'kill "$server" 2>/dev/null || true; rm -rf "$work"' EXIT
data="$work/data"
export RUST_LOG=warn

"$bin" create-admin --data "$data" --email drill@vendfleet.test --password drill-password-1 >/dev/null
"$bin" seed-demo --data "$data" --machines 6 --days 5 --seed 3 >/dev/null

VENDFLEET_BIN="$bin" VENDFLEET_DATA="$data" "$root/infra/litestream.sh" replicate "file://$work/replica" --port 0 --web "$work/no-web" > "$work/server.log" 2>&1 &
server=$!
serving() { grep -o 'http://127.0.0.1:[0-9]*' "$work/server.log" >/dev/null; }
await_start "vendfleet under litestream" "$server" "$work/server.log" serving
url="$(grep -o 'http://127.0.0.1:[0-9]*' "$work/server.log" | head -1)"

counts() { # DB: receipts and ledger revenue
    python3 - "$1" <<'PY'
import sqlite3, sys
c = sqlite3.connect(f"file:{sys.argv[1]}?mode=ro", uri=True)
ok = c.execute("PRAGMA integrity_check").fetchone()[0]
n = c.execute("SELECT count(*) FROM event_receipts").fetchone()[0]
rev = c.execute("SELECT coalesce(sum(revenue), 0) FROM sales_ledger").fetchone()[0]
day = c.execute("SELECT coalesce(sum(rev), 0) FROM sales_fleet_day").fetchone()[0]
print(ok, n, rev, day)
PY
}
ready="$(python3 -c "import urllib.request,sys; print(urllib.request.urlopen(sys.argv[1] + '/readyz').read().decode())" "$url")"
echo "readyz: $ready"
grep -q '"status":"ready"' <<<"$ready"

before="$(counts "$data/vendfleet.db")"
"$bin" simulate --url "$url" --data "$data" --rate 120 --duration 6 > "$work/load.log" &
load=$!
sleep 2
"$bin" backup --data "$data" --to "$work/backups"
wait "$load"
tail -1 "$work/load.log"
grep -q ' 0 failed requests' "$work/load.log"
kill -TERM "$server"
wait "$server" || true
live="$(counts "$data/vendfleet.db")"

archive="$(ls "$work"/backups/vendfleet-backup-*.tar.gz)"
"$bin" restore --from "$archive" --data "$work/restored"
if "$bin" restore --from "$archive" --data "$work/restored" 2>"$work/refused.log"; then
    echo "a restore into a non-empty directory was not refused" >&2
    exit 1
fi
grep -q "is not empty" "$work/refused.log"
restored="$(counts "$work/restored/vendfleet.db")"

"$root/infra/litestream.sh" restore "file://$work/replica" "$work/replicated" >/dev/null
replicated="$(counts "$work/replicated/vendfleet.db")"

echo "seeded:         $before"
echo "archive:        $restored"
echo "live at stop:   $live"
echo "litestream:     $replicated"
python3 - "$before" "$restored" "$live" "$replicated" <<'PY'
import sys
before, archive, live, replica = (s.split() for s in sys.argv[1:])
for name, c in [("archive", archive), ("live", live), ("litestream", replica)]:
    assert c[0] == "ok", f"{name}: integrity {c[0]}"
    assert c[2] == c[3], f"{name}: ledger revenue {c[2]} against the fleet rollups' {c[3]}"
assert int(before[1]) <= int(archive[1]) <= int(live[1]), "the archive is not between the seed and the end"
assert replica[1:] == live[1:], f"litestream's replica {replica} differs from the live database {live}"
assert int(live[1]) > int(before[1]), "the load wrote nothing"
PY
echo "backup drill: ok"
