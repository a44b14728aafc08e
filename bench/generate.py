#!/usr/bin/env python3
"""Writes a synthetic, deterministic data set for the benchmark (Python 3 stdlib only).

    python3 bench/generate.py --customers N --seed S [--history-factor K] --out DIR

Writes DIR/customers.csv and DIR/transactions.csv (canonical SPEC §2 columns, header row,
LF line ends) and DIR/manifest.json (counts, and the ids of the customers in customers.csv
that have any sandbox transaction: the comparison in bench/run.py leaves them out). The same
arguments give byte-identical files (for one Python version).

Shape, for N customers: about 10 transactions per customer, skewed (a quarter have none,
many have 1-2, long subscribers renew monthly up to ~40 times); transactions scattered over
the file, not grouped by customer; about 3% of customers first bought within 24 h of the
cutover (some exactly at it, some 1 s before); versions that trip plain string comparison
("10.1", "2", "02.0"); some versions missing; a few quoted fields with commas and newlines; ~1% sandbox customers, ~1% sandbox transactions on production customers, ~0.5%
orphan transactions (customer not in customers.csv); grace periods, billing retry, family
sharing, refunds, consumables, lifetime purchases, non-renewing subscriptions, a few exact
and conflicting (price only) duplicate rows.

--history-factor K gives every auto-renewable subscription K times as many renewals (the
extra ones earlier in time, with new transaction ids). Customers stay the same and so do
their classes and flags: it grows the transactions file only.

Compatibility with bench/baseline_duckdb.py (fixed policy: bench/policy.json, as-of
2026-11-01T00:00:00Z). The script implements a subset of SPEC and reads the CSV literally,
so the data keeps to the part where both must agree on every customer the comparison keeps
(all but excluded, orphan and sandbox-transaction customers):
- timestamps exactly YYYY-MM-DDTHH:MM:SSZ; every enum lower-case; environment and
  ownership_type always written (the SQL compares `= 'production'`, and an absent value
  would be NULL there but the default in SPEC);
- original_app_version is dot-separated integers (no component longer than 12 digits)
  or empty (the SQL casts every component to BIGINT);
- a revoked transaction always has revocation_date (the SQL ignores renewal_state revoked);
- the policy has no products, so every non-renewing term is the SQL's 365 days;
- a grandfathered customer's current transactions are purchased auto-renewable or
  non-renewing ones only (no lifetime purchase that is not revoked, nothing current that is
  family-shared), and when they have none, their latest auto-renewable is not in billing
  retry: SPEC's grandfathered_and_subscribed, family_shared_only and billing_retry differ
  from the SQL's exactly there;
- transactions of one customer never tie on (purchase_date, transaction_id) with different
  renewal_state; conflicting duplicates differ in price only;
- customer ids are unique in customers.csv;
- no field holds a quote character: the script's CSV sniffer settles on no escape
  character from a sample without one, and then fails on a `""` further on.
"""
import argparse
import calendar
import datetime
import json
import os
import random
import shutil
import sys
import time

DAY = 86400
CUTOVER = calendar.timegm((2024, 3, 1, 0, 0, 0))
AS_OF = calendar.timegm((2026, 11, 1, 0, 0, 0))
EARLIEST = calendar.timegm((2019, 1, 1, 0, 0, 0))
MONTH = 30 * DAY
YEAR = 365 * DAY
NR_TERM = 365 * DAY
BUCKETS = 256
FLUSH_LINES = 400_000

CUSTOMER_COLUMNS = ["customer_id", "platform", "original_app_version", "original_purchase_date",
                    "environment", "preorder_date", "storefront"]
# The order bench/baseline_duckdb.py's `columns=` assumes (it maps them by position).
TRANSACTION_COLUMNS = ["transaction_id", "original_transaction_id", "customer_id", "product_id",
                       "product_type", "purchase_date", "expires_date", "revocation_date",
                       "ownership_type", "environment", "price", "currency", "renewal_state",
                       "grace_period_expires_date"]

# transaction record indexes
TID, OTID, CID, PID, PTYPE, PURCHASE, EXPIRES, REVOKED, OWNER, ENV, PRICE, CUR, STATE, GRACE = range(14)

AR, NR, NC, CONS = "auto_renewable", "non_renewing", "non_consumable", "consumable"
PURCHASED, FAMILY = "purchased", "family_shared"
PROD, SANDBOX = "production", "sandbox"


def csv_field(s):
    if any(ch in s for ch in ',"\n\r'):
        return '"' + s.replace('"', '""') + '"'
    return s


# product ids as written in the CSV (quoted where they need it)
P_MONTHLY = "pro.monthly"
P_YEARLY = "pro.yearly"
P_FAMILY = csv_field("bundle, family")
P_LIFETIME = "pro.lifetime"
P_NAV = "nav.1year"
P_COINS = "coins.100"
P_COINS_BIG = "coins.500"
P_QUOTED = csv_field("coins, mega pack")
P_NEWLINE = csv_field("promo,\nspring 2024")

CURRENCIES = {"USA": "USD", "CAN": "CAD", "GBR": "GBP", "DEU": "EUR", "FRA": "EUR",
              "JPN": "JPY", "AUS": "AUD", "BRA": "BRL", "IND": "INR"}
RATE = {"USD": 1.0, "CAD": 1.4, "GBP": 0.8, "EUR": 0.95, "JPY": 150.0, "AUD": 1.5,
        "BRL": 5.0, "INR": 83.0}
BASE_PRICE = {P_MONTHLY: 4.99, P_YEARLY: 39.99, P_FAMILY: 7.99, P_LIFETIME: 79.99,
              P_NAV: 19.99, P_COINS: 0.99, P_COINS_BIG: 3.99, P_QUOTED: 9.99, P_NEWLINE: 0.49}


def price_text(usd, cur):
    x = usd * RATE[cur]
    if cur in ("JPY", "INR"):
        return "%d" % round(x)
    return "%.2f" % (int(x) + 0.99 if x >= 1 else 0.99)


PRICES = {(p, c): price_text(u, c) for p, u in BASE_PRICE.items() for c in set(CURRENCIES.values())}

STOREFRONTS = ["USA"] * 40 + ["GBR"] * 10 + ["DEU"] * 10 + ["FRA"] * 8 + ["JPN"] * 8 + \
    ["CAN"] * 6 + ["AUS"] * 6 + ["BRA"] * 6 + ["IND"] * 6
PLATFORMS = ["ios"] * 55 + ["ipados"] * 12 + ["macos"] * 20 + ["tvos"] * 5 + ["watchos"] * 4 + \
    ["visionos"] * 4
LOW_VERSIONS = ["1.0"] * 6 + ["1.1"] * 5 + ["1.2"] * 5 + ["1.5"] * 4 + ["1.9"] * 4 + \
    ["1.10", "1.12.1", "1.9.9", "0.9", "1", "01.9", "1.0.1", "1.99"]
# pinned cases around the cutover "2.0" (naive traps: "2", "02.0", "10", "10.1", "100")
ODD_HIGH_VERSIONS = ["2", "2.0.0", "02.0", "2.0.1", "10", "10.1", "9", "20.0", "100", "2.10"]

# day number -> "YYYY-MM-DD", second of day -> "THH:MM:SSZ"
_DAYS = [(datetime.date(1970, 1, 1) + datetime.timedelta(days=d)).isoformat() for d in range(47000)]
_TIMES = ["T%02d:%02d:%02dZ" % (s // 3600, s // 60 % 60, s % 60) for s in range(DAY)]


def ts(t):
    if t is None:
        return ""
    return _DAYS[t // DAY] + _TIMES[t % DAY]


def version_lt(v, cutover=(2, 0)):
    parts = [int(x) for x in v.split(".")]
    c = list(cutover)
    n = max(len(parts), len(c))
    return parts + [0] * (n - len(parts)) < c + [0] * (n - len(c))


def is_current(t):
    """SPEC §4/§8.11 and the SQL's `entitled`, on the data this generator writes."""
    if t[ENV] != PROD or t[REVOKED] is not None:
        return False
    ptype = t[PTYPE]
    if ptype == NC:
        return True
    if ptype == AR:
        return (t[EXPIRES] is not None and t[EXPIRES] > AS_OF) or \
            (t[STATE] == "in_grace_period" and t[GRACE] is not None and t[GRACE] > AS_OF)
    if ptype == NR:
        return t[PURCHASE] + NR_TERM > AS_OF
    return False


class Generator:
    def __init__(self, seed, history_factor):
        self.rng = random.Random("data-%d" % seed)
        self.scatter = random.Random("scatter-%d" % seed)
        # duplicates draw from their own stream, so that --history-factor leaves customers alone
        self.dup = random.Random("duplicates-%d" % seed)
        self.k = history_factor
        self.id_mult = 0x9E3779B1
        self.id_offset = random.Random("ids-%d" % seed).getrandbits(32)
        self.stats = {"customers_rows": 0, "transactions_rows": 0, "sandbox_customers": 0,
                      "orphan_customers": 0, "orphan_transactions": 0,
                      "sandbox_transactions": 0, "exact_duplicate_rows": 0,
                      "conflicting_duplicate_rows": 0, "cutover_cluster_customers": 0,
                      "grandfathered_customers": 0, "missing_version_customers": 0,
                      "history_extension_rows": 0}
        self.sandbox_tx_customers = []

    def customer_id(self, i):
        return "c%08x" % (((i + self.id_offset) * self.id_mult) & 0xFFFFFFFF)

    # ---- one customer: returns (customer line or None, [transaction records])
    def customer(self, i):
        r = self.rng.random
        cid = self.customer_id(i)
        orphan = r() < 0.005
        sandbox = not orphan and r() < 0.01
        platform = PLATFORMS[int(r() * len(PLATFORMS))]
        store = STOREFRONTS[int(r() * len(STOREFRONTS))]
        currency = CURRENCIES[store]
        x = r()
        if x < 0.0005:
            store = csv_field("US,\nCA")
        elif x < 0.0008:
            store = csv_field("EU, DE")
        elif x < 0.05:
            store = ""

        # original purchase date: a cluster of 3% within 24 h of the cutover
        x = r()
        cluster = False
        if x < 0.03:
            cluster = True
            y = r()
            if y < 0.1:
                opd = CUTOVER
            elif y < 0.2:
                opd = CUTOVER - 1
            elif y < 0.25:
                opd = CUTOVER - DAY
            elif y < 0.28:
                opd = CUTOVER - DAY - 1
            elif y < 0.31:
                opd = CUTOVER + DAY - 1
            else:
                opd = CUTOVER - DAY + int(r() * 2 * DAY)
        elif x < 0.05:
            opd = None
        elif x < 0.40:
            opd = EARLIEST + int(r() * (CUTOVER - EARLIEST))
        else:
            opd = CUTOVER + int(r() * (AS_OF - 30 * DAY - CUTOVER))

        # original app version, mostly consistent with the purchase date
        x = r()
        if sandbox and x < 0.9:
            version = "1.0"
        elif x < 0.03:
            version = ""
        elif x < 0.05:
            version = ODD_HIGH_VERSIONS[int(r() * len(ODD_HIGH_VERSIONS))]
        else:
            before = (opd < CUTOVER) if opd is not None else (r() < 0.5)
            if r() < 0.03:
                before = not before
            if before:
                version = LOW_VERSIONS[int(r() * len(LOW_VERSIONS))]
            else:
                age = max(0, (opd if opd is not None else AS_OF - 400 * DAY) - CUTOVER)
                major = 2 + age // (120 * DAY)
                if r() < 0.1:
                    version = "%d.%d.%d" % (major, int(r() * 12), int(r() * 5))
                else:
                    version = "%d.%d" % (major, int(r() * 12))
        preorder = None
        if opd is not None and r() < 0.01:
            preorder = opd - DAY - int(r() * 30 * DAY)

        env = SANDBOX if sandbox else PROD
        gf = not orphan and not sandbox and version != "" and version_lt(version)
        st = self.stats
        if orphan:
            line = None
        else:
            line = "%s,%s,%s,%s,%s,%s,%s\n" % (cid, platform, version, ts(opd), env, ts(preorder),
                                               store)
            st["customers_rows"] += 1
            st["sandbox_customers"] += sandbox
            st["cutover_cluster_customers"] += cluster
            st["grandfathered_customers"] += gf
            st["missing_version_customers"] += version == ""

        txs = []
        self.cid = cid
        self.tbase = 2_000_000_000_000_000 + i * 100_000
        self.tnext = 0
        self.text = 1000
        self.currency = currency
        self.env = env
        self.gf = gf
        self.transactions(txs)
        if r() < 0.005:  # a tester: a sandbox subscription (on a production customer, mostly)
            self.env = SANDBOX
            self.subscription(txs, P_MONTHLY, MONTH, 5 + int(r() * 30), "", PURCHASED)
            if r() < 0.5:
                self.simple(txs, P_COINS, CONS, AS_OF - int(r() * YEAR))
            self.env = env
        if gf:
            self.fix_grandfathered(txs)
        return line, txs

    def new_tid(self):
        t = self.tbase + self.tnext
        self.tnext += 1
        return str(t)

    def simple(self, txs, pid, ptype, purchase, revoked=None, owner=PURCHASED):
        tid = self.new_tid()
        txs.append([tid, tid, self.cid, pid, ptype, purchase, None, revoked, owner, self.env,
                    PRICES[pid, self.currency], self.currency, "", None])

    def transactions(self, txs):
        r = self.rng.random
        x = r()
        gf = self.gf
        if x < 0.25:
            pass  # no transaction at all
        elif x < 0.37:  # consumables only
            for _ in range(1 + int(r() * r() * 4)):
                self.consumable(txs)
        elif x < 0.44 and not gf:  # lifetime, maybe with consumables
            self.lifetime(txs)
            for _ in range(int(r() * r() * 4)):
                self.consumable(txs)
        elif x < 0.60:  # short monthly subscription, mostly lapsed
            self.subscription(txs, P_MONTHLY, MONTH, 1 + int(r() * 6), "short",
                              FAMILY if r() < 0.03 else PURCHASED)
            if r() < 0.2:
                self.consumable(txs)
        elif x < 0.90:  # long monthly subscriber: 12-42 renewals
            self.subscription(txs, P_MONTHLY, MONTH, 12 + int(r() * 31), "long",
                              FAMILY if r() < 0.03 else PURCHASED)
            if r() < 0.15:  # switched from yearly earlier, or a second product
                self.subscription(txs, P_YEARLY, YEAR, 1 + int(r() * 2), "short", PURCHASED)
            for _ in range(int(r() * r() * 3)):
                self.consumable(txs)
        elif x < 0.95:  # yearly subscriber
            self.subscription(txs, P_YEARLY, YEAR, 1 + int(r() * 4), "long", PURCHASED)
        elif x < 0.975:  # non-renewing subscription bought 1-3 times
            self.non_renewing(txs)
        elif x < 0.99 and not gf:  # family plan, mostly family-shared to this customer
            self.subscription(txs, P_FAMILY, MONTH, 3 + int(r() * 25), "long",
                              FAMILY if r() < 0.8 else PURCHASED)
        elif not gf:  # lifetime, then a subscription, and consumables
            self.lifetime(txs)
            self.subscription(txs, P_MONTHLY, MONTH, 2 + int(r() * 20), "long", PURCHASED)
            for _ in range(1 + int(r() * 3)):
                self.consumable(txs)
        else:
            self.subscription(txs, P_MONTHLY, MONTH, 6 + int(r() * 30), "long", PURCHASED)
        if r() < 0.0002:  # a purchase after as-of (impossible_dates; still counts)
            self.simple(txs, P_COINS, CONS, AS_OF + DAY + int(r() * 30 * DAY))

    def consumable(self, txs):
        r = self.rng.random
        x = r()
        pid = P_COINS if x < 0.6 else P_COINS_BIG if x < 0.999 else P_QUOTED if x < 0.9996 \
            else P_NEWLINE
        purchase = AS_OF - int(r() * 4 * YEAR)
        self.simple(txs, pid, CONS, purchase, purchase + int(r() * 10 * DAY) if r() < 0.02 else None)

    def lifetime(self, txs):
        r = self.rng.random
        purchase = AS_OF - 30 * DAY - int(r() * 5 * YEAR)
        revoked = None
        if r() < 0.08:
            revoked = purchase + DAY + int(r() * 60 * DAY)
        self.simple(txs, P_LIFETIME, NC, purchase, revoked, FAMILY if r() < 0.05 else PURCHASED)

    def non_renewing(self, txs):
        r = self.rng.random
        n = 1 + int(r() * r() * 3)
        x = r()
        if x < 0.02:
            last = AS_OF - NR_TERM  # exactly at the end of its term: not current
        elif x < 0.04:
            last = AS_OF - NR_TERM + 1
        else:
            last = AS_OF - int(r() * 3 * YEAR)
        for k in range(n):
            purchase = last - (n - 1 - k) * (NR_TERM + int(r() * 30 * DAY))
            revoked = purchase + 3 * DAY if r() < 0.03 else None
            self.simple(txs, P_NAV, NR, purchase, revoked, FAMILY if r() < 0.03 else PURCHASED)

    def subscription(self, txs, pid, period, n, kind, owner):
        """n renewals of one auto-renewable subscription; the last one's state decides."""
        r = self.rng.random
        x = r()
        grace = None
        revoked = None
        if kind == "long":
            cut = (0.45, 0.50, 0.56, 0.95, 0.985, 0.99)
        else:
            cut = (0.20, 0.23, 0.30, 0.93, 0.98, 0.99)
        if x < cut[0]:  # current
            last_exp = AS_OF + 1 + int(r() * (period - 1))
            state = "subscribed" if r() < 0.97 else "in_billing_retry" if r() < 0.5 else ""
        elif x < cut[1]:  # expired, in the billing grace period
            last_exp = AS_OF - int(r() * 16 * DAY)
            state = "in_grace_period"
            y = r()
            grace = AS_OF if y < 0.05 else AS_OF - 1 - int(r() * DAY) if y < 0.1 \
                else AS_OF + 1 + int(r() * 16 * DAY)
        elif x < cut[2]:  # billing retry
            last_exp = AS_OF - 1 - int(r() * 60 * DAY)
            state = "in_billing_retry"
            if r() < 0.3:
                grace = last_exp + 6 * DAY
        elif x < cut[3]:  # expired
            last_exp = AS_OF - DAY - int(r() * 3 * YEAR)
            state = "expired" if r() < 0.9 else ""
        elif x < cut[4]:  # refunded
            last_exp = AS_OF - int(r() * 2 * YEAR) + period // 2
            revoked = last_exp - period + DAY + int(r() * (period - DAY))
            state = "revoked" if r() < 0.5 else "expired"
        elif x < cut[5]:  # expires exactly at as-of: not current
            last_exp = AS_OF
            state = "subscribed"
        else:  # grace state but no grace date: not current
            last_exp = AS_OF - int(r() * 16 * DAY)
            state = "in_grace_period"
        first = last_exp - n * period
        env, cur, cid = self.env, self.currency, self.cid
        price = PRICES[pid, cur]
        otid = str(self.tbase + self.tnext)
        for k in range(n):
            tid = self.new_tid()
            purchase = first + k * period
            if k == n - 1:
                txs.append([tid, otid, cid, pid, AR, purchase, purchase + period, revoked, owner,
                            env, price, cur, state, grace])
            else:
                txs.append([tid, otid, cid, pid, AR, purchase, purchase + period, None, owner,
                            env, price, cur, "expired" if k % 5 else "", None])
        extra = (self.k - 1) * n
        for m in range(1, extra + 1):
            tid = str(self.tbase + self.text)
            self.text += 1
            purchase = first - m * period
            txs.append([tid, otid, cid, pid, AR, purchase, purchase + period, None, owner,
                        env, price, cur, "expired", None, True])  # 15th: an extension row
        self.stats["history_extension_rows"] += extra

    def fix_grandfathered(self, txs):
        """Keeps to the part of SPEC the SQL implements (see the module doc)."""
        for t in txs:
            if is_current(t):
                if t[PTYPE] == NC:  # not generated for grandfathered customers; just in case
                    t[REVOKED] = t[PURCHASE] + DAY
                elif t[OWNER] == FAMILY:
                    t[OWNER] = PURCHASED
        if not any(is_current(t) for t in txs):
            latest = None
            for t in txs:
                if t[PTYPE] == AR:
                    key = (t[PURCHASE], t[TID], t[STATE])
                    if latest is None or key > latest[0]:
                        latest = (key, t)
            if latest is not None and latest[1][STATE] == "in_billing_retry":
                latest[1][STATE] = "expired"


def write_transaction_line(t):
    return "%s,%s,%s,%s,%s,%s,%s,%s,%s,%s,%s,%s,%s,%s\n" % (
        t[TID], t[OTID], t[CID], t[PID], t[PTYPE], ts(t[PURCHASE]), ts(t[EXPIRES]),
        ts(t[REVOKED]), t[OWNER], t[ENV], t[PRICE], t[CUR], t[STATE], ts(t[GRACE]))


def generate(n_customers, seed, history_factor, out):
    os.makedirs(out, exist_ok=True)
    tmp = os.path.join(out, ".buckets")
    if os.path.exists(tmp):
        shutil.rmtree(tmp)
    os.mkdir(tmp)
    g = Generator(seed, history_factor)
    st = g.stats
    bucket_files = [open(os.path.join(tmp, "%03d" % b), "w", encoding="utf-8", newline="")
                    for b in range(BUCKETS)]
    buffers = [[] for _ in range(BUCKETS)]
    pending = 0
    scatter = g.scatter.getrandbits
    duplicate = g.dup.random

    def flush():
        for b in range(BUCKETS):
            if buffers[b]:
                bucket_files[b].write("\0".join(buffers[b]))
                bucket_files[b].write("\0")
                buffers[b].clear()

    with open(os.path.join(out, "customers.csv"), "w", encoding="utf-8", newline="") as cf:
        cf.write(",".join(CUSTOMER_COLUMNS) + "\n")
        for i in range(n_customers):
            line, txs = g.customer(i)
            if line is not None:
                cf.write(line)
            else:
                if any(t[ENV] == PROD for t in txs):
                    st["orphan_customers"] += 1
                st["orphan_transactions"] += len(txs)
            sandbox_tx = False
            for t in txs:
                text = write_transaction_line(t)
                buffers[scatter(8)].append(text)
                if t[ENV] == SANDBOX:
                    sandbox_tx = True
                    st["sandbox_transactions"] += 1
                if len(t) > 14:  # history extension rows are never duplicated, so that
                    continue      # --history-factor changes nothing else
                x = duplicate()
                if x < 0.001:
                    buffers[scatter(8)].append(text)
                    st["exact_duplicate_rows"] += 1
                elif x < 0.0012 and t[PTYPE] != CONS:
                    t[PRICE] = "%s1" % t[PRICE] if "." in t[PRICE] else t[PRICE] + ".5"
                    buffers[scatter(8)].append(write_transaction_line(t))
                    st["conflicting_duplicate_rows"] += 1
            if sandbox_tx and line is not None:
                g.sandbox_tx_customers.append(g.customer_id(i))
            pending += len(txs)
            if pending >= FLUSH_LINES:
                flush()
                pending = 0
    flush()
    for f in bucket_files:
        f.close()

    rows = 0
    with open(os.path.join(out, "transactions.csv"), "w", encoding="utf-8", newline="") as tf:
        tf.write(",".join(TRANSACTION_COLUMNS) + "\n")
        for b in range(BUCKETS):
            path = os.path.join(tmp, "%03d" % b)
            with open(path, encoding="utf-8", newline="") as f:
                records = f.read().split("\0")
            os.remove(path)
            records.pop()  # after the last separator
            random.Random("shuffle-%d-%d" % (seed, b)).shuffle(records)
            rows += len(records)
            tf.write("".join(records))
            del records
    os.rmdir(tmp)
    st["transactions_rows"] = rows

    manifest = {
        "generator": "bench/generate.py",
        "customers": n_customers,
        "seed": seed,
        "history_factor": history_factor,
        "as_of": ts(AS_OF),
        "cutover": ts(CUTOVER),
        "counts": st,
        "sandbox_transaction_customers": sorted(g.sandbox_tx_customers),
    }
    with open(os.path.join(out, "manifest.json"), "w", encoding="utf-8") as f:
        json.dump(manifest, f, indent=1, sort_keys=True)
        f.write("\n")
    return st


def main():
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--customers", type=int, required=True)
    ap.add_argument("--seed", type=int, default=1)
    ap.add_argument("--history-factor", type=int, default=1)
    ap.add_argument("--out", required=True)
    a = ap.parse_args()
    if a.customers < 1 or a.customers > 50_000_000:
        ap.error("--customers must be between 1 and 50000000")
    if a.history_factor < 1 or a.history_factor > 1000:
        ap.error("--history-factor must be between 1 and 1000")
    t0 = time.monotonic()
    st = generate(a.customers, a.seed, a.history_factor, a.out)
    print("generate: %d customers rows, %d transactions rows (%.1f per customer) in %.1f s -> %s"
          % (st["customers_rows"], st["transactions_rows"],
             st["transactions_rows"] / max(1, a.customers), time.monotonic() - t0, a.out),
          file=sys.stderr)


if __name__ == "__main__":
    main()
