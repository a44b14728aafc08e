/// Finds a customer's slot by the bytes of its id, without making a string: an
/// open-addressing table of (id hash, slot), compared against the ids the ledger keeps.
///
/// Ids are compared by their exact bytes, i.e. code points: two spellings Unicode calls
/// equivalent (NFC and NFD "café") are different customers, as in any database.
final class CustomerIndex {
    private static let maximumLoad = 0.7

    private var hashes: UnsafeMutablePointer<UInt64>
    private var slots: UnsafeMutablePointer<Int32>
    private var capacity: Int
    private(set) var count = 0

    init(capacity: Int = 1024) {
        self.capacity = capacity
        hashes = .allocate(capacity: capacity)
        hashes.initialize(repeating: 0, count: capacity)
        slots = .allocate(capacity: capacity)
    }

    deinit {
        hashes.deallocate()
        slots.deallocate()
    }

    /// The hash an id is filed under (never 0, which marks an empty place).
    static func hash(_ id: UnsafeRawBufferPointer) -> UInt64 {
        var hash = StableHash()
        hash.combine(id)
        return max(hash.value, 1)
    }

    /// The slot filed under `hash` whose id `matches`, else `nil`.
    func find(hash: UInt64, matches: (Int32) -> Bool) -> Int32? {
        var place = Int(hash.multipliedFullWidth(by: UInt64(capacity)).high)
        while hashes[place] != 0 {
            if hashes[place] == hash, matches(slots[place]) { return slots[place] }
            place += 1
            if place == capacity { place = 0 }
        }
        return nil
    }

    /// Files `slot` under `hash` (the caller checked it is not there yet).
    func insert(hash: UInt64, slot: Int32) {
        if Double(count + 1) > Double(capacity) * Self.maximumLoad { grow() }
        place(hash: hash, slot: slot)
        count += 1
    }

    private func place(hash: UInt64, slot: Int32) {
        var place = Int(hash.multipliedFullWidth(by: UInt64(capacity)).high)
        while hashes[place] != 0 {
            place += 1
            if place == capacity { place = 0 }
        }
        hashes[place] = hash
        slots[place] = slot
    }

    private func grow() {
        let oldHashes = hashes
        let oldSlots = slots
        let oldCapacity = capacity
        capacity *= 2
        hashes = .allocate(capacity: capacity)
        hashes.initialize(repeating: 0, count: capacity)
        slots = .allocate(capacity: capacity)
        for index in 0..<oldCapacity where oldHashes[index] != 0 {
            place(hash: oldHashes[index], slot: oldSlots[index])
        }
        oldHashes.deallocate()
        oldSlots.deallocate()
    }
}
