/// The latest delivery of every transaction in a run's exports (SPEC §9, Redeliveries).
///
/// RevenueCat delivers a transaction again whenever it changes (a refund, a billing issue, a
/// cancellation), each delivery a snapshot with the `updated_at` of its change (FORMATS.md
/// §a, "Handling updated transactions"), so the latest replaces the others. Two deliveries
/// with the same `updated_at` both stay, and the ledger tells an exact duplicate from a
/// conflicting one (SPEC §8.23).
///
/// Only transactions delivered more than once are kept, so the table is small whatever the
/// export's size; finding them takes 16 bytes a row for a moment, and a sort.
struct ExportDeliveries: Sendable {
    /// What makes two rows deliveries of one transaction: `store_transaction_id` and
    /// `renewal_number`, whatever the store (Stripe repeats a `store_transaction_id` across
    /// renewals). Kept as a 64-bit hash; two keys sharing one is the one way the table errs,
    /// with the odds the README gives for fingerprints.
    struct Key: Hashable, Sendable {
        let hash: Int

        init(_ storeTransactionID: Span<UInt8>, renewal: Int?) {
            var hasher = Hasher()
            hasher.combine(span: storeTransactionID)
            hasher.combine(renewal)
            hash = hasher.finalize()
        }

        init(hash: Int) {
            self.hash = hash
        }
    }

    /// One row's delivery: its key, and its `updated_at` in microseconds (`Int64.min` when
    /// the row does not say, which any delivery that does say outranks).
    struct Delivery: Sendable {
        var key: Int
        var version: Int64

        init(key: Int, version: Int64) {
            self.key = key
            self.version = version
        }

        init(_ transaction: ExportTransaction) {
            self.init(key: transaction.delivery.hash, version: transaction.updatedAt?.microseconds ?? .min)
        }
    }

    /// The latest version of each key delivered more than once.
    private var latest: [Int: Int64] = [:]

    /// The table of every delivery in `parts`, which it empties as it goes.
    init(_ parts: inout [[Delivery]]) {
        var all: [Delivery] = []
        all.reserveCapacity(parts.reduce(0) { $0 + $1.count })
        for index in parts.indices {
            all.append(contentsOf: parts[index])
            parts[index] = []
        }
        all.sort { $0.key < $1.key }
        var start = 0
        while start < all.count {
            var end = start + 1
            var newest = all[start].version
            while end < all.count, all[end].key == all[start].key {
                newest = max(newest, all[end].version)
                end += 1
            }
            if end - start > 1 { latest[all[start].key] = newest }
            start = end
        }
    }

    /// Whether a later delivery of `key` than one made at `version` exists.
    func isSuperseded(key: Int, version: Int64) -> Bool {
        guard !latest.isEmpty, let newest = latest[key] else { return false }
        return newest > version
    }
}
