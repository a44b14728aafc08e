"""Checks a `grandfather sql` script against a warehouse dialect without running it.

    python3 warehouse/check_dialect.py --dialect bigquery|snowflake|duckdb|spark [--expect-literal TEXT ...] [FILE]

Reads the script from FILE (or stdin), splits it into statements at their semicolons as
sqlglot.parse does, and parses each with sqlglot in the dialect (ErrorLevel.RAISE: a
statement sqlglot cannot read fails; one it reads only as an opaque command fails too), then
writes each back in the dialect with unsupported constructs raised, and fails on any warning
sqlglot logs meanwhile. Every function the statements use (sqlglot's Func nodes, the
anonymous ones by name, and BigQuery's array subscripts such as SAFE_OFFSET) must be on
warehouse/functions/<dialect>.txt, where each entry names the warehouse's own page for it.
In Snowflake, a correlated EXISTS must stand in a WHERE clause, outside any OR: sqlglot
parses it anywhere, Snowflake does not.

--expect-literal TEXT (repeatable) requires a string literal of the script to read back, in
the dialect, as exactly TEXT: how the tests prove that quotes, backslashes and line breaks
in policy values survive the dialect's escaping.

Exit 0 with one OK line naming the functions used; exit 1 with one line per problem, naming
the function (or error) and the first line of the statement; exit 2 on bad arguments.
"""

import argparse
import logging
import os
import re
import sys

try:
    import sqlglot
    from sqlglot import exp
    from sqlglot.dialects.dialect import Dialect
    from sqlglot.errors import ErrorLevel, SqlglotError
    from sqlglot.optimizer.scope import traverse_scope
    from sqlglot.tokens import TokenType
except ImportError:
    sys.exit("check_dialect: sqlglot is not installed (scripts/install-engines sqlglot)")

DIALECTS = ("bigquery", "snowflake", "duckdb", "spark")
FUNCTIONS = os.path.join(os.path.dirname(os.path.abspath(__file__)), "functions")
CALL = re.compile(r"\s*([A-Za-z_][A-Za-z0-9_]*(?:\.[A-Za-z_][A-Za-z0-9_]*)*)\s*\(")
ANSI = re.compile(r"\x1b\[[0-9;]*m")
SUBSCRIPT = re.compile(r"\s*\[\s*([A-Za-z_]+)\s*\(")


class Warnings(logging.Handler):
    """sqlglot's logged warnings (a construct it guessed at or left out), kept to fail on."""

    def __init__(self):
        super().__init__(level=logging.WARNING)
        self.messages = []

    def emit(self, record):
        self.messages.append(record.getMessage())


def allow_list(dialect):
    """The dialect's functions: `NAME<TAB>URL` lines, `#` comments and blank lines skipped."""
    path = os.path.join(FUNCTIONS, dialect + ".txt")
    allowed = {}
    with open(path, encoding="utf-8") as handle:
        for number, line in enumerate(handle, 1):
            line = line.rstrip("\n")
            if not line.strip() or line.startswith("#"):
                continue
            name, _, url = line.partition("\t")
            if not name or name != name.strip().upper() or not url.startswith("https://"):
                raise SystemExit(f"check_dialect: {path}:{number}: expected NAME<TAB>https://… (name upper-case)")
            allowed[name] = url
    return allowed


def statements(text, dialect):
    """(first line, tokens) of each statement: the tokens between semicolons, as sqlglot.parse
    splits them, kept apart so that a problem can name its statement."""
    chunks, current = [], []
    for token in dialect.tokenize(text):
        if token.token_type == TokenType.SEMICOLON:
            if current:
                chunks.append(current)
            current = []
        else:
            current.append(token)
    if current:
        chunks.append(current)
    # Lines as sqlglot counts them: at "\n" only.
    lines = text.split("\n")
    return [(lines[chunk[0].line - 1].strip() if chunk[0].line <= len(lines) else "", chunk) for chunk in chunks]


def written(node, dialect):
    return node.sql(dialect=dialect, unsupported_level=ErrorLevel.RAISE)


def function_name(node, dialect):
    """The name the warehouse documents for a Func node: the call as the dialect writes it back
    (`LTRIM`, `DATEADD`), else sqlglot's own name for a node written as an operator or keyword
    (`CASE`, `AND`, a `::` cast): one whose text starts with its first operand's."""
    if isinstance(node, exp.Anonymous):
        return node.name.upper()
    if isinstance(node, exp.Case):
        return "CASE"
    text = written(node, dialect)
    first = node.this if isinstance(node.this, exp.Expression) else None
    match = CALL.match(text)
    if match and not (first is not None and text.startswith(written(first, dialect))):
        return match.group(1).upper()
    return node.sql_name()


def functions(tree, dialect):
    """Every function `tree` uses, by name."""
    names = []
    for node in tree.walk():
        # A CASE's WHEN branches are If nodes to sqlglot, not calls.
        if isinstance(node, exp.If) and isinstance(node.parent, exp.Case):
            continue
        if isinstance(node, exp.Func):
            names.append(function_name(node, dialect))
        elif isinstance(node, exp.Bracket) and isinstance(node.this, exp.Expression):
            # BigQuery's `array[SAFE_OFFSET(n)]`: the word after the array, not one inside it.
            match = SUBSCRIPT.match(written(node, dialect)[len(written(node.this, dialect)) :])
            if match:
                names.append(match.group(1).upper())
    return names


def misplaced_correlated_exists(tree):
    """Snowflake reads a correlated EXISTS only in a WHERE clause and not under OR
    (https://docs.snowflake.com/en/sql-reference/operators-subquery); sqlglot parses it
    anywhere. An unqualified column in the subquery counts as correlated, as sqlglot's scope
    counts it."""
    found = []
    for scope in traverse_scope(tree):
        exists = scope.expression.parent
        if not isinstance(exists, exp.Exists) or not scope.is_correlated_subquery:
            continue
        node, place = exists, None
        while node.parent is not None and place is None:
            node = node.parent
            if isinstance(node, exp.Or):
                place = "under OR"
            elif isinstance(node, (exp.Where, exp.Having)):
                place = "ok"
            elif isinstance(node, exp.Query):
                place = "outside a WHERE clause"
        if place != "ok":
            found.append(place or "outside a WHERE clause")
    return found


def literals(tree):
    """The values of the string literals, escapes read as the dialect reads them (sqlglot
    keeps DuckDB's E'' escape strings as ByteString nodes)."""
    found = {node.this for node in tree.find_all(exp.Literal) if node.is_string}
    return found | {node.this for node in tree.find_all(exp.ByteString)}


def check(text, dialect_name, expected_literals):
    dialect = Dialect.get_or_raise(dialect_name)
    allowed = allow_list(dialect_name)
    warnings = Warnings()
    logger = logging.getLogger("sqlglot")
    logger.addHandler(warnings)
    problems, used, seen_literals = [], set(), set()
    try:
        chunks = statements(text, dialect)
    except SqlglotError as error:
        message = " ".join(ANSI.sub("", str(error)).split())
        return [f"sqlglot cannot tokenize it as {dialect_name}: {message}"], used, None
    for first_line, tokens in chunks:
        where = f"in the statement starting `{first_line}`"
        before = len(warnings.messages)
        try:
            trees = dialect.parser(error_level=ErrorLevel.RAISE).parse(tokens, text)
            for tree in trees:
                if tree is None:
                    continue
                if isinstance(tree, exp.Command):
                    problems.append(f"sqlglot read it only as an opaque command {where}")
                tree.sql(dialect=dialect, unsupported_level=ErrorLevel.RAISE)
                for name in functions(tree, dialect):
                    used.add(name)
                    if name not in allowed:
                        problems.append(f"{name} is not on warehouse/functions/{dialect_name}.txt {where}")
                if dialect_name == "snowflake":
                    for place in misplaced_correlated_exists(tree):
                        problems.append(
                            f"a correlated EXISTS {place}, which Snowflake does not read "
                            f"(https://docs.snowflake.com/en/sql-reference/operators-subquery) {where}"
                        )
                seen_literals |= literals(tree)
        except SqlglotError as error:
            message = " ".join(ANSI.sub("", str(error)).split())
            problems.append(f"sqlglot cannot read it as {dialect_name} {where}: {message}")
        for message in warnings.messages[before:]:
            problems.append(f"sqlglot warns: {' '.join(message.split())} {where}")
    logger.removeHandler(warnings)
    for literal in expected_literals:
        if literal not in seen_literals:
            problems.append(f"no string literal reads back as {literal!r} in {dialect_name}")
    return problems, used, len(chunks)


def main():
    parser = argparse.ArgumentParser(description="Parse a grandfather sql script in a dialect and check its functions.")
    parser.add_argument("--dialect", required=True, choices=DIALECTS)
    parser.add_argument("--expect-literal", action="append", default=[], metavar="TEXT")
    parser.add_argument("file", nargs="?", help="the script (default: stdin)")
    arguments = parser.parse_args()
    # UTF-8 whatever the locale: scripts hold policy names and ids in any script.
    sys.stdout.reconfigure(encoding="utf-8", errors="backslashreplace")
    if arguments.file:
        with open(arguments.file, encoding="utf-8") as handle:
            text = handle.read()
    else:
        text = sys.stdin.buffer.read().decode("utf-8")
    problems, used, count = check(text, arguments.dialect, arguments.expect_literal)
    if count == 0:
        problems.append("no statement to check")
    if problems:
        for problem in problems:
            print(f"check_dialect: {problem}")
        return 1
    print(
        f"check_dialect: ok, {count} statements parse as {arguments.dialect} (sqlglot {sqlglot.__version__}); "
        f"functions: {', '.join(sorted(used)) or 'none'}"
    )
    return 0


if __name__ == "__main__":
    sys.exit(main())
