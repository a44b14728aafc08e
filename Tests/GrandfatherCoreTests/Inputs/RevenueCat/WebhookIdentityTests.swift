import Foundation
import Testing

@testable import GrandfatherCore

/// RevenueCat webhook events as a source of identities (issue 16): ids that name one
/// customer are merged onto its `original_app_user_id`, a `TRANSFER` moves an id's records
/// to the id it names, and every record of a merged id counts for its customer.
struct WebhookIdentityTests {
    /// A webhook body of `type` at `timestamp`, with the event's other members as JSON text.
    static func event(_ type: String, at timestamp: Int64, _ members: String) -> String {
        #"{"api_version": "1.0", "event": {"type": "\#(type)", "event_timestamp_ms": \#(timestamp), \#(members)}}"#
    }

    static let exportHeader =
        "rc_original_app_user_id,product_identifier,start_time,end_time,store,is_auto_renewable,is_sandbox,"
        + "store_transaction_id,renewal_number,updated_at\n"

    @Test("aliases merge onto the original app user id: the facts of one and the purchases of another meet")
    func aliases() throws {
        let events = [
            Self.event(
                "INITIAL_PURCHASE", at: 1_714_521_600_000,
                #""original_app_user_id": "ann-anon", "app_user_id": "ann", "aliases": ["ann-anon", "ann", "ann-old"]"#
            )
        ]
        let export =
            Self.exportHeader + "ann,pro.monthly,2024-05-01 00:00:00,2024-07-01 00:00:00,app_store,true,false,t1,1,"
            + "2024-05-01 00:00:01\n"
        let run = try AuditFixture.run([
            FixtureFile("customers.csv", AuditFixture.customers("ann-anon", version: "100")),
            FixtureFile("export.csv", export),
            FixtureFile("webhooks.jsonl", events.joined(separator: "\n") + "\n"),
        ])
        #expect(run.ids == ["ann-anon"])
        // Build 100 is before the cutover, and the subscription bought under `ann` is hers.
        #expect(run.customerClass("ann-anon") == .grandfathered)
        #expect(run.flags("ann-anon") == ["grandfathered_and_subscribed"])
        #expect(
            run.audit.mergedIDs == [
                CustomerIdentities.Merged(id: "ann", customerID: "ann-anon", how: .alias),
                CustomerIdentities.Merged(id: "ann-old", customerID: "ann-anon", how: .alias),
            ])
        let report = try #require(run.input("webhooks.jsonl"))
        #expect(report.format == .revenueCatWebhooks)
        #expect((report.rowsRead, report.rowsAccepted, report.rowsRejected) == (1, 1, 0))
        let summary = String(decoding: SummaryMarkdown.render(run.audit), as: UTF8.self)
        #expect(summary.contains("Customer ids merged by RevenueCat's webhook events: 2 onto 1 customers"))
        let json = String(decoding: try SummaryJSON.render(run.audit), as: UTF8.self)
        #expect(json.contains(#""merged_ids" : {"#))
    }

    @Test("a transfer moves an id's purchases to the id it names; events apply in the order they were sent")
    func transfers() throws {
        // Sent later but listed first: bob's purchases went to cat, then cat was aliased to dan.
        let events = [
            Self.event("INITIAL_PURCHASE", at: 2_000, #""original_app_user_id": "dan", "aliases": ["cat"]"#),
            Self.event("TRANSFER", at: 1_000, #""transferred_from": ["bob"], "transferred_to": ["cat", "cat-2"]"#),
        ]
        let export =
            Self.exportHeader + "bob,pro.monthly,2024-05-01 00:00:00,2024-07-01 00:00:00,app_store,true,false,t2,1,"
            + "2024-05-01 00:00:01\n"
        let run = try AuditFixture.run([
            FixtureFile("webhooks.json", "[\n" + events.joined(separator: ",\n") + "\n]\n"),
            FixtureFile("customers.csv", AuditFixture.customers("dan")),
            FixtureFile("export.csv", export),
        ])
        #expect(run.ids == ["dan"])
        #expect(run.customerClass("dan") == .subscriber)
        #expect(
            run.audit.mergedIDs.map { "\($0.id)>\($0.customerID):\($0.how.rawValue)" } == [
                "bob>dan:transfer", "cat>dan:alias", "cat-2>dan:alias",
            ])
    }

    @Test("an event of the wrong shape is rejected at its line; the others still merge")
    func rejected() throws {
        let lines = [
            #"{"api_version": "1.0", "event": "nothing"}"#,
            Self.event("RENEWAL", at: 1, #""original_app_user_id": "eve", "aliases": "eve-2""#),
            Self.event("TRANSFER", at: 2, #""transferred_from": ["x"], "transferred_to": []"#),
            #"{"api_version": "1.0", "event": {"event_timestamp_ms": "soon", "original_app_user_id": "eve"}}"#,
            #"{"api_version": "1.0", "event": {"#,
            Self.event("RENEWAL", at: 3, #""original_app_user_id": "eve", "app_user_id": "eve-3""#),
        ]
        let run = try AuditFixture.run([
            FixtureFile("webhooks.jsonl", lines.joined(separator: "\n") + "\n"),
            FixtureFile("customers.csv", AuditFixture.customers("eve-3")),
        ])
        #expect(run.rejectedLines("webhooks.jsonl") == [1, 2, 3, 4, 5])
        let reasons = run.rejections("webhooks.jsonl").map(\.reason)
        #expect(reasons[0] == "event is a string, not an object")
        #expect(reasons[1] == "event.aliases is a string, not an array")
        #expect(reasons[2] == "event.transferred_to is missing or empty")
        #expect(reasons[3] == "event.event_timestamp_ms is not whole milliseconds: 'soon'")
        #expect(reasons[4].hasPrefix("malformed JSON"))
        #expect(run.input("webhooks.jsonl")?.rowsRead == 6)
        #expect(run.ids == ["eve"])
    }

    @Test("two rows of one source for ids of one customer: the first is kept, the second names the merge")
    func mergedRowsOfOneSource() throws {
        let event = Self.event("RENEWAL", at: 1, #""original_app_user_id": "gus", "aliases": ["gus-phone"]"#)
        let run = try AuditFixture.run([
            FixtureFile("webhooks.jsonl", event + "\n"),
            FixtureFile(
                "customers.csv", "customer_id,platform,original_app_version\ngus,ios,100\ngus-phone,ios,300\n"),
        ])
        #expect(run.ids == ["gus"])
        #expect(run.customerClass("gus") == .grandfathered)
        #expect(
            run.rejections("customers.csv").map(\.reason) == [
                "duplicate customer_id 'gus' (merged from 'gus-phone' by RevenueCat's webhook events)"
            ])
    }

    @Test("merges join customers, whatever the order, and the last survivor names them")
    func identities() {
        var identities = CustomerIdentities()
        identities.merge("a", onto: "b", how: .alias)
        identities.merge("b", onto: "c", how: .transfer)
        identities.merge("c", onto: "a", how: .alias)
        #expect(identities.customerID(of: "a") == "c")
        #expect(identities.resolved == ["a": "c", "b": "c"])
        #expect(identities.merged.map(\.how) == [.alias, .transfer])
    }
}
