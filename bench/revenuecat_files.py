"""The bench's data as RevenueCat holds it, audited against the canonical run (issue 34,
acceptance 1; bench/run.py --revenuecat-files).

The Swift twin (Tests/GrandfatherCoreTests/Inputs/RevenueCat/TwinTests.swift) checks this on a
few thousand customers of its own generator; this is the same idea on the bench's data
(bench/generate.py, default shape), a million customers and ten million transactions:

1. From the canonical files and the canonical run's snapshot it writes what a team holding
   RevenueCat has: a Scheduled Data Export (one row per canonical transactions row), one
   subscriber response per customer of customers.csv (REST v1 `GET /subscribers` bodies,
   JSON Lines, holding the customer's purchases as RevenueCat shows them and RevenueCat's
   view of the canonical run's grants as `entitlements`) and the customer list.
2. It audits (a) the export, the responses and the list together, and compares every
   customer with the canonical run; and (b) the responses and the list alone, compared with
   the canonical run of what responses carry (the "response view", TwinData.responseView:
   of each auto-renewable product a customer has only the latest transaction, every other
   purchase with only what an item of `non_subscriptions` holds), written as canonical
   files and audited.
3. Per customer it compares class, sorted flag codes, and grants (entitlement, source,
   transaction id, end), as TwinVerdict does. A customer is compared unless its canonical
   data holds something RevenueCat's files cannot say, each reason computed from the input
   data alone (TwinGap), never from a difference; the counts are printed per reason.

Both canonical files are loaded into DuckDB and read back once, grouped by customer (a
bucket of customers at a time), so that Python holds one customer's rows at a time: the
response view, the gaps and every file are written from that one pass.
"""
import csv
import json
import operator
import os
import random
import re
import sqlite3
import sys
import time

sys.dont_write_bytecode = True
import generate  # noqa: E402  (bench/generate.py: the columns, the product ids, the dates)
from generate import (TID, OTID, CID, PID, PTYPE, PURCHASE, EXPIRES, REVOKED, OWNER,  # noqa: E402
                      ENV, PRICE, CUR, STATE, GRACE, AR, NR, NC, CONS, SANDBOX)

DAY = generate.DAY
# When RevenueCat last changed every export row, and when every response was asked for: one
# instant for all rows, so that no row supersedes another and the export keeps every
# version of a transaction, as the canonical files do (SPEC §8.23); the responses a day
# later, so that each purchase they hold is the latest delivery of its transaction.
UPDATED_AT = generate.ts(generate.AS_OF - 2 * DAY)
REQUESTED = generate.ts(generate.AS_OF - 1 * DAY)
# When RevenueCat first saw every customer: never read as the app purchase (pitfall 13).
FIRST_SEEN = generate.CUTOVER - 30 * DAY

# Largest subscriber-response file written: the audit reads each such file whole (up to
# 1 GiB, RevenueCatSource.maximumDocumentFileSize), so a million responses go in several.
RESPONSES_PER_FILE_BYTES = 128 << 20

# Why a customer is not compared, TwinGap's reasons in its order (a customer may have
# several); each a bit of a mask.
REASONS = [
    "sandbox customer: RevenueCat has sandbox transactions, never a sandbox customer",
    "orphan: export rows make a customer of their store's platform, and responses name their "
    "customers: RevenueCat has no orphan",
    "platform other than ios and macos: a store says App Store (iOS) or Mac App Store",
    "preorder_date: no RevenueCat field carries it",
    "renewal_state revoked without revocation_date: the export marks a refund by refunded_at alone",
    "refunded and in billing retry: a refunded export row is revoked, and SPEC §8.19 reads the state",
    "grace_period_expires_date without in_grace_period: the export reads a grace end as a grace period",
    "conflicting versions that differ only in a renewal_state the export cannot write, or whose "
    "SPEC §8.19 tie it breaks otherwise",
    "a consumable row of a product other rows give another type: an export row states no type for "
    "a consumable, so it takes its product's (SPEC §9, Product facts)",
    "a transaction id in several versions: a later response holds one, which every export row of "
    "the id is an earlier delivery of",
    "a one-time purchase whose type no response's entitlements tell: a response's item states no "
    "type, and RevenueCat's entitlements name one product each (SPEC §9, Product facts)",
]
(SANDBOX_CUSTOMER, ORPHAN, PLATFORM, PREORDER, REVOKED_WITHOUT_DATE, REFUND_IN_BILLING_RETRY,
 GRACE_OUTSIDE_GRACE_PERIOD, CONFLICT_WRITTEN_OTHERWISE, CONSUMABLE_OF_A_TYPED_PRODUCT,
 VERSIONS_RESOLVED_BY_RESPONSE, ITEM_TYPE_UNSTATED) = (1 << i for i in range(len(REASONS)))

CUSTOMER_FIELDS = ["platform", "original_app_version", "original_purchase_date", "environment",
                   "preorder_date", "storefront"]
# the customers row's values, after the id (CUSTOMER_FIELDS' order)
C_PLATFORM, C_VERSION, C_PURCHASED, C_ENV, C_PREORDER, C_STOREFRONT = range(6)


# ---- the gaps (TwinGap): what RevenueCat's files cannot say of a customer's canonical data

def export_state(t):
    """The renewal state an export row written from t reads back as (ExportTransaction):
    revoked once refunded, else in a grace period with a grace end, else in billing retry."""
    if t[REVOKED]:
        return "revoked"
    if t[GRACE]:
        return "in_grace_period"
    return "in_billing_retry" if t[STATE] == "in_billing_retry" else None


def row_gap(t):
    """Why a row read back from the export may give its customer another result (TwinGap.gap):
    another state is harmless where no rule reads it (subscribed and expired are no state
    to SPEC §4-§8; in_grace_period without a grace end grants nothing; a consumable's state
    and grace are read by no rule)."""
    if t[PTYPE] == CONS:
        return 0
    renewable = t[PTYPE] == AR
    if not t[REVOKED] and t[STATE] == "revoked":
        return REVOKED_WITHOUT_DATE
    if renewable and t[REVOKED] and t[STATE] == "in_billing_retry":
        return REFUND_IN_BILLING_RETRY
    if renewable and not t[REVOKED] and t[GRACE] and t[STATE] != "in_grace_period":
        return GRACE_OUTSIDE_GRACE_PERIOD
    return 0


def conflicts_written_otherwise(versions):
    """Whether the export can change its customer's result through versions, the distinct
    production rows of one transaction id of one customer (TwinGap.conflictsWrittenOtherwise):
    versions alike but for a state the export cannot write are one transaction to it, and of
    auto-renewable versions bought at one instant, SPEC §8.19's latest is the one with the
    greatest state text."""
    if len(versions) < 2:
        return False
    if len({t[:STATE] + (export_state(t),) + t[STATE + 1:] for t in versions}) == 1:
        return True

    def latest_in_billing_retry(states):
        return max(s or "" for s in states) == "in_billing_retry"
    tied = {}
    for t in versions:
        if t[PTYPE] == AR:
            tied.setdefault(t[PURCHASE], []).append(t)
    return any(latest_in_billing_retry(t[STATE] for t in group)
               != latest_in_billing_retry(export_state(t) for t in group)
               for group in tied.values())


def customer_gaps(customer, rows, typed):
    """The gaps of one customer (TwinGap.find, responses holding purchases): customer is its
    customers row (None: an orphan), rows all its transactions rows, sandbox ones too, typed
    the products some row gives a type other than consumable."""
    mask = 0
    if customer is None:
        mask |= ORPHAN
    else:
        if customer[C_ENV] == SANDBOX:
            mask |= SANDBOX_CUSTOMER
        if customer[C_PLATFORM] not in ("ios", "macos"):
            mask |= PLATFORM
        if customer[C_PREORDER]:
            mask |= PREORDER
    versions = {}
    for t in rows:
        versions.setdefault(t[TID], set()).add(t)
        if t[ENV] == SANDBOX:  # sandbox rows are dropped before anything else (SPEC §8.8)
            continue
        mask |= row_gap(t)
        if t[PTYPE] == CONS and t[PID] in typed:
            mask |= CONSUMABLE_OF_A_TYPED_PRODUCT
    for distinct in versions.values():
        if len(distinct) < 2:
            continue
        production = {t for t in distinct if t[ENV] != SANDBOX}
        if production:
            mask |= VERSIONS_RESOLVED_BY_RESPONSE
        if conflicts_written_otherwise(production):
            mask |= CONFLICT_WRITTEN_OTHERWISE
    return mask


# ---- what a response holds (TwinData.purchases, TwinData.responseView)

def latest_renewables(rows):
    """Of each auto-renewable product, the latest row by (purchase_date, transaction_id), the
    first of equals: the one transaction a response's `subscriptions` holds of it."""
    latest = {}
    for t in rows:
        if t[PTYPE] == AR:
            kept = latest.get(t[PID])
            if kept is None or (kept[PURCHASE], kept[TID]) < (t[PURCHASE], t[TID]):
                latest[t[PID]] = t
    return latest


def response_view(rows):
    """What subscriber responses holding their customers' purchases state of rows: of each
    auto-renewable product the latest transaction alone, without the original id a
    subscription has no place for, its state as the response's dates tell it; every other
    purchase with only what an item carries (no expiry, refund, ownership, state or grace)."""
    latest = latest_renewables(rows)
    kept = set()
    view = []
    for t in rows:
        if t[PTYPE] != AR:
            view.append((t[TID], None, t[CID], t[PID], t[PTYPE], t[PURCHASE], None, None,
                         generate.PURCHASED, t[ENV], t[PRICE], t[CUR], None, None))
        elif latest[t[PID]] == t and t[PID] not in kept:
            kept.add(t[PID])
            view.append((t[TID], None) + t[CID:STATE] + (export_state(t), t[GRACE]))
    return view


NUMBER = re.compile(r"-?(0|[1-9][0-9]*)(\.[0-9]+)?\Z")


def jtime(text):
    """A time member's JSON value: the canonical text, or null."""
    return '"%s"' % text if text else "null"


def jprice(t):
    """A purchase's price member, the amount as the number the canonical text spells."""
    if not t[PRICE]:
        return ""
    amount = t[PRICE] if NUMBER.match(t[PRICE]) else json.dumps(t[PRICE])
    return ', "price": {"amount": %s, "currency": %s}' % (
        amount, json.dumps(t[CUR]) if t[CUR] else "null")


def purchases(rows, store):
    """A customer's purchases as a response holds them (TwinData.purchases): `subscriptions`
    keyed by product, the latest transaction of each auto-renewable one; `non_subscriptions`
    every other one, with only what an item carries (FORMATS.md §b)."""
    latest = latest_renewables(rows)
    subscriptions = []
    for product in sorted(latest):
        t = latest[product]
        billing = jtime(t[EXPIRES] or t[PURCHASE]) if t[STATE] == "in_billing_retry" else "null"
        subscriptions.append(
            '%s: {"store": "%s", "store_transaction_id": %s, "purchase_date": %s, "expires_date": %s, '
            '"refunded_at": %s, "grace_period_expires_date": %s, "billing_issues_detected_at": %s, '
            '"is_sandbox": %s, "ownership_type": "%s"%s}' % (
                json.dumps(product), store, json.dumps(t[TID]), jtime(t[PURCHASE]), jtime(t[EXPIRES]),
                jtime(t[REVOKED]), jtime(t[GRACE]), billing, "true" if t[ENV] == SANDBOX else "false",
                t[OWNER].upper(), jprice(t)))
    items = {}
    for t in rows:
        if t[PTYPE] != AR:
            items.setdefault(t[PID], []).append(
                '{"id": %s, "store": "%s", "store_transaction_id": %s, "purchase_date": %s, '
                '"is_sandbox": %s%s}' % (
                    json.dumps("p-" + t[TID]), store, json.dumps(t[TID]), jtime(t[PURCHASE]),
                    "true" if t[ENV] == SANDBOX else "false", jprice(t)))
    listed = ["%s: [%s]" % (json.dumps(p), ", ".join(items[p])) for p in sorted(items)]
    return "{" + ", ".join(subscriptions) + "}", "{" + ", ".join(listed) + "}"


def response_parts(cid, customer, rows, version_as_number):
    """A response without its `entitlements` map: the text before it and after it."""
    version = customer[C_VERSION]
    if not version:
        version_json = "null"
    elif version_as_number and NUMBER.match(version) and version.count(".") <= 1 \
            and not version.startswith("0"):
        version_json = version  # a number, read as its literal text
    else:
        version_json = json.dumps(version)
    store = "mac_app_store" if customer[C_PLATFORM] == "macos" else "app_store"
    subscriptions, items = purchases(rows, store)
    before = ('{"request_date": "%s", "subscriber": {"original_app_user_id": %s, '
              '"original_application_version": %s, "original_purchase_date": %s, "first_seen": "%s", '
              '"entitlements": ' % (REQUESTED, json.dumps(cid), version_json,
                                    jtime(customer[C_PURCHASED]), generate.ts(FIRST_SEEN)))
    after = ', "subscriptions": %s, "non_subscriptions": %s, "other_purchases": {}}}\n' % (
        subscriptions, items)
    return before, after


def entitlements_json(granted):
    """RevenueCat's `entitlements` map: name -> the latest end (null: lifetime) and the
    product of the grant that ends last, when the grant has one."""
    return "{" + ", ".join(
        '%s: {"expires_date": %s%s}' % (json.dumps(name), jtime(end),
                                       ', "product_identifier": %s' % json.dumps(product)
                                       if product else "")
        for name, (end, product) in sorted(granted.items())) + "}"


def active_entitlements(snapshot):
    """RevenueCat's own view of each customer's entitlements as the run's verdict has them
    (TwinTests.activeEntitlements): the latest end of each (None, lifetime, outlasts any
    other), with the product of the grant that ends last, so that the reconciliation of
    the twin raises nothing. Ties go to the first grant in (transaction id) order, which
    puts a grandfathered grant (no product) first."""
    db = sqlite3.connect("file:%s?mode=ro" % snapshot, uri=True)
    granted = {}
    try:
        for cid, name, end, product in db.execute(
                "SELECT customer_id, entitlement, expires_date, product_id FROM entitlements "
                "ORDER BY customer_id, entitlement, coalesce(transaction_id, '')"):
            active = granted.setdefault(cid, {})
            if name not in active:
                active[name] = (end, product)
            elif active[name][0] is not None and (end is None or end > active[name][0]):
                active[name] = (end, product)
    finally:
        db.close()
    return granted


def stated_types(granted):
    """What a response's entitlements say of the type of each product they name: an item of
    it is non-renewing when one of them shows an end, else non-consumable."""
    stated = {}
    for end, product in granted.values():
        if product:
            stated[product] = NR if end is not None or stated.get(product) == NR else NC
    return stated


# ---- the export (TwinExport), written beside the responses

BOOLEANS = [("f", "t"), ("false", "true"), ("FALSE", "TRUE"), ("False", "True")]
ATTRIBUTES = '{"$ip": {"value": "192.0.2.1", "updated_at_ms": 1700000000000}}'


# RevenueCat's Scheduled Data Export v5 columns, in its documented order (FORMATS.md §a): the
# order Export.write lays a row out in, and the --sde copy's (bench/run.py's sde_copy).
EXPORT_COLUMNS = [
    "rc_original_app_user_id", "rc_last_seen_app_user_id_alias", "country", "country_source",
    "product_identifier", "product_display_name", "product_duration", "start_time", "end_time",
    "grace_period_end_time", "effective_end_time", "store", "is_auto_renewable", "is_trial_period",
    "is_in_intro_offer_period", "is_sandbox", "price_in_usd", "purchase_price_in_usd",
    "takehome_percentage", "tax_percentage", "commission_percentage", "store_transaction_id",
    "original_store_transaction_id", "refunded_at", "unsubscribe_detected_at",
    "billing_issues_detected_at", "purchased_currency", "price_in_purchased_currency",
    "purchase_price_in_purchased_currency", "entitlement_identifiers", "renewal_number",
    "is_trial_conversion", "presented_offering", "ownership_type", "reserved_subscriber_attributes",
    "custom_subscriber_attributes", "platform", "experiment_id", "experiment_variant", "updated_at",
    "offer", "offer_type", "first_seen_time", "auto_resume_time"]
NEEDS_QUOTES = re.compile(r'[,"\r\n]')


def cell(text):
    """A CSV field, quoted when it must be."""
    return '"' + text.replace('"', '""') + '"' if NEEDS_QUOTES.search(text) else text


def export_time(text, short):
    """A canonical time as the export writes it, the hour's leading zero dropped when short."""
    if not text:
        return ""
    if short and text[11] == "0":
        return text[:10] + " " + text[12:19]
    return text[:10] + " " + text[11:19]


class Export:
    """A Scheduled Data Export of canonical rows: every v5 column, in an order shuffled once,
    each row's booleans, lists and hours spelled one of the ways the export versions write
    them (by turns), times in UTC `YYYY-MM-DD H:MM:SS`.

    It differs from bench/run.py's sde_copy (the --sde timing copy, which the DuckDB script
    over the export must also read) where the facts must come back whole: a macOS customer's
    rows are the Mac App Store's; every grace end is written (a billing-retry row with one is
    a gap, not a fact dropped); every product that is not consumable lists its entitlement,
    as RevenueCat lists a product's; a non-renewing product's duration is P365D, the bench's
    term (non_renewing_term_days 365), where P1Y would be a calendar year; and every row has
    the one updated_at before the responses'. Rows are laid out by position and joined, not
    through csv.writer: ten million rows of 44 fields."""

    def __init__(self, path, platforms, seed):
        self.platforms = platforms
        order = list(EXPORT_COLUMNS)
        random.Random("revenuecat-export-%d" % seed).shuffle(order)
        self.pick = operator.itemgetter(*[EXPORT_COLUMNS.index(c) for c in order])
        self.file = open(path, "w", newline="", encoding="utf-8")
        self.file.write(",".join(order) + "\n")
        self.rows = 0
        self.attributes = cell(ATTRIBUTES)
        self.updated = [export_time(UPDATED_AT, short) for short in (False, True)]
        self.first_seen = [export_time(generate.ts(FIRST_SEEN), short) for short in (False, True)]

    def write(self, t):
        n = self.rows
        self.rows += 1
        false, true = BOOLEANS[n % 4]
        style = n // 4 % 4
        short = n // 16 % 2
        macos = self.platforms.get(t[CID]) == "macos"
        ptype, price = t[PTYPE], cell(t[PRICE] or "")
        if ptype == CONS:
            entitled = ["", "[]", "{}"][style % 3]
        else:
            entitled = ["{premium}", "[premium]", '["premium"]', "['premium']"][style]
        duration = "P365D" if ptype == NR else \
            ("P1Y" if t[PID] == generate.P_YEARLY else "P1M") if ptype == AR else ""
        paid = "0" if t[REVOKED] and price else price
        customer, product = cell(t[CID]), cell(t[PID])
        values = [
            customer, customer, "US", "from_sdk", product, product, duration,
            export_time(t[PURCHASE], short), export_time(t[EXPIRES], short), export_time(t[GRACE], short),
            export_time(t[REVOKED] or t[GRACE] or t[EXPIRES], short),
            "mac_app_store" if macos else "app_store", true if ptype == AR else false, false, false,
            true if t[ENV] == SANDBOX else false, paid, price, "0.7", "0.0", "0.3",
            cell(t[TID]), cell(t[OTID] or ""), export_time(t[REVOKED], short), "",
            export_time(t[EXPIRES] or t[PURCHASE], short) if t[STATE] == "in_billing_retry" else "",
            cell(t[CUR] or ""), paid, price, entitled, str(n % 3 + 1), false, "default",
            t[OWNER].upper(), self.attributes, "{}", "macOS" if macos else "iOS", "", "",
            self.updated[short], "", "", self.first_seen[short], ""]
        self.file.write(",".join(self.pick(values)) + "\n")

    def close(self):
        self.file.close()


class Responses:
    """Subscriber responses as JSON Lines, in files of at most RESPONSES_PER_FILE_BYTES."""

    def __init__(self, folder, name):
        self.folder, self.name = folder, name
        self.paths = []
        self.file = None
        self.size = 0

    def write(self, line):
        if self.file is None or self.size + len(line) > RESPONSES_PER_FILE_BYTES:
            if self.file:
                self.file.close()
            self.paths.append(os.path.join(self.folder, "%s-%03d.jsonl" % (self.name, len(self.paths) + 1)))
            self.file = open(self.paths[-1], "w", encoding="utf-8")
            self.size = 0
        self.file.write(line)
        self.size += len(line)

    def close(self):
        if self.file:
            self.file.close()
        return self.paths


# ---- reading the canonical files grouped by customer (DuckDB)

def load(con, data, manifest, work):
    """Loads customers.csv and transactions.csv into DuckDB (every value text, empty as
    NULL, each row's line kept, and its customer's bucket: customers_grouped sorts a
    bucket at a time) and checks both row counts against the generator's. Returns the
    number of buckets."""
    counts = manifest["counts"]
    buckets = 1 + (counts["customers_rows"] + counts["transactions_rows"]) // 1_000_000
    con.execute("SET temp_directory = %s" % quote(os.path.join(work, "duckdb-tmp")))
    con.execute("SET preserve_insertion_order = true")
    for table, name in [("cust", "customers.csv"), ("tx", "transactions.csv")]:
        con.execute("CREATE TABLE %s AS SELECT row_number() OVER () AS line, "
                    "hash(customer_id) %% %d AS bucket, * FROM "
                    "read_csv(%s, header=true, all_varchar=true, quote='\"', escape='\"')"
                    % (table, buckets, quote(os.path.join(data, name))))
    got = [con.execute("SELECT count(*) FROM %s" % t).fetchone()[0] for t in ("cust", "tx")]
    if got != [counts["customers_rows"], counts["transactions_rows"]]:
        raise SystemExit("bench: error: DuckDB read %d customers and %d transactions rows; the "
                         "generator wrote %d and %d" % (got[0], got[1], counts["customers_rows"],
                                                        counts["transactions_rows"]))
    shared = con.execute("SELECT count(*) FROM (SELECT transaction_id FROM tx GROUP BY 1 "
                         "HAVING count(DISTINCT customer_id) > 1)").fetchone()[0]
    if shared:
        # The gaps are found customer by customer: a transaction id of several customers
        # would need TwinGap's whole-data grouping, which the default shape never needs.
        raise SystemExit("bench: error: %d transaction ids name several customers; "
                         "--revenuecat-files handles none" % shared)
    return buckets


def quote(text):
    """A SQL string literal."""
    return "'" + text.replace("'", "''") + "'"


def customers_grouped(con, buckets):
    """(customer id, its customers row's values or None, its transactions rows) for every
    customer either file names, bucket by bucket, in customer id order within each (one
    sort of all eleven million rows runs DuckDB out of memory); the first customers row of
    an id only (a later one is rejected or an exact duplicate, SPEC §8.7), transactions in
    file order."""
    nulls = ", ".join(["NULL"] * (len(generate.TRANSACTION_COLUMNS) - len(CUSTOMER_FIELDS)))
    for bucket in range(buckets):
        cur = con.execute(
            "SELECT customer_id, 0 AS kind, line, %s, %s FROM cust WHERE bucket = %d UNION ALL "
            "SELECT customer_id, 1, line, %s FROM tx WHERE bucket = %d ORDER BY customer_id, kind, line"
            % (", ".join(CUSTOMER_FIELDS), nulls, bucket, ", ".join(generate.TRANSACTION_COLUMNS), bucket))
        cid, customer, rows = None, None, []
        while True:
            batch = cur.fetchmany(100_000)
            if not batch:
                break
            for record in batch:
                if record[0] != cid:
                    if cid is not None:
                        yield cid, customer, rows
                    if record[0] is None:
                        raise SystemExit("bench: error: a row without customer_id")
                    cid, customer, rows = record[0], None, []
                if record[1] == 0:
                    if customer is None:
                        customer = record[3:3 + len(CUSTOMER_FIELDS)]
                else:
                    rows.append(record[3:])
        if cid is not None:
            yield cid, customer, rows


# ---- comparing two snapshots customer by customer

def verdicts(snapshot):
    """(customer id, (class, flags, grants), is_orphan) of every customer, in id order: the
    flag codes sorted, each grant `entitlement source transaction end` (TwinVerdict)."""
    db = sqlite3.connect("file:%s?mode=ro" % snapshot, uri=True)
    try:
        for cid, cls, orphan, flags, grants in db.execute(
                "SELECT customer_id, class, is_orphan, "
                "(SELECT group_concat(flag, ' ') FROM customer_flags f WHERE f.customer_id = c.customer_id), "
                "(SELECT group_concat(entitlement || ' ' || source || ' ' || coalesce(transaction_id, '-') "
                "|| ' ' || coalesce(expires_date, '-'), '|') FROM entitlements e "
                "WHERE e.customer_id = c.customer_id) "
                "FROM customers c ORDER BY customer_id"):
            yield cid, (cls, tuple(sorted((flags or "").split())),
                        tuple(sorted(grants.split("|")) if grants else ())), orphan
    finally:
        db.close()


def run_counts(snapshot):
    db = sqlite3.connect("file:%s?mode=ro" % snapshot, uri=True)
    try:
        run = db.execute("SELECT rows_read, rows_accepted, rows_rejected, customers FROM runs "
                         "ORDER BY started_at DESC LIMIT 1").fetchone()
        reasons = db.execute("SELECT file, line, reason FROM rejected_rows ORDER BY file, line "
                             "LIMIT 5").fetchall()
    finally:
        db.close()
    return run, reasons


class Tally:
    """Customers compared and left out, by reason, with what the compared ones exercised."""

    def __init__(self, label):
        self.label = label
        self.customers = self.compared = 0
        self.left_out = [0] * len(REASONS)
        self.classes = {}
        self.flags = {}
        self.differ = []  # (customer id, canonical verdict, twin verdict)
        self.problems = []

    def report(self):
        print("%s: %d customers: %d compared; %d left out, for" % (
            self.label, self.customers, self.compared, self.customers - self.compared))
        for text, n in zip(REASONS, self.left_out):
            print("  %9d %s" % (n, text))
        print("  compared, by class: %s" % ", ".join(
            "%s %d" % (c, self.classes.get(c, 0)) for c in ["grandfathered", "subscriber", "lapsed", "new"]))
        print("  compared, by flag: %s" % ", ".join(
            "%s %d" % kv for kv in sorted(self.flags.items())))
        print("  compared customers that differ: %d" % len(self.differ))


def compare(label, canonical, twin, gaps, orphans_may_go):
    """Compares every canonical customer with the twin's, leaving out those with gaps (each
    reason counted); orphans_may_go: without the export, no file names an orphan."""
    tally = Tally(label)
    twin_rows = verdicts(twin)
    other = next(twin_rows, None)
    for cid, verdict, orphan in verdicts(canonical):
        while other is not None and other[0] < cid:
            tally.problems.append("the twin names %s, which the canonical run does not" % other[0])
            other = next(twin_rows, None)
        twinned = None
        if other is not None and other[0] == cid:
            twinned = other[1]
            other = next(twin_rows, None)
        tally.customers += 1
        mask = gaps.get(cid, 0)
        if bool(orphan) != bool(mask & ORPHAN):
            tally.problems.append("%s: is_orphan %d in the canonical run, not as its files say"
                                  % (cid, orphan))
        if mask:
            for i in range(len(REASONS)):
                if mask >> i & 1:
                    tally.left_out[i] += 1
            if twinned is None and not (mask & VERSIONS_RESOLVED_BY_RESPONSE or
                                        (orphans_may_go and mask & ORPHAN)):
                tally.problems.append("the twin does not name %s" % cid)
            continue
        tally.compared += 1
        tally.classes[verdict[0]] = tally.classes.get(verdict[0], 0) + 1
        for flag in verdict[1]:
            tally.flags[flag] = tally.flags.get(flag, 0) + 1
        if twinned != verdict:
            tally.differ.append((cid, verdict, twinned))
    while other is not None:
        tally.problems.append("the twin names %s, which the canonical run does not" % other[0])
        other = next(twin_rows, None)
    return tally


def describe(verdict):
    if verdict is None:
        return "(missing)"
    return "%s [%s] [%s]" % (verdict[0], ", ".join(verdict[1]), "; ".join(verdict[2]))


def canonical_rows(con, cid, view, most=20):
    """A customer's canonical rows (of the response view when view), by purchase date, for
    a message: the customers row and the first `most` transactions."""
    customer = con.execute("SELECT %s FROM cust WHERE customer_id = ? ORDER BY line LIMIT 1"
                           % ", ".join(CUSTOMER_FIELDS), [cid]).fetchone()
    rows = [tuple(r) for r in con.execute("SELECT %s FROM tx WHERE customer_id = ? ORDER BY line"
                                          % ", ".join(generate.TRANSACTION_COLUMNS), [cid]).fetchall()]
    if view:
        rows = response_view(rows)
    rows.sort(key=lambda t: (t[PURCHASE] or "", t[TID] or ""))
    lines = ["    customers row: %s" % (customer,)]
    lines += ["    transactions row%s: %s" % (" (response view)" if view else "", r) for r in rows[:most]]
    if len(rows) > most:
        lines.append("    ... %d more transactions rows" % (len(rows) - most))
    return "\n".join(lines)


# ---- the check

class Steps:
    """Each step's wall time, printed at the end."""

    def __init__(self):
        self.done = []
        self.t0 = time.monotonic()

    def __call__(self, name):
        now = time.monotonic()
        self.done.append((name, now - self.t0))
        self.t0 = now

    def report(self):
        print()
        print("RevenueCat files, time by step:")
        for name, seconds in self.done:
            print("  %8.1f s  %s" % (seconds, name))


def open_canonical(data, manifest, work):
    """The canonical files in a DuckDB database on disk, within 2 GB of memory (the audits run
    while this process lives); with its number of buckets, the products some row types other
    than consumable, and each customer's platform (its first customers row's)."""
    import duckdb
    database = os.path.join(work, "canonical.duckdb")
    for stale in (database, database + ".wal"):
        if os.path.exists(stale):
            os.remove(stale)
    con = duckdb.connect(database)
    con.execute("SET memory_limit = '2GB'")
    buckets = load(con, data, manifest, work)
    typed = set(r[0] for r in con.execute(
        "SELECT DISTINCT product_id FROM tx WHERE product_type <> 'consumable'").fetchall())
    platforms = dict(con.execute("SELECT customer_id, first(platform ORDER BY line) FROM cust "
                                 "GROUP BY 1").fetchall())
    return con, database, buckets, typed, platforms


class Written:
    """The files one pass over the data writes, and the gaps it finds (customer id -> mask)
    for (a), the export with the responses and the list, and (b), the responses and the list
    alone."""

    def __init__(self, work):
        self.work = work
        self.export = os.path.join(work, "revenuecat-export.csv")
        self.customer_list = os.path.join(work, "customer-list.csv")
        self.view = os.path.join(work, "view-transactions.csv")
        # per customer of (b): its response but the entitlements, and its items
        self.view_items = os.path.join(work, "view-items.jsonl")
        self.responses_a = self.responses_b = []
        self.gaps_a, self.gaps_b = {}, {}


def write_pass(con, buckets, work, granted, platforms, typed, seed):
    """One pass over the data grouped by customer: the export, the responses of (a) (with
    the canonical run's grants), the customer list, the response view as canonical
    transactions, and what (b)'s responses need once the view's run is known."""
    out = Written(work)
    export = Export(out.export, platforms, seed)
    with_export = Responses(work, "subscribers-with-export")
    with open(out.customer_list, "w", newline="", encoding="utf-8") as listed, \
            open(out.view, "w", newline="", encoding="utf-8") as view_file, \
            open(out.view_items, "w", encoding="utf-8") as later:
        lister = csv.writer(listed, lineterminator="\n")
        lister.writerow(["app_user_id", "first_seen_at", "latest_store", "has_made_sandbox_purchase"])
        viewer = csv.writer(view_file, lineterminator="\n")
        viewer.writerow(generate.TRANSACTION_COLUMNS)
        turn = 0
        for cid, customer, rows in customers_grouped(con, buckets):
            for t in rows:
                export.write(t)
            view = response_view(rows)
            viewer.writerows(view)
            mask = customer_gaps(customer, rows, typed)
            if mask:
                out.gaps_a[cid] = mask
            # Every row the view keeps has a product some row of the data types as the data
            # does, so `typed` is the view's too.
            mask = customer_gaps(customer, view, typed)
            if mask:
                out.gaps_b[cid] = mask
            if customer is None:
                continue  # an orphan: no response, no list row
            turn += 1
            before, after = response_parts(cid, customer, rows, turn % 2 == 0)
            with_export.write(before + entitlements_json(granted.get(cid, {})) + after)
            before, after = response_parts(cid, customer, view, turn % 2 == 0)
            later.write(json.dumps([cid, before, after, [(t[PID], t[PTYPE], t[ENV] == SANDBOX)
                                                       for t in view if t[PTYPE] != AR]]) + "\n")
            store = (["Mac App Store", "mac_app_store"] if customer[C_PLATFORM] == "macos"
                     else ["App Store", "app_store"])[turn % 2]
            lister.writerow([cid, "%d%s" % (FIRST_SEEN * 1000, ".0" if turn % 3 == 0 else ""), store,
                             "t" if any(t[ENV] == SANDBOX for t in rows) else "f"])
    export.close()
    out.responses_a = with_export.close()
    return out


def write_responses_alone(out, granted):
    """(b)'s responses, with the view run's grants, and its last gap (TwinGap.itemTypesUnstated):
    an item's product takes the type its customer's entitlements state, else what most
    stated items of the product state (the more durable on a tie), else consumable; a
    production item whose type that is not has a customer RevenueCat's files cannot express.
    Only customers with a response count: no file states an orphan's items."""
    codes = {AR: 0, NR: 1, NC: 2, CONS: 3}
    counts = {}
    with open(out.view_items, encoding="utf-8") as f:
        for line in f:
            cid, _, _, items = json.loads(line)
            stated = stated_types(granted.get(cid, {}))
            for product, _, _ in items:
                if product in stated:
                    by_type = counts.setdefault(product, {})
                    by_type[stated[product]] = by_type.get(stated[product], 0) + 1
    decided = {p: max(by_type.items(), key=lambda kv: (kv[1], -codes[kv[0]]))[0]
               for p, by_type in counts.items()}
    alone = Responses(out.work, "subscribers-alone")
    with open(out.view_items, encoding="utf-8") as f:
        for line in f:
            cid, before, after, items = json.loads(line)
            active = granted.get(cid, {})
            stated = stated_types(active)
            if any(not sandbox and stated.get(product, decided.get(product, CONS)) != ptype
                   for product, ptype, sandbox in items):
                out.gaps_b[cid] = out.gaps_b.get(cid, 0) | ITEM_TYPE_UNSTATED
            alone.write(before + entitlements_json(active) + after)
    out.responses_b = alone.close()


def report_runs(runs):
    """Prints the audits' commands, times and peak memory; whether all exited 0."""
    print()
    print("RevenueCat files (issue 34): the bench's data as RevenueCat holds it")
    for what, cmd, code, wall, rss in runs:
        print("  %s: %.2f s, %.0f MiB%s" % (what, wall, rss, "" if code == 0 else ", EXIT %d" % code))
        print("    " + cmd)
    return all(code == 0 for _, _, code, _, _ in runs)


def report_files(out, snapshots):
    """Prints the files' sizes and each run's rows; whether every run rejected none."""
    sizes = [("export", [out.export]), ("responses with the export", out.responses_a),
             ("responses alone", out.responses_b), ("customer list", [out.customer_list])]
    print("  files: " + "; ".join("%s %.1f MB%s" % (name, sum(os.path.getsize(p) for p in ps) / 1e6,
                                                    " in %d files" % len(ps) if len(ps) > 1 else "")
                                  for name, ps in sizes))
    ok = True
    for name, snapshot in snapshots:
        (read, _, rejected, customers), reasons = run_counts(snapshot)
        print("  %s run: %d rows read, %d rejected; %d customers" % (name, read, rejected, customers))
        if rejected:
            ok = False
            for file, line, reason in reasons:
                print("    rejected: %s:%d: %s" % (os.path.relpath(file), line, reason))
    return ok


def report_comparison(tally, con, view):
    """Prints a comparison's counts, its problems and its first differences with their
    canonical rows; whether it found no difference and no problem."""
    print()
    tally.report()
    for problem in tally.problems[:5]:
        print("  PROBLEM: %s" % problem)
    if tally.problems:
        print("  (%d problems)" % len(tally.problems))
    for cid, want, got in tally.differ[:5]:
        print("  DIFFERS: %s\n    canonical: %s\n    twin:      %s" % (cid, describe(want), describe(got)))
        print(canonical_rows(con, cid, view))
    return not tally.differ and not tally.problems and tally.compared > 0


def check(data, manifest, canonical, work, audit, seed):
    """Writes the RevenueCat files of the data in `data`, audits both combinations with
    `audit(name, inputs, out)` (which returns (command, exit code, wall s, peak RSS MiB) and
    leaves the run in out/latest), compares them, prints the counts; returns whether every
    compared customer agrees and every file was read whole."""
    import duckdb
    os.makedirs(work, exist_ok=True)
    step = Steps()
    run, _ = run_counts(canonical)
    if run[2]:
        print("RevenueCat files: the canonical run rejected %d rows; the twin needs data without "
              "rejected rows (the default shape)" % run[2])
        return False
    con, database, buckets, typed, platforms = open_canonical(data, manifest, work)
    step("load the canonical files into DuckDB")
    granted = active_entitlements(canonical)
    step("read the canonical run's grants")
    out = write_pass(con, buckets, work, granted, platforms, typed, seed)
    con.close()
    del granted, platforms
    step("write the export, the responses with it, the customer list and the response view "
         "(one pass over the data grouped by customer)")
    runs = []

    def audited(name, inputs, folder, what):
        cmd, code, wall, rss = audit(name, inputs, folder)
        runs.append((what, cmd, code, wall, rss))
        step("audit " + what)
        return os.path.join(folder, "latest", "snapshot.sqlite") if code == 0 else None

    view_snapshot = audited("gf-view", [os.path.join(data, "customers.csv"), out.view],
                            os.path.join(work, "view-out"), "the response view's canonical files")
    if view_snapshot is None:
        report_runs(runs)
        return False
    write_responses_alone(out, active_entitlements(view_snapshot))
    step("write the responses without the export")
    twin_a = audited("gf-revenuecat", [out.export] + out.responses_a + [out.customer_list],
                     os.path.join(work, "with-export-out"), "the export, the responses and the customer list")
    twin_b = audited("gf-responses", out.responses_b + [out.customer_list], os.path.join(work, "alone-out"),
                     "the responses and the customer list")
    ok = report_runs(runs)
    if twin_a is None or twin_b is None:
        return False
    ok &= report_files(out, [("canonical", canonical), ("response view", view_snapshot),
                             ("export + responses + list", twin_a), ("responses + list", twin_b)])
    con = duckdb.connect(database, read_only=True)  # for the rows of a customer that differs
    with_export = compare("export + subscriber responses + customer list, against the canonical run",
                          canonical, twin_a, out.gaps_a, False)
    ok &= report_comparison(with_export, con, False)
    alone = compare("subscriber responses + customer list, against the canonical run of the "
                    "response view", view_snapshot, twin_b, out.gaps_b, True)
    ok &= report_comparison(alone, con, True)
    con.close()
    step("compare")
    step.report()
    return ok
