import Foundation
import Testing

/// `grandfather validate` (a pre-flight that writes nothing) and `--log-format json`.
@Suite struct ValidateAndLogTests {
    private func validateArguments(_ cli: CLI) throws -> [String] {
        _ = try SmallData.install(in: cli)
        return ["validate", "--policy", "policy.json", "--as-of", SmallData.asOf, "customers.csv", "transactions.csv"]
    }

    @Test func validateReportsKindsAndAccountingAndWritesNothing() throws {
        let cli = try CLI()
        let result = try cli.run(try validateArguments(cli))
        #expect(result.status == 0, "\(result.stderr)")
        #expect(result.stdout.contains("customers.csv: customers, csv, 3 rows read, 3 accepted, 0 rejected"))
        #expect(result.stdout.contains("transactions.csv: transactions, csv, 3 rows read, 3 accepted, 0 rejected"))
        #expect(result.stdout.contains("all inputs: 6 rows read = 6 accepted + 0 rejected"))
        #expect(result.stdout.contains("3 customers (1 grandfathered, 1 subscriber, 1 lapsed"))
        let names = try FileManager.default.contentsOfDirectory(atPath: cli.folder.path)
        #expect(Set(names) == ["policy.json", "customers.csv", "transactions.csv"], "nothing written")
    }

    /// For a sales report, `validate` says what it counted and what it could not use.
    @Test func validateExplainsWhatASalesReportCounted() throws {
        let cli = try CLI()
        var arguments = try validateArguments(cli)
        for report in ["S_M_85012345_202412.txt", "S_M_85012345_202501.txt.gz"] {
            arguments.append(try cli.copy(SampleData.folder.appendingPathComponent("apple-sales/\(report)")))
        }
        let result = try cli.run(arguments)
        #expect(result.status == 0, "\(result.stderr)")
        let lines = result.stdout.split(separator: "\n").map(String.init)
        #expect(
            lines.contains {
                $0.hasSuffix(
                    "S_M_85012345_202412.txt: sales, apple-sales, 6 rows read, 6 accepted, 0 rejected (0 exact duplicates, 0 superseded, 0 sandbox)"
                )
            })
        #expect(
            lines.contains {
                $0.hasSuffix(
                    "S_M_85012345_202412.txt: counted 5 rows of app copies (5 paid, 1 at no price, 1 returned) "
                        + "from 2024-12-01 to 2024-12-31; could not use 1 update row")
            })
        #expect(
            lines.contains {
                $0.hasSuffix(
                    "202501.txt.gz: counted 2 rows of app copies (5 paid, 0 at no price, 0 returned) "
                        + "from 2025-01-01 to 2025-01-31; could not use 1 in-app purchase row, 1 re-download row")
            })
    }

    @Test func validateListsRejectionsAndExitsThreeOverTheThreshold() throws {
        let cli = try CLI()
        let arguments = try validateArguments(cli)
        let bad = "t4,b-subscriber,pro.monthly,bogus,2024-05-15T00:00:00Z,\nt5,b-subscriber,pro.monthly,,x,\n"
        try cli.write("transactions.csv", SmallData.transactions + bad)
        let result = try cli.run(arguments)
        #expect(result.status == 3)
        #expect(result.stdout.contains("rejected transactions.csv:5:4: unknown product_type 'bogus'"))
        #expect(result.stdout.contains("(EXCEEDED)"))
        #expect(result.stderr.split(separator: "\n").count == 1)
    }

    @Test func validateExitsTwoForABadPolicy() throws {
        let cli = try CLI()
        let arguments = try validateArguments(cli)
        try cli.write("policy.json", "{")
        let result = try cli.run(arguments)
        #expect(result.status == 2)
        #expect(result.stderr.hasPrefix("grandfather: policy.json:"))
    }

    /// Every stderr line of a JSON-logged run, parsed.
    private func events(_ stderr: String) throws -> [[String: Any]] {
        try stderr.split(separator: "\n").map { line in
            try #require(try JSONSerialization.jsonObject(with: Data(line.utf8)) as? [String: Any], "\(line)")
        }
    }

    @Test func jsonLogsOneObjectPerEventFromStartToResult() throws {
        let cli = try CLI()
        let arguments = try SmallData.install(in: cli)
        let result = try cli.run(arguments + ["--log-format", "json"])
        #expect(result.status == 0)
        let logged = try events(result.stderr)
        #expect(logged.compactMap { $0["event"] as? String } == ["start", "stage", "stage", "result"])
        let stage = try #require(logged.first { $0["stage"] as? String == "ingest+classify" })
        #expect(stage["rows_read"] as? Int == 6)
        #expect(stage["ingest_seconds"] is Double || stage["ingest_seconds"] is Int)
        let end = try #require(logged.last)
        #expect(end["exit_code"] as? Int == 0)
        #expect(end["grandfathered"] as? Int == 1)
        #expect(logged.allSatisfy { $0["time"] is String && $0["level"] is String && $0["message"] is String })
    }

    @Test func jsonLogsAFailureAsOneErrorEvent() throws {
        let cli = try CLI()
        let arguments = try SmallData.install(in: cli)
        let result = try cli.run(arguments + ["--log-format", "json", "missing.csv"])
        #expect(result.status == 2)
        let logged = try events(result.stderr)
        let last = try #require(logged.last)
        #expect(last["event"] as? String == "error")
        #expect(last["level"] as? String == "error")
        #expect(last["exit_code"] as? Int == 2)
        #expect((last["message"] as? String)?.contains("missing.csv") == true)
    }
}
