/// The catalog of edge-case flags (SPEC §5): code, severity and explanation in one place.
///
/// The README's flag table is generated from this enum, and a test fails when it is stale.
public enum Flag: String, CaseIterable, Sendable, Codable, Comparable {
    case boughtJustBeforeCutover = "bought_just_before_cutover"
    case boughtJustAfterCutover = "bought_just_after_cutover"
    case versionDateDisagree = "version_date_disagree"
    case naiveVersionTrap = "naive_version_trap"
    case missingOriginalVersion = "missing_original_version"
    case unparseableVersion = "unparseable_version"
    case noCutoverForPlatform = "no_cutover_for_platform"
    case preordered
    case grandfatheredAndSubscribed = "grandfathered_and_subscribed"
    case billingRetry = "billing_retry"
    case inGracePeriod = "in_grace_period"
    case familySharedOnly = "family_shared_only"
    case refunded
    case consumableOnly = "consumable_only"
    case orphanTransactions = "orphan_transactions"
    case sandbox
    case conflictingDuplicate = "conflicting_duplicate"
    case impossibleDates = "impossible_dates"
    case unlinkedTransactions = "unlinked_transactions"
    case conflictingCustomerFacts = "conflicting_customer_facts"
    case grandfatheredNotGranted = "grandfathered_not_granted"
    case grantedNotEntitled = "granted_not_entitled"
    case orderNotFound = "order_not_found"
    case orderRefunded = "order_refunded"
    case orderClaimedTwice = "order_claimed_twice"
    case licensedOnlyAfterCutover = "licensed_only_after_cutover"

    /// How much attention a flag asks for (SPEC §6).
    public enum Severity: String, CaseIterable, Sendable, Codable {
        /// Context for a reviewer.
        case info
        /// A person should decide.
        case review
        /// The input is suspect.
        case data
    }

    /// The flag's stable code, as written in every output.
    public var code: String { rawValue }

    /// The catalog's severity for this flag.
    public var severity: Severity {
        switch self {
        case .boughtJustBeforeCutover, .boughtJustAfterCutover, .versionDateDisagree, .naiveVersionTrap,
            .noCutoverForPlatform, .grandfatheredAndSubscribed, .grandfatheredNotGranted, .grantedNotEntitled,
            .orderNotFound, .orderRefunded, .orderClaimedTwice:
            return .review
        case .preordered, .billingRetry, .inGracePeriod, .familySharedOnly, .refunded, .consumableOnly, .sandbox,
            .licensedOnlyAfterCutover:
            return .info
        case .missingOriginalVersion, .unparseableVersion, .orphanTransactions, .conflictingDuplicate,
            .impossibleDates, .unlinkedTransactions, .conflictingCustomerFacts:
            return .data
        }
    }

    /// One sentence a reviewer reads next to the flag.
    public var explanation: String {
        switch self {
        case .boughtJustBeforeCutover:
            return
                "First bought within the edge window before the cutover instant; time zones decide which side they land on."
        case .boughtJustAfterCutover:
            return "First bought within the edge window after the cutover instant and not grandfathered."
        case .versionDateDisagree:
            return
                "The original app version and the original purchase date give different answers to \"bought before the cutover\"."
        case .naiveVersionTrap:
            return "Comparing the versions as plain strings gives a different answer than comparing them as numbers."
        case .missingOriginalVersion:
            return "No original app version is known, so the purchase cannot be verified by version."
        case .unparseableVersion:
            return "The original app version is not dot-separated integers, so it cannot be compared."
        case .noCutoverForPlatform:
            return "The policy names no cutover version for this customer's Apple platform and no default."
        case .preordered:
            return "The app was pre-ordered."
        case .grandfatheredAndSubscribed:
            return "Grandfathered, yet paying for a current subscription that grants nothing more."
        case .billingRetry:
            return "Not entitled now, but the latest subscription is in billing retry and may recover."
        case .inGracePeriod:
            return "Entitled only through a billing grace period."
        case .familySharedOnly:
            return "Entitled only through Family Sharing."
        case .refunded:
            return "Has a refunded or revoked purchase."
        case .consumableOnly:
            return "Has only consumable purchases, which never entitle."
        case .orphanTransactions:
            return "Has transactions but no customer record; platform, version and dates are unknown."
        case .sandbox:
            return "The customer's record comes from the sandbox; excluded from the classes."
        case .conflictingDuplicate:
            return "A transaction id appears with different content; every version was used."
        case .grandfatheredNotGranted:
            return
                "Grandfathered by the policy, but RevenueCat has none of the grandfathered entitlements active: the app would show a paywall."
        case .grantedNotEntitled:
            return "RevenueCat has an entitlement active that the policy's verdict gives no source for."
        case .conflictingCustomerFacts:
            return "Two sources give this customer different facts; the higher-ranked source's are used."
        case .impossibleDates:
            return "A date lies after the as-of instant, or an expiry before its purchase."
        case .orderNotFound:
            return
                "Claims a Google Play order that no sales or earnings report given lists for the paid app; the claim is no evidence."
        case .orderRefunded:
            return "Claims a Google Play order that the reports show refunded; the claim is no evidence."
        case .orderClaimedTwice:
            return "Claims a Google Play order that another customer claims too; the claim is evidence for neither."
        case .licensedOnlyAfterCutover:
            return
                "Google Play licensing said LICENSED only at or after the cutover, when every install of the free app is licensed; no evidence of purchase."
        case .unlinkedTransactions:
            return
                "Store transactions that name no customer (an App Store transaction without appTransactionId or appAccountToken, a Google Play subscription without an account id) and share no subscription with a known customer; this customer stands for one subscription."
        }
    }

    public static func < (lhs: Flag, rhs: Flag) -> Bool {
        lhs.rawValue.utf8.lexicographicallyPrecedes(rhs.rawValue.utf8)
    }
}
