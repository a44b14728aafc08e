/// Decides class, flags and entitlements for one customer (SPEC §4, §5, §8.8–8.24).
///
/// A class, so that the closures of the per-customer passes share one policy instead of
/// copying it (and its reference counts) per customer.
public final class Classifier: Sendable {
    public let policy: Policy
    public let asOf: Instant
    private let cutoverRules: CutoverRules
    private let basis: CutoverBasis

    public init(policy: Policy, asOf: Instant) {
        self.policy = policy
        self.asOf = asOf
        cutoverRules = CutoverRules(policy: policy, asOf: asOf)
        basis = policy.cutover.basis
    }

    /// Classifies a customer from its record and folded activity, entitlements included.
    func classify(_ customer: Customer, _ activity: CustomerActivity) -> CustomerResult {
        let verdict = self.verdict(customer, activity)
        var answers = CutoverAnswers(byVersion: verdict.byVersion, byDate: verdict.byDate)
        if let platform = customer.platform, customer.environment == .production {
            answers.cutoverVersion = policy.cutover.version(for: platform)
        }
        return CustomerResult(
            customer: customer, customerClass: verdict.customerClass, flags: Array(verdict.flags),
            entitlements: entitlements(activity, verdict: verdict), answers: answers)
    }

    /// Class, flags and the two answers: what counts and reports need, in a few bytes and
    /// without allocating.
    func verdict(_ customer: borrowing Customer, _ activity: borrowing CustomerActivity) -> Verdict {
        if customer.environment == .sandbox {
            // SPEC §8.9: excluded, exactly `sandbox`, no entitlements.
            return Verdict(customerClass: .excluded, flags: FlagSet(.sandbox), byVersion: nil, byDate: nil)
        }
        var facts = FlagFacts(customer: customer, activity: activity, rules: cutoverRules)
        let grandfathered = isGrandfathered(byVersion: facts.byVersion, byDate: facts.byDate)
        facts.grandfathered = grandfathered
        let customerClass: CustomerClass
        if grandfathered {
            customerClass = .grandfathered
        } else if facts.anyCurrent {
            customerClass = .subscriber
        } else if facts.hasDurable {
            customerClass = .lapsed
        } else {
            customerClass = .new
        }
        return Verdict(
            customerClass: customerClass, flags: facts.flags(), byVersion: facts.byVersion, byDate: facts.byDate)
    }

    /// Whether the policy's basis says "bought before the cutover"; an absent answer is a no.
    func isGrandfathered(byVersion: Bool?, byDate: Bool?) -> Bool {
        let version = byVersion ?? false
        let date = byDate ?? false
        switch basis {
        case .version: return version
        case .date: return date
        case .either: return version || date
        case .both: return version && date
        }
    }

    /// One grant per (entitlement, current transaction), plus the grandfathered grants.
    func entitlements(_ activity: borrowing CustomerActivity, verdict: Verdict) -> [EntitlementGrant] {
        // SPEC §8.9: an excluded (sandbox) customer holds nothing.
        guard verdict.customerClass != .excluded else { return [] }
        var grants: [EntitlementGrant] = []
        if verdict.customerClass == .grandfathered {
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

/// The compact outcome of classifying one customer (SPEC §4, §5).
public struct Verdict: Sendable, Equatable {
    public var customerClass: CustomerClass
    public var flags: FlagSet
    /// The version answer of SPEC §8.10: `nil` when there is none.
    public var byVersion: Bool?
    /// The date answer of SPEC §8.10: `nil` when there is none.
    public var byDate: Bool?
}
