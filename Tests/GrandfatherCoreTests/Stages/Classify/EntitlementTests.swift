import Testing

@testable import GrandfatherCore
@testable import GrandfatherEngine

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

    /// Grants are built from positions in scratch space (`Classifier.withGrants`): they must
    /// come out each once and in `EntitlementGrant`'s order, which the snapshot's reader sorts
    /// by, whatever order the transactions were read in.
    @Test("grants come out each once, in EntitlementGrant order, for any transaction order")
    func grantsAreDistinctAndSorted() throws {
        let rows = [
            "t9,c1,pro.monthly,auto_renewable,2024-05-15T00:00:00Z,2024-06-15T00:00:00Z,,subscribed,",
            "t3,c1,nav.1year,non_renewing,2024-05-10T12:00:00Z,,,,",
            "t3,c1,nav.1year,non_renewing,2024-05-10T12:00:00Z,,,,",
            "t5,c1,pass.30days,non_renewing,2024-05-20T00:00:00Z,,family_shared,,",
            "t1,c1,pro.lifetime,non_consumable,2024-05-01T00:00:00Z,,,,",
            "t4,c1,pro.monthly,auto_renewable,2024-04-25T00:00:00Z,2024-05-25T00:00:00Z,,in_grace_period,2024-06-08T00:00:00Z",
            "t2,c1,coins.100,consumable,2024-05-02T00:00:00Z,,,,",
            "t6,c1,tip.jar,non_consumable,2024-05-03T00:00:00Z,,,,",
            // Two versions of one id (a conflicting duplicate): two grants, told apart by expiry.
            "t8,c1,pro.monthly,auto_renewable,2024-05-20T00:00:00Z,2024-06-20T00:00:00Z,,subscribed,",
            "t8,c1,pro.monthly,auto_renewable,2024-05-20T00:00:00Z,2024-06-25T00:00:00Z,,subscribed,",
        ]
        let header =
            "transaction_id,customer_id,product_id,product_type,purchase_date,expires_date,ownership_type,renewal_state,grace_period_expires_date"
        var expected: [EntitlementGrant]?
        for order in [
            rows, rows.reversed(),
            rows.enumerated().sorted { ($0.offset * 7) % 10 < ($1.offset * 7) % 10 }.map(\.element),
        ] {
            let run = try AuditFixture.run(
                customers: AuditFixture.customers("c1", version: "200"),
                transactions: ([header] + order).joined(separator: "\n") + "\n")
            let grants = try #require(run.result("c1")).entitlements
            #expect(zip(grants, grants.dropFirst()).allSatisfy { $0 < $1 }, "\(grants)")
            // navigation (t3 once), then premium: family_shared (t5), grace_period (t4),
            // grandfathered, purchase (t1, t8 twice, t9); the tip jar and the coins grant nothing.
            #expect(
                grants.map { "\($0.entitlement):\($0.source.rawValue):\($0.transactionID ?? "")" } == [
                    "navigation:purchase:t3", "premium:family_shared:t5", "premium:grace_period:t4",
                    "premium:grandfathered:", "premium:purchase:t1", "premium:purchase:t8", "premium:purchase:t8",
                    "premium:purchase:t9",
                ])
            if let expected { #expect(grants == expected) }
            expected = grants
        }
    }
}
