#!/usr/bin/env python3
"""Compares two grandfather builds: the same behaviour, byte for byte.

    scripts/compare-builds [--baseline REV] [--baseline-binary PATH] [--candidate-binary PATH]
                           [--customers N] [--keep DIR]

For a refactor that must change nothing: the baseline is a release build of REV (default
89164fe, the last commit before the refactor), the candidate the working tree's release
build. This script:
1. builds the baseline, unless --baseline-binary is given: `git archive REV` extracted into
   .build-baseline/src-<rev>/ (nothing in the repository changes), the working tree's
   Package.resolved copied in when the archive has none (it is not in git; the two builds
   then use the same dependency versions), and
   `swift build -c release --product grandfather --package-path .build-baseline/src-<rev>
   --scratch-path .build-baseline/build-<rev>`; reused when the binary is there already;
2. builds the candidate, unless --candidate-binary is given, with the command bench/run.py
   uses (`swift build -c release -Xswiftc -warnings-as-errors --product grandfather`, so the
   two share one release build in .build/ instead of rebuilding each other's);
3. runs every case below with both binaries, with identical arguments and a fixed as-of,
   each binary in its own folder (<work>/baseline/<case>/, <work>/candidate/<case>/): inputs
   are given as absolute paths and outputs as relative ones, so that both runs see the same
   argument strings;
4. compares, per case: the exit codes; stdout; the output folder's tree (names, kinds and link
   targets); and every file of each run folder byte for byte, except snapshot.sqlite, which is
   compared table by table (schema and user_version, then every table's rows in rowid order,
   or ordered by all columns for WITHOUT ROWID tables);
5. prints one line per case, "same" or "DIFFERENT: <what>: <first difference>", and a final
   line; exits 1 when anything differs, 2 when the comparison could not be made (usage
   error, unknown revision, missing binary, failed build).

Masked, and nothing else: the fields that differ between two runs of the very same binary
on the same inputs (found by running one binary twice and diffing every output):
- the run id (UTC start time to the millisecond and the process id, e.g.
  20261124T203305.550Z-28165), wherever it appears in stdout and in the output folder's
  names and `latest` link: `audit` and `compare` print the run folder, `explain` the run id;
- snapshot table `runs`, columns run_id and started_at (the run's clock and process id) and
  ingest_seconds, classify_seconds, reports_seconds, snapshot_seconds, compare_seconds
  (timings).
DIR/.lock (the holder's pid and start time, rewritten by every run) is outside the run
folder: its existence is compared, its contents are not. stderr is kept, not compared
(with the default human log format it holds only warnings and errors, but a run's timing
log would differ). Reports hold nothing that describes the run (docs/Outputs.md, "Output files"), and
the case that reads a previous run reads the same one on both sides, so no run id of a
previous run needs masking.

Cases (sample-data's README derives its table at 2026-11-21; the conformance set's as-of is
in its as-of.txt; the App Store sample's and the benchmark's as-of are their scripts'):
  a  sample-data/ audited with sample-data/policy.json, the inputs scripts/sample globs;
     then again with policy-by-date.json and --previous the baseline's run of it (the
     changes since a previous run, read from the same snapshot on both sides);
  b  the conformance set (Tests/GrandfatherCLITests/Conformance/), as ConformanceTests runs
     it, under policy.json and policy-noplatform.json, and under policy.json with
     max_rejected_fraction 0.01 (exit 3: the run folder written, latest not moved);
  c  the App Store sample, as scripts/sample-apple runs it (--trusted-root, its as-of);
  d  the benchmark data, as bench/run.py generates (cached in .bench-data/) and audits it;
     --customers 0 skips it;
  e  `compare` of sample-data/policy.json with policy-by-date.json and with a copy whose
     cutover is three months later; `explain` of three customers of case a (those with
     golden files) and of one it lacks (exit 2); `validate` of sample-data; `flags`.

Each run's wall time and peak RSS are logged to stderr; --keep DIR leaves every output,
stdout and stderr there (otherwise they go to a temporary folder under .build-baseline/,
removed at the end).
"""
import argparse
import glob
import itertools
import json
import os
import re
import shutil
import sqlite3
import subprocess
import sys
import tempfile
import urllib.request

BENCH = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, BENCH)
sys.dont_write_bytecode = True  # no bench/__pycache__ in the work tree
import run as bench  # noqa: E402  (bench/run.py: the data set, the build, the timing)

ROOT = bench.ROOT
BASELINE_ROOT = os.path.join(ROOT, ".build-baseline")
DEFAULT_REV = "89164fe"
SIDES = ["baseline", "candidate"]

# What differs between two runs of one binary, and only that (module docstring).
RUN_ID = re.compile(r"\d{8}T\d{6}\.\d{3}Z-\d+")
RUN_ID_BYTES = re.compile(RUN_ID.pattern.encode())
MASKED_COLUMNS = {"runs": ["run_id", "started_at", "ingest_seconds", "classify_seconds",
                           "reports_seconds", "snapshot_seconds", "compare_seconds"]}
MASKED_SUMMARY = ("run id (stdout, output folder names, latest link); snapshot runs.%s; "
                  "DIR/.lock contents not compared" % ", runs.".join(MASKED_COLUMNS["runs"]))

SAMPLE = os.path.join(ROOT, "sample-data")
SAMPLE_AS_OF = "2026-11-21T00:00:00Z"
CONFORMANCE = os.path.join(ROOT, "Tests", "GrandfatherCLITests", "Conformance")
APPLE = os.path.join(SAMPLE, "apple")
APPLE_AS_OF = "2026-11-01T00:00:00Z"
EXPLAINED = ["c06-fay-tvos-1.9-below-1.10", "c19-tara-grace-period", "c23-xena-orphan",
             "c99-nobody"]


class UsageError(Exception):
    """The comparison cannot be made: exit 2."""


def log(msg):
    print("compare-builds: " + msg, file=sys.stderr, flush=True)


# --- the two binaries ---------------------------------------------------------------------

def git(*args):
    return subprocess.run(["git", "-C", ROOT] + list(args), check=True, capture_output=True,
                          text=True).stdout.strip()


def baseline_binary(rev):
    """The release binary of rev, built into .build-baseline/build-<rev>/ when missing."""
    try:
        commit = git("rev-parse", "--verify", "--quiet", rev + "^{commit}")
        short = git("rev-parse", "--short", commit)
    except subprocess.CalledProcessError:
        raise UsageError("unknown revision %r" % rev)
    src = os.path.join(BASELINE_ROOT, "src-" + short)
    scratch = os.path.join(BASELINE_ROOT, "build-" + short)
    build_cmd = ["swift", "build", "-c", "release", "--product", "grandfather",
                 "--package-path", os.path.relpath(src, ROOT),
                 "--scratch-path", os.path.relpath(scratch, ROOT)]
    binary = os.path.join(scratch, "release", "grandfather")
    if os.access(binary, os.X_OK):
        log("reusing the baseline build %s (%s)" % (os.path.relpath(binary, ROOT), commit))
        return binary, short
    if not os.path.isdir(src):
        # Extracted into a temporary folder and renamed, so a half-extracted tree is never used.
        tmp = "%s.tmp-%d" % (src, os.getpid())
        shutil.rmtree(tmp, ignore_errors=True)
        os.makedirs(tmp)
        log("$ git archive %s | tar -x -C %s" % (commit, os.path.relpath(tmp, ROOT)))
        archive = subprocess.Popen(["git", "-C", ROOT, "archive", commit], stdout=subprocess.PIPE)
        untar = subprocess.run(["tar", "-x", "-C", tmp], stdin=archive.stdout)
        archive.stdout.close()
        if archive.wait() != 0 or untar.returncode != 0:
            shutil.rmtree(tmp, ignore_errors=True)
            raise UsageError("git archive %s | tar -x failed" % commit)
        resolved = os.path.join(ROOT, "Package.resolved")
        if not os.path.exists(os.path.join(tmp, "Package.resolved")) and os.path.exists(resolved):
            shutil.copy2(resolved, tmp)  # the same dependency versions as the candidate
        os.rename(tmp, src)
    try:
        bench.run_checked(build_cmd)
        out = subprocess.run(build_cmd + ["--show-bin-path"], cwd=ROOT, check=True,
                             capture_output=True, text=True).stdout
    except subprocess.CalledProcessError as e:
        raise UsageError("the baseline build failed (exit %d): %s"
                         % (e.returncode, bench.shell_line(e.cmd)))
    binary = os.path.join(out.strip().splitlines()[-1], "grandfather")
    if not os.access(binary, os.X_OK):
        raise UsageError("no grandfather binary at %s after the build" % binary)
    return binary, short


def candidate_binary():
    """The working tree's release build, built as bench/run.py builds it."""
    try:
        return bench.build(False)
    except subprocess.CalledProcessError as e:
        raise UsageError("the candidate build failed (exit %d): %s"
                         % (e.returncode, bench.shell_line(e.cmd)))


def given_binary(path, option):
    binary = os.path.abspath(path)
    if not (os.path.isfile(binary) and os.access(binary, os.X_OK)):
        raise UsageError("%s %s: not an executable file" % (option, path))
    return binary


# --- the cases ----------------------------------------------------------------------------

class Case:
    """One command run by both binaries. argv follows the binary; folder is the working
    folder's name under each side's folder (cases reading another case's output share it);
    out is the output folder (relative to it) whose runs are compared, if any."""

    def __init__(self, name, argv, out=None, folder=None):
        self.name, self.argv, self.out, self.folder = name, argv, out, folder or name


def sample_inputs():
    """The inputs scripts/sample globs, in the same order."""
    return [path for pattern in ["customers*.csv", "customers*.json", "transactions*.csv",
                                 "transactions*.jsonl"]
            for path in sorted(glob.glob(os.path.join(SAMPLE, pattern)))]


def write_policy(source, target, change):
    """A copy of a policy with one change, for a variant both binaries read."""
    with open(source) as f:
        policy = json.load(f)
    change(policy)
    with open(target, "w") as f:
        json.dump(policy, f, indent=2)
        f.write("\n")
    return target


def cases(work, customers):
    inputs_dir = os.path.join(work, "inputs")
    os.makedirs(inputs_dir)
    sample = sample_inputs()
    policy = os.path.join(SAMPLE, "policy.json")
    by_date = os.path.join(SAMPLE, "policy-by-date.json")
    later = write_policy(policy, os.path.join(inputs_dir, "policy-cutover-later.json"),
                         lambda p: p["cutover"].update(date="2025-06-04T09:00:00-07:00"))
    strict = write_policy(os.path.join(CONFORMANCE, "policy.json"),
                          os.path.join(inputs_dir, "conformance-policy-strict.json"),
                          lambda p: p.update(max_rejected_fraction=0.01))
    with open(os.path.join(CONFORMANCE, "as-of.txt")) as f:
        conformance_as_of = f.read().strip()
    conformance = [os.path.join(CONFORMANCE, n)
                   for n in ["customers.csv", "transactions.csv", "transactions.jsonl"]]
    # The previous run of a-sample-rerun: the baseline's run of a-sample, for both sides.
    previous = os.path.join(work, "baseline", "a-sample", "reports", "latest")

    result = [
        Case("a-sample", ["audit", "--policy", policy, "--as-of", SAMPLE_AS_OF,
                          "--out", "reports"] + sample, out="reports"),
        Case("a-sample-rerun", ["audit", "--policy", by_date, "--as-of", SAMPLE_AS_OF,
                                "--out", "reports", "--previous", previous] + sample,
             out="reports"),
    ]
    for name, pol in [("b-conformance", os.path.join(CONFORMANCE, "policy.json")),
                      ("b-conformance-noplatform",
                       os.path.join(CONFORMANCE, "policy-noplatform.json")),
                      ("b-conformance-strict", strict)]:
        result.append(Case(name, ["audit", "--policy", pol, "--as-of", conformance_as_of,
                                  "--out", "out"] + conformance, out="out"))
    result.append(Case("c-apple", [
        "audit", "--policy", os.path.join(APPLE, "policy.json"),
        "--trusted-root", os.path.join(APPLE, "sample-root.der"), "--as-of", APPLE_AS_OF,
        "--out", "reports/apple"] + [os.path.join(APPLE, n) for n in [
            "app-transactions.txt", "transaction-history.json", "subscription-statuses.json",
            "notifications.jsonl"]], out="reports/apple"))
    for name, other in [("e-compare-by-date", by_date), ("e-compare-cutover-later", later)]:
        result.append(Case(name, ["compare", "--policy", policy, "--policy", other,
                                  "--as-of", SAMPLE_AS_OF, "--out", "out"] + sample, out="out"))
    for customer in EXPLAINED:
        result.append(Case("e-explain-" + customer.split("-")[0],
                           ["explain", customer, "--snapshot", "reports"], folder="a-sample"))
    result.append(Case("e-validate", ["validate", "--policy", policy, "--as-of", SAMPLE_AS_OF]
                       + sample))
    result.append(Case("e-flags", ["flags"]))
    if customers > 0:
        data, _, _ = bench.dataset(customers, 1, 1)
        result.append(Case("d-bench-c%d" % customers, [
            "audit", "--policy", os.path.join(ROOT, bench.POLICY), "--as-of", bench.AS_OF,
            "--out", "out", os.path.join(data, "customers.csv"),
            os.path.join(data, "transactions.csv")], out="out"))
    return result


# --- comparing ----------------------------------------------------------------------------

def short(value, width=40):
    text = repr(value)
    return text if len(text) <= width else text[:width - 3] + "..."


def excerpt(line, column, width=50):
    """The part of one line around column, as a short repr."""
    start = max(0, column - width // 2)
    piece = line[start:start + width]
    more = start + width < len(line)
    return ("..." if start else "") + repr(piece)[1:-1] + ("..." if more else "")


def text_difference(line, a_line, b_line):
    """The message for two differing lines (bytes), at 1-based line number line."""
    column = next((i for i, (x, y) in enumerate(zip(a_line, b_line)) if x != y),
                  min(len(a_line), len(b_line)))
    decode = lambda s: s.decode("utf-8", "replace")
    return "line %d: '%s' vs '%s'" % (line, excerpt(decode(a_line), column),
                                      excerpt(decode(b_line), column))


def bytes_difference(a, b):
    """The first difference between two byte strings, or None."""
    if a == b:
        return None
    for i, (x, y) in enumerate(itertools.zip_longest(a.split(b"\n"), b.split(b"\n"))):
        if x != y:
            if x is None or y is None:
                return "line %d: only in the %s" % (i + 1, "candidate" if x is None else "baseline")
            return text_difference(i + 1, x, y)


def to_line_end(f, data, i, chunk):
    """data, with more of f read onto it until a newline follows offset i (or f ends)."""
    while data.find(b"\n", i) < 0:
        more = f.read(chunk)
        if not more:
            break
        data += more
    return data


def file_difference(a, b, chunk=1 << 20):
    """The first difference between two files' bytes, or None; streams large files."""
    with open(a, "rb") as fa, open(b, "rb") as fb:
        lines_before = 0  # newlines before the current chunk
        tail = b""  # the start of the current line, from the equal chunks before (bounded)
        while True:
            ca, cb = fa.read(chunk), fb.read(chunk)
            if ca == cb:
                if not ca:
                    return None
                lines_before += ca.count(b"\n")
                tail = ca[ca.rfind(b"\n") + 1:] if b"\n" in ca else (tail + ca)
                tail = tail[-4096:]
                continue
            i = next((k for k, (x, y) in enumerate(zip(ca, cb)) if x != y), min(len(ca), len(cb)))
            ca, cb = to_line_end(fa, ca, i, chunk), to_line_end(fb, cb, i, chunk)
            start = ca.rfind(b"\n", 0, i) + 1
            line = lines_before + ca.count(b"\n", 0, start) + 1
            prefix = tail if start == 0 else b""
            a_line = prefix + ca[start:].split(b"\n", 1)[0]
            b_line = prefix + cb[start:].split(b"\n", 1)[0]
            if a_line == b_line:  # one file ends where the other goes on
                return "line %d: the %s is longer (%d vs %d bytes)" % (
                    line, "baseline" if len(ca) > len(cb) else "candidate",
                    os.path.getsize(a), os.path.getsize(b))
            return text_difference(line, a_line, b_line)


def connect(path):
    return sqlite3.connect("file:%s?mode=ro" % urllib.request.pathname2url(path), uri=True)


def quote(name):
    return '"%s"' % name.replace('"', '""')


def rows_difference(columns, ca, cb, masked, chunk=20000):
    """The first difference between two cursors' rows, or None."""
    n = 0
    while True:
        ra, rb = ca.fetchmany(chunk), cb.fetchmany(chunk)
        if masked:
            mask = lambda row: tuple("<masked>" if i in masked else v for i, v in enumerate(row))
            ra, rb = [mask(r) for r in ra], [mask(r) for r in rb]
        if ra == rb:
            if not ra:
                return None
            n += len(ra)
            continue
        for k, (x, y) in enumerate(itertools.zip_longest(ra, rb)):
            if x != y:
                if x is None or y is None:
                    return "row %d: only in the %s" % (n + k + 1,
                                                       "candidate" if x is None else "baseline")
                col = next(i for i, (p, q) in enumerate(zip(x, y)) if p != q)
                return "row %d (%s %s): %s: %s vs %s" % (
                    n + k + 1, columns[0], short(x[0], 30), columns[col], short(x[col]),
                    short(y[col]))


def snapshot_difference(a, b):
    """(what, first difference) between two snapshots compared table by table, or None."""
    da, db = connect(a), connect(b)
    try:
        # Schema: every entry of sqlite_master in creation order, then user_version.
        schema_query = "SELECT type, name, tbl_name, sql FROM sqlite_master ORDER BY rowid"
        sa, sb = da.execute(schema_query).fetchall(), db.execute(schema_query).fetchall()
        if sa != sb:
            for x, y in itertools.zip_longest(sa, sb):
                if x != y:
                    return "schema", "%s vs %s" % (short(x, 60), short(y, 60))
        va = da.execute("PRAGMA user_version").fetchone()[0]
        vb = db.execute("PRAGMA user_version").fetchone()[0]
        if va != vb:
            return "schema", "user_version %d vs %d" % (va, vb)
        for kind, table, _, sql in sa:
            if kind != "table":
                continue
            what = "table " + table
            columns = [r[1] for r in da.execute("PRAGMA table_info(%s)" % quote(table))]
            na = da.execute("SELECT count(*) FROM %s" % quote(table)).fetchone()[0]
            nb = db.execute("SELECT count(*) FROM %s" % quote(table)).fetchone()[0]
            if na != nb:
                return what, "%d rows vs %d" % (na, nb)
            if re.search(r"\bWITHOUT\s+ROWID\s*$", sql or "", re.IGNORECASE):
                query = "SELECT * FROM %s ORDER BY %s" % (
                    quote(table), ", ".join(str(i + 1) for i in range(len(columns))))
            else:
                columns = ["rowid"] + columns
                query = "SELECT rowid, * FROM %s ORDER BY rowid" % quote(table)
            masked = {columns.index(c) for c in MASKED_COLUMNS.get(table, []) if c in columns}
            diff = rows_difference(columns, da.execute(query), db.execute(query), masked)
            if diff:
                return what, diff
        return None
    finally:
        da.close()
        db.close()


def tree(folder):
    """The output folder's entries: (masked relative name, kind), link targets masked."""
    entries = []
    for dirpath, dirnames, filenames in os.walk(folder):
        for name in sorted(dirnames + filenames):
            path = os.path.join(dirpath, name)
            rel = RUN_ID.sub("<run-id>", os.path.relpath(path, folder))
            if os.path.islink(path):
                kind = "link -> " + RUN_ID.sub("<run-id>", os.readlink(path))
            elif os.path.isdir(path):
                kind = "folder"
            else:
                kind = "file"
            entries.append((rel, kind))
    return sorted(entries)


def run_folders(out):
    runs = os.path.join(out, "runs")
    return sorted(os.path.join(runs, n) for n in os.listdir(runs)) if os.path.isdir(runs) else []


def case_differences(case, results, folders):
    """Every (what, first difference) between the two sides of a case, the first first."""
    (code_a, out_a), (code_b, out_b) = results
    diffs = []
    if code_a != code_b:
        diffs.append(("exit code", "%d vs %d" % (code_a, code_b)))
    d = bytes_difference(RUN_ID_BYTES.sub(b"<run-id>", out_a), RUN_ID_BYTES.sub(b"<run-id>", out_b))
    if d:
        diffs.append(("stdout", d))
    if case.out is None:
        return diffs
    out_a, out_b = (os.path.join(f, case.out) for f in folders)
    ta, tb = tree(out_a), tree(out_b)
    if ta != tb:
        for x, y in itertools.zip_longest(ta, tb):
            if x != y:
                diffs.append(("output folder", "%s vs %s" % (
                    " ".join(x) if x else "(nothing)", " ".join(y) if y else "(nothing)")))
                break
    for run_a, run_b in zip(run_folders(out_a), run_folders(out_b)):
        names = sorted(set(os.listdir(run_a)) | set(os.listdir(run_b)))
        for name in names:
            fa, fb = os.path.join(run_a, name), os.path.join(run_b, name)
            if not (os.path.isfile(fa) and os.path.isfile(fb)):
                diffs.append((name, "only in the %s" % ("baseline" if os.path.isfile(fa)
                                                         else "candidate")))
            elif name == "snapshot.sqlite":
                d = snapshot_difference(fa, fb)
                if d:
                    diffs.append((name + ": " + d[0], d[1]))
            else:
                d = file_difference(fa, fb)
                if d:
                    diffs.append((name, d))
    return diffs


# --- running ------------------------------------------------------------------------------

def run_case(case, binaries, work):
    """Runs the case with each binary in its own folder; returns [(exit code, stdout)] and
    the folders."""
    results, folders = [], []
    for side, binary in zip(SIDES, binaries):
        folder = os.path.join(work, side, case.folder)
        os.makedirs(folder, exist_ok=True)
        log_path = os.path.join(work, side, case.name)
        code, wall, rss, cpu = bench.measure([binary] + case.argv, log_path, cwd=folder)
        log("%-26s %-9s exit %d, %7.2f s, %6.0f MiB peak RSS" % (case.name, side, code, wall, rss))
        with open(log_path + ".stdout", "rb") as f:
            results.append((code, f.read()))
        folders.append(folder)
    return results, folders


def main():
    ap = argparse.ArgumentParser(
        prog="scripts/compare-builds",
        description="Runs the same cases with a baseline and a candidate grandfather build "
                    "and compares every output byte for byte (snapshots table by table).")
    ap.add_argument("--baseline", metavar="REV",
                    help="the revision to build as the baseline (default %s)" % DEFAULT_REV)
    ap.add_argument("--baseline-binary", metavar="PATH",
                    help="use this binary as the baseline instead of building REV")
    ap.add_argument("--candidate-binary", metavar="PATH",
                    help="use this binary as the candidate instead of the working tree's "
                    "release build")
    ap.add_argument("--customers", type=int, default=1_000_000, metavar="N",
                    help="customers of the benchmark data case (default 1000000; 0 skips it)")
    ap.add_argument("--keep", metavar="DIR",
                    help="leave the outputs in DIR (new or empty) instead of removing them")
    a = ap.parse_args()
    if a.customers < 0:
        ap.error("--customers must be 0 or more")
    if a.baseline and a.baseline_binary:
        ap.error("--baseline and --baseline-binary exclude each other")
    keep = os.path.abspath(a.keep) if a.keep else None
    if keep and os.path.exists(keep) and (not os.path.isdir(keep) or os.listdir(keep)):
        ap.error("--keep %s: exists and is not an empty folder" % a.keep)

    try:
        # Given binaries first, so that a wrong path fails before a long build.
        candidate = (given_binary(a.candidate_binary, "--candidate-binary")
                     if a.candidate_binary else None)
        if a.baseline_binary:
            baseline, baseline_name = (given_binary(a.baseline_binary, "--baseline-binary"),
                                       "given binary")
        else:
            baseline, short_rev = baseline_binary(a.baseline or DEFAULT_REV)
            baseline_name = "release build of %s" % short_rev
        candidate_name = "given binary" if candidate else "release build of the working tree"
        candidate = candidate or candidate_binary()
    except UsageError as e:
        log("error: %s" % e)
        return 2

    os.makedirs(BASELINE_ROOT, exist_ok=True)
    work = keep or tempfile.mkdtemp(prefix="compare-", dir=BASELINE_ROOT)
    try:
        os.makedirs(work, exist_ok=True)
        for side in SIDES:
            os.makedirs(os.path.join(work, side))
        rel = lambda p: os.path.relpath(p, ROOT) if p.startswith(ROOT + os.sep) else p
        for side, binary, name in [("baseline", baseline, baseline_name),
                                   ("candidate", candidate, candidate_name)]:
            version = subprocess.run([binary, "--version"], capture_output=True,
                                     text=True).stdout.strip()
            print("%-9s  %s (%s), version %s" % (side, rel(binary), name, version or "?"))
        print("masked: " + MASKED_SUMMARY)
        sys.stdout.flush()

        different = 0
        all_cases = cases(work, a.customers)
        for case in all_cases:
            results, folders = run_case(case, [baseline, candidate], work)
            diffs = case_differences(case, results, folders)
            if diffs:
                different += 1
                also = "; also %s" % ", ".join(w for w, _ in diffs[1:]) if len(diffs) > 1 else ""
                print("%-26s DIFFERENT: %s: %s%s" % (case.name, diffs[0][0], diffs[0][1], also))
            else:
                print("%-26s same" % case.name)
            sys.stdout.flush()
        if different:
            print("DIFFERENT: %d of %d cases differ%s" % (
                different, len(all_cases), " (outputs in %s)" % rel(work) if keep else
                "; rerun with --keep DIR to look at the outputs"))
        else:
            print("same: all %d cases give identical outputs%s" % (
                len(all_cases), " (outputs in %s)" % rel(work) if keep else ""))
        return 1 if different else 0
    finally:
        if not keep:
            shutil.rmtree(work, ignore_errors=True)


if __name__ == "__main__":
    sys.exit(main())
