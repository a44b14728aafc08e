import Foundation

@testable import GrandfatherEngine

/// The SQL path under attack (issue 33, items 4, 5, 6 and 12's warehouse findings): table
/// names that went into the script as code, `--load` paths the engines read as globs, a
/// script printed into a full disk, and what the engines and the exporter choked on. The
/// DuckDB rows run the script in DuckDB (`duck.py`, Python's duckdb, as `scripts/test`
/// installs it).
extension HostileCatalogue {
    static let sqlArguments = "sql --policy policy.json --as-of 2024-06-01T00:00:00Z --dialect duckdb"

    /// The repository's `warehouse` folder, and its `run.py`.
    static let warehouseFolder = WarehouseDialectTests.repository.appendingPathComponent("warehouse").path
    static let runPy = warehouseFolder + "/run.py"

    /// Runs the script named by its argument in a fresh DuckDB database and prints how many
    /// customers it classified.
    static let duckPy = """
        import sys, duckdb
        con = duckdb.connect()
        con.execute("SET TimeZone = 'UTC'")
        con.execute(open(sys.argv[1], encoding="utf-8").read())
        print(con.execute("SELECT count(*) FROM gf_customers").fetchone()[0], "customers classified")
        """

    /// `good.csv` normalized into `w` under `policy`, the script written for it into
    /// `w/audit.sql`, and run in DuckDB.
    static func inDuckDB(policy: String, _ cli: CLI) throws -> HostileCase.Invocation {
        try cli.write("duck.py", duckPy)
        let arguments = "--policy \(policy) --as-of 2024-06-01T00:00:00Z"
        return .script(
            #""$GRANDFATHER" normalize \#(arguments) --out w good.csv >/dev/null && "#
                + #""$GRANDFATHER" sql \#(arguments) --dialect duckdb --load "$PWD/w" > w/audit.sql && "#
                + "exec python3 duck.py w/audit.sql")
    }

    static func notATableName(_ option: String, _ value: String, _ problem: String) -> HostileCase.Stderr {
        .line(
            "error: \(option) \(value): not a table name duckdb reads unquoted: \(problem) (docs/Warehouse.md, \"When one machine is not enough\")"
        )
    }

    static let sqlOptions: [HostileCase] = [
        // 33.4: the table options went into the script as SQL.
        HostileCase(
            input: "`grandfather sql --prefix` holding a line break and a `COPY … TO`, run in DuckDB", origin: "33.4",
            make: { cli in
                try cli.write("duck.py", duckPy)
                return .script(
                    #""$GRANDFATHER" \#(sqlArguments) --prefix "$(printf "gf_\nCOPY (SELECT 42 AS a) TO 'pwned.csv';\n-- ")" > audit.sql; "#
                        + #"status=$?; python3 duck.py audit.sql >/dev/null 2>&1; exit $status"#)
            }, exit: 2,
            stderr: notATableName(
                "--prefix", #""gf_\nCOPY (SELECT 42 AS a) TO \'pwned.csv\';\n-- ""#,
                #""\n" is not an ASCII letter, digit or underscore"#),
            checks: [.absent("pwned.csv")], keepsLatest: false),
        HostileCase(
            input: "`grandfather sql --prefix \"\"` (its customers table would replace the input's)", origin: "33.4",
            make: { _ in .script(#"exec "$GRANDFATHER" \#(sqlArguments) --prefix """#) }, exit: 2,
            stderr: .line(
                #"error: --prefix "": the script would create customers, which is the --customers table customers; a table the script creates must never replace one it reads"#
            ), checks: [.stdoutLacks("CREATE")], keepsLatest: false),
        HostileCase(
            input: "`grandfather sql --customers \"\"`", origin: "33.4",
            make: { _ in .script(#"exec "$GRANDFATHER" \#(sqlArguments) --customers """#) }, exit: 2,
            stderr: notATableName("--customers", #""""#, "empty"), keepsLatest: false),
        HostileCase(
            input: "`grandfather sql --customers everyone` (a step of the script's own)", origin: "33.4",
            make: { _ in .script(#"exec "$GRANDFATHER" \#(sqlArguments) --customers everyone"#) }, exit: 2,
            stderr: .line(
                #"error: --customers "everyone": the script names a step of its own everyone; name the table with its schema, or rename it"#
            ), keepsLatest: false),
        HostileCase(
            input: "`grandfather sql --load` of a folder that does not exist", origin: "33.4",
            make: { _ in .script(#"exec "$GRANDFATHER" \#(sqlArguments) --load /nonexistent"#) }, exit: 2,
            stderr: .line(#"error: --load "/nonexistent": no such folder"#), keepsLatest: false),
        HostileCase(
            input: "`grandfather sql --load` of a folder without the layout's files", origin: "33.4",
            make: { cli in
                try folder(cli, "empty")
                return .script(#"exec "$GRANDFATHER" \#(sqlArguments) --load "$PWD/empty""#)
            }, exit: 2,
            stderr: .lineContaining(
                "/empty\": no customers.csv in it; give a folder grandfather normalize wrote"), keepsLatest: false),
        HostileCase(
            input: "`warehouse/run.py --prefix` holding a line break", origin: "33.4",
            make: { _ in .script(#"exec python3 "\#(runPy)" --engine duckdb --prefix "$(printf 'x\ny')" nowhere"#) },
            exit: 2,
            stderr: .lineContaining(
                #"warehouse-run: --prefix 'x\ny': 'x\nycustomers' is not a table name"#),
            keepsLatest: false),
        // 33.5: DuckDB and Spark read a path as a glob.
        .read(
            "`grandfather sql --dialect duckdb --load g[ab]` beside a folder `ga`", "33.5",
            [.stdout("/g[[]ab]/customers.csv"), .stdoutLacks("/g[ab]/")]
        ) { cli in
            try cli.writeLayoutFolder("g[ab]")
            try cli.writeLayoutFolder("ga")
            return .script(#"exec "$GRANDFATHER" \#(sqlArguments) --load "$PWD/g[ab]""#)
        },
        .read(
            "`grandfather sql --dialect spark --load g[ab]{c}` beside `ga`, `gac`", "33.5",
            [.stdout(#"/g\\[ab\\]\\{c\\}/customers.csv"#)]
        ) { cli in
            try cli.writeLayoutFolder("g[ab]{c}")
            try cli.writeLayoutFolder("ga")
            try cli.writeLayoutFolder("gac")
            return .script(
                #"exec "$GRANDFATHER" sql --policy policy.json --as-of 2024-06-01T00:00:00Z --dialect spark --load "$PWD/g[ab]{c}""#
            )
        },
        // 33.6: a script printed into a full disk.
        intoFullDisk("`grandfather sql … > /dev/full` (more than one buffer of output)", "33.6", sqlArguments),
        // 33.12: what the engines and the exporter choked on.
        HostileCase(
            input: "a cutover version of 600 components, run in DuckDB", origin: "33.12",
            make: { cli in
                let version = Array(repeating: "1", count: 600).joined(separator: ".")
                try cli.write(
                    "deep.json",
                    #"{"cutover": {"date": "2024-03-01T00:00:00Z", "versions": {"default": "\#(version)"}}, "#
                        + #""grandfathered_entitlements": ["premium"], "max_rejected_fraction": 1}"#)
                return try inDuckDB(policy: "deep.json", cli)
            }, exit: 0, stderr: .empty, checks: [.stdout("1 customers classified")], keepsLatest: false),
        HostileCase(
            input: "a policy of 20,000 products, run in DuckDB within 60 s", origin: "33.12",
            make: { cli in
                let products = (0..<20_000).map {
                    #""p\#($0)": {"entitlements": ["premium"], "term_days": \#($0 % 7)}"#
                }
                try cli.write(
                    "wide.json",
                    #"{"cutover": {"date": "2024-03-01T00:00:00Z", "versions": {"default": "245"}}, "#
                        + #""grandfathered_entitlements": ["premium"], "max_rejected_fraction": 1, "products": {"#
                        + products.joined(separator: ", ") + "}}")
                return try inDuckDB(policy: "wide.json", cli)
            }, exit: 0, stderr: .empty, checks: [.stdout("1 customers classified")], keepsLatest: false),
        HostileCase(
            input: "a result cell holding a lone carriage return, exported by `warehouse/run.py` (Spark's exporter)",
            origin: "33.12",
            make: { _ in
                .script(
                    #"exec python3 -c 'import sys; sys.path.insert(0, sys.argv[1]); import run; "#
                        + #"run.atomic_csv("out.csv", ["a", "b"], [("x\ry", "z")])' "#
                        + #""\#(warehouseFolder)""#)
            }, exit: 0, stderr: .empty, checks: [.file("out.csv", contains: "\"x\ry\",z")], keepsLatest: false),
        HostileCase(
            input: "`warehouse/run.py --engine duckdb` on a folder whose name holds a backslash", origin: "33.12",
            make: { cli in
                try cli.write("duck.py", duckPy)
                let arguments = "--policy policy.json --as-of 2024-06-01T00:00:00Z"
                return .script(
                    #""$GRANDFATHER" normalize \#(arguments) --out 'w\x' good.csv >/dev/null && "#
                        + #""$GRANDFATHER" sql \#(arguments) --dialect duckdb --load "$PWD/w\\x" > 'w\x/audit.sql' && "#
                        + #"exec python3 "\#(runPy)" --engine duckdb 'w\x'"#)
            }, exit: 0, stderr: .empty, checks: [.file(#"w\x/gf_customers.csv"#, contains: "good,ios")],
            keepsLatest: false),
    ]
}
