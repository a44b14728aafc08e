import Foundation
import Testing

@testable import GrandfatherCore
@testable import GrandfatherEngine

/// `sample-data/revenuecat/` gives what its README's table says, written from SPEC §4, §5, §9
/// and docs/RevenueCat.md's readings, not copied from the tool's output.
struct RevenueCatSampleTests {
    static let files = [
        "subscribers.jsonl", "customers.csv", "transactions-export.csv", "customer-list.csv", "webhooks.jsonl",
    ]

    /// Class, flags and platform of each customer, as the README's table has them.
    static let expected: [(id: String, customerClass: CustomerClass, flags: [String], platform: Platform)] = [
        ("rc-ann", .grandfathered, ["grandfathered_not_granted"], .ios),
        ("rc-ben", .subscriber, [], .ios),
        ("rc-cal", .grandfathered, ["grandfathered_and_subscribed"], .ios),
        ("rc-dee", .grandfathered, ["conflicting_customer_facts", "grandfathered_not_granted"], .ios),
        ("rc-eve", .subscriber, ["missing_original_version"], .android),
        ("rc-fay", .lapsed, ["missing_original_version"], .web),
        ("rc-gus", .lapsed, ["missing_original_version", "refunded"], .ios),
        ("rc-hal", .subscriber, ["missing_original_version"], .android),
        ("rc-ivy", .subscriber, ["missing_original_version"], .ios),
        ("rc-kit", .grandfathered, [], .macos),
        ("rc-lou", .new, ["granted_not_entitled"], .ios),
    ]

    static func run() throws -> Audit {
        let folder = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
            .deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()
            .appendingPathComponent("sample-data/revenuecat")
        let policy = try PolicyLoader.load(path: folder.appendingPathComponent("policy.json").path)
        let asOf = try TimestampParser(defaultZone: nil).parse("2026-11-01T00:00:00Z").get()
        return try Pipeline.audit(
            AuditSettings(policy: policy, asOf: asOf), inputs: files.map { folder.appendingPathComponent($0).path })
    }

    @Test("every customer comes out as the README says")
    func customers() throws {
        let audit = try Self.run()
        #expect(audit.customers.map(\.customer.id) == Self.expected.map(\.id))
        for want in Self.expected {
            guard let result = audit.customers.first(where: { $0.customer.id == want.id }) else { continue }
            #expect(result.customerClass == want.customerClass, "class of \(want.id)")
            #expect(result.flags.map(\.code) == want.flags, "flags of \(want.id)")
            #expect(result.customer.platform == want.platform, "platform of \(want.id)")
        }
        let dee = try #require(audit.customers.first { $0.customer.id == "rc-dee" }?.customer)
        #expect(dee.originalAppVersion == "300")
        #expect(dee.provenance.source(of: .storefront) == .customersFile)
    }

    @Test("every row is accounted for: the rejections and the superseded delivery the README names")
    func accounting() throws {
        let audit = try Self.run()
        #expect(audit.rowsRead == 24)
        #expect(audit.rowsAccepted == 22)
        let rejected = audit.rejections.map { "\(URL(fileURLWithPath: $0.file).lastPathComponent):\($0.line)" }
        #expect(rejected == ["subscribers.jsonl:6", "transactions-export.csv:8"])
        #expect(audit.inputs.map(\.superseded) == [0, 0, 3, 0, 0])
        #expect(
            audit.inputs.map(\.format) == [
                .revenueCatSubscribers, .csv, .revenueCatExport, .revenueCatCustomerList, .revenueCatWebhooks,
            ])
        #expect(
            audit.mergedIDs.map { "\($0.id) \($0.customerID) \($0.how.rawValue)" } == [
                "$RCAnonymousID:6f1e2d3c4b5a69788796a5b4c3d2e1f0 rc-ivy transfer",
                "hal@trailmaps.example rc-hal alias",
            ])
    }
}
