/// The facts flag detection reads, with one small rule per flag (SPEC §5, §8.15–8.24).
struct FlagFacts {
    let customer: Customer
    let activity: CustomerActivity
    let policy: Policy
    let asOf: Instant
    /// The cutover version for the customer's platform: its own, else `default`.
    let cutoverVersion: AppVersion?
    /// The version answer (SPEC §8.10), `nil` when there is none.
    let byVersion: Bool?
    /// The date answer (SPEC §8.10), `nil` when there is none.
    let byDate: Bool?
    /// Whether plain string comparison disagrees with numeric comparison (needs a version answer).
    private let naiveDisagrees: Bool
    /// Whether a version is present but not dot-separated integers.
    private let unparseable: Bool
    /// Set by the classifier once the basis has decided.
    var grandfathered = false

    init(customer: Customer, activity: CustomerActivity, policy: Policy, asOf: Instant) {
        self.customer = customer
        self.activity = activity
        self.policy = policy
        self.asOf = asOf
        cutoverVersion = customer.platform.flatMap { policy.cutover.version(for: $0) }
        var byVersion: Bool?
        var naiveDisagrees = false
        var unparseable = false
        if let text = customer.originalAppVersion {
            // The version is read once, against the platform's cutover if it has one.
            let comparison = cutoverVersion.flatMap { AppVersion.compare(text, with: $0) }
            if let comparison {
                byVersion = comparison.lower
                naiveDisagrees = comparison.lower != comparison.naivelyLower
            } else {
                unparseable = AppVersion(text) == nil
            }
        }
        self.byVersion = byVersion
        self.naiveDisagrees = naiveDisagrees
        self.unparseable = unparseable
        byDate = customer.originalPurchaseDate.map { $0 < policy.cutover.date }
    }

    /// Every flag the customer carries.
    func flags() -> FlagSet {
        var set = FlagSet()
        for flag in Flag.allCases where raises(flag) { set.insert(flag) }
        return set
    }

    /// Whether the customer carries `flag`.
    func raises(_ flag: Flag) -> Bool {
        switch flag {
        case .boughtJustBeforeCutover: return boughtJustBeforeCutover
        case .boughtJustAfterCutover: return boughtJustAfterCutover
        case .versionDateDisagree: return versionDateDisagree
        case .naiveVersionTrap: return naiveDisagrees
        case .missingOriginalVersion: return customer.originalAppVersion == nil
        case .unparseableVersion: return unparseable
        case .noCutoverForPlatform: return noCutoverForPlatform
        case .preordered: return customer.preorderDate != nil
        case .grandfatheredAndSubscribed: return grandfatheredAndSubscribed
        case .billingRetry: return billingRetry
        case .inGracePeriod: return onlyThroughCurrent { $0.throughGrace }
        case .familySharedOnly: return onlyThroughCurrent { $0.familyShared }
        case .refunded: return activity.hasRevokedDurable
        case .consumableOnly: return activity.hasTransaction && !activity.hasDurable
        case .orphanTransactions: return customer.isOrphan
        case .sandbox: return customer.environment == .sandbox
        case .conflictingDuplicate: return activity.hasConflictingDuplicate
        case .impossibleDates: return impossibleDates
        }
    }

    private var cutover: Instant { policy.cutover.date }

    /// §8.15: whatever the class.
    private var boughtJustBeforeCutover: Bool {
        guard let purchased = customer.originalPurchaseDate else { return false }
        return purchased >= cutover.adding(seconds: -policy.edgeWindowSeconds) && purchased < cutover
    }

    private var boughtJustAfterCutover: Bool {
        guard let purchased = customer.originalPurchaseDate, !grandfathered else { return false }
        return purchased >= cutover && purchased < cutover.adding(seconds: policy.edgeWindowSeconds)
    }

    /// §8.16: both answers must exist; computed whatever the basis.
    private var versionDateDisagree: Bool {
        guard let byVersion, let byDate else { return false }
        return byVersion != byDate
    }

    /// Only where the policy has a versions table at all: under a pure date basis with no
    /// versions there is nothing missing (README, "Decisions").
    private var noCutoverForPlatform: Bool {
        guard customer.platform != nil, policy.cutover.versions != nil else { return false }
        return cutoverVersion == nil
    }

    /// §8.18: a current auto-renewable or non-renewing transaction owned as purchased.
    private var grandfatheredAndSubscribed: Bool {
        grandfathered
            && activity.current.contains {
                ($0.productType == .autoRenewable || $0.productType == .nonRenewing) && !$0.familyShared
            }
    }

    /// §8.19.
    private var billingRetry: Bool {
        !grandfathered && activity.current.isEmpty && activity.latestRenewable?.state == .inBillingRetry
    }

    /// §8.20: not grandfathered, something current, and every current grant satisfies `test`.
    private func onlyThroughCurrent(_ test: (CustomerActivity.CurrentGrant) -> Bool) -> Bool {
        !grandfathered && !activity.current.isEmpty && activity.current.allSatisfy(test)
    }

    /// §8.24.
    private var impossibleDates: Bool {
        if activity.hasImpossibleDates { return true }
        if let purchased = customer.originalPurchaseDate, purchased > asOf { return true }
        if let preordered = customer.preorderDate, preordered > asOf { return true }
        return false
    }
}
