import Foundation
import GRDB
import Testing

/// Run history and changes since the previous run (SPEC §6).
@Suite struct HistoryTests {
    static let customers = SmallData.customers + "d-steady,ios,100,2023-01-01T00:00:00Z\n"

    /// The second night's inputs: three customers changed, one the same.
    static let changedCustomers = """
        customer_id,platform,original_app_version,original_purchase_date
        a-grandfathered,ios,300,2024-04-01T00:00:00Z
        b-subscriber,ios,300,2024-04-01T00:00:00Z
        c-lapsed,macos,2.1,2024-04-01T00:00:00Z
        d-steady,ios,100,2023-01-01T00:00:00Z

        """

    static let changedTransactions = """
        transaction_id,customer_id,product_id,product_type,purchase_date,expires_date
        t2,c-lapsed,pro.monthly,auto_renewable,2024-04-01T00:00:00Z,2024-05-01T00:00:00Z
        t3,a-grandfathered,coins,consumable,2024-04-01T00:00:00Z,
        t4,c-lapsed,pro.monthly,auto_renewable,2024-05-20T00:00:00Z,2024-06-20T00:00:00Z

        """

    private func summaryJSON(_ cli: CLI) throws -> [String: Any] {
        let data = try Data(contentsOf: URL(fileURLWithPath: cli.path("out/latest/summary.json")))
        let document = try #require(try JSONSerialization.jsonObject(with: data) as? [String: Any])
        return try #require(document["changes_since_previous_run"] as? [String: Any])
    }

    @Test func secondRunListsExactlyTheThreeChangedCustomers() throws {
        let cli = try CLI()
        let arguments = try SmallData.install(in: cli)
        try cli.write("customers.csv", Self.customers)
        let first = try cli.run(arguments)
        #expect(first.status == 0, "\(first.stderr)")
        #expect(try summaryJSON(cli)["status"] as? String == "first_run")
        let firstRun = try #require(cli.latestTarget()).split(separator: "/").last.map(String.init)

        try cli.write("customers.csv", Self.changedCustomers)
        try cli.write("transactions.csv", Self.changedTransactions)
        let second = try cli.run(arguments)
        #expect(second.status == 0, "\(second.stderr)")

        let snapshot = try SnapshotDump(path: cli.path("out/latest/snapshot.sqlite"))
        let changes = try snapshot.queue.read { db in
            try String.fetchAll(
                db, sql: "SELECT customer_id || '|' || from_class || '|' || to_class FROM changes ORDER BY customer_id")
        }
        #expect(
            changes == [
                "a-grandfathered|grandfathered|new", "b-subscriber|subscriber|new", "c-lapsed|lapsed|subscriber",
            ])
        #expect(try snapshot.text("SELECT previous_run_id FROM runs ORDER BY started_at DESC LIMIT 1") == firstRun)
        #expect(try snapshot.text("SELECT count(*) FROM runs") == "2", "the first run's row is carried forward")
        #expect(try snapshot.text("SELECT customers_changed FROM runs WHERE previous_run_id IS NOT NULL") == "3")

        let summary = try String(contentsOfFile: cli.path("out/latest/summary.md"), encoding: .utf8)
        #expect(summary.contains("3 customers changed class, flags or entitlements"))
        #expect(summary.contains("| from \\ to | grandfathered | subscriber | lapsed | new | excluded | absent |"))
        #expect(summary.contains("| **grandfathered** | 1 | 0 | 0 | 1 | 0 | 0 |"))
        #expect(summary.contains("| **subscriber** | 0 | 0 | 0 | 1 | 0 | 0 |"))
        #expect(summary.contains("| **lapsed** | 0 | 1 | 0 | 0 | 0 | 0 |"))
        #expect(summary.contains("| c-lapsed | lapsed | subscriber |"))

        let json = try summaryJSON(cli)
        #expect(json["status"] as? String == "compared")
        #expect(json["customers_changed"] as? Int == 3)
        let matrix = try #require(json["class_matrix"] as? [String: [String: Int]])
        #expect(matrix["grandfathered"]?["new"] == 1)
        #expect(matrix["grandfathered"]?["grandfathered"] == 1)
    }

    @Test func aSnapshotOfSchemaVersionOneIsReadAsThePreviousRun() throws {
        let cli = try CLI()
        let arguments = try SmallData.install(in: cli)
        let fixture = try #require(Bundle.module.url(forResource: "Fixtures", withExtension: nil))
        try cli.copy(fixture.appendingPathComponent("snapshot-v1.sqlite"))
        #expect(try SnapshotDump(path: cli.path("snapshot-v1.sqlite")).userVersion() == 1)

        let result = try cli.run(arguments + ["--previous", "snapshot-v1.sqlite"])
        #expect(result.status == 0, "\(result.stderr)")
        let snapshot = try SnapshotDump(path: cli.path("out/latest/snapshot.sqlite"))
        #expect(try snapshot.userVersion() == 7)
        let oldRun = "20261122T013419.370Z-27410"
        #expect(
            try snapshot.text("SELECT count(*) FROM runs WHERE run_id = '\(oldRun)' AND previous_run_id IS NULL") == "1"
        )
        #expect(try snapshot.text("SELECT previous_run_id FROM runs WHERE run_id <> '\(oldRun)'") == oldRun)

        // Every customer of the old run (37, per the fixture's README) is gone, and the
        // three of this run are new: the matrix counts both sides.
        let matrix = try #require(try summaryJSON(cli)["class_matrix"] as? [String: [String: Int]])
        let before = ["grandfathered": 9, "subscriber": 10, "lapsed": 6, "new": 10, "excluded": 2]
        for (customerClass, count) in before { #expect(matrix[customerClass]?["absent"] == count, "\(customerClass)") }
        #expect(matrix["absent"]?.values.reduce(0, +) == 3)
        #expect(try snapshot.text("SELECT count(*) FROM changes") == "40")
    }

    @Test func aSnapshotOfSchemaVersionTwoIsReadAsThePreviousRun() throws {
        let cli = try CLI()
        let arguments = try SmallData.install(in: cli)
        let fixture = try #require(Bundle.module.url(forResource: "Fixtures", withExtension: nil))
        try cli.copy(fixture.appendingPathComponent("snapshot-v2.sqlite"))
        #expect(try SnapshotDump(path: cli.path("snapshot-v2.sqlite")).userVersion() == 2)

        let result = try cli.run(arguments + ["--previous", "snapshot-v2.sqlite"])
        #expect(result.status == 0, "\(result.stderr)")
        let snapshot = try SnapshotDump(path: cli.path("out/latest/snapshot.sqlite"))
        let oldRun = "20261122T043720.595Z-27781"
        // The old row comes forward with its own columns and NULL in the one it lacked.
        #expect(
            try snapshot.text(
                "SELECT count(*) FROM runs WHERE run_id = '\(oldRun)' AND customers = 3 AND app_store_json IS NULL")
                == "1")
        #expect(try snapshot.text("SELECT previous_run_id FROM runs WHERE run_id <> '\(oldRun)'") == oldRun)
        // The same three customers as the old run: nothing changed.
        #expect(try snapshot.text("SELECT customers_changed FROM runs WHERE run_id <> '\(oldRun)'") == "0")
        #expect(try snapshot.text("SELECT count(*) FROM changes") == "0")
    }

    @Test func anUnreadablePreviousSnapshotIsAWarningAndTheRunGoesOn() throws {
        let cli = try CLI()
        let arguments = try SmallData.install(in: cli)
        #expect(try cli.run(arguments).status == 0)
        let target = try #require(cli.latestTarget())
        let path = cli.path("out/" + target + "/snapshot.sqlite")
        try FileManager.default.removeItem(atPath: path)
        try Data("not sqlite at all".utf8).write(to: URL(fileURLWithPath: path))

        let result = try cli.run(arguments)
        #expect(result.status == 0)
        #expect(result.stderr.contains("warning: not comparing with the previous run"))
        #expect(try summaryJSON(cli)["status"] as? String == "not_compared")
    }

    @Test func aMissingPreviousNamedOnTheCommandLineIsAUsageError() throws {
        let cli = try CLI()
        let arguments = try SmallData.install(in: cli)
        let result = try cli.run(arguments + ["--previous", "nowhere.sqlite"])
        #expect(result.status == 2)
        #expect(result.stderr.split(separator: "\n").count == 1)
        #expect(result.stderr.contains("error: --previous nowhere.sqlite: previous snapshot does not exist"))
    }

    @Test func keepPrunesTheOldestRunFolders() throws {
        let cli = try CLI()
        let arguments = try SmallData.install(in: cli)
        for _ in 0..<4 { #expect(try cli.run(arguments + ["--keep", "2"]).status == 0) }
        let runs = cli.runFolders()
        #expect(runs.count == 2)
        #expect(runs.contains(try #require(cli.latestTarget()).replacingOccurrences(of: "runs/", with: "")))
    }
}
