/// The latest delivery of every transaction in a run's exports (SPEC §9, Redeliveries).
///
/// RevenueCat delivers a transaction again whenever it changes (a refund, a billing issue, a
/// cancellation), each delivery a snapshot with the `updated_at` of its change (FORMATS.md
/// §a, "Handling updated transactions"), so the latest replaces the others. Two deliveries
/// with the same `updated_at` both stay, and the ledger tells an exact duplicate from a
/// conflicting one (SPEC §8.23).
///
/// Only transactions delivered more than once are kept, so the table is small whatever the
/// export's size; finding them takes 16 bytes a row while the export is read, and a sort.
struct ExportDeliveries: Sendable {
    /// What makes two rows deliveries of one transaction: `store_transaction_id` and
    /// `renewal_number` (Stripe repeats a `store_transaction_id` across renewals); for a store
    /// whose ids are one per transaction, the id alone, which a subscriber response's purchase
    /// shares with the export's row. Kept as a 64-bit hash; two keys sharing one is the one
    /// way the table errs, with the odds the README gives for fingerprints.
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

    /// Sorts one range's deliveries by key, as `init` needs them (on the range's own core).
    static func sort(_ deliveries: inout [Delivery]) {
        deliveries.sort { $0.key < $1.key }
    }

    /// The table of every delivery in `parts`, each part sorted by `sort`; it empties them.
    ///
    /// The parts are merged as they are, a key at a time, rather than gathered into one array
    /// and sorted: that array would be another 16 bytes a row at the run's peak.
    init(_ parts: inout [[Delivery]]) {
        var positions = [Int](repeating: 0, count: parts.count)
        // A binary min-heap of the parts still holding deliveries, by their next key.
        var heap = parts.indices.filter { !parts[$0].isEmpty }
        func key(_ part: Int) -> Int { parts[part][positions[part]].key }
        func siftDown(_ start: Int) {
            var parent = start
            while true {
                let left = 2 * parent + 1
                guard left < heap.count else { return }
                var smallest = left
                if left + 1 < heap.count, key(heap[left + 1]) < key(heap[left]) { smallest = left + 1 }
                guard key(heap[smallest]) < key(heap[parent]) else { return }
                heap.swapAt(parent, smallest)
                parent = smallest
            }
        }
        for start in stride(from: heap.count / 2 - 1, through: 0, by: -1) { siftDown(start) }
        var current = 0
        var newest = Int64.min
        var deliveries = 0
        while let part = heap.first {
            let delivery = parts[part][positions[part]]
            if deliveries > 0, delivery.key == current {
                newest = max(newest, delivery.version)
                deliveries += 1
            } else {
                if deliveries > 1 { latest[current] = newest }
                current = delivery.key
                newest = delivery.version
                deliveries = 1
            }
            positions[part] += 1
            if positions[part] == parts[part].count {
                parts[part] = []
                heap[0] = heap[heap.count - 1]
                heap.removeLast()
            }
            siftDown(0)
        }
        if deliveries > 1 { latest[current] = newest }
    }

    /// Whether a later delivery of `key` than one made at `version` exists.
    func isSuperseded(key: Int, version: Int64) -> Bool {
        guard !latest.isEmpty, let newest = latest[key] else { return false }
        return newest > version
    }
}
