import Foundation
import Testing

/// Revenue at stake on the sample data, against figures worked out by hand from
/// `sample-data/transactions*.{csv,jsonl}`.
@Suite struct RevenueTests {
    private func revenue(_ cli: CLI) throws -> [String: Any] {
        let data = try Data(contentsOf: URL(fileURLWithPath: cli.path("out/latest/summary.json")))
        let document = try #require(try JSONSerialization.jsonObject(with: data) as? [String: Any])
        return try #require(document["revenue_at_stake"] as? [String: Any])
    }

    /// Current (as of 2026-11-21), purchased, priced auto-renewables and non-renewings:
    /// - grandfathered: c15 `t15-1` USD 39.99;
    /// - subscriber: c09 `t09-1` AUD 59.99, c11 `t11-1` JPY 800, c16 `t16-2` USD 4.99 (its
    ///   first month `t16-1` expired), c19 `t19-1` BRL 24.90 (in grace), c23 `t23-1` USD 4.99;
    /// - left out: c20 (family shared), c34 (price 0), c32 (sandbox), c29's passes (ended).
    @Test func sampleDataMatchesTheHandComputedFigures() throws {
        let cli = try CLI()
        let result = try cli.run(try SampleData.install(in: cli))
        #expect(result.status == 0, "\(result.stderr)")
        let classes = try #require(try revenue(cli)["classes"] as? [String: [String: Any]])
        #expect(classes["grandfathered"]?["customers"] as? Int == 1)
        #expect(classes["grandfathered"]?["by_currency"] as? [String: String] == ["USD": "39.99"])
        #expect(classes["subscriber"]?["customers"] as? Int == 5)
        #expect(
            classes["subscriber"]?["by_currency"] as? [String: String]
                == ["AUD": "59.99", "BRL": "24.9", "JPY": "800", "USD": "9.98"])
        for empty in ["lapsed", "new", "excluded"] {
            #expect(classes[empty]?["customers"] as? Int == 0)
            #expect((classes[empty]?["by_currency"] as? [String: String])?.isEmpty == true)
        }
        let total = try #require(try revenue(cli)["total"] as? [String: Any])
        #expect(
            total["by_currency"] as? [String: String] == ["AUD": "59.99", "BRL": "24.9", "JPY": "800", "USD": "49.97"])
        #expect(total["converted"] == nil, "no fx table, no conversion")
    }

    @Test func anFXTableConvertsWhatItKnowsAndNamesTheRest() throws {
        let cli = try CLI()
        let arguments = try SampleData.install(in: cli)
        var policy = try #require(
            try JSONSerialization.jsonObject(with: Data(contentsOf: URL(fileURLWithPath: cli.path("policy.json"))))
                as? [String: Any])
        policy["fx"] = ["currency": "USD", "rates": ["AUD": 0.65, "BRL": 0.18]]
        try JSONSerialization.data(withJSONObject: policy).write(to: URL(fileURLWithPath: cli.path("policy.json")))
        #expect(try cli.run(arguments).status == 0)
        let classes = try #require(try revenue(cli)["classes"] as? [String: [String: Any]])
        let converted = try #require(classes["subscriber"]?["converted"] as? [String: Any])
        // 59.99 × 0.65 + 24.90 × 0.18 + 9.98 = 38.9935 + 4.482 + 9.98 = 53.4555
        #expect(converted["amount"] as? String == "53.46")
        #expect(converted["currency"] as? String == "USD")
        #expect(converted["not_converted"] as? [String: String] == ["JPY": "800"])
        let summary = try String(contentsOfFile: cli.path("out/latest/summary.md"), encoding: .utf8)
        #expect(
            summary.contains(
                "| subscriber | 5 | AUD 59.99, BRL 24.9, JPY 800, USD 9.98 | USD 53.46 (not converted: JPY 800) |"))
    }

    /// Two copies of one current transaction that differ in price (a conflicting duplicate)
    /// count once, at the higher price, whichever copy is read first: the figures once
    /// depended on which parser folded its copy first.
    @Test func copiesOfOneTransactionCountOnceWhateverTheirOrder() throws {
        let header = "transaction_id,customer_id,product_id,product_type,purchase_date,expires_date,price,currency\n"
        let cheaper = "t1,b-subscriber,pro.monthly,auto_renewable,2024-05-15T00:00:00Z,2024-06-15T00:00:00Z,4.99,USD\n"
        let dearer = "t1,b-subscriber,pro.monthly,auto_renewable,2024-05-15T00:00:00Z,2024-06-15T00:00:00Z,5.99,USD\n"
        for rows in [cheaper + dearer, dearer + cheaper] {
            let cli = try CLI()
            let result = try cli.run(try SmallData.install(in: cli, transactions: header + rows))
            #expect(result.status == 0, "\(result.stderr)")
            let classes = try #require(try revenue(cli)["classes"] as? [String: [String: Any]])
            #expect(classes["subscriber"]?["customers"] as? Int == 1)
            #expect(classes["subscriber"]?["by_currency"] as? [String: String] == ["USD": "5.99"], "rows:\n\(rows)")
        }
    }

    @Test func aNonPositiveRateIsAPolicyError() throws {
        let cli = try CLI()
        let arguments = try SmallData.install(in: cli)
        try cli.write(
            "policy.json",
            SmallData.policy.replacingOccurrences(
                of: "\"max_rejected_fraction\": 0.2",
                with: "\"max_rejected_fraction\": 0.2, \"fx\": {\"currency\": \"EUR\", \"rates\": {\"USD\": 0}}"))
        let result = try cli.run(arguments)
        #expect(result.status == 2)
        #expect(result.stderr.contains("fx.rates.USD"))
    }
}
