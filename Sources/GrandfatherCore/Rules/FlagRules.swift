import GrandfatherEngine

/// Each flag (SPEC §5, §8.15–8.24): the facts flag detection reads, taken once per customer
/// as plain values, with one small rule per flag. Holding values rather than the customer, its activity
/// and the policy keeps classifying a million customers free of reference counting.
struct FlagFacts {
    // The customer's record.
    let purchased: Instant?
    let preordered: Instant?
    let hasVersion: Bool
    /// The customer's platform is one whose cutover the policy must give (an Apple one).
    let needsCutover: Bool
    let isOrphan: Bool
    let isUnlinked: Bool
    let isSandbox: Bool
    let hasConflictingFacts: Bool
    /// What became of the Google Play orders the customer claims (§9, claimed orders).
    let orderClaims: OrderClaims
    /// Google Play licensing said licensed only at or after the cutover (§9, licensing verdicts).
    let isLicensedOnlyAfterCutover: Bool
    // The version against the platform's cutover (SPEC §8.10, §8.17).
    let hasCutoverVersion: Bool
    /// The version answer, `nil` when there is none.
    let byVersion: Bool?
    /// The date answer, `nil` when there is none.
    let byDate: Bool?
    let naiveDisagrees: Bool
    let unparseable: Bool
    // The folded transactions.
    let hasTransaction: Bool
    let hasDurable: Bool
    let hasRevokedDurable: Bool
    let hasConflictingDuplicate: Bool
    let transactionDatesImpossible: Bool
    let anyCurrent: Bool
    let allCurrentThroughGrace: Bool
    let allCurrentFamilyShared: Bool
    let currentPurchasedSubscription: Bool
    let latestRenewableInBillingRetry: Bool
    // The policy and the run.
    let cutover: Instant
    let edgeWindowSeconds: Int64
    let policyHasVersions: Bool
    let asOf: Instant
    /// Set by the classifier once the basis has decided.
    var grandfathered = false

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
        case .missingOriginalVersion: return !hasVersion
        case .unparseableVersion: return unparseable
        case .noCutoverForPlatform: return noCutoverForPlatform
        case .preordered: return preordered != nil
        case .grandfatheredAndSubscribed: return grandfathered && currentPurchasedSubscription
        case .billingRetry: return !grandfathered && !anyCurrent && latestRenewableInBillingRetry
        case .inGracePeriod: return !grandfathered && anyCurrent && allCurrentThroughGrace
        case .familySharedOnly: return !grandfathered && anyCurrent && allCurrentFamilyShared
        case .refunded: return hasRevokedDurable
        case .consumableOnly: return hasTransaction && !hasDurable
        case .orphanTransactions: return isOrphan
        case .sandbox: return isSandbox
        case .conflictingDuplicate: return hasConflictingDuplicate
        case .impossibleDates: return impossibleDates
        case .unlinkedTransactions: return isUnlinked
        case .conflictingCustomerFacts: return hasConflictingFacts
        case .orderNotFound, .orderRefunded, .orderClaimedTwice: return orderClaims.contains(flag.orderClaim)
        case .licensedOnlyAfterCutover: return isLicensedOnlyAfterCutover
        // Decided against the verdict's grants, by ReconciliationRules.
        case .grandfatheredNotGranted, .grantedNotEntitled: return false
        }
    }

    /// §8.15: whatever the class.
    private var boughtJustBeforeCutover: Bool {
        guard let purchased else { return false }
        return purchased >= cutover.adding(seconds: -edgeWindowSeconds) && purchased < cutover
    }

    private var boughtJustAfterCutover: Bool {
        guard let purchased, !grandfathered else { return false }
        return purchased >= cutover && purchased < cutover.adding(seconds: edgeWindowSeconds)
    }

    /// §8.16: both answers must exist; computed whatever the basis.
    private var versionDateDisagree: Bool {
        guard let byVersion, let byDate else { return false }
        return byVersion != byDate
    }

    /// Only where the policy has a versions table at all: under a pure date basis with no
    /// versions there is nothing missing (docs/Decisions.md, "Decisions").
    private var noCutoverForPlatform: Bool {
        needsCutover && policyHasVersions && !hasCutoverVersion
    }

    /// §8.24.
    private var impossibleDates: Bool {
        if transactionDatesImpossible { return true }
        if let purchased, purchased > asOf { return true }
        if let preordered, preordered > asOf { return true }
        return false
    }
}
