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
        // item in two of them. (read, accepted, superseded, rejected) per file: three bodies
        // name one customer, requested at one instant, so the greatest by content stands
        // (`SubscriberResponseRules`: here the one with the broken subscription) and the other
        // two are superseded whole, body and purchases; the broken subscription is the one
        // rejection.
        let counts = [(4, 4, 4, 0), (4, 4, 0, 0), (3, 2, 0, 1), (4, 4, 4, 0)]
        for (name, expected) in zip(names, counts) {
            let report = try #require(run.input("\(name).json"))
            #expect(report.format == .revenueCatSubscribers, "\(name)")
            #expect(
                (report.rowsRead, report.rowsAccepted, report.superseded, report.rowsRejected) == expected, "\(name)")
        }
        // Three bodies name one anonymous customer, one of them standing; the fourth,
        // app_user_id, has no original application version.
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

    /// The policy of the weighing tests: the RevenueCat sample's cutover, an iOS version basis.
    static let weighingPolicy = PolicySpec(
        cutoverDate: "2025-03-04T17:00:00Z", versions: [("ios", "412")], basis: "version")

    /// A body of `rc-ben` fetched at `requested` (none when `nil`), with `version` (null when
    /// `nil`) and `subscriber` members added.
    static func ben(_ requested: String?, version: String?, _ more: String = "") -> String {
        let date = requested.map { #""request_date":"\#($0)","# } ?? ""
        let given = version.map { #""\#($0)""# } ?? "null"
        return #"{\#(date)"subscriber":{"original_app_user_id":"rc-ben","original_application_version":\#(given),"#
            + #""original_purchase_date":"2021-01-01T00:00:00Z","#
            + (more.isEmpty ? #""subscriptions":{},"non_subscriptions":{},"entitlements":{}"# : more) + "}}"
    }

    /// What a run says of `rc-ben`, and how its responses were counted over every file.
    struct Outcome: Equatable {
        var customerClass: CustomerClass?
        var version: String?
        var flags: [String]
        var grants: [String]
        var rows: (read: Int, accepted: Int, exactDuplicates: Int, superseded: Int, rejected: Int)

        static func == (lhs: Outcome, rhs: Outcome) -> Bool {
            (lhs.customerClass, lhs.version, lhs.flags, lhs.grants) == (
                rhs.customerClass, rhs.version, rhs.flags, rhs.grants
            )
                && lhs.rows == rhs.rows
        }

        init(_ files: [FixtureFile]) throws {
            let run = try AuditFixture.run(
                files, policy: SubscriberResponseTests.weighingPolicy, asOf: "2026-11-01T00:00:00Z")
            customerClass = run.customerClass("rc-ben")
            version = run.result("rc-ben")?.customer.originalAppVersion
            flags = run.flags("rc-ben")
            grants =
                run.result("rc-ben")?.entitlements.map {
                    "\($0.entitlement) \($0.source.rawValue) \($0.transactionID ?? "")"
                } ?? []
            let reports = files.compactMap { run.input($0.name) }
            rows = (
                reports.map(\.rowsRead).reduce(0, +), reports.map(\.rowsAccepted).reduce(0, +),
                reports.map(\.exactDuplicates).reduce(0, +), reports.map(\.superseded).reduce(0, +),
                reports.map(\.rowsRejected).reduce(0, +)
            )
        }
    }

    /// Two bodies of one `original_app_user_id` are two fetches of one record: the one fetched
    /// last stands, in any order, in one file or two, as lines or an array, and the other is
    /// superseded, not a `duplicate customer_id`.
    @Test("of two responses for one subscriber, the one fetched last stands, whatever the order")
    func theLaterFetchStands() throws {
        let later = Self.ben("2026-10-31T12:00:00Z", version: "380")
        let earlier = Self.ben("2026-10-30T12:00:00Z", version: nil)
        let arrangements: [[FixtureFile]] = [
            [FixtureFile("subscribers.jsonl", later + "\n" + earlier + "\n")],
            [FixtureFile("subscribers.jsonl", earlier + "\n" + later + "\n")],
            [FixtureFile("subscribers.json", "[\n" + earlier + ",\n" + later + "\n]\n")],
            [FixtureFile("a.jsonl", later + "\n"), FixtureFile("b.jsonl", earlier + "\n")],
            [FixtureFile("b.jsonl", earlier + "\n"), FixtureFile("a.jsonl", later + "\n")],
        ]
        let outcomes = try arrangements.map(Outcome.init)
        let first = try #require(outcomes.first)
        #expect(first.customerClass == .grandfathered)
        #expect(first.version == "380")
        #expect(first.rows == (2, 2, 0, 1, 0))
        for (index, outcome) in outcomes.enumerated() { #expect(outcome == first, "arrangement \(index)") }
    }

    /// The body that does not stand is superseded whole: neither its purchases nor what
    /// RevenueCat shows active in it are used (the earlier fetch here shows a current
    /// subscription the later no longer holds).
    @Test("a superseded response's purchases and entitlements are not used")
    func aSupersededResponseIsNotUsed() throws {
        let later = Self.ben("2026-10-31T12:00:00Z", version: "380")
        let earlier = Self.ben(
            "2026-10-30T12:00:00Z", version: nil,
            #""subscriptions":{"pro.monthly":{"store":"app_store","store_transaction_id":"t-b","#
                + #""purchase_date":"2026-10-01T00:00:00Z","expires_date":"2026-12-01T00:00:00Z"}},"#
                + #""non_subscriptions":{},"entitlements":{"premium":{"expires_date":"2026-12-01T00:00:00Z","#
                + #""product_identifier":"pro.monthly","purchase_date":"2026-10-01T00:00:00Z"}}"#)
        let outcomes = try [later + "\n" + earlier + "\n", earlier + "\n" + later + "\n"].map {
            try Outcome([FixtureFile("subscribers.jsonl", $0)])
        }
        for outcome in outcomes {
            #expect(outcome.customerClass == .grandfathered)
            #expect(outcome.version == "380")
            // RevenueCat's view is the later body's, which shows nothing active.
            #expect(outcome.flags.contains("grandfathered_not_granted"))
            #expect(outcome.grants == ["premium grandfathered "])
            // The earlier body and its subscription: read, accepted, superseded.
            #expect(outcome.rows == (3, 3, 0, 2, 0))
        }
        #expect(outcomes[0] == outcomes[1])
    }

    /// Fetched at one instant, or with no `request_date` (older than any with one): the greater
    /// by content stands, whatever the order; the same body twice is an exact duplicate.
    @Test("responses fetched at one instant are weighed by content; the same twice is an exact duplicate")
    func tiesAreWeighedByContent() throws {
        let one = Self.ben("2026-10-31T12:00:00Z", version: "380")
        let other = Self.ben("2026-10-31T12:00:00Z", version: "420")
        let undated = Self.ben(nil, version: "500")
        let tied = try [one + "\n" + other + "\n", other + "\n" + one + "\n"].map {
            try Outcome([FixtureFile("subscribers.jsonl", $0)])
        }
        #expect(tied[0] == tied[1])
        #expect(["380", "420"].contains(tied[0].version))
        #expect(tied[0].rows == (2, 2, 0, 1, 0))
        let dated = try [one + "\n" + undated + "\n", undated + "\n" + one + "\n"].map {
            try Outcome([FixtureFile("subscribers.jsonl", $0)])
        }
        #expect(dated[0] == dated[1])
        #expect(dated[0].version == "380")
        // The same body in two files: one stands, the other is an exact duplicate.
        let twice = try Outcome([FixtureFile("a.jsonl", one + "\n"), FixtureFile("b.jsonl", one + "\n")])
        #expect(twice.version == "380")
        #expect(twice.rows == (2, 2, 1, 0, 0))
    }

    /// Ids are compared by their code points, as the ledger compares them: `café` spelt NFC
    /// and NFD names two subscribers, so neither body supersedes the other.
    @Test("responses of two ids Unicode calls equivalent are two subscribers")
    func idsAreComparedByCodePoints() throws {
        let composed =
            #"{"request_date":"2026-10-31T12:00:00Z","subscriber":{"original_app_user_id":"caf\u00e9","#
            + #""original_application_version":"380"}}"#
        let decomposed =
            #"{"request_date":"2026-10-30T12:00:00Z","subscriber":{"original_app_user_id":"cafe\u0301","#
            + #""original_application_version":"420"}}"#
        for files in [
            [FixtureFile("subscribers.jsonl", composed + "\n" + decomposed + "\n")],
            [FixtureFile("a.jsonl", composed + "\n"), FixtureFile("b.jsonl", decomposed + "\n")],
        ] {
            let run = try AuditFixture.run(files, policy: Self.weighingPolicy, asOf: "2026-11-01T00:00:00Z")
            #expect(run.ids.count == 2)
            #expect(run.audit.inputs.map(\.superseded).reduce(0, +) == 0)
            let versions = Dictionary(
                uniqueKeysWithValues: run.audit.customers.map {
                    (Array($0.customer.id.utf8), $0.customer.originalAppVersion)
                })
            #expect(versions[Array("caf\u{E9}".utf8)] == "380")
            #expect(versions[Array("cafe\u{301}".utf8)] == "420")
        }
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
