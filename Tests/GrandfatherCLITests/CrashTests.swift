import Foundation
import GRDB
import Testing

/// A run killed at any moment, SIGKILL included, leaves `latest` and what it points to
/// byte-identical, and the next run succeeds and removes what the killed one left.
@Suite(.serialized) struct CrashTests {
    static let outputs = [
        "customers.csv", "rejected.csv", "report.html", "snapshot.sqlite", "summary.json", "summary.md",
    ]

    @Test(arguments: ["after-ingest", "mid-classify", "mid-snapshot", "after-snapshot", "before-latest-switch"])
    func killBeforeTheSwitchLeavesLatestByteIdentical(point: String) throws {
        let cli = try CLI()
        let arguments = try SmallData.install(in: cli)
        #expect(try cli.run(arguments).status == 0)
        let target = cli.latestTarget()
        let before = try cli.contents(of: "out/latest")
        try cli.write(
            "transactions.csv", SmallData.transactions.replacingOccurrences(of: "2024-06-15", with: "2024-05-20"))

        let killed = try cli.run(arguments + ["--test-kill-at", point])
        #expect(killed.status == SIGKILL, "the run died at \(point)")
        #expect(cli.latestTarget() == target)
        #expect(try cli.contents(of: "out/latest") == before)

        try Self.expectNextRunSucceedsAndCleansUp(cli, arguments)
        #expect(try cli.contents(of: "out/latest") != before, "the next run published its own outputs")
    }

    @Test func killRightAfterTheSwitchLeavesTheNewRunComplete() throws {
        let cli = try CLI()
        let arguments = try SmallData.install(in: cli)
        #expect(try cli.run(arguments).status == 0)
        let target = cli.latestTarget()
        let killed = try cli.run(arguments + ["--test-kill-at", "after-latest-switch"])
        #expect(killed.status == SIGKILL)
        #expect(cli.latestTarget() != target)
        try Self.expectComplete(cli)
        try Self.expectNextRunSucceedsAndCleansUp(cli, arguments)
    }

    @Test func killsAtTenMomentsOfARunNeverTearLatest() throws {
        let cli = try CLI()
        try cli.write("policy.json", SmallData.policy)
        try cli.write("customers.csv", Self.customers(count: 20_000))
        try cli.write("transactions.csv", Self.transactions(count: 120_000))
        let arguments = [
            "audit", "--policy", "policy.json", "--as-of", SmallData.asOf, "--out", "out", "customers.csv",
            "transactions.csv",
        ]
        let started = Date()
        #expect(try cli.run(arguments).status == 0)
        let duration = Date().timeIntervalSince(started)

        for moment in 1...10 {
            let target = cli.latestTarget()
            let before = try cli.contents(of: "out/latest")
            let run = try cli.start(arguments)
            usleep(useconds_t(duration * Double(moment) / 11 * 1_000_000))
            run.kill()
            if cli.latestTarget() == target {
                #expect(try cli.contents(of: "out/latest") == before, "kill \(moment) of 10 tore latest")
            } else {
                // The kill landed after the switch: the new run must then be whole.
                try Self.expectComplete(cli)
            }
            try Self.expectNextRunSucceedsAndCleansUp(cli, arguments)
        }
    }

    /// `latest` points to a folder with every output and a sound snapshot that records its run.
    static func expectComplete(_ cli: CLI) throws {
        let target = try #require(cli.latestTarget())
        let folder = cli.path("out/" + target)
        for name in outputs { #expect(FileManager.default.fileExists(atPath: folder + "/" + name), "\(name) missing") }
        let snapshot = try SnapshotDump(path: folder + "/snapshot.sqlite")
        #expect(try snapshot.text("PRAGMA integrity_check") == "ok")
        let runID = (target as NSString).lastPathComponent
        #expect(try snapshot.text("SELECT count(*) FROM runs WHERE run_id = '\(runID)'") == "1")
    }

    static func expectNextRunSucceedsAndCleansUp(_ cli: CLI, _ arguments: [String]) throws {
        let next = try cli.run(arguments)
        #expect(next.status == 0, "\(next.stderr)")
        #expect(!cli.runFolders().contains { $0.hasPrefix(".partial-") }, "staging folders are removed")
        let names = (try? FileManager.default.contentsOfDirectory(atPath: cli.path("out"))) ?? []
        #expect(!names.contains { $0.hasPrefix(".latest-") }, "temporary links are removed")
        try expectComplete(cli)
    }

    static func customers(count: Int) -> String {
        var text = "customer_id,platform,original_app_version,original_purchase_date\n"
        for index in 0..<count {
            text += "c\(index),ios,\(150 + index % 200),2023-\(String(format: "%02d", 1 + index % 12))-01T00:00:00Z\n"
        }
        return text
    }

    static func transactions(count: Int) -> String {
        var text = "transaction_id,customer_id,product_id,product_type,purchase_date,expires_date\n"
        for index in 0..<count {
            let month = String(format: "%02d", 1 + index % 12)
            text += "t\(index),c\(index * 7 % 20_000),pro.monthly,auto_renewable,2024-\(month)-01T00:00:00Z,"
            text += "2024-\(month)-28T00:00:00Z\n"
        }
        return text
    }
}
