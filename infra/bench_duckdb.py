"""DuckDB's answer to the report benchmark's queries, over the sales ledger as Parquet.

Called by `vendfleet bench` (make bench) with a JSON request on standard input:

    {"csv": ".../ledger.csv", "parquet": ".../ledger.parquet", "repeat": 20,
     "queries": {"name": {"from": 20260101, "to": 20261122, "by": "month" | "product",
                          "machines": null | ["id", ...], "previous_from": 20251201}}}

The CSV (machine_id, day as yyyymmdd, product_id, quantity, revenue, net, payment 0 cash / 1
cashless, class 0 sale / 1 free / 2 test) is the ledger the bench exported; it becomes Parquet
once (`connect`, which infra/bench_duckdb_random.py shares with `timed`). Each query sums the sales (class 0) of the span by month
or by product, for every machine or the listed ones, `repeat` times; the answer is JSON on
standard output: per query, the median and p95 in milliseconds and the rows
[[key, quantity, revenue], ...] sorted by key. With `previous_from` the query also sums the span
before (previous_from up to from, as the total table answers both), its keys prefixed with
"previous:" and the span's with "current:".
"""

import json
import os
import statistics
import sys
import time

import duckdb


def connect(req: dict) -> "duckdb.DuckDBPyConnection":
    """An in-memory DuckDB on two threads, the request's ledger made Parquet if it is not yet."""
    con = duckdb.connect()
    con.execute("SET threads TO 2")
    parquet = req["parquet"]
    if not os.path.exists(parquet):
        tmp = parquet + ".tmp"
        con.execute(
            "COPY (SELECT * FROM read_csv(?, header = true, columns = {"
            "'machine_id': 'VARCHAR', 'day': 'INTEGER', 'product_id': 'VARCHAR', "
            "'quantity': 'BIGINT', 'revenue': 'BIGINT', 'net': 'BIGINT', 'payment': 'TINYINT', "
            "'class': 'TINYINT'})) TO '" + tmp.replace("'", "''") + "' (FORMAT PARQUET)",
            [req["csv"]],
        )
        os.replace(tmp, parquet)
    return con


def timed(run, warm_up_ms: float, repeat: int):
    """`run()` once, then again for `warm_up_ms` (the warm-up the server's requests get before
    they are timed), then `repeat` timed runs: the times in milliseconds, sorted, and the last
    answer."""
    last = run()
    warm = time.perf_counter()
    while time.perf_counter() - warm < warm_up_ms / 1000:
        last = run()
    samples = []
    for _ in range(repeat):
        t = time.perf_counter()
        last = run()
        samples.append((time.perf_counter() - t) * 1000)
    samples.sort()
    return samples, last


def main() -> None:
    req = json.load(sys.stdin)
    con = connect(req)
    parquet = req["parquet"]
    con.execute(
        "CREATE VIEW ledger AS SELECT * FROM read_parquet('" + parquet.replace("'", "''") + "')"
    )
    out = {}
    for name, q in req["queries"].items():
        key = "day // 100" if q["by"] == "month" else "product_id"
        params = [q["from"], q["to"]]
        if q.get("previous_from"):
            key = (
                f"CASE WHEN day < {int(q['from'])} THEN 'previous:' ELSE 'current:' END"
                f" || CAST({key} AS VARCHAR)"
            )
            params = [q["previous_from"], q["to"]]
        sql = (
            f"SELECT {key} AS k, sum(quantity), sum(revenue) FROM ledger "
            "WHERE class = 0 AND day BETWEEN ? AND ?"
        )
        if q.get("machines"):
            con.execute("CREATE OR REPLACE TEMP TABLE chosen (id VARCHAR)")
            con.executemany("INSERT INTO chosen VALUES (?)", [[m] for m in q["machines"]])
            sql += " AND machine_id IN (SELECT id FROM chosen)"
        sql += " GROUP BY k ORDER BY k"
        samples, rows = timed(
            lambda: con.execute(sql, params).fetchall(), req.get("warm_up_ms", 0), req["repeat"]
        )
        out[name] = {
            "median_ms": statistics.median(samples),
            "p95_ms": samples[min(len(samples) - 1, int(len(samples) * 0.95))],
            "rows": [[str(k), int(qty), int(rev)] for k, qty, rev in rows],
        }
    json.dump(out, sys.stdout)


if __name__ == "__main__":
    main()
