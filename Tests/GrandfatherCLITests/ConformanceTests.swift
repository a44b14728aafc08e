import Foundation
import Testing

/// The shared conformance set: results an independent implementation of SPEC expects for
/// every customer. Expectations are never edited; a customer where we are convinced the
/// expectation is wrong goes into `knownDisagreements` with the reason.
@Suite struct ConformanceTests {
    /// customer_id → why Grandfather deliberately differs. Empty: we agree on every customer.
    static let knownDisagreements: [String: String] = [:]

    @Test(arguments: [("policy.json", "expected.jsonl"), ("policy-noplatform.json", "expected-noplatform.jsonl")])
    func everyCustomerAgrees(policy: String, expected: String) throws {
        let cli = try CLI()
        let result = try cli.run(try Conformance.install(in: cli, policy: policy))
        #expect(result.status == 0, "stderr: \(result.stderr)")

        let got = try SnapshotDump(path: cli.path("out/latest/snapshot.sqlite")).verdicts()
        let want = try Self.expectations(try Conformance.file(expected))
        #expect(Set(got.keys) == Set(want.keys))
        for (customer, verdict) in want.sorted(by: { $0.key < $1.key }) {
            if let reason = Self.knownDisagreements[customer] {
                withKnownIssue(Comment(rawValue: reason)) { #expect(got[customer] == verdict) }
                continue
            }
            #expect(got[customer] == verdict, "\(customer)")
        }
    }

    @Test func rejectedRowsMatchByFileAndLine() throws {
        let cli = try CLI()
        let result = try cli.run(try Conformance.install(in: cli))
        #expect(result.status == 0)
        let rejected = try String(contentsOfFile: cli.path("out/latest/rejected.csv"), encoding: .utf8)
        let got = rejected.split(separator: "\n").dropFirst().map { line in
            line.split(separator: ",", maxSplits: 2).prefix(2).joined(separator: "\t")
        }
        let tsv = try String(contentsOf: try Conformance.file("expected-rejected.tsv"), encoding: .utf8)
        let want = tsv.split(separator: "\n").dropFirst().map { line in
            line.split(separator: "\t", maxSplits: 2).prefix(2).joined(separator: "\t")
        }
        #expect(got == want)

        // The causes, in our own words.
        #expect(rejected.contains("unknown platform 'windows'"))
        #expect(rejected.contains("duplicate customer_id 'c73-repeated-customer-row'"))
        #expect(rejected.contains("timestamp without time zone"))
        #expect(rejected.contains("16 fields, header has 15"))
        #expect(rejected.contains("missing required field product_type"))
        #expect(rejected.contains("bad price '4,99'"))
    }

    static func expectations(_ url: URL) throws -> [String: Verdict] {
        struct Line: Decodable {
            var customerID: String
            var `class`: String
            var flags: [String]
            var entitlements: [[String]]

            enum CodingKeys: String, CodingKey {
                case customerID = "customer_id"
                case `class`, flags, entitlements
            }
        }
        var result: [String: Verdict] = [:]
        let text = try String(contentsOf: url, encoding: .utf8)
        for line in text.split(separator: "\n") where !line.trimmingCharacters(in: .whitespaces).isEmpty {
            let decoded = try JSONDecoder().decode(Line.self, from: Data(line.utf8))
            result[decoded.customerID] = Verdict(
                customerClass: decoded.class, flags: Set(decoded.flags),
                entitlements: Set(decoded.entitlements.map { $0.joined(separator: ":") }))
        }
        return result
    }
}
