import Foundation
import Testing

/// `grandfather explain`: one customer read back from a snapshot, through the binary.
@Suite struct ExplainTests {
    /// The as-of `SampleDataTests` audits the sample at.
    static let sampleAsOf = "2026-11-21T00:00:00Z"

    /// Tests/GrandfatherCLITests/ExplainTests.swift → the package root, three levels up; the
    /// sample data is part of the repository, as `SampleDataTests` reads it.
    static let sampleData = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
        .deletingLastPathComponent().appendingPathComponent("sample-data")

    /// Audits `sample-data/` into `out` of the CLI's folder.
    static func auditSample(in cli: CLI) throws {
        let inputs = ["customers.csv", "customers-late.json", "transactions-2024.jsonl", "transactions.csv"]
        let result = try cli.run(
            [
                "audit", "--policy", sampleData.appendingPathComponent("policy.json").path, "--as-of", sampleAsOf,
                "--out", "out",
            ] + inputs.map { sampleData.appendingPathComponent($0).path })
        #expect(result.status == 0, "\(result.stderr)")
    }

    /// The run id is the one line that differs from run to run.
    static func maskingRunID(_ text: String) -> String {
        text.replacingOccurrences(of: #"\d{8}T\d{6}\.\d{3}Z-\d+"#, with: "<run-id>", options: .regularExpression)
    }

    /// A grandfathered customer with the naive_version_trap, one in a billing grace period, an orphan.
    @Test(arguments: ["c06-fay-tvos-1.9-below-1.10", "c19-tara-grace-period", "c23-xena-orphan"])
    func explainsSampleCustomerAsItsGoldenFile(customer: String) throws {
        let cli = try CLI()
        try Self.auditSample(in: cli)
        let result = try cli.run(["explain", customer, "--snapshot", "out/latest"])
        #expect(result.status == 0, "\(result.stderr)")
        #expect(result.stderr.isEmpty)
        let actual = Data(Self.maskingRunID(result.stdout).utf8)
        let golden = GoldenTests.goldenRoot.appendingPathComponent("explain").appendingPathComponent(customer + ".txt")
        if GoldenTests.recording {
            try FileManager.default.createDirectory(
                at: golden.deletingLastPathComponent(), withIntermediateDirectories: true)
            try actual.write(to: golden)
            return
        }
        if (try? Data(contentsOf: golden)) != actual {
            Issue.record(
                "explain \(customer) differs from its golden file:\n\(try GoldenTests.diff(golden, actual, cli: cli))")
        }
    }

    @Test func theSnapshotHoldsTheDecidingTransactions() throws {
        let cli = try CLI()
        try Self.auditSample(in: cli)
        let dump = try SnapshotDump(path: cli.path("out/latest/snapshot.sqlite"))
        #expect(try dump.text("SELECT count(*) FROM pragma_foreign_key_check") == "0")
        // The latest auto-renewable that raised billing_retry is kept, with its state.
        #expect(
            try dump.text(
                "SELECT transaction_id || '|' || renewal_state || '|' || is_current FROM deciding_transactions "
                    + "WHERE customer_id = 'c18-sam-billing-retry'") == "t18-2|in_billing_retry|0")
        // A current transaction that grants nothing is kept, though no entitlement names it.
        #expect(
            try dump.text(
                "SELECT product_id || '|' || product_type || '|' || is_current FROM deciding_transactions "
                    + "WHERE customer_id = 'c31-finn-supporter-badge'") == "supporter.badge|non_consumable|1")
        #expect(try dump.text("SELECT count(*) FROM deciding_transactions") == "2")
        // Every grant through a transaction names its product.
        #expect(
            try dump.text(
                "SELECT product_id || '|' || product_type FROM entitlements "
                    + "WHERE customer_id = 'c19-tara-grace-period'") == "pro.monthly|auto_renewable")
        #expect(
            try dump.text("SELECT count(*) FROM entitlements WHERE (transaction_id IS NULL) <> (product_id IS NULL)")
                == "0")
    }

    @Test func anUnknownCustomerIsExitTwoWithOneLine() throws {
        let cli = try CLI()
        try Self.auditSample(in: cli)
        let result = try cli.run(["explain", "c99-nobody", "--snapshot", "out/latest"])
        #expect(result.status == 2)
        #expect(result.stdout.isEmpty)
        #expect(result.stderr == "grandfather: error: customer 'c99-nobody' is not in out/latest/snapshot.sqlite\n")
    }

    @Test func idsAreComparedByCodePoints() throws {
        let cli = try CLI()
        let arguments = try SmallData.install(in: cli)
        try cli.write("customers.csv", SmallData.customers + "caf\u{E9},ios,300,2024-04-01T00:00:00Z\n")
        #expect(try cli.run(arguments).status == 0)
        #expect(try cli.run(["explain", "caf\u{E9}", "--snapshot", "out/latest"]).status == 0)
        // The NFD spelling is another customer, though Swift's == calls the two equal.
        let decomposed = try cli.run(["explain", "cafe\u{301}", "--snapshot", "out/latest"])
        #expect(decomposed.status == 2)
        #expect(decomposed.stderr.split(separator: "\n").count == 1)
    }

    @Test func aMissingOrUnreadableSnapshotIsExitOneWithOneLine() throws {
        let cli = try CLI()
        let missing = try cli.run(["explain", "anyone", "--snapshot", "nowhere.sqlite"])
        #expect(missing.status == 1)
        #expect(missing.stdout.isEmpty)
        #expect(missing.stderr == "grandfather: nowhere.sqlite: error: snapshot does not exist\n")

        let byDefault = try cli.run(["explain", "anyone"])
        #expect(byDefault.status == 1)
        #expect(byDefault.stderr == "grandfather: reports/latest/snapshot.sqlite: error: snapshot does not exist\n")

        try cli.write("junk.sqlite", "not sqlite at all, just text long enough to look like a file header\n")
        let junk = try cli.run(["explain", "anyone", "--snapshot", "junk.sqlite"])
        #expect(junk.status == 1)
        #expect(junk.stdout.isEmpty)
        #expect(junk.stderr.split(separator: "\n").count == 1)
        #expect(junk.stderr.hasPrefix("grandfather: junk.sqlite: error: cannot read snapshot:"))
    }

    @Test func markupInAnIdPrintsAsIs() throws {
        let cli = try CLI()
        let arguments = try SmallData.install(in: cli)
        let id = "<script>alert(\"x\")</script>"
        try cli.write("customers.csv", SmallData.customers + "\"<script>alert(\"\"x\"\")</script>\",ios,300,\n")
        #expect(try cli.run(arguments).status == 0)
        let result = try cli.run(["explain", id, "--snapshot", "out/latest"])
        #expect(result.status == 0, "\(result.stderr)")
        #expect(result.stdout.hasPrefix("Customer \(id): new\n"))
        #expect(!result.stdout.contains("&lt;"))

        let unknown = try cli.run(["explain", id + "2", "--snapshot", "out/latest"])
        #expect(unknown.status == 2)
        #expect(unknown.stderr == "grandfather: error: customer '\(id)2' is not in out/latest/snapshot.sqlite\n")
    }

    @Test func aSchemaVersionOneSnapshotIsExplainedWithoutItsTransactions() throws {
        let cli = try CLI()
        let fixture = try #require(Bundle.module.url(forResource: "Fixtures", withExtension: nil))
        try cli.copy(fixture.appendingPathComponent("snapshot-v1.sqlite"))
        let result = try cli.run(["explain", "c06-fay-tvos-1.9-below-1.10", "--snapshot", "snapshot-v1.sqlite"])
        #expect(result.status == 0, "\(result.stderr)")
        #expect(result.stdout.contains("(schema version 1)"))
        #expect(result.stdout.contains("not recorded: this snapshot was written before the transactions table"))
        #expect(
            result.stdout.contains("grandfathered: policy basis 'version': original_app_version 1.9 < cutover 1.10"))
    }
}
