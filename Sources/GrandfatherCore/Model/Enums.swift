/// The closed vocabularies of SPEC §2, with the spec's strings as raw values (read from a
/// row's bytes by Model/Enums+Vocabulary.swift).

/// The platform a customer's app transaction comes from: Apple's six, and the three SPEC §9
/// adds for sources that carry them (a RevenueCat export's Google Play, web and Amazon
/// stores).
public enum Platform: String, CaseIterable, Sendable, Codable {
    case ios, ipados, macos, tvos, watchos, visionos
    case android, web, amazon

    /// Apple's platforms, whose original app version the App Store keeps. Their cutovers fall
    /// back on `default`; the others' are optional, their own or none (SPEC §9).
    public var isApple: Bool {
        switch self {
        case .ios, .ipados, .macos, .tvos, .watchos, .visionos: return true
        case .android, .web, .amazon: return false
        }
    }

    /// The platform's position in `allCases`, for tables indexed by platform (`allCases`
    /// itself would be built on every call).
    var index: Int {
        switch self {
        case .ios: return 0
        case .ipados: return 1
        case .macos: return 2
        case .tvos: return 3
        case .watchos: return 4
        case .visionos: return 5
        case .android: return 6
        case .web: return 7
        case .amazon: return 8
        }
    }
}

/// Where a record comes from; `xcode` is read as `sandbox` (SPEC §8.4).
public enum Environment: String, CaseIterable, Sendable, Codable {
    case production, sandbox
}

/// The kind of an in-app product.
public enum ProductType: String, CaseIterable, Sendable, Codable {
    case autoRenewable = "auto_renewable"
    case nonRenewing = "non_renewing"
    case nonConsumable = "non_consumable"
    case consumable

    /// Whether the product can make a customer lapsed or refunded (every type but consumable).
    public var isDurable: Bool { self != .consumable }

    /// A small stable number for fingerprints.
    var code: UInt8 {
        switch self {
        case .autoRenewable: return 0
        case .nonRenewing: return 1
        case .nonConsumable: return 2
        case .consumable: return 3
        }
    }
}

/// Whether the customer bought a transaction or has it through Family Sharing.
public enum OwnershipType: String, CaseIterable, Sendable, Codable {
    case purchased
    case familyShared = "family_shared"
}

/// The renewal state an export reports for an auto-renewable subscription.
public enum RenewalState: String, CaseIterable, Sendable, Codable {
    case subscribed, expired, revoked
    case inBillingRetry = "in_billing_retry"
    case inGracePeriod = "in_grace_period"

    /// A small stable number for fingerprints.
    var code: UInt64 {
        switch self {
        case .subscribed: return 0
        case .expired: return 1
        case .revoked: return 2
        case .inBillingRetry: return 3
        case .inGracePeriod: return 4
        }
    }
}

/// The class a customer falls in (SPEC §4).
public enum CustomerClass: String, CaseIterable, Sendable, Codable, Comparable {
    case grandfathered, subscriber, lapsed, new, excluded

    public static func < (lhs: CustomerClass, rhs: CustomerClass) -> Bool {
        lhs.rank < rhs.rank
    }

    private var rank: Int { Self.allCases.firstIndex(of: self) ?? 0 }
}

/// Why a customer holds an entitlement (SPEC §8.13).
public enum EntitlementSource: String, CaseIterable, Sendable, Codable, BitwiseCopyable {
    case grandfathered, purchase
    case familyShared = "family_shared"
    case gracePeriod = "grace_period"
    /// A grant a store or service made rather than sold (SPEC §9): RevenueCat's `promotional` store.
    case promotional
}

/// Which evidence decides "bought before the cutover" (SPEC §3).
public enum CutoverBasis: String, CaseIterable, Sendable, Codable {
    case version, date, either, both
}
