/// Each entitlement grant (SPEC §8.13): a grandfathered customer holds the policy's
/// grandfathered entitlements; every current transaction grants its product's entitlements
/// (the unknown-product list for a product the policy does not name), through a promotion
/// (SPEC §9), a grace period, family sharing or a purchase. `ProductEntitlements.grants`
/// (EntitlementRules+Grants.swift) lays a customer's grants out in `EntitlementGrant` order,
/// each once.

extension EntitlementSource {
    /// Where a current transaction's grants come from: a promotion (granted, never bought)
    /// before a grace period, a grace period before family sharing, family sharing before a
    /// purchase.
    static func of(throughGrace: Bool, familyShared: Bool, promotional: Bool = false) -> EntitlementSource {
        promotional ? .promotional : throughGrace ? .gracePeriod : familyShared ? .familyShared : .purchase
    }
}

/// One grant (SPEC §8.13) by position: the entitlement's place in the policy's list
/// (`Classifier.name(of:)`), where it comes from, and the index of the current transaction
/// behind it in the customer's activity (`nil` for a grandfathered grant).
struct GrantPlace: BitwiseCopyable {
    var name: Int
    var source: EntitlementSource
    var transaction: Int?
}

/// The policy's entitlements per product, flattened into one list of names: a lookup gives a
/// range of it, a value no reference count guards.
struct ProductEntitlements: Sendable {
    let names: [String]
    /// Each name's place in code-point order among the distinct names: equal names have equal
    /// ranks, so grants are compared without comparing strings.
    let rank: [Int]
    /// The grants of a grandfathered customer.
    let grandfathered: Range<Int>
    /// The most names one product grants.
    let widest: Int
    private let unknownProduct: Range<Int>
    private let products: [String: Range<Int>]

    init(_ policy: Policy) {
        var names: [String] = []
        func place(_ list: [String]) -> Range<Int> {
            let start = names.count
            names.append(contentsOf: list)
            return start..<names.count
        }
        grandfathered = place(policy.grandfatheredEntitlements)
        unknownProduct = place(policy.unknownProductEntitlements)
        var products: [String: Range<Int>] = [:]
        for product in policy.products.keys { products[product] = place(policy.entitlements(forProduct: product)) }
        self.names = names
        self.products = products
        let distinct = Set(names).sorted { $0.codePointPrecedes($1) }
        let ranks = Dictionary(uniqueKeysWithValues: distinct.enumerated().map { ($1, $0) })
        rank = names.map { ranks[$0] ?? 0 }
        widest = products.values.reduce(unknownProduct.count) { max($0, $1.count) }
    }

    /// `Policy.entitlements(forProduct:)`, as positions in `names`.
    func of(product: String) -> Range<Int> {
        products[product] ?? unknownProduct
    }
}
