import GrandfatherEngine

/// Decides class, flags and entitlements for one customer by the run's rules (SPEC §4, §5,
/// §8.8–8.24, stated in `Rules/`): it composes them, and lays a customer's grants out in
/// scratch space for the reports and the snapshot, which read a million customers' grants.
///
/// A class, so that the closures of the per-customer passes share one set of rules instead
/// of copying it (and its reference counts) per customer.
public final class Classifier: Sendable {
    let rules: AuditRules
    /// What RevenueCat has active at as-of, by customer id, for the customers it gave a view
    /// of (subscriber responses); empty when the run read none.
    let serviceEntitlements: [String: Set<String>]
    private let reconciliation: ReconciliationRules

    public var policy: Policy { rules.policy }
    public var asOf: Instant { rules.asOf }

    init(_ rules: AuditRules, serviceEntitlements: [String: Set<String>] = [:]) {
        self.rules = rules
        self.serviceEntitlements = serviceEntitlements
        reconciliation = ReconciliationRules(policy: rules.policy)
    }

    /// A classifier with rules of its own: a job that reads every customer builds its own,
    /// so that no reference count is shared with the other core's jobs.
    public convenience init(policy: Policy, asOf: Instant) {
        self.init(AuditRules(AuditSettings(policy: policy, asOf: asOf)))
    }

    /// Classifies a customer from its record and folded activity, entitlements included.
    func classify(_ customer: Customer, _ activity: borrowing CustomerActivity) -> CustomerResult {
        let verdict = self.verdict(customer, activity)
        var answers = CutoverAnswers(byVersion: verdict.byVersion, byDate: verdict.byDate)
        if let platform = customer.platform, customer.environment == .production {
            answers.cutoverVersion = policy.cutover.version(for: platform)
        }
        return CustomerResult(
            customer: customer, customerClass: verdict.customerClass, flags: Array(verdict.flags),
            entitlements: entitlements(activity, verdict.customerClass), answers: answers)
    }

    /// Class, flags and the two answers: what counts, reports and the snapshot need, in 8
    /// bytes, allocating nothing. `activity` is borrowed: read in place, never copied.
    func verdict(_ customer: borrowing Customer, _ activity: borrowing CustomerActivity) -> Verdict {
        if let excluded = AuditRules.excluded(customer.environment) { return excluded }
        var facts = FlagFacts(customer: customer, activity: activity, rules: rules)
        facts.grandfathered = rules.isGrandfathered(byVersion: facts.byVersion, byDate: facts.byDate)
        let customerClass = rules.customerClass(
            grandfathered: facts.grandfathered, anyCurrent: facts.anyCurrent, hasDurable: facts.hasDurable)
        var flags = facts.flags()
        if !serviceEntitlements.isEmpty, let active = serviceEntitlements[customer.id] {
            let granted = Set(entitlements(activity, customerClass).map(\.entitlement))
            flags.formUnion(
                reconciliation.flags(grandfathered: customerClass == .grandfathered, granted: granted, active: active))
        }
        return Verdict(customerClass: customerClass, flags: flags, byVersion: facts.byVersion, byDate: facts.byDate)
    }

    /// The latest auto-renewable transaction, when it alone decided: it raised `billing_retry`
    /// and nothing is current (the current transactions decide otherwise).
    static func decidingLatestRenewable(
        _ verdict: Verdict, _ activity: borrowing CustomerActivity
    ) -> CustomerActivity.LatestRenewable? {
        guard verdict.flags.contains(.billingRetry), activity.current.isEmpty else { return nil }
        return activity.latestRenewable
    }

    /// One grant per (entitlement, current transaction), plus the grandfathered grants, for the
    /// customer whose activity is `activity`.
    func entitlements(_ activity: borrowing CustomerActivity, _ customerClass: CustomerClass) -> [EntitlementGrant] {
        withGrants(activity, customerClass) { places in places.map { grant($0, activity) } }
    }

    /// The grant `place` stands for, with its strings.
    func grant(_ place: GrantPlace, _ activity: borrowing CustomerActivity) -> EntitlementGrant {
        EntitlementGrant(
            entitlement: name(of: place), source: place.source,
            transactionID: place.transaction.map { activity.current[$0].transactionID.string },
            expiresDate: place.transaction.flatMap { activity.current[$0].endsAt })
    }

    /// The entitlement a grant gives.
    func name(of place: GrantPlace) -> String {
        rules.entitlements.names[place.name]
    }

    /// Calls `body` with a customer's grants, by the grant rule (`ProductEntitlements.grants`,
    /// SPEC §8.13), over its current transactions read in place.
    func withGrants<Result>(
        _ activity: borrowing CustomerActivity, _ customerClass: CustomerClass,
        _ body: (ScratchElements<GrantPlace>) throws -> Result, grantingNothing: (Int) -> Void = { _ in }
    ) rethrows -> Result {
        try rules.entitlements.grants(
            of: customerClass, current: activity.current, body, grantingNothing: grantingNothing)
    }
}
