/// Where a customer's facts come from, strongest first (SPEC §9, "Customers from several
/// sources"): for each fact, the strongest source that has it wins.
///
/// SPEC ranks a verified App Store app transaction over a RevenueCat subscriber response, over
/// a canonical customers row, over a RevenueCat customer list. Where SPEC is silent (docs/Inputs.md,
/// "Customers from several sources"): an App Store app transaction that is not verified
/// (self-signed, or read with `--no-verify` or `--trust-decoded`) ranks below the canonical row
/// and above the customer list, since unverified data never outranks what the team keeps; a
/// RevenueCat export row says only which store a customer bought in, the weakest platform fact.
/// A Google Play order the customer claims, found in the store's own reports
/// (`ClaimedOrderRules`), is the store's record of the purchase: it ranks just below a verified
/// App Store app transaction, the other store's own record, and above everything a team or a
/// service keeps. A stored Google Play licensing verdict (`LicensingRules`) says only that the
/// app was bought by then: it ranks just below the customers file. A customer made only from
/// its Google Play subscriptions (stored `subscriptionsv2` responses) is Google's record of the
/// subscriber, kept by the team unsigned: it ranks with an unverified App Store record, just
/// below it, and above what RevenueCat keeps.
public enum CustomerSource: UInt8, CaseIterable, Comparable, Sendable, Codable {
    case appStoreVerified = 1
    case googlePlayOrder
    case subscriberResponse
    case customersFile
    case playLicensing
    case appStoreUnverified
    case playSubscription
    case customerList
    case exportRow

    /// As the snapshot and reports name it.
    public var code: String {
        switch self {
        case .appStoreVerified: return "app_store_verified"
        case .googlePlayOrder: return "google_play_order"
        case .subscriberResponse: return "revenuecat_subscriber"
        case .customersFile: return "customers_file"
        case .playLicensing: return "play_licensing"
        case .playSubscription: return "google_play_subscription"
        case .appStoreUnverified: return "app_store_unverified"
        case .customerList: return "revenuecat_customer_list"
        case .exportRow: return "revenuecat_export"
        }
    }

    /// Stronger first: `appStoreVerified` < `customersFile` reads "outranks".
    public static func < (lhs: CustomerSource, rhs: CustomerSource) -> Bool {
        lhs.rawValue < rhs.rawValue
    }
}

/// The facts of a customer record that sources may disagree on.
public enum CustomerFact: Int, CaseIterable, Sendable {
    case platform, originalAppVersion, originalPurchaseDate, environment, preorderDate, storefront

    /// As the snapshot names it: the `customers` column it fills.
    public var code: String {
        switch self {
        case .platform: return "platform"
        case .originalAppVersion: return "original_app_version"
        case .originalPurchaseDate: return "original_purchase_date"
        case .environment: return "environment"
        case .preorderDate: return "preorder_date"
        case .storefront: return "storefront"
        }
    }
}

/// Which source gave each fact of a customer, the source of the row itself, and whether two
/// sources disagreed, in one word: a customer keeps it in padding its record had anyway.
public struct CustomerProvenance: Sendable, Hashable {
    /// 4 bits per fact (0: none), the row's source in bits 24–27, the conflict in bit 28,
    /// whether the platform is a store's in bit 29, whether it is a guess in bit 30.
    private var bits: UInt32 = 0

    public init() {}

    /// The provenance of one row from `source`, which gave `facts`.
    init(source: CustomerSource, facts: some Sequence<CustomerFact>) {
        bits = UInt32(source.rawValue) << 24
        for fact in facts { set(fact, source) }
    }

    /// The source of the row this record was read from; for an assembled customer, its
    /// strongest source.
    public var rowSource: CustomerSource? {
        CustomerSource(rawValue: UInt8(truncatingIfNeeded: bits >> 24 & 0xF))
    }

    /// The source that gave `fact`, `nil` when none did.
    public func source(of fact: CustomerFact) -> CustomerSource? {
        CustomerSource(rawValue: UInt8(truncatingIfNeeded: bits >> (4 * fact.rawValue) & 0xF))
    }

    mutating func set(_ fact: CustomerFact, _ source: CustomerSource?) {
        let shift = UInt32(4 * fact.rawValue)
        bits = bits & ~(0xF << shift) | UInt32(source?.rawValue ?? 0) << shift
    }

    mutating func setRowSource(_ source: CustomerSource) {
        bits = bits & ~(0xF << 24) | UInt32(source.rawValue) << 24
    }

    /// Whether two sources gave different values for one fact (`conflicting_customer_facts`).
    public var hasConflictingFacts: Bool {
        get { bits & 1 << 28 != 0 }
        set { bits = newValue ? bits | 1 << 28 : bits & ~(1 << 28) }
    }

    /// Whether the row's platform is only where it bought (a store), not a claim about the
    /// customer's device: such a platform counts only where no other source gives one, and
    /// disagrees with nobody. Export rows' and customer lists' platforms always are.
    public var platformIsAStore: Bool {
        get {
            bits & 1 << 29 != 0 || rowSource == .exportRow || rowSource == .customerList
        }
        set { bits = newValue ? bits | 1 << 29 : bits & ~(1 << 29) }
    }

    /// Whether the row's platform is only a guess (a subscriber response with an App Store
    /// version and no purchase to tell the store: the policy's Apple platform): it counts
    /// after every other source's, stores' included, and disagrees with nobody.
    public var platformIsAGuess: Bool {
        get { bits & 1 << 30 != 0 }
        set { bits = newValue ? bits | 1 << 30 : bits & ~(1 << 30) }
    }

    /// Whether more than one source gave this customer's facts.
    public var isAssembled: Bool {
        guard let row = rowSource else { return false }
        return CustomerFact.allCases.contains { fact in source(of: fact).map { $0 != row } ?? false }
    }
}
