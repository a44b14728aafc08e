#!/usr/bin/env python3
"""Describes your own export in the benchmark generator's terms (Python 3 stdlib only).

    python3 bench/describe.py CUSTOMERS.csv TRANSACTIONS.csv [--json]
    python3 bench/describe.py DIR [--json]
    python3 bench/describe.py --self-test

Reads the two canonical files (SPEC §2 columns, found by their header names in any order;
a UTF-8 BOM, CRLF or LF, RFC 4180 quoted fields with commas and line breaks; gzip is read
as what it inflates to) and prints what bench/generate.py's module docstring ("Shape
parameters") calls the shape of an export, so that you can generate data of that shape and
time it:
- rows: customers rows, transaction rows, transactions per customer of customers.csv (mean,
  p50, p90, p99, max; the share with none), orphan transactions (customer_id not in
  customers.csv);
- id lengths in UTF-8 bytes: customer_id, transaction_id, original_transaction_id (min,
  p50, max), and the share of 16 bytes or more: Swift keeps a String of up to 15 UTF-8 bytes
  inside the value itself and puts a longer one in a heap object of its own, so long ids
  cost an allocation, memory and a pointer chase per id (bench/README.md, "Memory, structure
  by structure");
- the order of the transaction rows: the share of adjacent rows whose purchase_date does not
  go back, the share of adjacent rows of one customer, the share of customers with two or
  more rows whose rows are one run; classed as the generator's --order values `customer`
  (90% or more of those customers in one run), `time` (90% or more of adjacent rows in
  purchase order) or `scattered`;
- the type mix: product_type; renewal_state among auto_renewable rows (empty included);
  ownership_type, environment; the customers' platform and environment; rows SPEC §8.5
  rejects for an empty required field, a value SPEC does not name, an unreadable
  purchase_date or customer date, a price that is not a decimal, or another number of
  fields than the header (a lower bound: other timestamps and repeated ids are not checked);
- empty-field rates of every column of both files; rows with a quoted field holding a comma
  or a line break; line ends (CRLF, LF); a BOM; the forms of purchase_date;
- a suggested `python3 bench/generate.py` command line made of the options the generator
  accepts (read from generate.PARAMETERS when this runs) that approximates the export, with
  comment lines for what it cannot reproduce, and the `scripts/bench` line that times it
  against the DuckDB script (`--shape NAME` when the options are one of the generator's
  presets, else `--shape-options '…'`).

DIR is a folder holding customers.csv and transactions.csv (or the parts transactions-00001.csv,
transactions-00002.csv, ..., read in order): bench/generate.py's output, or
the folder `grandfather normalize` writes from any input the tool reads (App Store files,
RevenueCat exports, canonical files; docs/Warehouse.md, "The warehouse layout"). In such a
folder customers.csv is sorted by customer id and holds orphans (`is_orphan`), which are
counted as customers without a row of their own; the transactions' parts keep the rows in
input order (several inputs one after another), so its order is the inputs'; but line ends, BOM,
timestamps (`.000000Z`), enum case and defaults (environment, ownership_type) are
normalize's own, not the export's, so --crlf and --bom are not suggested; it holds the
accepted rows only, and the share rejected is its manifest.json's.

One pass over each file; memory grows with the number of distinct customer ids (a dict of
them) and not with rows: about 150 bytes a customer with 47-byte ids, under 200 MB at a
million customers (measured at 100,000: 49 MB peak RSS, 6 s for their million rows). --json
prints the same figures as one JSON object. Bad input (a missing file, a file without the
columns needed) is one line on stderr and exit 2.
"""
import argparse
import collections
import csv
import datetime
import gzip
import itertools
import json
import math
import os
import shlex
import subprocess
import sys
import tempfile
import time

HERE = os.path.dirname(os.path.abspath(__file__))
sys.dont_write_bytecode = True  # importing bench/generate.py leaves no bench/__pycache__

sys.path.insert(0, HERE)
# The generator's options and bounds, and the canonical columns (SPEC §2) as it writes them.
import generate  # noqa: E402
from generate import CUSTOMER_COLUMNS, TRANSACTION_COLUMNS  # noqa: E402

# the columns this script needs to say anything
NEEDED_CUSTOMERS = ["customer_id"]
NEEDED_TRANSACTIONS = ["transaction_id", "customer_id", "product_type", "purchase_date"]
# SPEC §2: required fields and the values it names (compared lower-case)
REQUIRED_CUSTOMERS = ["customer_id", "platform"]
REQUIRED_TRANSACTIONS = ["transaction_id", "customer_id", "product_id", "product_type",
                         "purchase_date"]
PLATFORMS = {"ios", "ipados", "macos", "tvos", "watchos", "visionos", "android", "web", "amazon"}
PRODUCT_TYPES = ["auto_renewable", "non_renewing", "non_consumable", "consumable"]
RENEWAL_STATES = {"subscribed", "expired", "in_billing_retry", "in_grace_period", "revoked"}
OWNERSHIP = {"purchased", "family_shared"}
ENVIRONMENTS = {"production", "sandbox", "xcode"}
EMPTY = "(empty)"
RC_PREFIX = "$RCAnonymousID:"
SMALL_STRING = 15  # UTF-8 bytes a Swift String holds inline on 64-bit platforms
ORDER_SHARE = 0.9  # the share that makes an order `customer` or `time`

# What bench/generate.py writes without the parameter (its default shape, --customers 20000
# --seed 1, measured with this script; the self-test checks them again at 3000 customers):
# the share of customers (of --customers N) that get a customers row (0.5% are orphans)...
CUSTOMER_ROW_SHARE = 0.9956
# ... consumable and non-consumable rows (the generator can only add to them; --shallow has
# its own), empty renewal_state among auto-renewable rows, auto-renewable rows per customers
# row (--history-factor multiplies it), rows with a line break in a quoted field (both files)
NATURAL = {
    "consumable_share": 0.038, "consumable_share_shallow": 0.366,
    "non_consumable_share": 0.0052, "non_consumable_share_shallow": 0.0495,
    "renewal_state_empty": 0.215, "renewal_state_empty_shallow": 0.324,
    "auto_renewable_per_customer": 9.48, "auto_renewable_share": 0.953,
    "line_break_rows": 0.00004,
}


class InputError(Exception):
    """Bad input: one line on stderr, exit 2."""


# ---- reading

def open_csv(path):
    """(text file, first line without BOM, whether it had a BOM, whether it is gzip)."""
    if os.path.isdir(path):
        raise InputError("%s: is a folder (give a folder alone, or two files)" % path)
    try:
        with open(path, "rb") as f:
            magic = f.read(2)
        if magic == b"\x1f\x8b":
            f = gzip.open(path, "rt", encoding="utf-8", newline="")
        else:
            f = open(path, encoding="utf-8", newline="")
        first = f.readline()
    except FileNotFoundError:
        raise InputError("%s: no such file" % path)
    except (OSError, EOFError) as e:
        raise InputError("%s: %s" % (path, getattr(e, "strerror", None) or e))
    except UnicodeDecodeError:
        raise InputError("%s: not UTF-8 text" % path)
    bom = first.startswith("\ufeff")
    if bom:
        first = first[1:]
    if first.lstrip()[:1] in ("[", "{"):
        f.close()
        raise InputError("%s: looks like JSON; run `grandfather normalize` on it and describe "
                         "the folder it writes" % path)
    return f, first, bom, magic == b"\x1f\x8b"


class Source:
    """One CSV file read once: its header, rows, and what the rows looked like as text. A list
    of paths is one table in parts (a normalize folder's transactions), each part headed by the
    same header, read one after the other."""

    def __init__(self, path):
        paths = [path] if isinstance(path, str) else list(path)
        self.parts = paths[1:]
        self.path = paths[0] if len(paths) == 1 else "%s ... %s (%d parts)" % (
            paths[0], os.path.basename(paths[-1]), len(paths))
        self.size = sum(os.path.getsize(p) for p in paths if os.path.isfile(p))
        self.f, first, self.bom, self.gzip = open_csv(paths[0])
        # [the physical line read last, whether a line of the current row held a quote]
        self.state = ["", False]
        self.reader = csv.reader(self.lines(first))
        try:
            self.header = next(self.reader)  # names match exactly (SPEC §8.2)
        except StopIteration:
            raise InputError("%s: empty file (no header row)" % path)
        except (csv.Error, UnicodeDecodeError) as e:
            raise InputError("%s: header unreadable: %s" % (path, e))
        self.line_ends = collections.Counter()
        self.blank_lines = 0
        self.ragged_rows = 0  # rows with another number of fields than the header
        self.ragged = False  # the last row was one
        self.quote_rows = 0  # rows with a quote character in their text
        self.special_rows = 0  # ... with a field holding a comma or a line break
        self.line_break_rows = 0  # ... with a field holding a line break
        self.inner_quote_rows = 0  # ... with a field holding a quote character

    def lines(self, first):
        st = self.state
        for line in itertools.chain((first,), self.f, self.later_parts()):
            st[0] = line
            if '"' in line:
                st[1] = True
            yield line

    def later_parts(self):
        """The lines of the parts after the first, each part's header checked and left out."""
        for part in self.parts:
            self.f.close()
            self.f, header, _, _ = open_csv(part)
            if next(csv.reader([header]), None) != self.header:
                raise InputError("%s: its header is not the first part's" % part)
            yield from self.f

    def index(self, name):
        try:
            return self.header.index(name)
        except ValueError:
            return None

    def rows(self):
        """The rows, each as long as the header; tallies line ends and quoted fields."""
        n = len(self.header)
        st = self.state
        ends = self.line_ends
        pad = [""] * n
        try:
            for row in self.reader:
                last = st[0]
                if last.endswith("\r\n"):
                    ends["crlf"] += 1
                elif last.endswith("\n"):
                    ends["lf"] += 1
                elif last.endswith("\r"):
                    ends["cr"] += 1
                else:
                    ends["none"] += 1
                if not row:
                    self.blank_lines += 1
                    continue
                if st[1]:
                    st[1] = False
                    self.quote_rows += 1
                    brk = any("\n" in v or "\r" in v for v in row)
                    if brk or any("," in v for v in row):
                        self.special_rows += 1
                        self.line_break_rows += brk
                    self.inner_quote_rows += any('"' in v for v in row)
                if len(row) != n:
                    self.ragged_rows += 1
                    self.ragged = True
                    yield (row + pad)[:n]
                    self.ragged = False
                    continue
                yield row
        except csv.Error as e:
            raise InputError("%s: line %d: %s" % (self.path, self.reader.line_num, e))
        except UnicodeDecodeError:
            raise InputError("%s: not UTF-8 text (after line %d)"
                             % (self.path, self.reader.line_num))
        finally:
            self.f.close()

    def text_format(self):
        ends = self.line_ends
        total = sum(ends.values())
        crlf = ends["crlf"] / total if total else 0.0
        return {
            "bytes": self.size, "gzip": self.gzip, "bom": self.bom,
            "line_ends": "crlf" if total and crlf >= 0.5 else "lf",
            "crlf_share": crlf,
            "rows_with_quotes": self.quote_rows,
            "rows_with_quoted_comma_or_line_break": self.special_rows,
            "rows_with_quoted_line_break": self.line_break_rows,
            "rows_with_quote_character_inside": self.inner_quote_rows,
            "rows_with_other_field_count": self.ragged_rows,
            "blank_lines": self.blank_lines,
        }


def utf8_len(s):
    return len(s) if s.isascii() else len(s.encode("utf-8"))


_EPOCH = datetime.datetime(1970, 1, 1)


def canonical_time(s):
    """(a timestamp as 'YYYY-MM-DDTHH:MM:SS.ffffff' in UTC: text that sorts as time, its form),
    or (None, "unreadable"): SPEC §8.6's syntax, a zone-less one read as UTC."""
    try:
        if s.isascii() and s.lstrip("-").isdigit() and s.count("-") <= 1 and \
                s[-1].isdigit():  # integer milliseconds since the epoch
            d = _EPOCH + datetime.timedelta(milliseconds=int(s))
            form = "epoch milliseconds"
        else:
            # YYYY-MM-DDTHH:MM:SS, then a fraction and a zone, or nothing
            if not (s.isascii() and len(s) >= 19 and s[10] in "Tt" and s[13] == s[16] == ":"):
                return None, "unreadable"
            if s[-1] in "Zz":
                s = s[:-1] + "+00:00"
            d = datetime.datetime.fromisoformat(s[:10] + "T" + s[11:])
            if d.tzinfo is not None:
                d = d.astimezone(datetime.timezone.utc).replace(tzinfo=None)
                form = "other with a zone"
            else:
                form = "zone-less (read as UTC here)"
        return "%04d-%02d-%02dT%02d:%02d:%02d.%06d" % (
            d.year, d.month, d.day, d.hour, d.minute, d.second, d.microsecond), form
    except (ValueError, OverflowError):
        return None, "unreadable"


def valid_time(s):
    """Whether s, not empty, is a timestamp of SPEC §8.6's syntax."""
    if len(s) == 20 and s[19] == "Z" and s[10] == "T":
        return True
    return canonical_time(s)[0] is not None


def valid_price(p):
    """Whether p, not empty, is a decimal of SPEC §8.5: -?digits[.digits]."""
    q = p[1:] if p[:1] == "-" else p
    whole, dot, fraction = q.partition(".")
    return q.isascii() and whole.isdigit() and (not dot or fraction.isdigit())


# ---- figures

def quantiles(counter, qs):
    """The nearest-rank quantiles qs of the values counted in counter (value -> count)."""
    total = sum(counter.values())
    if not total:
        return [None] * len(qs)
    out = []
    keys = sorted(counter)
    for q in qs:
        rank = max(1, math.ceil(q * total))
        cum = 0
        for k in keys:
            cum += counter[k]
            if cum >= rank:
                out.append(k)
                break
    return out


def length_figures(counter):
    total = sum(counter.values())
    if not total:
        return None
    p50, = quantiles(counter, [0.5])
    long_ = sum(c for k, c in counter.items() if k > SMALL_STRING)
    return {"count": total, "min": min(counter), "p50": p50, "max": max(counter),
            "share_16_bytes_or_more": long_ / total}


def shares(counter, total=None):
    total = sum(counter.values()) if total is None else total
    if not total:
        return {}
    return {k: v / total for k, v in sorted(counter.items(), key=lambda kv: (-kv[1], kv[0]))}


def describe(customers_path, transactions_path, folder=None):
    """The figures of one export (a dict, as --json prints it)."""
    cs = Source(customers_path)
    ts = Source(transactions_path)
    # the files by their headers, whichever came first
    if "transaction_id" in cs.header and "transaction_id" not in ts.header:
        cs, ts = ts, cs
    for src, needed, what in ((cs, NEEDED_CUSTOMERS, "customers"),
                              (ts, NEEDED_TRANSACTIONS, "transactions")):
        missing = [c for c in needed if c not in src.header]
        if missing or (what == "customers" and "transaction_id" in src.header):
            if what == "customers" and "transaction_id" in src.header:
                raise InputError("%s and %s are both transactions files (both have "
                                 "transaction_id)" % (cs.path, ts.path))
            raise InputError("%s: no %s column%s in its header, so not a canonical %s file "
                             "(header: %s)" % (src.path, ", ".join(missing),
                                               "s" if len(missing) > 1 else "", what,
                                               ",".join(src.header)[:200]))
    warehouse = "is_orphan" in cs.header or "is_promotional" in ts.header
    t0 = time.monotonic()

    # ---- customers.csv
    ci = cs.index("customer_id")
    plat_i, env_i = cs.index("platform"), cs.index("environment")
    orphan_i, unlinked_i = cs.index("is_orphan"), cs.index("is_unlinked")
    time_idx = [i for i in (cs.index("original_purchase_date"), cs.index("preorder_date"))
                if i is not None]
    known = {}  # customer id -> transaction rows (negative: rows not in one run)
    cid_len = collections.Counter()
    customer_kinds = collections.Counter()  # (platform, environment, emptiness pattern)
    repeated = rc_ids = uuid_ids = customer_rows = assembled = unlinked = 0
    for row in cs.rows():
        cid = row[ci]
        if warehouse and ((orphan_i is not None and row[orphan_i] == "true")
                          or (unlinked_i is not None and row[unlinked_i] == "true")):
            assembled += 1  # normalize made it from transactions alone
            unlinked += unlinked_i is not None and row[unlinked_i] == "true"
            continue
        customer_rows += 1
        if cid in known:
            repeated += 1
        else:
            known[cid] = 0
            if cid:
                cid_len[utf8_len(cid)] += 1
            if cid.startswith(RC_PREFIX):
                rc_ids += 1
            elif len(cid) == 36 and cid[8] == cid[13] == cid[18] == cid[23] == "-":
                uuid_ids += 1
        bad = cs.ragged or any(row[i] and not valid_time(row[i]) for i in time_idx)
        customer_kinds[(row[plat_i] if plat_i is not None else "",
                        row[env_i] if env_i is not None else "", bad,
                        tuple(map(bool, row)))] += 1

    # ---- transactions.csv
    col = ts.index
    tid_i, otid_i, tci, pd_i = col("transaction_id"), col("original_transaction_id"), \
        col("customer_id"), col("purchase_date")
    enum_idx = [col(c) for c in ("product_type", "renewal_state", "ownership_type",
                                 "environment")]
    price_i = col("price")
    ragged = ts  # .ragged: the row had another number of fields
    # (product_type, renewal_state, ownership, env, a bad value, emptiness pattern) -> rows
    kinds = collections.Counter()
    tid_len, otid_len = collections.Counter(), collections.Counter()
    time_forms = collections.Counter()
    orphans = {}
    get, oget = known.get, orphans.get
    rows = orphan_rows = no_customer = tid_other = 0
    time_pairs = time_ok = cust_pairs = cust_same = reentries = 0
    prev_cid = None
    prev_time = None
    for row in ts.rows():
        rows += 1
        bad = ragged.ragged
        # purchase order
        p = row[pd_i]
        if len(p) == 20 and p[19] == "Z" and p[10] == "T":
            k = p[:19] + ".000000"
            time_forms["YYYY-MM-DDTHH:MM:SSZ"] += 1
        elif len(p) == 27 and p[26] == "Z" and p[19] == ".":
            k = p[:26]
            time_forms["YYYY-MM-DDTHH:MM:SS.ffffffZ"] += 1
        elif not p:
            k = None
            time_forms[EMPTY] += 1
        else:
            k, form = canonical_time(p)
            time_forms[form] += 1
            bad = bad or k is None
        if k is not None:
            if prev_time is not None:
                time_pairs += 1
                if k >= prev_time:
                    time_ok += 1
        prev_time = k
        if price_i is not None:
            pr = row[price_i]
            if pr and not valid_price(pr):
                bad = True
        kinds[(row[enum_idx[0]],
               row[enum_idx[1]] if enum_idx[1] is not None else "",
               row[enum_idx[2]] if enum_idx[2] is not None else "",
               row[enum_idx[3]] if enum_idx[3] is not None else "", bad,
               tuple(map(bool, row)))] += 1
        tid = row[tid_i]
        if tid:  # an empty one is absent (the empty-field rates count it)
            tid_len[len(tid) if tid.isascii() else utf8_len(tid)] += 1
            if not tid.isdigit():
                tid_other += 1
        if otid_i is not None:
            otid = row[otid_i]
            if otid:
                otid_len[len(otid) if otid.isascii() else utf8_len(otid)] += 1
        # customers: counts, runs, orphans
        cid = row[tci]
        if not cid:
            no_customer += 1
            prev_cid = None
            continue
        if prev_cid is not None:
            cust_pairs += 1
            if cid == prev_cid:
                cust_same += 1
        c = get(cid)
        if c is None:
            orphan_rows += 1
            d = orphans
            c = oget(cid, 0)
        else:
            d = known
        if c and cid != prev_cid:  # back after another customer's rows
            reentries += 1
            if c > 0:
                c = -c
        d[cid] = c + 1 if c >= 0 else c - 1
        prev_cid = cid
    seconds = time.monotonic() - t0

    # ---- per customer
    per_customer = collections.Counter()
    multi = one_run = 0
    for c in itertools.chain(known.values(), orphans.values()):
        if c >= 2:
            multi += 1
            one_run += 1
        elif c <= -2:
            multi += 1
    for c in known.values():
        per_customer[abs(c)] += 1
    with_rows = sum(v for k, v in per_customer.items() if k > 0)
    at_most_two = sum(v for k, v in per_customer.items() if 0 < k <= 2)
    known_rows = rows - orphan_rows - no_customer
    mean = known_rows / len(known) if known else None
    p50, p90, p99 = quantiles(per_customer, [0.5, 0.9, 0.99])

    # ---- orderings
    time_share = time_ok / time_pairs if time_pairs else None
    same_share = cust_same / cust_pairs if cust_pairs else None
    run_share = one_run / multi if multi else None
    if run_share is not None and multi >= 10 and run_share >= ORDER_SHARE:
        order = "customer"
    elif time_share is not None and time_share >= ORDER_SHARE:
        order = "time"
    else:
        order = "scattered"

    # ---- type mix and empties
    ptype, state, owner, env = (collections.Counter() for _ in range(4))
    t_empty = [0] * len(ts.header)
    invalid_t = 0
    for (pt, rs, ow, en, bad_value, pattern), n in kinds.items():
        ptype[pt or EMPTY] += n
        if pt.lower() == "auto_renewable":
            state[rs or EMPTY] += n
        owner[ow or EMPTY] += n
        env[en or EMPTY] += n
        for i, present in enumerate(pattern):
            if not present:
                t_empty[i] += n
        bad = bad_value or pt.lower() not in PRODUCT_TYPES or \
            (rs and rs.lower() not in RENEWAL_STATES) or \
            (ow and ow.lower() not in OWNERSHIP) or (en and en.lower() not in ENVIRONMENTS) or \
            any(not pattern[ts.header.index(c)] for c in REQUIRED_TRANSACTIONS
                if c in ts.header)
        invalid_t += n if bad else 0
    platform, cenv = collections.Counter(), collections.Counter()
    c_empty = [0] * len(cs.header)
    invalid_c = 0
    for (pl, en, bad_value, pattern), n in customer_kinds.items():
        platform[pl or EMPTY] += n
        cenv[en or EMPTY] += n
        for i, present in enumerate(pattern):
            if not present:
                c_empty[i] += n
        bad = bad_value or (plat_i is not None and pl.lower() not in PLATFORMS) or \
            (en and en.lower() not in ENVIRONMENTS) or \
            any(not pattern[cs.header.index(c)] for c in REQUIRED_CUSTOMERS if c in cs.header)
        invalid_c += n if bad else 0
    ar_rows = sum(n for k, n in ptype.items() if k.lower() == "auto_renewable")
    type_share = collections.Counter()  # SPEC's enums are case-insensitive
    for k, v in shares(ptype, rows).items():
        type_share[k.lower()] += v

    def empties(src, counts, total):
        out = {}
        for name, n in zip(src.header, counts):
            out[name] = n / total if total else None
        canonical = CUSTOMER_COLUMNS if src is cs else TRANSACTION_COLUMNS
        for name in canonical:
            if name not in out:
                out[name] = "no column"
        return out

    cf, tf = cs.text_format(), ts.text_format()
    cf["missing_required_columns"] = [c for c in REQUIRED_CUSTOMERS if c not in cs.header]
    tf["missing_required_columns"] = [c for c in REQUIRED_TRANSACTIONS if c not in ts.header]
    for fmt, n in ((cf, customer_rows + assembled), (tf, rows)):
        fmt["rows"] = n
        fmt["share_quoted_comma_or_line_break"] = \
            fmt["rows_with_quoted_comma_or_line_break"] / n if n else 0.0
        fmt["share_quoted_line_break"] = fmt["rows_with_quoted_line_break"] / n if n else 0.0
    all_rows = customer_rows + assembled + rows
    d = {
        "input": {
            "kind": "normalize folder" if warehouse else "canonical files",
            "folder": folder, "customers": cs.path, "transactions": ts.path,
            "seconds": round(seconds, 2),
        },
        "rows": {
            "customers": customer_rows,
            "transactions": rows,
            "transactions_per_customer": {"mean": mean, "p50": p50, "p90": p90, "p99": p99,
                                          "max": max(per_customer) if per_customer else None},
            "share_customers_without_transactions":
                per_customer[0] / len(known) if known else None,
            "share_of_customers_with_transactions_having_at_most_2":
                at_most_two / with_rows if with_rows else None,
            "orphan_transaction_share": orphan_rows / rows if rows else None,
            "orphan_transactions": orphan_rows,
            "orphan_customer_ids": len(orphans),
            "transactions_without_customer_id": no_customer,
            "repeated_customer_ids": repeated,
            "auto_renewable_per_customer": ar_rows / customer_rows if customer_rows else None,
        },
        "ids": {
            "customer_id": length_figures(cid_len),
            "transaction_id": length_figures(tid_len),
            "original_transaction_id": length_figures(otid_len),
            "revenuecat_anonymous_share": rc_ids / len(known) if known else 0.0,
            "uuid_share": uuid_ids / len(known) if known else 0.0,
        },
        "ordering": {
            "purchase_date_non_decreasing_share": time_share,
            "same_customer_adjacent_share": same_share,
            "customers_in_one_run_share": run_share,
            "customers_with_2_or_more_rows": multi,
            "returns_to_a_customer_after_another": reentries,
            "order": order,
        },
        "type_mix": {
            "product_type": shares(ptype, rows),
            "renewal_state_of_auto_renewable": shares(state),
            "ownership_type": shares(owner, rows),
            "environment": shares(env, rows),
            "customers_platform": shares(platform, customer_rows),
            "customers_environment": shares(cenv, customer_rows),
            "consumable_share": type_share.get("consumable", 0.0),
            "non_consumable_share": type_share.get("non_consumable", 0.0),
            "renewal_state_empty_share":
                state[EMPTY] / ar_rows if ar_rows else None,
            "rows_spec_rejects_share": (invalid_t + invalid_c) / (customer_rows + rows)
                if customer_rows + rows else 0.0,
            "transaction_rows_spec_rejects": invalid_t,
            "customer_rows_spec_rejects": invalid_c,
        },
        "empty_fields": {
            "customers": empties(cs, c_empty, customer_rows),
            "transactions": empties(ts, t_empty, rows),
        },
        "format": {
            "customers": cf,
            "transactions": tf,
            "share_quoted_line_break_both_files":
                (cf["rows_with_quoted_line_break"] + tf["rows_with_quoted_line_break"])
                / all_rows if all_rows else 0.0,
            "purchase_date_forms": shares(time_forms, rows),
        },
    }
    if warehouse:
        d["input"]["normalize"] = {
            "assembled_customers": assembled, "unlinked_customers": unlinked,
            "inputs": None, "rows_read": None, "rows_rejected": None,
            "note": "a `grandfather normalize` folder: the transactions' parts keep the inputs' row "
                    "order (several inputs one after another), so the ordering is the "
                    "inputs'; customers.csv is sorted by id; line ends, BOM, timestamps, enum "
                    "case and the environment and ownership_type defaults are normalize's "
                    "own, not the export's; it holds the accepted rows only (rejected rows: "
                    "its manifest.json)",
        }
    if warehouse:
        # what normalize read and rejected (its rows are the accepted ones only)
        try:
            with open(os.path.join(os.path.dirname(ts.path), "manifest.json"),
                      encoding="utf-8") as mf:
                inputs = json.load(mf)["inputs"]
            n = d["input"]["normalize"]
            n["inputs"] = ["%s %s" % (i.get("format", "?"), i.get("kind", "?")) for i in inputs]
            n["rows_read"] = sum(int(i["rows_read"]) for i in inputs)
            n["rows_rejected"] = sum(int(i["rows_rejected"]) for i in inputs)
            if n["rows_read"]:
                d["type_mix"]["rows_spec_rejects_share"] = n["rows_rejected"] / n["rows_read"]
        except (OSError, ValueError, KeyError, TypeError):
            pass
    if d["ids"]["transaction_id"]:
        d["ids"]["transaction_id"]["digits_share"] = \
            1 - tid_other / d["ids"]["transaction_id"]["count"]
    d["suggestion"] = suggest(d, warehouse)
    return d


# ---- the generator's command line

def fraction_text(p, digits=3):
    p = min(round(p, digits), 1 - 10 ** -digits)  # the generator takes fractions below 1
    return ("%.*f" % (digits, p)).rstrip("0").rstrip(".") or "0"


def suggest(d, warehouse):
    notes = []
    rows, ids, ordering, mix, fmt = d["rows"], d["ids"], d["ordering"], d["type_mix"], d["format"]
    n = max(1, round(rows["customers"] / CUSTOMER_ROW_SHARE))
    argv = ["python3", "bench/generate.py", "--customers", str(n), "--seed", "1",
            "--out", "DIR"]

    def option(key, value=None):
        argv.append("--" + key.replace("_", "-"))
        if value is not None:
            argv.append(str(value))

    if ordering["order"] != "scattered":
        option("order", ordering["order"])
    elif ordering["purchase_date_non_decreasing_share"] is not None and \
            ordering["purchase_date_non_decreasing_share"] >= 0.6:
        notes.append("the rows are partly in purchase order (%.0f%% of adjacent rows); the "
                     "generator writes either scattered (about 50%%) or time order (100%%)"
                     % (100 * ordering["purchase_date_non_decreasing_share"]))
    shallow = rows["share_of_customers_with_transactions_having_at_most_2"] is not None and \
        rows["share_of_customers_with_transactions_having_at_most_2"] >= 0.75
    if shallow:
        option("shallow")
    # ids
    cid, tid = ids["customer_id"], ids["transaction_id"]
    if cid and tid:
        id_options(ids, notes, option)
    if rows["transactions"]:
        # renewals per subscriber: --history-factor K makes K times the auto-renewable rows
        k = 1
        ar = rows["auto_renewable_per_customer"]
        if ar is not None and not shallow:
            k = min(round(ar / NATURAL["auto_renewable_per_customer"]), 1000)
            if k >= 2:
                option("history_factor", k)
            else:
                k = 1
                if ar < 0.6 * NATURAL["auto_renewable_per_customer"]:
                    notes.append("%.1f auto-renewable rows per customer here, the generator "
                                 "writes about %.1f (--history-factor only multiplies them)"
                                 % (ar, NATURAL["auto_renewable_per_customer"]))
        # the type mix, against what the generator writes without the options (K times the
        # auto-renewable rows, the extra ones `expired`, leave the others a smaller share)
        cons, nc = mix["consumable_share"], mix["non_consumable_share"]
        grown = 1 + (k - 1) * NATURAL["auto_renewable_share"]
        shape = "_shallow" if shallow else ""
        natural_cons = NATURAL["consumable_share" + shape] / grown
        natural_nc = NATURAL["non_consumable_share" + shape] / grown
        if cons > natural_cons + 0.005:
            cons = min(cons, 0.85)
            option("consumable_share", fraction_text(cons))
        elif cons < natural_cons - 0.01:
            notes.append("consumable rows are %.1f%% here, the generator writes about %.1f%% and "
                         "cannot lower it" % (100 * cons, 100 * natural_cons))
        if nc > natural_nc + 0.002:
            nc = min(nc, 0.89 - (cons if cons > natural_cons + 0.005 else 0))
            option("non_consumable_share", fraction_text(nc))
        elif nc < natural_nc - 0.004:
            notes.append("non-consumable rows are %.1f%% here, the generator writes about %.1f%% "
                         "and cannot lower it" % (100 * nc, 100 * natural_nc))
        e = mix["renewal_state_empty_share"]
        e0 = NATURAL["renewal_state_empty_shallow" if shallow else "renewal_state_empty"] / k
        if e is not None and e > e0 + 0.02:
            option("renewal_state_absent", fraction_text((e - e0) / (1 - e0), 2))
        elif e is not None and e < e0 - 0.05:
            notes.append("renewal_state is empty on %.0f%% of auto-renewable rows here, the "
                         "generator leaves about %.0f%% empty and cannot lower it"
                         % (100 * e, 100 * e0))
    rejected = mix["rows_spec_rejects_share"]
    if rejected >= 0.0001:
        option("rejected_rows", fraction_text(rejected, 4))
    # the text
    q = fmt["share_quoted_line_break_both_files"]  # values, which normalize keeps
    if q > NATURAL["line_break_rows"] + 0.001:
        option("quoted_fields", fraction_text(q))
    if warehouse:
        notes.append("a normalize folder: its line ends and BOM are normalize's, so --crlf "
                     "and --bom are not inferred")
    else:
        c, t = fmt["customers"], fmt["transactions"]
        if c["line_ends"] == "crlf" or t["line_ends"] == "crlf":
            option("crlf")
            if c["line_ends"] != t["line_ends"]:
                notes.append("only one of the files has CRLF line ends; --crlf gives both")
        if c["bom"] or t["bom"]:
            option("bom")
            if c["bom"] != t["bom"]:
                notes.append("only one of the files has a BOM; --bom gives both")
    forms = fmt["purchase_date_forms"]
    plain = forms.get("YYYY-MM-DDTHH:MM:SSZ", 0.0) + \
        (forms.get("YYYY-MM-DDTHH:MM:SS.ffffffZ", 0.0) if warehouse else 0.0)
    if plain < 0.99 and d["rows"]["transactions"]:
        notes.append("%.0f%% of purchase_date values are in other forms than "
                     "YYYY-MM-DDTHH:MM:SSZ, the only one the generator writes"
                     % (100 * (1 - plain)))
    if n > 1_000_000:
        notes.append("at your size; a smaller --customers gives the same shape sooner")
    shape = preset(argv[8:])
    bench = ["scripts/bench", "--customers", argv[3]]
    if shape and shape != "default":
        bench += ["--shape", shape]
    elif not shape:
        bench += ["--shape-options", " ".join(argv[8:])]
    return {"argv": argv, "command": " ".join(shlex.quote(a) for a in argv), "notes": notes,
            "bench_shape": shape, "bench_command": " ".join(shlex.quote(a) for a in bench)}


def preset(options):
    """The name of the generator's preset (--shape) whose options are these, or None."""
    for name in generate.SHAPES:
        given = generate.parameter_options(generate.shape_parameters(name))
        if option_pairs(given) == option_pairs(options):
            return name
    return None


def option_pairs(options):
    """{option: value or None} of a command line's options, values as numbers where they are."""
    out, i = {}, 0
    while i < len(options):
        value = None
        if i + 1 < len(options) and not options[i + 1].startswith("--"):
            value = options[i + 1]
            try:
                value = float(value)
            except ValueError:
                pass
        out[options[i]] = value
        i += 2 if value is not None else 1
    return out


def id_options(ids, notes, option):
    """The options for the export's ids: --ids revenuecat, --customer-ids and
    --transaction-id-length."""
    cid, tid = ids["customer_id"], ids["transaction_id"]
    revenuecat = ids["revenuecat_anonymous_share"] >= 0.5
    uuid = ids["uuid_share"] >= 0.5
    if revenuecat:
        style = "revenuecat"
    elif uuid:
        style = "uuid"
    elif (cid["min"], cid["max"]) == (9, 9):
        style = None  # the default's length (`c` and 8 hex digits)
    else:
        low, high = clamp(cid["min"], generate.CUSTOMER_ID_MIN), clamp(cid["max"], generate.CUSTOMER_ID_MIN)
        style = "length:" + ("%d" % low if low == high else "%d-%d" % (low, high))
        if (low, high) != (cid["min"], cid["max"]):
            notes.append("customer ids of %s bytes here; the generator writes %d to %d"
                         % (span(cid), generate.CUSTOMER_ID_MIN, generate.ID_MAX))
        spread = sum(1 for n in range(low, high + 1) if n > SMALL_STRING) / (high - low + 1)
        if abs(spread - cid["share_16_bytes_or_more"]) > 0.1:
            notes.append("the generator spreads customer id lengths evenly over %s: %.0f%% of "
                         "16 bytes or more, against %.0f%% here"
                         % (style[len("length:"):], 100 * spread,
                            100 * cid["share_16_bytes_or_more"]))
    low, high = clamp(tid["min"], generate.TRANSACTION_ID_MIN), clamp(tid["max"], generate.TRANSACTION_ID_MIN)
    lengths = "%d" % low if low == high else "%d-%d" % (low, high)
    if (low, high) != (tid["min"], tid["max"]):
        notes.append("transaction ids of %s bytes here; the generator writes %d to %d digits"
                     % (span(tid), generate.TRANSACTION_ID_MIN, generate.ID_MAX))
    if tid["digits_share"] < 0.99:
        notes.append("%.0f%% of transaction ids hold other characters than digits; the "
                     "generator writes digits only" % (100 * (1 - tid["digits_share"])))
    if style == "revenuecat" and lengths == "19":
        option("ids", "revenuecat")  # both kinds of id, as RevenueCat's
        return
    if style:
        option("customer_ids", style)
    if lengths != "16":
        option("transaction_id_length", lengths)


def clamp(n, low):
    return min(max(n, low), generate.ID_MAX)


def span(f):
    return "%d" % f["min"] if f["min"] == f["max"] else "%d-%d" % (f["min"], f["max"])


# ---- printing

def pct(x, digits=1):
    if x is None:
        return "-"
    if isinstance(x, str):
        return x
    return "%.*f%%" % (digits, 100 * x)


def mix_text(m, limit=8):
    items = list(m.items())
    text = ", ".join("%s %s" % (k, pct(v)) for k, v in items[:limit])
    if len(items) > limit:
        text += ", ... (%d values)" % len(items)
    return text or "-"


def render(d):
    out = []

    def w(label, value=None):
        out.append(label if value is None else "  %-30s %s" % (label, value))

    i, r, ids, o, m, f = d["input"], d["rows"], d["ids"], d["ordering"], d["type_mix"], d["format"]
    w("describe: %s, %s (%s)" % (i["customers"], i["transactions"], i["kind"]))
    if "normalize" in i:
        nz = i["normalize"]
        w("  note: " + nz["note"])
        w("  customers normalize assembled from transactions alone (orphans, unlinked): %d, "
          "counted as orphan ids" % nz["assembled_customers"])
        if nz["inputs"] is not None:
            w("  normalize read %d rows (%s) and rejected %d"
              % (nz["rows_read"], ", ".join(nz["inputs"]), nz["rows_rejected"]))
    w("")
    w("rows")
    w("customers rows", "%d" % r["customers"])
    w("transaction rows", "%d" % r["transactions"])
    t = r["transactions_per_customer"]
    if t["mean"] is not None:
        w("transactions per customer", "mean %.2f, p50 %d, p90 %d, p99 %d, max %d (customers of "
          "customers.csv, none included)" % (t["mean"], t["p50"], t["p90"], t["p99"], t["max"]))
    w("customers with none", pct(r["share_customers_without_transactions"]))
    w("customers with 1 or 2", "%s of those with any"
      % pct(r["share_of_customers_with_transactions_having_at_most_2"]))
    w("orphan transactions", "%s (%d rows, %d customer ids not in customers.csv)"
      % (pct(r["orphan_transaction_share"], 2), r["orphan_transactions"],
         r["orphan_customer_ids"]))
    if r["transactions_without_customer_id"]:
        w("rows without customer_id", "%d" % r["transactions_without_customer_id"])
    if r["repeated_customer_ids"]:
        w("customer ids repeated", "%d rows of customers.csv" % r["repeated_customer_ids"])
    w("")
    w("id lengths (UTF-8 bytes; Swift stores a String of 16 bytes or more out of line, in a heap")
    w("object of its own: an allocation and more memory per customer and per row)")
    for name in ("customer_id", "transaction_id", "original_transaction_id"):
        x = ids[name]
        w(name, "-" if x is None else "min %d, p50 %d, max %d; %s of 16 bytes or more"
          % (x["min"], x["p50"], x["max"], pct(x["share_16_bytes_or_more"])))
    if ids["revenuecat_anonymous_share"]:
        w("customer ids " + RC_PREFIX + "...", pct(ids["revenuecat_anonymous_share"]))
    if ids["uuid_share"]:
        w("customer ids like UUIDs", pct(ids["uuid_share"]))
    if ids["transaction_id"] and ids["transaction_id"]["digits_share"] < 1:
        w("transaction ids not all digits", pct(1 - ids["transaction_id"]["digits_share"]))
    w("")
    w("ordering of transaction rows")
    w("purchase_date not going back", "%s of adjacent rows"
      % pct(o["purchase_date_non_decreasing_share"]))
    w("same customer_id", "%s of adjacent rows" % pct(o["same_customer_adjacent_share"]))
    w("customers in one run", "%s of the %d with 2 or more rows"
      % (pct(o["customers_in_one_run_share"]), o["customers_with_2_or_more_rows"]))
    w("order", o["order"])
    w("")
    w("type mix")
    w("product_type", mix_text(m["product_type"]))
    w("renewal_state (auto_renewable)", mix_text(m["renewal_state_of_auto_renewable"]))
    w("ownership_type", mix_text(m["ownership_type"]))
    w("environment", mix_text(m["environment"]))
    w("customers: platform", mix_text(m["customers_platform"]))
    w("customers: environment", mix_text(m["customers_environment"]))
    if "normalize" in i and i["normalize"]["rows_read"]:
        w("rows rejected", "%s (by normalize, of the rows it read)"
          % pct(m["rows_spec_rejects_share"], 3))
    else:
        w("rows SPEC rejects (at least)", "%s (%d customers rows, %d transaction rows: a value "
          "SPEC does not name or does not read, a required field empty)"
          % (pct(m["rows_spec_rejects_share"], 3), m["customer_rows_spec_rejects"],
             m["transaction_rows_spec_rejects"]))
    w("")
    w("empty fields (share of rows)")
    for name in ("customers", "transactions"):
        e = d["empty_fields"][name]
        w(name + ".csv", ", ".join("%s %s" % (k, pct(v)) for k, v in e.items()))
    w("")
    w("text")
    for name in ("customers", "transactions"):
        x = f[name]
        w(name + ".csv", "%s, %s%s; %s of rows with a quoted comma or line break (%s a line "
          "break)%s%s" % (
              x["line_ends"].upper(), "BOM" if x["bom"] else "no BOM",
              ", gzip" if x["gzip"] else "", pct(x["share_quoted_comma_or_line_break"], 2),
              pct(x["share_quoted_line_break"], 2),
              "; %d with a quote character inside a field" % x["rows_with_quote_character_inside"]
              if x["rows_with_quote_character_inside"] else "",
              "; %d rows with another number of fields than the header"
              % x["rows_with_other_field_count"] if x["rows_with_other_field_count"] else ""))
    w("purchase_date forms", mix_text(f["purchase_date_forms"]))
    for name in ("customers", "transactions"):
        if f[name]["missing_required_columns"]:
            w("  %s.csv lacks SPEC's required %s: grandfather refuses such a file (exit 2)"
              % (name, ", ".join(f[name]["missing_required_columns"])))
    w("")
    s = d["suggestion"]
    w("suggested: the generator's options that approximate this export (then time DIR: "
      "bench/README.md, \"Describing your own export\")")
    w("  " + s["command"])
    for note in s["notes"]:
        w("  # " + note)
    if s.get("bench_shape"):
        w("  # that is the generator's %s" % ("default shape" if s["bench_shape"] == "default"
                                              else "preset --shape " + s["bench_shape"]))
    w("  # `%s` times it against the DuckDB script" % s["bench_command"])
    return "\n".join(out)


# ---- command line

def resolve(paths):
    """(customers path, transactions path, folder or None)."""
    if len(paths) == 1:
        folder = paths[0]
        if not os.path.isdir(folder):
            raise InputError("%s: %s (give a folder holding customers.csv and "
                             "transactions.csv, or the two files)"
                             % (folder, "not a folder" if os.path.exists(folder)
                                else "no such folder"))
        found = []
        # A normalize folder's transactions are parts (transactions-00001.csv, ...), read in
        # their names' order; generated data, and folders normalize wrote before, have one file.
        parts = sorted((n for n in os.listdir(folder)
                        if n.startswith("transactions-") and n.endswith(".csv")),
                       key=lambda n: (len(n), n))
        for name in ("customers.csv", "transactions.csv"):
            # the parts first, as grandfather reads a folder that holds both
            if name == "transactions.csv" and parts:
                found.append([os.path.join(folder, n) for n in parts])
                continue
            for candidate in (name, name + ".gz"):
                p = os.path.join(folder, candidate)
                if os.path.isfile(p):
                    found.append(p)
                    break
            else:
                raise InputError("%s: no %s in the folder" % (folder, name))
        return found[0], found[1], folder
    if len(paths) == 2:
        return paths[0], paths[1], None
    raise InputError("give CUSTOMERS.csv TRANSACTIONS.csv, or one folder")


class Parser(argparse.ArgumentParser):
    def error(self, message):  # one line, exit 2
        print("describe: error: %s (usage: python3 bench/describe.py CUSTOMERS.csv "
              "TRANSACTIONS.csv | DIR [--json] | --self-test)" % message, file=sys.stderr)
        sys.exit(2)


def main(argv=None):
    ap = Parser(description=__doc__.split("\n\n")[0])
    ap.add_argument("inputs", nargs="*", metavar="INPUT",
                    help="CUSTOMERS.csv TRANSACTIONS.csv, or one folder holding both")
    ap.add_argument("--json", action="store_true", help="print the figures as JSON")
    ap.add_argument("--self-test", action="store_true",
                    help="generate shapes with bench/generate.py and recover them")
    a = ap.parse_args(argv)
    if a.self_test:
        if a.inputs:
            ap.error("--self-test takes no inputs")
        return self_test()
    csv.field_size_limit(1 << 30)
    try:
        customers, transactions, folder = resolve(a.inputs)
        d = describe(customers, transactions, folder)
    except InputError as e:
        print("describe: error: %s" % e, file=sys.stderr)
        return 2
    except MemoryError:
        print("describe: error: out of memory (the customer ids do not fit)", file=sys.stderr)
        return 1
    try:
        if a.json:
            json.dump(d, sys.stdout, indent=1)
            sys.stdout.write("\n")
        else:
            print(render(d))
        sys.stdout.flush()
    except BrokenPipeError:
        os.dup2(os.open(os.devnull, os.O_WRONLY), sys.stdout.fileno())
    return 0


# ---- self-test

# (name, the generator's options, the options the suggestion must hold, figures expected:
# key -> (value, tolerance) or value); figures not named are expected as the default's
SHAPES = [
    ("default", [], [], {}),
    ("time", ["--order", "time"], ["--order time"], {"order": "time"}),
    ("customer", ["--order", "customer"], ["--order customer"], {"order": "customer"}),
    ("revenuecat", ["--ids", "revenuecat"], ["--ids revenuecat"],
     {"customer_id": (47, 47), "transaction_id": (19, 19)}),
    ("one-time", ["--consumable-share", "0.14", "--renewal-state-absent", "0.9"],
     ["--consumable-share 0.1", "--renewal-state-absent 0.9"],
     {"consumable_share": (0.14, 0.01), "renewal_state_empty_share": (0.92, 0.035),
      "share_customers_without_transactions": None}),
    ("messy", ["--crlf", "--bom", "--quoted-fields", "0.02"],
     ["--quoted-fields 0.0", "--crlf", "--bom"],
     {"line_ends": "crlf", "bom": True, "share_quoted_line_break_both_files": (0.02, 0.005)}),
    ("shallow", ["--shallow"], ["--shallow"],
     {"consumable_share": (NATURAL["consumable_share_shallow"], 0.03),
      "share_customers_without_transactions": (0.0, 0.01),
      "renewal_state_empty_share": (NATURAL["renewal_state_empty_shallow"], 0.04),
      "auto_renewable_per_customer": None}),
    ("history", ["--history-factor", "3"], ["--history-factor 3"],
     {"auto_renewable_per_customer": (3 * NATURAL["auto_renewable_per_customer"], 3.0),
      "consumable_share": (0.014, 0.006), "renewal_state_empty_share": (0.08, 0.02)}),
    ("rejected", ["--rejected-rows", "0.01"], ["--rejected-rows 0.0"],
     {"rows_spec_rejects_share": (0.01, 0.0015)}),
]
# with bench/generate.py's --customer-ids and --transaction-id-length, when it has them
ID_SHAPES = [
    ("mixed-ids", ["--customer-ids", "length:6-64", "--transaction-id-length", "10-24"],
     ["--customer-ids length:6-64", "--transaction-id-length 10-24"],
     {"customer_id": (6, 64), "transaction_id": (10, 24)}),
    ("uuid-ids", ["--customer-ids", "uuid"], ["--customer-ids uuid"],
     {"customer_id": (36, 36)}),
]
DEFAULT_FIGURES = {
    "order": "scattered", "customer_id": (9, 9), "transaction_id": (16, 16),
    "line_ends": "lf", "bom": False,
    "consumable_share": (NATURAL["consumable_share"], 0.01),
    "renewal_state_empty_share": (NATURAL["renewal_state_empty"], 0.03),
    "auto_renewable_per_customer": (NATURAL["auto_renewable_per_customer"], 1.0),
    "share_customers_without_transactions": (0.25, 0.04),
    "orphan_transaction_share": (0.005, 0.006),
    "share_quoted_line_break_both_files": (NATURAL["line_break_rows"], 0.001),
    "rows_spec_rejects_share": (0.0, 0.0),
}
# every option the suggestion can hold: those a shape does not name must be absent
SUGGESTED_OPTIONS = ["--order", "--ids", "--customer-ids", "--transaction-id-length",
                     "--shallow", "--consumable-share", "--non-consumable-share",
                     "--renewal-state-absent", "--history-factor", "--rejected-rows",
                     "--quoted-fields", "--crlf", "--bom"]
SELF_TEST_CUSTOMERS = 3000


class Failure(Exception):
    pass


def run_describe(args):
    """describe.py's JSON for args, run as a user would (a process of its own)."""
    p = subprocess.run([sys.executable, os.path.abspath(__file__), "--json"] + args,
                       capture_output=True, text=True)
    if p.returncode != 0:
        raise Failure("describe %s exited %d: %s" % (" ".join(args), p.returncode,
                                                      p.stderr.strip()))
    return json.loads(p.stdout)


def generate_set(out, options):
    cmd = [sys.executable, os.path.join(HERE, "generate.py"), "--customers",
           str(SELF_TEST_CUSTOMERS), "--seed", "7", "--out", out] + options
    p = subprocess.run(cmd, capture_output=True, text=True)
    if p.returncode != 0:
        raise Failure("%s exited %d: %s" % (" ".join(cmd), p.returncode, p.stderr.strip()))


def near(what, got, want, tol):
    if got is None or abs(got - want) > tol:
        raise Failure("%s: %s, expected %s within %s" % (what, got, want, tol))


def check(what, ok):
    if not ok:
        raise Failure(what)


def figures(d):
    """The figures the self-test compares, by name."""
    out = {"order": d["ordering"]["order"],
           "customer_id": (d["ids"]["customer_id"]["min"], d["ids"]["customer_id"]["max"]),
           "transaction_id": (d["ids"]["transaction_id"]["min"],
                              d["ids"]["transaction_id"]["max"]),
           "share_quoted_line_break_both_files": d["format"]["share_quoted_line_break_both_files"]}
    for which in ("customers", "transactions"):
        for key in ("line_ends", "bom"):
            out[key + " " + which] = d["format"][which][key]
    for key in ("consumable_share", "non_consumable_share", "renewal_state_empty_share",
                "rows_spec_rejects_share"):
        out[key] = d["type_mix"][key]
    for key in ("auto_renewable_per_customer", "share_customers_without_transactions",
                "orphan_transaction_share"):
        out[key] = d["rows"][key]
    for key in ("purchase_date_non_decreasing_share", "same_customer_adjacent_share",
                "customers_in_one_run_share"):
        out[key] = d["ordering"][key]
    out["mean"] = d["rows"]["transactions_per_customer"]["mean"]
    out["customers"] = d["rows"]["customers"]
    return out


def check_shape(name, want_options, expected, d):
    """The description d of the shape `name` recovers what the generator was given."""
    got = figures(d)
    want = dict(DEFAULT_FIGURES, **expected)
    for key in ("line_ends", "bom"):
        value = want.pop(key)
        want[key + " customers"] = want[key + " transactions"] = value
    for key, value in want.items():
        if value is None:
            continue
        if isinstance(value, tuple) and isinstance(value[1], float):
            near("%s: %s" % (name, key), got[key], value[0], value[1])
        else:
            check("%s: %s is %r, expected %r" % (name, key, got[key], value), got[key] == value)
    argv = d["suggestion"]["argv"]
    line = " ".join(argv)
    for option in want_options:
        check("%s: no %s... in the suggestion %s" % (name, option, line), option in line)
    for option in SUGGESTED_OPTIONS:
        if option in argv:
            check("%s: %s in the suggestion %s" % (name, option, line),
                  any(w.startswith(option + " ") or w == option for w in want_options))
    near("%s: suggested --customers" % name, int(argv[argv.index("--customers") + 1]),
         SELF_TEST_CUSTOMERS, 20)
    check("%s: notes on what the generator cannot write, for its own data: %s"
          % (name, d["suggestion"]["notes"]), not d["suggestion"]["notes"])


def check_close(name, a, b):
    """b (the description of the suggestion's data) is close to a (the original's)."""
    rows = min(a["rows"]["transactions"], b["rows"]["transactions"])
    a, b = figures(a), figures(b)
    for key, tol in (("purchase_date_non_decreasing_share", 0.05),
                     ("same_customer_adjacent_share", 0.05), ("customers_in_one_run_share", 0.05),
                     ("consumable_share", 0.01), ("non_consumable_share", 0.005),
                     ("renewal_state_empty_share", 0.03), ("rows_spec_rejects_share", 0.002),
                     ("share_quoted_line_break_both_files", 0.005),
                     ("share_customers_without_transactions", 0.04)):
        # two samples of a share p of n rows differ by chance: allow five standard errors
        # (consumables come in bursts), which matters for the few rows of --shallow
        p = a[key]
        chance = 5 * math.sqrt(p * (1 - p) / rows) if p is not None and 0 <= p <= 1 else 0
        near("%s: the suggestion's %s" % (name, key), b[key], a[key], max(tol, chance))
    for key in ("mean", "auto_renewable_per_customer"):
        near("%s: the suggestion's %s" % (name, key), b[key], a[key], 0.1 * a[key])
    near("%s: the suggestion's customers rows" % name, b["customers"], a["customers"],
         0.02 * a["customers"])
    for key in ("order", "customer_id", "transaction_id", "line_ends customers",
                "line_ends transactions", "bom customers", "bom transactions"):
        check("%s: the suggestion's %s is %r, the original's %r" % (name, key, b[key], a[key]),
              a[key] == b[key])


def bad_inputs(tmp):
    """A missing file, a file without the needed header, a JSON file: one line, exit 2."""
    good = os.path.join(tmp, "default", "customers.csv")
    headerless = os.path.join(tmp, "headerless.csv")
    with open(headerless, "w", encoding="utf-8") as f:
        f.write("id,name\n1,a\n")
    as_json = os.path.join(tmp, "t.json")
    with open(as_json, "w", encoding="utf-8") as f:
        f.write('[{"transaction_id": "1"}]\n')
    empty = os.path.join(tmp, "empty.csv")
    open(empty, "w").close()
    cases = [
        [good, os.path.join(tmp, "missing.csv")],
        [good, headerless],
        [headerless, os.path.join(tmp, "default", "transactions.csv")],
        [good, as_json],
        [good, empty],
        [os.path.join(tmp, "no-such-folder")],
        [tmp],  # a folder without the two files
        [good, good, good],
        [os.path.join(tmp, "default", "transactions.csv")] * 2,
    ]
    for args in cases:
        p = subprocess.run([sys.executable, os.path.abspath(__file__)] + args,
                           capture_output=True, text=True)
        lines = p.stderr.strip().splitlines()
        check("bad input %s: exit %d, stderr %r" % (args, p.returncode, p.stderr),
              p.returncode == 2 and len(lines) == 1 and "Traceback" not in p.stderr
              and lines[0].startswith("describe: error: ") and not p.stdout)


def handmade(tmp):
    """Columns in another order, a BOM, CRLF, quoted commas, line breaks and quotes, other
    timestamp forms, orphans, a repeated customer, and a folder in the warehouse layout."""
    folder = os.path.join(tmp, "handmade")
    os.mkdir(folder)
    with open(os.path.join(folder, "customers.csv"), "w", encoding="utf-8", newline="") as f:
        f.write("\ufeffstorefront,customer_id,platform\r\n"
                '"US,\nCA",a,ios\r\n,b,macos\r\n"FR ""x""",\u00e9\u00e9\u00e9\u00e9\u00e9'
                '\u00e9\u00e9\u00e9,IOS\r\n,a,ios\r\n')
    with open(os.path.join(folder, "transactions.csv"), "w", encoding="utf-8", newline="") as f:
        f.write("\ufeffpurchase_date,product_type,customer_id,transaction_id,product_id\r\n"
                "2024-01-01T00:00:00Z,consumable,a,1,p\r\n"
                "2024-01-01T01:00:00+01:00,consumable,a,2,p\r\n"
                "1704067300000,auto_renewable,b,3,\"x,\r\ny\"\r\n"
                "2024-01-01T00:00:00.5Z,subscription,z,4,p\r\n"
                "2023-12-31,consumable,a,12345678901234567,p\r\n")
    d = run_describe([folder])
    r, o, m, f = d["rows"], d["ordering"], d["type_mix"], d["format"]
    check("handmade: rows %s" % r, (r["customers"], r["transactions"]) == (4, 5))
    check("handmade: repeated ids %s" % r["repeated_customer_ids"],
          r["repeated_customer_ids"] == 1)
    check("handmade: orphans %s" % r,
          (r["orphan_transactions"], r["orphan_customer_ids"]) == (1, 1))
    check("handmade: per customer %s" % r["transactions_per_customer"],
          r["transactions_per_customer"]["max"] == 3 and
          r["share_customers_without_transactions"] == 1 / 3)
    # times: 00:00, 00:00 (the +01:00 one), 00:01:40, 00:00:00.5, a date alone (unreadable)
    check("handmade: purchase order %s" % o, o["purchase_date_non_decreasing_share"] == 2 / 3)
    check("handmade: forms %s" % f["purchase_date_forms"],
          f["purchase_date_forms"] == {"YYYY-MM-DDTHH:MM:SSZ": 0.2, "other with a zone": 0.4,
                                       "epoch milliseconds": 0.2, "unreadable": 0.2})
    check("handmade: same customer %s" % o, o["same_customer_adjacent_share"] == 1 / 4)
    check("handmade: runs %s" % o, o["customers_in_one_run_share"] == 0.0)
    check("handmade: customer id bytes %s" % d["ids"]["customer_id"],
          d["ids"]["customer_id"]["max"] == 16 and
          d["ids"]["customer_id"]["share_16_bytes_or_more"] == 1 / 3)
    check("handmade: transaction id bytes %s" % d["ids"]["transaction_id"],
          d["ids"]["transaction_id"]["max"] == 17)
    check("handmade: text %s" % f, f["customers"]["bom"] and f["transactions"]["bom"] and
          f["customers"]["line_ends"] == f["transactions"]["line_ends"] == "crlf" and
          f["customers"]["rows_with_quoted_line_break"] == 1 and
          f["customers"]["rows_with_quote_character_inside"] == 1 and
          f["transactions"]["rows_with_quoted_comma_or_line_break"] == 1)
    check("handmade: empties %s" % d["empty_fields"],
          d["empty_fields"]["customers"]["storefront"] == 0.5 and
          d["empty_fields"]["transactions"]["product_id"] == 0.0 and
          d["empty_fields"]["transactions"]["renewal_state"] == "no column")
    check("handmade: rejected rows %s" % m,
          (m["customer_rows_spec_rejects"], m["transaction_rows_spec_rejects"]) == (0, 2))
    check("handmade: product types %s" % m["product_type"],
          m["product_type"]["consumable"] == 0.6)

    # the warehouse layout (as `grandfather normalize` writes it; made here by hand)
    folder = os.path.join(tmp, "normalized")
    os.mkdir(folder)
    with open(os.path.join(folder, "customers.csv"), "w", encoding="utf-8", newline="") as f:
        f.write("customer_id,platform,original_app_version,original_purchase_date,environment,"
                "preorder_date,storefront,is_orphan,is_unlinked,has_conflicting_facts,"
                "facts_source,service_view\n"
                "a,ios,1.0,2023-01-01T00:00:00.000000Z,production,,USA,false,false,false,"
                "customers_file,false\n"
                "b,,,,production,,,true,false,false,,false\n")
    # the transactions in two parts, as normalize writes them
    header = ("transaction_id,original_transaction_id,customer_id,product_id,product_type,"
              "purchase_date,expires_date,revocation_date,ownership_type,environment,price,"
              "currency,renewal_state,grace_period_expires_date,is_promotional,term_ends,"
              "fact_sources\n")
    for number, row in ((1, "1,1,a,p,consumable,2024-01-01T00:00:00.000000Z,,,purchased,"
                            "production,0.99,USD,,,false,,canonical\n"),
                        (2, "2,2,b,p,consumable,2024-01-02T00:00:00.000000Z,,,purchased,"
                            "production,0.99,USD,,,false,,canonical\n")):
        with open(os.path.join(folder, "transactions-%05d.csv" % number), "w",
                  encoding="utf-8", newline="") as f:
            f.write(header + row)
    d = run_describe([folder])
    r = d["rows"]
    check("normalized: kind %s" % d["input"]["kind"], d["input"]["kind"] == "normalize folder")
    check("normalized: rows %s" % r, (r["customers"], r["transactions"], r["orphan_transactions"])
          == (1, 2, 1))
    check("normalized: order %s" % d["ordering"],
          d["ordering"]["purchase_date_non_decreasing_share"] == 1.0)
    check("normalized: forms %s" % d["format"]["purchase_date_forms"],
          d["format"]["purchase_date_forms"] == {"YYYY-MM-DDTHH:MM:SS.ffffffZ": 1.0})
    check("normalized: a note on order", "input order" in d["input"]["normalize"]["note"] or
          "row order" in d["input"]["normalize"]["note"])


def self_test():
    t0 = time.monotonic()
    tmp = tempfile.mkdtemp(prefix="describe-self-test-")
    failed = None
    shapes = SHAPES + ID_SHAPES
    try:
        for name, options, want_options, expected in shapes:
            out = os.path.join(tmp, name)
            generate_set(out, options)
            d = run_describe([os.path.join(out, "customers.csv"),
                              os.path.join(out, "transactions.csv")])
            check_shape(name, want_options, expected, d)
            argv = d["suggestion"]["argv"]
            check("%s: suggestion %s does not start as expected" % (name, argv),
                  argv[:2] == ["python3", "bench/generate.py"] and "DIR" in argv)
            again = os.path.join(tmp, name + "-suggested")
            cmd = [sys.executable, os.path.join(HERE, "generate.py")] + \
                [again if a == "DIR" else a for a in argv[2:]]
            p = subprocess.run(cmd, capture_output=True, text=True)
            if p.returncode != 0:
                raise Failure("%s: the suggestion %s exited %d: %s"
                              % (name, " ".join(argv), p.returncode, p.stderr.strip()))
            d2 = run_describe([again])  # the folder form
            check_close(name, d, d2)
            print("self-test: %-10s ok  order %-9s consumable %5.1f%%  empty renewal_state "
                  "%5.1f%%  ids %d/%d  -> %s" % (
                      name, d["ordering"]["order"], 100 * d["type_mix"]["consumable_share"],
                      100 * d["type_mix"]["renewal_state_empty_share"],
                      d["ids"]["customer_id"]["p50"], d["ids"]["transaction_id"]["p50"],
                      " ".join(argv[8:]) or "(no options)"), flush=True)
        handmade(tmp)
        print("self-test: handmade files and a warehouse-layout folder ok", flush=True)
        bad_inputs(tmp)
        print("self-test: bad inputs ok (one line, exit 2)")
    except Failure as e:
        failed = str(e)
    finally:
        import shutil
        shutil.rmtree(tmp, ignore_errors=True)
    if failed:
        print("describe: self-test FAILED: %s" % failed, file=sys.stderr)
        return 1
    print("describe: self-test passed in %.1f s" % (time.monotonic() - t0))
    return 0


if __name__ == "__main__":
    sys.exit(main())
