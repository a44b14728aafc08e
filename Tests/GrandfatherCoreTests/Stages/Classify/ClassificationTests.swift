import Testing

@testable import GrandfatherCore

/// SPEC §4 and §8.10–8.13: the four classes, as of 2024-06-01T00:00:00Z with the cutover at
/// 2024-03-01T00:00:00Z (iOS 245, macOS and default 2.0).
struct ClassificationTests {
    /// Transaction columns every case of this file can fill.
    static let header =
        "transaction_id,customer_id,product_id,product_type,purchase_date,expires_date,revocation_date,"
        + "renewal_state,grace_period_expires_date"

    @Test(
        "grandfathered by the policy's basis; an absent answer is a no",
        arguments: [
            ("version", "200", "", true),
            ("version", "245", "", false),
            ("version", "0244.9", "", true),
            ("version", "300", "2024-02-01T00:00:00Z", false),
            ("version", "", "2024-02-01T00:00:00Z", false),
            ("version", "2.0b1", "2024-02-01T00:00:00Z", false),
            ("date", "300", "2024-02-01T00:00:00Z", true),
            ("date", "200", "2024-04-01T00:00:00Z", false),
            ("date", "200", "", false),
            ("date", "200", "2024-03-01T00:00:00Z", false),
            ("date", "300", "2024-02-29T23:59:59.999Z", true),
            ("date", "300", "2024-03-01T08:59:59+09:00", true),
            ("either", "200", "2024-04-01T00:00:00Z", true),
            ("either", "300", "2024-02-01T00:00:00Z", true),
            ("either", "300", "2024-04-01T00:00:00Z", false),
            ("either", "", "", false),
            ("both", "200", "2024-02-01T00:00:00Z", true),
            ("both", "200", "2024-04-01T00:00:00Z", false),
            ("both", "300", "2024-02-01T00:00:00Z", false),
            ("both", "200", "", false),
            ("both", "2.0b1", "2024-02-01T00:00:00Z", false),
        ])
    func basis(basis: String, version: String, purchased: String, grandfathered: Bool) throws {
        var policy = PolicySpec()
        policy.basis = basis
        let run = try AuditFixture.run(
            customers:
                "customer_id,platform,original_app_version,original_purchase_date\nc1,ios,\(version),\(purchased)\n",
            policy: policy)
        #expect(run.customerClass("c1") == (grandfathered ? .grandfathered : .new))
        #expect(run.grants("c1") == (grandfathered ? [Grant("premium", .grandfathered)] : []))
    }

    @Test("a grandfathered customer keeps every grandfathered entitlement, with no transaction and no end")
    func grandfatheredGrants() throws {
        var policy = PolicySpec()
        policy.grandfatheredEntitlements = ["sync", "premium"]
        let run = try AuditFixture.run(customers: AuditFixture.customers("c1", version: "1.0"), policy: policy)
        let result = try #require(run.result("c1"))
        #expect(result.customerClass == .grandfathered)
        #expect(run.grants("c1") == [Grant("premium", .grandfathered), Grant("sync", .grandfathered)])
        #expect(result.entitlements.allSatisfy { $0.transactionID == nil && $0.expiresDate == nil })
        #expect(run.flags("c1") == [])
    }

    @Test(
        "current or not, strictly after as-of, per transaction",
        arguments: [
            // A non-consumable not revoked.
            ("t1,c1,pro.lifetime,non_consumable,2024-05-01T00:00:00Z,,,,", CustomerClass.subscriber, "purchase"),
            // Auto-renewable: expiry after as-of; exactly at as-of is not current.
            (
                "t1,c1,pro.monthly,auto_renewable,2024-05-15T00:00:00Z,2024-06-15T00:00:00Z,,subscribed,", .subscriber,
                "purchase"
            ),
            ("t1,c1,pro.monthly,auto_renewable,2024-05-01T00:00:00Z,2024-06-01T00:00:00Z,,,", .lapsed, ""),
            (
                "t1,c1,pro.monthly,auto_renewable,2024-05-01T00:00:00Z,2024-06-01T00:00:00.001Z,,,", .subscriber,
                "purchase"
            ),
            ("t1,c1,pro.monthly,auto_renewable,2024-04-01T00:00:00Z,2024-05-01T00:00:00Z,,expired,", .lapsed, ""),
            // Grace period: running, ended, ending exactly at as-of, or not in grace at all.
            (
                "t1,c1,pro.monthly,auto_renewable,2024-04-25T00:00:00Z,2024-05-25T00:00:00Z,,in_grace_period,2024-06-08T00:00:00Z",
                .subscriber, "grace_period"
            ),
            (
                "t1,c1,pro.monthly,auto_renewable,2024-04-15T00:00:00Z,2024-05-15T00:00:00Z,,in_grace_period,2024-05-31T00:00:00Z",
                .lapsed, ""
            ),
            (
                "t1,c1,pro.monthly,auto_renewable,2024-04-17T00:00:00Z,2024-05-17T00:00:00Z,,in_grace_period,2024-06-01T00:00:00Z",
                .lapsed, ""
            ),
            (
                "t1,c1,pro.monthly,auto_renewable,2024-04-25T00:00:00Z,2024-05-25T00:00:00Z,,in_billing_retry,2024-06-08T00:00:00Z",
                .lapsed, ""
            ),
            (
                "t1,c1,pro.monthly,auto_renewable,2024-04-25T00:00:00Z,2024-05-25T00:00:00Z,,subscribed,2024-06-08T00:00:00Z",
                .lapsed, ""
            ),
            (
                "t1,c1,pro.monthly,auto_renewable,2024-04-25T00:00:00Z,2024-05-25T00:00:00Z,,IN_GRACE_PERIOD,2024-06-08T00:00:00Z",
                .subscriber, "grace_period"
            ),
            // Without expires_date, only the grace condition can make it current.
            ("t1,c1,pro.monthly,auto_renewable,2024-05-01T00:00:00Z,,,subscribed,", .lapsed, ""),
            (
                "t1,c1,pro.monthly,auto_renewable,2024-05-01T00:00:00Z,,,in_grace_period,2024-06-08T00:00:00Z",
                .subscriber, "grace_period"
            ),
            // Expiry after as-of wins over a grace date: current, but not only through grace.
            (
                "t1,c1,pro.monthly,auto_renewable,2024-05-15T00:00:00Z,2024-06-15T00:00:00Z,,in_grace_period,2024-06-20T00:00:00Z",
                .subscriber, "purchase"
            ),
            // Non-renewing: purchase + term (pass.30days: 30 days; nav.1year: 365; pass.flex: the policy's 365).
            ("t1,c1,pass.30days,non_renewing,2024-05-10T00:00:00Z,,,,", .subscriber, "purchase"),
            ("t1,c1,pass.30days,non_renewing,2024-05-02T00:00:00Z,,,,", .lapsed, ""),
            ("t1,c1,pass.30days,non_renewing,2024-05-02T00:00:01Z,,,,", .subscriber, "purchase"),
            ("t1,c1,pass.flex,non_renewing,2023-06-02T00:00:00Z,,,,", .lapsed, ""),
            ("t1,c1,pass.flex,non_renewing,2023-06-03T00:00:00Z,,,,", .subscriber, "purchase"),
            // Revoked: a revocation date (whenever it lies) or renewal_state revoked.
            ("t1,c1,pro.lifetime,non_consumable,2024-05-01T00:00:00Z,,2024-05-02T00:00:00Z,,", .lapsed, ""),
            ("t1,c1,pro.lifetime,non_consumable,2024-05-01T00:00:00Z,,2024-07-01T00:00:00Z,,", .lapsed, ""),
            ("t1,c1,pro.monthly,auto_renewable,2024-05-15T00:00:00Z,2024-06-15T00:00:00Z,,revoked,", .lapsed, ""),
            (
                "t1,c1,pro.monthly,auto_renewable,2024-05-15T00:00:00Z,2024-06-15T00:00:00Z,2024-05-20T00:00:00Z,subscribed,",
                .lapsed, ""
            ),
            (
                "t1,c1,pro.monthly,auto_renewable,2024-04-25T00:00:00Z,2024-05-25T00:00:00Z,2024-05-26T00:00:00Z,in_grace_period,2024-06-08T00:00:00Z",
                .lapsed, ""
            ),
            ("t1,c1,pass.30days,non_renewing,2024-05-10T00:00:00Z,,2024-05-11T00:00:00Z,,", .lapsed, ""),
            // Consumables never make a customer current or lapsed.
            ("t1,c1,coins.100,consumable,2024-05-01T00:00:00Z,,,,", .new, ""),
            ("t1,c1,coins.100,consumable,2024-05-01T00:00:00Z,2024-07-01T00:00:00Z,,,", .new, ""),
            ("t1,c1,legacy.coins,consumable,2024-05-01T00:00:00Z,,,,", .new, ""),
            // A future purchase is not filtered out.
            ("t1,c1,pro.lifetime,non_consumable,2024-07-01T00:00:00Z,,,,", .subscriber, "purchase"),
        ])
    func current(row: String, expected: CustomerClass, source: String) throws {
        let run = try AuditFixture.run(
            customers: AuditFixture.customers("c1"), transactions: Self.header + "\n" + row + "\n")
        #expect(run.customerClass("c1") == expected)
        let grants = source.isEmpty ? [] : [Grant("premium", try #require(EntitlementSource(rawValue: source)))]
        #expect(run.grants("c1") == grants)
    }

    @Test("a term comes from the product, else non_renewing_term_days; a term day is 86,400 s")
    func terms() throws {
        var policy = PolicySpec()
        policy.nonRenewingTermDays = 180
        let run = try AuditFixture.run(
            customers: AuditFixture.customers("flex-ends", "flex-runs", "nav", "nav-ended", "unknown", "unknown-ends"),
            transactions: """
                transaction_id,customer_id,product_id,product_type,purchase_date
                t1,flex-ends,pass.flex,non_renewing,2023-12-04T00:00:00Z
                t2,flex-runs,pass.flex,non_renewing,2023-12-04T00:00:00.000001Z
                t3,nav,nav.1year,non_renewing,2023-07-01T00:00:00Z
                t4,nav-ended,nav.1year,non_renewing,2023-06-02T00:00:00Z
                t5,unknown,legacy.pass,non_renewing,2023-12-05T00:00:00Z
                t6,unknown-ends,legacy.pass,non_renewing,2023-12-03T00:00:00Z
                """,
            policy: policy)
        // 2023-12-04 + 180 days is 2024-06-01, the as-of: not current.
        #expect(run.customerClass("flex-ends") == .lapsed)
        #expect(run.customerClass("flex-runs") == .subscriber)
        // nav.1year's own 365 days beat the policy's 180.
        #expect(run.customerClass("nav") == .subscriber)
        #expect(run.grants("nav") == [Grant("navigation", .purchase)])
        #expect(run.customerClass("nav-ended") == .lapsed)
        // A product missing from products: the policy's term and the grandfathered entitlements.
        #expect(run.customerClass("unknown") == .subscriber)
        #expect(run.grants("unknown") == [Grant("premium", .purchase)])
        #expect(run.customerClass("unknown-ends") == .lapsed)
    }

    @Test("a policy without non_renewing_term_days uses 365 days")
    func defaultTerm() throws {
        var policy = PolicySpec()
        policy.products = []
        let run = try AuditFixture.run(
            customers: AuditFixture.customers("ends", "runs"),
            transactions: """
                transaction_id,customer_id,product_id,product_type,purchase_date
                t1,ends,pass,non_renewing,2023-06-02T00:00:00Z
                t2,runs,pass,non_renewing,2023-06-02T00:00:01Z
                """,
            policy: policy)
        #expect(run.customerClass("ends") == .lapsed)
        #expect(run.customerClass("runs") == .subscriber)
    }

    @Test("lapsed needs an entitlement-bearing transaction; consumables alone leave a customer new")
    func lapsedOrNew() throws {
        let run = try AuditFixture.run(
            customers: AuditFixture.customers("nothing", "coins", "coins-and-expired", "expired-nonrenewing")
                + "old,ios,200\n",
            transactions: """
                transaction_id,customer_id,product_id,product_type,purchase_date,expires_date
                t1,coins,coins.100,consumable,2024-05-01T00:00:00Z,
                t2,coins,coins.100,consumable,2024-05-02T00:00:00Z,
                t3,coins-and-expired,coins.100,consumable,2024-05-01T00:00:00Z,
                t4,coins-and-expired,pro.monthly,auto_renewable,2024-04-01T00:00:00Z,2024-05-01T00:00:00Z
                t5,expired-nonrenewing,pass.30days,non_renewing,2024-01-01T00:00:00Z,
                t6,old,coins.100,consumable,2024-05-01T00:00:00Z,
                """)
        #expect(run.customerClass("nothing") == .new)
        #expect(run.flags("nothing") == [])
        #expect(run.customerClass("coins") == .new)
        #expect(run.flags("coins") == ["consumable_only"])
        #expect(run.customerClass("coins-and-expired") == .lapsed)
        #expect(run.flags("coins-and-expired") == [])
        #expect(run.customerClass("expired-nonrenewing") == .lapsed)
        // consumable_only holds in any class.
        #expect(run.customerClass("old") == .grandfathered)
        #expect(run.flags("old") == ["consumable_only"])
    }

    @Test("one current transaction among expired ones makes a subscriber")
    func oneCurrentIsEnough() throws {
        let run = try AuditFixture.run(
            customers: AuditFixture.customers("c1"),
            transactions: """
                transaction_id,customer_id,product_id,product_type,purchase_date,expires_date
                t1,c1,pro.monthly,auto_renewable,2024-03-01T00:00:00Z,2024-04-01T00:00:00Z
                t2,c1,pro.monthly,auto_renewable,2024-04-01T00:00:00Z,2024-05-01T00:00:00Z
                t3,c1,nav.1year,non_renewing,2024-01-01T00:00:00Z,
                """)
        #expect(run.customerClass("c1") == .subscriber)
        #expect(run.grants("c1") == [Grant("navigation", .purchase)])
    }

    @Test("a current product that grants nothing still makes a subscriber")
    func currentWithoutEntitlements() throws {
        let run = try AuditFixture.run(
            customers: AuditFixture.customers("c1"),
            transactions: """
                transaction_id,customer_id,product_id,product_type,purchase_date
                t1,c1,tip.jar,non_consumable,2024-05-01T00:00:00Z
                """)
        #expect(run.customerClass("c1") == .subscriber)
        #expect(run.grants("c1") == [])
    }

    @Test("a product missing from products grants grandfathered_entitlements, whatever its type")
    func unknownProduct() throws {
        var policy = PolicySpec()
        policy.grandfatheredEntitlements = ["premium", "export"]
        let run = try AuditFixture.run(
            customers: AuditFixture.customers("lifetime", "monthly"),
            transactions: """
                transaction_id,customer_id,product_id,product_type,purchase_date,expires_date
                t1,lifetime,legacy.unlock,non_consumable,2024-05-01T00:00:00Z,
                t2,monthly,legacy.monthly,auto_renewable,2024-05-15T00:00:00Z,2024-06-15T00:00:00Z
                """,
            policy: policy)
        #expect(run.customerClass("lifetime") == .subscriber)
        #expect(run.grants("lifetime") == [Grant("export", .purchase), Grant("premium", .purchase)])
        #expect(run.grants("monthly") == [Grant("export", .purchase), Grant("premium", .purchase)])
    }

    @Test("customers come out in code-point order; flags and entitlements sorted")
    func order() throws {
        let run = try AuditFixture.run(
            customers: """
                customer_id,platform,original_app_version,original_purchase_date,preorder_date
                b,ios,200,,
                é,ios,200,,
                B,ios,200,,
                z,ios,200,,
                _,ios,200,,
                a,ios,200,,
                9,ios,200,,
                10,ios,,2024-03-01T12:00:00Z,2024-01-01T00:00:00Z
                """,
            transactions: """
                transaction_id,customer_id,product_id,product_type,purchase_date,expires_date
                t1,b,pro.monthly,auto_renewable,2024-05-15T00:00:00Z,2024-06-15T00:00:00Z
                t2,b,nav.1year,non_renewing,2024-05-01T00:00:00Z,
                t3,b,pro.lifetime,non_consumable,2024-05-01T00:00:00Z,
                """)
        #expect(run.ids == ["10", "9", "B", "_", "a", "b", "z", "é"])
        #expect(
            run.grants("b") == [
                Grant("navigation", .purchase), Grant("premium", .grandfathered), Grant("premium", .purchase),
                Grant("premium", .purchase),
            ])
        #expect(run.flags("b") == ["grandfathered_and_subscribed"])
        #expect(run.flags("10") == ["bought_just_after_cutover", "missing_original_version", "preordered"])
        for result in run.audit.customers {
            #expect(result.flags.map(\.code) == result.flags.map(\.code).sorted())
        }
    }
}
