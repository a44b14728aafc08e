/// Duplicate detection with a compact fingerprint per transaction (SPEC §8.23): a 64-bit
/// hash of the transaction id, the 64-bit hash of its normalised content, and the owner
/// of its first version. Nothing else of a transaction is kept.
///
/// Two different ids sharing a 64-bit hash is the one way this can err (about 3 in a
/// million runs at 10M transactions); the README says so.
struct TransactionFingerprints: Sendable {
    /// What was seen of one transaction id.
    private struct Entry: Sendable {
        var content: UInt64
        var owner: Int32
    }

    /// How a transaction relates to those seen before.
    enum Outcome: Equatable {
        case first
        case exactDuplicate
        /// Another version exists; `firstOwner` is the customer of the first version seen.
        case conflict(firstOwner: Int32)
    }

    private var entries: [UInt64: Entry] = [:]
    /// Further versions of conflicting ids; rare, so kept apart.
    private var otherVersions: [UInt64: [UInt64]] = [:]

    /// Reserves room for about `count` transactions.
    mutating func reserve(_ count: Int) {
        entries.reserveCapacity(count)
    }

    /// Records a transaction version and says what it is.
    mutating func record(id: UInt64, content: UInt64, owner: Int32) -> Outcome {
        guard let entry = entries[id] else {
            entries[id] = Entry(content: content, owner: owner)
            return .first
        }
        if entry.content == content { return .exactDuplicate }
        if otherVersions[id]?.contains(content) == true { return .exactDuplicate }
        otherVersions[id, default: []].append(content)
        return .conflict(firstOwner: entry.owner)
    }

    /// The fingerprint of a transaction's normalised content (SPEC §8.23): instants, enums,
    /// defaults and the canonical price; unknown columns never reach it.
    static func content(of transaction: Transaction) -> UInt64 {
        var hash = StableHash()
        hash.combine(transaction.transactionID)
        hash.combine(transaction.originalTransactionID)
        hash.combine(transaction.customerID)
        hash.combine(transaction.productID)
        hash.combine(transaction.productType.rawValue)
        hash.combine(transaction.purchaseDate)
        hash.combine(transaction.expiresDate)
        hash.combine(transaction.revocationDate)
        hash.combine(transaction.ownership.rawValue)
        hash.combine(transaction.environment.rawValue)
        hash.combine(transaction.price)
        hash.combine(transaction.currency)
        hash.combine(transaction.renewalState?.rawValue)
        hash.combine(transaction.gracePeriodExpiresDate)
        return hash.value
    }

    /// The fingerprint of a transaction id.
    static func id(of transaction: Transaction) -> UInt64 {
        var hash = StableHash()
        hash.combine(transaction.transactionID)
        return hash.value
    }
}

/// FNV-1a over bytes with a final avalanche: the same value on every run and machine,
/// unlike Swift's seeded `Hasher`.
struct StableHash {
    private(set) var state: UInt64 = 0xcbf2_9ce4_8422_2325

    var value: UInt64 {
        var x = state
        x ^= x >> 33
        x &*= 0xff51_afd7_ed55_8ccd
        x ^= x >> 33
        x &*= 0xc4ce_b9fe_1a85_ec53
        x ^= x >> 33
        return x
    }

    mutating func combine(byte: UInt8) {
        state = (state ^ UInt64(byte)) &* 0x0000_0100_0000_01b3
    }

    mutating func combine(_ text: String?) {
        guard let text else {
            combine(byte: 0xFF)
            return
        }
        for byte in text.utf8 { combine(byte: byte) }
        combine(byte: 0xFE)
    }

    mutating func combine(_ instant: Instant?) {
        guard let instant else {
            combine(byte: 0xFF)
            return
        }
        var value = UInt64(bitPattern: instant.microseconds)
        for _ in 0..<8 {
            combine(byte: UInt8(truncatingIfNeeded: value))
            value >>= 8
        }
        combine(byte: 0xFE)
    }
}
