/// The facts flag detection reads, with one small rule per flag (SPEC §5, §8.15–8.24).
struct FlagFacts {
    let customer: Customer
    let activity: CustomerActivity
    let answers: CutoverAnswers
    let grandfathered: Bool
    let policy: Policy
    let asOf: Instant

    /// Whether the customer carries `flag`.
    func raises(_ flag: Flag) -> Bool {
        switch flag {
        case .boughtJustBeforeCutover: return boughtJustBeforeCutover
        case .boughtJustAfterCutover: return boughtJustAfterCutover
        case .versionDateDisagree: return versionDateDisagree
        case .naiveVersionTrap: return naiveVersionTrap
        case .missingOriginalVersion: return customer.originalAppVersion == nil
        case .unparseableVersion: return unparseableVersion
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
        guard let byVersion = answers.byVersion, let byDate = answers.byDate else { return false }
        return byVersion != byDate
    }

    /// §8.17: needs a version answer; raw strings by code points against numbers.
    private var naiveVersionTrap: Bool {
        guard answers.byVersion != nil, let text = customer.originalAppVersion, let version = AppVersion(text),
            let cutoverVersion = answers.cutoverVersion
        else { return false }
        return version.naivelyPrecedes(cutoverVersion) != (version < cutoverVersion)
    }

    private var unparseableVersion: Bool {
        guard let text = customer.originalAppVersion else { return false }
        return AppVersion(text) == nil
    }

    /// Only where the policy has a versions table at all: under a pure date basis with no
    /// versions there is nothing missing (README, "Decisions").
    private var noCutoverForPlatform: Bool {
        guard let platform = customer.platform, policy.cutover.versions != nil else { return false }
        return policy.cutover.version(for: platform) == nil
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
        !grandfathered && activity.current.isEmpty
            && activity.latestRenewable?.state == .inBillingRetry
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
