import Foundation
import Testing

@testable import GrandfatherCore

/// RevenueCat's view of a customer's entitlements against the policy's verdict (issue 16):
/// each flag on its purpose-made customers, and on no one else.
struct ReconciliationTests {
    /// A subscriber response naming `entitlements` (name → expires_date JSON, `null` for lifetime).
    static func body(_ id: String, _ entitlements: [(String, String)]) -> String {
        let items = entitlements.map { "\"\($0.0)\": {\"expires_date\": \($0.1), \"product_identifier\": \"x\"}" }
        return
            "{\"subscriber\": {\"original_app_user_id\": \"\(id)\", \"entitlements\": {\(items.joined(separator: ", "))}}}"
    }

    @Test("grandfathered_not_granted and granted_not_entitled are raised on their customers only")
    func flags() throws {
        // Cutover build 245 on iOS (PolicySpec): 100 is before it, 300 after.
        let customers =
            "customer_id,platform,original_app_version\n"
            + "gf-none,ios,100\n" + "gf-premium,ios,100\n" + "gf-expired,ios,100\n" + "new-granted,ios,300\n"
            + "sub-matching,ios,300\n" + "gf-extra,ios,100\n" + "gf-no-response,ios,100\n"
        let responses = [
            Self.body("gf-none", []),
            Self.body("gf-premium", [("premium", "null")]),
            Self.body("gf-expired", [("premium", "\"2024-05-01T00:00:00Z\"")]),
            Self.body("new-granted", [("premium", "\"2024-07-01T00:00:00Z\"")]),
            Self.body("sub-matching", [("premium", "\"2024-07-01T00:00:00Z\"")]),
            Self.body("gf-extra", [("premium", "null"), ("navigation", "null")]),
        ]
        let transactions =
            "transaction_id,customer_id,product_id,product_type,purchase_date,expires_date\n"
            + "t1,sub-matching,pro.monthly,auto_renewable,2024-05-15T00:00:00Z,2024-07-01T00:00:00Z\n"
        let run = try AuditFixture.run([
            FixtureFile("customers.csv", customers), FixtureFile("transactions.csv", transactions),
            FixtureFile("subscribers.jsonl", responses.joined(separator: "\n") + "\n"),
        ])
        func has(_ id: String, _ flag: String) -> Bool { run.flags(id).contains(flag) }
        let notGranted = run.ids.filter { has($0, "grandfathered_not_granted") }
        let notEntitled = run.ids.filter { has($0, "granted_not_entitled") }
        // Grandfathered, and RevenueCat has no premium on: none at all, or one that expired.
        #expect(notGranted == ["gf-expired", "gf-none"])
        // RevenueCat grants premium to a customer the policy gives nothing; and navigation,
        // which no verdict source gives, to a grandfathered one.
        #expect(notEntitled == ["gf-extra", "new-granted"])
        #expect(run.customerClass("new-granted") == .new)
        #expect(run.customerClass("sub-matching") == .subscriber)
        #expect(Flag.grandfatheredNotGranted.severity == .review)
        #expect(Flag.grantedNotEntitled.severity == .review)

        // The grants file lists exactly the grandfathered customers RevenueCat leaves out.
        #expect(run.audit.reconciled)
        let csv = String(decoding: GrantsFiles.csv(run.audit), as: UTF8.self)
        #expect(csv == "customer_id,entitlement,duration\ngf-expired,premium,lifetime\ngf-none,premium,lifetime\n")
        let lines = String(decoding: try GrantsFiles.jsonLines(run.audit), as: UTF8.self)
            .split(separator: "\n").map(String.init)
        #expect(
            lines.first
                == #"{"app_user_id":"gf-expired","body":{"duration":"lifetime"},"entitlement":"premium","method":"POST","path":"/v1/subscribers/gf-expired/entitlements/premium/promotional"}"#
        )
        #expect(lines.count == 2)
    }

    @Test("an app user id is percent-encoded in the request path")
    func pathSegments() {
        #expect(GrantsFiles.pathSegment("$RCAnonymousID:87c6") == "%24RCAnonymousID%3A87c6")
        #expect(GrantsFiles.pathSegment("a/b é") == "a%2Fb%20%C3%A9")
        // Dot-segments would be removed by the client: encoded, as no other id is.
        #expect(GrantsFiles.pathSegment("..") == "%2E%2E")
        #expect(GrantsFiles.pathSegment(".") == "%2E")
        #expect(GrantsFiles.pathSegment("...") == "...")
    }

    @Test("a run without subscriber responses reconciles nothing")
    func noResponses() throws {
        let run = try AuditFixture.run(customers: AuditFixture.customers("a", version: "100"))
        #expect(!run.audit.reconciled)
        #expect(!run.flags("a").contains("grandfathered_not_granted"))
    }
}
