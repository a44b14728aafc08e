import Testing

@testable import GrandfatherCore

/// SPEC §6 and §7: the audit's totals and the data-quality threshold.
struct AuditTests {
    @Test(
        "the threshold is exceeded only when rejected / read is greater than max_rejected_fraction",
        arguments: [
            (4, 1, 0.25, false),  // exactly at the maximum
            (3, 1, 0.25, true),
            (5, 1, 0.25, false),
            (4, 0, 0.0, false),
            (4, 1, 0.0, true),
            (2, 2, 1.0, false),
        ])
    func threshold(rows: Int, rejected: Int, maximum: Double, exceeded: Bool) throws {
        var policy = PolicySpec()
        policy.maxRejectedFraction = maximum
        var text = "customer_id,platform\n"
        for index in 0..<rows {
            text += index < rejected ? "bad\(index),windows\n" : "c\(index),ios\n"
        }
        let run = try AuditFixture.run(customers: text, policy: policy)
        #expect(run.audit.rowsRead == rows)
        #expect(run.audit.rowsRejected == rejected)
        #expect(run.audit.rejectedFraction == Double(rejected) / Double(rows))
        #expect(run.audit.exceedsRejectionThreshold == exceeded)
    }

    @Test("totals add up over every input, and classes and flags are counted per customer")
    func totals() throws {
        let run = try AuditFixture.run(
            customers: """
                customer_id,platform,original_app_version
                c1,ios,200
                c2,ios,300
                c3,ios,
                c4,bad,1
                """,
            transactions: """
                transaction_id,customer_id,product_id,product_type,purchase_date
                t1,c2,pro.lifetime,non_consumable,2024-05-01T00:00:00Z
                t2,o1,coins.100,consumable,2024-05-01T00:00:00Z
                t3,o1,coins.100,consumable,never
                """)
        #expect(run.audit.rowsRead == 7)
        #expect(run.audit.rowsAccepted == 5)
        #expect(run.audit.rowsRejected == 2)
        let classes = Dictionary(uniqueKeysWithValues: run.audit.classCounts.map { ($0.0.rawValue, $0.1) })
        #expect(classes == ["grandfathered": 1, "subscriber": 1, "lapsed": 0, "new": 2, "excluded": 0])
        let flags = Dictionary(uniqueKeysWithValues: run.audit.flagCounts.map { ($0.0.code, $0.1) })
        #expect(flags.count == Flag.allCases.count)
        #expect(flags["missing_original_version"] == 2)  // c3 and the orphan o1
        #expect(flags["orphan_transactions"] == 1)
        #expect(flags["consumable_only"] == 1)
        #expect(flags["refunded"] == 0)
    }
}
