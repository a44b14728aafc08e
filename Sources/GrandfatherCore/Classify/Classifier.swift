/// Decides class, flags and entitlements for one customer (SPEC §4, §5, §8.8–8.24).
public struct Classifier: Sendable {
    public let policy: Policy
    public let asOf: Instant

    public init(policy: Policy, asOf: Instant) {
        self.policy = policy
        self.asOf = asOf
    }

    /// Classifies a customer from its record and folded activity.
    func classify(_ customer: Customer, _ activity: CustomerActivity) -> CustomerResult {
        if customer.environment == .sandbox {
            // SPEC §8.9: excluded, exactly `sandbox`, no entitlements.
            return CustomerResult(
                customer: customer, customerClass: .excluded, flags: [.sandbox], entitlements: [],
                answers: CutoverAnswers())
        }
        let answers = cutoverAnswers(customer)
        let grandfathered = isGrandfathered(answers)
        let customerClass: CustomerClass
        if grandfathered {
            customerClass = .grandfathered
        } else if !activity.current.isEmpty {
            customerClass = .subscriber
        } else if activity.hasDurable {
            customerClass = .lapsed
        } else {
            customerClass = .new
        }
        let facts = FlagFacts(
            customer: customer, activity: activity, answers: answers, grandfathered: grandfathered, policy: policy,
            asOf: asOf)
        let flags = Flag.allCases.filter { facts.raises($0) }.sorted()
        return CustomerResult(
            customer: customer, customerClass: customerClass, flags: flags,
            entitlements: entitlements(activity, grandfathered: grandfathered), answers: answers)
    }

    /// The version and date answers (SPEC §8.10).
    func cutoverAnswers(_ customer: Customer) -> CutoverAnswers {
        var answers = CutoverAnswers()
        if let platform = customer.platform, let cutover = policy.cutover.version(for: platform) {
            answers.cutoverVersion = cutover
            if let text = customer.originalAppVersion, let version = AppVersion(text) {
                answers.byVersion = version < cutover
            }
        }
        if let purchased = customer.originalPurchaseDate {
            answers.byDate = purchased < policy.cutover.date
        }
        return answers
    }

    /// Whether the policy's basis says "bought before the cutover"; an absent answer is a no.
    func isGrandfathered(_ answers: CutoverAnswers) -> Bool {
        let version = answers.byVersion ?? false
        let date = answers.byDate ?? false
        switch policy.cutover.basis {
        case .version: return version
        case .date: return date
        case .either: return version || date
        case .both: return version && date
        }
    }

    /// One grant per (entitlement, current transaction), plus the grandfathered grants.
    func entitlements(_ activity: CustomerActivity, grandfathered: Bool) -> [EntitlementGrant] {
        var grants: [EntitlementGrant] = []
        if grandfathered {
            for entitlement in policy.grandfatheredEntitlements {
                grants.append(
                    EntitlementGrant(
                        entitlement: entitlement, source: .grandfathered, transactionID: nil, expiresDate: nil))
            }
        }
        for grant in activity.current {
            let source: EntitlementSource =
                grant.throughGrace ? .gracePeriod : grant.familyShared ? .familyShared : .purchase
            for entitlement in policy.entitlements(forProduct: grant.productID) {
                let candidate = EntitlementGrant(
                    entitlement: entitlement, source: source, transactionID: grant.transactionID,
                    expiresDate: grant.endsAt)
                if !grants.contains(candidate) { grants.append(candidate) }
            }
        }
        return grants.sorted()
    }
}
