/// Where the classifier gathers the flag rules' facts: the customer's record and what its
/// transactions folded to, into the plain values `FlagRules` reads.
extension FlagFacts {
    /// The facts of `customer` and its activity, both borrowed: read field by field in place,
    /// since an activity handed over as a value is copied, retaining its grants' array (and an
    /// array handed over is retained, by every core at once).
    init(customer: borrowing Customer, activity: borrowing CustomerActivity, rules: AuditRules) {
        purchased = customer.originalPurchaseDate
        preordered = customer.preorderDate
        hasVersion = customer.originalAppVersion != nil
        needsCutover = customer.platform?.isApple ?? false
        isOrphan = customer.isOrphan
        isUnlinked = customer.isUnlinked
        isSandbox = customer.environment == .sandbox
        hasConflictingFacts = customer.provenance.hasConflictingFacts
        orderClaims = customer.orderClaims
        isLicensedOnlyAfterCutover = customer.isLicensedOnlyAfterCutover
        hasCutoverVersion = customer.platform.map { rules.hasCutoverVersion(for: $0) } ?? false
        let answer = rules.versionAnswer(customer.originalAppVersion, platform: customer.platform)
        byVersion = answer.before
        naiveDisagrees = answer.naiveDisagrees
        unparseable = answer.unparseable
        byDate = rules.dateAnswer(customer.originalPurchaseDate)

        hasTransaction = activity.hasTransaction
        hasDurable = activity.hasDurable
        hasRevokedDurable = activity.hasRevokedDurable
        hasConflictingDuplicate = activity.hasConflictingDuplicate
        transactionDatesImpossible = activity.hasImpossibleDates
        anyCurrent = !activity.current.isEmpty
        // Fields read in place: a closure over the grants would copy each one, retaining
        // and releasing its strings.
        var allThroughGrace = true
        var allFamilyShared = true
        var purchasedSubscription = false
        for index in activity.current.indices {
            let familyShared = activity.current[index].familyShared
            let productType = activity.current[index].productType
            if !activity.current[index].throughGrace { allThroughGrace = false }
            if !familyShared { allFamilyShared = false }
            // Paying: a promotion is not (SPEC §9).
            if (productType == .autoRenewable || productType == .nonRenewing) && !familyShared
                && !activity.current[index].promotional
            {
                purchasedSubscription = true
            }
        }
        allCurrentThroughGrace = allThroughGrace
        allCurrentFamilyShared = allFamilyShared
        currentPurchasedSubscription = purchasedSubscription
        latestRenewableInBillingRetry = activity.latestRenewable?.state == .inBillingRetry

        cutover = rules.cutover
        edgeWindowSeconds = rules.edgeWindowSeconds
        policyHasVersions = rules.hasVersions
        asOf = rules.asOf
    }
}
