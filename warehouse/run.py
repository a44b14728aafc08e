"""Runs grandfather's SQL on normalize folders and exports the result tables.

    scripts/warehouse-run --engine duckdb|spark [--master URL] [--sql FILE] [--prefix gf_]
                          [--profile FILE] DIR [DIR ...]

Each DIR is a `grandfather normalize` folder. The script run on it is DIR/audit.sql (or
--sql FILE, with one DIR), which `grandfather sql --load DIR` writes. The three result
tables are exported into DIR as gf_customers.csv, gf_customer_flags.csv and
gf_entitlements.csv (header row, RFC 4180, instants as ISO-8601 UTC with `Z` and six
fraction digits, sorted), with engine.json naming the engine: what
`grandfather audit --results DIR` reads. Spark runs every DIR in one session (local[2] by
default; docs/Warehouse.md, "When one machine is not enough", for a cluster).

--profile FILE (DuckDB, one DIR) runs the script a statement at a time under DuckDB's
profiler and writes, per statement, what it read: the rows and bytes its scans produced
(the columns a scan reads, as a warehouse that bills by bytes scanned counts them), the
bytes read from disk, its time, peak buffer memory and bytes spilled (`scripts/bench --sql`
prints them).
"""

import argparse
import itertools
import json
import os
import re
import shutil
import tempfile

RESULTS = {
    "customers": ["customer_id", "platform", "original_app_version", "original_purchase_date", "environment", "class"],
    "customer_flags": ["customer_id", "flag"],
    "entitlements": ["customer_id", "entitlement", "source", "transaction_id", "expires_date"],
}
INSTANTS = {"original_purchase_date", "expires_date"}
# The tables a script reads: a prefix that names one of them as a result is refused, as
# `grandfather sql` refuses it, rather than exported as if it were the audit.
INPUTS = {"customers", "transactions", "product_entitlements", "service_entitlements"}
# A table name as `grandfather sql` takes one: at most three dot-separated parts of ASCII
# letters, digits and underscores, none starting with a digit.
TABLE_NAME = re.compile(r"[A-Za-z_][A-Za-z0-9_]*(\.[A-Za-z_][A-Za-z0-9_]*){0,2}")


def prefix_problem(prefix):
    """Why the result tables `prefix` names cannot be read, or None: each goes into a query as
    SQL, so it must be a plain table name, and none may be an input table."""
    for table in RESULTS:
        name = prefix + table
        if not TABLE_NAME.fullmatch(name):
            return (f"{name!r} is not a table name (ASCII letters, digits and underscores, "
                    "at most three dot-separated parts)")
        if name.split(".")[-1].lower() in INPUTS:
            return f"{name!r} is an input table, not a result"
    return None


def statements(script):
    """The script's statements: it ends each with `;` at a line's end, and its literals hold
    no raw line breaks, so splitting there is exact. Comment-only chunks are dropped."""
    chunks = []
    for chunk in script.split(";\n"):
        lines = [line for line in chunk.splitlines() if line.strip() and not line.strip().startswith("--")]
        if lines:
            chunks.append(chunk.strip().rstrip(";"))
    return chunks


def csv_field(value):
    """A cell as RFC 4180 writes it, quoted when it holds a comma, a quote or either line
    break: Python's csv module leaves a lone carriage return unquoted under a "\\n" line
    terminator, which a reader then takes for a line end."""
    text = "" if value is None else str(value)
    if any(special in text for special in ',"\r\n'):
        return '"' + text.replace('"', '""') + '"'
    return text


def atomic_csv(path, header, rows):
    folder = os.path.dirname(path) or "."
    handle, temporary = tempfile.mkstemp(dir=folder, prefix=".export-")
    try:
        with os.fdopen(handle, "w", newline="", encoding="utf-8") as out:
            for row in itertools.chain([header], rows):
                out.write(",".join(csv_field(value) for value in row) + "\n")
            out.flush()
            os.fsync(out.fileno())
        os.replace(temporary, path)
    except BaseException:
        os.unlink(temporary)
        raise


def write_engine(folder, engine, version):
    atomic_text(os.path.join(folder, "engine.json"),
                json.dumps({"engine": engine, "dialect": engine, "version": version}, sort_keys=True) + "\n")


def atomic_text(path, text):
    folder = os.path.dirname(path) or "."
    handle, temporary = tempfile.mkstemp(dir=folder, prefix=".export-")
    with os.fdopen(handle, "w", encoding="utf-8") as out:
        out.write(text)
    os.replace(temporary, path)


def literal(text):
    """A DuckDB string literal (a folder's name may hold a quote)."""
    return "'" + text.replace("'", "''") + "'"


# The table a statement creates, which names it in a profile.
CREATED = re.compile(r"CREATE\s+(?:OR\s+REPLACE\s+)?(?:TEMP(?:ORARY)?\s+)?(?:TABLE|VIEW)\s+(\S+)", re.IGNORECASE)


def scanned(operator):
    """Rows and bytes the scans under `operator` produced (a scan yields only the columns the
    query reads)."""
    rows = size = 0
    if operator.get("type") == "TABLE_SCAN":
        rows += operator.get("intermediate_rows", 0)
        size += operator.get("intermediate_size_bytes", 0)
    for child in operator.get("children", []):
        more_rows, more_size = scanned(child)
        rows += more_rows
        size += more_size
    return rows, size


def profiled(con, script, path):
    """Runs `script` a statement at a time under DuckDB's JSON profiler; returns one record
    per statement."""
    import duckdb

    con.execute("PRAGMA enable_profiling = 'json'")
    con.execute(f"PRAGMA profiling_output = {literal(path)}")
    records = []
    for statement in statements(script):
        if os.path.exists(path):
            os.remove(path)
        try:
            con.execute(statement)
        except duckdb.Error as error:
            raise SystemExit(f"warehouse-run: DuckDB failed: {error}")
        # A statement that runs no query (a view's definition) writes no profile: it read nothing.
        profile = {}
        if os.path.exists(path):
            with open(path, encoding="utf-8") as handle:
                profile = json.load(handle)
        created = CREATED.search(statement)
        rows, size = scanned({"children": profile.get("operator", [])})
        query, system, io = profile.get("query", {}), profile.get("system", {}), profile.get("io", {})
        records.append({
            "statement": created.group(1) if created else " ".join(statement.split())[:60],
            "seconds": round(query.get("total_time", 0.0), 3),
            "rows_scanned": rows,
            "bytes_scanned": size,
            "bytes_read_from_disk": io.get("total_bytes_read", 0),
            "peak_buffer_bytes": system.get("peak_buffer_memory", 0),
            "bytes_spilled": system.get("total_bytes_spilled", 0),
        })
    con.execute("PRAGMA disable_profiling")
    return records


def run_duckdb(folders, scripts, prefix, profile=None):
    import duckdb

    for folder, script in zip(folders, scripts):
        # A database file beside the data rather than in memory: the loaded tables then live on
        # disk, compressed, and memory is left to the joins and aggregates (at 100M rows an
        # in-memory database spilled over 30 GB). Removed when done. DuckDB reads a backslash
        # in a database's path (only there) as a folder separator: a folder whose path holds
        # one keeps its exports and spill beside the data, and the database file under TMPDIR.
        scratch = tempfile.mkdtemp(prefix=".warehouse-run-", dir=folder)
        database = scratch if "\\" not in os.path.abspath(scratch) else tempfile.mkdtemp(prefix="warehouse-run-")
        con = None
        try:
            try:
                con = duckdb.connect(os.path.join(database, "audit.duckdb"))
            except duckdb.Error as error:
                raise SystemExit(f"warehouse-run: {folder}: DuckDB cannot open its database: {error}")
            con.execute("SET TimeZone = 'UTC'")
            con.execute(f"SET temp_directory = {literal(os.path.join(scratch, 'spill'))}")
            # Exports sort explicitly; the order of rows inside the script's tables is free.
            con.execute("SET preserve_insertion_order = false")
            if profile:
                atomic_text(profile, json.dumps(profiled(con, script, os.path.join(scratch, "profile.json")),
                                                indent=1) + "\n")
            else:
                try:
                    con.execute(script)
                except duckdb.Error as error:
                    raise SystemExit(f"warehouse-run: {folder}: DuckDB failed: {error}")
            for table, columns in RESULTS.items():
                select = ", ".join(
                    f"strftime({c}, '%Y-%m-%dT%H:%M:%S.%fZ') AS {c}" if c in INSTANTS else c for c in columns)
                order = ", ".join(columns)
                # DuckDB writes the file itself (RFC 4180, NULL as an empty cell), then it is
                # moved into place: ten million rows never pass through Python.
                target = os.path.join(folder, f"gf_{table}.csv")
                partial = os.path.join(scratch, f"gf_{table}.csv")
                con.execute(
                    f"COPY (SELECT {select} FROM {prefix}{table} ORDER BY {order}) TO {literal(partial)} "
                    "(HEADER, DELIMITER ',', QUOTE '\"', ESCAPE '\"', NULL '')")
                os.replace(partial, target)
            write_engine(folder, "duckdb", duckdb.__version__)
        finally:
            if con is not None:
                con.close()
            for made in {scratch, database}:
                shutil.rmtree(made, ignore_errors=True)


def run_spark(folders, scripts, prefix, master):
    from pyspark.sql import SparkSession
    import pyspark

    warehouse = tempfile.mkdtemp(prefix="grandfather-spark-")
    spark = (SparkSession.builder.master(master).appName("grandfather")
             .config("spark.sql.session.timeZone", "UTC")
             .config("spark.sql.warehouse.dir", warehouse)
             .config("spark.ui.enabled", "false")
             .config("spark.ui.showConsoleProgress", "false")
             .config("spark.sql.shuffle.partitions", os.environ.get("GRANDFATHER_SPARK_PARTITIONS", "8"))
             .getOrCreate())
    spark.sparkContext.setLogLevel("ERROR")
    try:
        for folder, script in zip(folders, scripts):
            for statement in statements(script):
                try:
                    spark.sql(statement)
                except Exception as error:  # Spark raises its own exception types
                    first = str(error).splitlines()[0] if str(error) else type(error).__name__
                    raise SystemExit(f"warehouse-run: {folder}: Spark failed: {first}")
            for table, columns in RESULTS.items():
                select = ", ".join(
                    f"date_format({c}, \"yyyy-MM-dd'T'HH:mm:ss.SSSSSS'Z'\") AS {c}" if c in INSTANTS else c
                    for c in columns)
                order = ", ".join(columns)
                frame = spark.sql(f"SELECT {select} FROM {prefix}{table} ORDER BY {order}")
                atomic_csv(os.path.join(folder, f"gf_{table}.csv"), columns,
                           (tuple(row) for row in frame.toLocalIterator()))
            write_engine(folder, "spark", pyspark.__version__)
    finally:
        spark.stop()
        shutil.rmtree(warehouse, ignore_errors=True)


def main():
    parser = argparse.ArgumentParser(prog="warehouse-run", description=__doc__.splitlines()[0])
    parser.add_argument("--engine", required=True, choices=["duckdb", "spark"])
    parser.add_argument("--master", default="local[2]", help="Spark's master URL (default local[2])")
    parser.add_argument("--sql", help="the script to run (default DIR/audit.sql)")
    parser.add_argument("--prefix", default="gf_", help="the prefix the script was written with")
    parser.add_argument("--profile", metavar="FILE",
                        help="DuckDB, one DIR: write what each statement scanned to FILE (JSON)")
    parser.add_argument("folders", nargs="+", metavar="DIR")
    args = parser.parse_args()
    if args.sql and len(args.folders) != 1:
        parser.error("--sql names the script of one DIR")
    if args.profile and (args.engine != "duckdb" or len(args.folders) != 1):
        parser.error("--profile is for DuckDB and one DIR")
    problem = prefix_problem(args.prefix)
    if problem:
        parser.exit(2, f"warehouse-run: --prefix {args.prefix!r}: {problem}\n")
    scripts = []
    for folder in args.folders:
        path = args.sql or os.path.join(folder, "audit.sql")
        if not os.path.isfile(os.path.join(folder, "manifest.json")):
            raise SystemExit(f"warehouse-run: {folder} is not a grandfather normalize folder (no manifest.json)")
        try:
            with open(path, encoding="utf-8") as handle:
                scripts.append(handle.read())
        except OSError as error:
            raise SystemExit(f"warehouse-run: cannot read {path}: {error.strerror}")
    if args.engine == "duckdb":
        run_duckdb(args.folders, scripts, args.prefix, args.profile)
    else:
        run_spark(args.folders, scripts, args.prefix, args.master)


if __name__ == "__main__":
    main()
