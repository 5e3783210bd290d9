#!/usr/bin/env bash
# Off-machine copies of the embedded deployment's database with Litestream, a tool made for
# SQLite: it ships every change of the write-ahead log to a replica (a folder or an S3-compatible
# bucket) within a second. README "Backups" tells when to use it beside `vendfleet backup`.
#
#   infra/litestream.sh replicate REPLICA [vendfleet serve arguments…]
#       serves under Litestream: `litestream replicate -exec "vendfleet serve …"`; the server
#       stops when Litestream does (Ctrl-C) and the reverse
#   infra/litestream.sh restore REPLICA DATA
#       restores the newest state of the database from REPLICA into DATA/vendfleet.db (DATA must
#       not hold a database); DATA's secrets.json and blobs come from a `vendfleet backup`
#       archive or the old directory
#
# REPLICA: file:///path/to/folder or s3://bucket/path (credentials from LITESTREAM_ACCESS_KEY_ID
# and LITESTREAM_SECRET_ACCESS_KEY, or the usual AWS ones; LITESTREAM_ENDPOINT for a
# non-AWS S3). VENDFLEET_BIN (default: the `make run` binary) and VENDFLEET_DATA (default: data).
set -euo pipefail
. "$(dirname "$0")/venv.sh"
ensure_venv litestream requirements-litestream.txt litestream
litestream="$root/.venv-litestream/bin/litestream"

usage() {
    sed -n '2,21p' "$0" >&2
    exit 2
}

config() {
    local db="$1" replica="$2" file
    file="$(mktemp)"
    {
        echo "dbs:"
        echo "  - path: $db"
        echo "    replica:"
        echo "      url: $replica"
        if [ -n "${LITESTREAM_ENDPOINT:-}" ]; then
            echo "      endpoint: $LITESTREAM_ENDPOINT"
            echo "      force-path-style: true"
        fi
    } > "$file"
    echo "$file"
}

[ $# -ge 2 ] || usage
command="$1" replica="$2"
shift 2
case "$command" in
    replicate)
        bin="${VENDFLEET_BIN:-$root/target/first-start/vendfleet}"
        data="${VENDFLEET_DATA:-data}"
        mkdir -p "$data"
        data="$(cd "$data" && pwd)"
        cfg="$(config "$data/vendfleet.db" "$replica")"
        # The server opens (and creates) the database before Litestream's first sync.
        exec "$litestream" replicate -config "$cfg" \
            -exec "$bin serve --data $data $*"
        ;;
    restore)
        [ $# -eq 1 ] || usage
        data="$1"
        mkdir -p "$data"
        data="$(cd "$data" && pwd)"
        if [ -e "$data/vendfleet.db" ]; then
            echo "$data/vendfleet.db exists: restore into a directory without a database" >&2
            exit 1
        fi
        cfg="$(config "$data/vendfleet.db" "$replica")"
        "$litestream" restore -config "$cfg" -o "$data/vendfleet.db" "$data/vendfleet.db"
        echo "Restored $data/vendfleet.db from $replica"
        ;;
    *) usage ;;
esac
