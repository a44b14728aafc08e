/// The `store` of a Scheduled Data Export row (FORMATS.md §a: `app_store`, `play_store`,
/// `stripe`, `promotional`, and the REST API's `mac_app_store`, `amazon`, `roku`,
/// `paddle`), read without regard to case. Any other store is accepted as `other`: new
/// stores appear, and a row is not wrong for naming one.
enum ExportStore: String, Sendable, CaseIterable {
    case appStore = "app_store"
    case macAppStore = "mac_app_store"
    case playStore = "play_store"
    case amazon
    case stripe
    case paddle
    case rcBilling = "rc_billing"
    case promotional
    case other

    /// The store named by `bytes`.
    static func read(_ bytes: Span<UInt8>) -> ExportStore {
        for store in named where RevenueCatValue.spells(bytes, store.spelling) { return store }
        return .other
    }

    /// Every store with a name of its own, most common first.
    private static let named: [ExportStore] = allCases.filter { $0 != .other }

    /// The raw value, as fixed text that is read without making a string.
    var spelling: StaticString {
        switch self {
        case .appStore: return "app_store"
        case .macAppStore: return "mac_app_store"
        case .playStore: return "play_store"
        case .amazon: return "amazon"
        case .stripe: return "stripe"
        case .paddle: return "paddle"
        case .rcBilling: return "rc_billing"
        case .promotional: return "promotional"
        case .other: return "other"
        }
    }

    /// The platform the store stands for, for a customer no other source gives a platform
    /// (issue 16's mapping): the Mac App Store is macOS; the App Store is `appStore`, the
    /// Apple platform the policy names (`apple.default_platform`, else iOS); Google Play is
    /// Android; Stripe, Paddle and RevenueCat Billing are the web; Amazon is Amazon. A
    /// promotional grant or an unknown store says nothing of a platform.
    func platform(appStore: Platform) -> Platform? {
        switch self {
        case .appStore: return appStore
        case .macAppStore: return .macos
        case .playStore: return .android
        case .stripe, .paddle, .rcBilling: return .web
        case .amazon: return .amazon
        case .promotional, .other: return nil
        }
    }

    /// Whether the store's `store_transaction_id` is one per transaction, renewals included
    /// (FORMATS.md §a: "Not unique on Stripe"; the web billing stores and promotional grants
    /// work alike). Any other store's ids are made unique with the renewal number, as
    /// RevenueCat recommends.
    var hasUniqueTransactionIDs: Bool {
        switch self {
        case .appStore, .macAppStore, .playStore, .amazon: return true
        case .stripe, .paddle, .rcBilling, .promotional, .other: return false
        }
    }
}
