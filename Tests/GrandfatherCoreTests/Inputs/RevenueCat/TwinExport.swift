import Foundation
import GrandfatherTestSupport

/// A Scheduled Data Export of canonical transactions: the v5 column set (FORMATS.md §a) in a
/// shuffled order, each row's booleans, lists and hours spelled one of the ways the export
/// versions write them, times in UTC `YYYY-MM-DD H:MM:SS`.
struct TwinExport {
    static let columns = [
        "rc_original_app_user_id", "rc_last_seen_app_user_id_alias", "country", "country_source",
        "product_identifier", "product_display_name", "product_duration", "start_time", "end_time",
        "grace_period_end_time", "effective_end_time", "store", "is_auto_renewable", "is_trial_period",
        "is_in_intro_offer_period", "is_sandbox", "price_in_usd", "purchase_price_in_usd", "takehome_percentage",
        "tax_percentage", "commission_percentage", "store_transaction_id", "original_store_transaction_id",
        "refunded_at", "unsubscribe_detected_at", "billing_issues_detected_at", "purchased_currency",
        "price_in_purchased_currency", "purchase_price_in_purchased_currency", "entitlement_identifiers",
        "renewal_number", "is_trial_conversion", "presented_offering", "ownership_type",
        "reserved_subscriber_attributes", "custom_subscriber_attributes", "platform", "experiment_id",
        "experiment_variant", "updated_at", "offer", "offer_type", "first_seen_time", "auto_resume_time",
    ]
    /// The policy's entitlements of each product (`PolicySpec`'s), which RevenueCat would list.
    static let entitlements = Dictionary(PolicySpec().products.map { ($0.0, $0.1) }, uniquingKeysWith: { a, _ in a })

    /// Each customer's platform: an App Store row is iOS, a Mac App Store row macOS.
    let platforms: [String: String]
    var random: SplitMix

    init(platforms: [String: String], seed: UInt64) {
        self.platforms = platforms
        random = SplitMix(seed: seed)
    }

    /// The export of `rows`, in a shuffled order, gzipped by the caller.
    mutating func bytes(_ rows: [TwinData.Transaction]) -> [UInt8] {
        let order = Self.columns.shuffled(using: &random)
        let records = rows.shuffled(using: &random).map { row in
            let values = self.values(row)
            return order.map { values[$0] }
        }
        return Array(TwinData.csv(order, records).utf8)
    }

    /// One row's values by column; a column it leaves out is empty.
    private mutating func values(_ row: TwinData.Transaction) -> [String: String] {
        let booleans = [("f", "t"), ("false", "true"), ("FALSE", "TRUE"), ("False", "True")][
            Int.random(in: 0..<4, using: &random)]
        func bool(_ value: Bool) -> String { value ? booleans.1 : booleans.0 }
        let listStyle = Int.random(in: 0..<4, using: &random)
        func list(_ items: [String]) -> String {
            switch listStyle {
            case 0: return "{" + items.joined(separator: ",") + "}"
            case 1: return "[" + items.joined(separator: ", ") + "]"
            case 2: return "[" + items.map { "\"\($0)\"" }.joined(separator: ",") + "]"
            default: return "[" + items.map { "'\($0)'" }.joined(separator: ", ") + "]"
            }
        }
        let shortHours = Bool.random(using: &random)
        func time(_ seconds: Int64?) -> String? {
            guard let seconds else { return nil }
            var text = Pools.wallTime(seconds).replacingOccurrences(of: "T", with: " ")
            let hour = text.index(text.startIndex, offsetBy: 11)
            if shortHours, text[hour] == "0" { text.remove(at: hour) }
            return text
        }
        let macOS = platforms[row.customer] == "macos"
        let price = ["", "4.99", "0"][row.price]
        let autoRenewable = row.type == "auto_renewable"
        var entitled = Self.entitlements[row.product] ?? ["premium"]
        if row.type == "non_consumable", entitled.isEmpty { entitled = ["premium"] }
        if row.type == "consumable" { entitled = [] }
        let values: [String: String?] = [
            "rc_original_app_user_id": row.customer, "rc_last_seen_app_user_id_alias": row.customer,
            "country": "US", "country_source": "from_sdk", "product_identifier": row.product,
            "product_display_name": row.product,
            "product_duration": autoRenewable ? "P1M" : row.type == "non_renewing" ? "P1Y" : nil,
            "start_time": time(row.purchased), "end_time": time(row.expires), "grace_period_end_time": time(row.grace),
            "effective_end_time": time(row.revoked ?? row.grace ?? row.expires),
            "store": macOS ? "mac_app_store" : "app_store", "is_auto_renewable": bool(autoRenewable),
            "is_trial_period": bool(false), "is_in_intro_offer_period": bool(false), "is_sandbox": bool(row.isSandbox),
            "price_in_usd": row.revoked != nil && !price.isEmpty ? "0" : price, "purchase_price_in_usd": price,
            "takehome_percentage": "0.7", "tax_percentage": "0.0", "commission_percentage": "0.3",
            "store_transaction_id": row.id, "original_store_transaction_id": row.original,
            "refunded_at": time(row.revoked),
            "billing_issues_detected_at": row.state == "in_billing_retry" ? time(row.expires ?? row.purchased) : nil,
            "purchased_currency": row.price == 1 ? "USD" : nil,
            "price_in_purchased_currency": row.revoked != nil && !price.isEmpty ? "0" : price,
            "purchase_price_in_purchased_currency": price,
            "entitlement_identifiers": entitled.isEmpty ? ["", "[]", "{}"][listStyle % 3] : list(entitled),
            "renewal_number": String(Int.random(in: 1...3, using: &random)), "is_trial_conversion": bool(false),
            "ownership_type": row.familyShared ? "FAMILY_SHARED" : "PURCHASED",
            "reserved_subscriber_attributes": #"{"$ip": {"value": "192.0.2.1", "updated_at_ms": 1700000000000}}"#,
            "custom_subscriber_attributes": "{}", "platform": macOS ? "macOS" : "iOS",
            "updated_at": time(TwinData.updatedAt), "first_seen_time": time(Pools.cutover - 30 * Pools.day),
        ]
        return values.compactMapValues { $0 }
    }
}
