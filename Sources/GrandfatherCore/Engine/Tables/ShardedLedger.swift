import Foundation

/// The ledger of one run, shared by the parsers: customers in shards by the hash of their
/// id, transaction fingerprints in shards by the hash of the transaction id, each shard
/// behind its own lock, so that parsers fold in parallel and rarely wait for each other.
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
    private let fingerprintLocks: [NSLock]
    /// Each used only with its lock held.
    private let fingerprints: [TransactionFingerprints]
    /// Ledgers that fold every row this one folds, under other policies: a dry run reads its
    /// inputs once and classifies them under each policy it compares.
    private let followers: [ShardedLedger]

    init(rules: AuditRules, expectedTransactions: Int, followers: [ShardedLedger] = []) {
        self.followers = followers
        let count = Self.shardCount
        locks = (0..<count).map { _ in NSLock() }
        fingerprintLocks = (0..<count).map { _ in NSLock() }
        shards = (0..<count).map { _ in Ledger(rules: rules) }
        fingerprints = TransactionFingerprints.tables(count, expected: expectedTransactions / count + 1)
    }

    /// A ledger for the first of `runs` whose followers fold the same rows for the others.
    static func folding(for runs: [AuditRules], expectedTransactions: Int) -> ShardedLedger {
        let followers = runs.dropFirst().map { ShardedLedger(rules: $0, expectedTransactions: expectedTransactions) }
        guard let first = runs.first else { preconditionFailure("a ledger folds for at least one run") }
        return ShardedLedger(rules: first, expectedTransactions: expectedTransactions, followers: Array(followers))
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

    /// How the transactions of one batch were taken.
    struct BatchOutcome {
        var exactDuplicates = 0
        var sandbox = 0
    }

    /// Folds a batch: production transactions into their customers' shards, then their
    /// fingerprints into theirs. `scratch` is the caller's reusable bucket storage.
    func add(_ batch: TransactionBatch, scratch: inout [[Int32]]) -> BatchOutcome {
        for follower in followers { _ = follower.add(batch, scratch: &scratch) }
        var outcome = BatchOutcome()
        if scratch.count != Self.shardCount { scratch = Array(repeating: [], count: Self.shardCount) }
        for bucket in scratch.indices { scratch[bucket].removeAll(keepingCapacity: true) }
        for row in batch.rows.indices {
            guard batch.rows[row].environment == .production else {
                outcome.sandbox += 1
                continue
            }
            scratch[Self.shard(batch.hashes[row].customer)].append(Int32(row))
        }
        var owners = [Owner](repeating: Owner(shard: -1, slot: -1), count: batch.rows.count)
        for shard in scratch.indices where !scratch[shard].isEmpty {
            let lock = locks[shard]
            let ledger = shards[shard]
            lock.lock()
            let slots = ledger.fold(scratch[shard], of: batch)
            lock.unlock()
            for (row, slot) in zip(scratch[shard], slots) { owners[Int(row)] = Owner(shard: Int32(shard), slot: slot) }
        }
        for bucket in scratch.indices { scratch[bucket].removeAll(keepingCapacity: true) }
        for row in batch.rows.indices where owners[row].shard >= 0 {
            scratch[Self.shard(batch.hashes[row].id)].append(Int32(row))
        }
        for shard in scratch.indices where !scratch[shard].isEmpty {
            let lock = fingerprintLocks[shard]
            let table = fingerprints[shard]
            lock.lock()
            table.touch(scratch[shard].map { batch.hashes[Int($0)].id })
            for row in scratch[shard] {
                let hashes = batch.hashes[Int(row)]
                let owner = owners[Int(row)]
                switch table.record(id: hashes.id, content: hashes.content, owner: owner.packed) {
                case .first: break
                case .exactDuplicate: outcome.exactDuplicates += 1
                case .conflict(let first):
                    table.conflicts.append(owner.packed)
                    table.conflicts.append(first)
                }
            }
            lock.unlock()
        }
        return outcome
    }

    /// Ends the fold once every reader is done: flags the customers named by conflicting
    /// duplicates, frees the fingerprints, and returns every customer with its activity.
    func finish() -> (customers: [Customer], activities: [CustomerActivity]) {
        for table in fingerprints {
            for packed in table.conflicts {
                let owner = Owner(packed: packed)
                shards[Int(owner.shard)].flagConflict(owner.slot)
            }
            table.release()
        }
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
