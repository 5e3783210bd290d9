"""DuckDB's answers to `vendfleet bench --random` (#28), in one warm in-memory process.

Called with a JSON request on standard input:

    {"csv": ".../ledger-v2.csv", "parquet": ".../ledger-v2.parquet", "warm_up_ms": 500,
     "repeat": 5,
     "dims": {"machines": [[id, location, client, region, [tag, ...]], ...],
              "products": [[id, [tag, ...]], ...],
              "names": [[group_by, id, name], ...]},
     "scopes": {"scope_50": [machine id, ...], ...},
     "queries": [[sql, ...], ...]}

DuckDB's best shot, built once before any query (untimed): the ledger (bench_duckdb.py's
Parquet) in an in-memory table, joined with each machine's current location, client, region
and tags and each product's tags, ids as ENUM types, sorted by day; `machines` and
`products` (their tags, for the tag filters), `ptag_map` and `mtag_map` (a row per product or
machine and tag, for grouping by tag), `names` (the groups' names) and one table a scoped user
(`scope_N`, its machines). Each query's statements run
once, again for `warm_up_ms`, then `repeat` times; the answer on standard output is
{"rows": ledger rows, "setup_s": seconds, "answers": [{"median_ms", "rows": [[key, int, ...]]}
or {"error"}]}.
"""

import json
import statistics
import sys
import time

from bench_duckdb import connect, timed


def enum(con, name: str, values) -> None:
    values = sorted({v for v in values if v is not None})
    con.execute(f"CREATE TYPE {name} AS ENUM ("
                + ", ".join("'" + v.replace("'", "''") + "'" for v in values) + ")")


def main() -> None:
    req = json.load(sys.stdin)
    started = time.perf_counter()
    con = connect(req)
    parquet = req["parquet"].replace("'", "''")
    dims = req["dims"]
    machines, products = dims["machines"], dims["products"]
    ledger_products = [r[0] for r in con.execute(
        f"SELECT DISTINCT product_id FROM read_parquet('{parquet}')").fetchall()]
    enum(con, "machine_t", [m[0] for m in machines])
    enum(con, "product_t", [p[0] for p in products] + ledger_products)
    enum(con, "location_t", [m[1] for m in machines])
    enum(con, "client_t", [m[2] for m in machines])
    enum(con, "region_t", [m[3] for m in machines])
    enum(con, "mtag_t", [t for m in machines for t in m[4]])
    enum(con, "ptag_t", [t for p in products for t in p[1]])
    con.execute("CREATE TABLE machines (id VARCHAR, machine machine_t, location location_t, "
                "client client_t, region region_t, mtags mtag_t[])")
    con.executemany("INSERT INTO machines VALUES (?, ?, ?, ?, ?, ?)",
                    [[m[0], m[0], m[1], m[2], m[3], m[4]] for m in machines])
    con.execute("CREATE TABLE products (id VARCHAR, product product_t, ptags ptag_t[])")
    con.executemany("INSERT INTO products VALUES (?, ?, ?)",
                    [[p[0], p[0], p[1]] for p in products])
    con.execute("CREATE TABLE names (kind VARCHAR, id VARCHAR, name VARCHAR)")
    con.executemany("INSERT INTO names VALUES (?, ?, ?)", dims["names"])
    for name, ids in req["scopes"].items():
        con.execute(f"CREATE TABLE {name} (machine machine_t)")
        con.executemany(f"INSERT INTO {name} VALUES (?)", [[i] for i in ids])
    con.execute(
        "CREATE TABLE ledger AS SELECT m.machine, "
        "make_date(l.day // 10000, (l.day // 100) % 100, l.day % 100) AS d, "
        "l.product_id::product_t AS product, coalesce(p.ptags, []::ptag_t[]) AS ptags, "
        "m.location, m.client, m.region, m.mtags, l.quantity::INTEGER AS quantity, l.revenue, "
        "l.net, l.payment, l.class "
        f"FROM read_parquet('{parquet}') l JOIN machines m ON m.id = l.machine_id "
        "LEFT JOIN products p ON p.id = l.product_id ORDER BY d"
    )
    # Each product or machine and its tags (a row a tag; one NULL row without any): grouping by
    # tag sums by product or machine first, then spreads the sums to the tags.
    con.execute(
        "CREATE TABLE ptag_map AS SELECT k, unnest(CASE WHEN len(ptags) = 0 "
        "THEN [NULL]::ptag_t[] ELSE ptags END) AS g "
        "FROM (SELECT DISTINCT product AS k, ptags FROM ledger)"
    )
    con.execute(
        "CREATE TABLE mtag_map AS SELECT machine AS k, unnest(CASE WHEN len(mtags) = 0 "
        "THEN [NULL]::mtag_t[] ELSE mtags END) AS g FROM machines"
    )
    rows = con.execute("SELECT count(*) FROM ledger").fetchone()[0]
    out = {"rows": rows, "setup_s": time.perf_counter() - started, "answers": []}

    for statements in req["queries"]:
        def run():
            got = []
            for sql in statements:
                got.extend(con.execute(sql).fetchall())
            return got

        try:
            samples, got = timed(run, req.get("warm_up_ms", 0), req["repeat"])
        except Exception as e:  # noqa: BLE001 - reported with the query's parameters
            out["answers"].append({"error": str(e).splitlines()[0]})
            continue
        out["answers"].append({
            "median_ms": statistics.median(samples),
            "rows": [[str(r[0])] + [int(x or 0) for x in r[1:]] for r in got],
        })
    json.dump(out, sys.stdout)


if __name__ == "__main__":
    main()
