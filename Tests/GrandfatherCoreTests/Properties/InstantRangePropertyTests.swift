import Foundation
import PropertyBased
import Testing

@testable import GrandfatherCore
@testable import GrandfatherEngine

/// SPEC §9, "Instants": random epoch milliseconds over the whole 64-bit range, in every
/// timestamp field of both kinds, with a cutover and an as-of anywhere in years 0001–9999,
/// never trap (the tests would crash), are rejected exactly when outside the supported range,
/// and never make the run write an instant it cannot read back: every customer of the written
/// run is explained from its snapshot, and every instant in customers.csv parses.
@Suite struct InstantRangePropertyTests {
    /// An epoch-millisecond value from a draw: anywhere in `Int64`, anywhere in the supported
    /// range, at one of its edges, or absent.
    static func millisecond(kind: Int, raw: Int64) -> Int64? {
        switch kind {
        case 0, 1: return raw
        case 2, 3, 4:
            let width = UInt64(supportedMilliseconds.upperBound - supportedMilliseconds.lowerBound) + 1
            return supportedMilliseconds.lowerBound + Int64(UInt64(bitPattern: raw) % width)
        case 5, 6: return edges[Int(UInt64(bitPattern: raw) % UInt64(edges.count))]
        default: return nil
        }
    }

    static let supportedMilliseconds: ClosedRange<Int64> = -62_135_596_800_000...253_402_300_799_999
    static let edges: [Int64] = [
        -62_135_596_800_001, -62_135_596_800_000, 253_402_300_799_999, 253_402_300_800_000, -9_223_372_036_854_775,
        9_223_372_036_854_775, .min, .max, 0,
    ]

    @Test func instantsAnywhereNeverTrapAndAlwaysReadBack() async throws {
        // The six timestamp fields of a customer and transactions, then the cutover and as-of.
        await propertyCheck(
            count: 60, input: Gen.int(in: 0...7).array(of: 6), Gen.int64(in: .min ... .max).array(of: 6),
            Gen.int64(in: Self.supportedMilliseconds), Gen.int64(in: Self.supportedMilliseconds)
        ) { kinds, raws, cutover, asOf in
            let values = zip(kinds, raws).map { Self.millisecond(kind: $0, raw: $1) }
            func text(_ value: Int64?) -> String { value.map(String.init) ?? "" }
            let customers =
                "customer_id,platform,original_app_version,original_purchase_date,preorder_date\n"
                + "c1,ios,200,\(text(values[0])),\(text(values[1]))\nc2,ios,300,,\n"
            let transactions =
                "transaction_id,customer_id,product_id,product_type,purchase_date,expires_date,revocation_date,"
                + "grace_period_expires_date,renewal_state\n"
                + "t1,c2,pro,auto_renewable,\(text(values[2] ?? 0)),\(text(values[3])),\(text(values[4])),"
                + "\(text(values[5])),in_grace_period\n"
                + "t2,c2,year,non_renewing,\(text(values[2] ?? 0)),,,,\n"
                + "t3,c3,life,non_consumable,\(text(values[3] ?? 0)),,,,\n"
            var policy = PolicySpec()
            policy.cutoverDate = String(cutover)
            let run = try AuditFixture.run(
                [FixtureFile("customers.csv", customers), FixtureFile("transactions.csv", transactions)],
                policy: policy, asOf: String(asOf))
            let rejected = run.audit.rejections.count
            let outside = values.enumerated().filter { index, value in
                guard let value = index == 2 ? value ?? 0 : value else { return false }
                return !Self.supportedMilliseconds.contains(value)
            }
            #expect((rejected == 0) == outside.isEmpty, "\(run.audit.rejections.map(\.reason))")
            for rejection in run.audit.rejections {
                #expect(rejection.reason.contains("is outside 0001-01-01T00:00:00Z"), "\(rejection.reason)")
            }
            try Self.writeAndReadBack(run.audit)
        }
    }

    /// Writes the audit as a run and reads every customer back through `explain`'s reader,
    /// and every instant of customers.csv through the timestamp parser.
    static func writeAndReadBack(_ audit: Audit) throws {
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("grandfather-range-\(UUID())").path
        defer { try? FileManager.default.removeItem(atPath: folder) }
        let lock = try RunLock.acquire(directory: folder, startedAt: "2024-01-01T00:00:00Z")
        let outcome = try RunWriter(directory: folder).write(
            audit, run: RunRecord(runID: "20240101T000000.000Z-1", startedAt: "2024-01-01T00:00:00Z"), processID: 1,
            lock: lock)
        for result in audit.customers {
            let explanation = try Explanation.read(
                customerID: result.customer.id, snapshot: outcome.runFolder + "/snapshot.sqlite")
            #expect(!ExplanationText.render(explanation, snapshot: "s").isEmpty)
        }
        let csv = try String(contentsOfFile: outcome.runFolder + "/customers.csv", encoding: .utf8)
        let parser = TimestampParser(defaultZone: nil)
        for cell in csv.split(whereSeparator: { $0 == "," || $0 == "\n" || $0 == ";" })
        where cell.count >= 20 && cell.dropFirst(4).first == "-" {
            #expect((try? parser.parse(String(cell)).get()) != nil, "\(cell) does not read back")
        }
    }
}
