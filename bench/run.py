#!/usr/bin/env python3
"""Benchmark: Grandfather against the DuckDB script on the same generated data.

    python3 bench/run.py [--customers N] [--runs R] [--seed S] [--history-factor K] [--debug]
                         [--shape NAME|all] [--format csv|jsonl|sde|wide] [--jsonl] [--sde] [--wide]
                         [--sql] [--revenuecat-files]
                         [--binary PATH] [--baseline-binary PATH] [--reference-binary PATH]

Run it through scripts/bench, which first installs what it needs (scripts/bootstrap, and
DuckDB with pip when `import duckdb` fails). This script:
1. builds grandfather (release with warnings as errors; --debug: scripts/build, debug);
2. generates the data set with bench/generate.py into .bench-data/c<N>-k<K>-s<S>/ (the
   default shape) or .bench-data/<shape>-c<N>-s<S>/ (another shape; N is the customers it
   has, -k<K> added when --history-factor is given), unless it is already there from the
   same generator (written to a temporary folder and renamed, so an interrupted generation
   is never reused);
3. runs `grandfather audit` and bench/baseline_duckdb.py alternately, R times each, on the
   same files, and prints each one's median wall time and peak RSS and the ratios
   Grandfather/DuckDB;
4. compares every customer's class and the script's six flags, leaving out the customers
   the script cannot judge (class excluded, orphan customers, customers with any sandbox
   transaction, customers with a rejected row), and exits 1 when they do not all agree, or
   when Grandfather's rejected rows, excluded or orphan customers are not as many as the
   generator wrote.

--shape NAME uses that shape of data (bench/generate.py's SHAPES: default, one-time-heavy,
long-history, long-ids, time-ordered, customer-grouped, wide-and-shallow, messy, uuid-ids,
mixed-ids, varied); --shape all runs every shape in turn with the same options, each with
the printout of one shape, then a table of them all, and exits 1 if any shape failed.
--shape-options 'OPTIONS' times a shape of your own instead: bench/generate.py's shape
options in one argument, as scripts/describe-export suggests them for your export (cached
as .bench-data/own-<digest of the options>-c<N>-s<S>/).

--format jsonl|sde (or --jsonl, --sde) also times Grandfather on the same transactions as
JSON Lines or as a RevenueCat Scheduled Data Export (copies written beside the CSV once),
prints its ratio to the CSV run, and exits 1 unless both give the same classes and flags.
--sde also times the export's own peer, bench/baseline_duckdb_sde.py (DuckDB over the export
itself, as a team holding one and no Grandfather would point it), prints Grandfather on the
export against it, and exits 1 unless the two agree on every customer the script judges.
--format wide (or --wide) times the canonical CSV widened to the export's bytes: each row
gets unknown columns, which the audit reads past, until the file is the export copy's size.
Its ratio to the CSV run is what reading, hashing and splitting the export's bytes costs
alone, with no RevenueCat mapping: the floor under the export's ratio.

With --baseline-binary PATH it also times that grandfather binary (e.g. a build of the commit
before a refactor, from scripts/compare-builds) as one more tool, right after the candidate
grandfather in each round, with the same command and its own output folder; prints the
ratios candidate/baseline of the median wall time and peak RSS, and exits 1 unless both give
the same classes and flags; with --sde, the baseline binary is timed on the export as well
(baseline-sde, right after the candidate's export run) and compared the same way.

With --reference-binary PATH it runs that binary once per shape (and format), untimed, with
the candidate's audit command into its own output folder, and exits 1 unless every output
is byte-identical to the candidate's last run (snapshots table by table), masked as
bench/compare_builds.py masks (the run id; the output folder's name in stdout).

With --sql it also times the warehouse path of issue 17 as a third tool, in two steps that
add up to it: `grandfather normalize` of the same files (gf-normalize), and the script of
`grandfather sql --dialect duckdb --load` run in DuckDB with the result tables exported
(duckdb-sql, warehouse/run.py, on the folder the normalize run before it wrote, past the
page cache: read once before each SQL run, untimed, as the other tools' inputs are). It prints
the path's total against both, and exits 1 unless the SQL's classes and flags are the
snapshot's for every customer. It then runs the SQL once more, untimed, under DuckDB's
profiler (warehouse/run.py --profile) and prints what each statement scanned: rows, the bytes
its scans yielded (the columns it reads, as a warehouse billing by bytes scanned counts
them), bytes read from disk, peak buffer memory and time.

With --revenuecat-files (the default shape only) it then writes the data as a team holding
RevenueCat has it, from the canonical files and the canonical run's snapshot
(bench/revenuecat_files.py): a Scheduled Data Export, one subscriber response per customer
holding its purchases and RevenueCat's view of the run's grants, and the customer list. It
audits the three together, and the responses and the list alone, and compares each with a
canonical run (the second with the canonical run of what responses carry, the "response
view", written as canonical files and audited): class, flags and grants of every customer,
leaving out, counted by reason, those whose canonical data holds what RevenueCat's files
cannot say (Tests/GrandfatherCoreTests/Inputs/RevenueCat/TwinGap.swift, computed from the input
data). It prints the counts, each step's time and each audit's command, and exits 1 if any
compared customer differs (the first five printed with their canonical rows), if a file is
not read whole, or if the twin names other customers.

The last run's outputs stay in .bench-data/last-run/ for inspection (with --shape all, in
.bench-data/last-run/<shape>/, kept for the last shape and for every shape that failed).
"""
import argparse
import csv
import glob
import hashlib
import json
import os
import platform
import shlex
import shutil
import sqlite3
import statistics
import subprocess
import sys
import time

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
BENCH = os.path.join(ROOT, "bench")
DATA_ROOT = os.path.join(ROOT, ".bench-data")
POLICY = os.path.join("bench", "policy.json")
AS_OF = "2026-11-01T00:00:00Z"
FLAGS = ["bought_just_before_cutover", "grandfathered_and_subscribed", "naive_version_trap",
         "billing_retry", "family_shared_only", "missing_original_version"]
CLASSES = ["grandfathered", "subscriber", "lapsed", "new"]
REASONS = ["class excluded (sandbox customer)", "orphan customer",
           "customer with a sandbox transaction", "customer with a rejected row"]

sys.path.insert(0, BENCH)
sys.dont_write_bytecode = True  # no bench/__pycache__ in the work tree
import generate  # noqa: E402  (bench/generate.py: the shapes)
import revenuecat_files  # noqa: E402  (bench/revenuecat_files.py: --revenuecat-files)


def log(msg):
    print(msg, file=sys.stderr, flush=True)


def shell_line(cmd):
    return " ".join(shlex.quote(c) for c in cmd)


# --shape-options: shapes of the generator's own options, by name (own-<digest>), with the
# options that make them.
OWN_SHAPES = {}


def own_shape(text):
    """The shape the generator options in text make (bench/describe.py suggests them), named
    by a digest of their canonical form and registered as a preset of this process; "default"
    when they set nothing. ValueError when one is not an option of bench/generate.py."""
    params = generate.shape_options_parameters(shlex.split(text))
    options = generate.parameter_options(params)
    if not options:
        return "default"
    name = "own-" + hashlib.sha256(" ".join(options).encode()).hexdigest()[:8]
    generate.SHAPES[name] = ({k: v for k, v in params.items() if v != generate.PARAMETERS[k]},
                             "your own: " + " ".join(options))
    OWN_SHAPES[name] = options
    return name


def run_checked(cmd, **kw):
    log("$ " + shell_line(cmd))
    subprocess.run(cmd, cwd=ROOT, check=True, stdout=sys.stderr, **kw)


def machine():
    model = "unknown"
    try:
        with open("/proc/cpuinfo") as f:
            for line in f:
                if line.startswith("model name"):
                    model = line.split(":", 1)[1].strip()
                    break
    except OSError:
        pass
    mem = ""
    try:
        with open("/proc/meminfo") as f:
            kib = int(f.readline().split()[1])
            mem = ", %.1f GiB memory" % (kib / 1024 / 1024)
    except (OSError, ValueError, IndexError):
        pass
    return "%d cores (nproc), %s%s, %s" % (len(os.sched_getaffinity(0)), model, mem,
                                          platform.platform())


def build(debug):
    if debug:
        run_checked(["scripts/build", "--product", "grandfather"])
        bin_cmd = ["swift", "build", "--show-bin-path"]
    else:
        run_checked(["swift", "build", "-c", "release", "-Xswiftc", "-warnings-as-errors",
                     "--product", "grandfather"])
        bin_cmd = ["swift", "build", "-c", "release", "--show-bin-path"]
    out = subprocess.run(bin_cmd, cwd=ROOT, check=True, capture_output=True, text=True).stdout
    binary = os.path.join(out.strip().splitlines()[-1], "grandfather")
    if not os.access(binary, os.X_OK):
        sys.exit("bench: error: no grandfather binary at %s" % binary)
    return binary


def generator_digest():
    with open(os.path.join(BENCH, "generate.py"), "rb") as f:
        return hashlib.sha256(f.read()).hexdigest()


def dataset(customers, history_factor, seed, shape="default"):
    """The cached data folder; generated (into a temporary folder, then renamed) when missing
    or made by another version of the generator. history_factor None: the shape's own."""
    if shape == "default":
        k = history_factor or 1
        name = "c%d-k%d-s%d" % (customers, k, seed)
        gen_cmd = [sys.executable, "bench/generate.py", "--customers", str(customers), "--seed",
                   str(seed), "--history-factor", str(k), "--out"]
    else:
        params = generate.shape_parameters(shape, history_factor=history_factor)
        name = "%s-c%d%s-s%d" % (shape, customers * params["customers_factor"],
                                 "-k%d" % history_factor if history_factor else "", seed)
        gen_cmd = [sys.executable, "bench/generate.py", "--customers", str(customers), "--seed",
                   str(seed)] + OWN_SHAPES.get(shape, ["--shape", shape]) + \
            (["--history-factor", str(history_factor)] if history_factor else []) + ["--out"]
    final = os.path.join(DATA_ROOT, name)
    digest = generator_digest()
    stamp = os.path.join(final, "generator.sha256")
    if os.path.isdir(final):
        try:
            with open(stamp) as f:
                if f.read().strip() == digest:
                    log("bench: reusing %s" % os.path.relpath(final, ROOT))
                    return final, gen_cmd + [os.path.relpath(final, ROOT)], None
        except OSError:
            pass
        log("bench: %s was made by another version of bench/generate.py: regenerating"
            % os.path.relpath(final, ROOT))
        shutil.rmtree(final)
    os.makedirs(DATA_ROOT, exist_ok=True)
    for entry in os.listdir(DATA_ROOT):  # leftovers of interrupted generations
        if entry.startswith(".tmp-"):
            pid = entry.rsplit("-", 1)[-1]
            if pid.isdigit() and not os.path.exists("/proc/%s" % pid):
                shutil.rmtree(os.path.join(DATA_ROOT, entry), ignore_errors=True)
    tmp = os.path.join(DATA_ROOT, ".tmp-%s-%d" % (name, os.getpid()))
    shutil.rmtree(tmp, ignore_errors=True)
    cmd = gen_cmd + [os.path.relpath(tmp, ROOT)]
    t0 = time.monotonic()
    try:
        run_checked(cmd)
        with open(os.path.join(tmp, "generator.sha256"), "w") as f:
            f.write(digest + "\n")
        os.rename(tmp, final)
    except BaseException:
        shutil.rmtree(tmp, ignore_errors=True)
        raise
    return final, gen_cmd + [os.path.relpath(final, ROOT)], time.monotonic() - t0


def jsonl_copy(data):
    """transactions.jsonl beside transactions.csv: the same rows as JSON Lines (empty fields as
    null), written once into a temporary file and renamed."""
    target = os.path.join(data, "transactions.jsonl")
    if os.path.exists(target):
        return target
    log("bench: writing %s" % os.path.relpath(target, ROOT))
    tmp = target + ".tmp-%d" % os.getpid()
    # utf-8-sig: a BOM (the messy shape) is not part of the first column's name
    with open(os.path.join(data, "transactions.csv"), newline="", encoding="utf-8-sig") as src, \
            open(tmp, "w", encoding="utf-8") as out:
        reader = csv.reader(src)
        header = next(reader)
        for row in reader:
            out.write(json.dumps({k: (v if v != "" else None) for k, v in zip(header, row)},
                                 separators=(",", ":")) + "\n")
    os.rename(tmp, target)
    return target


# RevenueCat's Scheduled Data Export v5 columns, in its documented order (FORMATS.md §a).
SDE_COLUMNS = revenuecat_files.EXPORT_COLUMNS


def sde_time(text):
    """2024-03-01T00:00:00Z (the generator's only form) as the export writes it."""
    return revenuecat_files.export_time(text, short=False)


def sde_copy(data):
    """transactions-sde.csv beside transactions.csv: the same transactions as a RevenueCat
    Scheduled Data Export (v5 columns, every one filled as a real export fills it), written
    once into a temporary file and renamed. The export has no product type: the audit guesses
    it from is_auto_renewable, product_duration and entitlement_identifiers, so the copy
    states those to give the canonical type back; renewal states come back from refunded_at,
    grace_period_end_time and billing_issues_detected_at (`expired` has no column, and
    nothing in SPEC tells it from none)."""
    target = os.path.join(data, "transactions-sde.csv")
    if os.path.exists(target):
        return target
    log("bench: writing %s" % os.path.relpath(target, ROOT))
    tmp = target + ".tmp-%d" % os.getpid()
    attributes = '{"$ip": {"value": "203.0.113.7", "updated_at_ms": 1672549200000}}'
    with open(os.path.join(data, "transactions.csv"), newline="", encoding="utf-8-sig") as src, \
            open(tmp, "w", newline="", encoding="utf-8") as out:
        reader = csv.DictReader(src)
        writer = csv.writer(out, lineterminator="\n")
        writer.writerow(SDE_COLUMNS)
        for n, t in enumerate(reader):
            ptype, state = t["product_type"], t["renewal_state"]
            start = sde_time(t["purchase_date"])
            end = sde_time(t["expires_date"])
            price = t["price"]
            row = {
                "rc_original_app_user_id": t["customer_id"],
                "rc_last_seen_app_user_id_alias": "$RCAnonymousID:%032x" % (n * 2654435761 % (1 << 64)),
                "country": "US", "country_source": "from_sdk",
                "product_identifier": t["product_id"], "product_display_name": t["product_id"],
                "product_duration": "P1Y" if ptype == "non_renewing" else ("P1M" if ptype == "auto_renewable" else ""),
                "start_time": start, "end_time": end,
                "grace_period_end_time": sde_time(t["grace_period_expires_date"]) if state == "in_grace_period" else "",
                "effective_end_time": end, "store": "app_store",
                "is_auto_renewable": "true" if ptype == "auto_renewable" else "false",
                "is_trial_period": "false", "is_in_intro_offer_period": "false",
                "is_sandbox": "true" if t["environment"] == "sandbox" else "false",
                "price_in_usd": price, "purchase_price_in_usd": price, "takehome_percentage": "0.85",
                "tax_percentage": "0.1667", "commission_percentage": "0.15",
                "store_transaction_id": t["transaction_id"],
                "original_store_transaction_id": t["original_transaction_id"] or t["transaction_id"],
                "refunded_at": sde_time(t["revocation_date"]),
                "unsubscribe_detected_at": "",
                "billing_issues_detected_at": start if state == "in_billing_retry" else "",
                "purchased_currency": t["currency"], "price_in_purchased_currency": price,
                "purchase_price_in_purchased_currency": price,
                "entitlement_identifiers": '["premium"]' if ptype == "non_consumable" else "[]",
                "renewal_number": "1", "is_trial_conversion": "false",
                "presented_offering": "default", "ownership_type": t["ownership_type"].upper(),
                "reserved_subscriber_attributes": attributes if n % 5 == 0 else "",
                "custom_subscriber_attributes": "", "platform": "ios",
                "experiment_id": "", "experiment_variant": "", "updated_at": start,
                "offer": "", "offer_type": "", "first_seen_time": start, "auto_resume_time": ""}
            writer.writerow([row[c] for c in SDE_COLUMNS])
    os.rename(tmp, target)
    return target


# What widens a canonical row: values as an export's other columns hold them, cut to length.
WIDE_FILLER = ["US", "from_sdk", "pro.monthly", "P1M", "2024-12-12 23:55:28", "", "2024-12-12 23:55:28",
               "app_store", "true", "false", "false", "false", "6.99", "6.99", "0.85", "0.1667", "0.15", "",
               "", "", "CAD", "6.99", "6.99", "[]", "1", "false", "default", "PURCHASED", "ios", "", "",
               "2024-11-12 23:55:28", "", "", "2024-11-12 23:55:28"] * 4


def wide_copy(data):
    """transactions-wide.csv beside transactions.csv: the same canonical rows, each with unknown
    columns (`pad1`, ...) filled until the file has the export copy's bytes, written once into a
    temporary file and renamed. A row of the wrong width is left as it is (still rejected)."""
    target = os.path.join(data, "transactions-wide.csv")
    if os.path.exists(target):
        return target
    sde = sde_copy(data)
    log("bench: writing %s" % os.path.relpath(target, ROOT))
    source = os.path.join(data, "transactions.csv")
    with open(source, newline="", encoding="utf-8-sig") as src:
        reader = csv.reader(src)
        header = next(reader)
        rows = sum(1 for _ in reader)
    # The bytes each row lacks, the comma before each added value included.
    extra = max(0, (os.path.getsize(sde) - os.path.getsize(source)) // max(rows, 1))
    filler, width = [], 0
    for value in WIDE_FILLER:
        if width + 1 + len(value) > extra:
            filler.append("x" * max(0, extra - width - 1))
            break
        filler.append(value)
        width += 1 + len(value)
    tmp = target + ".tmp-%d" % os.getpid()
    with open(source, newline="", encoding="utf-8-sig") as src, \
            open(tmp, "w", newline="", encoding="utf-8") as out:
        reader = csv.reader(src)
        writer = csv.writer(out, lineterminator="\n")
        header = next(reader)
        writer.writerow(header + ["pad%d" % (i + 1) for i in range(len(filler))])
        for row in reader:
            writer.writerow(row + filler if len(row) == len(header) else row)
    os.rename(tmp, target)
    return target


def same_answers(a, b, leave_out_orphans_of_a=False, leave_out=(), why=""):
    """Whether two snapshots hold the same classes and flags for every customer; with
    leave_out_orphans_of_a, for every customer but a's orphans (a RevenueCat export makes a
    customer of each id it names, with its store as the platform: SPEC §9); leave_out: more
    customers left out (why: the reason, printed with their count and how many of them do
    differ)."""
    def answers(path):
        db = sqlite3.connect("file:%s?mode=ro" % path, uri=True)
        try:
            flags = {}
            for cid, flag in db.execute("SELECT customer_id, flag FROM customer_flags"):
                flags.setdefault(cid, set()).add(flag)
            orphans = set(r[0] for r in db.execute(
                "SELECT customer_id FROM customers WHERE is_orphan = 1"))
            return {cid: (cls, frozenset(flags.get(cid, ()))) for cid, cls in
                    db.execute("SELECT customer_id, class FROM customers")}, orphans
        finally:
            db.close()
    (got_a, orphans), (got_b, _) = answers(a), answers(b)
    left_out = orphans if leave_out_orphans_of_a else set()
    more = set(leave_out) - left_out
    if left_out:
        print("  (left out: %d customers that are orphans in the canonical run)" % len(left_out))
    if more:
        print("  (left out: %d more customers: %s; %d of them differ)" % (
            len(more), why, sum(1 for c in more if got_a.get(c) != got_b.get(c))))
    return all(got_a.get(c) == got_b.get(c) for c in (set(got_a) | set(got_b)) - left_out - more)


def same_as_sql(snapshot, folder):
    """Whether the SQL's exported gf_customers and gf_customer_flags hold the snapshot's
    classes and flags for every customer."""
    db = sqlite3.connect("file:%s?mode=ro" % snapshot, uri=True)
    try:
        want = (sorted(db.execute("SELECT customer_id, class FROM customers")),
                sorted(db.execute("SELECT customer_id, flag FROM customer_flags")))
    finally:
        db.close()

    def rows(name, columns):
        with open(os.path.join(folder, name), newline="", encoding="utf-8") as f:
            return sorted(tuple(r[c] for c in columns) for r in csv.DictReader(f))
    got = (rows("gf_customers.csv", ["customer_id", "class"]),
           rows("gf_customer_flags.csv", ["customer_id", "flag"]))
    return got == want


def measure(cmd, log_path, cwd=ROOT):
    """Runs cmd in cwd; returns (exit code, wall seconds, peak RSS in MiB, CPU seconds)."""
    with open(log_path + ".stdout", "w") as out, open(log_path + ".stderr", "w") as err:
        t0 = time.monotonic()
        p = subprocess.Popen(cmd, cwd=cwd, stdout=out, stderr=err, stdin=subprocess.DEVNULL)
        _, status, usage = os.wait4(p.pid, 0)
        wall = time.monotonic() - t0
    code = os.waitstatus_to_exitcode(status)
    p.returncode = code
    # ru_maxrss is in KiB on Linux
    return code, wall, usage.ru_maxrss / 1024.0, usage.ru_utime + usage.ru_stime


def fail_run(name, code, log_path):
    with open(log_path + ".stderr", errors="replace") as f:
        err = f.read()
    sys.stdout.flush()
    log("bench: error: %s exited %d; its stderr (%s.stderr):\n%s" % (name, code, log_path,
                                                                     err[-4000:]))
    sys.exit(1)


def print_sql_profile(sql_cmd, path):
    """Runs the SQL once more, untimed, under DuckDB's profiler (warehouse/run.py --profile)
    and prints what each statement scanned: the bytes a warehouse that bills by bytes
    scanned would count (DuckDB's scans yield only the columns a query reads), beside the
    rows, the time under the profiler, peak buffer memory and bytes spilled."""
    subprocess.run(sql_cmd[:-1] + ["--profile", rel(path), sql_cmd[-1]], cwd=ROOT, check=True,
                   stdout=subprocess.DEVNULL)
    with open(path) as f:
        records = json.load(f)
    print("What each statement of the SQL scanned (DuckDB's profiler, one untimed run; %s):" % rel(path))
    print("  %-24s %12s %10s %10s %10s %9s" % ("statement", "rows", "scanned", "from disk", "peak buf", "seconds"))
    for r in records:
        print("  %-24s %12d %10s %10s %10s %9.2f%s" % (
            r["statement"][:24], r["rows_scanned"], human_size(r["bytes_scanned"]),
            human_size(r["bytes_read_from_disk"]), human_size(r["peak_buffer_bytes"]), r["seconds"],
            "  spilled %s" % human_size(r["bytes_spilled"]) if r["bytes_spilled"] else ""))
    print("  %-24s %12d %10s %10s" % ("all", sum(r["rows_scanned"] for r in records),
                                       human_size(sum(r["bytes_scanned"] for r in records)),
                                       human_size(sum(r["bytes_read_from_disk"] for r in records))))


def human_size(n):
    return "%.1f MB" % (n / 1e6)


def peer_agrees(snapshot, duck_path, manifest, canonical):
    """Whether Grandfather's run on the export and the DuckDB script over the export give the
    same class and six flags to every customer the script judges: the canonical run's orphans
    (the export names a store for each id) and excluded customers, and those with a sandbox
    transaction or a rejected canonical row left out, as compare() leaves them out."""
    gf_customers, gf_flags, _ = load_grandfather(snapshot)
    duck = load_duckdb(duck_path)
    left_out = set(manifest["sandbox_transaction_customers"]) | set(manifest.get("rejected_row_customers", ()))
    left_out |= {c for c, (cls, orphan) in load_grandfather(canonical)[0].items()
                 if cls == "excluded" or orphan == 1}
    compared = [c for c in sorted(set(gf_customers) | set(duck)) if c not in left_out]
    differ = [c for c in compared if (gf_customers.get(c, ("(missing)",))[0], frozenset(gf_flags.get(c, ())))
              != duck.get(c, ("(missing)", frozenset()))]
    print("Grandfather on the export and DuckDB over the export: %d of %d customers agree%s" % (
        len(compared) - len(differ), len(compared), "; differ: " + ", ".join(differ[:5]) if differ else ""))
    return not differ and bool(compared)


def load_grandfather(snapshot):
    db = sqlite3.connect("file:%s?mode=ro" % snapshot, uri=True)
    customers = {cid: (cls, orphan) for cid, cls, orphan in
                 db.execute("SELECT customer_id, class, is_orphan FROM customers")}
    flags = {}
    q = "SELECT customer_id, flag FROM customer_flags WHERE flag IN (%s)" % ",".join("?" * len(FLAGS))
    for cid, flag in db.execute(q, FLAGS):
        flags.setdefault(cid, set()).add(flag)
    run = db.execute("SELECT rows_read, rows_accepted, rows_rejected, customers FROM runs "
                     "ORDER BY started_at DESC LIMIT 1").fetchone()
    db.close()
    return customers, flags, run


def load_duckdb(path):
    db = sqlite3.connect("file:%s?mode=ro" % path, uri=True)
    result = {cid: (cls, frozenset(f for f in (flags or "").split(",") if f))
              for cid, cls, flags in db.execute("SELECT customer_id, class, flags FROM classification")}
    db.close()
    return result


def compare(snapshot, duck_path, manifest):
    gf_customers, gf_flags, run = load_grandfather(snapshot)
    duck = load_duckdb(duck_path)
    sandbox_tx = set(manifest["sandbox_transaction_customers"])
    rejected_row = set(manifest.get("rejected_row_customers", ()))
    print()
    print("Grandfather's run: rows read %d, accepted %d, rejected %d; %d customers"
          % tuple(run))
    left_out = [0, 0, 0, 0]
    multiple = 0
    compared = 0
    class_ok = 0
    flags_ok = 0
    examples = []
    class_counts = {"grandfathered": [0, 0], "subscriber": [0, 0], "lapsed": [0, 0],
                    "new": [0, 0]}
    flag_counts = {f: [0, 0] for f in FLAGS}
    flag_diffs = {f: 0 for f in FLAGS}
    for cid in sorted(set(gf_customers) | set(duck)):
        g = gf_customers.get(cid)
        reasons = []
        if g is not None and g[0] == "excluded":
            reasons.append(0)
        if g is not None and g[1] == 1:
            reasons.append(1)
        if cid in sandbox_tx:
            reasons.append(2)
        if cid in rejected_row:
            reasons.append(3)
        if reasons:
            left_out[reasons[0]] += 1
            multiple += len(reasons) > 1
            continue
        compared += 1
        d = duck.get(cid)
        g_class = g[0] if g is not None else "(missing)"
        g_flags = frozenset(gf_flags.get(cid, ()))
        d_class, d_flags = d if d is not None else ("(missing)", frozenset())
        for side, cls, fl in ((0, g_class, g_flags), (1, d_class, d_flags)):
            if cls in class_counts:
                class_counts[cls][side] += 1
            for f in fl:
                if f in flag_counts:
                    flag_counts[f][side] += 1
        same_class = g_class == d_class
        same_flags = g_flags == d_flags and g is not None and d is not None
        class_ok += same_class
        flags_ok += same_flags
        for f in g_flags ^ d_flags:
            flag_diffs[f] += 1
        if (not same_class or not same_flags) and len(examples) < 10:
            examples.append((cid, g_class, sorted(g_flags), d_class, sorted(d_flags)))

    print("left out of the comparison (each customer under the first reason that applies):")
    for reason, n in zip(REASONS, left_out):
        print("  %-40s %9d" % (reason, n))
    print("  (%d of them matched more than one reason)" % multiple)
    counts = manifest["counts"]
    # a customer whose row is rejected becomes an orphan when it has production transactions
    expected = [counts["sandbox_customers"],
                counts["orphan_customers"] + counts.get("orphan_customers_from_rejected_rows", 0),
                counts.get("rejected_rows", 0)]
    seen = [sum(1 for c in gf_customers.values() if c[0] == "excluded"),
            sum(1 for c in gf_customers.values() if c[1] == 1), run[2]]
    print("the generator wrote, and Grandfather reports: %d/%d excluded customers, %d/%d "
          "orphan customers, %d/%d rejected rows" % tuple(x for p in zip(expected, seen) for x in p))
    consistent = True
    for what, want, got in zip(["excluded customers", "orphan customers", "rejected rows"],
                               expected, seen):
        if want != got:
            consistent = False
            print("MISMATCH: the generator wrote %d %s, Grandfather reports %d" % (want, what, got))
    print()
    print("%-32s %12s %12s" % ("compared customers", "Grandfather", "DuckDB"))
    for cls in CLASSES:
        print("  class %-26s %12d %12d" % (cls, class_counts[cls][0], class_counts[cls][1]))
    for f in FLAGS:
        print("  flag  %-26s %12d %12d%s" % (f, flag_counts[f][0], flag_counts[f][1],
                                             "   (%d differ)" % flag_diffs[f] if flag_diffs[f] else ""))
    pct = lambda k: 100.0 * k / compared if compared else 100.0
    print()
    print("agreement: classes %d/%d (%.4f%%), flags for the six flags %d/%d (%.4f%%)"
          % (class_ok, compared, pct(class_ok), flags_ok, compared, pct(flags_ok)))
    if examples:
        print("disagreements (up to 10):")
        for cid, gc, gfl, dc, dfl in examples:
            print("  %s: Grandfather %s [%s] vs DuckDB %s [%s]"
                  % (cid, gc, ",".join(gfl), dc, ",".join(dfl)))
    return (class_ok == compared and flags_ok == compared and compared > 0 and consistent,
            compared)


def reference_check(reference, cmd, out, stdout_path, work, what):
    """Runs the reference binary once with cmd (the candidate's audit command, whose last run
    wrote out and stdout_path), into its own output folder, and prints whether every output
    is byte-identical (bench/compare_builds.py's comparison and masking: the run id; here
    also the output folder's name, which stdout prints). Returns True when identical."""
    import compare_builds  # here: it imports this module
    name = os.path.basename(out)
    ref_parent = os.path.join(work, "reference")
    ref_out = os.path.join(ref_parent, name)
    shutil.rmtree(ref_out, ignore_errors=True)
    os.makedirs(ref_parent, exist_ok=True)
    i = cmd.index("--out") + 1
    ref_cmd = [rel(reference)] + cmd[1:i] + [rel(ref_out)] + cmd[i + 1:]
    log_path = os.path.join(ref_parent, name)
    log("$ " + shell_line(ref_cmd))
    code, wall, rss, _ = measure(ref_cmd, log_path)
    log("bench: reference %s: exit %d, %.2f s, %.0f MiB" % (what, code, wall, rss))
    results = []
    for path, folder in [(log_path, ref_out), (stdout_path, out)]:
        with open(path + ".stdout", "rb") as f:
            results.append(f.read().replace(rel(folder).encode(), b"<out>"))
    results = [(code, results[0]), (0, results[1])]
    diffs = compare_builds.case_differences(compare_builds.Case(what, ref_cmd, out=name),
                                            results, [ref_parent, os.path.dirname(out)])
    print("outputs identical to the reference build (%s): %s" % (what, "yes" if not diffs else "NO"))
    print("  " + shell_line(ref_cmd))
    print("  (masked: %s; the output folder's name in stdout)" % compare_builds.MASKED_SUMMARY)
    for where, diff in diffs:
        print("  DIFFERENT: %s: %s" % (where, diff))
    return not diffs


# Runs argv[2:] and writes its exit code, wall s, peak RSS (KiB) and CPU s to argv[1]: a
# small process between a large parent and the command, whose peak RSS would otherwise
# start from the parent's at the fork.
RUSAGE_WRAPPER = r"""
import os, subprocess, sys, time
t0 = time.monotonic()
p = subprocess.Popen(sys.argv[2:], stdin=subprocess.DEVNULL)
_, status, usage = os.wait4(p.pid, 0)
with open(sys.argv[1], "w") as f:
    f.write("%d %r %d %r" % (os.waitstatus_to_exitcode(status), time.monotonic() - t0,
                             usage.ru_maxrss, usage.ru_utime + usage.ru_stime))
"""


def measure_apart(cmd, log_path):
    """measure(), with the command started from a small process of its own: for a parent
    that holds much memory (the --revenuecat-files check holds a customer table)."""
    usage = log_path + ".rusage"
    code, _, _, _ = measure([sys.executable, "-c", RUSAGE_WRAPPER, usage] + cmd, log_path)
    try:
        with open(usage) as f:
            fields = f.read().split()
    except OSError:  # the wrapper itself failed
        return code or 1, 0.0, 0.0, 0.0
    return int(fields[0]), float(fields[1]), int(fields[2]) / 1024.0, float(fields[3])


def revenuecat_audit(binary, work):
    """How --revenuecat-files audits its files: the candidate's audit command (outputs
    removed first), run once and measured; gives the command, exit code, wall s and MiB."""
    def audit(name, inputs, out):
        shutil.rmtree(out, ignore_errors=True)
        cmd = [rel(binary), "audit", "--policy", POLICY, "--as-of", AS_OF, "--out", rel(out)] + \
            [rel(p) for p in inputs]
        log("$ " + shell_line(cmd))
        log_path = os.path.join(work, name)
        code, wall, rss, _ = measure_apart(cmd, log_path)
        log("bench: %-13s %8.2f s %8.0f MiB  (exit %d)" % (name, wall, rss, code))
        if code != 0:
            with open(log_path + ".stderr", errors="replace") as f:
                log("bench: error: %s exited %d; its stderr (%s.stderr):\n%s" % (
                    name, code, log_path, f.read()[-4000:]))
        return shell_line(cmd), code, wall, rss
    return audit


def rel(p):
    return os.path.relpath(p, ROOT) if os.path.abspath(p).startswith(ROOT + os.sep) else p


def run_shape(a, shape, binary, build_kind, version, baseline, base_version, reference, formats,
              work, duckdb_version):
    """One shape: generate (or reuse), time, compare. Returns a dict for the summary table."""
    result = {"shape": shape, "ok": False}
    data, gen_cmd, gen_seconds = dataset(a.customers, a.history_factor, a.seed, shape)
    with open(os.path.join(data, "manifest.json")) as f:
        manifest = json.load(f)
    customers_csv = os.path.join(data, "customers.csv")
    transactions_csv = os.path.join(data, "transactions.csv")
    shutil.rmtree(work, ignore_errors=True)
    os.makedirs(work)
    gf_out = os.path.join(work, "gf-out")
    duck_out = os.path.join(work, "duck.sqlite")
    audit = lambda binary, out, transactions: [
        rel(binary), "audit", "--policy", POLICY, "--as-of", AS_OF, "--out", rel(out),
        rel(customers_csv), rel(transactions)]
    gf_cmd = audit(binary, gf_out, transactions_csv)
    duck_cmd = [sys.executable, "bench/baseline_duckdb.py", rel(data), rel(duck_out)]
    tools = [("grandfather", gf_cmd, gf_out), ("duckdb", duck_cmd, duck_out)]
    warm_first = {}  # tool name -> folder whose files are read once before each of its runs
    if baseline:
        # The same command with the baseline binary, run right after the candidate's.
        base_out = os.path.join(work, "baseline-out")
        base_cmd = audit(baseline, base_out, transactions_csv)
        tools.insert(1, ("baseline", base_cmd, base_out))
    format_tools = []  # (format, tool name, command, output folder)
    if "jsonl" in formats:
        jsonl_out = os.path.join(work, "gf-jsonl-out")
        format_tools.append(("jsonl", "gf-jsonl", audit(binary, jsonl_out, jsonl_copy(data)),
                             jsonl_out))
    if "sde" in formats:
        sde_out = os.path.join(work, "gf-sde-out")
        format_tools.append(("sde", "gf-sde", audit(binary, sde_out, sde_copy(data)), sde_out))
        if baseline:
            # The baseline binary on the export too, right after the candidate's export run.
            base_sde_out = os.path.join(work, "baseline-sde-out")
            base_sde_cmd = audit(baseline, base_sde_out, sde_copy(data))
        # The export's own peer: DuckDB pointed at the export itself, as a team holding one
        # and no Grandfather would (issue 34).
        duck_sde_out = os.path.join(work, "duck-sde.sqlite")
        duck_sde_cmd = [sys.executable, "bench/baseline_duckdb_sde.py", rel(data), rel(duck_sde_out),
                        "--sde", rel(sde_copy(data))]
    if "wide" in formats:
        wide_out = os.path.join(work, "gf-wide-out")
        format_tools.append(("wide", "gf-wide", audit(binary, wide_out, wide_copy(data)), wide_out))
    tools += [(name, cmd, out) for _, name, cmd, out in format_tools]
    if "sde" in formats and baseline:
        tools.insert([t[0] for t in tools].index("gf-sde") + 1, ("baseline-sde", base_sde_cmd, base_sde_out))
    if "sde" in formats:
        tools.append(("duckdb-sde", duck_sde_cmd, duck_sde_out))

    if a.sql:
        normalized = os.path.join(work, "gf-normalized")
        normalize_cmd = [rel(binary), "normalize", "--policy", POLICY, "--as-of", AS_OF, "--out",
                         rel(normalized), rel(customers_csv), rel(transactions_csv)]
        script = os.path.join(work, "audit.sql")
        # `sql --load` names a folder that must exist: normalize once, untimed, before the
        # script is written (each timed round then replaces the folder it made).
        subprocess.run(normalize_cmd, cwd=ROOT, check=True, stdout=subprocess.DEVNULL)
        with open(script, "w") as f:
            subprocess.run([binary, "sql", "--policy", POLICY, "--as-of", AS_OF, "--dialect", "duckdb",
                            "--load", normalized], stdout=f, check=True)
        sql_cmd = [sys.executable, "warehouse/run.py", "--engine", "duckdb", "--sql", rel(script),
                   rel(normalized)]
        # normalize replaces its own folder; the SQL's exports live in it too and are rewritten.
        tools.append(("gf-normalize", normalize_cmd, None))
        tools.append(("duckdb-sql", sql_cmd, None))
        # The SQL's input is the folder each normalize run has just rewritten, past the page
        # cache: it is read once before each SQL run, untimed, as every other tool's inputs
        # are read once before the runs (cold, the SQL took about 1 s more at 1M).
        warm_first["duckdb-sql"] = normalized

    # Every input is read once before the timed runs, so that no run, the first
    # grandfather run least of all, pays for reading from disk what later runs find cached.
    inputs = [customers_csv, transactions_csv] + [cmd[-1] for _, _, cmd, _ in format_tools]
    warm(inputs)
    log("bench: read the inputs once to warm the page cache (%s)" % ", ".join(rel(p) for p in inputs))

    results = {name: [] for name, _, _ in tools}
    for i in range(1, a.runs + 1):
        for name, cmd, out in tools:
            if name in warm_first:
                warm(sorted(glob.glob(os.path.join(warm_first[name], "*.csv"))))
            if out is None:
                pass
            elif os.path.isdir(out):
                shutil.rmtree(out)
            elif os.path.exists(out):
                os.remove(out)
            log_path = os.path.join(work, "%s-%d" % (name, i))
            code, wall, rss, cpu = measure(cmd, log_path)
            if code != 0:
                fail_run(name, code, log_path)
            results[name].append((wall, rss, cpu))
            log("bench: run %d/%d %-11s %8.2f s %8.0f MiB  (CPU %.2f s)"
                % (i, a.runs, name, wall, rss, cpu))

    print("machine: %s" % machine())
    print("grandfather %s (%s: %s), duckdb %s, python %s" % (
        version or "?", build_kind, rel(binary), duckdb_version, platform.python_version()))
    if baseline:
        print("baseline grandfather %s (%s)" % (base_version or "?", rel(baseline)))
    counts = manifest["counts"]
    options = generate.parameter_options(generate.shape_parameters(shape, history_factor=a.history_factor))
    size = os.path.getsize(customers_csv) + os.path.getsize(transactions_csv)
    print("data: %s%s: %d customers rows (%s), %d transactions rows (%s)%s" % (
        rel(data), " (shape %s: %s)" % (shape, " ".join(options)) if options else "",
        counts["customers_rows"], human_size(os.path.getsize(customers_csv)),
        counts["transactions_rows"], human_size(os.path.getsize(transactions_csv)),
        "; generated in %.1f s" % gen_seconds if gen_seconds is not None else " (cached)"))
    print("commands:")
    print("  " + shell_line(gen_cmd))
    print("  " + shell_line(gf_cmd))
    if baseline:
        print("  " + shell_line(base_cmd))
    print("  " + shell_line(duck_cmd))
    for _, _, cmd, _ in format_tools:
        print("  " + shell_line(cmd))
    if "sde" in formats and baseline:
        print("  " + shell_line(base_sde_cmd))
    if "sde" in formats:
        print("  " + shell_line(duck_sde_cmd))
    if a.sql:
        print("  " + shell_line(normalize_cmd))
        print("  " + shell_line([rel(binary), "sql", "--policy", POLICY, "--as-of", AS_OF, "--dialect",
                                 "duckdb", "--load", rel(normalized)]) + " > " + rel(script))
        print("  " + shell_line(sql_cmd))
    print("  (inputs read once before the runs, untimed%s; outputs removed before each run; runs alternate, grandfather first)"
          % ("; the normalize folder read once before each duckdb-sql run" if warm_first else ""))
    print()
    print("%-12s %14s %20s %13s   %s" % ("tool", "median wall s", "median peak RSS MiB",
                                        "median CPU s", "all runs (wall s / MiB / CPU s)"))
    med = {}
    for name in results:
        med[name] = tuple(statistics.median(x[k] for x in results[name]) for k in range(3))
        print("%-12s %14.2f %20.0f %13.2f   %s" % (
            name, med[name][0], med[name][1], med[name][2],
            "  ".join("%.2f/%.0f/%.2f" % x for x in results[name])))
    print("Grandfather/DuckDB: wall %.2fx, peak RSS %.2fx" % (
        med["grandfather"][0] / med["duckdb"][0], med["grandfather"][1] / med["duckdb"][1]))
    result.update(rows=counts["customers_rows"] + counts["transactions_rows"], size=size,
                  gen_seconds=gen_seconds, gf=med["grandfather"], duck=med["duckdb"])

    failures = []
    snapshot = os.path.join(gf_out, "latest", "snapshot.sqlite")
    rejected_row = manifest.get("rejected_row_customers", ())
    if baseline:
        print("candidate/baseline: wall %.2fx, peak RSS %.2fx" % (
            med["grandfather"][0] / med["baseline"][0], med["grandfather"][1] / med["baseline"][1]))
        same = same_answers(snapshot, os.path.join(base_out, "latest", "snapshot.sqlite"))
        print("candidate and baseline give the same classes and flags: %s"
              % ("yes" if same else "NO"))
        if not same:
            failures.append("the candidate and the baseline binary disagree")
    for fmt, name, cmd, out in format_tools:
        label = {"jsonl": "JSON Lines", "sde": "RevenueCat export", "wide": "widened CSV"}[fmt]
        print("Grandfather %s/CSV: wall %.2fx, peak RSS %.2fx" % (
            label, med[name][0] / med["grandfather"][0], med[name][1] / med["grandfather"][1]))
        if fmt == "sde" and baseline:
            print("candidate/baseline on the RevenueCat export: wall %.2fx, peak RSS %.2fx" % (
                med[name][0] / med["baseline-sde"][0], med[name][1] / med["baseline-sde"][1]))
            if not same_answers(os.path.join(out, "latest", "snapshot.sqlite"),
                                os.path.join(base_sde_out, "latest", "snapshot.sqlite")):
                print("candidate and baseline give the same classes and flags on the export: NO")
                failures.append("the candidate and the baseline binary disagree on the export")
        result["format"] = (fmt, med[name][0] / med["grandfather"][0])
        if fmt == "sde":
            # The export has no product_type, environment or ownership_type column of its
            # own: a rejected row of the CSV may read as a valid one there.
            same = same_answers(snapshot, os.path.join(out, "latest", "snapshot.sqlite"),
                                leave_out_orphans_of_a=True, leave_out=rejected_row,
                                why="customers with a rejected row (manifest)")
        else:
            same = same_answers(snapshot, os.path.join(out, "latest", "snapshot.sqlite"))
            # the same rows: the same rejected rows
            rejected = [load_grandfather(s)[2][2] for s in
                        (snapshot, os.path.join(out, "latest", "snapshot.sqlite"))]
            print("rejected rows: CSV %d, %s %d" % (rejected[0], label, rejected[1]))
            same &= rejected[0] == rejected[1]
        print("%s and CSV runs give the same classes and flags: %s" % (label, "yes" if same else "NO"))
        if not same:
            failures.append("the %s and CSV runs disagree" % label)
        if fmt == "sde":
            print("Grandfather RevenueCat export/DuckDB over the export: wall %.2fx, peak RSS %.2fx" % (
                med[name][0] / med["duckdb-sde"][0], med[name][1] / med["duckdb-sde"][1]))
            if not peer_agrees(os.path.join(out, "latest", "snapshot.sqlite"), duck_sde_out, manifest,
                               snapshot):
                failures.append("Grandfather on the export and DuckDB over the export disagree")
    if a.sql:
        path = (med["gf-normalize"][0] + med["duckdb-sql"][0], max(med["gf-normalize"][1], med["duckdb-sql"][1]))
        print("DuckDB-SQL path (normalize + SQL): wall %.2f s, peak RSS %.0f MiB; "
              "path/Grandfather: wall %.2fx, peak RSS %.2fx; path/DuckDB script: wall %.2fx, peak RSS %.2fx" % (
                  path[0], path[1], path[0] / med["grandfather"][0], path[1] / med["grandfather"][1],
                  path[0] / med["duckdb"][0], path[1] / med["duckdb"][1]))
        same = same_as_sql(snapshot, normalized)
        print("The SQL in DuckDB and grandfather give the same classes and flags: %s" % ("yes" if same else "NO"))
        if not same:
            failures.append("the SQL path and grandfather disagree")
        print_sql_profile(sql_cmd, os.path.join(work, "sql-profile.json"))
    if reference:
        identical = reference_check(reference, gf_cmd, gf_out,
                                    os.path.join(work, "grandfather-%d" % a.runs), work, "csv")
        for fmt, name, cmd, out in format_tools:
            identical &= reference_check(reference, cmd, out,
                                         os.path.join(work, "%s-%d" % (name, a.runs)), work, fmt)
        result["identical"] = identical
        if not identical:
            failures.append("outputs differ from the reference build's")
    agree, compared = compare(snapshot, duck_out, manifest)
    result.update(agree=agree, compared=compared)
    if not agree:
        failures.append("Grandfather and the DuckDB script disagree (details above)")
    if a.revenuecat_files:
        sys.stdout.flush()
        if not revenuecat_files.check(data, manifest, snapshot, os.path.join(work, "revenuecat"),
                                      revenuecat_audit(binary, work), a.seed):
            failures.append("the RevenueCat files and the canonical run disagree (details above)")
    sys.stdout.flush()
    for failure in failures:
        log("bench: FAILED (shape %s): %s" % (shape, failure))
    result["ok"] = not failures
    return result


def warm(paths):
    """Reads each file through once (untimed), as the page cache keeps it for the runs."""
    for path in paths:
        with open(path, "rb", buffering=0) as f:
            while f.read(1 << 23):
                pass


def summary(results, reference):
    """The table of --shape all."""
    print()
    print("=== all shapes ===")
    yes = lambda b: "yes" if b else "NO"
    head = "%-17s %11s %9s %13s %13s %13s %13s %7s %7s %7s %9s %9s" % (
        "shape", "rows", "data", "gf wall s", "gf RSS MiB", "duck wall s", "duck RSS MiB",
        "wall", "RSS", "agree", "<=0.8x t", "<=0.8x m")
    if reference:
        head += " %10s" % "identical"
    print(head)
    for r in results:
        if "gf" not in r:
            print("%-17s (did not run)" % r["shape"])
            continue
        wall, rss = r["gf"][0] / r["duck"][0], r["gf"][1] / r["duck"][1]
        line = "%-17s %11d %9s %13.2f %13.0f %13.2f %13.0f %6.3fx %6.3fx %7s %9s %9s" % (
            r["shape"], r["rows"], "%.2f GB" % (r["size"] / 1e9), r["gf"][0], r["gf"][1],
            r["duck"][0], r["duck"][1], wall, rss, yes(r.get("agree")), yes(wall <= 0.8),
            yes(rss <= 0.8))
        if reference:
            line += " %10s" % yes(r.get("identical"))
        print(line)
    print("(medians; wall and RSS are Grandfather/DuckDB; rows: both files' rows; agree: classes "
          "and the six flags on every customer compared, and the generator's counts)")


def run_all(a, binary, build_kind, reference):
    """--shape all: each shape in turn, each in a process of its own (a child's peak RSS
    starts from its parent's RSS at the fork, and the comparison of a shape of 1M customers
    leaves a Python process at about a GiB), then the table of them all."""
    last_run = os.path.join(DATA_ROOT, "last-run")
    shutil.rmtree(last_run, ignore_errors=True)
    os.makedirs(last_run)
    options = ["--customers", str(a.customers), "--runs", str(a.runs), "--seed", str(a.seed),
               "--binary", binary, "--build-kind", build_kind]
    if a.history_factor is not None:
        options += ["--history-factor", str(a.history_factor)]
    options += ["--jsonl"] * (a.jsonl or a.format == "jsonl") + \
        ["--sde"] * (a.sde or a.format == "sde") + ["--wide"] * (a.wide or a.format == "wide") + \
        ["--sql"] * a.sql
    for option in ["baseline_binary", "reference_binary"]:
        if getattr(a, option):
            options += ["--" + option.replace("_", "-"), os.path.abspath(getattr(a, option))]
    shapes = list(generate.SHAPES)
    results = []
    for n, shape in enumerate(shapes):
        if n:
            print()
        print("=== shape %s ===" % shape)
        sys.stdout.flush()
        work = os.path.join(last_run, shape)
        summary_file = os.path.join(last_run, shape + ".json")
        code = subprocess.run([sys.executable, os.path.abspath(__file__), "--shape", shape]
                              + options + ["--work-dir", work, "--summary-file", summary_file],
                              cwd=ROOT).returncode
        try:
            with open(summary_file) as f:
                r = json.load(f)
        except (OSError, ValueError):
            r = {"shape": shape, "ok": False}
        r["ok"] = r["ok"] and code == 0
        results.append(r)
        if r["ok"] and n < len(shapes) - 1:
            shutil.rmtree(work, ignore_errors=True)  # kept: the last shape's, and failures'
    summary(results, reference)
    sys.stdout.flush()
    failed = [r["shape"] for r in results if not r["ok"]]
    if failed:
        log("bench: FAILED: %s (details above)" % ", ".join(failed))
        return 1
    return 0


def main():
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--customers", type=int, default=1_000_000)
    ap.add_argument("--runs", type=int, default=3)
    ap.add_argument("--seed", type=int, default=1)
    ap.add_argument("--history-factor", type=int,
                    help="K times the renewals (default: the shape's, 1 but for long-history)")
    ap.add_argument("--shape", default="default", choices=list(generate.SHAPES) + ["all"],
                    help="the shape of the data (bench/README.md), or all of them in turn")
    ap.add_argument("--shape-options", metavar="OPTIONS",
                    help="a shape of your own: bench/generate.py's shape options in one argument "
                    "(what scripts/describe-export suggests), e.g. '--order time "
                    "--consumable-share 0.14'; cached as .bench-data/own-<digest>-c<N>-s<S>")
    ap.add_argument("--format", choices=["csv", "jsonl", "sde", "wide"], default="csv",
                    help="also time grandfather on the same transactions as JSON Lines, as a "
                    "RevenueCat Scheduled Data Export, or as the CSV widened to the export's bytes "
                    "(csv: only the CSV)")
    ap.add_argument("--debug", action="store_true",
                    help="build and time the debug binary (quick checks; times mean little)")
    ap.add_argument("--jsonl", action="store_true",
                    help="also time grandfather on the same transactions as JSON Lines")
    ap.add_argument("--sde", action="store_true",
                    help="also time grandfather on the same transactions as a RevenueCat "
                    "Scheduled Data Export (issue 16: within 1.5x of the canonical CSV)")
    ap.add_argument("--wide", action="store_true",
                    help="also time grandfather on the canonical CSV widened with unknown columns "
                    "to the export copy's bytes: the floor under the export's ratio")
    ap.add_argument("--sql", action="store_true",
                    help="also time the warehouse path: grandfather normalize, then the DuckDB "
                    "script of grandfather sql (issue 17)")
    ap.add_argument("--binary", help="time this grandfather binary instead of building one "
                    "(e.g. an older build to compare with)")
    ap.add_argument("--baseline-binary", metavar="PATH",
                    help="also time this grandfather binary, alternating with the candidate, "
                    "and compare the two (wall time, peak RSS, classes and flags)")
    ap.add_argument("--reference-binary", metavar="PATH",
                    help="run this grandfather binary once per shape with the same audit "
                    "command and require byte-identical outputs")
    ap.add_argument("--revenuecat-files", action="store_true",
                    help="also write the default shape's data as RevenueCat holds it (an export, a "
                    "subscriber response per customer, the customer list), audit the three together "
                    "and the responses and list alone, and require the canonical run's class, flags "
                    "and grants for every customer they can express (issue 34)")
    # what --shape all gives each shape's process
    ap.add_argument("--build-kind", help=argparse.SUPPRESS)
    ap.add_argument("--work-dir", help=argparse.SUPPRESS)
    ap.add_argument("--summary-file", help=argparse.SUPPRESS)
    a = ap.parse_args()
    if a.runs < 1:
        ap.error("--runs must be at least 1")
    if a.history_factor is not None and not 1 <= a.history_factor <= 1000:
        ap.error("--history-factor must be between 1 and 1000")
    if a.shape_options is not None:
        if a.shape != "default":
            ap.error("--shape-options takes no --shape: the options are the shape")
        try:
            a.shape = own_shape(a.shape_options)
        except ValueError as e:
            ap.error("--shape-options: %s" % e)
    if a.revenuecat_files and a.shape != "default":
        ap.error("--revenuecat-files takes the default shape only")
    given = {}
    for option in ["baseline_binary", "reference_binary"]:
        path = getattr(a, option)
        given[option] = os.path.abspath(path) if path else None
        if path and not (os.path.isfile(path) and os.access(path, os.X_OK)):
            ap.error("--%s %s: not an executable file" % (option.replace("_", "-"), path))
    baseline, reference = given["baseline_binary"], given["reference_binary"]
    formats = [f for f, on in [("jsonl", a.jsonl or a.format == "jsonl"),
                               ("sde", a.sde or a.format == "sde"),
                               ("wide", a.wide or a.format == "wide")] if on]
    os.chdir(ROOT)
    try:
        import duckdb  # before the build, so that a missing module fails early
    except ImportError:
        log("bench: error: no duckdb module for %s: run scripts/bench, or pip install duckdb"
            % sys.executable)
        return 1

    if a.binary:
        binary = os.path.abspath(a.binary)
        build_kind = a.build_kind or "given binary"
    else:
        try:
            binary = build(a.debug)
        except subprocess.CalledProcessError as e:
            log("bench: error: the build failed (exit %d): %s" % (e.returncode, shell_line(e.cmd)))
            return 1
        build_kind = "debug build" if a.debug else "release build"
    if a.shape == "all":
        return run_all(a, binary, build_kind, reference)
    version = subprocess.run([binary, "--version"], capture_output=True, text=True).stdout.strip()
    base_version = subprocess.run([baseline, "--version"], capture_output=True,
                                  text=True).stdout.strip() if baseline else None
    work = a.work_dir or os.path.join(DATA_ROOT, "last-run")
    r = run_shape(a, a.shape, binary, build_kind, version, baseline, base_version, reference,
                  formats, work, duckdb.__version__)
    if a.summary_file:
        with open(a.summary_file, "w") as f:
            json.dump(r, f)
    sys.stdout.flush()
    return 0 if r["ok"] else 1


if __name__ == "__main__":
    sys.exit(main())
