#!/usr/bin/env python3
# Copied verbatim from shared/bench/baseline_duckdb_sde.py (the steering repo's shared/ folder) so that a clone of this repo can run the benchmark alone.
"""Reference classification in DuckDB (rules: rules.md), transactions read from a RevenueCat
Scheduled Data Export (v5 columns) instead of the canonical transactions.csv.

    python3 baseline_duckdb_sde.py DATA_DIR OUT.sqlite [--threads N] [--sde FILE]

The same classes, flags, fixed policy (cutover "2.0" at 2024-03-01T00:00:00Z, as-of
2026-11-01T00:00:00Z, non-renewing term 365 days), output table
`classification(customer_id, class, flags)`, stdout and timing line as baseline_duckdb.py.
Customers come from DATA_DIR/customers.csv (canonical); transactions from FILE (default
DATA_DIR/transactions-sde.csv; a .csv.gz is read as well, DuckDB inflates it).

The export is read with read_csv(all_varchar) and only the columns below are selected, by
name (the export has ~44 columns in any order; projection pushdown skips the rest). An
optional column that the header lacks reads as NULL; rc_original_app_user_id, start_time
and store_transaction_id must be there. Everything is views over read_csv, so DuckDB reads
the file once, as baseline_duckdb.py does. Mapping to the canonical fields (the project's
docs/RevenueCat.md, "RevenueCat files"):

  customer_id      <- rc_original_app_user_id
  transaction_id   <- store_transaction_id; the transaction key is
                      (store_transaction_id, renewal_number): of several deliveries of one
                      key only those with the greatest updated_at are used (QUALIFY rank();
                      a row without updated_at is older than any with one; deliveries with
                      the same updated_at are all kept, as the project keeps them). Rows
                      without store_transaction_id are all kept (never deduplicated).
  purchase_date    <- start_time          expires_date <- end_time
  revocation_date  <- refunded_at         grace_period_expires_date <- grace_period_end_time
  ownership_type   <- lower(ownership_type) (PURCHASED / FAMILY_SHARED, any case)
  environment      <- is_sandbox true => sandbox, else production
  product_type     <- is_auto_renewable true => auto_renewable; else non-empty
                      product_duration => non_renewing; else entitlement_identifiers not
                      empty/'[]'/'{}' => non_consumable; else consumable
  renewal_state    <- refunded_at present => revoked; else grace_period_end_time present =>
                      in_grace_period; else billing_issues_detected_at present =>
                      in_billing_retry; else NULL
Booleans: t/f/true/false in any case (anything else is false). Times: 'YYYY-MM-DD H:MM:SS'
or 'HH:MM:SS' (UTC), also the canonical 'YYYY-MM-DDTHH:MM:SSZ' and fractional seconds
(try_strptime with a list of formats); an unreadable time is NULL (the row is not rejected).

store = 'promotional' (a grant, SPEC §9 as the project's README describes it) is product
type 'promotional', whatever the other columns say: entitled while production, not refunded
and end_time is after as-of or absent; it makes a customer lapsed once ended, as a durable
purchase does; it is no auto-renewable (never the billing_retry subject); and, being unpaid,
it does not count towards grandfathered_and_subscribed (it does count as an entitled,
owned transaction for subscriber and family_shared_only).

What the export cannot say (so where this script and baseline_duckdb.py can differ on the
same data): canonical renewal_state 'expired' has no column (it becomes NULL; no rule here
reads it); a canonical renewal_state in_grace_period / in_billing_retry / revoked follows
from the columns above, so a canonical row whose renewal_state disagrees with its
revocation_date or has no grace_period_expires_date reads differently; exact duplicate rows
of the canonical file are one key here (kept both when updated_at ties).

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

# The export's columns this script reads (the rest are never parsed into values).
SDE_REQUIRED = ["rc_original_app_user_id", "start_time", "store_transaction_id"]
SDE_OPTIONAL = ["renewal_number", "updated_at", "end_time", "refunded_at", "grace_period_end_time",
                "billing_issues_detected_at", "ownership_type", "is_sandbox", "is_auto_renewable",
                "product_duration", "entitlement_identifiers", "store"]

# Export rows mapped to the canonical fields, one row per transaction key's latest delivery.
TX_SQL = r"""
CREATE MACRO sde_ts(x) AS
    try_strptime(x, ['%Y-%m-%d %H:%M:%S', '%Y-%m-%dT%H:%M:%SZ', '%Y-%m-%d %H:%M:%S.%f']);
CREATE MACRO sde_true(x) AS coalesce(lower(trim(x)) IN ('t', 'true'), false);
CREATE MACRO sde_set(x) AS coalesce(trim(x), '') <> '';

CREATE VIEW tx AS
SELECT
  rc_original_app_user_id AS customer_id,
  store_transaction_id AS transaction_id,
  CASE WHEN lower(trim(store)) = 'promotional' THEN 'promotional'
       WHEN sde_true(is_auto_renewable) THEN 'auto_renewable'
       WHEN sde_set(product_duration) THEN 'non_renewing'
       WHEN coalesce(trim(entitlement_identifiers), '') NOT IN ('', '[]', '{}') THEN 'non_consumable'
       ELSE 'consumable' END AS product_type,
  sde_ts(start_time) AS purchase_date,
  sde_ts(end_time) AS expires_date,
  sde_ts(refunded_at) AS revocation_date,
  lower(trim(ownership_type)) AS ownership_type,
  CASE WHEN sde_true(is_sandbox) THEN 'sandbox' ELSE 'production' END AS environment,
  CASE WHEN sde_set(refunded_at) THEN 'revoked'
       WHEN sde_set(grace_period_end_time) THEN 'in_grace_period'
       WHEN sde_set(billing_issues_detected_at) THEN 'in_billing_retry' END AS renewal_state,
  sde_ts(grace_period_end_time) AS grace_period_expires_date,
  try_cast(renewal_number AS BIGINT) AS renewal_no
FROM sde
QUALIFY store_transaction_id IS NULL
     OR rank() OVER (PARTITION BY store_transaction_id, renewal_number
                     ORDER BY sde_ts(updated_at) DESC NULLS LAST) = 1;
"""

# baseline_duckdb.py's SQL; the only additions are the 'promotional' product type (entitled
# like a grant, durable, not paid: n_ent_paid) and renewal_no in the latest-AR tie-break.
SQL = r"""
CREATE MACRO vparts(v) AS list_transform(string_split(v, '.'), lambda x: CAST(x AS BIGINT));
CREATE MACRO vlt(a, b) AS
    list_resize(vparts(a), greatest(len(vparts(a)), len(vparts(b))), 0)
  < list_resize(vparts(b), greatest(len(vparts(a)), len(vparts(b))), 0);

CREATE TEMP TABLE agg AS
WITH t AS (
  SELECT customer_id, transaction_id, renewal_no, product_type, purchase_date, ownership_type,
    renewal_state,
    (environment = 'production' AND revocation_date IS NULL AND (
        product_type = 'non_consumable'
     OR (product_type = 'auto_renewable' AND (expires_date > $as_of
          OR (renewal_state = 'in_grace_period' AND grace_period_expires_date > $as_of)))
     OR (product_type = 'non_renewing' AND purchase_date + INTERVAL 365 DAY > $as_of)
     OR (product_type = 'promotional' AND (expires_date IS NULL OR expires_date > $as_of))
    )) IS TRUE AS entitled
  FROM tx
)
SELECT customer_id,
  count(*) FILTER (WHERE entitled) AS n_ent,
  count(*) FILTER (WHERE entitled AND product_type <> 'promotional') AS n_ent_paid,
  count(*) FILTER (WHERE entitled AND ownership_type IS DISTINCT FROM 'family_shared') AS n_ent_own,
  bool_or(product_type IN ('non_consumable', 'auto_renewable', 'non_renewing', 'promotional')) AS durable,
  arg_max(coalesce(renewal_state, ''), (purchase_date, transaction_id, renewal_no))
      FILTER (WHERE product_type = 'auto_renewable') AS last_ar_state
FROM t GROUP BY customer_id;

CREATE TEMP TABLE result AS
WITH c AS (
  SELECT c.customer_id, c.original_app_version AS v, c.original_purchase_date AS opd,
    (c.environment = 'production' AND c.original_app_version IS NOT NULL
      AND vlt(c.original_app_version, '2.0')) IS TRUE AS gf,
    coalesce(a.n_ent, 0) AS n_ent, coalesce(a.n_ent_paid, 0) AS n_ent_paid,
    coalesce(a.n_ent_own, 0) AS n_ent_own,
    coalesce(a.durable, false) AS durable, a.last_ar_state
  FROM cust c LEFT JOIN agg a USING (customer_id)
)
SELECT customer_id,
  CASE WHEN gf THEN 'grandfathered' WHEN n_ent > 0 THEN 'subscriber'
       WHEN durable THEN 'lapsed' ELSE 'new' END AS class,
  concat_ws(',',
    CASE WHEN opd >= $cutover - INTERVAL 24 HOUR AND opd < $cutover
         THEN 'bought_just_before_cutover' END,
    CASE WHEN gf AND n_ent_paid > 0 THEN 'grandfathered_and_subscribed' END,
    CASE WHEN v IS NOT NULL AND (v < '2.0') <> vlt(v, '2.0') THEN 'naive_version_trap' END,
    CASE WHEN n_ent = 0 AND last_ar_state = 'in_billing_retry' THEN 'billing_retry' END,
    CASE WHEN n_ent > 0 AND n_ent_own = 0 THEN 'family_shared_only' END,
    CASE WHEN v IS NULL THEN 'missing_original_version' END) AS flags
FROM c;
"""


def statements(sql):
    return [s for s in sql.split(";\n") if s.strip()]


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("data")
    ap.add_argument("out")
    ap.add_argument("--threads", type=int, default=0)
    ap.add_argument("--sde", help="the export (default DATA_DIR/transactions-sde.csv)")
    a = ap.parse_args()
    sde_path = a.sde or os.path.join(a.data, "transactions-sde.csv")
    t0 = time.time()
    con = duckdb.connect()
    if a.threads:
        con.execute("SET threads = %d" % a.threads)

    def q(x):
        return "'" + x.replace("'", "''") + "'"

    def ident(x):
        return '"' + x.replace('"', '""') + '"'

    con.execute(
        "CREATE VIEW cust AS SELECT customer_id, original_app_version, environment, "
        "strptime(original_purchase_date, %s) AS original_purchase_date "
        "FROM read_csv(%s, header=true, all_varchar=true)"
        % (q(TSFMT), q(os.path.join(a.data, "customers.csv"))))
    # Every column VARCHAR, empty field -> NULL; the quote and escape are fixed (the export's
    # JSON attributes are quoted with doubled quotes, which a sniffed sample may not show);
    # the delimiter is sniffed (comma; older exports write semicolons).
    scan = "read_csv(%s, header=true, all_varchar=true, quote='\"', escape='\"')" % q(sde_path)
    header = [r[0] for r in con.execute("DESCRIBE SELECT * FROM " + scan).fetchall()]
    missing = [c for c in SDE_REQUIRED if c not in header]
    if missing:
        sys.exit("%s: not a RevenueCat export, no column %s" % (sde_path, ", ".join(missing)))
    select = ", ".join(ident(c) if c in header else "NULL::VARCHAR AS " + ident(c)
                       for c in SDE_REQUIRED + SDE_OPTIONAL)
    con.execute("CREATE VIEW sde AS SELECT %s FROM %s" % (select, scan))
    for stmt in statements(TX_SQL):
        con.execute(stmt)
    t_load = time.time()
    sql = SQL.replace("$as_of", "TIMESTAMP '2026-11-01 00:00:00'").replace(
        "$cutover", "TIMESTAMP '2024-03-01 00:00:00'")
    for stmt in statements(sql):
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
