/// What a subscription service has active at as-of, by customer id: the entitlements of every
/// subscriber response of a customer, together (RevenueCat's view, for the reconciliation
/// flags, SPEC §9). A customer the service gave a view of has an entry, empty or not.
struct ServiceEntitlements: SourceFinding, Equatable {
    var byCustomer: [String: Set<String>] = [:]

    /// Notes that the service has `entitlements` active for `customer`.
    mutating func note(_ customer: String, _ entitlements: Set<String>) {
        byCustomer[customer, default: []].formUnion(entitlements)
    }

    mutating func merge(_ later: ServiceEntitlements) {
        byCustomer.merge(later.byCustomer) { $0.union($1) }
    }

    func refiled(by identities: CustomerIdentities) -> ServiceEntitlements {
        var refiled = ServiceEntitlements()
        for (id, active) in byCustomer { refiled.note(identities.customerID(of: id), active) }
        return refiled
    }
}
