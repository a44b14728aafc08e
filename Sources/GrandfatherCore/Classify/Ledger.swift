/// Everything the classify stage keeps while the inputs stream by: one entry per customer
/// id (its record, if any, and its folded activity) and one fingerprint per transaction.
///
/// Memory grows with customers; per transaction only the fingerprint remains.
struct Ledger: ~Copyable {
    let policy: Policy
    let asOf: Instant

    private var index = CustomerIndex()
    /// The record of each slot; for an id seen only in transactions, the orphan it would make.
    private var records: [Customer] = []
    /// Whether a customers input gave the slot its record.
    private var hasRecord: [Bool] = []
    private var activities: [CustomerActivity] = []
    private var fingerprints = TransactionFingerprints()

    init(policy: Policy, asOf: Instant) {
        self.policy = policy
        self.asOf = asOf
    }

    /// Sizes the fingerprint table for about `transactions` transactions.
    mutating func reserve(transactions: Int) {
        fingerprints.reserve(transactions)
    }

    /// How a customer row relates to earlier rows with its id (SPEC §8.7).
    enum CustomerOutcome: Equatable {
        case accepted
        case exactDuplicate
        case repeatedWithOtherContent
    }

    /// The slot of the customer with this id, made (as a would-be orphan) when new.
    private mutating func slot(for id: UnsafeRawBufferPointer, hash: UInt64? = nil) -> Int {
        let hash = hash ?? CustomerIndex.hash(id)
        if let found = index.find(hash: hash, matches: { hasID($0, id) }) { return Int(found) }
        let slot = self.records.count
        index.insert(hash: hash, slot: Int32(slot))
        self.records.append(Customer.orphan(id: String(decoding: id, as: UTF8.self)))
        hasRecord.append(false)
        activities.append(CustomerActivity())
        return slot
    }

    private func hasID(_ slot: Int32, _ id: UnsafeRawBufferPointer) -> Bool {
        var known = records[Int(slot)].id
        return known.withUTF8 { $0.count == id.count && $0.elementsEqual(id) }
    }

    private mutating func slot(for id: String) -> Int {
        var id = id
        return id.withUTF8 { slot(for: UnsafeRawBufferPointer($0)) }
    }

    /// Adds a customer row; the first row of an id wins.
    mutating func add(_ customer: Customer) -> CustomerOutcome {
        let slot = slot(for: customer.id)
        guard hasRecord[slot] else {
            records[slot] = customer
            hasRecord[slot] = true
            return .accepted
        }
        return records[slot] == customer ? .exactDuplicate : .repeatedWithOtherContent
    }

    /// How a transaction row was taken.
    enum TransactionOutcome: Equatable {
        case folded
        case exactDuplicate
        case sandbox
    }

    /// Adds a transaction of `batch`: sandbox ones are dropped first (SPEC §8.8), exact
    /// duplicates count once, and every version of a conflicting duplicate is folded (SPEC §8.23).
    mutating func add(_ row: Int, of batch: TransactionBatch) -> TransactionOutcome {
        let transaction = batch.rows[row]
        guard transaction.environment == .production else { return .sandbox }
        let hashes = batch.hashes[row]
        let owner = batch.withBytes(transaction.customerID) { slot(for: $0, hash: hashes.customer) }
        let outcome = fingerprints.record(id: hashes.id, content: hashes.content, owner: Int32(owner))
        switch outcome {
        case .exactDuplicate:
            return .exactDuplicate
        case .conflict(let firstOwner):
            activities[owner].hasConflictingDuplicate = true
            activities[Int(firstOwner)].hasConflictingDuplicate = true
        case .first:
            break
        }
        activities[owner].fold(transaction, of: batch, policy: policy, asOf: asOf)
        return .folded
    }

    /// Ends the fold: every customer the run knows (those with a record, and orphans made
    /// from transactions, SPEC §8.14) with their activity, in no particular order. The
    /// fingerprints and the index are freed first and the arrays compacted in place, so
    /// classification does not need twice the memory.
    mutating func finish() -> (customers: [Customer], activities: [CustomerActivity]) {
        fingerprints = TransactionFingerprints(expected: 0)
        index = CustomerIndex(capacity: 1)
        let hasRecord = self.hasRecord
        self.hasRecord = []
        var customers = records
        records = []
        var kept = activities
        activities = []
        var survivors = 0
        for slot in customers.indices where hasRecord[slot] || kept[slot].hasTransaction {
            // Survivors move towards the front, onto slots already read.
            if survivors != slot {
                customers.swapAt(survivors, slot)
                kept.swapAt(survivors, slot)
            }
            survivors += 1
        }
        customers.removeSubrange(survivors...)
        kept.removeSubrange(survivors...)
        return (customers, kept)
    }
}
