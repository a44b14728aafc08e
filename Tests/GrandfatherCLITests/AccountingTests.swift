import Foundation
import Testing

/// For every input file, rows read = accepted + rejected, printed in summary.md (SPEC §6).
@Suite struct AccountingTests {
    @Test func summaryShowsReadEqualsAcceptedPlusRejectedPerFile() throws {
        let cli = try CLI()
        let result = try cli.run(try Conformance.install(in: cli))
        #expect(result.status == 0)
        let summary = try String(contentsOfFile: cli.path("out/latest/summary.md"), encoding: .utf8)
        var seen: [String: [Int]] = [:]
        for line in summary.split(separator: "\n") where line.hasPrefix("| ") {
            let cells = line.split(separator: "|").map { $0.trimmingCharacters(in: .whitespaces) }
            guard ["customers.csv", "transactions.csv", "transactions.jsonl"].contains(cells.first ?? "") else {
                continue
            }
            let numbers = cells.dropFirst(3).compactMap { Int($0) }
            try #require(numbers.count >= 3)
            #expect(numbers[0] == numbers[1] + numbers[2], "\(line)")
            seen[cells[0]] = Array(numbers.prefix(3))
        }
        // The conformance README's expected figures.
        #expect(seen["customers.csv"] == [77, 75, 2])
        #expect(seen["transactions.csv"] == [51, 49, 2])
        #expect(seen["transactions.jsonl"] == [12, 10, 2])

        let json = try JSONSerialization.jsonObject(
            with: Data(contentsOf: URL(fileURLWithPath: cli.path("out/latest/summary.json"))))
        let quality = try #require((json as? [String: Any])?["data_quality"] as? [String: Any])
        #expect(quality["rows_read"] as? Int == 140)
        #expect(quality["rows_rejected"] as? Int == 6)
        let rejectedLines =
            try String(contentsOfFile: cli.path("out/latest/rejected.csv"), encoding: .utf8)
            .split(separator: "\n").count - 1
        #expect(rejectedLines == 6)
    }
}
