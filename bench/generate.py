#!/usr/bin/env python3
"""Writes a synthetic, deterministic data set for the benchmark (Python 3 stdlib only).

    python3 bench/generate.py --customers N --seed S [--shape NAME] [shape parameters] --out DIR

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

Shape parameters. Each property of an export's shape is one option; without any of them
(the `default` shape) the files are the ones this script always wrote, byte for byte. A user
describes their own export in these terms (e.g. `--consumable-share 0.14
--renewal-state-absent 0.9 --order time`), and bench/run.py can time that shape.
  --customers-factor F       write F times --customers customers (default 1)
  --history-factor K         K times the renewals of every auto-renewable (default 1)
  --ids default|revenuecat   customer ids `c` + 8 hex digits and 16-digit transaction ids
                             (default), or RevenueCat's `$RCAnonymousID:` + 32 lower-case hex
                             digits and 19-digit transaction ids (original_transaction_id
                             alike); the next two options override the part each names
  --customer-ids STYLE       customer ids only (overriding --ids for them): default (`c` + 8
                             hex digits, 9 bytes), revenuecat (`$RCAnonymousID:` + 32 hex
                             digits, 47 bytes), uuid (36-character lower-case UUID text
                             8-4-4-4-12, version 4, from a bijection of 122 bits of the
                             customer's index) or length:MIN-MAX / length:N (6 <= MIN <= MAX
                             <= 128; each customer's length drawn uniformly from MIN..MAX: 6
                             base-32 characters [0-9a-v] of a bijection of 30 bits of the index,
                             then filler of [a-z0-9_-] from a hash of the index). Unique: ids
                             of one length differ in their bijection's bits, and customers are
                             fewer than 2^30 (50M at most). Swift keeps a string of up to 15
                             UTF-8 bytes inline and allocates for a longer one: default ids are
                             under that line, revenuecat and uuid ids over it, and length:6-64
                             puts 83% of the customers over it
  --transaction-id-length MIN-MAX|N
                             transaction ids of MIN..MAX decimal digits (10 <= MIN <= MAX <=
                             128), each length drawn uniformly per transaction: a digit 1-9,
                             filler digits from a hash, then MIN - 1 digits of a bijection of
                             a unique key (a count of the transactions written, history
                             extension rows apart), so ids of one length differ there. A
                             subscription's original_transaction_id is its first transaction's
                             id, as always. Overrides --ids for transaction ids (default: 16
                             digits, 19 with --ids revenuecat); the generator stops with an
                             error past 10^(MIN-1) / 2 transactions (or extension rows), 500M
                             at MIN 10
  --order scattered|time|customer
                             transaction rows scattered over the file (default: 256
                             temporary buckets, each shuffled), sorted by purchase_date across
                             all customers as incremental exports arrive (buckets of 4 days of
                             purchase time, each sorted; ties by the row's text), or grouped
                             by customer in customers.csv's order, each customer's rows by
                             purchase_date
  --shallow                  every customer has one or two transactions (one-time purchases,
                             or a subscription of one or two periods), not ~10 on average
  --consumable-share P       add consumable purchases until they are a fraction P of the
                             transaction rows (default: none added, ~3.8% as generated): a
                             customer gets a burst of 1-9 (~2.8 on average) with a chance
                             that grows with the rows' shortfall so far
  --non-consumable-share P   add lifetime (non-consumable) purchases, one to a customer, the
                             same way, until they are a fraction P of the rows (default: none
                             added, ~0.5%); only to customers who bought something already,
                             never to grandfathered ones
  --renewal-state-absent P   empty renewal_state on a fraction P of the auto-renewable rows
                             (default 0: as generated, ~22% of them empty, ~75% `expired`)
  --rejected-rows P          make a fraction P of all rows (both files) rows that Grandfather
                             rejects (SPEC §8.5) and the DuckDB script still reads (never more
                             than P of the rows read, so that bench/policy.json's
                             max_rejected_fraction of 0.001 holds at P = 0.001): customers with
                             an unknown platform or environment or a date-only preorder_date,
                             transactions with an unknown product_type, ownership_type,
                             environment or renewal_state, a price that is not a decimal
                             ("4,99", "$4.99"), or no transaction_id, customer_id or
                             product_id. Only production rows of production customers in
                             customers.csv; never duplicated. The manifest holds their count
                             and the customers that have one (bench/run.py leaves those out)
  --quoted-fields P          a fraction P of the rows of each file get a quoted field with a
                             comma and a line break (LF or CRLF) in it: product_id in
                             transactions, storefront in customers (default 0; a few such
                             fields are always there)
  --crlf                     CRLF line ends in both files (default LF; line breaks inside
                             quoted fields stay as written)
  --bom                      a UTF-8 BOM at the start of both files

The id options draw nothing from the random streams the other parameters use: the rows
are those the same options give without them, ids aside (a tie that a transaction id
breaks, in time order or in a customer's latest auto-renewable, may fall the other way).

--shape NAME sets one of these presets; options given as well override the preset's values.
With --customers 1000000 (seed 1), as measured (customers rows / transaction rows; for the
last three, not measured at 1M: their id options change no row, so their counts are the
default's and one-time-heavy's, which they equal row for row at 20,000 customers):

  shape             parameters                      what it stands for                rows
  default           (none)                          today's data                      995K / 9.94M
  one-time-heavy    --consumable-share 0.14         a user's export: 14% consumable   995K / 11.3M
                    --non-consumable-share 0.02     and 2% non-consumable rows (not
                    --renewal-state-absent 0.9      4% and 0.5%), renewal_state
                                                    mostly empty, more subscribers
  long-history      --history-factor 4              4x the renewals per subscriber    995K / 38.3M
  long-ids          --ids revenuecat                RevenueCat customer ids, 19-digit 995K / 9.94M
                                                    transaction ids
  time-ordered      --order time                    transactions sorted by purchase   995K / 9.94M
                                                    date, as incremental exports
                                                    arrive
  customer-grouped  --order customer                each customer's rows together     995K / 9.94M
  wide-and-shallow  --customers-factor 5 --shallow  5M customers, 1-2 transactions    4.97M / 7.02M
                                                    each
  messy             --rejected-rows 0.001           0.1% rejected rows, 2% of rows    995K / 9.94M
                    --quoted-fields 0.02            with a quoted comma and line
                    --crlf --bom                    break, CRLF line ends, a BOM
  uuid-ids          --customer-ids uuid             customer ids of 36-character      995K / 9.94M
                                                    UUID text (over Swift's 15-byte
                                                    inline strings)
  mixed-ids         --customer-ids length:6-64      customer ids of 6-64 characters   995K / 9.94M
                    --transaction-id-length 10-24   (83% of 16 bytes or more),
                                                    transaction ids of 10-24 digits
  varied            --customer-ids length:6-64      an export from another            995K / 11.3M
                    --transaction-id-length 10-24   generator: mixed-ids' ids with
                    --consumable-share 0.14         one-time-heavy's mix, but half
                    --non-consumable-share 0.02     the auto-renewable rows without
                    --renewal-state-absent 0.5      renewal_state

The manifest of a shape other than the default (history factor aside) also holds its
`parameters` and `generator_options`, and the counts of what the parameters did; its
`parameters` leave out --customer-ids and --transaction-id-length when they are not given
(so manifests written before they existed stay as they were).

Compatibility with bench/baseline_duckdb.py (fixed policy: bench/policy.json, as-of
2026-11-01T00:00:00Z). The script implements a subset of SPEC and reads the CSV literally,
so the data keeps to the part where both must agree on every customer the comparison keeps
(all but excluded, orphan and sandbox-transaction customers, and customers with a rejected
row):
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
- no id holds a comma, quote or line break (customer ids are `c` and hex, `$RCAnonymousID:`
  and hex, UUID text, or [a-z0-9_-]; transaction ids are decimal digits): the three fields
  before product_id are never quoted. Transaction ids of different lengths (time order,
  --transaction-id-length) order as text in both SPEC and the SQL (the latest auto-renewable:
  greatest purchase_date, then transaction_id; the SQL's arg_max over VARCHAR), and so in the
  generator (the grandfathered rule below);
- no field holds a quote character: the script's CSV sniffer settles on no escape
  character from a sample without one, and then fails on a `""` further on;
- the first transaction row of a file in time or customer order (--order) that has a
  product_id has it quoted, as RFC 4180 allows for any field: the sniffer also decides the
  quote character from a sample of the first rows, and without a quote in it (time order
  puts the products whose names need quotes far down the file: the first is on line 79,123
  at 1M customers) it splits a quoted comma further on and fails;
- rejected rows (--rejected-rows) never have a malformed timestamp in a column the script
  reads (its four transaction timestamps and original_purchase_date are parsed with a fixed
  format, and one bad value fails the whole script): the bad timestamp is a preorder_date;
- extra one-time purchases (--consumable-share, --non-consumable-share) keep the
  grandfathered customers' rule above (no lifetime purchase for them), and emptied renewal
  states (--renewal-state-absent) are emptied before that rule is applied.
"""
import argparse
import calendar
import datetime
import hashlib
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
TIME_BUCKET = 4 * 86400  # --order time: seconds of purchase time per temporary bucket

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


# The shape parameters (module doc) and their values for the default shape: today's data.
PARAMETERS = {
    "customers_factor": 1,
    "history_factor": 1,
    "ids": "default",
    "customer_ids": None,  # None: as --ids says
    "transaction_id_length": None,  # None: as --ids says (16 digits, 19 with revenuecat)
    "order": "scattered",
    "shallow": False,
    "consumable_share": 0.0,
    "non_consumable_share": 0.0,
    "renewal_state_absent": 0.0,
    "rejected_rows": 0.0,
    "quoted_fields": 0.0,
    "crlf": False,
    "bom": False,
}

# name -> (the parameters it sets, what it stands for); the table in the module doc.
SHAPES = {
    "default": ({}, "today's data"),
    "one-time-heavy": ({"consumable_share": 0.14, "non_consumable_share": 0.02,
                        "renewal_state_absent": 0.9},
                       "many one-time purchases, renewal_state mostly empty"),
    "long-history": ({"history_factor": 4}, "four times the renewals per subscriber"),
    "long-ids": ({"ids": "revenuecat"}, "RevenueCat-style customer ids, 19-digit transaction ids"),
    "time-ordered": ({"order": "time"}, "transactions sorted by purchase_date"),
    "customer-grouped": ({"order": "customer"}, "each customer's transactions together"),
    "wide-and-shallow": ({"customers_factor": 5, "shallow": True},
                         "five times the customers, one or two transactions each"),
    "messy": ({"rejected_rows": 0.001, "quoted_fields": 0.02, "crlf": True, "bom": True},
              "rejected rows, quoted fields with line breaks, CRLF, a BOM"),
    "uuid-ids": ({"customer_ids": "uuid"}, "customer ids of 36-character UUID text"),
    "mixed-ids": ({"customer_ids": "length:6-64", "transaction_id_length": "10-24"},
                  "customer ids of 6-64 characters, transaction ids of 10-24 digits"),
    "varied": ({"customer_ids": "length:6-64", "transaction_id_length": "10-24",
                "consumable_share": 0.14, "non_consumable_share": 0.02,
                "renewal_state_absent": 0.5},
               "an export from another generator: mixed id lengths, many one-time purchases"),
}
# Parameters added after data sets were written without them: the manifest's `parameters`
# holds them only when they are set, so that those data sets' manifests stay as they were.
LATER_PARAMETERS = ("customer_ids", "transaction_id_length")


def shape_parameters(shape, **given):
    """The parameters of a shape, with the values given (not None) overriding its preset's."""
    if shape not in SHAPES:
        raise ValueError("unknown shape %r (one of: %s)" % (shape, ", ".join(SHAPES)))
    params = dict(PARAMETERS)
    params.update(SHAPES[shape][0])
    for key, value in given.items():
        if key not in PARAMETERS:
            raise ValueError("unknown shape parameter %r" % key)
        if value is not None:
            params[key] = value
    return params


def parameter_options(params):
    """The options of this script that give params (those that differ from the default)."""
    out = []
    for key, default in PARAMETERS.items():
        value = params[key]
        if value == default:
            continue
        option = "--" + key.replace("_", "-")
        if isinstance(default, bool):
            out.append(option)
        else:
            out += [option, str(value)]
    return out


# --customer-ids length:MIN-MAX and --transaction-id-length MIN-MAX (module doc)
CUSTOMER_ID_MIN = 6  # the unique key: 30 bits in 6 base-32 characters
TRANSACTION_ID_MIN = 10  # the unique key: 9 decimal digits after the leading one
ID_MAX = 128


def id_lengths(text, lowest):
    """(MIN, MAX) of "MIN-MAX" or "N" with lowest <= MIN <= MAX <= ID_MAX; else ValueError."""
    low, dash, high = text.partition("-")
    if not (low.isascii() and low.isdigit()) or \
            (dash and not (high.isascii() and high.isdigit())):
        raise ValueError("%r is not N or MIN-MAX" % text)
    low, high = int(low), int(high) if dash else int(low)
    if low < lowest:
        raise ValueError("%r: the shortest must be at least %d (shorter ids could not be "
                         "shown unique)" % (text, lowest))
    if high > ID_MAX or low > high:
        raise ValueError("%r: MIN must be at most MAX, and MAX at most %d" % (text, ID_MAX))
    return low, high


def lengths_text(low, high):
    return "%d" % low if low == high else "%d-%d" % (low, high)


def customer_id_style(text):
    """--customer-ids: default, revenuecat, uuid, length:MIN-MAX or length:N (canonical)."""
    if text in ("default", "revenuecat", "uuid"):
        return text
    if text.startswith("length:"):
        try:
            return "length:" + lengths_text(*id_lengths(text[len("length:"):], CUSTOMER_ID_MIN))
        except ValueError as e:
            raise argparse.ArgumentTypeError(str(e))
    raise argparse.ArgumentTypeError("%r is not default, revenuecat, uuid, length:MIN-MAX or "
                                     "length:N" % text)


def transaction_id_length(text):
    """--transaction-id-length: MIN-MAX or N (canonical)."""
    try:
        return lengths_text(*id_lengths(text, TRANSACTION_ID_MIN))
    except ValueError as e:
        raise argparse.ArgumentTypeError(str(e))


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

# the text inside the quotes, for the quoted variants of --quoted-fields
RAW_PRODUCT = {P_FAMILY: "bundle, family", P_QUOTED: "coins, mega pack",
               P_NEWLINE: "promo,\nspring 2024"}
QUOTED_SUFFIXES = [", promo\nwinter 2025", ",\r\nbundle edition", ", gift,\nfrom a friend",
                   ",\n"]
QUOTED_STOREFRONTS = ["US,\nCA", "EU,\r\nDE", "FR, Paris\n(web)", "JP,\n"]
# (field, value) of rejected rows (--rejected-rows): SPEC §8.5 rejects each, and the
# DuckDB script reads each without an error (none is a timestamp it parses)
REJECTED_CUSTOMER = [(1, "windows"), (4, "staging"), (5, "2025-11-30")]
REJECTED_TRANSACTION = [(PTYPE, "subscription"), (TID, ""), (PRICE, csv_field("4,99")),
                        (PRICE, "$4.99"), (OWNER, "gifted"), (ENV, "staging"),
                        (STATE, "paused"), (CID, ""), (PID, "")]

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


MASK128 = (1 << 128) - 1
MASK122 = (1 << 122) - 1
MASK64 = (1 << 64) - 1
MASK30 = (1 << 30) - 1
BASE32 = "0123456789abcdefghijklmnopqrstuv"
# a byte of a hash -> a filler character of [a-z0-9_-] (256 = 6 * 38 + 28: near uniform)
ID_FILLER = bytes.maketrans(bytes(range(256)),
                            (b"abcdefghijklmnopqrstuvwxyz0123456789_-" * 7)[:256])
TID_MULT = 2654435761  # a prime: key * TID_MULT modulo 10^m is a bijection of [0, 10^m)


class Generator:
    def __init__(self, seed, params):
        self.params = params
        self.rng = random.Random("data-%d" % seed)
        self.scatter = random.Random("scatter-%d" % seed)
        # duplicates draw from their own stream, so that --history-factor leaves customers alone
        self.dup = random.Random("duplicates-%d" % seed)
        # and so does each shape parameter, so that one changes nothing the others decide
        self.extra = random.Random("one-time-%d" % seed)
        self.states = random.Random("states-%d" % seed)
        self.messy = random.Random("messy-%d" % seed)
        self.k = params["history_factor"]
        self.shallow = params["shallow"]
        # --ids sets both kinds of id; --customer-ids and --transaction-id-length override
        # the kind each names. No id draws from a stream another parameter draws from.
        self.revenuecat_ids = params["ids"] == "revenuecat"  # the transaction ids
        self.cid_style = params["customer_ids"] or params["ids"]
        self.id_mult = 0x9E3779B1
        self.id_offset = random.Random("ids-%d" % seed).getrandbits(32)
        if self.cid_style == "revenuecat":
            self.id_offset128 = random.Random("revenuecat-ids-%d" % seed).getrandbits(128)
        elif self.cid_style == "uuid":
            self.uuid_offset = random.Random("uuid-ids-%d" % seed).getrandbits(122)
        elif self.cid_style.startswith("length:"):
            self.cid_min, self.cid_max = id_lengths(self.cid_style[len("length:"):],
                                                    CUSTOMER_ID_MIN)
            self.length_offset = random.Random("length-ids-%d" % seed).getrandbits(30)
            self.length_salt = ("length-ids-%d-" % seed).encode()
        self.tid_lengths = params["transaction_id_length"] is not None
        if self.tid_lengths:
            self.tid_min, tid_max = id_lengths(params["transaction_id_length"], TRANSACTION_ID_MIN)
            self.tid_span = tid_max - self.tid_min + 1
            self.tid_cap = 10 ** (self.tid_min - 1)  # keys: regular 2n, history extension 2n+1
            ids = random.Random("transaction-ids-%d" % seed)
            self.tid_offset = ids.randrange(self.tid_cap)
            self.tid_salt = ids.getrandbits(64)
            self.tid_regular = 0
            self.tid_extension = 0
        self.stats = {"customers_rows": 0, "transactions_rows": 0, "sandbox_customers": 0,
                      "orphan_customers": 0, "orphan_transactions": 0,
                      "sandbox_transactions": 0, "exact_duplicate_rows": 0,
                      "conflicting_duplicate_rows": 0, "cutover_cluster_customers": 0,
                      "grandfathered_customers": 0, "missing_version_customers": 0,
                      "history_extension_rows": 0}
        # counts of the shape parameters, only where one is set (the default manifest stays)
        self.one_time = params["consumable_share"] > 0 or params["non_consumable_share"] > 0
        if self.one_time:
            self.stats.update(added_consumables=0, added_non_consumables=0)
            self.seen = [0, 0, 0]  # transaction rows, consumable rows, non-consumable rows
        if params["renewal_state_absent"] > 0:
            self.stats["renewal_states_emptied"] = 0
        self.sandbox_tx_customers = []

    def customer_id(self, i):
        style = self.cid_style
        if style == "default":
            return "c%08x" % (((i + self.id_offset) * self.id_mult) & 0xFFFFFFFF)
        if style == "revenuecat":
            # a bijection of 128 bits (odd multipliers and xor-shifts), so ids are unique
            x = ((i + self.id_offset128) * 0x9E3779B97F4A7C15F39CC0605CEDC835) & MASK128
            x ^= x >> 67
            x = (x * 0xD6E8FEB86659FD93C2B2AE3D27D4EB4F) & MASK128
            x ^= x >> 59
            return "$RCAnonymousID:%032x" % x
        if style == "uuid":
            # a bijection of 122 bits, written around a version-4 UUID's fixed bits (the
            # version nibble 4, the variant bits 10): unique, as the bits map one to one
            x = ((i + self.uuid_offset) * 0x9E3779B97F4A7C15F39CC0605CEDC835) & MASK122
            x ^= x >> 61
            x = (x * 0xD6E8FEB86659FD93C2B2AE3D27D4EB4F) & MASK122
            x ^= x >> 57
            head = "%012x" % (x >> 74)
            return "%s-%s-4%03x-%04x-%012x" % (head[:8], head[8:], (x >> 62) & 0xFFF,
                                               0x8000 | ((x >> 48) & 0x3FFF), x & 0xFFFFFFFFFFFF)
        # length:MIN-MAX: a bijection of 30 bits (customers are fewer than 2^30) as 6 base-32
        # characters, so ids of one length differ there, then filler from a hash of i
        x = ((i + self.length_offset) * 0x2545F491) & MASK30
        x ^= x >> 15
        x = (x * 0x2C1B3C6D) & MASK30
        x ^= x >> 13
        key = "".join(BASE32[(x >> shift) & 31] for shift in (25, 20, 15, 10, 5, 0))
        h = hashlib.shake_128(self.length_salt + i.to_bytes(8, "little")).digest(
            8 + self.cid_max - CUSTOMER_ID_MIN)
        n = self.cid_min + int.from_bytes(h[:8], "little") % (self.cid_max - self.cid_min + 1)
        return key + h[8:8 + n - CUSTOMER_ID_MIN].translate(ID_FILLER).decode("ascii")

    def tid_text(self, key):
        """--transaction-id-length: the id of a unique key, of a length drawn from MIN..MAX: a
        digit 1-9, filler digits, and MIN - 1 digits of a bijection of the key. Ids of one
        length differ in those last digits, so all are unique."""
        if key >= self.tid_cap:
            raise SystemExit("generate: error: more transactions than ids of %d digits hold: "
                             "raise --transaction-id-length's minimum" % self.tid_min)
        y = ((key + self.tid_salt) * 0x9E3779B97F4A7C15) & MASK64
        y ^= y >> 29
        y = (y * 0xBF58476D1CE4E5B9) & MASK64
        y ^= y >> 32
        fill = y % self.tid_span
        text = "123456789"[(y >> 40) % 9]
        if fill:
            z = (y * 0x94D049BB133111EB) & MASK64
            digits = ("%020d" % z)[1:]
            text += (digits * (fill // 19 + 1))[:fill]
        return text + "%0*d" % (self.tid_min - 1, (key * TID_MULT + self.tid_offset) % self.tid_cap)

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
            fields = None
        else:
            fields = [cid, platform, version, ts(opd), env, ts(preorder), store]
            st["customers_rows"] += 1
            st["sandbox_customers"] += sandbox
            st["cutover_cluster_customers"] += cluster
            st["grandfathered_customers"] += gf
            st["missing_version_customers"] += version == ""

        txs = []
        self.cid = cid
        if self.revenuecat_ids:
            self.tbase = 1_843_000_000_000_000_000 + i * 100_000  # 19 digits
        else:
            self.tbase = 2_000_000_000_000_000 + i * 100_000
        self.tnext = 0
        self.text = 1000
        self.currency = currency
        self.env = env
        self.gf = gf
        if self.shallow:
            self.shallow_transactions(txs)
            if len(txs) < 2 and r() < 0.005:  # a tester: one sandbox purchase
                self.env = SANDBOX
                self.simple(txs, P_COINS, CONS, AS_OF - int(r() * YEAR))
                self.env = env
        else:
            self.transactions(txs)
            if r() < 0.005:  # a tester: a sandbox subscription (on a production customer, mostly)
                self.env = SANDBOX
                self.subscription(txs, P_MONTHLY, MONTH, 5 + int(r() * 30), "", PURCHASED)
                if r() < 0.5:
                    self.simple(txs, P_COINS, CONS, AS_OF - int(r() * YEAR))
                self.env = env
        if self.one_time:
            self.one_time_purchases(txs)
        if self.params["renewal_state_absent"] > 0:
            self.empty_renewal_states(txs)
        if gf:
            self.fix_grandfathered(txs)
        return fields, txs

    def one_time_purchases(self, txs):
        """--consumable-share, --non-consumable-share: one-time purchases added to this
        customer while the rows so far fall short of the shares (a deterministic feedback, so
        the shares come out as asked whatever the other parameters)."""
        p = self.params
        r = self.extra.random
        seen = self.seen
        seen[0] += len(txs)
        seen[1] += sum(1 for t in txs if t[PTYPE] == CONS)
        seen[2] += sum(1 for t in txs if t[PTYPE] == NC)
        share = p["consumable_share"]
        if share > 0:
            short = share * seen[0] - seen[1]  # consumables missing so far
            if short > 0 and r() * 2.8 < short:
                for _ in range(1 + int(r() * r() * 9)):  # a burst: 1-9, ~2.8 on average
                    self.consumable(txs, r)
                    seen[0] += 1
                    seen[1] += 1
                    self.stats["added_consumables"] += 1
        share = p["non_consumable_share"]
        if share > 0 and not self.gf and len(txs) > 0:  # a buyer's upgrade to lifetime
            short = share * seen[0] - seen[2]
            if short > 0 and r() < short:
                self.lifetime(txs, r)
                seen[0] += 1
                seen[2] += 1
                self.stats["added_non_consumables"] += 1

    def empty_renewal_states(self, txs):
        """--renewal-state-absent: an auto-renewable row's renewal_state left empty."""
        r = self.states.random
        p = self.params["renewal_state_absent"]
        for t in txs:
            if t[PTYPE] == AR and r() < p and t[STATE] != "":
                t[STATE] = ""
                self.stats["renewal_states_emptied"] += 1

    def new_tid(self):
        if self.tid_lengths:
            self.tid_regular += 1
            return self.tid_text(2 * self.tid_regular - 2)
        t = self.tbase + self.tnext
        self.tnext += 1
        return str(t)

    def next_tid(self):
        """The id new_tid() gives next (a subscription's original_transaction_id)."""
        if self.tid_lengths:
            return self.tid_text(2 * self.tid_regular)
        return str(self.tbase + self.tnext)

    def extension_tid(self):
        """The id of a history extension row (--history-factor), apart from the others."""
        if self.tid_lengths:
            self.tid_extension += 1
            return self.tid_text(2 * self.tid_extension - 1)
        tid = str(self.tbase + self.text)
        self.text += 1
        return tid

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

    def shallow_transactions(self, txs):
        """--shallow: one or two transactions."""
        r = self.rng.random
        gf = self.gf
        n = 1 if r() < 0.6 else 2
        x = r()
        if x < 0.35:  # consumables only
            for _ in range(n):
                self.consumable(txs)
        elif x < 0.45 and not gf:  # a lifetime purchase, maybe a consumable
            self.lifetime(txs)
            if n == 2:
                self.consumable(txs)
        elif x < 0.80:  # a monthly subscription of one or two months
            self.subscription(txs, P_MONTHLY, MONTH, n, "short" if r() < 0.5 else "long",
                              FAMILY if r() < 0.03 else PURCHASED)
        elif x < 0.90:  # a yearly one
            self.subscription(txs, P_YEARLY, YEAR, n, "long", PURCHASED)
        elif x < 0.96:  # a non-renewing subscription bought once or twice
            self.non_renewing(txs, n)
        elif not gf:  # a family plan, mostly family-shared to this customer
            self.subscription(txs, P_FAMILY, MONTH, n, "long", FAMILY if r() < 0.8 else PURCHASED)
        else:
            self.subscription(txs, P_MONTHLY, MONTH, n, "long", PURCHASED)

    def consumable(self, txs, r=None):
        r = r or self.rng.random
        x = r()
        pid = P_COINS if x < 0.6 else P_COINS_BIG if x < 0.999 else P_QUOTED if x < 0.9996 \
            else P_NEWLINE
        purchase = AS_OF - int(r() * 4 * YEAR)
        self.simple(txs, pid, CONS, purchase, purchase + int(r() * 10 * DAY) if r() < 0.02 else None)

    def lifetime(self, txs, r=None):
        r = r or self.rng.random
        purchase = AS_OF - 30 * DAY - int(r() * 5 * YEAR)
        revoked = None
        if r() < 0.08:
            revoked = purchase + DAY + int(r() * 60 * DAY)
        self.simple(txs, P_LIFETIME, NC, purchase, revoked, FAMILY if r() < 0.05 else PURCHASED)

    def non_renewing(self, txs, n=None):
        r = self.rng.random
        if n is None:
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
        otid = self.next_tid()
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
            tid = self.extension_tid()
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


def write_transaction_line(t, eol="\n"):
    return "%s,%s,%s,%s,%s,%s,%s,%s,%s,%s,%s,%s,%s,%s%s" % (
        t[TID], t[OTID], t[CID], t[PID], t[PTYPE], ts(t[PURCHASE]), ts(t[EXPIRES]),
        ts(t[REVOKED]), t[OWNER], t[ENV], t[PRICE], t[CUR], t[STATE], ts(t[GRACE]), eol)


def quote_product_id(line):
    """line with its product_id (the 4th field; the three before it never hold a comma or a
    quote) quoted, or None when it is empty; line itself when it is quoted already."""
    head = line.split(",", 3)
    if head[3].startswith('"'):
        return line
    pid, rest = head[3].split(",", 1)
    if not pid:
        return None
    return ",".join(head[:3]) + ',"' + pid + '",' + rest


class Rows:
    """Where transaction rows go: scattered over 256 temporary buckets, each shuffled
    (--order scattered, the default); into temporary buckets of 4 days of purchase time, each
    sorted (time); or straight into the file in customers.csv's order (customer). In the
    last two, the first row with a product_id has it quoted (the module doc says why)."""

    def __init__(self, order, seed, scatter, out, header):
        self.order, self.seed, self.scatter, self.out = order, seed, scatter, out
        self.tmp = os.path.join(out, ".buckets")
        if os.path.exists(self.tmp):
            shutil.rmtree(self.tmp)
        os.mkdir(self.tmp)
        self.rows = 0
        self.pending = 0
        if order == "scattered":
            self.files = [open(os.path.join(self.tmp, "%03d" % b), "w", encoding="utf-8",
                               newline="") for b in range(BUCKETS)]
            self.buffers = [[] for _ in range(BUCKETS)]
        elif order == "time":
            self.buffers = {}
        else:
            self.file = open(os.path.join(out, "transactions.csv"), "w", encoding="utf-8",
                             newline="")
            self.file.write(header)
        self.header = header
        self.quoted = False  # the first product_id quoted, in time and customer order

    def quote_first(self, line):
        """line, with its product_id quoted if it is the first row that has one."""
        if self.quoted:
            return line
        quoted = quote_product_id(line)
        if quoted is None:
            return line
        self.quoted = True
        return quoted

    def add(self, text, t):
        if self.order == "scattered":
            self.buffers[self.scatter(8)].append(text)
        elif self.order == "time":
            # the purchase time first (YYYY-MM-DDTHH:MM:SSZ sorts as time), cut off when written
            self.buffers.setdefault(t[PURCHASE] // TIME_BUCKET, []).append(ts(t[PURCHASE]) + text)
        else:
            self.file.write(self.quote_first(text))
            self.rows += 1
        self.pending += 1

    def end_of_customer(self):
        if self.pending >= FLUSH_LINES:
            self.flush()

    def flush(self):
        self.pending = 0
        if self.order == "scattered":
            for b in range(BUCKETS):
                if self.buffers[b]:
                    self.files[b].write("\0".join(self.buffers[b]))
                    self.files[b].write("\0")
                    self.buffers[b].clear()
        elif self.order == "time":
            for b, records in self.buffers.items():
                with open(os.path.join(self.tmp, "%+012d" % b), "a", encoding="utf-8",
                          newline="") as f:
                    f.write("\0".join(records))
                    f.write("\0")
            self.buffers.clear()

    def finish(self):
        """Writes transactions.csv from the buckets; returns its number of rows."""
        self.flush()
        if self.order == "customer":
            self.file.close()
            os.rmdir(self.tmp)
            return self.rows
        if self.order == "scattered":
            for f in self.files:
                f.close()
            names = ["%03d" % b for b in range(BUCKETS)]
        else:
            names = sorted(os.listdir(self.tmp), key=int)
        rows = 0
        with open(os.path.join(self.out, "transactions.csv"), "w", encoding="utf-8",
                  newline="") as tf:
            tf.write(self.header)
            for b, name in enumerate(names):
                path = os.path.join(self.tmp, name)
                with open(path, encoding="utf-8", newline="") as f:
                    records = f.read().split("\0")
                os.remove(path)
                records.pop()  # after the last separator
                rows += len(records)
                if self.order == "scattered":
                    random.Random("shuffle-%d-%d" % (self.seed, b)).shuffle(records)
                    tf.write("".join(records))
                else:
                    records.sort()
                    records = [r[20:] for r in records]
                    for k in range(len(records)):
                        if self.quoted:
                            break
                        records[k] = self.quote_first(records[k])
                    tf.write("".join(records))
                del records
        os.rmdir(self.tmp)
        return rows


class Messy:
    """--rejected-rows and --quoted-fields: which rows are changed, and how."""

    def __init__(self, g):
        self.p = g.params["rejected_rows"]
        self.quoted = g.params["quoted_fields"]
        self.r = g.messy.random
        self.rows = 0  # rows seen so far, both files
        self.rejected = 0
        self.customers = set()  # with a rejected row
        st = g.stats
        if self.p > 0:
            st.update(rejected_rows=0, rejected_customer_rows=0, rejected_transaction_rows=0,
                      orphan_customers_from_rejected_rows=0)
        if self.quoted > 0:
            st["quoted_field_rows"] = 0
        self.st = st

    def reject(self):
        """Whether this eligible row is to be rejected: at random, but never more than p of
        the rows seen so far (so the rejected fraction never passes p)."""
        if self.p > 0 and self.rejected + 1 <= self.p * self.rows and \
                self.r() < min(1.0, 20 * self.p):
            self.rejected += 1
            self.st["rejected_rows"] += 1
            return True
        return False

    def customer(self, fields, cid):
        """The fields to write for a customer row; records a rejection."""
        self.rows += 1
        r = self.r
        if self.quoted > 0 and r() < self.quoted:
            fields[6] = csv_field(QUOTED_STOREFRONTS[int(r() * len(QUOTED_STOREFRONTS))])
            self.st["quoted_field_rows"] += 1
        if fields[4] == PROD and self.reject():
            field, value = REJECTED_CUSTOMER[int(r() * len(REJECTED_CUSTOMER))]
            fields = list(fields)
            fields[field] = value
            self.customers.add(cid)
            self.st["rejected_customer_rows"] += 1
            return fields, True
        return fields, False

    def quote(self, t):
        """--quoted-fields: this transaction's product_id, quoted with a comma and a line break
        in it (before its row and any duplicate of it are written)."""
        r = self.r
        if r() < self.quoted:
            raw = RAW_PRODUCT.get(t[PID], t[PID])
            t[PID] = csv_field(raw + QUOTED_SUFFIXES[int(r() * len(QUOTED_SUFFIXES))])
            self.st["quoted_field_rows"] += 1

    def transaction(self, t, cid, eligible):
        """A rejected copy of t, or None."""
        if eligible and self.reject():
            field, value = REJECTED_TRANSACTION[int(self.r() * len(REJECTED_TRANSACTION))]
            t = list(t)
            t[field] = value
            self.customers.add(cid)
            self.st["rejected_transaction_rows"] += 1
            return t
        return None


def generate(n_customers, seed, params, out):
    """Writes the data set of the shape params (PARAMETERS) for n_customers (times
    customers_factor)."""
    n_customers *= params["customers_factor"]
    # today's manifest for today's data (whatever the history factor, which it always held)
    default = dict(params, history_factor=1) == PARAMETERS
    os.makedirs(out, exist_ok=True)
    g = Generator(seed, params)
    st = g.stats
    eol = "\r\n" if params["crlf"] else "\n"
    bom = "\ufeff" if params["bom"] else ""
    rows = Rows(params["order"], seed, g.scatter.getrandbits, out,
                bom + ",".join(TRANSACTION_COLUMNS) + eol)
    duplicate = g.dup.random
    messy = Messy(g) if params["rejected_rows"] > 0 or params["quoted_fields"] > 0 else None
    grouped = params["order"] == "customer"

    with open(os.path.join(out, "customers.csv"), "w", encoding="utf-8", newline="") as cf:
        cf.write(bom + ",".join(CUSTOMER_COLUMNS) + eol)
        for i in range(n_customers):
            fields, txs = g.customer(i)
            cid = g.cid
            customer_rejected = False
            if fields is not None:
                if messy:
                    fields, customer_rejected = messy.customer(fields, cid)
                cf.write(",".join(fields) + eol)
            else:
                if any(t[ENV] == PROD for t in txs):
                    st["orphan_customers"] += 1
                st["orphan_transactions"] += len(txs)
            if grouped:
                txs = sorted(txs, key=lambda t: t[PURCHASE])
            sandbox_tx = False
            orphaned = False  # a production transaction accepted, its customer row rejected
            eligible_customer = fields is not None and fields[4] == PROD
            for t in txs:
                rejected = None
                if messy:
                    messy.rows += 1
                    if messy.quoted > 0:
                        messy.quote(t)
                    rejected = messy.transaction(t, cid, eligible_customer and t[ENV] == PROD)
                text = write_transaction_line(rejected or t, eol)
                rows.add(text, t)
                if t[ENV] == SANDBOX:
                    sandbox_tx = True
                    st["sandbox_transactions"] += 1
                elif customer_rejected and rejected is None:
                    orphaned = True
                if len(t) > 14:  # history extension rows are never duplicated, so that
                    continue      # --history-factor changes nothing else
                x = duplicate()
                if rejected is not None:
                    continue  # a rejected row is never duplicated
                if x < 0.001:
                    rows.add(text, t)
                    st["exact_duplicate_rows"] += 1
                    if messy:
                        messy.rows += 1
                elif x < 0.0012 and t[PTYPE] != CONS:
                    t[PRICE] = "%s1" % t[PRICE] if "." in t[PRICE] else t[PRICE] + ".5"
                    rows.add(write_transaction_line(t, eol), t)
                    st["conflicting_duplicate_rows"] += 1
                    if messy:
                        messy.rows += 1
            if sandbox_tx and fields is not None:
                g.sandbox_tx_customers.append(cid)
            if orphaned:
                st["orphan_customers_from_rejected_rows"] += 1
            rows.end_of_customer()
    st["transactions_rows"] = rows.finish()

    manifest = {
        "generator": "bench/generate.py",
        "customers": n_customers,
        "seed": seed,
        "history_factor": params["history_factor"],
        "as_of": ts(AS_OF),
        "cutover": ts(CUTOVER),
        "counts": st,
        "sandbox_transaction_customers": sorted(g.sandbox_tx_customers),
    }
    if not default:  # the default shape's manifest stays as it always was
        manifest["parameters"] = {k: v for k, v in params.items()
                                  if k not in LATER_PARAMETERS or v != PARAMETERS[k]}
        manifest["generator_options"] = parameter_options(params)
    if messy and messy.p > 0:
        manifest["rejected_row_customers"] = sorted(messy.customers)
    with open(os.path.join(out, "manifest.json"), "w", encoding="utf-8") as f:
        json.dump(manifest, f, indent=1, sort_keys=True)
        f.write("\n")
    return st, n_customers


def fraction(text):
    value = float(text)
    if not 0 <= value < 1:
        raise argparse.ArgumentTypeError("%s is not a fraction in [0, 1)" % text)
    return value


def add_shape_arguments(ap):
    """The shape's options (module doc) on the parser ap."""
    ap.add_argument("--shape", default="default", choices=list(SHAPES),
                    help="a preset of the parameters below (module doc); default: none set")
    ap.add_argument("--customers-factor", type=int, help="write F times --customers customers")
    ap.add_argument("--history-factor", type=int,
                    help="K times the renewals of every auto-renewable (default 1)")
    ap.add_argument("--ids", choices=["default", "revenuecat"],
                    help="customer and transaction ids (the next two override each part)")
    ap.add_argument("--customer-ids", type=customer_id_style, metavar="STYLE",
                    help="default, revenuecat, uuid, length:MIN-MAX or length:N (MIN >= %d)"
                    % CUSTOMER_ID_MIN)
    ap.add_argument("--transaction-id-length", type=transaction_id_length, metavar="MIN-MAX",
                    help="transaction ids of MIN-MAX or N digits (MIN >= %d; default: 16, 19 "
                    "with --ids revenuecat)" % TRANSACTION_ID_MIN)
    ap.add_argument("--order", choices=["scattered", "time", "customer"])
    ap.add_argument("--shallow", action="store_true", default=None,
                    help="one or two transactions per customer")
    ap.add_argument("--consumable-share", type=fraction, metavar="P")
    ap.add_argument("--non-consumable-share", type=fraction, metavar="P")
    ap.add_argument("--renewal-state-absent", type=fraction, metavar="P")
    ap.add_argument("--rejected-rows", type=fraction, metavar="P")
    ap.add_argument("--quoted-fields", type=fraction, metavar="P")
    ap.add_argument("--crlf", action="store_true", default=None)
    ap.add_argument("--bom", action="store_true", default=None)


def shape_options_parameters(options):
    """The parameters (PARAMETERS) the generator's shape options give, e.g. ["--order",
    "time", "--consumable-share", "0.14"] (bench/run.py --shape-options); ValueError with
    argparse's message when one is not an option of this script."""
    class Parser(argparse.ArgumentParser):
        def error(self, message):
            raise ValueError(message)
    ap = Parser(prog="bench/generate.py", add_help=False)
    add_shape_arguments(ap)
    a = ap.parse_args(options)
    return shape_parameters(a.shape, **{k: getattr(a, k) for k in PARAMETERS})


def main():
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--customers", type=int, required=True)
    ap.add_argument("--seed", type=int, default=1)
    ap.add_argument("--out", required=True)
    add_shape_arguments(ap)
    a = ap.parse_args()
    params = shape_parameters(a.shape, **{k: getattr(a, k) for k in PARAMETERS})
    if params["customers_factor"] < 1 or a.customers * params["customers_factor"] > 50_000_000 \
            or a.customers < 1:
        ap.error("--customers (times --customers-factor) must be between 1 and 50000000")
    if params["history_factor"] < 1 or params["history_factor"] > 1000:
        ap.error("--history-factor must be between 1 and 1000")
    if params["consumable_share"] + params["non_consumable_share"] >= 0.9:
        ap.error("--consumable-share and --non-consumable-share must add up to less than 0.9")
    t0 = time.monotonic()
    st, n = generate(a.customers, a.seed, params, a.out)
    options = parameter_options(params)
    print("generate: %s%d customers rows, %d transactions rows (%.1f per customer) in %.1f s -> %s"
          % ("shape %s (%s): " % (a.shape if a.shape != "default" else "of your own",
                                  " ".join(options)) if options else "",
             st["customers_rows"], st["transactions_rows"],
             st["transactions_rows"] / max(1, n), time.monotonic() - t0, a.out),
          file=sys.stderr)


if __name__ == "__main__":
    main()
