/// The columns of RevenueCat's Scheduled Data Export (the transactions feed) that the audit
/// reads (FORMATS.md §a, v3 to v7). Columns are matched by header name, in any order; any of
/// these but the required ones may be missing, and every other column is ignored. Raw values
/// index a row's fields.
enum ExportColumn: Int, CaseIterable, Sendable {
    case appUserID
    case productID
    case productDuration
    case startTime
    case endTime
    case gracePeriodEndTime
    case store
    case isAutoRenewable
    case isSandbox
    case storeTransactionID
    case originalStoreTransactionID
    case refundedAt
    case billingIssuesDetectedAt
    case purchasedCurrency
    case priceInPurchasedCurrency
    case purchasePriceInPurchasedCurrency
    case entitlementIdentifiers
    case renewalNumber
    case ownershipType
    case updatedAt

    /// The column's name in the export's header.
    var name: String {
        switch self {
        case .appUserID: return "rc_original_app_user_id"
        case .productID: return "product_identifier"
        case .productDuration: return "product_duration"
        case .startTime: return "start_time"
        case .endTime: return "end_time"
        case .gracePeriodEndTime: return "grace_period_end_time"
        case .store: return "store"
        case .isAutoRenewable: return "is_auto_renewable"
        case .isSandbox: return "is_sandbox"
        case .storeTransactionID: return "store_transaction_id"
        case .originalStoreTransactionID: return "original_store_transaction_id"
        case .refundedAt: return "refunded_at"
        case .billingIssuesDetectedAt: return "billing_issues_detected_at"
        case .purchasedCurrency: return "purchased_currency"
        case .priceInPurchasedCurrency: return "price_in_purchased_currency"
        case .purchasePriceInPurchasedCurrency: return "purchase_price_in_purchased_currency"
        case .entitlementIdentifiers: return "entitlement_identifiers"
        case .renewalNumber: return "renewal_number"
        case .ownershipType: return "ownership_type"
        case .updatedAt: return "updated_at"
        }
    }

    /// Without these a row names no customer, product, purchase or transaction: a header
    /// that lacks one is not an export the audit can read.
    static let required: [ExportColumn] = [.appUserID, .productID, .startTime, .store, .storeTransactionID]
}
