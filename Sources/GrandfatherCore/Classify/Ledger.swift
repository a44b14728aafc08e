/// Everything the classify stage keeps while the inputs stream by: one entry per customer
/// id (its record, if any, and its folded activity) and one fingerprint per transaction.
///
/// Memory grows with customers; per transaction only the fingerprint remains.
struct Ledger: ~Copyable {
    let policy: Policy
    let asOf: Instant

    private var index: [CustomerKey: Int32] = [:]
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

    private mutating func slot(for id: String) -> Int {
        let key = CustomerKey(id)
        if let existing = index[key] { return Int(existing) }
        let slot = records.count
        index[key] = Int32(slot)
        records.append(Customer.orphan(id: id))
        hasRecord.append(false)
        activities.append(CustomerActivity())
        return slot
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

    /// Adds a transaction: sandbox ones are dropped first (SPEC §8.8), exact duplicates
    /// count once, and every version of a conflicting duplicate is folded (SPEC §8.23).
    mutating func add(_ transaction: Transaction) -> TransactionOutcome {
        guard transaction.environment == .production else { return .sandbox }
        let owner = slot(for: transaction.customerID)
        let outcome = fingerprints.record(
            id: TransactionFingerprints.id(of: transaction), content: TransactionFingerprints.content(of: transaction),
            owner: Int32(owner))
        switch outcome {
        case .exactDuplicate:
            return .exactDuplicate
        case .conflict(let firstOwner):
            activities[owner].hasConflictingDuplicate = true
            activities[Int(firstOwner)].hasConflictingDuplicate = true
        case .first:
            break
        }
        activities[owner].fold(transaction, policy: policy, asOf: asOf)
        return .folded
    }

    /// Ends the fold: every customer the run knows (those with a record, and orphans made
    /// from transactions, SPEC §8.14) with their activity, in no particular order. The
    /// fingerprints and the index are freed first and the arrays compacted in place, so
    /// classification does not need twice the memory.
    mutating func finish() -> (customers: [Customer], activities: [CustomerActivity]) {
        fingerprints = TransactionFingerprints(expected: 0)
        index = [:]
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

/// A customer id compared by its exact code points: two spellings that Unicode calls
/// equivalent (NFC and NFD "café") are different ids, as in any database.
struct CustomerKey: Hashable {
    var id: String

    init(_ id: String) {
        self.id = id
    }

    static func == (lhs: CustomerKey, rhs: CustomerKey) -> Bool {
        lhs.id.utf8.elementsEqual(rhs.id.utf8)
    }

    func hash(into hasher: inout Hasher) {
        var id = self.id
        id.withUTF8 { hasher.combine(bytes: UnsafeRawBufferPointer($0)) }
    }
}
