import Foundation
import Testing

/// `sample-data/apple/`: the App Store-shaped sample run as its README says, and the same
/// customers given as canonical CSV giving the same snapshot.
@Suite struct AppStoreSampleTests {
    static let folder = SampleData.folder.appendingPathComponent("apple")
    static let appleInputs = [
        "app-transactions.txt", "transaction-history.json", "subscription-statuses.json", "notifications.jsonl",
    ]
    static let asOf = "2026-11-01T00:00:00Z"

    /// Runs the sample as the README does; returns the CLI and the result.
    static func runApple(_ extra: [String] = []) throws -> (CLI, CLI.Result) {
        let cli = try CLI()
        for name in appleInputs + ["policy.json", "sample-root.der"] {
            try cli.copy(folder.appendingPathComponent(name))
        }
        let result = try cli.run(
            ["audit", "--policy", "policy.json", "--trusted-root", "sample-root.der", "--as-of", asOf, "--out", "out"]
                + extra + appleInputs)
        return (cli, result)
    }

    @Test func theSampleClassifiesItsCustomersAsItsReadmeSays() throws {
        let (cli, result) = try Self.runApple()
        #expect(result.status == 0, "\(result.stderr)")
        let verdicts = try SnapshotDump(path: cli.path("out/latest/snapshot.sqlite")).verdicts()
        let classes = verdicts.mapValues(\.customerClass)
        #expect(
            classes == [
                "705000000000000001": "grandfathered", "705000000000000002": "subscriber",
                "705000000000000003": "lapsed", "705000000000000004": "new", "705000000000000005": "grandfathered",
                "705000000000000006": "grandfathered", "705000000000000007": "subscriber",
                "705000000000000008": "lapsed",
            ])
        #expect(verdicts["705000000000000005"]?.flags.contains("grandfathered_and_subscribed") == true)
        #expect(verdicts["705000000000000006"]?.flags.contains("naive_version_trap") == true)
        #expect(verdicts["705000000000000007"]?.flags.contains("in_grace_period") == true)
        #expect(verdicts["705000000000000008"]?.flags.contains("refunded") == true)
        #expect(verdicts["705000000000000004"]?.flags.contains("consumable_only") == true)
        // Every row verified, none rejected; the run's summary says how signatures were checked.
        let summary = try String(contentsOfFile: cli.path("out/latest/summary.md"), encoding: .utf8)
        #expect(summary.contains("signatures verified against Apple Root CA - G3 and --trusted-root sample-root.der"))
        #expect(!summary.contains("Warning"))
        let json = try String(contentsOfFile: cli.path("out/latest/summary.json"), encoding: .utf8)
        #expect(json.contains("\"rows_rejected\" : 0"))
        #expect(json.contains("\"superseded\" : 2"))
        #expect(
            try SnapshotDump(path: cli.path("out/latest/snapshot.sqlite")).text(
                "SELECT count(*) FROM customer_flags WHERE flag = 'conflicting_duplicate'") == "0")
    }

    @Test func canonicalCSVAndAppStoreFilesGiveTheSameSnapshot() throws {
        let (apple, appleResult) = try Self.runApple()
        #expect(appleResult.status == 0, "\(appleResult.stderr)")
        let canonical = try CLI()
        try canonical.copy(Self.folder.appendingPathComponent("policy.json"))
        try canonical.copy(Self.folder.appendingPathComponent("canonical/customers.csv"))
        try canonical.copy(Self.folder.appendingPathComponent("canonical/transactions.csv"))
        let result = try canonical.run([
            "audit", "--policy", "policy.json", "--as-of", Self.asOf, "--out", "out", "customers.csv",
            "transactions.csv",
        ])
        #expect(result.status == 0, "\(result.stderr)")
        let fromApple = try SnapshotDump(path: apple.path("out/latest/snapshot.sqlite"))
        let fromCSV = try SnapshotDump(path: canonical.path("out/latest/snapshot.sqlite"))
        #expect(try fromApple.verdicts() == fromCSV.verdicts())
        #expect(try fromApple.verdicts().count == 8)
        // The customers' own fields too: version, dates, platform, environment.
        let columns = "customer_id, platform, original_app_version, original_purchase_date, environment, class"
        #expect(
            try fromApple.queue.read { db in try String.fetchAll(db, sql: "SELECT \(columns) FROM customers") }
                == fromCSV.queue.read { db in try String.fetchAll(db, sql: "SELECT \(columns) FROM customers") })
    }

    @Test func withoutTheSampleRootEverySignedRowIsRefusedAsUnknownRoot() throws {
        let cli = try CLI()
        for name in Self.appleInputs + ["policy.json"] { try cli.copy(Self.folder.appendingPathComponent(name)) }
        let result = try cli.run(
            ["validate", "--policy", "policy.json", "--as-of", Self.asOf] + Self.appleInputs)
        #expect(result.status == 3, "\(result.stderr)")
        #expect(result.stdout.contains("unknown root"))
    }

    @Test func noVerifyIsSaidInEveryReportAndInRuns() throws {
        let (cli, result) = try Self.runApple(["--no-verify"])
        #expect(result.status == 0, "\(result.stderr)")
        #expect(result.stderr.contains("NOT verified"))
        for report in ["summary.md", "report.html"] {
            let text = try String(contentsOfFile: cli.path("out/latest/\(report)"), encoding: .utf8)
            #expect(text.contains("NOT verified (--no-verify)"), "\(report)")
        }
        let json = try String(contentsOfFile: cli.path("out/latest/summary.json"), encoding: .utf8)
        #expect(json.contains("\"verified\" : false"))
        let runs = try SnapshotDump(path: cli.path("out/latest/snapshot.sqlite"))
            .text("SELECT json_extract(app_store_json, '$.verified') FROM runs")
        #expect(runs == "0")
    }

    @Test func compareSaysSoToo() throws {
        let cli = try CLI()
        for name in Self.appleInputs + ["policy.json"] { try cli.copy(Self.folder.appendingPathComponent(name)) }
        let result = try cli.run(
            [
                "compare", "--policy", "policy.json", "--policy", "policy.json", "--as-of", Self.asOf, "--no-verify",
                "--out", "cmp",
            ] + Self.appleInputs)
        #expect(result.status == 0, "\(result.stderr)")
        for report in ["compare.md", "compare.html"] {
            let text = try String(contentsOfFile: cli.path("cmp/latest/\(report)"), encoding: .utf8)
            #expect(text.contains("NOT verified (--no-verify)"), "\(report)")
        }
    }

    @Test func aCertificateGivenAsAnInputIsOneLineNamingWhatItIs() throws {
        let cli = try CLI()
        for name in ["policy.json", "sample-root.der"] { try cli.copy(Self.folder.appendingPathComponent(name)) }
        let result = try cli.run(["validate", "--policy", "policy.json", "sample-root.der"])
        #expect(result.status == 2)
        #expect(result.stderr == "grandfather: sample-root.der: error: a DER X.509 certificate, not records\n")
    }
}
