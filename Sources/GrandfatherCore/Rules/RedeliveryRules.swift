/// SPEC §9, Redeliveries: the deliveries of one transaction (the rows of one key, RevenueCat's
/// `store_transaction_id` and `renewal_number`, found by `ExportDeliveries`) merged field by
/// field. The latest by `updated_at` stand and the others are superseded; a later delivery
/// replaces only the facts its shape states (`TransactionShape.facts`, docs/RevenueCat.md's
/// "What each shape carries"), and a fact it has no place for keeps the earlier delivery's
/// value. So a subscriber response's purchase, which carries no ownership, never turns an
/// export's family-shared row into a purchase.
///
/// No SQL twin: `normalize` writes what the merge leaves.
enum RedeliveryRules {
    /// One delivery: the record, its texts, and when its source last changed it.
    struct Delivery: Sendable, Equatable {
        var record: MappedTransaction
        var texts: OwnedTransactionTexts
        /// `updated_at` in microseconds (`Int64.min` when the source does not say).
        var version: Int64
    }

    /// `later` with every fact it does not state taken from `earlier`, which stated it.
    static func merge(_ later: Delivery, onto earlier: Delivery) -> Delivery {
        var merged = later
        for fact in TransactionFact.allCases where !later.record.provenance.states(fact) {
            guard let source = earlier.record.provenance.source(of: fact) else { continue }
            take(fact, from: earlier, into: &merged)
            merged.record.provenance.set(fact, to: source)
        }
        // A non-renewing term is no fact a shape states of the transaction: it is its product's
        // duration, or the end a response's entitlement shows (SPEC §9, Product facts), so a
        // delivery that brings none keeps the earlier's, where that term is one of the same
        // product bought at the same instant: a term from another product's delivery, or
        // another purchase's, would end this one at a time that is none of its own.
        if merged.record.termEnds == nil, merged.record.purchaseDate == earlier.record.purchaseDate,
            merged.texts[.productID] == earlier.texts[.productID]
        {
            merged.record.termEnds = earlier.record.termEnds
        }
        return merged
    }

    /// What the deliveries of one transaction leave, given in the order they were read: the
    /// latest, each with the facts it lacks from those before it, and how many were
    /// superseded.
    ///
    /// Deliveries are folded oldest first (ties in the order given), so each fact comes from
    /// the latest delivery that stated it. Deliveries of the latest `updated_at` all stay: each
    /// gets, for a fact it does not state, the value of the others or of the older ones, so
    /// two such deliveries differ only on a fact both state, and then the ledger sees a
    /// conflicting duplicate (SPEC §8.23); alike, an exact one.
    static func latest(_ deliveries: [Delivery]) -> (kept: [(index: Int, delivery: Delivery)], superseded: Int) {
        guard let newest = deliveries.map(\.version).max() else { return ([], 0) }
        let order = deliveries.indices.sorted {
            (deliveries[$0].version, $0) < (deliveries[$1].version, $1)
        }
        var known: Delivery?
        for index in order {
            known = known.map { merge(deliveries[index], onto: $0) } ?? deliveries[index]
        }
        guard let known else { return ([], 0) }
        let kept = order.filter { deliveries[$0].version == newest }.map { index in
            (index: index, delivery: merge(deliveries[index], onto: known))
        }
        return (kept, deliveries.count - kept.count)
    }

    private static func take(_ fact: TransactionFact, from source: Delivery, into target: inout Delivery) {
        let from = source.record
        switch fact {
        case .originalTransactionID: target.texts.copy(.originalTransactionID, from: source.texts)
        case .purchaseDate: target.record.purchaseDate = from.purchaseDate
        case .expiresDate: target.record.expiresDate = from.expiresDate
        case .revocationDate: target.record.revocationDate = from.revocationDate
        case .ownership: target.record.ownership = from.ownership
        case .environment: target.record.environment = from.environment
        case .price: target.texts.copy(.price, from: source.texts)
        case .currency: target.texts.copy(.currency, from: source.texts)
        case .renewalState: target.record.renewalState = from.renewalState
        case .gracePeriodExpiresDate: target.record.gracePeriodExpiresDate = from.gracePeriodExpiresDate
        case .store:
            target.record.storePlatform = from.storePlatform
            target.record.isPromotional = from.isPromotional
        }
    }
}
