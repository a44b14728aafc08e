/// What the rows of a source that states them say each product unlocks (a RevenueCat export
/// row's `entitlement_identifiers`, a subscriber response's `entitlements`): for a product
/// the policy does not list, these decide its grants before SPEC §8.12's fallback does.
///
/// RevenueCat attaches entitlements to products, not to single purchases, so a product
/// unlocks every entitlement any of its rows names: the same whatever the order of rows or
/// files, and whichever delivery of a transaction is kept.
struct RowEntitlements: Sendable, Equatable {
    /// Entitlement names by product id.
    private(set) var byProduct: [String: Set<String>] = [:]

    var isEmpty: Bool { byProduct.isEmpty }

    /// Notes that a row of `product` names `entitlements`; an empty list says nothing.
    mutating func note(product: String, _ entitlements: [String]) {
        guard !entitlements.isEmpty else { return }
        byProduct[product, default: []].formUnion(entitlements)
    }

    /// Adds what `other` noted.
    mutating func merge(_ other: RowEntitlements) {
        byProduct.merge(other.byProduct) { $0.union($1) }
    }
}

extension RowEntitlements: SourceFinding {}
