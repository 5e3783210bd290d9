//! The DuckDB side of the random bench: each drawn query as SQL over the pre-joined ledger.

use super::draw::{previous, Drawn, Kind, Who};
use chrono::NaiveDate;

fn date(d: NaiveDate) -> String {
    format!("DATE '{d}'")
}

fn list(ids: &[String]) -> String {
    let quoted: Vec<String> = ids
        .iter()
        .map(|i| format!("'{}'", i.replace('\'', "''")))
        .collect();
    quoted.join(", ")
}

/// The scope and filters as a condition on the pre-joined ledger (tags through the small
/// `machines` and `products` tables rather than the ledger's lists: much faster).
fn filters(q: &Drawn, who: &Who) -> String {
    let mut out = Vec::new();
    if who.scope.is_some() {
        out.push(format!("machine IN (SELECT machine FROM {})", who.label));
    }
    let mut products = Vec::new();
    for (f, ids) in &q.filters {
        let ids_sql = list(ids);
        match *f {
            "clients" => out.push(format!("client IN ({ids_sql})")),
            "locations" => out.push(format!("location IN ({ids_sql})")),
            "regions" => out.push(format!("region IN ({ids_sql})")),
            "machines" => out.push(format!("machine IN ({ids_sql})")),
            "machine_tags" => out.push(format!(
                "machine IN (SELECT machine FROM machines \
                 WHERE list_has_any(mtags, [{ids_sql}]::mtag_t[]))"
            )),
            "products" => products.push(format!("product IN ({ids_sql})")),
            _ => products.push(format!(
                "product IN (SELECT product FROM products \
                 WHERE list_has_any(ptags, [{ids_sql}]::ptag_t[]))"
            )),
        }
    }
    if !products.is_empty() {
        out.push(format!("({})", products.join(" OR ")));
    }
    out.iter().map(|c| format!(" AND {c}")).collect()
}

/// The ledger's column a query groups by first (`k`): the group itself, or the product or
/// machine whose tags are the groups.
fn key(q: &Drawn) -> &'static str {
    match q.group_by {
        "location" => "location",
        "client" => "client",
        "product" | "product_tag" => "product",
        _ => "machine",
    }
}

/// The rows of `s` (keyed `k`) with their group `g`: for tags, each row once in each of
/// its key's tags (NULL without any) through the small `*tag_map` tables, so that DuckDB
/// aggregates by product or machine before spreading to tags.
fn spread(q: &Drawn, s: &str) -> String {
    match q.group_by {
        "product_tag" => format!("(SELECT m.g, {s}.* FROM {s} JOIN ptag_map m ON m.k = {s}.k)"),
        "machine_tag" => format!("(SELECT m.g, {s}.* FROM {s} JOIN mtag_map m ON m.k = {s}.k)"),
        _ => format!("(SELECT k AS g, * FROM {s})"),
    }
}

fn value(q: &Drawn) -> &'static str {
    match q.value {
        "quantity" => "quantity",
        "sales_excl_tax" => "net",
        _ => "revenue",
    }
}

fn bucket(q: &Drawn) -> &'static str {
    match q.grouping {
        "week" => "CAST(date_trunc('week', d) AS DATE)",
        "month" => "CAST(date_trunc('month', d) AS DATE)",
        _ => "d",
    }
}

/// The five figures of the sales (class 0) where `cond`, named `{prefix}0` to `{prefix}4`.
fn named_figures(cond: &str, prefix: &str) -> String {
    figure_list(cond)
        .iter()
        .enumerate()
        .map(|(i, e)| format!("{e} AS {prefix}{i}"))
        .collect::<Vec<_>>()
        .join(", ")
}

/// The sums of `named_figures`' columns of both spans.
fn summed() -> String {
    let cols: Vec<String> = ["c", "p"]
        .iter()
        .flat_map(|p| (0..5).map(move |i| format!("sum({p}{i})")))
        .collect();
    cols.join(", ")
}

/// The five figures of the sales (class 0) where `cond`.
fn figures(cond: &str) -> String {
    figure_list(cond).join(", ")
}

fn figure_list(cond: &str) -> [String; 5] {
    let sum = |col: &str, extra: &str| {
        format!("coalesce(sum({col}) FILTER (WHERE class = 0{extra} AND {cond}), 0)")
    };
    [
        sum("quantity", ""),
        sum("revenue", ""),
        sum("net", ""),
        sum("revenue", " AND payment = 0"),
        sum("revenue", " AND payment = 1"),
    ]
}

/// Ranks the groups of `from` (`id`, value `c`) as the app does: by value, largest first,
/// then by name ("—" for no group, the id for a group without a name), then id; `i` from 0.
fn ranked(kind: &str, from: &str) -> String {
    format!(
        "SELECT grp.*, row_number() OVER (ORDER BY c DESC, \
         coalesce(n.name, CASE WHEN grp.id = '' THEN '—' ELSE grp.id END), grp.id) - 1 AS i \
         FROM {from} AS grp LEFT JOIN names n ON n.kind = '{kind}' AND n.id = grp.id"
    )
}

/// The statements answering `q` as rows of (key, integers…) in the shape of `super::ours`.
pub(super) fn of(q: &Drawn, who: &Who, today: NaiveDate) -> Vec<String> {
    let (pfrom, pto) = previous(q.from, q.to);
    let f = filters(q, who);
    let (from, to) = (date(q.from), date(q.to));
    let both = format!(
        "(d BETWEEN {from} AND {to} OR d BETWEEN {} AND {}){f}",
        date(pfrom),
        date(pto)
    );
    let (k, v) = (key(q), value(q));
    match q.kind {
        Kind::TotalTable => vec![format!(
            "WITH s AS (SELECT {k} AS k, {}, {}, bool_or(d >= {from}) AS seen FROM ledger \
             WHERE {both} GROUP BY k) \
             SELECT 'row:' || coalesce(g::VARCHAR, ''), {sums} FROM {} GROUP BY g \
             HAVING bool_or(seen) \
             UNION ALL SELECT 'total', {sums} FROM s",
            named_figures(&format!("d >= {from}"), "c"),
            named_figures(&format!("d < {from}"), "p"),
            spread(q, "s"),
            sums = summed(),
        )],
        Kind::DetailTable => {
            let off = (q.page - 1) * q.page_size;
            let end = off + q.page_size;
            vec![format!(
                "WITH s AS (SELECT {k} AS k, {} AS bk, \
                 coalesce(sum({v}) FILTER (WHERE class = 0), 0) AS v FROM ledger \
                 WHERE d BETWEEN {from} AND {to}{f} GROUP BY k, bk), \
                 cells AS (SELECT g, bk, sum(v) AS v FROM {} GROUP BY g, bk), \
                 grp AS (SELECT g, coalesce(g::VARCHAR, '') AS id, sum(v) AS total \
                 FROM cells GROUP BY g), \
                 page AS (SELECT * FROM (SELECT *, row_number() OVER \
                 (ORDER BY total DESC, id) - 1 AS i FROM grp) WHERE i >= {off} AND i < {end}) \
                 SELECT printf('%04d:', i - {off}) || id, total FROM page \
                 UNION ALL SELECT page.id || '@' || strftime(cells.bk, '%Y-%m-%d'), cells.v \
                 FROM page JOIN cells ON cells.g IS NOT DISTINCT FROM page.g \
                 WHERE cells.v <> 0 \
                 UNION ALL SELECT 'count', count(*) FROM grp",
                bucket(q),
                spread(q, "s"),
            )]
        }
        Kind::LineChart => vec![format!(
            "SELECT CASE WHEN cur THEN 'c:' ELSE 'p:' END || strftime(bk, '%Y-%m-%d'), v \
             FROM (SELECT d >= {from} AS cur, {} AS bk, \
             sum({v}) FILTER (WHERE class = 0) AS v FROM ledger WHERE {both} \
             GROUP BY cur, bk) WHERE v <> 0",
            bucket(q)
        )],
        Kind::BarChart => vec![format!(
            "WITH s AS (SELECT {k} AS k, \
             coalesce(sum({v}) FILTER (WHERE class = 0 AND d >= {from}), 0) AS c, \
             coalesce(sum({v}) FILTER (WHERE class = 0 AND d < {from}), 0) AS p, \
             bool_or(d >= {from}) AS seen FROM ledger WHERE {both} GROUP BY k), \
             grp AS (SELECT coalesce(g::VARCHAR, '') AS id, sum(c) AS c, sum(p) AS p \
             FROM {} GROUP BY g HAVING bool_or(seen)), \
             r AS ({}) \
             SELECT printf('%02d:', i) || id, c, p FROM r WHERE i < 20 \
             UNION ALL SELECT 'others', sum(c), sum(p) FROM r WHERE i >= 20 \
             HAVING count(*) > 0",
            spread(q, "s"),
            ranked(q.group_by, "grp")
        )],
        Kind::TransactionCount => vec![format!(
            "SELECT 'count', count(*) FROM ledger WHERE class = 0 AND d BETWEEN {from} \
             AND {to}{f}"
        )],
        Kind::Dashboard => {
            // The month's five best-selling products or machines (by sales).
            let top = |col: &str, key: &str| {
                let grp = format!(
                    "(SELECT coalesce({col}::VARCHAR, '') AS id, {}, \
                     coalesce(sum(revenue) FILTER (WHERE class = 0), 0) AS c \
                     FROM b WHERE cur GROUP BY {col})",
                    figures("true")
                );
                format!(
                    "SELECT '{key}:' || i::VARCHAR || ':' || id, * EXCLUDE (id, c, i) \
                     FROM ({}) WHERE i < 5",
                    ranked(col, &grp)
                )
            };
            // The span's rows once; the totals and each top list, one statement each.
            let b = format!(
                "WITH b AS (SELECT machine, product, d >= {from} AS cur, d = {} AS today, \
                 quantity, revenue, net, payment, class FROM ledger WHERE {both}) ",
                date(today),
            );
            vec![
                format!("{b}SELECT 'today', {} FROM b", figures("today")),
                format!(
                    "{b}SELECT 'month', {}, {} FROM b",
                    figures("cur"),
                    figures("NOT cur"),
                ),
                format!("{b}{}", top("product", "tp")),
                format!("{b}{}", top("machine", "tm")),
            ]
        }
    }
}
