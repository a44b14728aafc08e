import Foundation
import Testing

@testable import GrandfatherCore

/// RevenueCat REST API v1 subscriber responses as customer facts: the SDK's own fixtures
/// (purchases-ios, MIT) and bodies written here.
struct SubscriberResponseTests {
    static func fixture(_ name: String) throws -> String {
        let folder = try #require(Bundle.module.url(forResource: "Fixtures", withExtension: nil))
        let url = folder.appendingPathComponent("RevenueCat").appendingPathComponent("purchases-ios_\(name).json")
        return String(decoding: try Data(contentsOf: url), as: UTF8.self)
    }

    @Test("each of purchases-ios's responses reads, as one row, into the customer it describes")
    func sdkFixtures() throws {
        let names = [
            "CustomerInfo", "CustomerInfoWithDuplicateMappedProductKeys", "CustomerInfoWithInvalidSubscription",
            "CustomerInfoWithoutOriginalSource",
        ]
        let run = try AuditFixture.run(names.map { FixtureFile("\($0).json", try Self.fixture($0)) })
        // A body is a row, and so is each of its purchases: two subscriptions each, and one
        // item in two of them. (read, accepted, superseded, rejected) per file: the three
        // bodies of one customer requested at one instant deliver the same subscriptions, so
        // none supersedes another; the broken subscription is the one rejection.
        let counts = [(4, 4, 0, 0), (4, 4, 0, 0), (3, 2, 0, 1), (4, 4, 0, 0)]
        for (name, expected) in zip(names, counts) {
            let report = try #require(run.input("\(name).json"))
            #expect(report.format == .revenueCatSubscribers, "\(name)")
            #expect(
                (report.rowsRead, report.rowsAccepted, report.superseded, report.rowsRejected) == expected, "\(name)")
        }
        // Three bodies name one anonymous customer (§8.7 within the source: identical facts are
        // exact duplicates); the fourth, app_user_id, has no original application version.
        let anonymous = "$RCAnonymousID:5b6fdbac3a0c4f879e43d269ecdf9ba1"
        #expect(run.ids == [anonymous, "app_user_id"])
        let customer = try #require(run.result(anonymous)?.customer)
        #expect(customer.originalAppVersion == "1.0")
        #expect(customer.originalPurchaseDate?.iso8601 == "2022-04-12T00:03:24Z")
        // The purchases were made in the App Store: the policy's Apple platform, iOS by default.
        #expect(customer.platform == .ios)
        #expect(customer.provenance.rowSource == .subscriberResponse)
        let other = try #require(run.result("app_user_id")?.customer)
        #expect(other.originalAppVersion == nil)
        // Google Play purchases, and no App Store receipt.
        #expect(other.platform == .android)
        // The purposely broken subscription is refused alone, at its field; its body's
        // customer and its sibling subscription stand.
        let reason = "subscriber.subscriptions.sub1.expires_date is an array, not a string"
        #expect(run.audit.rejections.map(\.reason) == [reason])
        #expect(run.rejectedLines("CustomerInfoWithInvalidSubscription.json") == [17])
        #expect(run.input("CustomerInfoWithInvalidSubscription.json")?.rowsAccepted == 2)
    }

    @Test("a body of the wrong shape or with a field of the wrong type is rejected at its line")
    func rejected() throws {
        let lines = [
            #"{"subscriber": {"original_app_user_id": "ann", "original_application_version": "412", "original_purchase_date": "2021-11-27T03:22:10Z"}}"#,
            #"{"subscriber": {"original_app_user_id": "bob", "original_application_version": true}}"#,
            #"{"subscriber": {"original_app_user_id": "cat", "original_purchase_date": "last year"}}"#,
            #"{"subscriber": {"original_application_version": "1"}}"#,
            #"{"subscriber": "dan"}"#,
            #"{"subscriber": {"original_app_user_id": "eve"#,
            #"{"subscriber": {"original_app_user_id": "fay", "original_application_version": 300}}"#,
        ]
        let run = try AuditFixture.run([FixtureFile("subscribers.jsonl", lines.joined(separator: "\n") + "\n")])
        #expect(run.input("subscribers.jsonl")?.rowsRead == 7)
        #expect(run.rejectedLines("subscribers.jsonl") == [2, 3, 4, 5, 6])
        let reasons = run.rejections("subscribers.jsonl").map(\.reason)
        #expect(reasons[0] == "subscriber.original_application_version is a boolean, not a string")
        #expect(reasons[1] == "subscriber.original_purchase_date is not a time: 'last year'")
        #expect(reasons[2] == "subscriber.original_app_user_id is missing")
        #expect(reasons[3] == "subscriber is a string, not an object")
        #expect(reasons[4].hasPrefix("malformed JSON"))
        #expect(run.result("ann")?.customer.originalAppVersion == "412")
        // A number is read as its literal text (SPEC §8.3).
        #expect(run.result("fay")?.customer.originalAppVersion == "300")
        #expect(run.ids == ["ann", "fay"])
    }

    @Test("a subscriber response outranks the customers file; a disagreement is flagged")
    func outranksTheCustomersFile() throws {
        let body = #"{"subscriber": {"original_app_user_id": "ann", "original_application_version": "100"}}"#
        let run = try AuditFixture.run([
            FixtureFile("customers.csv", AuditFixture.customers("ann", version: "300")),
            FixtureFile("subscribers.json", "[\n" + body + "\n]\n"),
        ])
        let ann = try #require(run.result("ann")?.customer)
        #expect(ann.originalAppVersion == "100")
        #expect(ann.provenance.source(of: .originalAppVersion) == .subscriberResponse)
        #expect(ann.provenance.source(of: .platform) == .customersFile)
        #expect(run.customerClass("ann") == .grandfathered)
        #expect(run.flags("ann").contains("conflicting_customer_facts"))
    }
}
