import Foundation
import Testing

/// `explain` of RevenueCat grants: a promotion's source, and a product the policy does not
/// list granting what its rows name.
@Suite struct RevenueCatExplainTests {
    @Test func aPromotionGrantsWhatItsRowsName() throws {
        let cli = try CLI()
        try cli.write("policy.json", SmallData.policy)
        try cli.write(
            "export.csv",
            "rc_original_app_user_id,product_identifier,start_time,end_time,store,is_auto_renewable,is_sandbox,"
                + "store_transaction_id,renewal_number,entitlement_identifiers,updated_at\n"
                + "promo,rc_promo_pro,2024-05-01 00:00:00,2024-07-01 00:00:00,promotional,false,false,p1,1,[pro],"
                + "2024-05-01 00:00:01\n")
        let audit = try cli.run([
            "audit", "--policy", "policy.json", "--as-of", SmallData.asOf, "--out", "out", "export.csv",
        ])
        #expect(audit.status == 0, "\(audit.stderr)")
        let result = try cli.run(["explain", "promo", "--snapshot", "out/latest"])
        #expect(result.status == 0, "\(result.stderr)")
        #expect(
            result.stdout.contains(
                "grants pro (promotional): rc_promo_pro is not in the policy's products, so what its rows name "
                    + "(entitlement_identifiers)"))
        #expect(result.stdout.contains("  pro: promotional through p1#1, until 2024-07-01T00:00:00Z"))
        #expect(result.stdout.contains("  p1#1  rc_promo_pro  non_consumable, promotional\n"))
    }
}
