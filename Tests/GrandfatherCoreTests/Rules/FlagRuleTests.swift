import Testing

@testable import GrandfatherCore

/// SPEC §5 and §8.15–8.24: one small case, or a table, per flag. As of 2024-06-01T00:00:00Z,
/// cutover 2024-03-01T00:00:00Z, iOS cutover version 245.
struct FlagRuleTests {
    // MARK: - Edge windows (§8.15)

    @Test(
        "bought_just_before/after_cutover at the window edges",
        arguments: [
            ("300", "2024-02-28T23:59:59Z", [String]()),
            ("300", "2024-02-29T00:00:00Z", ["bought_just_before_cutover"]),
            ("300", "2024-02-29T23:59:59.999999Z", ["bought_just_before_cutover"]),
            ("300", "2024-03-01T00:00:00Z", ["bought_just_after_cutover"]),
            ("300", "2024-03-01T09:00:00+09:00", ["bought_just_after_cutover"]),
            ("300", "2024-03-01T23:59:59.999Z", ["bought_just_after_cutover"]),
            ("300", "2024-03-02T00:00:00Z", []),
            // Before fires whatever the class; after only when not grandfathered.
            ("200", "2024-02-29T12:00:00Z", ["bought_just_before_cutover"]),
            ("200", "2024-03-01T12:00:00Z", []),
        ])
    func edgeWindows(version: String, purchased: String, expected: [String]) throws {
        let run = try AuditFixture.run(
            customers:
                "customer_id,platform,original_app_version,original_purchase_date\nc1,ios,\(version),\(purchased)\n")
        #expect(run.flags("c1").filter { $0.hasPrefix("bought_just_") } == expected)
    }

    @Test("edge_window_hours sets the window's width")
    func wideWindow() throws {
        var policy = PolicySpec()
        policy.edgeWindowHours = 48
        let run = try AuditFixture.run(
            customers: """
                customer_id,platform,original_app_version,original_purchase_date
                early,ios,300,2024-02-28T00:00:00Z
                too-early,ios,300,2024-02-27T23:59:59Z
                late,ios,300,2024-03-02T23:59:59Z
                too-late,ios,300,2024-03-03T00:00:00Z
                """,
            policy: policy)
        #expect(run.flags("early").contains("bought_just_before_cutover"))
        #expect(!run.flags("too-early").contains("bought_just_before_cutover"))
        #expect(run.flags("late") == ["bought_just_after_cutover"])
        #expect(run.flags("too-late") == [])
    }

    @Test("the day before depends on the time zone: a zone-less cutover and purchase in default_time_zone")
    func windowsInTimeZone() throws {
        var policy = PolicySpec()
        policy.cutoverDate = "2024-03-01T00:00:00"
        policy.defaultTimeZone = "America/Los_Angeles"
        policy.basis = "date"
        let run = try AuditFixture.run(
            customers: """
                customer_id,platform,original_app_version,original_purchase_date
                evening,ios,300,2024-02-29T23:30:00
                utc-midnight,ios,300,2024-03-01T00:30:00Z
                morning,ios,300,2024-03-01T00:30:00
                """,
            policy: policy)
        // The cutover is midnight in Los Angeles, 08:00Z: 00:30Z is still the day before there.
        #expect(run.customerClass("evening") == .grandfathered)
        #expect(run.flags("evening").contains("bought_just_before_cutover"))
        #expect(run.customerClass("utc-midnight") == .grandfathered)
        #expect(run.flags("utc-midnight").contains("bought_just_before_cutover"))
        #expect(run.customerClass("morning") == .new)
        #expect(run.flags("morning").contains("bought_just_after_cutover"))
    }

    // MARK: - Version and date answers (§8.16, §8.17)

    @Test(
        "version_date_disagree needs both answers, whatever the basis",
        arguments: [
            ("version", "ios", "200", "2024-04-01T00:00:00Z", true, CustomerClass.grandfathered),
            ("version", "ios", "300", "2024-02-01T00:00:00Z", true, .new),
            ("date", "ios", "300", "2024-02-01T00:00:00Z", true, .grandfathered),
            ("date", "ios", "200", "2024-04-01T00:00:00Z", true, .new),
            ("version", "ios", "200", "2024-02-01T00:00:00Z", false, .grandfathered),
            ("version", "ios", "300", "2024-04-01T00:00:00Z", false, .new),
            ("date", "ios", "", "2024-02-01T00:00:00Z", false, .grandfathered),
            ("date", "ios", "2.0b1", "2024-02-01T00:00:00Z", false, .grandfathered),
            ("version", "ios", "200", "", false, .grandfathered),
            ("date", "watchos", "1.0", "2024-04-01T00:00:00Z", false, .new),
        ])
    func versionDateDisagree(
        basis: String, platform: String, version: String, purchased: String, disagree: Bool, expected: CustomerClass
    ) throws {
        var policy = PolicySpec()
        policy.basis = basis
        policy.versions = [("ios", "245")]
        let run = try AuditFixture.run(
            customers:
                "customer_id,platform,original_app_version,original_purchase_date\nc1,\(platform),\(version),\(purchased)\n",
            policy: policy)
        #expect(run.flags("c1").contains("version_date_disagree") == disagree)
        #expect(run.customerClass("c1") == expected)
    }

    @Test(
        "naive_version_trap: string order differs from numeric order",
        arguments: [
            ("ios", "30", true, CustomerClass.grandfathered),
            ("ios", "1000", true, .new),
            ("ios", "0245", true, .new),
            ("ios", "200", false, .grandfathered),
            ("ios", "300", false, .new),
            ("ios", "245", false, .new),
            ("macos", "10.0", true, .new),
            ("macos", "1.9", false, .grandfathered),
            ("macos", "2", true, .new),
            ("watchos", "10", true, .new),
            ("ios", "2.0b1", false, .new),
        ])
    func naiveVersionTrap(platform: String, version: String, trap: Bool, expected: CustomerClass) throws {
        let run = try AuditFixture.run(
            customers: "customer_id,platform,original_app_version\nc1,\(platform),\(version)\n")
        #expect(run.flags("c1").contains("naive_version_trap") == trap)
        #expect(run.customerClass("c1") == expected)
    }

    @Test("naive_version_trap needs a version answer, and is computed whatever the basis")
    func naiveTrapAnswers() throws {
        var policy = PolicySpec()
        policy.basis = "date"
        policy.versions = [("ios", "245")]
        let run = try AuditFixture.run(
            customers: """
                customer_id,platform,original_app_version
                ios,ios,30
                watch,watchos,10
                """,
            policy: policy)
        #expect(run.flags("ios") == ["naive_version_trap"])
        #expect(run.customerClass("ios") == .new)
        // No cutover for watchOS: no version answer, no trap.
        #expect(run.flags("watch") == ["no_cutover_for_platform"])
    }

    @Test("no_cutover_for_platform: the platform has no key and there is no default")
    func noCutoverForPlatform() throws {
        var policy = PolicySpec()
        policy.versions = [("ios", "245"), ("macos", "2.0")]
        policy.basis = "either"
        let run = try AuditFixture.run(
            customers: """
                customer_id,platform,original_app_version,original_purchase_date
                watch,watchos,1.0,
                vision-early,visionos,1.0,2024-01-01T00:00:00Z
                phone,ios,300,
                """,
            policy: policy)
        #expect(run.flags("watch") == ["no_cutover_for_platform"])
        #expect(run.customerClass("watch") == .new)
        // The date answer still counts under `either`.
        #expect(run.customerClass("vision-early") == .grandfathered)
        #expect(run.flags("vision-early") == ["no_cutover_for_platform"])
        #expect(run.flags("phone") == [])
    }

    @Test("missing_original_version and unparseable_version")
    func versionQuality() throws {
        let run = try AuditFixture.run(
            customers: """
                customer_id,platform,original_app_version
                missing,ios,
                beta,ios,2.0b1
                empty-component,ios,1..2
                fine,ios,1.0
                """)
        #expect(run.flags("missing") == ["missing_original_version"])
        #expect(run.customerClass("missing") == .new)
        #expect(run.flags("beta") == ["unparseable_version"])
        #expect(run.customerClass("beta") == .new)
        #expect(run.flags("empty-component") == ["unparseable_version"])
        #expect(run.flags("fine") == [])
        #expect(run.customerClass("fine") == .grandfathered)
    }

    @Test("preordered: preorder_date is set")
    func preordered() throws {
        let run = try AuditFixture.run(
            customers: """
                customer_id,platform,original_app_version,preorder_date
                pre,ios,1,2023-12-01T00:00:00Z
                not,ios,1,
                """)
        #expect(run.flags("pre") == ["preordered"])
        #expect(run.flags("not") == [])
    }

    // MARK: - Entitlement flags (§8.18–8.22)

    static let txHeader =
        "transaction_id,customer_id,product_id,product_type,purchase_date,expires_date,revocation_date,"
        + "ownership_type,renewal_state,grace_period_expires_date"

    @Test(
        "grandfathered_and_subscribed: a current auto-renewable or non-renewing one, owned as purchased",
        arguments: [
            ("t1,c1,pro.monthly,auto_renewable,2024-05-15T00:00:00Z,2024-06-15T00:00:00Z,,,,", true),
            (
                "t1,c1,pro.monthly,auto_renewable,2024-04-25T00:00:00Z,2024-05-25T00:00:00Z,,,in_grace_period,2024-06-08T00:00:00Z",
                true
            ),
            ("t1,c1,pass.30days,non_renewing,2024-05-10T00:00:00Z,,,,,", true),
            ("t1,c1,pass.30days,non_renewing,2024-05-10T00:00:00Z,,,purchased,,", true),
            ("t1,c1,pro.lifetime,non_consumable,2024-05-10T00:00:00Z,,,,,", false),
            ("t1,c1,pro.monthly,auto_renewable,2024-05-15T00:00:00Z,2024-06-15T00:00:00Z,,family_shared,,", false),
            ("t1,c1,pro.monthly,auto_renewable,2024-04-15T00:00:00Z,2024-05-15T00:00:00Z,,,expired,", false),
            (
                "t1,c1,pro.monthly,auto_renewable,2024-05-15T00:00:00Z,2024-06-15T00:00:00Z,2024-05-16T00:00:00Z,,,",
                false
            ),
            ("t1,c1,tip.jar,non_renewing,2024-05-10T00:00:00Z,,,,,", true),
        ])
    func grandfatheredAndSubscribed(row: String, flagged: Bool) throws {
        let run = try AuditFixture.run(
            customers: AuditFixture.customers("c1", version: "200"), transactions: Self.txHeader + "\n" + row + "\n")
        #expect(run.customerClass("c1") == .grandfathered)
        #expect(run.flags("c1").contains("grandfathered_and_subscribed") == flagged)
        #expect(run.grants("c1").contains(Grant("premium", .grandfathered)))
    }

    @Test("a customer who is not grandfathered is never grandfathered_and_subscribed")
    func subscribedOnly() throws {
        let run = try AuditFixture.run(
            customers: AuditFixture.customers("c1"),
            transactions: Self.txHeader
                + "\nt1,c1,pro.monthly,auto_renewable,2024-05-15T00:00:00Z,2024-06-15T00:00:00Z,,,,\n")
        #expect(run.customerClass("c1") == .subscriber)
        #expect(run.flags("c1") == [])
    }

    @Test("billing_retry: the latest auto-renewable, nothing current, not grandfathered")
    func billingRetry() throws {
        let run = try AuditFixture.run(
            customers: AuditFixture.customers(
                "latest-retry", "older-retry", "tie-retry-first", "tie-retry-last", "retry-but-lifetime",
                "retry-then-revoked", "revoked-retry", "conflict-retry")
                + "old,ios,200\n",
            transactions: Self.txHeader + "\n"
                + """
                t01,latest-retry,pro.monthly,auto_renewable,2024-04-15T00:00:00Z,2024-05-15T00:00:00Z,,,expired,
                t02,latest-retry,pro.monthly,auto_renewable,2024-05-15T00:00:00Z,2024-05-20T00:00:00Z,,,in_billing_retry,
                t03,older-retry,pro.monthly,auto_renewable,2024-04-15T00:00:00Z,2024-05-15T00:00:00Z,,,in_billing_retry,
                t04,older-retry,pro.monthly,auto_renewable,2024-05-15T00:00:00Z,2024-05-20T00:00:00Z,,,expired,
                t05,tie-retry-first,pro.monthly,auto_renewable,2024-05-15T00:00:00Z,2024-05-20T00:00:00Z,,,in_billing_retry,
                t06,tie-retry-first,pro.monthly,auto_renewable,2024-05-15T00:00:00Z,2024-05-20T00:00:00Z,,,expired,
                t07,tie-retry-last,pro.monthly,auto_renewable,2024-05-15T00:00:00Z,2024-05-20T00:00:00Z,,,expired,
                t08,tie-retry-last,pro.monthly,auto_renewable,2024-05-15T00:00:00Z,2024-05-20T00:00:00Z,,,in_billing_retry,
                t09,retry-but-lifetime,pro.monthly,auto_renewable,2024-05-15T00:00:00Z,2024-05-20T00:00:00Z,,,in_billing_retry,
                t10,retry-but-lifetime,pro.lifetime,non_consumable,2024-01-01T00:00:00Z,,,,,
                t11,retry-then-revoked,pro.monthly,auto_renewable,2024-04-15T00:00:00Z,2024-05-15T00:00:00Z,,,in_billing_retry,
                t12,retry-then-revoked,pro.monthly,auto_renewable,2024-05-15T00:00:00Z,2024-06-15T00:00:00Z,,,revoked,
                t13,revoked-retry,pro.monthly,auto_renewable,2024-05-15T00:00:00Z,2024-05-20T00:00:00Z,2024-05-21T00:00:00Z,,in_billing_retry,
                t14,old,pro.monthly,auto_renewable,2024-05-15T00:00:00Z,2024-05-20T00:00:00Z,,,in_billing_retry,
                t15,conflict-retry,pro.monthly,auto_renewable,2024-05-15T00:00:00Z,2024-05-20T00:00:00Z,,,in_billing_retry,
                t15,conflict-retry,pro.monthly,auto_renewable,2024-05-15T00:00:00Z,2024-05-20T00:00:00Z,,,expired,
                """)
        #expect(run.flags("latest-retry") == ["billing_retry"])
        #expect(run.customerClass("latest-retry") == .lapsed)
        #expect(run.flags("older-retry") == [])
        // Same purchase date: the greater transaction_id is the latest.
        #expect(run.flags("tie-retry-first") == [])
        #expect(run.flags("tie-retry-last") == ["billing_retry"])
        #expect(run.customerClass("retry-but-lifetime") == .subscriber)
        #expect(run.flags("retry-but-lifetime") == [])
        // Revoked ones take part in "latest".
        #expect(run.flags("retry-then-revoked") == ["refunded"])
        #expect(run.flags("revoked-retry") == ["billing_retry", "refunded"])
        #expect(run.flags("old") == [])
        // Same purchase date and id: the renewal_state text decides ("in_billing_retry" > "expired").
        #expect(run.flags("conflict-retry") == ["billing_retry", "conflicting_duplicate"])
    }

    @Test("in_grace_period and family_shared_only: every current transaction is so")
    func onlyThrough() throws {
        let run = try AuditFixture.run(
            customers: AuditFixture.customers(
                "grace", "grace-and-lifetime", "family", "family-and-own", "family-grace", "family-expired-own-current")
                + "old,ios,200\n",
            transactions: Self.txHeader + "\n"
                + """
                t1,grace,pro.monthly,auto_renewable,2024-04-25T00:00:00Z,2024-05-25T00:00:00Z,,,in_grace_period,2024-06-08T00:00:00Z
                t2,grace-and-lifetime,pro.monthly,auto_renewable,2024-04-25T00:00:00Z,2024-05-25T00:00:00Z,,,in_grace_period,2024-06-08T00:00:00Z
                t3,grace-and-lifetime,tip.jar,non_consumable,2024-01-01T00:00:00Z,,,,,
                t4,family,pro.lifetime,non_consumable,2024-01-01T00:00:00Z,,,family_shared,,
                t5,family-and-own,pro.lifetime,non_consumable,2024-01-01T00:00:00Z,,,family_shared,,
                t6,family-and-own,nav.1year,non_renewing,2024-01-01T00:00:00Z,,,purchased,,
                t7,family-grace,pro.monthly,auto_renewable,2024-04-25T00:00:00Z,2024-05-25T00:00:00Z,,FAMILY_SHARED,in_grace_period,2024-06-08T00:00:00Z
                t8,family-expired-own-current,pro.monthly,auto_renewable,2024-03-15T00:00:00Z,2024-04-15T00:00:00Z,,family_shared,,
                t9,family-expired-own-current,pro.monthly,auto_renewable,2024-05-15T00:00:00Z,2024-06-15T00:00:00Z,,,,
                t10,old,pro.monthly,auto_renewable,2024-04-25T00:00:00Z,2024-05-25T00:00:00Z,,family_shared,in_grace_period,2024-06-08T00:00:00Z
                """)
        #expect(run.flags("grace") == ["in_grace_period"])
        #expect(run.grants("grace") == [Grant("premium", .gracePeriod)])
        // A current product that grants nothing still counts as current.
        #expect(run.flags("grace-and-lifetime") == [])
        #expect(run.flags("family") == ["family_shared_only"])
        #expect(run.grants("family") == [Grant("premium", .familyShared)])
        #expect(run.flags("family-and-own") == [])
        #expect(run.grants("family-and-own") == [Grant("navigation", .purchase), Grant("premium", .familyShared)])
        // Family-shared and in grace: both flags; the source is grace_period.
        #expect(run.flags("family-grace") == ["family_shared_only", "in_grace_period"])
        #expect(run.grants("family-grace") == [Grant("premium", .gracePeriod)])
        #expect(run.flags("family-expired-own-current") == [])
        // Grandfathered: neither flag, and a family-shared grace subscription is not "subscribed".
        #expect(run.flags("old") == [])
        #expect(run.grants("old") == [Grant("premium", .gracePeriod), Grant("premium", .grandfathered)])
    }

    @Test(
        "refunded: a revoked entitlement-bearing transaction, current or not; never a consumable",
        arguments: [
            ("t1,c1,pro.lifetime,non_consumable,2024-05-01T00:00:00Z,,2024-05-02T00:00:00Z,,,", ["refunded"]),
            ("t1,c1,pro.monthly,auto_renewable,2024-03-01T00:00:00Z,2024-04-01T00:00:00Z,,,revoked,", ["refunded"]),
            ("t1,c1,pro.monthly,auto_renewable,2024-03-01T00:00:00Z,2024-04-01T00:00:00Z,,,Revoked,", ["refunded"]),
            ("t1,c1,pass.30days,non_renewing,2023-03-01T00:00:00Z,,2023-03-02T00:00:00Z,,,", ["refunded"]),
            (
                "t1,c1,pro.lifetime,non_consumable,2024-05-01T00:00:00Z,,2024-07-01T00:00:00Z,,,",
                ["impossible_dates", "refunded"]
            ),
            ("t1,c1,coins.100,consumable,2024-05-01T00:00:00Z,,2024-05-02T00:00:00Z,,,", ["consumable_only"]),
            ("t1,c1,coins.100,consumable,2024-05-01T00:00:00Z,,,,revoked,", ["consumable_only"]),
            ("t1,c1,pro.monthly,auto_renewable,2024-03-01T00:00:00Z,2024-04-01T00:00:00Z,,,expired,", []),
        ])
    func refunded(row: String, expected: [String]) throws {
        let run = try AuditFixture.run(
            customers: AuditFixture.customers("c1"), transactions: Self.txHeader + "\n" + row + "\n")
        #expect(run.flags("c1") == expected)
    }

    @Test("refunded alongside a current subscription")
    func refundedButSubscribed() throws {
        let run = try AuditFixture.run(
            customers: AuditFixture.customers("c1"),
            transactions: Self.txHeader + "\n"
                + "t1,c1,pro.lifetime,non_consumable,2024-05-01T00:00:00Z,,2024-05-02T00:00:00Z,,,\n"
                + "t2,c1,pro.monthly,auto_renewable,2024-05-15T00:00:00Z,2024-06-15T00:00:00Z,,,,\n")
        #expect(run.customerClass("c1") == .subscriber)
        #expect(run.flags("c1") == ["refunded"])
        #expect(run.grants("c1") == [Grant("premium", .purchase)])
        #expect(run.result("c1")?.entitlements.first?.transactionID == "t2")
    }

    // MARK: - Dates (§8.24)

    @Test(
        "impossible_dates: expiry before purchase, or a date after as-of where that cannot be",
        arguments: [
            ("t1,c1,pro.monthly,auto_renewable,2024-05-01T00:00:00Z,2024-04-30T23:59:59Z,,,,", true),
            ("t1,c1,pro.monthly,auto_renewable,2024-05-01T00:00:00Z,2024-05-01T00:00:00Z,,,,", false),
            ("t1,c1,pro.lifetime,non_consumable,2024-06-01T00:00:00.001Z,,,,,", true),
            ("t1,c1,pro.lifetime,non_consumable,2024-06-01T00:00:00Z,,,,,", false),
            ("t1,c1,coins.100,consumable,2024-07-01T00:00:00Z,,,,,", true),
            (
                "t1,c1,pro.monthly,auto_renewable,2024-05-01T00:00:00Z,2024-06-15T00:00:00Z,2024-06-02T00:00:00Z,,,",
                true
            ),
            (
                "t1,c1,pro.monthly,auto_renewable,2024-05-01T00:00:00Z,2024-06-15T00:00:00Z,2024-06-01T00:00:00Z,,,",
                false
            ),
            ("t1,c1,pro.monthly,auto_renewable,2024-05-01T00:00:00Z,2024-07-15T00:00:00Z,,,,", false),
            (
                "t1,c1,pro.monthly,auto_renewable,2024-04-25T00:00:00Z,2024-05-25T00:00:00Z,,,in_grace_period,2024-06-08T00:00:00Z",
                false
            ),
        ])
    func impossibleTransactionDates(row: String, flagged: Bool) throws {
        let run = try AuditFixture.run(
            customers: AuditFixture.customers("c1"), transactions: Self.txHeader + "\n" + row + "\n")
        #expect(run.flags("c1").contains("impossible_dates") == flagged)
    }

    @Test("impossible_dates from the customer's own dates")
    func impossibleCustomerDates() throws {
        let run = try AuditFixture.run(
            customers: """
                customer_id,platform,original_app_version,original_purchase_date,preorder_date
                bought-later,ios,300,2024-06-02T00:00:00Z,
                preordered-later,ios,300,,2024-06-01T00:00:01Z
                at-as-of,ios,300,2024-06-01T00:00:00Z,2024-06-01T00:00:00Z
                """)
        #expect(run.flags("bought-later") == ["impossible_dates"])
        #expect(run.flags("preordered-later") == ["impossible_dates", "preordered"])
        #expect(run.flags("at-as-of") == ["preordered"])
    }
}
