"""Runs grandfather's DuckDB scripts on request, for the tests' twin engine.

    python3 warehouse/serve.py

Reads one JSON object per line on standard input, {"script": PATH}, runs the script in a
fresh in-memory DuckDB database (it loads its own normalize folder: `grandfather sql
--load`), and answers on standard output with one JSON object per line: {"ok": true,
"customers": [...], "customer_flags": [...], "entitlements": [...]}, each a list of rows
in `run.RESULTS`' columns (instants as ISO-8601 UTC with six fraction digits), or
{"ok": false, "error": TEXT}. One process serves a whole test run, so a case costs a query,
not a Python start.
"""

import json
import os
import sys

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from run import INSTANTS, RESULTS  # noqa: E402


def answer(request):
    import duckdb

    con = duckdb.connect()
    try:
        con.execute("SET TimeZone = 'UTC'")
        with open(request["script"], encoding="utf-8") as handle:
            con.execute(handle.read())
        prefix = request.get("prefix", "gf_")
        result = {"ok": True}
        for table, columns in RESULTS.items():
            select = ", ".join(
                f"strftime({c}, '%Y-%m-%dT%H:%M:%S.%fZ') AS {c}" if c in INSTANTS else c for c in columns)
            rows = con.execute(f"SELECT {select} FROM {prefix}{table} ORDER BY {', '.join(columns)}").fetchall()
            result[table] = [list(row) for row in rows]
        return result
    except Exception as error:  # DuckDB's and the file system's errors both go back as text
        return {"ok": False, "error": f"{type(error).__name__}: {error}"}
    finally:
        con.close()


def main():
    for line in sys.stdin:
        if not line.strip():
            continue
        sys.stdout.write(json.dumps(answer(json.loads(line))) + "\n")
        sys.stdout.flush()


if __name__ == "__main__":
    main()
