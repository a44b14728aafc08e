import Testing

@testable import GrandfatherCore

/// SPEC §4, §6 and §8.13: one grant per (entitlement, source, transaction), and when it ends.
struct EntitlementTests {
    @Test("each grant names its source, its transaction and when it ends as of the run")
    func sourcesAndEnds() throws {
        let run = try AuditFixture.run(
            customers: AuditFixture.customers("c1", "c2", "c3") + "c4,ios,200\n",
            transactions: """
                transaction_id,customer_id,product_id,product_type,purchase_date,expires_date,ownership_type,renewal_state,grace_period_expires_date
                t1,c1,pro.lifetime,non_consumable,2024-05-01T00:00:00Z,,,,
                t2,c1,pro.monthly,auto_renewable,2024-05-15T00:00:00Z,2024-06-15T00:00:00Z,,subscribed,
                t3,c1,nav.1year,non_renewing,2024-05-10T12:00:00Z,,,,
                t4,c2,pro.monthly,auto_renewable,2024-04-25T00:00:00Z,2024-05-25T00:00:00Z,,in_grace_period,2024-06-08T00:00:00Z
                t5,c3,pass.30days,non_renewing,2024-05-10T12:00:00Z,,family_shared,,
                t6,c4,pro.lifetime,non_consumable,2024-05-01T00:00:00Z,,,,
                t7,c1,pro.monthly,auto_renewable,2024-04-15T00:00:00Z,2024-05-15T00:00:00Z,,expired,
                """)

        let c1 = try #require(run.result("c1")).entitlements
        #expect(c1.count == 3)
        let lifetime = try #require(c1.first { $0.transactionID == "t1" })
        #expect(lifetime.entitlement == "premium")
        #expect(lifetime.source == .purchase)
        #expect(lifetime.expiresDate == nil)
        let monthly = try #require(c1.first { $0.transactionID == "t2" })
        #expect(monthly.source == .purchase)
        #expect(monthly.expiresDate?.iso8601 == "2024-06-15T00:00:00Z")
        let navigation = try #require(c1.first { $0.transactionID == "t3" })
        #expect(navigation.entitlement == "navigation")
        // Purchase + 365 days of 86,400 s.
        #expect(navigation.expiresDate?.iso8601 == "2025-05-10T12:00:00Z")
        // An expired transaction grants nothing.
        #expect(!c1.contains { $0.transactionID == "t7" })

        let grace = try #require(run.result("c2")?.entitlements.first)
        #expect(
            grace
                == EntitlementGrant(
                    entitlement: "premium", source: .gracePeriod, transactionID: "t4",
                    expiresDate: Instant(seconds: 1_717_804_800)))
        #expect(grace.expiresDate?.iso8601 == "2024-06-08T00:00:00Z")

        let family = try #require(run.result("c3")?.entitlements.first)
        #expect(family.source == .familyShared)
        #expect(family.transactionID == "t5")
        #expect(family.expiresDate?.iso8601 == "2024-06-09T12:00:00Z")

        let c4 = try #require(run.result("c4")).entitlements
        #expect(c4.count == 2)
        #expect(
            c4.contains(
                EntitlementGrant(entitlement: "premium", source: .grandfathered, transactionID: nil, expiresDate: nil)))
        #expect(
            c4.contains(
                EntitlementGrant(entitlement: "premium", source: .purchase, transactionID: "t6", expiresDate: nil)))
    }

    @Test("a product granting several entitlements gives one grant per entitlement")
    func severalEntitlements() throws {
        var policy = PolicySpec()
        policy.products = [("bundle", ["premium", "navigation", "sync"], 30)]
        let run = try AuditFixture.run(
            customers: AuditFixture.customers("c1"),
            transactions: """
                transaction_id,customer_id,product_id,product_type,purchase_date
                t1,c1,bundle,non_renewing,2024-05-10T00:00:00Z
                """,
            policy: policy)
        #expect(
            run.grants("c1") == [Grant("navigation", .purchase), Grant("premium", .purchase), Grant("sync", .purchase)])
        let ends = try #require(run.result("c1")).entitlements.map { $0.expiresDate?.iso8601 }
        #expect(ends == Array(repeating: "2024-06-09T00:00:00Z", count: 3))
    }

    @Test("no one but a current transaction or the grandfathered rule grants anything")
    func nothingElseGrants() throws {
        let run = try AuditFixture.run(
            customers: AuditFixture.customers("lapsed", "new"),
            transactions: """
                transaction_id,customer_id,product_id,product_type,purchase_date,expires_date
                t1,lapsed,pro.monthly,auto_renewable,2024-04-01T00:00:00Z,2024-05-01T00:00:00Z
                t2,new,coins.100,consumable,2024-05-01T00:00:00Z,
                """)
        #expect(run.grants("lapsed") == [])
        #expect(run.grants("new") == [])
    }
}
