/// What a subscription service (RevenueCat) says is active for a customer, against what the
/// policy's verdict grants (SPEC §9, issue 16's reconciliation): the question a team asks the
/// night before the switch, "who paid for the app but would see a paywall?".
struct ReconciliationRules: Sendable {
    /// The policy's `grandfathered_entitlements`.
    let grandfatheredEntitlements: Set<String>

    init(policy: Policy) {
        grandfatheredEntitlements = Set(policy.grandfatheredEntitlements)
    }

    /// The flags for a customer the service has a view of.
    /// - Parameters:
    ///   - grandfathered: whether the policy grandfathers the customer.
    ///   - granted: the entitlements the verdict gives a source for (any source).
    ///   - active: the entitlements the service has active at as-of.
    func flags(grandfathered: Bool, granted: Set<String>, active: Set<String>) -> FlagSet {
        var flags = FlagSet()
        // Paid for the app, grandfathered, and yet none of the grandfathered entitlements on.
        if grandfathered, !grandfatheredEntitlements.isEmpty, active.isDisjoint(with: grandfatheredEntitlements) {
            flags.insert(.grandfatheredNotGranted)
        }
        // The service grants what the verdict has no source for.
        if !active.isSubset(of: granted) { flags.insert(.grantedNotEntitled) }
        return flags
    }
}
