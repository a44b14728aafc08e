import Dispatch

/// Duplicate detection with a compact fingerprint per transaction (SPEC §8.23): an
/// open-addressing table of 16 bytes per transaction id (a 64-bit hash of the id, 32 bits
/// of the hash of its normalised content, and the customer slot of its first version),
/// sized up front from the input sizes. Nothing else of a transaction is kept.
///
/// Two different ids sharing a 64-bit hash is the one way this can err (about 3 in a
/// million runs at 10M transactions); two versions of one id sharing 32 content bits, the
/// other (one in four billion conflicts). The README says so.
final class TransactionFingerprints {
    /// How a transaction relates to those seen before.
    enum Outcome: Equatable {
        case first
        case exactDuplicate
        /// Another version exists; `firstOwner` is the customer slot of the first version seen.
        case conflict(firstOwner: Int32)
    }

    /// Fill at most this share of the slots before growing.
    private static let maximumLoad = 0.9

    /// One id's place: its key and what was recorded with it side by side, so that a lookup
    /// and the write after it touch one cache line (the two apart cost a second miss per
    /// transaction, a store into a table of hundreds of megabytes).
    private struct Entry {
        /// The id's hash; 0 marks an empty place.
        var key: UInt64
        /// content (high 32 bits) | owner slot (low 32 bits).
        var value: UInt64
    }

    // Used by one shard under its lock: no run-time exclusivity checks per transaction.
    @exclusivity(unchecked) private var entries: UnsafeMutablePointer<Entry>
    @exclusivity(unchecked) private var capacity: Int
    @exclusivity(unchecked) private(set) var count = 0
    /// Further versions of conflicting ids; rare, so kept apart.
    private var otherVersions: [UInt64: [UInt32]] = [:]
    /// Owners named by conflicting versions, noted by the caller (packed ledger owners).
    var conflicts: [Int32] = []

    init(expected: Int = 1 << 16) {
        capacity = Self.capacity(for: expected)
        entries = Self.emptyEntries(capacity)
    }

    private init(entries: UnsafeMutablePointer<Entry>, capacity: Int) {
        self.entries = entries
        self.capacity = capacity
    }

    /// `count` empty tables with room for `expected` ids each, written on every core at once:
    /// at 10M transactions they are 180 MB of fresh pages, which took one core a tenth of a
    /// second to fault in and clear before any file was read.
    static func tables(_ count: Int, expected: Int) -> [TransactionFingerprints] {
        let capacity = Self.capacity(for: expected)
        let places = (0..<count).map { _ in UncheckedPointer(UnsafeMutablePointer<Entry>.allocate(capacity: capacity)) }
        DispatchQueue.concurrentPerform(iterations: count) { table in
            places[table].pointer.initialize(repeating: Entry(key: 0, value: 0), count: capacity)
        }
        return places.map { TransactionFingerprints(entries: $0.pointer, capacity: capacity) }
    }

    deinit {
        entries.deallocate()
    }

    /// Frees the table once the fold is done (the object may live on, empty).
    func release() {
        entries.deallocate()
        capacity = 64
        entries = Self.emptyEntries(capacity)
        count = 0
        conflicts = []
        otherVersions = [:]
    }

    /// A table of empty places, written now: a page that is only read before its first write
    /// maps the shared zero page, and that first write then costs a copy-on-write fault and a
    /// TLB flush on every core.
    private static func emptyEntries(_ capacity: Int) -> UnsafeMutablePointer<Entry> {
        let entries = UnsafeMutablePointer<Entry>.allocate(capacity: capacity)
        entries.initialize(repeating: Entry(key: 0, value: 0), count: capacity)
        return entries
    }

    private static func capacity(for expected: Int) -> Int {
        max(64, Int(Double(max(expected, 1)) / maximumLoad) + 1)
    }

    /// Reads the places `ids` will be recorded in, so that their cache misses overlap rather
    /// than stall one `record` each (see `Ledger.fold`).
    func touch(_ ids: [UInt64]) {
        var seen: UInt64 = 0
        for id in ids {
            seen ^= entries[Self.slot(for: id == 0 ? 1 : id, capacity: capacity)].key
        }
        touched = seen
    }

    /// What the last `touch` read; nothing uses it.
    private var touched: UInt64 = 0

    /// Records a transaction version and says what it is.
    // This and the hashes below run once per transaction row; inlined into the ledger's loops
    // (as is `CustomerIndex.find`), a run takes 2% fewer cycles.
    @inline(__always)
    func record(id: UInt64, content: UInt64, owner: Int32) -> Outcome {
        if Double(count + 1) > Double(capacity) * Self.maximumLoad { rehash(to: capacity + capacity / 2) }
        let key = id == 0 ? 1 : id  // 0 marks an empty slot
        let contentBits = UInt32(truncatingIfNeeded: content >> 32)
        var slot = Self.slot(for: key, capacity: capacity)
        while true {
            let existing = entries[slot].key
            if existing == 0 {
                entries[slot] = Entry(key: key, value: UInt64(contentBits) << 32 | UInt64(UInt32(bitPattern: owner)))
                count += 1
                return .first
            }
            if existing == key {
                let value = entries[slot].value
                if UInt32(truncatingIfNeeded: value >> 32) == contentBits { return .exactDuplicate }
                if otherVersions[key]?.contains(contentBits) == true { return .exactDuplicate }
                otherVersions[key, default: []].append(contentBits)
                return .conflict(firstOwner: Int32(bitPattern: UInt32(truncatingIfNeeded: value)))
            }
            slot += 1
            if slot == capacity { slot = 0 }
        }
    }

    /// Multiply-shift onto any table size, so the table need not be a power of two.
    @inline(__always)
    private static func slot(for key: UInt64, capacity: Int) -> Int {
        Int(key.multipliedFullWidth(by: UInt64(capacity)).high)
    }

    private func rehash(to newCapacity: Int) {
        let old = entries
        let oldCapacity = capacity
        capacity = newCapacity
        entries = Self.emptyEntries(newCapacity)
        for index in 0..<oldCapacity where old[index].key != 0 {
            var slot = Self.slot(for: old[index].key, capacity: newCapacity)
            while entries[slot].key != 0 {
                slot += 1
                if slot == newCapacity { slot = 0 }
            }
            entries[slot] = old[index]
        }
        old.deallocate()
    }

    /// The fingerprint of a transaction's normalised content (SPEC §8.23): instants, enums,
    /// defaults and the canonical price; unknown columns never reach it. The transaction and
    /// customer ids go in as the hashes the batch already took of them (`id`, `customer`).
    @inline(__always)
    static func content(
        of transaction: Transaction, in batch: TransactionBatch, id: UInt64, customer: UInt64
    ) -> UInt64 {
        // The hash is a local of the closure, not captured by it: a captured variable would
        // be checked for exclusive access at run time, per field of ten million rows.
        var hash = batch.withAllBytes { bytes in
            var hash = StableHash()
            hash.combine(id)
            combine(transaction.originalTransactionID, of: bytes, into: &hash)
            hash.combine(customer)
            combine(transaction.productID, of: bytes, into: &hash)
            combine(transaction.price, of: bytes, into: &hash)
            combine(transaction.currency, of: bytes, into: &hash)
            return hash
        }
        hash.combine(UInt64(transaction.productType.code))
        hash.combine(transaction.purchaseDate)
        hash.combine(transaction.expiresDate)
        hash.combine(transaction.revocationDate)
        hash.combine(UInt64(transaction.ownership == .familyShared ? 1 : 0))
        hash.combine(UInt64(transaction.environment == .sandbox ? 1 : 0))
        hash.combine(UInt64(transaction.renewalState.map { $0.code + 1 } ?? 0))
        hash.combine(transaction.gracePeriodExpiresDate)
        // Only a mapped source's row is ever a promotion: canonical rows hash as they always did.
        if transaction.isPromotional { hash.combine(UInt64(1)) }
        return hash.value
    }

    @inline(__always)
    private static func combine(_ text: TextRef, of bytes: UnsafeRawBufferPointer, into hash: inout StableHash) {
        if text.isAbsent {
            hash.combine(UInt64.max)
        } else {
            hash.combine(UnsafeRawBufferPointer(rebasing: bytes[Int(text.start)..<Int(text.start + text.count)]))
        }
    }

    /// The fingerprint of a transaction id.
    @inline(__always)
    static func id(of transaction: Transaction, in batch: TransactionBatch) -> UInt64 {
        var hash = StableHash()
        batch.withBytes(transaction.transactionID) { hash.combine($0) }
        return hash.value
    }
}
