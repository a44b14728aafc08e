# Copied verbatim from shared/bench/baseline_duckdb.py (the steering repo's shared/ folder) so that a clone of this repo can run the benchmark alone.
#!/usr/bin/env python3
"""Reference classification in DuckDB (rules: rules.md).

    python3 baseline_duckdb.py DATA_DIR OUT.sqlite [--threads N] [--materialize]

DuckDB's sqlite extension would have to be downloaded (no network here), so the result is
fetched into Python and written with the stdlib sqlite3 module (one transaction,
journal_mode=OFF, synchronous=OFF); that write is part of the measured wall time.
"""
import argparse
import os
import sqlite3
import sys
import time

import duckdb

FLAGS = ["bought_just_before_cutover", "grandfathered_and_subscribed", "naive_version_trap",
         "billing_retry", "family_shared_only", "missing_original_version"]
CLASSES = ["grandfathered", "subscriber", "lapsed", "new"]
TSFMT = "%Y-%m-%dT%H:%M:%SZ"

SQL = r"""
CREATE MACRO vparts(v) AS list_transform(string_split(v, '.'), lambda x: CAST(x AS BIGINT));
CREATE MACRO vlt(a, b) AS
    list_resize(vparts(a), greatest(len(vparts(a)), len(vparts(b))), 0)
  < list_resize(vparts(b), greatest(len(vparts(a)), len(vparts(b))), 0);

CREATE TEMP TABLE agg AS
WITH t AS (
  SELECT customer_id, transaction_id, product_type, purchase_date, ownership_type, renewal_state,
    (environment = 'production' AND revocation_date IS NULL AND (
        product_type = 'non_consumable'
     OR (product_type = 'auto_renewable' AND (expires_date > $as_of
          OR (renewal_state = 'in_grace_period' AND grace_period_expires_date > $as_of)))
     OR (product_type = 'non_renewing' AND purchase_date + INTERVAL 365 DAY > $as_of)
    )) IS TRUE AS entitled
  FROM tx
)
SELECT customer_id,
  count(*) FILTER (WHERE entitled) AS n_ent,
  count(*) FILTER (WHERE entitled AND ownership_type IS DISTINCT FROM 'family_shared') AS n_ent_own,
  bool_or(product_type IN ('non_consumable', 'auto_renewable', 'non_renewing')) AS durable,
  arg_max(coalesce(renewal_state, ''), (purchase_date, transaction_id))
      FILTER (WHERE product_type = 'auto_renewable') AS last_ar_state
FROM t GROUP BY customer_id;

CREATE TEMP TABLE result AS
WITH c AS (
  SELECT c.customer_id, c.original_app_version AS v, c.original_purchase_date AS opd,
    (c.environment = 'production' AND c.original_app_version IS NOT NULL
      AND vlt(c.original_app_version, '2.0')) IS TRUE AS gf,
    coalesce(a.n_ent, 0) AS n_ent, coalesce(a.n_ent_own, 0) AS n_ent_own,
    coalesce(a.durable, false) AS durable, a.last_ar_state
  FROM cust c LEFT JOIN agg a USING (customer_id)
)
SELECT customer_id,
  CASE WHEN gf THEN 'grandfathered' WHEN n_ent > 0 THEN 'subscriber'
       WHEN durable THEN 'lapsed' ELSE 'new' END AS class,
  concat_ws(',',
    CASE WHEN opd >= $cutover - INTERVAL 24 HOUR AND opd < $cutover
         THEN 'bought_just_before_cutover' END,
    CASE WHEN gf AND n_ent > 0 THEN 'grandfathered_and_subscribed' END,
    CASE WHEN v IS NOT NULL AND (v < '2.0') <> vlt(v, '2.0') THEN 'naive_version_trap' END,
    CASE WHEN n_ent = 0 AND last_ar_state = 'in_billing_retry' THEN 'billing_retry' END,
    CASE WHEN n_ent > 0 AND n_ent_own = 0 THEN 'family_shared_only' END,
    CASE WHEN v IS NULL THEN 'missing_original_version' END) AS flags
FROM c;
"""


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("data")
    ap.add_argument("out")
    ap.add_argument("--threads", type=int, default=0)
    ap.add_argument("--materialize", action="store_true")
    a = ap.parse_args()
    t0 = time.time()
    con = duckdb.connect()
    if a.threads:
        con.execute("SET threads = %d" % a.threads)
    def q(x):
        return "'" + x.replace("'", "''") + "'"
    cols = ["transaction_id", "original_transaction_id", "customer_id", "product_id",
            "product_type", "purchase_date", "expires_date", "revocation_date", "ownership_type",
            "environment", "price", "currency", "renewal_state", "grace_period_expires_date"]
    ts_cols = {"purchase_date", "expires_date", "revocation_date", "grace_period_expires_date"}
    colspec = "{" + ", ".join("%s: %s" % (q(c), q("TIMESTAMP" if c in ts_cols else "VARCHAR"))
                              for c in cols) + "}"
    # all columns VARCHAR except the timestamps; empty field -> NULL.  Default: views over
    # read_csv, so DuckDB streams the CSV once with projection pushdown; --materialize copies
    # both files into temp tables first (slower, more memory).
    kind = "TEMP TABLE" if a.materialize else "VIEW"
    con.execute(
        "CREATE %s cust AS SELECT customer_id, original_app_version, environment, "
        "strptime(original_purchase_date, %s) AS original_purchase_date "
        "FROM read_csv(%s, header=true, all_varchar=true)"
        % (kind, q(TSFMT), q(os.path.join(a.data, "customers.csv"))))
    con.execute(
        "CREATE %s tx AS SELECT * FROM read_csv(%s, header=true, timestampformat=%s, columns=%s)"
        % (kind, q(os.path.join(a.data, "transactions.csv")), q(TSFMT), colspec))
    t_load = time.time()
    sql = SQL.replace("$as_of", "TIMESTAMP '2026-11-01 00:00:00'").replace(
        "$cutover", "TIMESTAMP '2024-03-01 00:00:00'")
    for stmt in [s for s in sql.split(";") if s.strip()]:
        con.execute(stmt)
    t_sql = time.time()

    if os.path.exists(a.out):
        os.remove(a.out)
    db = sqlite3.connect(a.out, isolation_level=None)
    db.execute("PRAGMA journal_mode=OFF")
    db.execute("PRAGMA synchronous=OFF")
    db.execute("CREATE TABLE classification(customer_id TEXT PRIMARY KEY, class TEXT, flags TEXT)")
    db.execute("BEGIN")
    cur = con.execute("SELECT customer_id, class, flags FROM result")
    n = 0
    while True:
        rows = cur.fetchmany(100000)
        if not rows:
            break
        db.executemany("INSERT INTO classification VALUES (?,?,?)", rows)
        n += len(rows)
    db.execute("COMMIT")
    db.close()
    t_write = time.time()

    print("rows=%d" % n)
    counts = dict(con.execute("SELECT class, count(*) FROM result GROUP BY 1").fetchall())
    for c in CLASSES:
        print("class %-30s %d" % (c, counts.get(c, 0)))
    for f in FLAGS:
        k = con.execute("SELECT count(*) FROM result WHERE list_contains(string_split(flags, ','), ?)",
                        [f]).fetchone()[0]
        print("flag  %-30s %d" % (f, k))
    sys.stdout.flush()
    print("timing load=%.2fs classify=%.2fs sqlite_write=%.2fs total=%.2fs" % (
        t_load - t0, t_sql - t_load, t_write - t_sql, time.time() - t0), file=sys.stderr)


if __name__ == "__main__":
    main()
