import Testing

@testable import GrandfatherCore

/// SPEC §8.7 and §8.23: repeated customers and transactions.
struct DuplicateTests {
    static let header = "transaction_id,customer_id,product_id,product_type,purchase_date,expires_date,price"

    @Test("an exact duplicate is accepted, counted, and counts as one transaction")
    func exactDuplicate() throws {
        let row = "t1,c1,pro.monthly,auto_renewable,2024-05-15T00:00:00Z,2024-06-15T00:00:00Z,4.99"
        let run = try AuditFixture.run(
            customers: AuditFixture.customers("c1"), transactions: [Self.header, row, row, row].joined(separator: "\n"))
        let report = try #require(run.input("transactions.csv"))
        #expect(report.rowsAccepted == 3)
        #expect(report.exactDuplicates == 2)
        #expect(run.audit.rejections.isEmpty)
        #expect(run.flags("c1") == [])
        #expect(run.result("c1")?.entitlements.count == 1)
    }

    @Test(
        "duplicates compare normalised content: instants, enum case, defaults, decimal prices, unknown columns ignored")
    func normalisedDuplicates() throws {
        let run = try AuditFixture.run([
            FixtureFile("customers.csv", AuditFixture.customers("c1")),
            FixtureFile(
                "transactions.csv",
                """
                transaction_id,customer_id,product_id,product_type,purchase_date,expires_date,ownership_type,environment,price,currency,note
                t1,c1,pro.monthly,auto_renewable,2024-05-15T00:00:00Z,2024-06-15T00:00:00Z,,,4.99,USD,first
                t1,c1,pro.monthly,AUTO_RENEWABLE,2024-05-15T02:00:00+02:00,1718409600000,purchased,Production,04.990,USD,second
                """),
            FixtureFile(
                "transactions.jsonl",
                """
                {"transaction_id": "t1", "customer_id": "c1", "product_id": "pro.monthly", "product_type": "auto_renewable", "purchase_date": 1715731200000, "expires_date": "2024-06-15T00:00:00.000Z", "price": 4.990, "currency": "USD", "extra": {"x": 1}}
                """),
        ])
        #expect(run.flags("c1") == [])
        #expect(run.customerClass("c1") == .subscriber)
        #expect(run.input("transactions.csv")?.exactDuplicates == 1)
        #expect(run.input("transactions.jsonl")?.exactDuplicates == 1)
        #expect(run.result("c1")?.entitlements.count == 1)
    }

    /// Classes, flags and grants of every customer, for comparing runs.
    static func outcome(_ run: FixtureRun) -> [String] {
        run.audit.customers.map { result in
            let grants = result.entitlements.map {
                "\($0.entitlement)/\($0.source.rawValue)/\($0.transactionID ?? "-")/\($0.expiresDate?.iso8601 ?? "-")"
            }
            return "\(result.customer.id) \(result.customerClass.rawValue) \(result.flags.map(\.code)) \(grants)"
        }
    }

    static let first = FixtureFile(
        "first.csv",
        """
        transaction_id,customer_id,product_id,product_type,purchase_date,expires_date,price
        t1,c1,pro.lifetime,non_consumable,2024-05-01T00:00:00Z,,4.99
        t2,c3,pro.monthly,auto_renewable,2024-04-01T00:00:00Z,2024-05-01T00:00:00Z,4.99
        t3,c4,coins.100,consumable,2024-05-01T00:00:00Z,,0.99
        t4,c6,pro.monthly,auto_renewable,2024-05-15T00:00:00Z,2024-06-15T00:00:00Z,4.99
        """)
    static let second = FixtureFile(
        "second.csv",
        """
        transaction_id,customer_id,product_id,product_type,purchase_date,expires_date,price
        t1,c2,pro.lifetime,non_consumable,2024-05-01T00:00:00Z,,4.99
        t2,c3,pro.monthly,auto_renewable,2024-05-01T00:00:00Z,2024-07-01T00:00:00Z,4.99
        t3,c5,coins.100,consumable,2024-05-01T00:00:00Z,,0.99
        t4,c6,pro.monthly,auto_renewable,2024-05-15T00:00:00Z,2024-06-15T00:00:00Z,5.99
        """)
    static let third = FixtureFile(
        "third.csv",
        """
        transaction_id,customer_id,product_id,product_type,purchase_date,expires_date,price
        t3,c4,coins.100,consumable,2024-05-01T00:00:00Z,,0.99
        t3,c7,coins.100,consumable,2024-05-01T00:00:00Z,,0.99
        """)

    @Test("a conflicting duplicate flags every customer named, uses every version, whatever the order")
    func conflicts() throws {
        let customers = FixtureFile("customers.csv", AuditFixture.customers("c1", "c2", "c3", "c4", "c5", "c6", "c7"))
        let run = try AuditFixture.run([customers, Self.first, Self.second, Self.third])
        // Both owners of t1 are flagged, and each version grants its owner.
        for id in ["c1", "c2"] {
            #expect(run.flags(id) == ["conflicting_duplicate"], "\(id)")
            #expect(run.customerClass(id) == .subscriber, "\(id)")
            #expect(run.grants(id) == [Grant("premium", .purchase)], "\(id)")
        }
        // One customer, two versions of t2: the current one counts.
        #expect(run.flags("c3") == ["conflicting_duplicate"])
        #expect(run.customerClass("c3") == .subscriber)
        // t3 in three versions (c4, c5, and c7 once each, c4's exactly twice).
        for id in ["c4", "c5", "c7"] {
            #expect(run.flags(id) == ["conflicting_duplicate", "consumable_only"], "\(id)")
            #expect(run.customerClass(id) == .new, "\(id)")
        }
        // A different price is different content.
        #expect(run.flags("c6") == ["conflicting_duplicate"])

        let expected = Self.outcome(run)
        for order in [
            [Self.second, Self.first, Self.third], [Self.third, Self.second, Self.first],
            [Self.first, Self.third, Self.second], [Self.third, Self.first, Self.second],
            [Self.second, Self.third, Self.first],
        ] {
            let reordered = try AuditFixture.run([customers] + order)
            #expect(Self.outcome(reordered) == expected, "\(order.map(\.name))")
        }
    }

    @Test("a repeated customer_id: the first row wins, later rows are rejected; identical repeats are duplicates")
    func repeatedCustomers() throws {
        let run = try AuditFixture.run(
            customers: """
                customer_id,platform,original_app_version
                c1,ios,200
                c1,ios,300
                c2,ios,300
                c2,ios,300
                c2,ios,300
                c1,macos,200
                """)
        #expect(run.ids == ["c1", "c2"])
        #expect(run.customerClass("c1") == .grandfathered)
        #expect(run.result("c1")?.customer.platform == .ios)
        #expect(run.rejectedLines("customers.csv") == [3, 7])
        let report = try #require(run.input("customers.csv"))
        #expect(report.rowsRead == 6)
        #expect(report.rowsAccepted == 4)
        #expect(report.exactDuplicates == 2)
    }

    @Test("across files, the first in command-line order wins")
    func repeatedAcrossFiles() throws {
        let old = FixtureFile("old.csv", AuditFixture.customers("c1", version: "200"))
        let upgraded = FixtureFile("upgraded.csv", AuditFixture.customers("c1", version: "300"))
        let oldFirst = try AuditFixture.run([old, upgraded])
        #expect(oldFirst.customerClass("c1") == .grandfathered)
        #expect(oldFirst.rejectedLines("upgraded.csv") == [2])
        #expect(oldFirst.rejections("old.csv").isEmpty)
        let upgradedFirst = try AuditFixture.run([upgraded, old])
        #expect(upgradedFirst.customerClass("c1") == .new)
        #expect(upgradedFirst.rejectedLines("old.csv") == [2])
    }

    @Test("customer ids are compared as code points: NFC and NFD spellings are different customers")
    func normalisationDistinctIDs() throws {
        let composed = "caf\u{E9}"
        let decomposed = "cafe\u{301}"
        let run = try AuditFixture.run(
            customers: "customer_id,platform,original_app_version\n\(composed),ios,200\n\(decomposed),ios,300\n")
        #expect(run.audit.rejections.isEmpty)
        // Code-point order: "e" (U+0065) comes before "é" (U+00E9).
        #expect(
            run.ids.map { Array($0.unicodeScalars) } == [
                Array(decomposed.unicodeScalars), Array(composed.unicodeScalars),
            ])
    }
}
