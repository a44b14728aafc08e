import Foundation
import Testing

@testable import GrandfatherEngine

/// "BigQuery and Snowflake scripts parse under sqlglot's dialects and use only listed
/// functions": `grandfather sql`'s script for each dialect, under several policies, is piped
/// to `warehouse/check_dialect.py`, which parses every statement with sqlglot in that dialect
/// and requires each function it uses to be on `warehouse/functions/<dialect>.txt`, where the
/// warehouse documents it. DuckDB and Spark also run their scripts (WarehouseParityTests);
/// BigQuery and Snowflake are checked only here, never against a live service.
@Suite struct WarehouseDialectTests {
    static let repository = SampleData.folder.deletingLastPathComponent()
    static let asOf = "2026-11-01T00:00:00Z"

    /// Texts a dialect's string literals must carry through whole: quotes of both kinds,
    /// backslashes (one last, before the closing quote), line breaks, a tab, non-ASCII, and
    /// something that would end the statement if it escaped its literal.
    static let awkward = [
        "it's \"quoted\"", "back\\slash\\", "two\nlines", "tab\there\r\nand return", "café ✓ 产品 🎉",
        "\\'; DROP TABLE gf_customers; --",
    ]

    /// A policy whose product ids and entitlement names are the awkward texts.
    static func awkwardPolicy() throws -> String {
        var products: [String: Any] = [:]
        for (index, id) in awkward.enumerated() {
            products[id] = ["entitlements": [awkward[(index + 1) % awkward.count]], "term_days": index * 7]
        }
        let policy: [String: Any] = [
            "name": "awkward \"names\"\nO'Brien \\ café",
            "cutover": [
                "date": "2025-03-04T17:00:00Z", "versions": ["ios": "0412.7", "default": "2"], "basis": "either",
            ],
            "grandfathered_entitlements": awkward,
            "products": products,
        ]
        let data = try JSONSerialization.data(withJSONObject: policy, options: [.sortedKeys])
        return String(decoding: data, as: UTF8.self)
    }

    /// A cutover version compared by one flat CASE of 600 branches, not 600 nested levels.
    static let deepVersion = """
        {"cutover": {"date": "2025-03-04T17:00:00Z", "versions": {"default": "\(
            Array(repeating: "7", count: 600).joined(separator: "."))"}}, "grandfathered_entitlements": ["premium"]}
        """

    /// Every policy the scripts are checked under, by name, with the literals each must hold.
    static func policies(in cli: CLI) throws -> [(name: String, path: String, literals: [String])] {
        let noProducts = """
            {"cutover": {"date": "2025-03-04T17:00:00Z", "basis": "date"}, "grandfathered_entitlements": ["premium"]}
            """
        return [
            ("sample-data", SampleData.folder.appendingPathComponent("policy.json").path, ["pro.monthly"]),
            ("revenuecat", SampleData.folder.appendingPathComponent("revenuecat/policy.json").path, ["premium"]),
            ("conformance", try Conformance.file("policy.json").path, ["nav.1year"]),
            ("conformance-noplatform", try Conformance.file("policy-noplatform.json").path, ["pass.30days"]),
            ("no products, by date", try cli.write("no-products.json", noProducts), ["premium"]),
            ("awkward names", try cli.write("awkward.json", try awkwardPolicy()), awkward),
            ("a cutover version of 600 components", try cli.write("deep.json", deepVersion), ["premium"]),
        ]
    }

    @Test(arguments: ["bigquery", "snowflake", "duckdb", "spark"])
    func everyScriptParsesInItsDialectAndUsesOnlyListedFunctions(dialect: String) throws {
        try Self.installSqlglot()
        let cli = try CLI()
        // A folder name with a quote, so that --load's paths are literals to check as well
        // (it holds the layout's files, empty: `sql` only looks for them).
        let folder = try cli.writeLayoutFolder("normalized o'folder")
        for policy in try Self.policies(in: cli) {
            var runs = [
                (["sql", "--dialect", dialect, "--policy", policy.path, "--as-of", Self.asOf], policy.literals)
            ]
            if dialect == "bigquery" {
                // A project id may hold hyphens; the names stay plain SQL the checker parses.
                runs.append(
                    (
                        runs[0].0 + ["--prefix", "my-project.audit.gf_", "--customers", "my-project.raw.customers"],
                        policy.literals
                    ))
            }
            if dialect == "duckdb" || dialect == "spark" {
                runs.append((runs[0].0 + ["--load", folder], policy.literals + [folder + "/customers.csv"]))
            }
            for (arguments, literals) in runs {
                let sql = try cli.run(arguments)
                try #require(sql.status == 0, "\(policy.name): sql failed: \(sql.stderr)")
                let check = try Self.check(sql.stdout, dialect: dialect, expecting: literals)
                #expect(
                    check.status == 0,
                    "\(dialect), \(policy.name)\(arguments.contains("--load") ? ", --load" : ""): \(check.stdout)\(check.stderr)"
                )
                #expect(check.stdout.hasPrefix("check_dialect: ok"), "\(check.stdout)")
            }
        }
    }

    @Test func theCheckerFailsOnAnUnlistedFunction() throws {
        try Self.installSqlglot()
        for dialect in ["bigquery", "snowflake", "duckdb", "spark"] {
            let check = try Self.check(
                "CREATE TABLE t AS\nSELECT FROBNICATE(x) AS y FROM s;\n", dialect: dialect, expecting: [])
            #expect(check.status == 1, "\(dialect): \(check.stdout)")
            #expect(check.stdout.contains("FROBNICATE"), "\(dialect): \(check.stdout)")
            #expect(check.stdout.contains("`CREATE TABLE t AS`"), "\(dialect): \(check.stdout)")
        }
    }

    @Test func theCheckerFailsOnSQLItCannotParse() throws {
        try Self.installSqlglot()
        for dialect in ["bigquery", "snowflake", "duckdb", "spark"] {
            let check = try Self.check("SELECT 1 AS one;\nSELECT (1 FROM t;\n", dialect: dialect, expecting: [])
            #expect(check.status == 1, "\(dialect): \(check.stdout)")
            #expect(check.stdout.contains("cannot read it as \(dialect)"), "\(dialect): \(check.stdout)")
            #expect(check.stdout.contains("`SELECT (1 FROM t;`"), "\(dialect): \(check.stdout)")
        }
        // BigQuery reads no bare UNION: the script writes UNION DISTINCT there.
        let union = try Self.check("SELECT 1 AS a UNION SELECT 2 AS a;\n", dialect: "bigquery", expecting: [])
        #expect(union.status == 1, "\(union.stdout)")
    }

    @Test func theCheckerFailsOnACorrelatedExistsSnowflakeDoesNotRead() throws {
        try Self.installSqlglot()
        let script = "SELECT a.x, EXISTS (SELECT 1 FROM c WHERE c.x = a.x) AS e FROM a;\n"
        let check = try Self.check(script, dialect: "snowflake", expecting: [])
        #expect(check.status == 1, "\(check.stdout)")
        #expect(check.stdout.contains("correlated EXISTS outside a WHERE clause"), "\(check.stdout)")
        // In a WHERE clause Snowflake reads it.
        let inWhere = "SELECT a.x FROM a WHERE NOT EXISTS (SELECT 1 FROM c WHERE c.x = a.x);\n"
        #expect(try Self.check(inWhere, dialect: "snowflake", expecting: []).status == 0)
    }

    @Test func theCheckerFailsOnALiteralThatReadsBackOtherwise() throws {
        try Self.installSqlglot()
        // In DuckDB a backslash is text: '\n' is two characters, not a line break.
        let check = try Self.check("SELECT 'two\\nlines' AS a;\n", dialect: "duckdb", expecting: ["two\nlines"])
        #expect(check.status == 1, "\(check.stdout)")
        #expect(
            try Self.check("SELECT 'two\\nlines' AS a;\n", dialect: "bigquery", expecting: ["two\nlines"]).status == 0)
    }

    /// Pipes `script` to the checker.
    static func check(_ script: String, dialect: String, expecting literals: [String]) throws -> CLI.Result {
        let process = Process()
        process.executableURL = URL(fileURLWithPath: "/usr/bin/env")
        process.arguments =
            ["python3", repository.appendingPathComponent("warehouse/check_dialect.py").path, "--dialect", dialect]
            + literals.flatMap { ["--expect-literal", $0] }
        let input = Pipe()
        let output = Pipe()
        let errors = Pipe()
        process.standardInput = input
        process.standardOutput = output
        process.standardError = errors
        try process.run()
        // The checker reads all of its input before it writes, so writing first cannot block.
        input.fileHandleForWriting.write(Data(script.utf8))
        try input.fileHandleForWriting.close()
        let outputData = output.fileHandleForReading.readDataToEndOfFile()
        let errorData = errors.fileHandleForReading.readDataToEndOfFile()
        process.waitUntilExit()
        return CLI.Result(
            status: process.terminationStatus, stdout: String(decoding: outputData, as: UTF8.self),
            stderr: String(decoding: errorData, as: UTF8.self))
    }

    /// sqlglot from PyPI when it is missing, as `scripts/test` installs it.
    static func installSqlglot() throws {
        let process = Process()
        process.executableURL = repository.appendingPathComponent("scripts/install-engines")
        process.arguments = ["sqlglot"]
        try process.run()
        process.waitUntilExit()
        try #require(process.terminationStatus == 0, "scripts/install-engines sqlglot failed")
    }
}
