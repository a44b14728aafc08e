/// One customer assembled from the rows several sources gave for it (SPEC §9, "Customers from
/// several sources"): for each fact, the strongest source that has it wins, and two sources
/// that give a fact different values raise `conflicting_customer_facts` (the stronger value
/// is used; a platform that is only a store, which counts only where no other source gives
/// one, disagrees with nobody). Within one source, the first row of an id wins (SPEC §8.7)
/// before this applies.
///
/// These rules have no SQL twin: `normalize` writes each customer already assembled, with the
/// source of each fact (`customers`, `customer_fact_sources`), so the warehouse script starts
/// after them.
enum CustomerFactRules {
    /// What a customer row is to the row already kept for its id.
    enum Repeat: Equatable {
        /// A row of another source: kept beside it, and assembled with it (`assemble`).
        case otherSource
        /// The same row again from the same source: counted, adds nothing.
        case exactDuplicate
        /// Another row of the id from the same source: rejected, as the first wins (SPEC §8.7).
        case repeatedWithOtherContent
    }

    /// SPEC §8.7 within a source, §9 across sources: what `row` is to `kept`, a row already
    /// kept for its id.
    static func `repeat`(_ row: Customer, of kept: Customer) -> Repeat {
        guard row.provenance.rowSource == kept.provenance.rowSource else { return .otherSource }
        return row == kept ? .exactDuplicate : .repeatedWithOtherContent
    }

    /// SPEC §9, a store's platform: of the stores a customer bought in, the platform that
    /// counts; the first in `Platform`'s order, whatever the order the rows came in.
    static func storePlatform(_ one: Platform, _ other: Platform) -> Platform {
        one.index <= other.index ? one : other
    }

    /// SPEC §9, a store's platform: the record the stores a customer bought in make (`nil`
    /// platform when their stores give none), from the source of the rows that named them
    /// (`TransactionShape.storeRecordSource`; the stronger, when two did).
    static func storeRecord(id: String, platform: Platform?, source: CustomerSource) -> Customer {
        Customer(id: id, platform: platform).read(from: source, facts: platform == nil ? [] : [.platform])
    }

    /// SPEC §9, a store's platform: whether a customer's record, from any source, leaves room
    /// for the platform of its stores: it gives none, or only guesses one. A record with a
    /// platform outranks a store's whatever its source.
    static func takesStorePlatform(_ record: Customer) -> Bool {
        record.platform == nil || record.provenance.platformIsAGuess
    }

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
        customer.orderClaims = ordered.reduce(into: []) { $0.formUnion($1.orderClaims) }
        customer.isLicensedOnlyAfterCutover = ordered.contains(where: \.isLicensedOnlyAfterCutover)
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
