/// What a customer's transactions add up to as of the run: a small value folded from the
/// transactions as they stream by.
///
/// Folding is commutative and idempotent (flags are ORs, the latest auto-renewable is a
/// maximum, current grants are a set), so the result depends neither on input order nor on
/// how the inputs were split; an exact duplicate folded twice changes nothing.
struct CustomerActivity: Sendable {
    /// A transaction that is current as of the run, with what the flags and grants need.
    struct CurrentGrant: Sendable, Hashable {
        /// Held in the value: a 16-digit id as a `String` is an object of its own, made per
        /// current transaction and then retained and released by every report that reads it.
        var transactionID: CompactText
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
        var purchaseDate: Instant
        var state: RenewalState?

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
        if transaction.productType == .autoRenewable, isLater(transaction, of: batch) {
            latestRenewable = LatestRenewable(
                compactTransactionID: batch.withBytes(transaction.transactionID) { CompactText($0) },
                purchaseDate: transaction.purchaseDate, state: transaction.renewalState)
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
            if !current.contains(grant) { current.append(grant) }
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
    mutating func removeRepeatedGrants() {
        guard current.count > Self.searchedGrants else { return }
        var seen = Set<CurrentGrant>(minimumCapacity: current.count)
        current.removeAll { !seen.insert($0).inserted }
    }

    /// Whether an auto-renewable transaction comes after the latest one kept (SPEC §8.19:
    /// purchase date, then transaction id, then renewal state text).
    private func isLater(_ transaction: Transaction, of batch: TransactionBatch) -> Bool {
        guard let latest = latestRenewable else { return true }
        if transaction.purchaseDate != latest.purchaseDate { return latest.purchaseDate < transaction.purchaseDate }
        let order = batch.withBytes(transaction.transactionID) { candidate in
            latest.compactTransactionID.withBytes { kept -> Int in
                if kept.elementsEqual(candidate) { return 0 }
                return kept.lexicographicallyPrecedes(candidate) ? 1 : -1
            }
        }
        if order != 0 { return order > 0 }
        return (latest.state?.rawValue ?? "").utf8.lexicographicallyPrecedes(
            (transaction.renewalState?.rawValue ?? "").utf8)
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
                product: { batch.string(transaction.productID) ?? "" })
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
            endsAt: currency.endsAt, revenue: revenue)
    }
}
