import Foundation
import Testing

/// Same inputs, policy, as-of and previous run give byte-identical reports and identical
/// snapshot tables (all but `runs`, which describes the run).
@Suite struct DeterminismTests {
    @Test func twoRunsAreByteIdentical() throws {
        let cli = try CLI()
        var arguments = try Conformance.install(in: cli)
        let out = try #require(arguments.firstIndex(of: "out"))
        // Two output folders, so that neither run has a previous one to differ by.
        arguments[out] = "one"
        #expect(try cli.run(arguments).status == 0)
        arguments[out] = "two"
        #expect(try cli.run(arguments).status == 0)
        let first = "one/" + (try #require(cli.latestTarget("one")))
        let second = "two/" + (try #require(cli.latestTarget("two")))
        #expect(first != second)

        for report in ["summary.md", "summary.json", "customers.csv", "rejected.csv", "report.html"] {
            let a = try Data(contentsOf: URL(fileURLWithPath: cli.path("\(first)/\(report)")))
            let b = try Data(contentsOf: URL(fileURLWithPath: cli.path("\(second)/\(report)")))
            #expect(a == b, "\(report) differs")
        }
        let a = try SnapshotDump(path: cli.path("\(first)/snapshot.sqlite"))
        let b = try SnapshotDump(path: cli.path("\(second)/snapshot.sqlite"))
        #expect(try a.tables() == b.tables())
        for table in try a.tables() where table != "runs" {
            #expect(try a.rows(table) == b.rows(table), "\(table) differs")
            // A customer assembled from several sources is what fills customer_fact_sources;
            // RevenueCat's webhook events, merged_ids.
            #expect(
                try !a.rows(table).isEmpty || table == "rejected_rows" || table == "changes"
                    || table == "customer_fact_sources" || table == "merged_ids")
        }
        #expect(try a.rows("runs") != b.rows("runs"), "runs describes each run")
    }

    @Test func runsComparedWithTheSamePreviousRunAreByteIdentical() throws {
        let cli = try CLI()
        var arguments = try Conformance.install(in: cli)
        #expect(try cli.run(arguments).status == 0)
        let previous = "out/" + (try #require(cli.latestTarget()))
        let out = try #require(arguments.firstIndex(of: "out"))
        arguments += ["--previous", previous]
        arguments[out] = "one"
        #expect(try cli.run(arguments).status == 0)
        arguments[out] = "two"
        #expect(try cli.run(arguments).status == 0)
        for report in ["summary.md", "summary.json"] {
            let a = try Data(contentsOf: URL(fileURLWithPath: cli.path("one/latest/\(report)")))
            let b = try Data(contentsOf: URL(fileURLWithPath: cli.path("two/latest/\(report)")))
            #expect(a == b, "\(report) differs")
        }
    }
}
