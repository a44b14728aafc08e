import Testing

@testable import GrandfatherCore
@testable import GrandfatherEngine

/// SPEC §8.5: why a row is rejected, where (file and line), and the accounting of SPEC §6.
struct RejectionTests {
    static let customerHeader = [
        "customer_id", "platform", "original_app_version", "original_purchase_date", "environment", "preorder_date",
    ]
    static let transactionHeader = [
        "transaction_id", "customer_id", "product_id", "product_type", "purchase_date", "expires_date",
        "revocation_date", "ownership_type", "environment", "price", "currency", "renewal_state",
        "grace_period_expires_date",
    ]

    /// A CSV row in `header`'s order; values holding a comma or quote are quoted.
    static func row(_ header: [String], _ values: [String: String]) -> String {
        header.map { name in
            let value = values[name] ?? ""
            guard value.contains(",") || value.contains("\"") else { return value }
            return "\"" + value.replacingOccurrences(of: "\"", with: "\"\"") + "\""
        }.joined(separator: ",")
    }

    static func customer(_ overrides: [String: String]) -> String {
        let base = ["customer_id": "c1", "platform": "ios", "original_app_version": "300"]
        return row(customerHeader, base.merging(overrides) { $1 })
    }

    static func transaction(_ overrides: [String: String]) -> String {
        let base = [
            "transaction_id": "t1", "customer_id": "c1", "product_id": "pro.monthly", "product_type": "auto_renewable",
            "purchase_date": "2024-05-01T00:00:00Z", "expires_date": "2024-07-01T00:00:00Z",
        ]
        return row(transactionHeader, base.merging(overrides) { $1 })
    }

    @Test(
        "a customer row is rejected for a missing required field, an unknown enum value or a bad timestamp",
        arguments: [
            ("customer_id", ""),
            ("platform", ""),
            ("platform", "windows"),
            ("platform", "i os"),
            ("environment", "staging"),
            ("original_purchase_date", "yesterday"),
            ("original_purchase_date", "2024-02-30T00:00:00Z"),
            ("original_purchase_date", "2024-03-01T00:00:00"),
            ("original_purchase_date", "2024-03-01"),
            ("preorder_date", "2024-03-01 00:00:00Z"),
            ("preorder_date", "1.5"),
        ])
    func customerRejected(field: String, value: String) throws {
        let text =
            ([Self.customerHeader.joined(separator: ",")]
            + [
                Self.customer(["customer_id": "good1"]),
                Self.customer(["customer_id": "bad"].merging([field: value]) { $1 }),
                Self.customer(["customer_id": "good2"]),
            ]).joined(separator: "\n")
        let run = try AuditFixture.run(customers: text)
        #expect(run.ids == ["good1", "good2"])
        let rejections = run.rejections("customers.csv")
        try #require(rejections.count == 1)
        #expect(rejections[0].file == run.path("customers.csv"))
        #expect(rejections[0].line == 3)
        #expect(rejections[0].reason.contains(field), "\(rejections[0].reason)")
    }

    @Test(
        "a transaction row is rejected for a missing required field, an unknown enum value, a bad timestamp or price",
        arguments: [
            ("transaction_id", ""),
            ("customer_id", ""),
            ("product_id", ""),
            ("product_type", ""),
            ("purchase_date", ""),
            ("product_type", "subscription"),
            ("ownership_type", "gifted"),
            ("environment", "staging"),
            ("renewal_state", "cancelled"),
            ("purchase_date", "2024-05-01"),
            ("purchase_date", "2024-05-01T00:00:00"),
            ("expires_date", "soon"),
            ("expires_date", "2024-07-01T24:00:00Z"),
            ("revocation_date", "2024-05-01T12:00:60Z"),
            ("grace_period_expires_date", "2024-06-10T00:00:00"),
            ("grace_period_expires_date", "1e3"),
            ("price", "abc"),
            ("price", "4.99.1"),
            ("price", "USD 4.99"),
            ("price", "4.99 "),
        ])
    func transactionRejected(field: String, value: String) throws {
        let text =
            ([Self.transactionHeader.joined(separator: ",")]
            + [
                Self.transaction(["transaction_id": "good1"]),
                Self.transaction(["transaction_id": "bad", "customer_id": "c2"].merging([field: value]) { $1 }),
                Self.transaction(["transaction_id": "good2"]),
            ]).joined(separator: "\r\n")
        let run = try AuditFixture.run(transactions: text)
        let rejections = run.rejections("transactions.csv")
        try #require(rejections.count == 1)
        #expect(rejections[0].file == run.path("transactions.csv"))
        #expect(rejections[0].line == 3)
        #expect(rejections[0].reason.contains(field), "\(rejections[0].reason)")
        // A rejected transaction makes no orphan.
        #expect(run.result("c2") == nil)
        #expect(run.customerClass("c1") == .subscriber)
    }

    @Test(
        "valid values of every kind are accepted, enums in any case",
        arguments: [
            ("product_type", "AUTO_RENEWABLE"),
            ("ownership_type", "Family_Shared"),
            ("ownership_type", "purchased"),
            ("environment", "PRODUCTION"),
            ("environment", "Xcode"),
            ("renewal_state", "In_Grace_Period"),
            ("renewal_state", "EXPIRED"),
            ("price", "4.99"),
            ("price", "04.990"),
            ("price", "0"),
            ("price", "12"),
            ("revocation_date", "2024-05-02T00:00:00+02:00"),
            ("grace_period_expires_date", "1718000000000"),
            ("original_transaction_id", "o-1"),
        ])
    func transactionAccepted(field: String, value: String) throws {
        let text = Self.transactionHeader.joined(separator: ",") + "\n" + Self.transaction([field: value]) + "\n"
        let run = try AuditFixture.run(transactions: text)
        #expect(run.audit.rejections.isEmpty)
        #expect(run.input("transactions.csv")?.rowsAccepted == 1)
    }

    @Test("a zone-less timestamp is accepted once the policy names default_time_zone")
    func zonelessWithDefaultZone() throws {
        var policy = PolicySpec()
        policy.defaultTimeZone = "America/Los_Angeles"
        let run = try AuditFixture.run(
            customers: """
                customer_id,platform,original_app_version,original_purchase_date
                c1,ios,300,2024-02-29T17:00:00
                """,
            policy: policy)
        #expect(run.audit.rejections.isEmpty)
        // 17:00 in Los Angeles on 29 February is 01:00Z on 1 March: after the cutover.
        #expect(run.result("c1")?.customer.originalPurchaseDate == Instant(seconds: 1_709_254_800))
        #expect(run.flags("c1") == ["bought_just_after_cutover"])
    }

    @Test("for every file, rows read = rows accepted + rows rejected")
    func accounting() throws {
        let run = try AuditFixture.run([
            FixtureFile(
                "customers.csv",
                """
                customer_id,platform,original_app_version,environment
                c1,ios,200,
                c1,ios,200,
                c1,ios,300,
                c2,macos,1.0,sandbox
                c3,bad,1,
                c4,ios,1,2,3
                ,ios,1,
                """),
            FixtureFile(
                "transactions.csv",
                """
                transaction_id,customer_id,product_id,product_type,purchase_date,environment
                t1,c1,pro.lifetime,non_consumable,2024-05-01T00:00:00Z,
                t1,c1,pro.lifetime,non_consumable,2024-05-01T00:00:00Z,
                t2,c1,pro.lifetime,non_consumable,2024-05-01T00:00:00Z,sandbox
                t3,c9,pro.lifetime,non_consumable,never,
                t4,c9,pro.lifetime,non_consumable
                """),
            FixtureFile(
                "transactions.jsonl",
                """
                {"transaction_id": "t5", "customer_id": "c5", "product_id": "coins.100", "product_type": "consumable", "purchase_date": "2024-05-01T00:00:00Z"}
                {"transaction_id": "t6", "customer_id": "c5", "product_id": {"id": 1}, "product_type": "consumable", "purchase_date": "2024-05-01T00:00:00Z"}
                not json
                """),
        ])
        for report in run.audit.inputs {
            #expect(report.rowsRead == report.rowsAccepted + report.rowsRejected, "\(report.path)")
            #expect(report.rowsRejected == run.audit.rejections.filter { $0.file == report.path }.count)
        }
        let customers = try #require(run.input("customers.csv"))
        #expect(customers.rowsRead == 7)
        #expect(customers.rowsAccepted == 3)  // c1, its identical repeat, c2
        #expect(customers.exactDuplicates == 1)
        #expect(customers.sandboxRows == 1)
        #expect(run.rejectedLines("customers.csv") == [4, 6, 7, 8])
        let transactions = try #require(run.input("transactions.csv"))
        #expect(transactions.rowsRead == 5)
        #expect(transactions.rowsAccepted == 3)  // t1, its exact duplicate, sandbox t2
        #expect(transactions.exactDuplicates == 1)
        #expect(transactions.sandboxRows == 1)
        #expect(run.rejectedLines("transactions.csv") == [5, 6])
        let lines = try #require(run.input("transactions.jsonl"))
        #expect(lines.rowsRead == 3)
        #expect(lines.rowsAccepted == 1)
        #expect(run.rejectedLines("transactions.jsonl") == [2, 3])
        #expect(run.audit.rowsRead == 15)
        #expect(run.audit.rowsAccepted + run.audit.rowsRejected == run.audit.rowsRead)
        #expect(run.audit.rejections.count == 8)
        // Rejections in input order, then line order.
        #expect(run.audit.rejections.map(\.line) == [4, 6, 7, 8, 5, 6, 2, 3])
    }
}
