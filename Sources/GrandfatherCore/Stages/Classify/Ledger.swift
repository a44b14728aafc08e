import Foundation
import GrandfatherEngine

/// One shard of what the classify stage keeps while the inputs stream by: one entry per
/// customer id whose hash falls in the shard (its record, if any, and its folded activity).
///
/// Memory grows with customers; per transaction only a fingerprint remains, kept apart in
/// `TransactionFingerprints`.
final class Ledger {
    private let rules: AuditRules

    // A shard is only ever used under its lock (`ShardedLedger`), so the run-time exclusivity
    // checks Swift makes on every access to a class's stored variables, several per row, are
    // left out.

    private let index = CustomerIndex()
    /// What the cache-warming reads of the last `fold` saw; nothing uses it.
    @exclusivity(unchecked) private var touched: UInt64 = 0
    /// The record of each slot; for an id seen only in transactions, the orphan it would make.
    @exclusivity(unchecked) private var records: [Customer] = []
    /// Whether a customers input gave the slot its record.
    @exclusivity(unchecked) private var hasRecord: [Bool] = []
    @exclusivity(unchecked) private var activities: [CustomerActivity] = []
    /// The platform of the stores a slot's export or Play rows were bought in (`Platform.index`
    /// + 1; 0 for none), and whether Google Play's own rows named it (`playNoted`): a byte noted
    /// per row, made into the customer's store record by `finish`.
    @exclusivity(unchecked) private var storePlatforms: [UInt8] = []
    /// The rows other sources gave for a slot whose record came from one source (SPEC §9):
    /// few customers have any, so they are kept apart and assembled by `finish`.
    @exclusivity(unchecked) private var otherSources: [Int: [Customer]] = [:]

    init(rules: AuditRules) {
        self.rules = rules
    }

    /// How a customer row relates to earlier rows with its id (SPEC §8.7).
    enum CustomerOutcome: Equatable {
        case accepted
        case exactDuplicate
        case repeatedWithOtherContent
    }

    /// The slot of the customer with this id, made (as a would-be orphan) when new.
    private func slot(for id: UnsafeRawBufferPointer, hash: UInt64) -> Int {
        if let found = index.find(hash: hash, id: id, matches: { hasID($0, id) }) { return Int(found) }
        let slot = records.count
        index.insert(hash: hash, id: id, slot: Int32(slot))
        records.append(Customer.orphan(id: String(decoding: id, as: UTF8.self)))
        hasRecord.append(false)
        activities.append(CustomerActivity())
        storePlatforms.append(0)
        return slot
    }

    /// Whether the long id of `slot` is `id` (the index compares short ids itself), read where
    /// the slot's record holds it: a copy of the long ids beside the records was 40 MB at a
    /// million 36-byte ids, and reaching either costs the same two cache misses.
    private func hasID(_ slot: Int32, _ id: UnsafeRawBufferPointer) -> Bool {
        records.withUnsafeBufferPointer { records in
            let kept = records[Int(slot)].id.utf8
            return kept.withContiguousStorageIfAvailable { bytes in
                guard bytes.count == id.count else { return false }
                guard let stored = bytes.baseAddress, let given = id.baseAddress else { return true }
                return memcmp(stored, given, id.count) == 0
            } ?? kept.elementsEqual(id)
        }
    }

    /// Reads the index entries lookups of these hashes start at, so that their cache misses
    /// overlap rather than stall one lookup each (see `fold`).
    func touch(_ hashes: [UInt64]) {
        var seen: UInt64 = 0
        for hash in hashes { seen ^= index.touch(hash: hash) }
        touched = seen
    }

    /// Adds a customer row: what it is to the rows kept for its id is the rule's
    /// (`CustomerFactRules.repeat`, SPEC §8.7 within a source); a row from another source is
    /// kept beside them, and `finish` assembles the customer from all.
    func add(_ customer: Customer, hash: UInt64) -> CustomerOutcome {
        var id = customer.id
        let slot = id.withUTF8 { bytes in self.slot(for: UnsafeRawBufferPointer(bytes), hash: hash) }
        guard hasRecord[slot] else {
            records[slot] = customer
            hasRecord[slot] = true
            return .accepted
        }
        func outcome(against kept: Customer) -> CustomerOutcome? {
            switch CustomerFactRules.repeat(customer, of: kept) {
            case .otherSource: return nil
            case .exactDuplicate: return .exactDuplicate
            case .repeatedWithOtherContent: return .repeatedWithOtherContent
            }
        }
        if let outcome = outcome(against: records[slot]) { return outcome }
        for kept in otherSources[slot] ?? [] {
            if let outcome = outcome(against: kept) { return outcome }
        }
        otherSources[slot, default: []].append(customer)
        return .accepted
    }

    /// Folds the production transactions `rows` of `batch` into their customers' activities,
    /// and returns each one's slot, in order. Folding is idempotent, so an exact duplicate
    /// may be folded too; duplicates are told apart by the fingerprints.
    ///
    /// A million customers do not fit in a cache, so each row's index entry and activity is
    /// a miss. Done one row at a time, every miss stalls the next; here all of a batch's
    /// entries are read first, then its activities, so that the misses overlap.
    func fold(_ rows: [Int32], of batch: TransactionBatch) -> [Int32] {
        var seen: UInt64 = 0
        for row in rows { seen ^= index.touch(hash: batch.hashes[Int(row)].customer) }
        var slots: [Int32] = []
        slots.reserveCapacity(rows.count)
        for row in rows {
            let id = batch.rows[Int(row)].customerID
            slots.append(Int32(batch.withBytes(id) { slot(for: $0, hash: batch.hashes[Int(row)].customer) }))
        }
        for slot in slots {
            // An activity is 56 bytes, so most straddle two cache lines: read a byte of each.
            let activity = Int(slot)
            seen ^= UInt64(truncatingIfNeeded: activities[activity].current.count)
            if activities[activity].hasConflictingDuplicate { seen ^= 1 }
        }
        for (row, slot) in zip(rows, slots) {
            activities[Int(slot)].fold(batch.rows[Int(row)], of: batch, rules: rules)
            if let platform = batch.rows[Int(row)].storePlatform {
                note(platform, from: batch.rows[Int(row)].provenance.shape.storeRecordSource, ofStoreFor: Int(slot))
            } else if batch.rows[Int(row)].provenance.shape.namesItsCustomer, storePlatforms[Int(slot)] == 0 {
                storePlatforms[Int(slot)] = Self.noStorePlatform
            }
        }
        // Kept, so that the reads above are not optimised away.
        touched = seen
        return slots
    }

    /// Notes the platform of a store a customer bought in (a RevenueCat export row's), which
    /// `finish` makes the customer's record (`CustomerFactRules.storeRecord`); of several
    /// stores, the one `CustomerFactRules.storePlatform` picks. One byte per slot: a record per
    /// row would be a cache miss per row.
    /// The record's source rides in the byte's high half: the source of the row whose platform
    /// is kept, the stronger of two that name one platform.
    @inline(__always)
    private func note(_ platform: Platform, from source: CustomerSource, ofStoreFor slot: Int) {
        let noted = storePlatforms[slot]
        let byPlay = source == .playSubscription ? Self.playNoted : 0
        guard noted != 0, noted != Self.noStorePlatform else {
            storePlatforms[slot] = UInt8(platform.index + 1) | byPlay
            return
        }
        let held = Self.platforms[Int(noted & Self.platformBits) - 1]
        let kept = CustomerFactRules.storePlatform(platform, held)
        let keptByPlay = kept == held ? (noted & Self.playNoted) | (kept == platform ? byPlay : 0) : byPlay
        storePlatforms[slot] = UInt8(kept.index + 1) | keptByPlay
    }

    /// The low half of a store byte: the platform's index + 1.
    private static let platformBits: UInt8 = 0x0F
    /// The high half's mark: Google Play's own rows named the platform.
    private static let playNoted: UInt8 = 0x10

    /// The record a slot's store platform makes: a customer of an id no other source names, or
    /// a fact beside a record that gives no platform or only guesses one (a record with one
    /// outranks a store's whatever its source; a million export customers' records kept
    /// beside their rows would cost 150 MB).
    private static let platforms = Platform.allCases

    /// Noted for a customer whose export rows' stores give no platform: still a customer of
    /// the export's, not an orphan. Above every platform's note, so any platform replaces it.
    private static let noStorePlatform = UInt8.max

    private func applyStorePlatform(_ slot: Int) {
        guard storePlatforms[slot] != 0 else { return }
        let noted = storePlatforms[slot]
        let platform = noted == Self.noStorePlatform ? nil : Self.platforms[Int(noted & Self.platformBits) - 1]
        let source: CustomerSource =
            noted != Self.noStorePlatform && noted & Self.playNoted != 0 ? .playSubscription : .exportRow
        let record = CustomerFactRules.storeRecord(id: records[slot].id, platform: platform, source: source)
        if !hasRecord[slot] {
            records[slot] = record
        } else if platform != nil, CustomerFactRules.takesStorePlatform(records[slot]) {
            otherSources[slot, default: []].append(record)
        }
    }

    /// Marks a customer as named by a conflicting duplicate (SPEC §8.23).
    func flagConflict(_ slot: Int32) {
        activities[Int(slot)].hasConflictingDuplicate = true
    }

    /// How many customers `finish` moves out: those with a record, and customers made from
    /// transactions (orphans, SPEC §8.14, or customers of an export's store).
    func survivorCount() -> Int {
        var count = 0
        for slot in records.indices where hasRecord[slot] || activities[slot].hasTransaction { count += 1 }
        return count
    }

    /// Ends the fold: moves every customer the shard knows (`survivorCount()` of them) with
    /// their activity to `customers` and `activities`, in slot order. Moved, not copied: a copy
    /// would retain each one's strings and grants, and freeing the shard release them again.
    func finish(
        customers: UnsafeMutablePointer<Customer>, activities target: UnsafeMutablePointer<CustomerActivity>
    ) {
        index.release()
        for slot in storePlatforms.indices { applyStorePlatform(slot) }
        storePlatforms = []
        for (slot, others) in otherSources { records[slot] = CustomerFactRules.assemble([records[slot]] + others) }
        otherSources = [:]
        let filler = Customer(id: "", platform: nil)
        var survivor = 0
        records.withUnsafeMutableBufferPointer { records in
            activities.withUnsafeMutableBufferPointer { activities in
                guard let recordBase = records.baseAddress, let activityBase = activities.baseAddress else { return }
                for slot in 0..<records.count where hasRecord[slot] || activityBase[slot].hasTransaction {
                    activityBase[slot].removeRepeatedGrants()
                    (customers + survivor).moveInitialize(from: recordBase + slot, count: 1)
                    (recordBase + slot).initialize(to: filler)
                    (target + survivor).moveInitialize(from: activityBase + slot, count: 1)
                    (activityBase + slot).initialize(to: CustomerActivity())
                    survivor += 1
                }
            }
        }
        let freed =
            records.capacity * MemoryLayout<Customer>.stride + activities.capacity
            * MemoryLayout<CustomerActivity>.stride + hasRecord.capacity
        records = []
        activities = []
        hasRecord = []
        // The arrays just freed are of sizes glibc keeps in its arenas: given back now, shard
        // by shard, they do not stay counted while the run's arrays fill beside them (70 MB
        // at a million customers, the run's peak).
        FreedMemory.giveBack(freed: freed)
    }
}
