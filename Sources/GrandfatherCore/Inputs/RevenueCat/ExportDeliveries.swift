import GrandfatherEngine

/// The transactions a run's exports and responses deliver more than once (SPEC §9,
/// Redeliveries), and the latest `updated_at` of each.
///
/// RevenueCat delivers a transaction again whenever it changes (a refund, a billing issue, a
/// cancellation), each delivery a snapshot with the `updated_at` of its change (FORMATS.md
/// §a, "Handling updated transactions"), so the latest replaces the others, field by field
/// (`RedeliveryRules`). Two deliveries with the same `updated_at` both stay, and the ledger
/// tells an exact duplicate from a conflicting one (SPEC §8.23).
///
/// Only transactions delivered more than once are kept, so the table is small whatever the
/// export's size; finding them takes 16 bytes a row while the export is read, and one pass
/// over each of 256 buckets.
struct ExportDeliveries: Sendable {
    /// What makes two rows deliveries of one transaction: `store_transaction_id` and
    /// `renewal_number` (Stripe repeats a `store_transaction_id` across renewals); for a store
    /// whose ids are one per transaction, the id alone, which a subscriber response's purchase
    /// shares with the export's row. Kept as a 64-bit hash; two keys sharing one is the one
    /// way the table errs, with the odds docs/Decisions.md gives for fingerprints.
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

    /// How many buckets deliveries are spread over by their key's bits, each decided apart.
    private static let bucketBits = 8
    private static let bucketCount = 1 << bucketBits

    /// A key's bits mixed, so that keys of any spread (tests use small ones) fill the buckets,
    /// and each bucket's table, evenly: the top bits pick the bucket, the next ones the slot.
    private static func mixed(_ key: Int) -> UInt64 {
        UInt64(bitPattern: Int64(key)) &* 0x9E37_79B9_7F4A_7C15
    }

    /// A key's bucket.
    private static func bucket(_ key: Int) -> Int {
        Int(truncatingIfNeeded: mixed(key) >> (64 - bucketBits))
    }

    /// Groups one range's deliveries by bucket, as `init` needs them (on the range's own core):
    /// a counting pass, not a sort; each bucket is tabled when it is decided.
    static func group(_ deliveries: inout [Delivery]) {
        guard deliveries.count > 1 else { return }
        var starts = [Int](repeating: 0, count: bucketCount + 1)
        for delivery in deliveries { starts[bucket(delivery.key) + 1] += 1 }
        for index in 0..<bucketCount { starts[index + 1] += starts[index] }
        var ordered = deliveries
        for delivery in deliveries {
            let target = bucket(delivery.key)
            ordered[starts[target]] = delivery
            starts[target] += 1
        }
        deliveries = ordered
    }

    /// The table of every delivery in `parts`, each part grouped by `group`; it empties them.
    ///
    /// Each bucket's deliveries are gathered from every part into a table of its keys, which
    /// tells the keys delivered more than once, on every core: a bucket holds a 256th of the
    /// deliveries, so its table stays in a core's cache, and no array of every delivery
    /// (another 16 bytes a row at the run's peak) is made.
    init(_ parts: inout [[Delivery]]) {
        let bucketCount = Self.bucketCount
        // Where each bucket starts in each part.
        let bounds = parts.map { part -> [Int] in
            var starts = [Int](repeating: part.count, count: bucketCount + 1)
            var bucket = 0
            for (index, delivery) in part.enumerated() {
                let current = Self.bucket(delivery.key)
                while bucket <= current {
                    starts[bucket] = index
                    bucket += 1
                }
            }
            return starts
        }
        let source = parts
        parts = []
        // One part of the buckets per core.
        let found = Parallel.mapParts(count: bucketCount) { buckets -> [Int: Int64] in
            var repeated: [Int: Int64] = [:]
            var table = BucketTable()
            for bucket in buckets {
                var count = 0
                for starts in bounds { count += starts[bucket + 1] - starts[bucket] }
                table.empty(toHold: count)
                for (part, starts) in zip(source, bounds) {
                    for index in starts[bucket]..<starts[bucket + 1] { table.add(part[index]) }
                }
                table.collectRepeated(into: &repeated)
            }
            return repeated
        }
        for repeated in found { latest.merge(repeated) { first, _ in first } }
    }

    /// One bucket's keys, each with its newest version and how often it was delivered: an
    /// open-addressed table a bucket fills once and reads once, which finds the repeated keys
    /// in one pass rather than the n log n compares of sorting the bucket.
    private struct BucketTable {
        private struct Slot {
            var key = 0
            var newest: Int64 = 0
            /// Deliveries of `key`; 0 marks an empty slot, so that any key, 0 too, can be held.
            var deliveries = 0
        }

        private var slots: [Slot] = []
        /// How many bits of a key's mixed hash, after the bucket's own, pick its first slot.
        private var indexBits = 0

        /// Empties the table, sized so that `count` keys fill at most two-thirds of it.
        mutating func empty(toHold count: Int) {
            var bits = 4
            while 1 << bits < count + count / 2 { bits += 1 }
            indexBits = bits
            if slots.count == 1 << bits {
                for index in slots.indices { slots[index].deliveries = 0 }
            } else {
                slots = [Slot](repeating: Slot(), count: 1 << bits)
            }
        }

        mutating func add(_ delivery: Delivery) {
            let mask = (1 << indexBits) - 1
            var index = Int(truncatingIfNeeded: (mixed(delivery.key) << bucketBits) >> UInt64(64 - indexBits))
            while slots[index].deliveries > 0, slots[index].key != delivery.key { index = (index + 1) & mask }
            if slots[index].deliveries == 0 {
                slots[index] = Slot(key: delivery.key, newest: delivery.version, deliveries: 1)
            } else {
                slots[index].newest = max(slots[index].newest, delivery.version)
                slots[index].deliveries += 1
            }
        }

        /// Notes the newest version of every key delivered more than once.
        func collectRepeated(into repeated: inout [Int: Int64]) {
            for slot in slots where slot.deliveries > 1 { repeated[slot.key] = slot.newest }
        }
    }

    /// Whether `key` was delivered more than once.
    func isRepeated(key: Int) -> Bool {
        !latest.isEmpty && latest[key] != nil
    }

    /// Whether a later delivery of `key` than one made at `version` exists.
    func isSuperseded(key: Int, version: Int64) -> Bool {
        guard !latest.isEmpty, let newest = latest[key] else { return false }
        return newest > version
    }
}
