import Foundation
import GRDB
import Testing

@testable import GrandfatherCore
@testable import GrandfatherEngine

/// Issue 17's parity: for every data set, `normalize` → `sql` run in DuckDB and in Spark
/// (local mode) by `scripts/warehouse-run` gives exactly the classes, flags and entitlements
/// (source, transaction and expiry included) of `audit`'s snapshot, for every customer.
@Suite(.serialized) struct WarehouseParityTests {
    /// One data set: its inputs, policy and as-of, copied into a CLI's folder.
    struct DataSet: Sendable, CustomStringConvertible {
        var name: String
        var folder: URL
        var policy: String
        var asOf: String
        var inputs: [String]
        /// Files copied beside the inputs (a trusted root) and the options that name them.
        var extraFiles: [String] = []
        var options: [String] = []

        var description: String { name }
    }

    static let repository = SampleData.folder.deletingLastPathComponent()

    static var dataSets: [DataSet] {
        get throws {
            let conformance = try Conformance.folder
            let apple = SampleData.folder.appendingPathComponent("apple")
            let revenueCat = SampleData.folder.appendingPathComponent("revenuecat")
            return [
                DataSet(
                    name: "sample-data", folder: SampleData.folder, policy: "policy.json", asOf: SampleData.asOf,
                    inputs: SampleData.inputs),
                DataSet(
                    name: "conformance", folder: conformance, policy: "policy.json", asOf: Conformance.asOf,
                    inputs: ["customers.csv", "transactions.csv", "transactions.jsonl"]),
                DataSet(
                    name: "conformance-noplatform", folder: conformance, policy: "policy-noplatform.json",
                    asOf: Conformance.asOf, inputs: ["customers.csv", "transactions.csv", "transactions.jsonl"]),
                DataSet(
                    name: "apple", folder: apple, policy: "policy.json", asOf: AppStoreSampleTests.asOf,
                    inputs: AppStoreSampleTests.appleInputs, extraFiles: ["sample-root.der"],
                    options: ["--trusted-root", "sample-root.der"]),
                DataSet(
                    name: "revenuecat", folder: revenueCat, policy: "policy.json", asOf: "2026-11-01T00:00:00Z",
                    inputs: [
                        "subscribers.jsonl", "customers.csv", "transactions-export.csv", "customer-list.csv",
                        "webhooks.jsonl",
                    ]),
                // The stores' sales reports and Google Play's files: the reports' paid copies must
                // come back through the warehouse too (issue 51, item 11).
                DataSet(
                    name: "sales", folder: SampleData.folder, policy: "policy.json", asOf: "2026-11-01T00:00:00Z",
                    inputs: ["customers.csv", "transactions.csv"] + (try salesInputs)),
            ]
        }
    }

    /// The sample's sales reports and Google Play files, as paths under `sample-data/`.
    static var salesInputs: [String] {
        get throws {
            try ["apple-sales", "google-play"].flatMap { folder in
                try FileManager.default.contentsOfDirectory(
                    atPath: SampleData.folder.appendingPathComponent(folder).path
                ).sorted().map { folder + "/" + $0 }
            }
        }
    }

    /// What one customer came out as, in every column the parity covers.
    struct Answer: Equatable, CustomStringConvertible {
        var facts: [String?]
        var flags: [String] = []
        var entitlements: [[String?]] = []

        var description: String { "\(facts) flags=\(flags) entitlements=\(entitlements)" }
    }

    @Test(arguments: ["duckdb", "spark"]) func everyCustomerAgreesWithTheAudit(engine: String) throws {
        let cli = try CLI()
        var folders: [(DataSet, String)] = []
        for set in try Self.dataSets + [try Self.generated(in: cli)] {
            folders.append((set, try Self.prepare(set, engine: engine, in: cli)))
        }
        let run = try Self.warehouseRun(engine: engine, folders: folders.map(\.1))
        try #require(run.status == 0, "warehouse-run failed: \(run.stderr)")
        for (set, folder) in folders {
            let audit = try Self.auditAnswers(cli.path("\(set.name)-out/latest/snapshot.sqlite"))
            let warehouse = try Self.warehouseAnswers(folder)
            #expect(audit.count > 0, "\(set.name): no customers")
            #expect(Set(audit.keys) == Set(warehouse.keys), "\(set.name): the customers differ")
            var mismatches = 0
            for (customer, answer) in audit.sorted(by: { $0.key < $1.key }) where warehouse[customer] != answer {
                mismatches += 1
                if mismatches <= 20 {
                    Issue.record(
                        "\(set.name) \(customer): audit says \(answer); \(engine) says \(warehouse[customer].map(\.description) ?? "nothing")"
                    )
                }
            }
            #expect(mismatches == 0, "\(set.name): \(mismatches) customers differ")
            let engineFile = try String(contentsOfFile: folder + "/engine.json", encoding: .utf8)
            #expect(engineFile.contains("\"engine\": \"\(engine)\""))
            if engine == "duckdb" { try Self.resultsBack(set, folder: folder, in: cli) }
        }
    }

    /// Tables whose rows the runs from the warehouse must share with `audit`'s.
    static let sharedTables = [
        "customers", "customer_flags", "entitlements", "customer_fact_sources", "deciding_transactions", "merged_ids",
        "rejected_rows",
    ]

    /// `audit --results` of the folder writes the reports and snapshot `audit` wrote (the run's
    /// own description aside), and records the engine; auditing the folder's files as inputs
    /// gives the same snapshot tables.
    static func resultsBack(_ set: DataSet, folder: String, in cli: CLI) throws {
        let policy = set.name + "-files/" + set.policy
        let back = try cli.run([
            "audit", "--results", folder, "--policy", policy, "--as-of", set.asOf, "--out", set.name + "-results",
        ])
        try #require(back.status == 0, "\(set.name): audit --results failed: \(back.stderr)")
        let original = try SnapshotDump(path: cli.path("\(set.name)-out/latest/snapshot.sqlite"))
        let fromResults = try SnapshotDump(path: cli.path("\(set.name)-results/latest/snapshot.sqlite"))
        for table in sharedTables {
            #expect(try original.rows(table) == fromResults.rows(table), "\(set.name): \(table) differs")
        }
        for report in ["customers.csv", "summary.json", "summary.md", "report.html", "rejected.csv"] {
            let left = try Data(contentsOf: URL(fileURLWithPath: cli.path("\(set.name)-out/latest/\(report)")))
            let right = try Data(contentsOf: URL(fileURLWithPath: cli.path("\(set.name)-results/latest/\(report)")))
            #expect(left == right, "\(set.name): \(report) differs")
        }
        #expect(
            try fromResults.text("SELECT engine_json FROM runs")
                == "{\"dialect\":\"duckdb\",\"engine\":\"duckdb\",\"version\":\""
                + (try JSONSerialization.jsonObject(
                    with: Data(contentsOf: URL(fileURLWithPath: folder + "/engine.json")))
                as? [String: String] ?? [:])["version", default: "?"] + "\"}")
        #expect(try original.text("SELECT engine_json FROM runs")?.contains("\"engine\":\"grandfather\"") == true)

        let files = WarehouseLayout.inputTables.flatMap { $0.files(in: folder) }
        let reread = try cli.run(
            ["audit", "--policy", policy, "--as-of", set.asOf, "--out", set.name + "-reread"] + files)
        try #require(reread.status == 0, "\(set.name): auditing the folder's files failed: \(reread.stderr)")
        let again = try SnapshotDump(path: cli.path("\(set.name)-reread/latest/snapshot.sqlite"))
        for table in sharedTables where table != "rejected_rows" {
            #expect(try original.rows(table) == again.rows(table), "\(set.name): \(table) differs when re-read")
        }
    }

    /// A one-letter folder name, relative to the working folder (Foundation's path functions
    /// trap on one).
    @Test func normalizesIntoAOneLetterFolder() throws {
        let cli = try CLI()
        try cli.write(
            "policy.json",
            try String(contentsOf: SampleData.folder.appendingPathComponent("policy.json"), encoding: .utf8))
        try cli.write("customers.csv", "customer_id,platform\nc1,ios\n")
        let result = try cli.run(["normalize", "--policy", "policy.json", "--out", "w", "customers.csv"])
        #expect(result.status == 0, "\(result.stderr)")
        #expect(result.stdout.hasPrefix("1 customers, 0 transaction rows, 0 rejected of 1 rows read → w"))
        #expect(FileManager.default.fileExists(atPath: cli.path("w/customers.csv")))
    }

    /// `--profile` runs the script a statement at a time under DuckDB's profiler: the exports
    /// are the plain run's, byte for byte, and the profile names every table the script creates,
    /// in order, with the rows and bytes its scans read. The loads are views, which read
    /// nothing when made; each of the two passes over the transactions reads every row of the
    /// file, and the repeated ids are found in the fingerprints the activity pass gathered, one
    /// row per customer, with no pass of their own.
    @Test func aProfiledRunExportsTheSameAndNamesEveryStatement() throws {
        let cli = try CLI()
        let folder = try Self.prepare(try Self.dataSets[0], engine: "duckdb", in: cli)
        let plain = try Self.warehouseRun(engine: "duckdb", folders: [folder])
        try #require(plain.status == 0, "\(plain.stderr)")
        let exports = ["gf_customers.csv", "gf_customer_flags.csv", "gf_entitlements.csv"]
        let before = try exports.map { try Data(contentsOf: URL(fileURLWithPath: folder + "/" + $0)) }
        let profile = cli.path("profile.json")
        let profiled = try Self.warehouseRun(engine: "duckdb", folders: [folder], options: ["--profile", profile])
        try #require(profiled.status == 0, "\(profiled.stderr)")
        #expect(try exports.map { try Data(contentsOf: URL(fileURLWithPath: folder + "/" + $0)) } == before)

        let records = try #require(
            try JSONSerialization.jsonObject(with: Data(contentsOf: URL(fileURLWithPath: profile)))
                as? [[String: Any]])
        let script = try String(contentsOfFile: folder + "/audit.sql", encoding: .utf8)
        let created = script.matches(of: try Regex(#"CREATE (?:OR REPLACE )?(?:TEMP(?:ORARY)? )?(?:TABLE|VIEW) (\S+)"#))
            .compactMap { $0.output[1].substring.map(String.init) }
        #expect(records.compactMap { $0["statement"] as? String } == created)
        func record(_ name: String) -> [String: Any]? { records.first { $0["statement"] as? String == name } }
        let transactionRows = try WarehouseLayout.transactions.files(in: folder).reduce(0) { rows, part in
            rows + (try String(contentsOfFile: part, encoding: .utf8).split(separator: "\n").count - 1)
        }
        #expect(record("transactions")?["rows_scanned"] as? Int == 0)
        #expect(record("gf_customer_activity")?["rows_scanned"] as? Int == transactionRows)
        // The facts pass also reads the repeated ids it keeps rows of.
        #expect(record("gf_transaction_facts")?["rows_scanned"] as? Int ?? 0 >= transactionRows)
        let idRows = try #require(record("gf_repeated_ids")?["rows_scanned"] as? Int)
        #expect(idRows > 0 && idRows < transactionRows)
        let idBytes = try #require(record("gf_repeated_ids")?["bytes_scanned"] as? Int)
        #expect(idBytes > 0)
        #expect(idBytes < record("gf_customer_activity")?["bytes_scanned"] as? Int ?? 0)
        #expect(records.allSatisfy { ($0["seconds"] as? Double ?? -1) >= 0 && $0["bytes_spilled"] as? Int == 0 })
    }

    /// A result the records do not give stops the run before anything is written, naming the
    /// customer and both answers; without engine.json the engine is unknown.
    @Test func resultsThatDifferFromTheRecordsAreRefused() throws {
        let cli = try CLI()
        let set = try Self.dataSets[0]
        let folder = try Self.prepare(set, engine: "duckdb", in: cli)
        let run = try Self.warehouseRun(engine: "duckdb", folders: [folder])
        try #require(run.status == 0, "\(run.stderr)")
        let policy = set.name + "-files/" + set.policy
        let customers = URL(fileURLWithPath: folder + "/gf_customers.csv")
        let original = try String(contentsOf: customers, encoding: .utf8)
        let changed = original.replacingOccurrences(
            of: "c01-ana-grandfathered-ios,ios,380,2023-08-14T10:22:05.000000Z,production,grandfathered",
            with: "c01-ana-grandfathered-ios,ios,380,2023-08-14T10:22:05.000000Z,production,subscriber")
        #expect(changed != original)
        try Data(changed.utf8).write(to: customers)
        let refused = try cli.run([
            "audit", "--results", folder, "--policy", policy, "--as-of", set.asOf, "--out", "refused",
        ])
        #expect(refused.status == 2)
        #expect(refused.stderr.contains("c01-ana-grandfathered-ios"))
        #expect(refused.stderr.contains("the warehouse says (ios, 380, 1692008525000000, production, subscriber)"))
        #expect(!FileManager.default.fileExists(atPath: cli.path("refused/latest")))

        try Data(original.utf8).write(to: customers)
        try FileManager.default.removeItem(atPath: folder + "/engine.json")
        let unknown = try cli.run([
            "audit", "--results", folder, "--policy", policy, "--as-of", set.asOf, "--out", "unknown",
        ])
        #expect(unknown.status == 0, "\(unknown.stderr)")
        let snapshot = try SnapshotDump(path: cli.path("unknown/latest/snapshot.sqlite"))
        #expect(try snapshot.text("SELECT engine_json FROM runs") == "{\"engine\":\"unknown\"}")

        let elsewhen = try cli.run([
            "audit", "--results", folder, "--policy", policy, "--as-of", "2030-01-01T00:00:00Z", "--out", "elsewhen",
        ])
        #expect(elsewhen.status == 2)
        #expect(elsewhen.stderr.contains("was normalized as of"))
    }

    /// Copies the set, audits it, normalizes it and writes the engine's script into the folder.
    static func prepare(_ set: DataSet, engine: String, in cli: CLI) throws -> String {
        let own = set.name + "-files"
        try FileManager.default.createDirectory(atPath: cli.path(own), withIntermediateDirectories: true)
        for name in set.inputs + set.extraFiles + [set.policy] {
            let target = own + "/" + name
            try FileManager.default.createDirectory(
                atPath: cli.path((target as NSString).deletingLastPathComponent), withIntermediateDirectories: true)
            try cli.copy(set.folder.appendingPathComponent(name), as: target)
        }
        let policy = own + "/" + set.policy
        let options = set.options.map { $0.hasSuffix(".der") ? own + "/" + $0 : $0 }
        let inputs = set.inputs.map { own + "/" + $0 }
        let audit = try cli.run(
            ["audit", "--policy", policy, "--as-of", set.asOf, "--out", set.name + "-out"] + options + inputs)
        try #require(audit.status == 0, "\(set.name): audit failed: \(audit.stderr)")
        // A name both engines would read as a glob, beside the folders the glob matches
        // (DuckDB takes `[ab]`, Spark `[ab]` and `{c}`), which hold the layout's tables empty:
        // a path given unescaped reads those, and no customer agrees.
        let normalized = set.name + "-n[ab]{c}"
        for decoy in [set.name + "-na{c}", set.name + "-nac"] {
            for table in WarehouseLayout.inputTables {
                try cli.write(decoy + "/" + (table.inParts ? table.partName(1) : table.fileName), table.header)
            }
        }
        let normalize = try cli.run(
            ["normalize", "--policy", policy, "--as-of", set.asOf, "--out", normalized] + options + inputs)
        try #require(normalize.status == 0, "\(set.name): normalize failed: \(normalize.stderr)")
        let sql = try cli.run([
            "sql", "--policy", policy, "--as-of", set.asOf, "--dialect", engine, "--load", cli.path(normalized),
        ])
        try #require(sql.status == 0, "\(set.name): sql failed: \(sql.stderr)")
        try Data(sql.stdout.utf8).write(to: URL(fileURLWithPath: cli.path(normalized + "/audit.sql")))
        return cli.path(normalized)
    }

    /// bench/generate.py's data (quoted line breaks, duplicates, conflicts, orphans, sandbox
    /// rows), 10,000 customers under the benchmark's policy.
    static func generated(in cli: CLI) throws -> DataSet {
        let folder = URL(fileURLWithPath: cli.path("generated-source"))
        let process = Process()
        process.executableURL = URL(fileURLWithPath: "/usr/bin/env")
        process.arguments = [
            "python3", repository.appendingPathComponent("bench/generate.py").path, "--customers", "10000", "--seed",
            "17", "--out", folder.path,
        ]
        try process.run()
        process.waitUntilExit()
        try #require(process.terminationStatus == 0, "bench/generate.py failed")
        try FileManager.default.copyItem(
            at: repository.appendingPathComponent("bench/policy.json"), to: folder.appendingPathComponent("policy.json")
        )
        return DataSet(
            name: "generated-10k", folder: folder, policy: "policy.json", asOf: "2026-11-01T00:00:00Z",
            inputs: ["customers.csv", "transactions.csv"])
    }

    static func warehouseRun(engine: String, folders: [String], options: [String] = []) throws -> CLI.Result {
        let process = Process()
        process.executableURL = repository.appendingPathComponent("scripts/warehouse-run")
        process.arguments = ["--engine", engine] + options + folders
        let output = Pipe()
        let errors = Pipe()
        process.standardOutput = output
        process.standardError = errors
        try process.run()
        let errorData = errors.fileHandleForReading.readDataToEndOfFile()
        let outputData = output.fileHandleForReading.readDataToEndOfFile()
        process.waitUntilExit()
        return CLI.Result(
            status: process.terminationStatus, stdout: String(decoding: outputData, as: UTF8.self),
            stderr: String(decoding: errorData, as: UTF8.self))
    }

    /// The snapshot's answers, instants read as instants.
    static func auditAnswers(_ path: String) throws -> [String: Answer] {
        let queue = try DatabaseQueue(
            path: path,
            configuration: {
                var c = Configuration(); c.readonly = true; return c
            }())
        return try queue.read { db in
            var answers: [String: Answer] = [:]
            let customers = try Row.fetchAll(
                db,
                sql: """
                    SELECT customer_id, platform, original_app_version, original_purchase_date, environment, class
                    FROM customers
                    """)
            for row in customers {
                let id: String = row["customer_id"]
                answers[id] = Answer(
                    facts: [
                        row["platform"], row["original_app_version"], instant(row["original_purchase_date"]),
                        row["environment"], row["class"],
                    ])
            }
            for row in try Row.fetchAll(db, sql: "SELECT customer_id, flag FROM customer_flags ORDER BY flag") {
                answers[row["customer_id"] as String]?.flags.append(row["flag"])
            }
            let grants = try Row.fetchAll(
                db, sql: "SELECT customer_id, entitlement, source, transaction_id, expires_date FROM entitlements")
            for row in grants {
                answers[row["customer_id"] as String]?.entitlements.append([
                    row["entitlement"], row["source"], row["transaction_id"], instant(row["expires_date"]),
                ])
            }
            return answers.mapValues { answer in
                var sorted = answer
                sorted.entitlements.sort { $0.map { $0 ?? "" }.lexicographicallyPrecedes($1.map { $0 ?? "" }) }
                return sorted
            }
        }
    }

    /// The exported result tables' answers.
    static func warehouseAnswers(_ folder: String) throws -> [String: Answer] {
        var answers: [String: Answer] = [:]
        for row in try table(folder + "/gf_customers.csv") {
            answers[row["customer_id"] ?? ""] = Answer(
                facts: [
                    row["platform"], row["original_app_version"], instant(row["original_purchase_date"]),
                    row["environment"], row["class"],
                ])
        }
        let flags = try table(folder + "/gf_customer_flags.csv").sorted { ($0["flag"] ?? "") < ($1["flag"] ?? "") }
        for row in flags {
            answers[row["customer_id"] ?? "", default: Answer(facts: [])].flags.append(row["flag"] ?? "")
        }
        for row in try table(folder + "/gf_entitlements.csv") {
            answers[row["customer_id"] ?? "", default: Answer(facts: [])].entitlements.append([
                row["entitlement"], row["source"], row["transaction_id"], instant(row["expires_date"]),
            ])
        }
        return answers.mapValues { answer in
            var sorted = answer
            sorted.entitlements.sort { $0.map { $0 ?? "" }.lexicographicallyPrecedes($1.map { $0 ?? "" }) }
            return sorted
        }
    }

    /// An instant's text in one form (microseconds since the epoch), whatever fraction it shows.
    static func instant(_ text: String?) -> String? {
        guard let text else { return nil }
        guard case .success(let instant) = TimestampParser(defaultZone: nil).parse(text) else { return "bad:" + text }
        return String(instant.microseconds)
    }

    /// A CSV file's rows by column name (an empty cell is left out: absent), RFC 4180.
    static func table(_ path: String) throws -> [[String: String]] {
        let text = try String(contentsOfFile: path, encoding: .utf8)
        var records: [[String]] = []
        var record: [String] = []
        var field = ""
        var inQuotes = false
        var index = text.startIndex
        while index < text.endIndex {
            let character = text[index]
            if inQuotes {
                if character == "\"" {
                    let next = text.index(after: index)
                    if next < text.endIndex, text[next] == "\"" {
                        field.append("\"")
                        index = next
                    } else {
                        inQuotes = false
                    }
                } else {
                    field.append(character)
                }
            } else if character == "\"" {
                inQuotes = true
            } else if character == "," {
                record.append(field)
                field = ""
            } else if character == "\n" {
                record.append(field)
                records.append(record)
                record = []
                field = ""
            } else {
                field.append(character)
            }
            index = text.index(after: index)
        }
        guard let header = records.first else { return [] }
        return records.dropFirst().map { values in
            var row: [String: String] = [:]
            for (name, value) in zip(header, values) where !value.isEmpty { row[name] = value }
            return row
        }
    }
}
