import Dispatch
import Foundation
import GrandfatherEngine

/// Duplicate detection (SPEC §8.23, stated in `DuplicateRules`) with a compact fingerprint per
/// transaction, decided once every row is read. Folding a transaction into its customer never
/// waits for the answer (folding is idempotent, so a duplicate folded twice changes nothing);
/// what the answer gives, each file's count of exact duplicates and the customers a
/// conflicting duplicate flags, is needed only at the end.
///
/// A fingerprint is 16 bytes: a 64-bit hash of the transaction id, 32 bits of the hash of its
/// normalised content, and the customer slot the row was folded into. Each parser gathers its
/// own in a `Pending` buffer, written, sorted into 256 partitions by the id hash's top bits,
/// to an unlinked temporary file. `settle` then reads a few partitions at a time and decides
/// each in a table that fits a core's cache. So memory does not grow with the transactions
/// (the file holds 16 bytes per production row and lives in the page cache while it fits),
/// and no row waits on a cache miss into a table of hundreds of megabytes, as each did while
/// the fingerprints were a table in memory (17.8 bytes per row, about 180 MB at 10M rows).
///
/// Which of an id's rows came first decides only which file counts an exact duplicate: files
/// rank by `tag(for:)`, which the run gives in the order it reads them. Rows of one file, read
/// as several ranges at once, count in that file whichever came first.
///
/// Two different ids sharing a 64-bit hash is the one way this can err (about 3 in a million
/// runs at 10M transactions); two versions of one id sharing 32 content bits, the other (one
/// in four billion conflicts). docs/Decisions.md says so.
final class TransactionFingerprints: @unchecked Sendable {
    /// One row's fingerprint, as written to the file.
    fileprivate struct Entry {
        var id: UInt64
        var content: UInt32
        var owner: Int32
    }

    /// What one row's fingerprint takes in the file.
    static let entryBytes = MemoryLayout<Entry>.stride

    fileprivate static let partitionBits = 8
    fileprivate static let partitionCount = 1 << partitionBits
    /// Partitions read and decided together: a group is a 64th of the rows.
    private static let partitionsPerGroup = 4
    /// Entries a parser gathers before writing them (512 KiB).
    fileprivate static let pendingCapacity = 1 << 15

    /// The fingerprints one parser has gathered and not yet written.
    struct Pending {
        fileprivate let tag: Int32
        fileprivate var entries: [Entry] = []

        fileprivate init(tag: Int32) {
            self.tag = tag
        }

        /// Notes a production row folded into `owner`; true when the buffer is full.
        @inline(__always)
        mutating func append(id: UInt64, content: UInt64, owner: Int32) -> Bool {
            if entries.capacity == 0 { entries.reserveCapacity(TransactionFingerprints.pendingCapacity) }
            // 0 marks an empty place in the tables `settle` decides in.
            entries.append(
                Entry(id: id == 0 ? 1 : id, content: UInt32(truncatingIfNeeded: content >> 32), owner: owner))
            return entries.count >= TransactionFingerprints.pendingCapacity
        }
    }

    /// One written buffer: where it lies, the file its rows came from, and where each
    /// partition's entries start within it (`partitionCount + 1` entry indices).
    private struct Chunk {
        var offset: Int
        var tag: Int32
        var starts: [Int32]
    }

    /// What the fingerprints say once every row is read.
    struct Settled {
        /// Exact duplicates per file (by the path sinks gave).
        var exactDuplicates: [String: Int] = [:]
        /// The owners of conflicting versions, each conflict as a pair (packed ledger owners).
        var conflicts: [Int32] = []
    }

    private let lock = NSLock()
    // The fields below are used under `lock` only.
    private var descriptor: Int32 = -1
    private var end = 0
    private var chunks: [Chunk] = []
    private var failure: GrandfatherError?
    private var paths: [String] = []
    private var tags: [String: Int32] = [:]

    deinit {
        if descriptor >= 0 { close(descriptor) }
    }

    /// The rank of the file at `path` among those read: the first call for a path gives it
    /// the next rank.
    func tag(for path: String) -> Int32 {
        lock.withLock {
            if let tag = tags[path] { return tag }
            let tag = Int32(paths.count)
            paths.append(path)
            tags[path] = tag
            return tag
        }
    }

    /// An empty buffer for a parser of the file at `path`.
    func pending(for path: String) -> Pending {
        Pending(tag: tag(for: path))
    }

    /// Writes `pending`'s entries, sorted by partition, and empties it. A failure to write
    /// is kept and thrown by `settle`: the parsers that write cannot throw.
    func write(_ pending: inout Pending) {
        let count = pending.entries.count
        guard count > 0 else { return }
        var starts = [Int32](repeating: 0, count: Self.partitionCount + 1)
        for entry in pending.entries { starts[Self.partition(entry.id) + 1] += 1 }
        for partition in 0..<Self.partitionCount { starts[partition + 1] += starts[partition] }
        let sorted = UnsafeMutablePointer<Entry>.allocate(capacity: count)
        defer { sorted.deallocate() }
        var next = starts
        for entry in pending.entries {
            let partition = Self.partition(entry.id)
            (sorted + Int(next[partition])).initialize(to: entry)
            next[partition] += 1
        }
        pending.entries.removeAll(keepingCapacity: true)
        let size = count * MemoryLayout<Entry>.stride
        let place = lock.withLock { () -> (descriptor: Int32, offset: Int)? in
            guard failure == nil else { return nil }
            if descriptor < 0 {
                switch Result(catching: { () throws(GrandfatherError) in
                    try Disk.anonymousFile(purpose: "to keep transaction fingerprints in", for: paths[Int(pending.tag)])
                }) {
                case .success(let opened): descriptor = opened
                case .failure(let error):
                    failure = error
                    return nil
                }
            }
            let offset = end
            end += size
            chunks.append(Chunk(offset: offset, tag: pending.tag, starts: starts))
            return (descriptor, offset)
        }
        guard let place else { return }
        if let problem = Self.write(UnsafeRawPointer(sorted), size, to: place.descriptor, at: place.offset) {
            lock.withLock { failure = failure ?? problem }
        }
    }

    /// Decides every fingerprint written: exact duplicates per file, and conflicts. Call
    /// once every parser has written its buffer.
    func settle() throws(GrandfatherError) -> Settled {
        let (descriptor, written, paths, failure) = lock.withLock {
            (self.descriptor, chunks, self.paths, self.failure)
        }
        if let failure { throw failure }
        // Rows of earlier files come first; within a file, the order written.
        let ordered = written.sorted { ($0.tag, $0.offset) < ($1.tag, $1.offset) }
        guard !ordered.isEmpty else { return Settled() }
        let groupCount = Self.partitionCount / Self.partitionsPerGroup
        let results = ResultSlots<GroupOutcome, GrandfatherError>(count: groupCount)
        DispatchQueue.concurrentPerform(iterations: groupCount) { group in
            results.store(
                group,
                Result { () throws(GrandfatherError) in
                    try Self.decide(group: group, of: ordered, in: descriptor, tags: paths.count)
                })
        }
        var settled = Settled()
        var duplicates = [Int](repeating: 0, count: paths.count)
        for group in 0..<groupCount {
            let outcome = try results.take(group)
            for (tag, count) in outcome.exactDuplicates.enumerated() { duplicates[tag] += count }
            settled.conflicts += outcome.conflicts
        }
        for (tag, count) in duplicates.enumerated() where count > 0 {
            settled.exactDuplicates[paths[tag], default: 0] += count
        }
        return settled
    }

    /// What one group of partitions gave.
    private struct GroupOutcome: Sendable {
        var exactDuplicates: [Int]
        var conflicts: [Int32] = []
    }

    /// Reads one group's entries from every chunk and decides its partitions one by one.
    private static func decide(
        group: Int, of chunks: [Chunk], in descriptor: Int32, tags: Int
    ) throws(GrandfatherError) -> GroupOutcome {
        let first = group * partitionsPerGroup
        let last = first + partitionsPerGroup
        var outcome = GroupOutcome(exactDuplicates: [Int](repeating: 0, count: tags))
        let total = chunks.reduce(0) { $0 + Int($1.starts[last] - $1.starts[first]) }
        guard total > 0 else { return outcome }
        let entries = UnsafeMutablePointer<Entry>.allocate(capacity: total)
        defer { entries.deallocate() }
        // Where each chunk's part of the group lies in `entries`.
        var bases: [Int] = []
        bases.reserveCapacity(chunks.count)
        var filled = 0
        for chunk in chunks {
            bases.append(filled)
            let count = Int(chunk.starts[last] - chunk.starts[first])
            guard count > 0 else { continue }
            let stride = MemoryLayout<Entry>.stride
            try read(
                into: UnsafeMutableRawPointer(entries + filled), count * stride, from: descriptor,
                at: chunk.offset + Int(chunk.starts[first]) * stride)
            filled += count
        }
        var table = VersionTable()
        for partition in first..<last {
            let count = chunks.reduce(0) { $0 + Int($1.starts[partition + 1] - $1.starts[partition]) }
            guard count > 0 else { continue }
            table.reset(expected: count)
            for (index, chunk) in chunks.enumerated() {
                let base = bases[index] + Int(chunk.starts[partition] - chunk.starts[first])
                for place in base..<base + Int(chunk.starts[partition + 1] - chunk.starts[partition]) {
                    let entry = entries[place]
                    switch table.record(entry) {
                    case .first: break
                    case .exactDuplicate: outcome.exactDuplicates[Int(chunk.tag)] += 1
                    case .conflict(let firstOwner):
                        outcome.conflicts.append(entry.owner)
                        outcome.conflicts.append(firstOwner)
                    }
                }
            }
        }
        table.deallocate()
        return outcome
    }

    @inline(__always)
    private static func partition(_ id: UInt64) -> Int {
        Int(id >> UInt64(64 - partitionBits))
    }

    private static func write(
        _ bytes: UnsafeRawPointer, _ count: Int, to descriptor: Int32, at offset: Int
    ) -> GrandfatherError? {
        FileWriting.writeAll(UnsafeRawBufferPointer(start: bytes, count: count), to: descriptor, at: offset).map {
            .io(
                path: TemporaryFiles.directory,
                message: "cannot write a temporary file: \(String(cString: strerror($0)))")
        }
    }

    private static func read(
        into bytes: UnsafeMutableRawPointer, _ count: Int, from descriptor: Int32, at offset: Int
    ) throws(GrandfatherError) {
        switch FileWriting.readAll(
            into: UnsafeMutableRawBufferPointer(start: bytes, count: count), from: descriptor, at: offset)
        {
        case nil: return
        case 0: throw .internal("a temporary file ended early")
        case let code?:
            throw .io(
                path: TemporaryFiles.directory,
                message: "cannot read a temporary file: \(String(cString: strerror(code)))")
        }
    }
}

/// The versions of the ids of one partition, as they are met: an open-addressing table of
/// ids with the first version's content and owner, and the rare further versions apart.
private struct VersionTable {
    enum Outcome {
        case first
        case exactDuplicate
        /// Another version exists; `firstOwner` is the customer slot of the first version met.
        case conflict(firstOwner: Int32)
    }

    private struct Slot {
        /// The id's hash; 0 marks an empty place.
        var key: UInt64
        /// content (high 32 bits) | owner (low 32 bits).
        var value: UInt64
    }

    private var slots = UnsafeMutablePointer<Slot>.allocate(capacity: 1)
    private var mask = 0
    private var otherVersions: [UInt64: [UInt32]] = [:]

    /// Empties the table, with room for `expected` ids at most half full.
    mutating func reset(expected: Int) {
        var capacity = 64
        while capacity < 2 * expected { capacity <<= 1 }
        if capacity != mask + 1 {
            slots.deallocate()
            slots = UnsafeMutablePointer<Slot>.allocate(capacity: capacity)
            mask = capacity - 1
        }
        slots.initialize(repeating: Slot(key: 0, value: 0), count: capacity)
        otherVersions.removeAll(keepingCapacity: true)
    }

    func deallocate() {
        slots.deallocate()
    }

    /// Records one row's fingerprint and says what it is.
    @inline(__always)
    fileprivate mutating func record(_ entry: TransactionFingerprints.Entry) -> Outcome {
        // The top bits chose the partition; the low bits spread the ids within it.
        var place = Int(truncatingIfNeeded: entry.id) & mask
        while true {
            let key = slots[place].key
            if key == 0 {
                slots[place] = Slot(
                    key: entry.id, value: UInt64(entry.content) << 32 | UInt64(UInt32(bitPattern: entry.owner)))
                return .first
            }
            if key == entry.id {
                let value = slots[place].value
                if UInt32(truncatingIfNeeded: value >> 32) == entry.content { return .exactDuplicate }
                if otherVersions[key]?.contains(entry.content) == true { return .exactDuplicate }
                otherVersions[key, default: []].append(entry.content)
                return .conflict(firstOwner: Int32(bitPattern: UInt32(truncatingIfNeeded: value)))
            }
            place = (place + 1) & mask
        }
    }
}

extension TransactionFingerprints {
    /// The fingerprint of a transaction's normalised content: a hash of the fields that make
    /// two rows of one id the same (SPEC §8.23, `DuplicateRules.Field`), read straight from the
    /// batch's bytes, so that two rows share it exactly when `DuplicateRules.sameContent` calls
    /// them the same (but for one pair of contents in 2^64); `DuplicateRulesTests` holds the
    /// two together. The transaction and customer ids go in as the hashes the batch already
    /// took of them (`id`, `customer`).
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
        // Likewise a term the run's evidence gave: two copies that end apart are two versions.
        if let end = transaction.termEnds {
            hash.combine(UInt64(2))
            hash.combine(end)
        }
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
