import Foundation
import Testing

@testable import GrandfatherCore

/// A product's type is a fact about the product, drawn from every row and source of the run
/// (SPEC §9, Product facts): the policy's, then what export rows state, then what a
/// response's shape implies, then the fallback.
struct ProductFactsTests {
    static let exportHeader =
        "rc_original_app_user_id,product_identifier,product_duration,start_time,store,is_auto_renewable,"
        + "store_transaction_id,entitlement_identifiers,updated_at\n"

    /// A response for `id` at 2024-06-01, holding one item of `product`.
    static func response(_ id: String, product: String, transaction: String, entitlements: String) -> String {
        SubscriberPurchasesTests.body(
            id, requested: "2024-06-01T00:00:00Z",
            items: #"{"\#(product)": [{"id": "p-\#(id)", "store": "app_store", "#
                + #""store_transaction_id": "\#(transaction)", "purchase_date": "2024-02-01T00:00:00Z"}]}"#,
            entitlements: entitlements) + "\n"
    }

    /// Ann's lifetime purchase: an export row that names `[premium]`, and a later response
    /// restating it as an item, whose `entitlements` map names `entitledProduct` for premium.
    static func annsLifetime(entitledProduct: String) -> [FixtureFile] {
        let export =
            Self.exportHeader
            + "ann,lifetime,,2024-02-01 00:00:00,app_store,false,t-ann,[premium],2024-02-01 00:00:05\n"
        return [
            FixtureFile("export.csv", export),
            FixtureFile(
                "subscribers.jsonl",
                Self.response(
                    "ann", product: "lifetime", transaction: "t-ann",
                    entitlements: #"{"premium": {"expires_date": null, "product_identifier": "\#(entitledProduct)"}}"#
                )),
        ]
    }

    @Test("a response's item an entitlement map does not name stays what the export says: a non-consumable")
    func exportOutranksTheResponsesShape() throws {
        // RevenueCat's entitlements map names one product per entitlement: here a promotional grant.
        let run = try AuditFixture.run(Self.annsLifetime(entitledProduct: "rc_promo_premium"))
        #expect(!run.flags("ann").contains("consumable_only"))
        #expect(run.grants("ann").map(\.source) == [.purchase])
        #expect(run.audit.rejections.isEmpty)
    }

    @Test("a pass the export gives a duration stays non-renewing after a response: its term ends it")
    func aPassStaysTimeLimited() throws {
        // Bought 2024-02-01 for 30 days; as-of 2024-06-01. A non-consumable would never end.
        let export =
            Self.exportHeader
            + "bea,pass.30days,P1M,2024-02-01 00:00:00,app_store,false,t-bea,[premium],2024-02-01 00:00:05\n"
        let run = try AuditFixture.run([
            FixtureFile("export.csv", export),
            FixtureFile(
                "subscribers.jsonl",
                Self.response(
                    "bea", product: "pass.30days", transaction: "t-bea",
                    entitlements: #"{"premium": {"expires_date": null, "product_identifier": "pass.30days"}}"#)),
        ])
        #expect(run.customerClass("bea") == .lapsed)
        #expect(run.grants("bea").isEmpty)
    }

    @Test("a pass's product_duration is its term where the policy gives none; the policy's term_days wins")
    func aPassEndsWithItsDuration() throws {
        // Bought 2024-02-01 for a month; as-of 2024-06-01. Under the default 365-day term it
        // would still be current; its product's duration ended it on 2024-03-01.
        let export =
            Self.exportHeader
            + "eve,pass.month,P1M,2024-02-01 00:00:00,app_store,false,t-eve,[premium],2024-02-01 00:00:05\n"
            + "fay,pass.month,,2024-05-20 00:00:00,app_store,false,t-fay,,2024-05-20 00:00:05\n"
        let run = try AuditFixture.run([FixtureFile("export.csv", export)])
        #expect(run.customerClass("eve") == .lapsed)
        // A row that states nothing of its product takes its product's type and term.
        #expect(run.customerClass("fay") == .subscriber)
        #expect(
            run.result("fay")?.entitlements.map(\.expiresDate) == [
                ProductDurationTests.instant("2024-06-20T00:00:00Z")
            ])

        var policy = PolicySpec()
        policy.products.append(("pass.month", ["premium"], 200))
        let listed = try AuditFixture.run([FixtureFile("export.csv", export)], policy: policy)
        #expect(listed.customerClass("eve") == .subscriber)
    }

    @Test("a pass whose rows state different terms ends at the longest and is listed, until the policy gives one")
    func termsThatDisagreeAreListed() throws {
        let export =
            Self.exportHeader
            + "gil,pass.some,P1M,2024-02-01 00:00:00,app_store,false,t-gil,[premium],2024-02-01 00:00:05\n"
            + "hoa,pass.some,P1Y,2024-02-02 00:00:00,app_store,false,t-hoa,[premium],2024-02-02 00:00:05\n"
        let run = try AuditFixture.run([FixtureFile("export.csv", export)])
        #expect(run.customerClass("gil") == .subscriber)
        let finding = try #require(run.audit.productFindings.first)
        #expect(finding.product == "pass.some" && finding.terms == ["P1M", "P1Y"] && !finding.disagrees)
        #expect(finding.suggestedEntry == #""pass.some": {"type": "non_renewing", "term_days": 365}"#)
        #expect(ProductFindings.lines([finding]).first?.contains("terms from P1M to P1Y, the longest used") == true)

        var policy = PolicySpec()
        policy.products.append(("pass.some", ["premium"], 30))
        let settled = try AuditFixture.run([FixtureFile("export.csv", export)], policy: policy)
        #expect(settled.audit.productFindings.isEmpty)
        #expect(settled.customerClass("gil") == .lapsed)
    }

    @Test("with no export duration, the end a response's entitlement shows is its item's term")
    func anEntitlementsEndIsTheTerm() throws {
        // pass.flex: in the policy with no term_days; bought 2024-02-01; as-of 2024-06-01.
        func run(_ end: String) throws -> FixtureRun {
            try AuditFixture.run([
                FixtureFile(
                    "subscribers.jsonl",
                    Self.response(
                        "kim", product: "pass.flex", transaction: "t-kim",
                        entitlements: #"{"premium": {"expires_date": "\#(end)", "product_identifier": "pass.flex"}}"#))
            ])
        }
        let ended = try run("2024-05-01T00:00:00Z")
        #expect(ended.customerClass("kim") == .lapsed)
        let running = try run("2024-07-01T00:00:00Z")
        #expect(running.customerClass("kim") == .subscriber)
        #expect(
            running.result("kim")?.entitlements.map(\.expiresDate) == [
                ProductDurationTests.instant("2024-07-01T00:00:00Z")
            ])
    }

    @Test("an export row that states nothing takes what its product's other rows state")
    func aSilentRowTakesItsProducts() throws {
        let export =
            Self.exportHeader
            + "cal,lifetime,,2024-02-01 00:00:00,app_store,false,t-cal-1,[premium],2024-02-01 00:00:05\n"
            + "dan,lifetime,,2024-02-02 00:00:00,app_store,false,t-dan-1,,2024-02-02 00:00:05\n"
        let run = try AuditFixture.run([FixtureFile("export.csv", export)])
        #expect(!run.flags("dan").contains("consumable_only"))
        #expect(run.grants("dan").map(\.source) == [.purchase])
    }

    @Test("an item a timed entitlement names is time-limited; with no export, the response's shape decides")
    func aTimedItemAlone() throws {
        let run = try AuditFixture.run([
            FixtureFile(
                "subscribers.jsonl",
                Self.response(
                    "eve", product: "pass.30days", transaction: "t-eve",
                    entitlements:
                        #"{"premium": {"expires_date": "2024-03-02T00:00:00Z", "product_identifier": "pass.30days"}}"#
                ))
        ])
        #expect(run.customerClass("eve") == .lapsed)
        #expect(!run.flags("eve").contains("consumable_only"))
    }

    @Test("a product resting on the fallback, and one whose rows disagree, are listed with what settles them")
    func findingsAreReported() throws {
        let export =
            Self.exportHeader
            + "fay,tip,,2024-02-01 00:00:00,app_store,false,t-1,,2024-02-01 00:00:05\n"
            + "gus,tip,,2024-02-02 00:00:00,app_store,false,t-2,,2024-02-02 00:00:05\n"
            + "gus,odd,P1M,2024-02-03 00:00:00,app_store,false,t-3,,2024-02-03 00:00:05\n"
            + "hal,odd,,2024-02-04 00:00:00,app_store,false,t-4,[premium],2024-02-04 00:00:05\n"
            + "hal,odd,,2024-02-05 00:00:00,app_store,false,t-5,[premium],2024-02-05 00:00:05\n"
            + "ivy,pro.monthly,,2024-02-06 00:00:00,app_store,true,t-6,[premium],2024-02-06 00:00:05\n"
        let run = try AuditFixture.run([FixtureFile("export.csv", export)])
        let findings = run.audit.productFindings
        #expect(findings.map(\.product) == ["odd", "tip"])
        let odd = try #require(findings.first)
        #expect(odd.type == "non_consumable" && odd.source == "revenuecat_export" && odd.disagrees)
        #expect(odd.evidence == ["revenuecat_export": ["non_renewing": 1, "non_consumable": 2]])
        #expect(odd.customers == 2)
        let tip = try #require(findings.last)
        #expect(tip.type == "consumable" && tip.source == "fallback" && !tip.disagrees)
        #expect(tip.silentRows == 2 && tip.customers == 2)
        #expect(tip.suggestedEntry == #""tip": {"type": "consumable"}"#)
        let json = String(decoding: try SummaryJSON.render(run.audit), as: UTF8.self)
        #expect(json.contains("\"products_to_settle\""))
        let markdown = String(decoding: SummaryMarkdown.render(run.audit), as: UTF8.self)
        #expect(markdown.contains("## Products to settle"))
        #expect(markdown.contains(#"settle it in the policy's products: "tip": {"type": "consumable"}"#))

        // Settled in the policy, nothing is listed.
        var policy = PolicySpec()
        policy.productTypes = ["tip": "consumable", "odd": "non_consumable"]
        let settled = try AuditFixture.run([FixtureFile("export.csv", export)], policy: policy)
        #expect(settled.audit.productFindings.isEmpty)
        let plain = String(decoding: try SummaryJSON.render(settled.audit), as: UTF8.self)
        #expect(!plain.contains("products_to_settle"))
    }

    @Test("evidence by source: the strongest source with a word decides, and a disagreement is told")
    func decisions() {
        var evidence = ProductEvidence()
        func note(_ product: String, _ source: ProductTypeSource, _ stated: ProductType?, times: Int = 1) {
            for _ in 0..<times {
                evidence.note(
                    product: Array(product.utf8).span, source: source, stated: stated)
            }
        }
        note("a", .export, .nonRenewing, times: 2)
        note("a", .export, .nonConsumable)
        note("a", .response, .nonConsumable, times: 5)
        note("b", .response, .autoRenewable)
        note("b", .export, nil, times: 3)
        note("c", .export, nil)
        note("d", .export, .nonConsumable)
        let decided = Dictionary(
            uniqueKeysWithValues: evidence.decisions(policy: ["d": .consumable]).values.map { ($0.product, $0) })
        #expect(
            decided["a"]?.type == .nonRenewing && decided["a"]?.source == .export && decided["a"]?.disagrees == true)
        #expect(decided["b"]?.type == .autoRenewable && decided["b"]?.source == .response && decided["b"]?.silent == 3)
        #expect(decided["b"]?.disagrees == false)
        #expect(decided["c"]?.type == .consumable && decided["c"]?.source == .fallback)
        #expect(
            decided["d"]?.type == .consumable && decided["d"]?.source == .policy && decided["d"]?.disagrees == false)
    }
}
