import Foundation
import Testing

@testable import GrandfatherCore

/// Issue 16: "the policy's `products` map decides when it lists the product; otherwise the
/// row's `entitlement_identifiers`; otherwise SPEC §8.12's fallback".
struct RowEntitlementsTests {
    static let header =
        "rc_original_app_user_id,product_identifier,start_time,end_time,store,is_auto_renewable,is_sandbox,"
        + "store_transaction_id,renewal_number,entitlement_identifiers,updated_at\n"

    /// A current auto-renewable row of `product` naming `entitlements` (as-of is 2024-06-01).
    static func row(_ id: String, _ product: String, _ entitlements: String) -> String {
        "\(id),\(product),2024-05-01 00:00:00,2024-07-01 00:00:00,app_store,true,false,tx-\(id),1,"
            + "\"\(entitlements)\",2024-05-01 00:00:01\n"
    }

    @Test("the policy's products decide; else what the rows say; else the grandfathered entitlements")
    func precedence() throws {
        let export =
            Self.header
            // `pro.monthly` is the policy's: premium, whatever the row says.
            + Self.row("listed", "pro.monthly", "[maps]")
            // Not the policy's: what its rows name, both rows of it together.
            + Self.row("unlisted-a", "team.pro", "[maps]")
            + Self.row("unlisted-b", "team.pro", "{offline,maps}")
            // Not the policy's, and no row names anything: SPEC §8.12's fallback.
            + Self.row("silent", "mystery.plan", "[]")
        let run = try AuditFixture.run([FixtureFile("export.csv", export)])
        func names(_ id: String) -> [String] { run.grants(id).map(\.entitlement) }
        #expect(names("listed") == ["premium"])
        #expect(names("unlisted-a") == ["maps", "offline"])
        #expect(names("unlisted-b") == ["maps", "offline"])
        #expect(names("silent") == ["premium"])
    }

    @Test("a subscriber response's entitlements say what its purchases' products unlock")
    func responses() throws {
        let body =
            #"{"request_date": "2024-06-01T00:00:00Z", "subscriber": {"original_app_user_id": "ann", "#
            + #""original_application_version": "300", "subscriptions": {"team.pro": {"store": "app_store", "#
            + #""store_transaction_id": "t1", "purchase_date": "2024-05-01T00:00:00Z", "#
            + #""expires_date": "2024-07-01T00:00:00Z"}}, "entitlements": {"#
            + #""maps": {"expires_date": "2024-07-01T00:00:00Z", "product_identifier": "team.pro"}}}}"#
        let run = try AuditFixture.run([FixtureFile("subscribers.jsonl", body + "\n")])
        #expect(run.grants("ann") == [Grant("maps", .purchase)])
        // RevenueCat's view and the verdict agree: no reconciliation flag.
        #expect(run.flags("ann").isEmpty)
    }

    @Test("a policy lists what it lists: rows only add products it does not name")
    func policyGranting() throws {
        let policy = try PolicyLoader.parse(data: Data(PolicySpec().json.utf8), file: "policy.json")
        let granted = policy.granting(["pro.monthly": ["maps"], "team.pro": ["offline", "maps"]])
        #expect(granted.entitlements(forProduct: "pro.monthly") == ["premium"])
        #expect(granted.entitlements(forProduct: "team.pro") == ["maps", "offline"])
        #expect(granted.entitlements(forProduct: "other") == ["premium"])
        #expect(granted.digest == policy.digest)
    }
}
