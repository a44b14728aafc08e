import Foundation
import Testing

@testable import GrandfatherCore

/// `store = promotional` rows are grants, not purchases (SPEC §9): entitlement source
/// `promotional`, current while `end_time` is after as-of or absent, whatever the product.
struct PromotionalGrantTests {
    static let header =
        "rc_original_app_user_id,product_identifier,start_time,end_time,store,is_auto_renewable,is_sandbox,"
        + "store_transaction_id,renewal_number,entitlement_identifiers,purchase_price_in_purchased_currency,"
        + "purchased_currency,updated_at\n"

    /// One row: a store, a product and an end time (empty for none); as-of is 2024-06-01.
    static func row(_ id: String, store: String, product: String, end: String, autoRenewable: Bool = false) -> String {
        "\(id),\(product),2024-05-01 00:00:00,\(end),\(store),\(autoRenewable),false,tx-\(id),1,[premium],9.99,USD,"
            + "2024-05-01 00:00:01\n"
    }

    @Test("a promotion is current until its end or for good, and grants through the promotional source")
    func currency() throws {
        let export =
            Self.header
            // Said to renew, as a promotion never does: still a grant, not a subscription.
            + Self.row(
                "promo-until-july", store: "promotional", product: "rc_promo_pro_monthly", end: "2024-07-01 00:00:00",
                autoRenewable: true)
            + Self.row("promo-ended", store: "promotional", product: "rc_promo_pro_monthly", end: "2024-05-15 00:00:00")
            + Self.row("promo-for-life", store: "promotional", product: "rc_promo_pro_lifetime", end: "")
            + Self.row(
                "bought", store: "app_store", product: "pro.monthly", end: "2024-07-01 00:00:00", autoRenewable: true)
        let run = try AuditFixture.run([FixtureFile("export.csv", export)])
        #expect(run.customerClass("promo-until-july") == .subscriber)
        #expect(run.grants("promo-until-july") == [Grant("premium", .promotional)])
        #expect(run.result("promo-until-july")?.entitlements.first?.expiresDate?.iso8601 == "2024-07-01T00:00:00Z")
        // Ended before as-of: nothing current; it unlocked an entitlement, so it was durable.
        #expect(run.customerClass("promo-ended") == .lapsed)
        #expect(run.grants("promo-ended").isEmpty)
        #expect(run.customerClass("promo-for-life") == .subscriber)
        #expect(run.result("promo-for-life")?.entitlements.first?.expiresDate == nil)
        #expect(run.grants("bought") == [Grant("premium", .purchase)])
        // The export knows its promotions' customers, though their store names no platform:
        // customers of the export's, with no platform, not orphans.
        for id in ["promo-until-july", "promo-ended", "promo-for-life"] {
            #expect(run.result(id)?.customer.isOrphan == false, "\(id)")
            #expect(run.result(id)?.customer.platform == nil, "\(id)")
            #expect(run.flags(id) == ["missing_original_version"], "\(id)")
        }
        // A promotion is paid by no one: no revenue at stake from it, only from the purchase.
        #expect(run.audit.revenue.classes.first { $0.0 == .subscriber }?.1.customers == 1)
    }

    @Test("a grandfathered customer with a promotion is not flagged as paying twice")
    func notGrandfatheredAndSubscribed() throws {
        let export =
            Self.header
            + Self.row("gf-promo", store: "promotional", product: "rc_promo_pro_monthly", end: "2024-07-01 00:00:00")
            + Self.row(
                "gf-paying", store: "app_store", product: "pro.monthly", end: "2024-07-01 00:00:00", autoRenewable: true
            )
        let run = try AuditFixture.run([
            FixtureFile("customers.csv", AuditFixture.customers("gf-paying", "gf-promo", version: "100")),
            FixtureFile("export.csv", export),
        ])
        #expect(run.customerClass("gf-promo") == .grandfathered)
        #expect(!run.flags("gf-promo").contains("grandfathered_and_subscribed"))
        #expect(run.grants("gf-promo").contains(Grant("premium", .promotional)))
        #expect(run.flags("gf-paying").contains("grandfathered_and_subscribed"))
    }

    @Test("the snapshot accepts promotional as an entitlement source")
    func schema() {
        #expect(SnapshotSchema.tables.joined().contains("source = 'promotional'"))
        #expect(EntitlementSource.allCases.contains(.promotional))
    }
}
