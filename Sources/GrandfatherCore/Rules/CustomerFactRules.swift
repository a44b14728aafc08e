/// One customer assembled from the rows several sources gave for it (SPEC §9, "Customers from
/// several sources"): for each fact, the strongest source that has it wins, and two sources
/// that give a fact different values raise `conflicting_customer_facts` (the stronger value
/// is used; a platform that is only a store, which counts only where no other source gives
/// one, disagrees with nobody). Within one source, the first row of an id wins (SPEC §8.7)
/// before this applies.
enum CustomerFactRules {
    /// The customer `rows` (one per source, in any order, all with one id) describe.
    static func assemble(_ rows: [Customer]) -> Customer {
        let ordered = rows.sorted { rank($0) < rank($1) }
        guard var customer = ordered.first else { return Customer(id: "", platform: nil) }
        var provenance = CustomerProvenance()
        if let strongest = customer.provenance.rowSource { provenance.setRowSource(strongest) }
        var conflict = false

        /// The strongest row's value of a fact, noting its source and any disagreement.
        func choose<Value: Equatable>(_ fact: CustomerFact, _ value: (Customer) -> Value?) -> Value? {
            var chosen: Value?
            // A platform that is only a store counts after every other source's, and a guessed
            // one after those.
            let rows =
                fact == .platform
                ? ordered.sorted { (platformRank($0), rank($0)) < (platformRank($1), rank($1)) } : ordered
            for row in rows {
                guard row.provenance.source(of: fact) != nil || row.provenance.rowSource == nil,
                    let candidate = value(row)
                else { continue }
                if let chosen {
                    if candidate != chosen, !(fact == .platform && row.provenance.platformIsAStore) {
                        conflict = true
                    }
                } else {
                    chosen = candidate
                    provenance.set(fact, row.provenance.source(of: fact))
                }
            }
            return chosen
        }

        customer.platform = choose(.platform) { $0.platform }
        customer.originalAppVersion = choose(.originalAppVersion) { $0.originalAppVersion }
        customer.originalPurchaseDate = choose(.originalPurchaseDate) { $0.originalPurchaseDate }
        customer.environment = choose(.environment) { $0.environment } ?? customer.environment
        customer.preorderDate = choose(.preorderDate) { $0.preorderDate }
        customer.storefront = choose(.storefront) { $0.storefront }
        customer.isOrphan = ordered.allSatisfy(\.isOrphan)
        customer.isUnlinked = ordered.allSatisfy(\.isUnlinked)
        provenance.hasConflictingFacts = conflict
        customer.provenance = provenance
        return customer
    }

    /// Where a row's platform stands: a source's claim, then a store's, then a guess.
    private static func platformRank(_ row: Customer) -> Int {
        row.provenance.platformIsAGuess ? 2 : row.provenance.platformIsAStore ? 1 : 0
    }

    /// Stronger sources first; a row of no source last.
    private static func rank(_ row: Customer) -> Int {
        Int(row.provenance.rowSource?.rawValue ?? UInt8.max)
    }
}
