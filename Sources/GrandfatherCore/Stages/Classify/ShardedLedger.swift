import Foundation
import GrandfatherEngine

/// The ledger of one run, shared by the parsers: customers in shards by the hash of their
/// id, each shard behind its own lock, so that parsers fold in parallel and rarely wait for
/// each other; and a fingerprint of every transaction, decided once everything is read.
///
/// Folding is commutative and idempotent, so the order in which parsers reach the shards
/// changes nothing; conflicting duplicates are noted as pairs of customers and flagged
/// once everything is read.
final class ShardedLedger: @unchecked Sendable {
    static let shardCount = 32

    /// A customer's place: shard and slot within it.
    struct Owner: Hashable {
        var shard: Int32
        var slot: Int32
    }

    private let locks: [NSLock]
    /// Each used only with its lock held.
    private let shards: [Ledger]
    private let fingerprints = TransactionFingerprints()
    /// The owners of conflicting duplicates, once `settle` has decided them.
    private var conflicts: [Int32] = []
    /// Ledgers that fold every row this one folds, under other policies: a dry run reads its
    /// inputs once and classifies them under each policy it compares.
    private let followers: [ShardedLedger]

    init(rules: AuditRules, followers: [ShardedLedger] = []) {
        self.followers = followers
        let count = Self.shardCount
        locks = (0..<count).map { _ in NSLock() }
        shards = (0..<count).map { _ in Ledger(rules: rules) }
    }

    /// A ledger for the first of `runs` whose followers fold the same rows for the others.
    static func folding(for runs: [AuditRules]) -> ShardedLedger {
        let followers = runs.dropFirst().map { ShardedLedger(rules: $0) }
        guard let first = runs.first else { preconditionFailure("a ledger folds for at least one run") }
        return ShardedLedger(rules: first, followers: Array(followers))
    }

    /// This ledger, then its followers: one per run, in the order of `folding(for:)`.
    var withFollowers: [ShardedLedger] { [self] + followers }

    /// The shard a hash falls in, by its low bits: the tables inside a shard place entries
    /// by the high bits, which must stay spread within each shard.
    static func shard(_ hash: UInt64) -> Int {
        Int(hash % UInt64(shardCount))
    }

    /// Adds customer rows, each under its shard's lock, taken once per shard and batch; the
    /// outcomes are in row order. Rows of one id keep their order (one shard holds the id), so
    /// the first row of an id still wins.
    func add(_ customers: [Customer]) -> [Ledger.CustomerOutcome] {
        for follower in followers { _ = follower.add(customers) }
        var hashes: [UInt64] = []
        hashes.reserveCapacity(customers.count)
        var buckets = [[Int32]](repeating: [], count: Self.shardCount)
        for (row, customer) in customers.enumerated() {
            var id = customer.id
            let hash = id.withUTF8 { CustomerIndex.hash(UnsafeRawBufferPointer($0)) }
            hashes.append(hash)
            buckets[Self.shard(hash)].append(Int32(row))
        }
        var outcomes = [Ledger.CustomerOutcome](repeating: .accepted, count: customers.count)
        for shard in buckets.indices where !buckets[shard].isEmpty {
            let lock = locks[shard]
            let ledger = shards[shard]
            lock.lock()
            ledger.touch(buckets[shard].map { hashes[Int($0)] })
            for row in buckets[shard] { outcomes[Int(row)] = ledger.add(customers[Int(row)], hash: hashes[Int(row)]) }
            lock.unlock()
        }
        return outcomes
    }

    /// The fingerprints one parser gathers for this ledger and its followers.
    struct PendingFingerprints {
        fileprivate var own: TransactionFingerprints.Pending
        fileprivate var followers: [PendingFingerprints]
    }

    /// An empty buffer of fingerprints for a parser of the file at `path`.
    func pendingFingerprints(for path: String) -> PendingFingerprints {
        PendingFingerprints(
            own: fingerprints.pending(for: path), followers: followers.map { $0.pendingFingerprints(for: path) })
    }

    /// Ranks the files at `paths` in the order given, before any is read: of an id's exactly
    /// equal rows, the first in a file ranked earlier is the one not counted as a duplicate.
    func rankFiles(_ paths: [String]) {
        for path in paths { _ = fingerprints.tag(for: path) }
        for follower in followers { follower.rankFiles(paths) }
    }

    /// Folds a batch: production transactions into their customers' shards; their
    /// fingerprints go into `pending`, to be decided by `settle`. `scratch` is the caller's
    /// reusable bucket storage. Returns how many rows were sandbox rows (not folded).
    func add(_ batch: TransactionBatch, scratch: inout [[Int32]], pending: inout PendingFingerprints) -> Int {
        for (index, follower) in followers.enumerated() {
            _ = follower.add(batch, scratch: &scratch, pending: &pending.followers[index])
        }
        var sandbox = 0
        if scratch.count != Self.shardCount { scratch = Array(repeating: [], count: Self.shardCount) }
        for bucket in scratch.indices { scratch[bucket].removeAll(keepingCapacity: true) }
        for row in batch.rows.indices {
            guard ActivityRules.counts(batch.rows[row].environment) else {
                sandbox += 1
                continue
            }
            scratch[Self.shard(batch.hashes[row].customer)].append(Int32(row))
        }
        for shard in scratch.indices where !scratch[shard].isEmpty {
            let lock = locks[shard]
            let ledger = shards[shard]
            lock.lock()
            let slots = ledger.fold(scratch[shard], of: batch)
            lock.unlock()
            for (row, slot) in zip(scratch[shard], slots) {
                let hashes = batch.hashes[Int(row)]
                let owner = Owner(shard: Int32(shard), slot: slot).packed
                if pending.own.append(id: hashes.id, content: hashes.content, owner: owner) {
                    fingerprints.write(&pending.own)
                }
            }
        }
        return sandbox
    }

    /// Writes what `pending` still holds; call once a parser is done.
    func write(_ pending: inout PendingFingerprints) {
        fingerprints.write(&pending.own)
        for (index, follower) in followers.enumerated() { follower.write(&pending.followers[index]) }
    }

    /// Decides every fingerprint once all parsers have written theirs, for this ledger and
    /// its followers: returns each file's exact duplicates (by path) and keeps the
    /// conflicts for `finish`.
    func settle() throws(GrandfatherError) -> [String: Int] {
        let settled = try fingerprints.settle()
        conflicts = settled.conflicts
        for follower in followers { _ = try follower.settle() }
        return settled.exactDuplicates
    }

    /// Ends the fold once every reader is done and `settle` has run: flags the customers
    /// named by conflicting duplicates, and returns every customer with its activity.
    func finish() -> (customers: [Customer], activities: [CustomerActivity]) {
        for packed in conflicts {
            let owner = Owner(packed: packed)
            shards[Int(owner.shard)].flagConflict(owner.slot)
        }
        conflicts = []
        // Each shard moves its customers into its own stretch of the run's arrays, on every core.
        var starts = [0]
        for shard in shards { starts.append(starts[starts.count - 1] + shard.survivorCount()) }
        let offsets = starts
        let total = offsets[offsets.count - 1]
        var activities: [CustomerActivity] = []
        let customers = [Customer](unsafeUninitializedCapacity: total) { customerBuffer, customerCount in
            activities = [CustomerActivity](unsafeUninitializedCapacity: total) { activityBuffer, activityCount in
                guard let customerBase = customerBuffer.baseAddress, let activityBase = activityBuffer.baseAddress
                else { return }
                let (customerTarget, activityTarget) = (UncheckedPointer(customerBase), UncheckedPointer(activityBase))
                DispatchQueue.concurrentPerform(iterations: shards.count) { shard in
                    shards[shard].finish(
                        customers: customerTarget.pointer + offsets[shard],
                        activities: activityTarget.pointer + offsets[shard])
                }
                activityCount = total
            }
            customerCount = total
        }
        return (customers, activities)
    }
}

extension ShardedLedger.Owner {
    /// Shard and slot in the 32 bits a fingerprint keeps (5 bits of shard, 27 of slot).
    var packed: Int32 { shard << 27 | slot }

    init(packed: Int32) {
        shard = packed >> 27 & 0x1F
        slot = packed & 0x07FF_FFFF
    }
}
