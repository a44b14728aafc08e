import Foundation
import Testing

/// `grandfather compare`: a dry run of the sample policy (by version) against the same
/// policy deciding by purchase date (`sample-data/policy-by-date.json`).
@Suite struct CompareTests {
    /// customer id → (class, entitlements cell) from an audit's customers.csv.
    private func classes(_ cli: CLI, _ out: String) throws -> [String: (String, String)] {
        let text = try String(contentsOfFile: cli.path(out + "/latest/customers.csv"), encoding: .utf8)
        var rows = text.split(separator: "\n").map { $0.split(separator: ",", omittingEmptySubsequences: false) }
        let header = rows.removeFirst().map(String.init)
        let id = try #require(header.firstIndex(of: "customer_id"))
        let customerClass = try #require(header.firstIndex(of: "class"))
        let entitlements = try #require(header.firstIndex(of: "entitlements"))
        return Dictionary(
            uniqueKeysWithValues: rows.map { (String($0[id]), (String($0[customerClass]), String($0[entitlements]))) })
    }

    @Test func listsExactlyTheCustomersTheTwoAuditsTreatDifferently() throws {
        let cli = try CLI()
        var audit = try SampleData.install(in: cli)
        try cli.copy(SampleData.folder.appendingPathComponent("policy-by-date.json"))
        let out = try #require(audit.firstIndex(of: "out"))
        audit[out] = "by-version"
        #expect(try cli.run(audit).status == 0)
        audit[out] = "by-date"
        audit[try #require(audit.firstIndex(of: "policy.json"))] = "policy-by-date.json"
        #expect(try cli.run(audit).status == 0)

        let compare =
            ["compare", "--policy", "policy.json", "--policy", "policy-by-date.json", "--as-of", SampleData.asOf]
            + SampleData.inputs
        let result = try cli.run(compare)
        #expect(result.status == 0, "\(result.stderr)")
        #expect(cli.latestTarget("reports/compare") != nil, "written to its own folder by default")

        let byVersion = try classes(cli, "by-version")
        let byDate = try classes(cli, "by-date")
        let expected = Set(byVersion.keys.filter { byVersion[$0]! != byDate[$0]! })
        let listed = try String(contentsOfFile: cli.path("reports/compare/latest/compare.csv"), encoding: .utf8)
            .split(separator: "\n").dropFirst().map { String($0.split(separator: ",")[0]) }
        #expect(Set(listed) == expected)
        #expect(listed.count == expected.count, "each customer once")
        // The README's two customers whose build and first purchase disagree are among them.
        #expect(expected.contains("c12-mia-grandfathered-date-after"))
        #expect(expected.contains("c13-nate-date-before-build-after"))

        // The matrix counts each class pair as the two audits do.
        let markdown = try String(contentsOfFile: cli.path("reports/compare/latest/compare.md"), encoding: .utf8)
        for from in ["grandfathered", "subscriber", "lapsed", "new", "excluded"] {
            let cells = ["grandfathered", "subscriber", "lapsed", "new", "excluded"].map { to in
                String(byVersion.keys.filter { byVersion[$0]!.0 == from && byDate[$0]!.0 == to }.count)
            }
            #expect(markdown.contains("| **\(from)** | " + cells.joined(separator: " | ") + " |"), "row \(from)")
        }
        #expect(markdown.contains("| customers treated differently | \(expected.count) |"))
        let html = try String(contentsOfFile: cli.path("reports/compare/latest/compare.html"), encoding: .utf8)
        #expect(html.contains("c12-mia-grandfathered-date-after"))
        #expect(!html.contains("<script"))
        #expect(cli.latestTarget("by-version") != nil, "the audits' folders are untouched")
    }

    @Test func refusesAFolderThatHoldsAuditRuns() throws {
        let cli = try CLI()
        let arguments = try SmallData.install(in: cli)
        #expect(try cli.run(arguments).status == 0)
        let before = try cli.contents(of: "out/latest")
        let result = try cli.run([
            "compare", "--policy", "policy.json", "--policy", "policy.json", "--out", "out", "customers.csv",
            "transactions.csv",
        ])
        #expect(result.status == 2)
        #expect(result.stderr.contains("out holds audit runs"))
        #expect(try cli.contents(of: "out/latest") == before)
    }

    @Test func needsExactlyTwoPolicies() throws {
        let cli = try CLI()
        _ = try SmallData.install(in: cli)
        let result = try cli.run(["compare", "--policy", "policy.json", "customers.csv"])
        #expect(result.status == 2)
        #expect(result.stderr.contains("exactly two policies"))
    }
}
