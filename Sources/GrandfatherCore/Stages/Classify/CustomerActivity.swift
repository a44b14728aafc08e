import GrandfatherEngine

/// What a customer's transactions add up to as of the run: a small value folded from the
/// transactions as they stream by.
///
/// Folding is commutative and idempotent (flags are ORs, the latest auto-renewable is a
/// maximum, current grants are a set), so the result depends neither on input order nor on
/// how the inputs were split; an exact duplicate folded twice changes nothing.
struct CustomerActivity: Sendable {
    /// A transaction that is current as of the run, with what the flags and grants need.
    struct CurrentGrant: Sendable, Hashable, GrantingTransaction {
        /// Held in the value: a 16-digit id as a `String` is an object of its own, made per
        /// current transaction and then retained and released by every report that reads it.
        var transactionID: CompactText
        // Which source gave each of its facts (what `explain` names), packed into the 6 bytes
        // the id's alignment leaves (a whole word would make every grant 8 bytes larger). Not
        // part of what the grant is: two records that make the same grant are one grant,
        // named by `TransactionProvenance.named(against:)`.
        private var sourcesLow: UInt16
        private var sourcesHigh: UInt32
        var productID: String
        var productType: ProductType
        /// Current only through a billing grace period (SPEC §8.11).
        var throughGrace: Bool
        var familyShared: Bool
        /// A promotional grant (SPEC §9): granted, never bought.
        var promotional: Bool
        /// When the grant ends: expiry, grace end or purchase + term; `nil` for non-consumables.
        var endsAt: Instant?
        /// What revenue at stake needs, for auto-renewables and non-renewings only (`nil`
        /// otherwise): the subscription, when this transaction was bought, and its price
        /// (canonical decimal) and currency.
        var revenue: Revenue?

        init(
            transactionID: CompactText, productID: String, productType: ProductType, throughGrace: Bool,
            familyShared: Bool, promotional: Bool, endsAt: Instant?, revenue: Revenue?,
            provenance: TransactionProvenance
        ) {
            self.transactionID = transactionID
            (sourcesLow, sourcesHigh) = Self.split(provenance)
            self.productID = productID
            self.productType = productType
            self.throughGrace = throughGrace
            self.familyShared = familyShared
            self.promotional = promotional
            self.endsAt = endsAt
            self.revenue = revenue
        }

        var provenance: TransactionProvenance {
            get { TransactionProvenance(packed: UInt64(sourcesLow) | UInt64(sourcesHigh) << 16) }
            set { (sourcesLow, sourcesHigh) = Self.split(newValue) }
        }

        /// A provenance's packed bits, in the two fields that hold them.
        static func split(_ provenance: TransactionProvenance) -> (UInt16, UInt32) {
            let packed = provenance.packed
            return (UInt16(truncatingIfNeeded: packed), UInt32(truncatingIfNeeded: packed >> 16))
        }

        static func == (lhs: CurrentGrant, rhs: CurrentGrant) -> Bool {
            lhs.transactionID == rhs.transactionID && lhs.productID == rhs.productID
                && lhs.productType == rhs.productType && lhs.throughGrace == rhs.throughGrace
                && lhs.familyShared == rhs.familyShared && lhs.promotional == rhs.promotional
                && lhs.endsAt == rhs.endsAt && lhs.revenue == rhs.revenue
        }

        func hash(into hasher: inout Hasher) {
            hasher.combine(transactionID)
            hasher.combine(productID)
            hasher.combine(productType)
            hasher.combine(throughGrace)
            hasher.combine(familyShared)
            hasher.combine(promotional)
            hasher.combine(endsAt)
            hasher.combine(revenue)
        }

        struct Revenue: Sendable, Hashable {
            /// A hash of the original transaction id, else the transaction id: only compared
            /// within one customer's few grants, and a number costs no allocation where most
            /// ids are longer than the 15 bytes a string holds inline.
            var subscription: UInt64
            var purchaseDate: Instant
            var price: String?
            var currency: String?
        }
    }

    /// The latest auto-renewable transaction by (purchase date, transaction id, state text).
    struct LatestRenewable: Sendable {
        /// Held compactly: replaced whenever a later renewal streams by.
        var compactTransactionID: CompactText
        // Its provenance, packed into the 6 bytes the id's alignment leaves: a whole word
        // would make every customer's activity 8 bytes larger.
        private var sourcesLow: UInt16
        private var sourcesHigh: UInt32
        var purchaseDate: Instant
        var state: RenewalState?

        init(
            compactTransactionID: CompactText, purchaseDate: Instant, state: RenewalState?,
            provenance: TransactionProvenance
        ) {
            self.compactTransactionID = compactTransactionID
            (sourcesLow, sourcesHigh) = CurrentGrant.split(provenance)
            self.purchaseDate = purchaseDate
            self.state = state
        }

        var provenance: TransactionProvenance {
            get { TransactionProvenance(packed: UInt64(sourcesLow) | UInt64(sourcesHigh) << 16) }
            set { (sourcesLow, sourcesHigh) = CurrentGrant.split(newValue) }
        }

        var transactionID: String { compactTransactionID.string }
    }

    // Widest first, so the million of these pack tightly.
    var current: [CurrentGrant] = []
    var latestRenewable: LatestRenewable?
    var hasTransaction = false
    var hasDurable = false
    var hasRevokedDurable = false
    var hasImpossibleDates = false
    var hasConflictingDuplicate = false

    /// Folds one production transaction of `batch` in. Strings are made only for what is
    /// kept: a current grant, or a new latest auto-renewable.
    mutating func fold(_ transaction: Transaction, of batch: TransactionBatch, rules: AuditRules) {
        hasTransaction = true
        let durable = transaction.productType.isDurable
        if durable { hasDurable = true }
        if durable, transaction.isRevoked { hasRevokedDurable = true }
        if rules.hasImpossibleDates(
            purchased: transaction.purchaseDate, expires: transaction.expiresDate,
            revoked: transaction.revocationDate)
        {
            hasImpossibleDates = true
        }
        if transaction.productType == .autoRenewable {
            switch order(of: transaction, of: batch) {
            case .later:
                latestRenewable = LatestRenewable(
                    compactTransactionID: batch.withBytes(transaction.transactionID) { CompactText($0) },
                    purchaseDate: transaction.purchaseDate, state: transaction.renewalState,
                    provenance: transaction.provenance)
            case .same:
                if let kept = latestRenewable?.provenance {
                    latestRenewable?.provenance = transaction.provenance.named(against: kept)
                }
            case .earlier:
                break
            }
        }
        if let grant = Self.currentGrant(transaction, of: batch, rules: rules) { add(grant) }
    }

    /// How many current grants are searched for a repeat on every fold. Past that many, a grant
    /// is appended as it comes and repeats are removed whenever the list fills its capacity,
    /// and once when the fold ends (`removeRepeatedGrants`): a customer with a hundred thousand
    /// current purchases folds in linear time, where searching every fold took the square.
    static let searchedGrants = 16

    private mutating func add(_ grant: CurrentGrant) {
        guard current.count >= Self.searchedGrants else {
            if let index = current.firstIndex(of: grant) {
                current[index].provenance = grant.provenance.named(against: current[index].provenance)
            } else {
                current.append(grant)
            }
            return
        }
        if current.count == current.capacity {
            removeRepeatedGrants()
            // Still over half full: grow, so that the next removal waits for as many grants again.
            if current.count * 2 > current.capacity { current.reserveCapacity(current.capacity * 2) }
        }
        current.append(grant)
    }

    /// Makes `current` a set again, each grant where it first came: called when the fold ends.
    ///
    /// The kept grants move down in place and are found again by their hashes in a table of
    /// places: no grant is copied into a dictionary's key or a second list, which, for a
    /// customer of two million current grants, cost as much as the rest of the fold.
    mutating func removeRepeatedGrants() {
        guard current.count > Self.searchedGrants else { return }
        var size = 1
        while size < current.count * 2 { size <<= 1 }
        let mask = size - 1
        var places = [Int](repeating: -1, count: size)
        var hashes: [Int] = []
        hashes.reserveCapacity(current.count)
        var kept = 0
        for index in current.indices {
            let hash = current[index].hashValue
            var slot = hash & mask
            var repeated: Int?
            while places[slot] >= 0 {
                let place = places[slot]
                if hashes[place] == hash, current[place] == current[index] {
                    repeated = place
                    break
                }
                slot = (slot + 1) & mask
            }
            if let place = repeated {
                current[place].provenance = current[index].provenance.named(against: current[place].provenance)
                continue
            }
            places[slot] = kept
            hashes.append(hash)
            // What lies between the kept grants and this one are repeats already named: they
            // move behind, where the walk has been.
            if kept != index { current.swapAt(kept, index) }
            kept += 1
        }
        current.removeLast(current.count - kept)
    }

    /// Where an auto-renewable transaction comes against the latest one kept
    /// (`ActivityRules.order`, SPEC §8.19); the first one read is the latest so far.
    private func order(of transaction: Transaction, of batch: TransactionBatch) -> ActivityRules.Order {
        // The purchase dates first, read in place: the kept one is copied, and the ids looked
        // at, only on the same instant.
        guard let keptPurchased = latestRenewable?.purchaseDate else { return .later }
        if let order = ActivityRules.order(purchased: transaction.purchaseDate, against: keptPurchased) {
            return order
        }
        guard let latest = latestRenewable else { return .later }
        return batch.withBytes(transaction.transactionID) { candidate in
            latest.compactTransactionID.withBytes { kept in
                ActivityRules.order(
                    purchased: transaction.purchaseDate, id: candidate, state: transaction.renewalState,
                    against: latest.purchaseDate, id: kept, state: latest.state)
            }
        }
    }

    /// The grant a transaction makes, or `nil` when it is not current (`AuditRules.currency`).
    static func currentGrant(
        _ transaction: Transaction, of batch: TransactionBatch, rules: AuditRules
    ) -> CurrentGrant? {
        guard
            let currency = rules.currency(
                of: transaction.productType, revoked: transaction.isRevoked, purchased: transaction.purchaseDate,
                expires: transaction.expiresDate, renewalState: transaction.renewalState,
                graceExpires: transaction.gracePeriodExpiresDate, promotional: transaction.isPromotional,
                termEnds: transaction.termEnds, product: { batch.string(transaction.productID) ?? "" })
        else { return nil }
        let transactionID = batch.withBytes(transaction.transactionID) { CompactText($0) }
        var revenue: CurrentGrant.Revenue?
        // A promotion is paid for by no one: it has no revenue at stake.
        if !transaction.isPromotional,
            transaction.productType == .autoRenewable || transaction.productType == .nonRenewing
        {
            revenue = CurrentGrant.Revenue(
                subscription: batch.withBytes(
                    transaction.originalTransactionID.isAbsent
                        ? transaction.transactionID : transaction.originalTransactionID
                ) { CustomerIndex.hash($0) },
                purchaseDate: transaction.purchaseDate, price: batch.string(transaction.price),
                currency: batch.string(transaction.currency))
        }
        return CurrentGrant(
            transactionID: transactionID, productID: batch.string(transaction.productID) ?? "",
            productType: transaction.productType, throughGrace: currency.throughGrace,
            familyShared: transaction.ownership == .familyShared, promotional: transaction.isPromotional,
            endsAt: currency.endsAt, revenue: revenue, provenance: transaction.provenance)
    }
}
