import Foundation
import Testing

@_spi(TestHooks) @testable import GrandfatherCore
@testable import GrandfatherEngine

/// Parsing a file in ranges at once gives exactly what one pass gives (issue: speed), on data
/// whose split points sit next to quoted line breaks and CRLF line ends.
@Suite struct ParallelIngestTests {
    /// Transactions with CRLF line ends, quoted fields holding commas, quotes and line breaks
    /// (CRLF and LF) in an unknown column, some rejected rows, exact and conflicting duplicates.
    static func transactionsCSV() -> String {
        var lines = [
            "transaction_id,customer_id,note,product_id,product_type,purchase_date,expires_date,price,renewal_state"
        ]
        for index in 0..<600 {
            let customer = "c\(index % 97)"
            var note = "plain"
            switch index % 5 {
            case 0: note = "\"line one\r\nline two, \"\"quoted\"\"\""
            case 1: note = "\"a\nb\nc\""
            case 2: note = "\"\r\n\""
            default: break
            }
            let day = 1 + index % 28
            let product = index % 7 == 0 ? "pro.lifetime" : "pro.monthly"
            let type = index % 7 == 0 ? "non_consumable" : "auto_renewable"
            var purchase = "2024-05-\(day < 10 ? "0" : "")\(day)T10:00:00Z"
            if index % 53 == 0 { purchase = "2024-05-01 10:00" }  // rejected: not a timestamp
            let expires = index % 3 == 0 ? "2024-07-01T00:00:00Z" : "2024-05-30T00:00:00Z"
            let state = index % 11 == 0 ? "in_billing_retry" : "expired"
            lines.append("t\(index),\(customer),\(note),\(product),\(type),\(purchase),\(expires),4.99,\(state)")
        }
        // An exact duplicate, written differently, and a conflicting one.
        lines.append(
            "t10,c10,\"dup\r\nnote\",pro.monthly,AUTO_RENEWABLE,2024-05-11T12:00:00+02:00,2024-05-30T00:00:00Z,4.990,expired"
        )
        lines.append("t11,c50,,pro.monthly,auto_renewable,2024-05-12T10:00:00Z,2024-07-30T00:00:00Z,4.99,expired")
        return lines.joined(separator: "\r\n") + "\r\n"
    }

    static let customersCSV =
        "customer_id,platform,original_app_version\n"
        + (0..<90).map { "c\($0),ios,\($0 % 2 == 0 ? "200" : "300")" }.joined(separator: "\n") + "\n"

    struct Outcome: Equatable {
        var verdicts: [String]
        var rejections: [String]
        var reports: [String]
    }

    static func run(parts: Int, folder: URL) throws -> Outcome {
        let policy = try PolicyLoader.parse(
            data: Data(
                """
                {"cutover": {"date": "2024-03-01T00:00:00Z", "versions": {"default": "245"}},
                 "grandfathered_entitlements": ["premium"], "max_rejected_fraction": 1}
                """.utf8), file: "policy.json")
        let asOf = try #require(try? TimestampParser(defaultZone: nil).parse("2024-06-01T00:00:00Z").get())
        var hooks = TestHooks()
        hooks.ingest = IngestOptions(parts: parts, minimumPartSize: 1)
        let audit = try Pipeline.audits(
            [AuditSettings(policy: policy, asOf: asOf)],
            inputs: [folder.appendingPathComponent("customers.csv").path, folder.appendingPathComponent("t.csv").path],
            hooks: hooks)[0]
        return Outcome(
            verdicts: audit.customers.map { result in
                let grants = result.entitlements.map {
                    "\($0.entitlement):\($0.source.rawValue):\($0.transactionID ?? "")"
                }
                return "\(result.customer.id) \(result.customerClass) \(result.flags.map(\.code)) \(grants)"
            },
            rejections: audit.rejections.map { "\($0.line) \($0.reason)" },
            reports: audit.inputs.map {
                "\($0.rowsRead) \($0.rowsAccepted) \($0.rowsRejected) \($0.exactDuplicates) \($0.sha256)"
            })
    }

    static func folder() throws -> URL {
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("parallel-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        try Data(transactionsCSV().utf8).write(to: folder.appendingPathComponent("t.csv"))
        try Data(customersCSV.utf8).write(to: folder.appendingPathComponent("customers.csv"))
        return folder
    }

    @Test func everyWayOfCuttingGivesTheOnePassResult() throws {
        let folder = try Self.folder()
        let onePass = try Self.run(parts: 1, folder: folder)
        #expect(onePass.rejections.count == 12)
        #expect(onePass.verdicts.contains { $0.contains("conflicting_duplicate") })
        for parts in 2...40 {
            #expect(try Self.run(parts: parts, folder: folder) == onePass, "cut into \(parts) parts")
        }
    }

    @Test func cutsLieAfterLineFeedsOutsideQuotesIncludingNextToQuotedBreaksAndCRLF() throws {
        let folder = try Self.folder()
        let path = folder.appendingPathComponent("t.csv").path
        let bytes = Array(try Data(contentsOf: URL(fileURLWithPath: path)))
        // Reference quote state: this data has no stray quotes, so quotes simply toggle.
        var insideQuotes = [Bool](repeating: false, count: bytes.count)
        var inside = false
        for (offset, byte) in bytes.enumerated() {
            if byte == UInt8(ascii: "\"") { inside.toggle() }
            insideQuotes[offset] = inside
        }
        var cutAfterCRLF = false
        var movedPastQuotedBreak = false
        let source = try ByteSource(path: path)
        for parts in 2...40 {
            let ranges = try RecordSplitter.ranges(for: source, layout: .csv, parts: parts, minimumPartSize: 1)
            #expect(ranges.count >= 2)
            #expect(ranges.first?.lowerBound == 0 && ranges.last?.upperBound == bytes.count)
            for (range, next) in zip(ranges, ranges.dropFirst()) {
                #expect(range.upperBound == next.lowerBound)
                let cut = next.lowerBound
                #expect(bytes[cut - 1] == 0x0A, "a cut follows a line feed")
                #expect(!insideQuotes[cut - 1], "a cut never lies inside quotes")
                if bytes[cut - 2] == 0x0D { cutAfterCRLF = true }
            }
            // Where the first line feed after a target was quoted, the cut had to move past it.
            for target in RecordSplitter.targets(start: 0, length: bytes.count, parts: parts) {
                if let naive = bytes[target...].firstIndex(of: 0x0A), insideQuotes[naive] {
                    movedPastQuotedBreak = true
                }
            }
        }
        #expect(cutAfterCRLF)
        #expect(movedPastQuotedBreak)
    }

    @Test func jsonLinesCutAnywhereGiveTheOnePassResult() throws {
        let folder = try Self.folder()
        var lines: [String] = []
        for index in 0..<300 {
            lines.append(
                "{\"transaction_id\": \"j\(index)\", \"customer_id\": \"c\(index % 41)\", \"product_id\": \"pro.monthly\", "
                    + "\"product_type\": \"auto_renewable\", \"purchase_date\": 1714557600000, "
                    + "\"expires_date\": \(index % 2 == 0 ? "1719792000000" : "1716000000000"), \"note\": \"a\\nb\"}")
            if index % 37 == 0 { lines.append("{\"transaction_id\": \"broken\"") }
            if index % 29 == 0 { lines.append("") }
        }
        try Data((lines.joined(separator: "\n") + "\n").utf8).write(to: folder.appendingPathComponent("t.csv"))
        let onePass = try Self.run(parts: 1, folder: folder)
        #expect(onePass.rejections.count == 9)
        for parts in 2...20 {
            #expect(try Self.run(parts: parts, folder: folder) == onePass, "cut into \(parts) parts")
        }
    }
}
