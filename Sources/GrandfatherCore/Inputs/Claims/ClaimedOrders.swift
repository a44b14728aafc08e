/// The store orders customers claim, handed on by the claims files and the customers files'
/// `order_number`: weighed together once every source is read (`ClaimedOrderRules`), against
/// the orders of every sales report, since an order two customers claim is evidence for neither.
struct ClaimedOrders: SourceFinding {
    var claims: [ClaimedOrderRules.Claim] = []

    mutating func merge(_ later: ClaimedOrders) { claims += later.claims }

    func refiled(by identities: CustomerIdentities) -> ClaimedOrders {
        ClaimedOrders(
            claims: claims.map {
                ClaimedOrderRules.Claim(customerID: identities.customerID(of: $0.customerID), order: $0.order)
            })
    }

    /// A record per claimant (`ClaimedOrderRules.customers`); none when nothing was claimed.
    func customers(weighedAgainst findings: SourceFindings) -> [Customer] {
        guard !claims.isEmpty else { return [] }
        return ClaimedOrderRules.customers(claiming: claims, orders: findings[SalesPopulation.self].orders)
    }
}
