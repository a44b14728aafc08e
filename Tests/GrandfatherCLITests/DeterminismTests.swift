import Foundation
import Testing

/// Same inputs, policy and as-of give byte-identical reports and identical snapshot tables
/// (all but `runs`, which describes the run).
@Suite struct DeterminismTests {
    @Test func twoRunsAreByteIdentical() throws {
        let cli = try CLI()
        let arguments = try Conformance.install(in: cli)
        #expect(try cli.run(arguments).status == 0)
        let first = try #require(cli.latestTarget())
        #expect(try cli.run(arguments).status == 0)
        let second = try #require(cli.latestTarget())
        #expect(first != second)

        for report in ["summary.md", "summary.json", "customers.csv", "rejected.csv"] {
            let a = try Data(contentsOf: URL(fileURLWithPath: cli.path("out/\(first)/\(report)")))
            let b = try Data(contentsOf: URL(fileURLWithPath: cli.path("out/\(second)/\(report)")))
            #expect(a == b, "\(report) differs")
        }
        let a = try SnapshotDump(path: cli.path("out/\(first)/snapshot.sqlite"))
        let b = try SnapshotDump(path: cli.path("out/\(second)/snapshot.sqlite"))
        #expect(try a.tables() == b.tables())
        for table in try a.tables() where table != "runs" {
            #expect(try a.rows(table) == b.rows(table), "\(table) differs")
            #expect(try !a.rows(table).isEmpty || table == "rejected_rows")
        }
        #expect(try a.rows("runs") != b.rows("runs"), "runs describes each run")
    }
}
