/// The latest delivery of every transaction in a run's exports (SPEC §9, Redeliveries).
///
/// RevenueCat delivers a transaction again whenever it changes (a refund, a billing issue, a
/// renewal's end moving), each delivery a snapshot with the `updated_at` of its change
/// (FORMATS.md §a, "Handling updated transactions"), so the latest replaces the others. Two
/// deliveries with the same `updated_at` both stay, and the ledger tells an exact duplicate
/// from a conflicting one (SPEC §8.23).
struct ExportDeliveries: Sendable {
    /// What makes two rows deliveries of one transaction: `store_transaction_id` and
    /// `renewal_number`, whatever the store (Stripe repeats a `store_transaction_id` across
    /// renewals). Kept as a 64-bit hash, 16 bytes a transaction with its time; two keys sharing
    /// one is the one way the table errs, with the odds the README gives for fingerprints.
    struct Key: Hashable, Sendable {
        let hash: Int

        init(_ storeTransactionID: String, renewal: Int?) {
            var hasher = Hasher()
            hasher.combine(storeTransactionID)
            hasher.combine(renewal)
            hash = hasher.finalize()
        }
    }

    /// The latest `updated_at` of each key, in microseconds; `Int64.min` when no delivery of
    /// the key says when it was made, which any delivery that does say outranks.
    private var latest: [Key: Int64] = [:]

    /// Notes one delivery.
    mutating func note(_ key: Key, updatedAt: Instant?) {
        let time = updatedAt?.microseconds ?? .min
        if let known = latest[key], known >= time { return }
        latest[key] = time
    }

    /// Whether a later delivery of `key` than one made at `updatedAt` was noted.
    func isSuperseded(_ key: Key, updatedAt: Instant?) -> Bool {
        guard let known = latest[key] else { return false }
        return known > updatedAt?.microseconds ?? .min
    }

    var isEmpty: Bool { latest.isEmpty }
}
