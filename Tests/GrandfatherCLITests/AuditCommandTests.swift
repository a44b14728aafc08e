import Foundation
import Testing

/// The command line as cron sees it: stdout, one stderr line, and the exit code.
@Suite struct AuditCommandTests {
    @Test func successWritesEveryOutputAndPrintsAShortSummary() throws {
        let cli = try CLI()
        let result = try cli.run(try SmallData.install(in: cli))
        #expect(result.status == 0, "\(result.stderr)")
        #expect(result.stdout.contains("3 customers (1 grandfathered, 1 subscriber, 1 lapsed, 0 new, 0 excluded)"))
        #expect(result.stderr.isEmpty, "nothing on stderr unless asked: \(result.stderr)")
        let target = try #require(cli.latestTarget())
        #expect(target.hasPrefix("runs/"))
        let files = try cli.contents(of: "out/latest").keys.sorted()
        #expect(
            files == ["customers.csv", "rejected.csv", "report.html", "snapshot.sqlite", "summary.json", "summary.md"])
        let dump = try SnapshotDump(path: cli.path("out/latest/snapshot.sqlite"))
        #expect(try dump.userVersion() == 7)
        #expect(
            try dump.tables() == [
                "changes", "customer_fact_sources", "customer_flags", "customers", "deciding_transactions",
                "entitlements", "flag_catalog", "merged_ids",
                "rejected_rows", "runs",
            ])
        #expect(try dump.verdicts()["a-grandfathered"]?.customerClass == "grandfathered")
        #expect(try dump.text("SELECT count(*) FROM pragma_foreign_key_check") == "0")
        #expect(try dump.text("PRAGMA integrity_check") == "ok")
    }

    @Test func unknownPolicyKeyIsExit2WithOneLineNamingFileLineAndColumn() throws {
        let cli = try CLI()
        var arguments = try SmallData.install(in: cli)
        try cli.write(
            "bad.json",
            "{\n  \"cutover\": {\"date\": \"2024-03-01T00:00:00Z\", \"versions\": {\"ios\": \"1\"}},\n  \"cutoff\": 1\n}\n"
        )
        arguments[2] = "bad.json"
        let result = try cli.run(arguments)
        #expect(result.status == 2)
        #expect(result.stderr == "grandfather: bad.json:3:3: error: unknown key \"cutoff\"\n")
        #expect(!FileManager.default.fileExists(atPath: cli.path("out")), "nothing written before the policy is valid")
    }

    @Test(arguments: [
        ("\"edge_window_hours\": -1", "edge_window_hours: must not be negative"),
        ("\"default_time_zone\": \"Mars/Olympus\"", "default_time_zone: unknown time zone 'Mars/Olympus'"),
    ])
    func invalidPolicyValuesAreExit2(member: String, message: String) throws {
        let cli = try CLI()
        var arguments = try SmallData.install(in: cli)
        try cli.write(
            "bad.json",
            "{\"cutover\": {\"date\": \"2024-03-01T00:00:00Z\", \"versions\": {\"ios\": \"1\"}}, "
                + "\"grandfathered_entitlements\": [\"p\"], \(member)}")
        arguments[2] = "bad.json"
        let result = try cli.run(arguments)
        #expect(result.status == 2)
        #expect(result.stderr.contains(message), "\(result.stderr)")
        #expect(result.stderr.split(separator: "\n").count == 1)
    }

    @Test func missingInputIsExit2() throws {
        let cli = try CLI()
        var arguments = try SmallData.install(in: cli)
        arguments.append("nowhere.csv")
        let result = try cli.run(arguments)
        #expect(result.status == 2)
        #expect(result.stderr == "grandfather: error: nowhere.csv: input file not found\n")
    }

    @Test func unrecognisableInputIsExit2NamingTheFile() throws {
        let cli = try CLI()
        var arguments = try SmallData.install(in: cli)
        try cli.write("mystery.csv", "name,colour\nx,blue\n")
        arguments.append("mystery.csv")
        let result = try cli.run(arguments)
        #expect(result.status == 2)
        #expect(
            result.stderr.hasPrefix(
                "grandfather: mystery.csv: error: a comma-separated file whose header names 'name', 'colour': no reader takes it;"
            ))
    }

    @Test func usageErrorsAreExit2() throws {
        let cli = try CLI()
        _ = try SmallData.install(in: cli)
        #expect(try cli.run(["audit", "--policy", "policy.json"]).status == 2)
        #expect(try cli.run(["audit"]).status == 2)
        #expect(try cli.run(["frobnicate"]).status == 2)
        let badAsOf = try cli.run(["audit", "--policy", "policy.json", "--as-of", "yesterday", "customers.csv"])
        #expect(badAsOf.status == 2)
        #expect(badAsOf.stderr.contains("--as-of: invalid timestamp 'yesterday'"))
        #expect(try cli.run(["--help"]).status == 0)
    }

    @Test func unwritableOutputIsExit1() throws {
        let cli = try CLI()
        var arguments = try SmallData.install(in: cli)
        try cli.write("occupied", "a file where the output folder should be")
        arguments[6] = "occupied"
        let result = try cli.run(arguments)
        #expect(result.status == 1)
        #expect(result.stderr.hasPrefix("grandfather: occupied: error: cannot create folder"))
        #expect(result.stderr.split(separator: "\n").count == 1)
    }

    @Test func dataQualityOverThresholdIsExit3AndKeepsLatest() throws {
        let cli = try CLI()
        let good = try SmallData.install(in: cli)
        #expect(try cli.run(good).status == 0)
        let before = try cli.contents(of: "out/latest")
        let target = cli.latestTarget()

        let broken =
            SmallData.transactions + "t9,b-subscriber,pro.monthly,bogus_type,2024-05-15T00:00:00Z,\n"
            + "t10,b-subscriber,pro.monthly,auto_renewable,not-a-date,\n"
        let arguments = try SmallData.install(in: try CLI())  // same arguments, other folder
        try cli.write("transactions.csv", broken)
        let result = try cli.run(arguments)
        #expect(result.status == 3)
        #expect(result.stderr.contains("2 of 8 rows rejected, over max_rejected_fraction 0.2"))
        #expect(cli.latestTarget() == target)
        #expect(try cli.contents(of: "out/latest") == before)
        // The run itself is written and marked.
        let runs = cli.runFolders().filter { !$0.hasPrefix(".") }
        #expect(runs.count == 2)
        let newest = try #require(runs.first { "runs/" + $0 != target })
        let summary = try String(contentsOfFile: cli.path("out/runs/\(newest)/summary.md"), encoding: .utf8)
        #expect(summary.contains("**Status: data-quality threshold exceeded.**"))
        let snapshot = try SnapshotDump(path: cli.path("out/runs/\(newest)/snapshot.sqlite"))
        #expect(
            try snapshot.text("SELECT status || ' ' || exit_code FROM runs WHERE run_id = '\(newest)'")
                == "data_quality_threshold_exceeded 3")
    }

    @Test func progressNeverAppearsWhenStderrIsNotATerminal() throws {
        let cli = try CLI()
        let result = try cli.run(try SmallData.install(in: cli))
        #expect(result.stderr.isEmpty)
        #expect(result.stdout.split(separator: "\n").count == 2)
    }

    @Test func verboseReportsStageTimings() throws {
        let cli = try CLI()
        let result = try cli.run(try SmallData.install(in: cli) + ["--verbose"])
        #expect(result.status == 0)
        #expect(result.stderr.contains("ingest"))
        #expect(result.stderr.contains("classify"))
    }
}
