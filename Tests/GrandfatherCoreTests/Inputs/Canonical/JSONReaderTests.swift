import Testing

@testable import GrandfatherCore
@testable import GrandfatherEngine

/// SPEC §2 and §8.3: JSON arrays and JSON Lines, read through the pipeline.
struct JSONReaderTests {
    @Test("a JSON array: each element's line is the line its { is on")
    func arrayLines() throws {
        let run = try AuditFixture.run([
            FixtureFile(
                "customers.json",
                """
                [
                  {"customer_id": "c1", "platform": "ios", "original_app_version": "200"},
                  {"customer_id": "c2",
                   "platform": "windows"},
                  {
                    "customer_id": "c3", "platform": "bad"
                  },
                  {"customer_id": "c4", "platform": "IOS", "original_app_version": "300"}
                ]
                """)
        ])
        #expect(run.input("customers.json")?.format == .jsonArray)
        #expect(run.ids == ["c1", "c4"])
        #expect(run.customerClass("c1") == .grandfathered)
        #expect(run.customerClass("c4") == .new)
        #expect(run.rejectedLines("customers.json") == [3, 5])
    }

    @Test("an array element that is not an object is a rejected row")
    func arrayNonObject() throws {
        let run = try AuditFixture.run([
            FixtureFile("customers.json", "[{\"customer_id\": \"c1\", \"platform\": \"ios\"},\n 42,\n \"c2\"]")
        ])
        #expect(run.ids == ["c1"])
        #expect(run.rejectedLines("customers.json") == [2, 3])
        let report = try #require(run.input("customers.json"))
        #expect(report.rowsRead == report.rowsAccepted + report.rowsRejected)
    }

    @Test("JSON Lines: numbers as literal text, null as absent, nested values, malformed lines")
    func jsonLines() throws {
        let run = try AuditFixture.run([
            FixtureFile(
                "customers.jsonl",
                """
                {"customer_id": "c1", "platform": "macos", "original_app_version": 2.0}
                {"customer_id": "c2", "platform": "macos", "original_app_version": 1.9}

                {"customer_id": "c3", "platform": "ios", "original_app_version": null, "original_purchase_date": 1709251200000}
                {"customer_id": "c4", "platform": {"name": "ios"}}
                {"customer_id": "c5", "platform": "ios", "original_app_version": "200", "meta": {"a": [1, {"b": null}]}}
                {"customer_id": "c6", "platform": "ios",
                {"customer_id": "c7", "platform": "ios", "original_app_version": "200", "environment": null}
                {"customer_id": "c8", "platform": "ios", "original_app_version": ["200"]}
                {"customer_id": "c9", "platform": true}
                ["c10", "ios"]
                """)
        ])
        #expect(run.input("customers.jsonl")?.format == .jsonLines)
        #expect(run.ids == ["c1", "c2", "c3", "c5", "c7"])
        // 2.0 stays "2.0": equal to macOS's cutover, so not before it.
        #expect(run.result("c1")?.customer.originalAppVersion == "2.0")
        #expect(run.customerClass("c1") == .new)
        #expect(run.flags("c1") == [])
        #expect(run.customerClass("c2") == .grandfathered)
        // null is absent; epoch milliseconds as a JSON number.
        #expect(run.result("c3")?.customer.originalAppVersion == nil)
        #expect(run.result("c3")?.customer.originalPurchaseDate == Instant(seconds: 1_709_251_200))
        #expect(run.flags("c3") == ["bought_just_after_cutover", "missing_original_version"])
        // A nested value under an unknown key is ignored.
        #expect(run.customerClass("c5") == .grandfathered)
        #expect(run.result("c7")?.customer.environment == .production)
        // c4 (object in platform), c6 (malformed), c8 (array in a known field), c9 (boolean
        // platform "true"), c10 (not an object).
        #expect(run.rejectedLines("customers.jsonl") == [5, 7, 9, 10, 11])
        let report = try #require(run.input("customers.jsonl"))
        #expect(report.rowsRead == 10)
        #expect(report.rowsAccepted == 5)
        #expect(report.rowsRejected == 5)
    }

    @Test("a JSON number keeps its digits: 1.10 is not 1.1")
    func numberDigits() throws {
        var policy = PolicySpec()
        policy.versions = [("macos", "1.10")]
        let run = try AuditFixture.run(
            [
                FixtureFile(
                    "customers.jsonl",
                    """
                    {"customer_id": "at", "platform": "macos", "original_app_version": 1.10}
                    {"customer_id": "before", "platform": "macos", "original_app_version": 1.9}
                    {"customer_id": "zeros", "platform": "macos", "original_app_version": 1.100}
                    """)
            ], policy: policy)
        #expect(run.result("at")?.customer.originalAppVersion == "1.10")
        #expect(run.customerClass("at") == .new)
        #expect(run.customerClass("before") == .grandfathered)
        #expect(run.result("zeros")?.customer.originalAppVersion == "1.100")
        #expect(run.customerClass("zeros") == .new)
    }

    @Test("transactions in JSON: epoch milliseconds and prices as numbers")
    func transactionNumbers() throws {
        let run = try AuditFixture.run([
            FixtureFile(
                "transactions.jsonl",
                """
                {"transaction_id": "t1", "customer_id": "c1", "product_id": "pro.monthly", "product_type": "auto_renewable", "purchase_date": 1714521600000, "expires_date": 1719792000000, "price": 4.99, "currency": "USD"}
                {"transaction_id": "t2", "customer_id": "c2", "product_id": "pro.monthly", "product_type": "auto_renewable", "purchase_date": 1714521600000, "expires_date": 1717200000000}
                {"transaction_id": "t3", "customer_id": "c3", "product_id": "pro.lifetime", "product_type": "non_consumable", "purchase_date": 1714521600000.5}
                """)
        ])
        #expect(run.input("transactions.jsonl")?.kind == .transactions)
        // t1 expires 2024-07-01, after as-of; t2 expires exactly at as-of.
        #expect(run.customerClass("c1") == .subscriber)
        #expect(run.result("c1")?.entitlements.first?.expiresDate == Instant(seconds: 1_719_792_000))
        #expect(run.customerClass("c2") == .lapsed)
        // Epoch milliseconds with a fraction are no timestamp.
        #expect(run.result("c3") == nil)
        #expect(run.rejectedLines("transactions.jsonl") == [3])
    }

    @Test("blank lines and a BOM in JSON Lines; CRLF line ends")
    func blankLinesAndBOM() throws {
        let run = try AuditFixture.run([
            FixtureFile(
                "customers.jsonl",
                "\u{FEFF}{\"customer_id\": \"c1\", \"platform\": \"ios\"}\r\n\r\n"
                    + "{\"customer_id\": \"c2\", \"platform\": \"bad\"}\r\n"
                    + "{\"customer_id\": \"c3\", \"platform\": \"ios\"}")
        ])
        #expect(run.ids == ["c1", "c3"])
        #expect(run.rejectedLines("customers.jsonl") == [3])
        #expect(run.input("customers.jsonl")?.rowsRead == 3)
    }
}
