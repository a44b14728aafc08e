import Foundation
import Testing

@testable import GrandfatherCore

/// A subscriber response's `subscriptions` and `non_subscriptions` as transactions in their
/// latest state, one more delivery of what an export delivers (SPEC §9, Redeliveries).
struct SubscriberPurchasesTests {
    /// A response requested at `requested` for `id`, with `subscriptions` and
    /// `non_subscriptions` given as JSON object bodies.
    static func body(
        _ id: String, requested: String = "2024-06-01T00:00:00Z", subscriptions: String = "{}",
        items: String = "{}", entitlements: String = "{}"
    ) -> String {
        "{\"request_date\": \"\(requested)\", \"subscriber\": {\"original_app_user_id\": \"\(id)\", "
            + "\"original_application_version\": \"300\", \"subscriptions\": \(subscriptions), "
            + "\"non_subscriptions\": \(items), \"entitlements\": \(entitlements)}}"
    }

    static let exportHeader =
        "rc_original_app_user_id,product_identifier,start_time,end_time,store,is_auto_renewable,is_sandbox,"
        + "store_transaction_id,original_store_transaction_id,renewal_number,refunded_at,updated_at\n"

    @Test("a later response replaces the export's row of the same store transaction, and an earlier one is replaced")
    func responsesAndExportRowsAreDeliveries() throws {
        // ann: the export saw the subscription current; the response, asked later, saw it refunded.
        // bob: the response is older than the export's row, which wins.
        let responses = [
            Self.body(
                "ann", requested: "2024-06-01T00:00:00Z",
                subscriptions: #"{"pro.monthly": {"store": "app_store", "store_transaction_id": "t-ann", "#
                    + #""purchase_date": "2024-05-10T00:00:00Z", "expires_date": "2024-07-10T00:00:00Z", "#
                    + #""refunded_at": "2024-05-20T00:00:00Z"}}"#),
            Self.body(
                "bob", requested: "2024-04-01T00:00:00Z",
                subscriptions: #"{"pro.monthly": {"store": "app_store", "store_transaction_id": "t-bob", "#
                    + #""purchase_date": "2024-03-10T00:00:00Z", "expires_date": "2024-04-10T00:00:00Z"}}"#),
        ]
        let export =
            Self.exportHeader
            + "ann,pro.monthly,2024-05-10 00:00:00,2024-07-10 00:00:00,app_store,true,false,t-ann,t-ann,4,,2024-05-10 00:00:05\n"
            + "bob,pro.monthly,2024-05-10 00:00:00,2024-07-10 00:00:00,app_store,true,false,t-bob,t-bob,2,,2024-05-10 00:00:05\n"
        let run = try AuditFixture.run([
            FixtureFile("subscribers.jsonl", responses.joined(separator: "\n") + "\n"),
            FixtureFile("export.csv", export),
        ])
        #expect(run.input("subscribers.jsonl")?.rowsRead == 4)
        #expect(run.input("subscribers.jsonl")?.superseded == 1)
        #expect(run.input("export.csv")?.superseded == 1)
        // The response's refund is the latest word on ann's subscription: nothing current.
        #expect(run.customerClass("ann") == .lapsed)
        #expect(run.flags("ann").contains("refunded"))
        // bob's later export row renewed the subscription to July: current on 2024-06-01.
        #expect(run.customerClass("bob") == .subscriber)
        #expect(run.grants("bob").map(\.entitlement) == ["premium"])
        #expect(run.audit.rejections.isEmpty)
    }

    @Test("a later response's item replaces only what an item states: the export's family sharing stays")
    func aLaterItemKeepsTheExportsOwnership() throws {
        let export =
            "rc_original_app_user_id,product_identifier,start_time,store,is_auto_renewable,store_transaction_id,"
            + "ownership_type,entitlement_identifiers,updated_at\n"
            + "fam,lifetime,2024-02-01 00:00:00,app_store,false,t-fam,FAMILY_SHARED,[pro],2024-02-01 00:00:05\n"
        let response = Self.body(
            "fam", requested: "2024-06-01T00:00:00Z",
            items: #"{"lifetime": [{"id": "p1", "store": "app_store", "store_transaction_id": "t-fam", "#
                + #""purchase_date": "2024-02-01T00:00:00Z"}]}"#,
            entitlements: #"{"pro": {"expires_date": null, "product_identifier": "lifetime"}}"#)
        let run = try AuditFixture.run([
            FixtureFile("export.csv", export), FixtureFile("subscribers.jsonl", response + "\n"),
        ])
        #expect(run.input("export.csv")?.superseded == 1)
        #expect(run.flags("fam").contains("family_shared_only"))
        #expect(run.grants("fam").map(\.source) == [.familyShared])
        #expect(run.audit.rejections.isEmpty)
    }

    @Test("an item is non-consumable when the response's entitlements name its product, else consumable")
    func itemTypes() throws {
        let items =
            #"{"lifetime": [{"id": "p1", "store": "play_store", "purchase_date": "2024-02-01T00:00:00Z"}], "#
            + #""tip": [{"id": "p2", "store": "play_store", "purchase_date": "2024-02-02T00:00:00Z"}, "#
            + #"{"id": "p3", "store": "play_store", "purchase_date": "2024-02-03T00:00:00Z"}]}"#
        let entitlements = #"{"pro": {"expires_date": null, "product_identifier": "lifetime"}}"#
        let tipper = Self.body(
            "tipper", items: #"{"tip": [{"id": "p4", "store": "play_store", "purchase_date": "2024-02-04T00:00:00Z"}]}"#
        )
        let run = try AuditFixture.run([
            FixtureFile(
                "subscribers.jsonl",
                Self.body("cat", items: items, entitlements: entitlements) + "\n" + tipper + "\n")
        ])
        #expect(run.input("subscribers.jsonl")?.rowsRead == 6)
        // The lifetime purchase is a current non-consumable; `lifetime` is not in the policy's
        // products, so it grants the grandfathered entitlements (SPEC §8.12). It has no
        // store_transaction_id: its RevenueCat id stands in.
        #expect(run.customerClass("cat") == .subscriber)
        #expect((run.result("cat")?.entitlements.map(\.transactionID) ?? []) == ["rc:p1"])
        // Tips alone are consumables.
        #expect(run.customerClass("tipper") == .new)
        #expect(run.flags("tipper").contains("consumable_only"))
    }

    @Test("a purchase without a store transaction id keeps one id across responses, so the later replaces it")
    func fallbackIDs() throws {
        let early = Self.body(
            "dan", requested: "2024-05-01T00:00:00Z",
            subscriptions: #"{"pro.monthly": {"store": "app_store", "purchase_date": "2024-04-10T00:00:00Z", "#
                + #""expires_date": "2024-05-10T00:00:00Z"}}"#,
            items: #"{"tip": [{"store": "app_store", "purchase_date": "2024-04-11T00:00:00Z"}]}"#)
        let late = Self.body(
            "dan", requested: "2024-06-01T00:00:00Z",
            subscriptions: #"{"pro.monthly": {"store": "app_store", "purchase_date": "2024-05-10T00:00:00Z", "#
                + #""expires_date": "2024-06-10T00:00:00Z"}}"#,
            items: #"{"tip": [{"store": "app_store", "purchase_date": "2024-04-11T00:00:00Z"}]}"#)
        let run = try AuditFixture.run([FixtureFile("subscribers.jsonl", early + "\n" + late + "\n")])
        let report = try #require(run.input("subscribers.jsonl"))
        // Two bodies and four purchases: the later response stands, and the early one is
        // superseded whole, its body and its two purchases.
        #expect(report.rowsRead == 6)
        #expect(report.superseded == 3)
        #expect(report.rowsRejected == 0)
        #expect(run.customerClass("dan") == .subscriber)
        #expect((run.result("dan")?.entitlements.map(\.transactionID) ?? []) == ["rc:dan:pro.monthly"])
    }

    @Test("a purchase of the wrong shape is rejected alone, at its line, named by its path")
    func wrongTypes() throws {
        let body = [
            #"{"request_date": "2024-06-01T00:00:00Z", "subscriber": {"#,
            #"  "original_app_user_id": "eve", "original_application_version": "100","#,
            #"  "subscriptions": {"#,
            #"    "good": {"store": "app_store", "store_transaction_id": "g1", "purchase_date": "2024-05-01T00:00:00Z","#,
            #"             "expires_date": "2024-07-01T00:00:00Z"},"#,
            #"    "priced": {"store": "app_store", "store_transaction_id": "g2", "purchase_date": "2024-05-01T00:00:00Z","#,
            #"               "price": {"amount": "cheap", "currency": "USD"}},"#,
            #"    "bad": {"store": "app_store", "purchase_date": false}"#,
            #"  },"#,
            #"  "non_subscriptions": {"tip": "not a list"}"#,
            #"}}"#,
        ]
        let run = try AuditFixture.run([FixtureFile("subscriber.json", body.joined(separator: "\n") + "\n")])
        let reasons = run.rejections("subscriber.json").map { "\($0.line): \($0.reason)" }
        #expect(
            reasons == [
                "6: subscriber.subscriptions.priced.price.amount is not a decimal: 'cheap'",
                "8: subscriber.subscriptions.bad.purchase_date is not a time: 'false'",
                "10: subscriber.non_subscriptions.tip is a string, not an array",
            ])
        #expect(run.input("subscriber.json")?.rowsRead == 5)
        #expect(run.customerClass("eve") == .grandfathered)
        #expect(run.result("eve")?.entitlements.contains { $0.transactionID == "g1" } == true)
    }
}
