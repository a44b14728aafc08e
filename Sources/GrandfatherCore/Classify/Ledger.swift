/// Everything the classify stage keeps while the inputs stream by: one entry per customer
/// id (its record, if any, and its folded activity) and one fingerprint per transaction.
///
/// Memory grows with customers; per transaction only the fingerprint remains.
struct Ledger: Sendable {
    let policy: Policy
    let asOf: Instant

    private(set) var index: [String: Int32] = [:]
    private(set) var ids: [String] = []
    private(set) var records: [Customer?] = []
    private(set) var activities: [CustomerActivity] = []
    private var fingerprints = TransactionFingerprints()

    init(policy: Policy, asOf: Instant) {
        self.policy = policy
        self.asOf = asOf
    }

    /// How a customer row relates to earlier rows with its id (SPEC §8.7).
    enum CustomerOutcome: Equatable {
        case accepted
        case exactDuplicate
        case repeatedWithOtherContent
    }

    private mutating func slot(for id: String) -> Int32 {
        if let existing = index[id] { return existing }
        let slot = Int32(ids.count)
        index[id] = slot
        ids.append(id)
        records.append(nil)
        activities.append(CustomerActivity())
        return slot
    }

    /// Adds a customer row; the first row of an id wins.
    mutating func add(_ customer: Customer) -> CustomerOutcome {
        let slot = Int(slot(for: customer.id))
        guard let first = records[slot] else {
            records[slot] = customer
            return .accepted
        }
        return first == customer ? .exactDuplicate : .repeatedWithOtherContent
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
            owner: owner)
        switch outcome {
        case .exactDuplicate:
            return .exactDuplicate
        case .conflict(let firstOwner):
            activities[Int(owner)].hasConflictingDuplicate = true
            activities[Int(firstOwner)].hasConflictingDuplicate = true
        case .first:
            break
        }
        activities[Int(owner)].fold(transaction, policy: policy, asOf: asOf)
        return .folded
    }

    /// Every customer the run knows: those with a record, and orphans made from transactions
    /// (SPEC §8.14), with their activity.
    func customers() -> [(Customer, CustomerActivity)] {
        var result: [(Customer, CustomerActivity)] = []
        result.reserveCapacity(ids.count)
        for slot in ids.indices {
            if let record = records[slot] {
                result.append((record, activities[slot]))
            } else if activities[slot].hasTransaction {
                result.append((Customer.orphan(id: ids[slot]), activities[slot]))
            }
        }
        return result
    }
}
