import Testing

@testable import GrandfatherCore

/// SPEC §4, §8.7–8.9 and §8.14: sandbox records, and customers made from transactions alone.
struct SandboxAndOrphanTests {
    @Test("transactions without a customer record make an orphan customer")
    func orphans() throws {
        var policy = PolicySpec()
        policy.versions = [("ios", "245")]  // no default: an orphan must still not be no_cutover_for_platform
        let run = try AuditFixture.run(
            customers: AuditFixture.customers("c1"),
            transactions: """
                transaction_id,customer_id,product_id,product_type,purchase_date,expires_date
                t1,o1,pro.monthly,auto_renewable,2024-05-15T00:00:00Z,2024-06-15T00:00:00Z
                t2,o2,coins.100,consumable,2024-05-01T00:00:00Z,
                t3,o3,pro.monthly,auto_renewable,2024-04-01T00:00:00Z,2024-05-01T00:00:00Z
                """,
            policy: policy)
        #expect(run.ids == ["c1", "o1", "o2", "o3"])
        let orphan = try #require(run.result("o1")).customer
        #expect(orphan.isOrphan)
        #expect(orphan.platform == nil)
        #expect(orphan.originalAppVersion == nil)
        #expect(orphan.originalPurchaseDate == nil)
        #expect(orphan.preorderDate == nil)
        #expect(orphan.environment == .production)
        #expect(run.customerClass("o1") == .subscriber)
        #expect(run.flags("o1") == ["missing_original_version", "orphan_transactions"])
        #expect(run.grants("o1") == [Grant("premium", .purchase)])
        #expect(run.customerClass("o2") == .new)
        #expect(run.flags("o2") == ["consumable_only", "missing_original_version", "orphan_transactions"])
        #expect(run.customerClass("o3") == .lapsed)
        #expect(run.result("c1")?.customer.isOrphan == false)
    }

    @Test("a rejected customer row does not count as present")
    func rejectedCustomerMakesOrphan() throws {
        let run = try AuditFixture.run(
            customers: """
                customer_id,platform,original_app_version
                c1,windows,200
                """,
            transactions: """
                transaction_id,customer_id,product_id,product_type,purchase_date
                t1,c1,pro.lifetime,non_consumable,2024-05-01T00:00:00Z
                """)
        #expect(run.rejectedLines("customers.csv") == [2])
        #expect(run.result("c1")?.customer.isOrphan == true)
        #expect(run.flags("c1") == ["missing_original_version", "orphan_transactions"])
    }

    @Test("a customer record given after its transactions is still its record")
    func customersAfterTransactions() throws {
        let run = try AuditFixture.run([
            FixtureFile(
                "transactions.csv",
                "transaction_id,customer_id,product_id,product_type,purchase_date\n"
                    + "t1,c1,pro.lifetime,non_consumable,2024-05-01T00:00:00Z\n"),
            FixtureFile("customers.csv", AuditFixture.customers("c1", version: "200")),
        ])
        #expect(run.result("c1")?.customer.isOrphan == false)
        #expect(run.customerClass("c1") == .grandfathered)
        #expect(run.flags("c1") == [])
    }

    @Test("a sandbox customer is excluded, flagged exactly sandbox, with no entitlements")
    func sandboxCustomers() throws {
        let run = try AuditFixture.run(
            customers: """
                customer_id,platform,original_app_version,original_purchase_date,environment,preorder_date
                s1,ios,1.0,2024-02-29T12:00:00Z,sandbox,2024-01-01T00:00:00Z
                s2,ios,,2024-07-01T00:00:00Z,xcode,
                s3,watchos,2.0b1,,SANDBOX,
                c1,ios,300,,production,
                """,
            transactions: """
                transaction_id,customer_id,product_id,product_type,purchase_date,expires_date
                t1,s1,pro.monthly,auto_renewable,2024-05-15T00:00:00Z,2024-06-15T00:00:00Z
                t2,s2,pro.lifetime,non_consumable,2024-07-01T00:00:00Z,
                t3,s3,coins.100,consumable,2024-05-01T00:00:00Z,
                """)
        for id in ["s1", "s2", "s3"] {
            #expect(run.customerClass(id) == .excluded, "\(id)")
            #expect(run.flags(id) == ["sandbox"], "\(id)")
            #expect(run.grants(id) == [], "\(id)")
        }
        #expect(run.customerClass("c1") == .new)
        let counts = Dictionary(uniqueKeysWithValues: run.audit.classCounts.map { ($0.0, $0.1) })
        #expect(counts[.excluded] == 3)
        #expect(counts[.new] == 1)
        #expect(counts[.grandfathered] == 0)
        #expect(counts[.subscriber] == 0)
        #expect(run.input("customers.csv")?.sandboxRows == 3)
    }

    @Test("sandbox transactions grant nothing, make no one lapsed, create no orphan, raise no flag")
    func sandboxTransactions() throws {
        let run = try AuditFixture.run(
            customers: AuditFixture.customers("c1", "c2", "c3", "c4"),
            transactions: """
                transaction_id,customer_id,product_id,product_type,purchase_date,expires_date,revocation_date,environment,renewal_state
                t1,c1,pro.lifetime,non_consumable,2024-05-01T00:00:00Z,,,sandbox,
                t2,c1,coins.100,consumable,2024-05-01T00:00:00Z,,,Xcode,
                t3,c1,pro.monthly,auto_renewable,2024-05-01T00:00:00Z,2024-04-01T00:00:00Z,2024-07-01T00:00:00Z,sandbox,revoked
                t4,ghost,pro.lifetime,non_consumable,2024-05-01T00:00:00Z,,,sandbox,
                t5,c2,pro.lifetime,non_consumable,2024-05-01T00:00:00Z,,,production,
                t5,c2,pro.monthly,auto_renewable,2024-05-01T00:00:00Z,2024-05-02T00:00:00Z,,sandbox,
                t6,c3,pro.monthly,auto_renewable,2024-05-01T00:00:00Z,2024-05-02T00:00:00Z,,sandbox,
                t6,c3,pro.lifetime,non_consumable,2024-05-01T00:00:00Z,,,,
                t7,c4,pro.monthly,auto_renewable,2024-04-01T00:00:00Z,2024-05-01T00:00:00Z,,,expired
                t8,c4,pro.monthly,auto_renewable,2024-05-20T00:00:00Z,2024-05-25T00:00:00Z,,sandbox,in_billing_retry
                """)
        #expect(run.customerClass("c1") == .new)
        #expect(run.flags("c1") == [])
        #expect(run.grants("c1") == [])
        #expect(run.result("ghost") == nil)
        // A sandbox row reusing a production transaction id is no conflict, in either order.
        #expect(run.customerClass("c2") == .subscriber)
        #expect(run.flags("c2") == [])
        #expect(run.customerClass("c3") == .subscriber)
        #expect(run.flags("c3") == [])
        // A later sandbox renewal in billing retry does not make the latest one.
        #expect(run.customerClass("c4") == .lapsed)
        #expect(run.flags("c4") == [])
        let report = try #require(run.input("transactions.csv"))
        #expect(report.sandboxRows == 7)
        #expect(report.rowsAccepted == 10)
        #expect(report.exactDuplicates == 0)
    }
}
