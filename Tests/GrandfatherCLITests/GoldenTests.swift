import Foundation
import Testing

/// Whole runs compared with reviewed files under `Golden/<scenario>/expected/`: every report
/// and a text dump of the snapshot (all tables but `runs`), for the conformance set and the
/// bundled App Store and RevenueCat samples. A mismatch prints a unified
/// diff; `RECORD_GOLDENS=1 scripts/test` rewrites the files, to be reviewed in the diff.
@Suite struct GoldenTests {
    static let goldenRoot = URL(fileURLWithPath: #filePath).deletingLastPathComponent().appendingPathComponent("Golden")
    static let recording = ProcessInfo.processInfo.environment["RECORD_GOLDENS"] == "1"

    @Test func conformanceRun() throws {
        let cli = try CLI()
        let result = try cli.run(try Conformance.install(in: cli))
        #expect(result.status == 0)
        try Self.compare(scenario: "conformance", cli: cli)
    }

    /// The bundled App Store sample, audited as `scripts/sample-apple` audits it.
    @Test func appStoreSampleRun() throws {
        let cli = try CLI()
        let files = [
            "app-transactions.txt", "transaction-history.json", "subscription-statuses.json", "notifications.jsonl",
        ]
        for name in ["policy.json", "sample-root.der"] + files {
            try cli.copy(Self.repository.appendingPathComponent("sample-data/apple/\(name)"))
        }
        let result = try cli.run(
            [
                "audit", "--policy", "policy.json", "--trusted-root", "sample-root.der", "--as-of",
                "2026-11-01T00:00:00Z", "--out", "out",
            ] + files)
        #expect(result.status == 0, "\(result.stderr)")
        try Self.compare(scenario: "apple-sample", cli: cli)
    }

    /// The bundled RevenueCat sample, audited as `scripts/sample-revenuecat` audits it.
    @Test func revenueCatSampleRun() throws {
        let cli = try CLI()
        let files = [
            "subscribers.jsonl", "customers.csv", "transactions-export.csv", "customer-list.csv", "webhooks.jsonl",
        ]
        for name in ["policy.json"] + files {
            try cli.copy(Self.repository.appendingPathComponent("sample-data/revenuecat/\(name)"))
        }
        let result = try cli.run(
            ["audit", "--policy", "policy.json", "--as-of", "2026-11-01T00:00:00Z", "--out", "out"] + files)
        #expect(result.status == 0, "\(result.stderr)")
        try Self.compare(scenario: "revenuecat-sample", cli: cli)
    }

    /// The bundled sample's customers and transactions with the stores' sales reports of the
    /// same app, audited as `scripts/sample-sales` audits them.
    @Test func salesSampleRun() throws {
        let cli = try CLI()
        let arguments = try SampleData.installSales(in: cli)
        #expect(arguments.count == 7 + 16, "the sample's 16 inputs")
        let result = try cli.run(arguments)
        #expect(result.status == 0, "\(result.stderr)")
        try Self.compare(scenario: "sales-sample", cli: cli)
    }

    /// Issue 52: `summary.md` opens on the decision. Its first table after the title is the
    /// classes, and the run's record (policy, inputs and their data quality) comes last. Read
    /// from the reviewed files, which the runs above must reproduce byte for byte.
    @Test(arguments: ["conformance", "apple-sample", "revenuecat-sample", "sales-sample"])
    func summaryOpensOnTheClasses(scenario: String) throws {
        let text = try String(
            contentsOf: Self.goldenRoot.appendingPathComponent("\(scenario)/expected/summary.md"), encoding: .utf8)
        let lines = text.split(separator: "\n", omittingEmptySubsequences: false)
        let firstTable = try #require(lines.firstIndex { $0.hasPrefix("|") })
        #expect(lines[..<firstTable].last { $0.hasPrefix("## ") } == "## Classes", "\(scenario)")
        #expect(lines[..<firstTable].filter { $0.hasPrefix("## ") }.count == 1, "no section before the classes")
        let headings = lines.filter { $0.hasPrefix("## ") }
        #expect(Array(headings.suffix(2)) == ["## The run", "## Data quality"], "\(scenario): \(headings)")
    }

    /// The repository's root, whose `sample-data/` the samples' runs read.
    static let repository = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
        .deletingLastPathComponent()

    static func compare(scenario: String, cli: CLI) throws {
        let expected = goldenRoot.appendingPathComponent(scenario).appendingPathComponent("expected")
        var actual: [String: Data] = [:]
        for report in ["summary.md", "summary.json", "customers.csv", "rejected.csv"] {
            actual[report] = try Data(contentsOf: URL(fileURLWithPath: cli.path("out/latest/\(report)")))
        }
        let dump = try SnapshotDump(path: cli.path("out/latest/snapshot.sqlite"))
        #expect(try dump.text("SELECT count(*) FROM pragma_foreign_key_check") == "0", "every reference resolves")
        #expect(!FileManager.default.fileExists(atPath: cli.path("out/latest/snapshot.sqlite.grants")))
        var text = "user_version \(try dump.userVersion())\n"
        for table in try dump.tables() where table != "runs" {
            text += "\n## \(table)\n" + (try dump.rows(table)).joined(separator: "\n") + "\n"
        }
        actual["snapshot.txt"] = Data(text.utf8)

        if recording {
            try FileManager.default.createDirectory(at: expected, withIntermediateDirectories: true)
            for (name, bytes) in actual { try bytes.write(to: expected.appendingPathComponent(name)) }
            return
        }
        for (name, bytes) in actual.sorted(by: { $0.key < $1.key }) {
            let file = expected.appendingPathComponent(name)
            let want = try? Data(contentsOf: file)
            if want != bytes {
                Issue.record("\(scenario)/\(name) differs from its golden file:\n\(try diff(file, bytes, cli: cli))")
            }
        }
    }

    /// A unified diff of the golden file against what the run wrote.
    static func diff(_ golden: URL, _ actual: Data, cli: CLI) throws -> String {
        let actualPath = cli.path("actual-" + golden.lastPathComponent)
        try actual.write(to: URL(fileURLWithPath: actualPath))
        let process = Process()
        process.executableURL = URL(fileURLWithPath: "/usr/bin/diff")
        process.arguments = ["-u", golden.path, actualPath]
        let pipe = Pipe()
        process.standardOutput = pipe
        try process.run()
        let output = pipe.fileHandleForReading.readDataToEndOfFile()
        process.waitUntilExit()
        return String(decoding: output, as: UTF8.self)
    }
}
